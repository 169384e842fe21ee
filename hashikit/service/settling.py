"""The rules settle a picture's reading: the one reading every front end gives.

:func:`settle` takes what :mod:`hashikit.formats.picture` read and uses the rules of the puzzle where
the reading is unsure.  A Hashi puzzle has exactly one solution, so where a number is unsure, or the
puzzle as read has no solution or several, the runner-up readings of the unsure places are tried,
most probable first, within a small budget (:data:`TRIES`, :data:`BUDGET`), and the reading that
gives exactly one solution is kept, with what was corrected and why ("row 3, column 5 read as 4; as
1 the puzzle has exactly one solution").  A reading that needs a correction and finds none stays
unsure and says where.  Where the puzzle read has one solution and every bridge seen agrees with it,
the picture shows that solution, and the links it could not see (hidden under the islands' circles,
or drawn over part of their gap) are read from it.  A reading with signs of another puzzle that has
no solution is no board.

:func:`read_document` settles a document read from a picture (``service.load`` calls it, so every
command reads a picture the same way); :mod:`.picture` gives the library's and the web's reading.
"""

from __future__ import annotations

import heapq
import logging
import math
import time

__all__ = ["settle", "read_document", "TRIES", "BUDGET"]

#: readings tried at most, the one read first
TRIES = 64
#: seconds of solving at most spent on trying readings
BUDGET = 0.45
#: unsure places tried at most (the least sure first)
PLACES = 8
#: boards with more islands than this are not tried (each try solves the puzzle)
MOST_ISLANDS = 400
#: an island this sure or less may be tried when the puzzle as read has no solution, with no place doubted
DOUBTFUL = 0.97

log = logging.getLogger("hashikit.picture")


def _where(cell) -> str:
    return f"row {cell[0] + 1}, column {cell[1] + 1}"


def _solutions(puzzle, deadline):
    """The puzzle's solutions, up to two ([] when it has none), or None past the budget."""
    from ..checker import check
    from ..solvers import solve

    if time.perf_counter() > deadline:
        return None
    if puzzle.capacity_problems():
        return []
    result = solve(puzzle, max_solutions=2)
    for s in result.solutions:
        if not check(puzzle, s).ok:  # never trusted unchecked
            return None
    if not result.solutions:
        return [] if str(result.status) == "infeasible" else None
    return list(result.solutions)


def _renumbered(puzzle, numbers):
    """The puzzle with the islands at ``numbers``' cells given those numbers (0: no island there)."""
    gone = {cell for cell, n in numbers.items() if n == 0}
    if gone:
        puzzle = puzzle.with_islands([i for i in puzzle.islands if i.pos not in gone])
    keep = {cell: n for cell, n in numbers.items() if n}
    return puzzle.with_numbers(keep) if keep else puzzle


def _best_first(choices, limit):
    """Assignments (one index per place) in order of falling probability, the all-zeros one first."""
    logs = [[math.log(max(p, 1e-6)) for _, p in ch] for ch in choices]
    start = tuple(0 for _ in choices)
    seen = {start}
    heap = [(-sum(lg[0] for lg in logs), start)]
    while heap and limit > 0:
        score, idx = heapq.heappop(heap)
        yield idx
        limit -= 1
        for k in range(len(idx)):
            if idx[k] + 1 < len(choices[k]):
                nxt = idx[:k] + (idx[k] + 1,) + idx[k + 1:]
                if nxt not in seen:
                    seen.add(nxt)
                    heapq.heappush(heap, (score + logs[k][idx[k]] - logs[k][idx[k] + 1], nxt))


