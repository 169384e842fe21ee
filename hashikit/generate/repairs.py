"""The repairs of a construction (a layout being turned into a puzzle of one solution, see
:mod:`.unique`): where the deducer is stuck, a count on one of its links changes (one bridge more
or fewer, and the two numbers with it) or an island is inserted on one of its bridges; either way
the construction stays a solution of the changed puzzle, which says more.  A construction is a
puzzle and its count on each of the puzzle's links; :func:`_batch` chooses repairs far apart
where a deducer is stuck, :func:`_apply` makes them (or takes them back) in one rebuild, and
:func:`_open_near` says, per repair, how many links are still open around it.
"""

from __future__ import annotations

import random
from itertools import compress, repeat
from operator import lt
from typing import AbstractSet, Callable, NamedTuple, Sequence

from ..model import Island, Puzzle
from .layouts import _DIRS, Pos, _between

#: with this many links open, repairs mostly change counts (one insertion for two count changes):
#: on large stuck areas a count change helps about three times as often as an insertion
_MANY_OPEN = 60
#: a batch of repairs has one site per this many open links (a large board gets stuck in many
#: places at once: repairing them in one rebuild instead of one rebuild each)
_OPEN_PER_SITE = 12
#: the repairs of one batch lie in blocks of this many cells a side that are not next to each
#: other (so at least this far apart), and each is judged by the open links within half of it
_SITE_GAP = 4

class _Repair(NamedTuple):
    """One change of the construction (which stays a solution of the changed puzzle).

    Without ``cell``: ``delta`` (+1 or -1) bridges on the construction's link ``bridge``,
    and the two numbers with it.  With ``cell``: a new island on ``cell``, which the
    construction bridge ``bridge`` (``c`` bridges) passes over; it becomes two bridges of
    ``c`` and the island's number is ``2c``.
    """

    bridge: tuple[Pos, Pos]
    delta: int = 0
    cell: Pos | None = None

    @property
    def where(self) -> tuple[Pos, ...]:
        """The cells whose islands change (numbers or links)."""
        return (self.bridge[0], self.cell, self.bridge[1]) if self.cell else self.bridge


def _apply(puzzle: Puzzle, counts: list[int], add: list[_Repair], undo: Sequence[_Repair] = ()
           ) -> tuple[Puzzle, list[int], list[Pos]]:
    """The construction with ``undo`` (repairs it holds) taken back and ``add`` made, built once.

    Returns the new puzzle, the construction's counts on its links and the cells of the islands
    that changed.  The repairs must touch different bridges and islands (the caller keeps them
    apart).  When only counts change, the new puzzle shares the old one's links and crossings.
    """
    if not any(r.cell for r in add) and not any(r.cell for r in undo):
        index, link_index, isl = puzzle.index, puzzle.link_index, puzzle.islands
        new = list(counts)
        numbers: dict[Pos, int] = {}
        where: list[Pos] = []
        for r, delta in [(r, -r.delta) for r in undo] + [(r, r.delta) for r in add]:
            p, q = r.bridge
            a, b = index[p], index[q]
            new[link_index[(a, b) if a < b else (b, a)]] += delta
            numbers[p] = numbers.get(p, isl[a].number) + delta
            numbers[q] = numbers.get(q, isl[b].number) + delta
            where += [p, q]
        return puzzle.with_numbers(numbers), new, where
    numbers = {}  # the changed numbers (0: the island goes)
    old = puzzle.index

    def number(p: Pos) -> int:
        n = numbers.get(p)
        return puzzle.islands[old[p]].number if n is None else n

    bridges = {cells: c for cells, c in zip(puzzle.link_cells, counts) if c}
    where = []
    for r in undo:
        p, q = r.bridge
        if r.cell:
            c = bridges.pop((p, r.cell))
            del bridges[(r.cell, q)]
            bridges[r.bridge] = c
            numbers[r.cell] = 0
        else:
            bridges[r.bridge] = bridges.get(r.bridge, 0) - r.delta
            numbers[p] = number(p) - r.delta
            numbers[q] = number(q) - r.delta
        where += [p, q]
    for r in add:
        p, q = r.bridge
        if r.cell:
            c = bridges.pop(r.bridge)
            bridges[(p, r.cell)] = c
            bridges[(r.cell, q)] = c
            numbers[r.cell] = 2 * c
            where.append(r.cell)
        else:
            bridges[r.bridge] = bridges.get(r.bridge, 0) + r.delta
            numbers[p] = number(p) + r.delta
            numbers[q] = number(q) + r.delta
            where += [p, q]
    islands = [i for i in puzzle.islands if (i[0], i[1]) not in numbers]
    islands += [Island(r, c, n) for (r, c), n in numbers.items() if n]
    new_puzzle = puzzle.with_islands(islands)
    return new_puzzle, list(map(bridges.get, new_puzzle.link_cells, repeat(0))), where