def settle(reading, budget: float = BUDGET, tries: int = TRIES, source: str = "<picture>"):
    """The reading with what the rules settle (see the module's text); ``reading`` is not changed.
    A reading that shows signs of another puzzle (``reading.foreign``) and has no solution as a Hashi
    puzzle, even corrected, is no board: :class:`~hashikit.errors.FormatError`."""
    import copy

    out = copy.copy(reading)
    out.doubts, out.corrections = list(reading.doubts), list(reading.corrections)
    out.islands = [copy.copy(i) for i in reading.islands]
    if len(reading.puzzle.islands) > MOST_ISLANDS:
        return out
    deadline = time.perf_counter() + budget
    numbers = [d for d in out.doubts if d.kind == "number" and d.cell is not None and len(d.choices) > 1]
    numbers = sorted(numbers, key=lambda d: d.choices[0][1])[:PLACES]
    sols = _solutions(reading.puzzle, deadline)
    implicit = sols is not None and len(sols) != 1 and not numbers
    if implicit:  # no place was doubted, yet the puzzle as read is not one: the least sure numbers may be wrong
        numbers = _least_sure(out.islands)
    chosen = _search(reading.puzzle, numbers, deadline, tries) if sols is not None and len(sols) != 1 else None
    if chosen is not None:
        sols = chosen[2]
        _apply(out, reading, *chosen[:2])
    elif sols is not None and len(sols) == 1 and numbers and not implicit:
        _confirm(out, numbers, deadline)
    elif sols is not None and not sols and reading.foreign:
        from ..errors import FormatError
        from ..formats.picture import NONE

        raise FormatError(f"{NONE} (numbers on a grid, but {reading.foreign[0]}, and as a Hashi puzzle it has "
                          f"no solution: another puzzle?)", source)
    elif sols is not None and len(sols) != 1 and (numbers or not sols):
        from ..formats.picture import Doubt

        what = "has no solution" if not sols else "has more than one solution"
        named = numbers if implicit else []
        if implicit and not named and not sols:  # nothing below DOUBTFUL: still, say where to look first
            named = _least_sure(out.islands, 1.0, 3)
        places = "; ".join(f"{_where(d.cell)} ({' or '.join(str(n) for n, _ in d.choices[:3])}?)" for d in named)
        out.doubts.append(Doubt("puzzle", f"the puzzle as read {what}" + (f"; the least sure numbers: {places}"
                                                                          if places else "")))
        out.doubts.extend(named)
    _settle_bridges(out, sols if sols is not None and len(sols) == 1 else None)
    _overdrawn(out, sols if sols is not None and len(sols) == 1 and chosen is None else None)
    return out


def _overdrawn(out, sols) -> None:
    """Bridges read where no game could have them are doubted at their link: more than the puzzle's
    one solution has there, or more at an island than its number (a misread bridge, or a mistake in
    the game; either way the reader cannot be sure of it)."""
    from ..formats.picture import Doubt

    seen = out.bridges.bridges
    if not seen:
        return
    doubted = {d.link for d in out.doubts if d.link is not None}
    number = {i.pos: i.number for i in out.puzzle.islands}
    held = {}
    for (a, b), n in seen.items():
        held[a] = held.get(a, 0) + n
        held[b] = held.get(b, 0) + n
    want = sols[0].bridges if sols else None
    for (a, b), n in sorted(seen.items()):
        if not n or (a, b) in doubted:
            continue
        if want is not None:
            if n <= want.get((a, b), 0):
                continue
            why = f"the puzzle's one solution has {want.get((a, b), 0)} there"
        elif held.get(a, 0) > number.get(a, 9) or held.get(b, 0) > number.get(b, 9):
            end = a if held.get(a, 0) > number.get(a, 9) else b
            why = f"{held[end]} bridges read at the {number[end]} at {_where(end)}"
        else:
            continue
        out.doubts.append(Doubt("bridge", f"the link from {_where(a)} to {_where(b)}: read as {n} "
                                          f"bridge{'s' if n != 1 else ''}, but {why} (a misread bridge, or a "
                                          f"mistake in the game)", link=(a, b), choices=[(n, 1.0)]))


def _least_sure(islands, most_sure: float = DOUBTFUL, places: int = PLACES // 2):
    """Doubts for the least sure islands (at most ``most_sure``) that have a runner-up."""
    from ..formats.picture import Doubt

    out = []
    for i in sorted(islands, key=lambda i: i.sure):
        alts = [(n, p) for n, p in i.others if p >= 0.02] or i.others[:1]
        if i.sure <= most_sure and alts:
            out.append(Doubt("number", f"{_where((i.row, i.col))}: read as {i.number}, could be {alts[0][0]}",
                             cell=(i.row, i.col), choices=[(i.number, i.sure)] + alts[:2]))
        if len(out) >= places:
            break
    return out


def _search(puzzle, numbers, deadline, tries):
    """The most probable reading of the unsure places that has exactly one solution, tried most
    probable first: (the cells changed and their numbers, the puzzle, its solutions), or None."""
    if not numbers:
        return None
    choices = [[(n, p) for n, p in d.choices if p >= 0.01] or d.choices[:1] for d in numbers]
    base = {d.cell: d.choices[0][0] for d in numbers}
    for idx in _best_first(choices, tries):
        if not any(idx):
            continue
        change = {d.cell: choices[k][j][0] for k, (d, j) in enumerate(zip(numbers, idx)) if j}
        if sum(1 for n in {**base, **change}.values() if n == 0) >= len(puzzle.islands) - 1:
            continue
        trial = _renumbered(puzzle, {**base, **change})
        found = _solutions(trial, deadline)
        if found is None:
            return None
        if len(found) == 1:
            return change, trial, found
    return None


def _apply(out, reading, change, puzzle) -> None:
    """The corrections ``change`` (cell -> number, 0 for no island) made to ``out``, and said."""
    from ..formats.picture import Correction
    from ..model import Solution

    was = {i.pos: i.number for i in reading.puzzle.islands}
    for cell, n in sorted(change.items()):
        if n:
            text = f"{_where(cell)} read as {was[cell]}; as {n} the puzzle has exactly one solution"
        else:
            text = f"{_where(cell)} read as a faint {was[cell]}; with no island there the puzzle has exactly one solution"
        out.corrections.append(Correction(text, cell=cell, was=was[cell], now=n))
        for isl in out.islands:
            if (isl.row, isl.col) == cell:
                isl.number = n
    out.islands = [i for i in out.islands if i.number]
    out.doubts = [d for d in out.doubts if not (d.kind == "number" and d.cell in change)]
    gone = {cell for cell, n in change.items() if n == 0}
    if gone:
        on = {(puzzle.islands[ln.a].pos, puzzle.islands[ln.b].pos) for ln in puzzle.links}
        out.bridges = Solution({(a, b): k for (a, b), k in out.bridges.bridges.items()
                                if a not in gone and b not in gone and (a, b) in on})
    out.puzzle = puzzle


def _confirm(out, numbers, deadline) -> None:
    """The reading as it is has one solution: each doubt whose other readings give none (or several)
    is settled, and said."""
    from ..formats.picture import Correction

    puzzle = out.puzzle
    settled = set()
    for d in numbers:
        others = [n for n, _ in d.choices[1:3]]
        unique_too = False
        for n in others:
            if n == 0 and len(puzzle.islands) <= 2:
                continue
            found = _solutions(_renumbered(puzzle, {d.cell: n}), deadline)
            if found is None or len(found) == 1:
                unique_too = True
                break
        if not unique_too:
            n = d.choices[0][0]
            alt = f" (not {' or '.join(map(str, others))})" if others else ""
            out.corrections.append(Correction(
                f"{_where(d.cell)} read as {n}, unsure; the rules agree{alt}: as {n} the puzzle has exactly one "
                f"solution", cell=d.cell, was=n, now=n))
            settled.add(id(d))
    out.doubts = [d for d in out.doubts if id(d) not in settled]


def _settle_bridges(out, sols) -> None:
    """Links the picture could not show (hidden, partly drawn) read from the one solution when every
    other link agrees with it; an empty board's hidden links are empty."""
    from ..formats.picture import Correction
    from ..model import Solution

    doubted = {d.link: d for d in out.doubts if d.kind == "bridge" and d.link is not None}
    if not doubted:
        return
    puzzle = out.puzzle
    seen = out.bridges.bridges
    hidden_only = all(d.link in set(map(tuple, out.hidden)) for d in doubted.values())
    if not seen and hidden_only:  # nothing drawn anywhere: the hidden links are empty too
        out.doubts = [d for d in out.doubts if d.link not in doubted]
        return
    if not sols:
        return
    s = sols[0].bridges
    isl = puzzle.islands

    def key(ln):
        return (isl[ln.a].pos, isl[ln.b].pos)

    for ln in puzzle.links:
        k = key(ln)
        if k not in doubted and seen.get(k, 0) != s.get(k, 0):
            return  # a game in progress, or a misread bridge: nothing to read from the solution
    counts = []
    for ln in puzzle.links:
        k = key(ln)
        n = seen.get(k, 0)
        if k in doubted:
            want = s.get(k, 0)
            if want != n:
                out.corrections.append(Correction(
                    f"the link from {_where(k[0])} to {_where(k[1])} ({doubted[k].text.split(' is ', 1)[-1]}): "
                    f"{want} bridge{'s' if want != 1 else ''}, as in the puzzle's one solution, which every other "
                    f"link drawn agrees with", link=k, was=n, now=want))
            n = want
        counts.append(n)
    out.doubts = [d for d in out.doubts if d.link not in doubted]
    out.bridges = Solution.from_counts(puzzle, counts)


def read_document(doc, source: str):
    """A document read from a picture, settled by the rules (the same document for other files);
    what was read, corrected and left unsure goes to the ``hashikit.picture`` log."""
    if doc.picture is None:
        return doc
    from ..formats import Document

    reading = settle(doc.picture, source=source)
    log.info("%s: %s", source, reading.summary())
    for c in reading.corrections:
        log.warning("%s: corrected: %s", source, c.text)
    for where in reading.unsure:
        log.warning("%s: unsure: %s", source, where)
    bridges = reading.bridges if reading.bridges.bridges else None
    return Document(reading.puzzle, bridges, in_play=True, picture=reading)