def _count_moves(puzzle: Puzzle, k: int, counts: list[int], added: set[int]) -> list[int]:
    """The count changes allowed on link ``k`` (cheap checks; a removal's connectivity is checked later).

    One more bridge when it stays within MAXBRIDGES and, for a new link, crosses no built
    bridge nor a link given its first bridge in the same batch (``added``; a new link would
    close a loop in a no-loops tree); one fewer when both islands keep a bridge.
    """
    ln = puzzle.links[k]
    isl = puzzle.islands
    c = counts[k]
    moves = []
    if c < puzzle.maxbridges and (c >= 1 or (not puzzle.no_loops and not any(
            counts[j] or j in added for j in puzzle.crossing_partners[k]))):
        moves.append(1)
    if c >= 1 and isl[ln.a].number > 1 and isl[ln.b].number > 1:
        moves.append(-1)
    return moves


def _connected_without(puzzle: Puzzle, counts: list[int], skip: set[int], k: int) -> bool:
    """True when the construction stays connected without its links in ``skip`` and link ``k``
    (``k``'s ends stay joined): a search from both ends at once, which stops as soon as they meet
    or the smaller side is used up."""
    inc, ends = puzzle.incident, puzzle.links
    a, b, _horizontal = ends[k]
    side = [{a}, {b}]
    frontier = [[a], [b]]
    while frontier[0] and frontier[1]:
        s = 0 if len(frontier[0]) <= len(frontier[1]) else 1
        mine, theirs, grown = side[s], side[1 - s], []
        for x in frontier[s]:
            for j in inc[x]:
                if counts[j] and j != k and j not in skip:
                    y, z, _h = ends[j]
                    y = z if y == x else y
                    if y in theirs:
                        return True
                    if y not in mine:
                        mine.add(y)
                        grown.append(y)
        frontier[s] = grown
    return False


def _repair_cells(puzzle: Puzzle, counts: list[int], undecided: list[int], rng: random.Random,
                  allow_adjacent: bool = False) -> list[tuple[Pos, tuple[Pos, Pos]]]:
    """Cells where a new island would add information where the deducer is stuck (``undecided``:
    its open links), each with the construction bridge over it (``counts``: the construction on
    ``puzzle.links``).

    First the cells where an open link that the construction leaves empty crosses
    a built bridge (an island there blocks that link), then (only with ``allow_adjacent``:
    they are next to an island) the bridge cells next to the islands of open links, and
    cells next to an island last.
    """
    isl, links = puzzle.islands, puzzle.links
    partners = puzzle.crossing_partners
    occupied = puzzle.index
    blocking: dict[Pos, tuple[Pos, Pos]] = {}
    for k in undecided:
        if counts[k]:
            continue
        for j in partners[k]:
            if counts[j]:
                h, v = (links[k], links[j]) if links[k].horizontal else (links[j], links[k])
                blocking[(isl[h.a].row, isl[v.a].col)] = (isl[links[j].a].pos, isl[links[j].b].pos)
    near: dict[Pos, tuple[Pos, Pos]] = {}
    if allow_adjacent:
        covered: dict[Pos, tuple[Pos, Pos]] = {}
        for (p, q), c in zip(puzzle.link_cells, counts):
            for cell in _between(p, q) if c else ():
                covered[cell] = (p, q)
        for k in undecided:
            ln = links[k]
            for end in (isl[ln.a].pos, isl[ln.b].pos):
                for dr, dc in _DIRS:
                    cell = (end[0] + dr, end[1] + dc)
                    if cell in covered:
                        near[cell] = covered[cell]

    def lonely(cell: Pos) -> bool:
        return not any((cell[0] + dr, cell[1] + dc) in occupied for dr, dc in _DIRS)

    out: dict[Pos, tuple[Pos, Pos]] = {}
    for group in (blocking, near):
        cells = sorted(group)
        rng.shuffle(cells)
        if allow_adjacent:
            cells.sort(key=lambda cell: not lonely(cell))  # cells away from islands first
        else:
            cells = [cell for cell in cells if lonely(cell)]
        for cell in cells:
            out.setdefault(cell, group[cell])
    return list(out.items())


def _block(p: Pos) -> tuple[int, int]:
    return (p[0] // _SITE_GAP, p[1] // _SITE_GAP)


def _batch(puzzle: Puzzle, counts: list[int], deducer, rng: random.Random, allow_adjacent: bool, size: int,
           keep_away: list[_Repair], more: float = 1.0, fewer: bool = True, skip: AbstractSet[_Repair] = frozenset(),
           built_first: bool = False) -> tuple[list[_Repair], Callable[[], list[_Repair]]]:
    """Up to ``size`` repairs where the deducer is stuck, far apart, and the insertions left over
    (a function that lists them: they are worked out only when wanted).

    Candidates alternate as in a one-at-a-time repair: a count change on an open link
    (one more bridge where one may go, else one fewer: measured on 40x40 and 60x60 hard, one
    more helps in 26-49% of the tries, one fewer in 14-19%, an inserted island in 10%),
    an island where an open link crosses a built bridge or next to the islands of open
    links (on a large stuck area, an island after every two count changes).  A candidate
    is taken when its cells lie in blocks (:data:`_SITE_GAP`) not next to those of the
    repairs already taken or of ``keep_away`` (repairs the construction holds and the
    batch takes back), and when the construction stays connected without the links the
    batch empties.  The leftover insertions (up to 9) are what a too easy result tries next.
    ``more``: the chance that a count change adds a bridge where it could also take one away;
    ``fewer``: False, a count change never takes one away (see :data:`_ADD_ONLY`).
    ``built_first``: count changes on the open links the construction bridges are tried before
    those on the others (see :data:`unique._BUILT_FIRST`).
    ``skip``: repairs not to choose (they were tried on this construction, with the same
    ``keep_away``, and did not help: the result would be the same).
    """
    cells_of = puzzle.link_cells
    open_links = deducer.st.undecided()
    n_open = len(open_links)
    n_built = n_open
    if built_first:  # the open links the construction bridges, in random order, then the others
        built = [k for k in open_links if counts[k]]
        if len(built) < n_open:
            open_links = built + [k for k in open_links if not counts[k]]
            n_built = len(built)
    bits = rng.getrandbits
    link_index, index = puzzle.link_index, puzzle.index
    taken_blocks: set[tuple[int, int]] = set()
    added: set[int] = set()  # links without a bridge in the construction that get one (batch or undo)
    emptied: set[int] = set()  # links the batch (or its undo) leaves without a bridge
    for r in keep_away:
        if r.cell is None:
            k = link_index[(index[r.bridge[0]], index[r.bridge[1]])]
            now = counts[k]
            if r.delta == 1 and now == 1:
                emptied.add(k)  # taking back a first bridge
            elif r.delta == -1 and now == 0:
                added.add(k)  # taking back a removal: no new link may cross it

    def free(r: _Repair) -> bool:
        return all(_block(p) not in taken_blocks for p in r.where)

    def take(r: _Repair) -> None:
        for p in r.where:
            br, bc = _block(p)
            taken_blocks.update((br + i, bc + j) for i in (-1, 0, 1) for j in (-1, 0, 1))

    for r in keep_away:
        take(r)
    chosen: list[_Repair] = []

    def count_change(k: int) -> _Repair | None:
        r = _Repair(cells_of[k])
        if taken_blocks and not free(r):
            return None
        moves = _count_moves(puzzle, k, counts, added)
        if not moves or not fewer and moves[0] < 0:
            return None
        # one more bridge where it may go (it helps 2-3x as often as one fewer), or at random
        delta = moves[0] if len(moves) == 1 or more >= 1 or rng.random() < more else moves[1]
        if skip and (r.bridge, delta, None) in skip:
            return None
        if delta == -1 and counts[k] == 1:
            if not _connected_without(puzzle, counts, emptied, k):
                return None
            emptied.add(k)
        elif delta == 1 and counts[k] == 0:
            added.add(k)
        return _Repair(r.bridge, delta)

    inserts: list[_Repair] | None = None

    def insertions() -> list[_Repair]:
        nonlocal inserts
        if inserts is None:
            inserts = [_Repair(bridge, cell=cell)
                       for cell, bridge in _repair_cells(puzzle, counts, deducer.st.undecided(), rng, allow_adjacent)]
        return inserts

    tried = 0  # the insertions tried
    j = 0
    while len(chosen) < size and (j < n_open or j < len(insertions())):
        if j < n_open:
            # the open links in random order, drawn as they are wanted
            m = (n_built if j < n_built else n_open) - j
            x = bits(m.bit_length())
            while x >= m:
                x = bits(m.bit_length())
            x += j
            open_links[j], open_links[x] = open_links[x], open_links[j]
            change = count_change(open_links[j])
            if change is not None:
                chosen.append(change)
                if len(chosen) < size:
                    take(change)
        if len(chosen) < size and (n_open < _MANY_OPEN or j % 3 == 2):
            candidates = insertions()
            while tried < len(candidates):
                r = candidates[tried]
                tried += 1
                if free(r) and r not in skip:
                    chosen.append(r)
                    take(r)
                    break
        j += 1
    return chosen, lambda: [r for r in insertions()[:9] if r not in chosen]


def _sites(repairs: list[_Repair]) -> tuple[list[tuple[int, int, int, int]], dict[tuple[int, int], set[int]]]:
    """Where :func:`_open_near` looks for each repair: its box (its cells and half a
    :data:`_SITE_GAP` around them: first row, last row, first column, last column), and per block
    the repairs whose cells lie in it or in a block next to it."""
    half = _SITE_GAP // 2
    boxes = []
    by_block: dict[tuple[int, int], set[int]] = {}
    for s, r in enumerate(repairs):
        rows = [p[0] for p in r.where]
        cols = [p[1] for p in r.where]
        boxes.append((min(rows) - half, max(rows) + half, min(cols) - half, max(cols) + half))
        for p in r.where:
            br, bc = _block(p)
            for i in (-1, 0, 1):
                for j in (-1, 0, 1):
                    by_block.setdefault((br + i, bc + j), set()).add(s)
    return boxes, by_block


def _open_near(deducer, puzzle: Puzzle, repairs: list[_Repair], sites=None) -> list[int]:
    """Per repair, the open links of ``deducer`` with an island within half a :data:`_SITE_GAP`
    of one of the repair's cells (``sites``: :func:`_sites` of the repairs, when the caller has it)."""
    gap = _SITE_GAP
    boxes, by_block = sites if sites is not None else _sites(repairs)
    out = [0] * len(repairs)
    isl = puzzle.islands
    get = by_block.get
    for a, b in compress(deducer.st.geo.ends, map(lt, deducer.st.lo, deducer.st.hi)):  # the open links
        ra, ca, _n = isl[a]
        rb, cb, _n = isl[b]
        sa, sb = get((ra // gap, ca // gap)), get((rb // gap, cb // gap))
        if sa is None:
            if sb is None:
                continue
            sites = sb
        else:
            sites = sa if sb is None else sa | sb
        for s in sites:
            r0, r1, c0, c1 = boxes[s]
            if r0 <= ra <= r1 and c0 <= ca <= c1 or r0 <= rb <= r1 and c0 <= cb <= c1:
                out[s] += 1
    return out


