"""Part of a board solved on its own: the SAT formula of some *open* links, every other link held.

A large board's rounds change few links at a time.  Instead of asking the whole formula under
assumptions that hold the rest (a call that costs the whole board), a :class:`Place` writes the
formula of the open links alone, on a small solver of its own, with the rest of the board folded in:

- an island with an open link needs its number less the bridges its held links carry, spread over
  its open links (the unary encoding's degree clauses, picked out of a row of the island's literals
  by getters cached per capacities and number, :func:`_degree_clauses`);
- a link asked open that crosses a held link carrying a bridge stays held (at 0, as it must) until
  that link opens too: no variables and no clauses for it; two open links that cross exclude each
  other;
- the implied clauses (two islands with the same number c not joined by c bridges);
- each connectivity cut (:class:`Cuts`) with an open link: satisfied and left out when a held
  link meets it, else a clause over its open links.

A place that has no model is widened on the same solver: more links open, the clauses that folded
the newly opened links in retired.  Any assignment of the place, with the held links, satisfies
every clause of the whole encoding that concerns the open links; the caller still checks the whole
answer's connectivity (and the rule checker checks every answer).
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import accumulate, product, repeat

from .cadical import CADICAL, open_solver


#: degree constraints with more count tuples than this use a totalizer instead
_TUPLE_LIMIT = 400


@lru_cache(maxsize=None)
def _degree_patterns(capacities: tuple[int, ...], need: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Clauses for "the counts on links with these capacities sum to ``need``", as ``(position, level)``
    literals: ``level > 0`` is "at least ``level`` bridges on that link", ``-level`` its negation.

    Forbids each maximal tuple one over (``sum == need + 1``: not all of them reached)
    and each maximal tuple one under (``sum == need - 1``: not all of them capped).
    """
    out = []
    for counts in product(*(range(c + 1) for c in capacities)):
        s = sum(counts)
        if s == need + 1:
            out.append(tuple((p, -t) for p, t in enumerate(counts) if t))
        elif s == need - 1:
            out.append(tuple((p, t + 1) for p, (t, c) in enumerate(zip(counts, capacities)) if t < c))
    return tuple(out)


def _row(capacities: Sequence[int], bases: Sequence[int]) -> list[int]:
    """An island's literals "at least j bridges" on each of its links, whose variables start after
    ``bases`` (j = 1..capacity, link by link): the row :func:`_degree_block`'s getters pick from,
    followed by the same negated."""
    row: list[int] = []
    for b, c in zip(bases, capacities):
        row.extend(range(b + 1, b + c + 1))
    return row


def _degree_clauses(capacities: tuple[int, ...], need: int, bases: Sequence[int]) -> list[tuple[int, ...]]:
    """:func:`_degree_patterns`'s clauses as literals (tuples), for links whose variables start after
    ``bases``: picked out of the island's row of literals by :func:`_degree_block`'s getters."""
    row = _row(capacities, bases)
    return list(map(_call, _degree_block(capacities, need), repeat((*row, *[-v for v in row]))))


def _degree_clauses_under(capacities: tuple[int, ...], need: int, bases: Sequence[int],
                          selector: int) -> list[tuple[int, ...]]:
    """:func:`_degree_clauses` with ``-selector`` last in every clause (:func:`_degree_block_under`)."""
    row = _row(capacities, bases)
    return list(map(_call, _degree_block_under(capacities, need), repeat((*row, *[-v for v in row], -selector))))


@lru_cache(maxsize=None)
def _degree_picks(capacities: tuple[int, ...], need: int) -> tuple[tuple[int, ...], ...] | None:
    """:func:`_degree_patterns` for an island whose links have ``capacities``, as the positions of
    each clause's literals, in order, in the island's row of literals: "at least j bridges on the p-th
    link" for each p and j = 1..capacity, then the same negated (as :func:`_degree_clauses` and
    ``proof.LeanEncoding`` lay it out).  None where ``sat.Encoding`` takes a totalizer instead (more
    than ``_TUPLE_LIMIT`` count tuples); the empty clause alone where the links cannot carry ``need``."""
    size = 1
    for c in capacities:
        size *= c + 1
    if size > _TUPLE_LIMIT:
        return None
    if sum(capacities) < need:
        return ((),)
    width = sum(capacities)
    start = [0, *accumulate(capacities)]
    return tuple(tuple(start[p] + j - 1 if j > 0 else width + start[p] - j - 1 for p, j in pattern)
                 for pattern in _degree_patterns(capacities, need))


def _getter(picks: tuple[int, ...]):
    """A getter of the literals at ``picks`` of a row, as a tuple (whatever their number)."""
    from operator import itemgetter

    if len(picks) > 1:
        return itemgetter(*picks)
    return itemgetter(slice(picks[0], picks[0] + 1) if picks else slice(0, 0))


@lru_cache(maxsize=None)
def _degree_block(capacities: tuple[int, ...], need: int):
    """:func:`_degree_picks` as one getter per clause that picks the clause's literals out of the
    island's row of literals; a clause comes out as a tuple.  None where :func:`_degree_picks` is."""
    picks = _degree_picks(capacities, need)
    return None if picks is None else tuple(map(_getter, picks))


@lru_cache(maxsize=None)
def _degree_block_under(capacities: tuple[int, ...], need: int):
    """:func:`_degree_block`'s getters for a row with one literal more at its end (a selector's
    negation), each clause picking it last; None where :func:`_degree_block` is."""
    picks = _degree_picks(capacities, need)
    if picks is None:
        return None
    end = 2 * sum(capacities)
    return tuple(_getter((*p, end)) for p in picks)


def _call_py(get, row):
    return get(row)


if sys.version_info >= (3, 11):  # a call made in C
    from operator import call as _call
else:  # pragma: no cover
    _call = _call_py


#: a cut of the "some link here carries a bridge" kind; the other kind is "not all of them do"
REQUIRE, FORBID = 1, -1


def meets(counts: Sequence[int], kind: int, links: Iterable[int]) -> bool:
    """``counts`` meet the cut: some link carries a bridge (REQUIRE), or some link carries none (FORBID)."""
    if kind == REQUIRE:
        return any(counts[k] for k in links)
    return not all(counts[k] for k in links)


class Cuts:
    """The connectivity cuts added so far, findable by link."""

    def __init__(self) -> None:
        self.cuts: list[tuple[int, tuple[int, ...]]] = []
        self.of_link: dict[int, list[int]] = {}

    def add(self, kind: int, links: Iterable[int]) -> None:
        c = len(self.cuts)
        links = tuple(links)
        self.cuts.append((kind, links))
        of_link = self.of_link
        for k in links:
            of_link.setdefault(k, []).append(c)

    def touching(self, links: Iterable[int]) -> set[int]:
        of_link = self.of_link
        out: set[int] = set()
        for k in links:
            out.update(of_link.get(k, ()))
        return out


class Place:
    """The open links around one cut on a small incremental solver of their own, widened in place.

    The formula (the module's, above) is written in two layers.  What no held link enters is written for
    good, once: the order and implied clauses of each open link, the crossing pairs of open links,
    the degree of an island whose every link is open, a cut or no-good all of whose links are open.
    What folds held links in (the degree of an island with held links, a cut or no-good with held
    links that do not meet it) is written under a *selector* of
    the current width, assumed by each solve; a widening retires the old selector (a unit clause
    that satisfies its clauses) and writes that layer again around the new open links.  So a
    widening costs the new ring and the new rim, not the whole part again, and the solver keeps
    what it learned.  The unmet cuts other than the place's own (``ignore``) are left out.

    Every model, with the held links at their counts, satisfies every clause of the whole formula
    and every cut and no-good (but those in ``ignore``) that concerns the open links.
    """

    def __init__(self, puzzle, capacities: Sequence[int], counts: Sequence[int], cuts: Cuts,
                 nogoods: Sequence[Sequence[int]] = (), ignore: Iterable[int] = (), options=None):
        self.puzzle, self.capacities, self.counts, self.cuts = puzzle, capacities, counts, cuts
        self.nogoods, self.ignore = nogoods, set(ignore)
        self.sat = open_solver(CADICAL, [], options)
        self.base: dict[int, int] = {}
        self.top = 0
        self.open: set[int] = set()
        self.rim: set[int] = set()  # islands with open and held links
        self.inner: set[int] = set()  # islands whose links are all open
        self.lasting: set[int] = set()  # the cuts written for good
        self.partial: set[int] = set()  # the cuts written under the selector
        self.asked: set[int] = set()  # the links asked open: those open, and those crossing a held bridge
        self.selector = 0

    def close(self) -> None:
        self.sat.delete()

    def widen(self, open_links: Iterable[int]) -> bool:
        """Open ``open_links`` too (those that can carry a bridge); False when an island's degree
        is out of reach of the tuple clauses (the caller leaves the place then).

        The cyclic garbage collector is paused meanwhile: a widening makes no cycle, only many
        short-lived clauses, and each collection they set off would walk the whole heap (the board's
        formula and cuts): about 2 s of 27 in the rounds of a 100,000-island board
        (``benchmarks/results/scale_rounds.md``)."""
        collecting = gc.isenabled()
        gc.disable()
        try:
            return self._widen(open_links)
        finally:
            if collecting:
                gc.enable()

    def _widen(self, open_links: Iterable[int]) -> bool:
        caps, counts, base = self.capacities, self.counts, self.base
        puzzle = self.puzzle
        islands, incident, ends, partners = puzzle.islands, puzzle.incident, puzzle.links, puzzle.crossing_partners
        opened = self.open
        wanted = {k for k in open_links if caps[k] and k not in opened}
        self.asked.update(wanted)
        # a link crossing a held bridge stays held (at 0) until that bridge opens
        new = sorted(k for k in wanted if not any(counts[h] and h not in opened and h not in wanted
                                                  for h in partners[k]))
        opened.update(new)
        clauses: list = []
        add = clauses.append
        top = self.top
        for k in new:
            b = base[k] = top
            cap = caps[k]
            top += cap
            if cap == 2:
                add((-(b + 2), b + 1))
            elif cap > 2:
                clauses.extend((-(b + j + 1), b + j) for j in range(1, cap))
            a, e, _h = ends[k]
            c = islands[a].number
            if c == islands[e].number and c <= cap and len(islands) > 2:
                add([-(b + c)])
        old, sel = self.selector, top + 1
        self.top = self.selector = sel
        if old:
            add([-old])
        new_set = set(new)
        for k in new:  # a crossing pair of open links goes in once, when the later of them opens
            u = base[k] + 1
            for h in partners[k]:
                if h in opened and (h not in new_set or h > k):
                    add([-u, -(base[h] + 1)])
        rim = self.rim
        rim.update(e for k in new for e in ends[k][:2])
        rim -= self.inner
        done = []
        for i in sorted(rim):
            mine: list[int] = []
            held, need = False, islands[i].number
            for k in incident[i]:
                if k in opened:
                    mine.append(k)
                elif caps[k]:
                    held = True
                    need -= counts[k]
            capsof = tuple(caps[k] for k in mine)
            block: list[tuple[int, ...]]
            if need >= 0 and _degree_block(capsof, need) is None:
                return False
            if held:
                if need < 0:
                    add((-sel,))
                else:
                    clauses.extend(_degree_clauses_under(capsof, need, [base[k] for k in mine], sel))
            else:
                if need < 0:
                    add(())
                else:
                    clauses.extend(_degree_clauses(capsof, need, [base[k] for k in mine]))
                done.append(i)
        rim.difference_update(done)
        self.inner.update(done)
        cuts = self.cuts
        for c in sorted((cuts.touching(new) | self.partial) - self.lasting - self.ignore):
            kind, cut = cuts.cuts[c]
            lits, met, whole = [], False, True
            for k in cut:
                if k in opened:
                    lits.append(kind * (base[k] + 1))
                else:
                    whole = False
                    if (counts[k] > 0) == (kind == REQUIRE):
                        met = True
                        break
            if met:
                self.partial.discard(c)
                continue
            if whole:
                self.partial.discard(c)
                self.lasting.add(c)
                add(tuple(lits))
            else:
                self.partial.add(c)
                add((*lits, -sel))
        for nogood in self.nogoods:
            if any(counts[k] != n for k, n in enumerate(nogood) if caps[k] and k not in opened):
                continue
            lits = [-sel]
            for k in opened:
                n, b = nogood[k], base[k]
                if n:
                    lits.append(-(b + n))
                if n < caps[k]:
                    lits.append(b + n + 1)
            add(lits)
        self.sat.append_formula(clauses)
        self.sat.set_phases([b + j if j <= counts[k] else -(b + j)
                             for k in new for b in (base[k],) for j in range(1, caps[k] + 1)])
        return True

    def solve(self) -> dict[int, int] | None:
        """New counts of the links asked open (those held for a crossing bridge at theirs), or None
        when there are none."""
        if not self.sat.solve([self.selector]):
            return None
        model = self.sat.get_model()
        caps, base, opened, counts = self.capacities, self.base, self.open, self.counts
        out = {}
        for k in self.asked:
            if k not in opened:
                out[k] = counts[k]
                continue
            b, c = base[k], 0
            while c < caps[k] and model[b + c] > 0:
                c += 1
            out[k] = c
        return out




def alternate(puzzle, capacities: Sequence[int], counts: Sequence[int], cut: Sequence[int], cuts: Cuts,
              ignore: Iterable[int] = (), limit: int = 20_000, most: int = 6) -> dict[int, int] | None:
    """A REQUIRE cut met without a solver: one bridge more on a link of ``cut`` (the bridges crossing
    it taken away), and the islands this leaves with a bridge too many or too few evened out by
    alternating walks (one bridge less, one more, ...), each from one such island to another found
    breadth-first (at most ``limit`` states), at most ``most`` of them.  Kept only when, with every
    other link at ``counts``, each island keeps its count, each link is within its capacity, no two
    links with bridges cross, no link joins two islands of the same number c by c bridges (as
    :class:`Place`), and every stored cut that a changed link touches (but those in ``ignore``) is
    still met.  New counts of the changed links, or None."""
    links, partners = puzzle.links, puzzle.crossing_partners
    ignore = set(ignore)
    for k0 in cut:
        if not capacities[k0] or counts[k0]:
            continue
        a, b, _h = links[k0]
        change = {k0: 1}
        off = {a: 1, b: 1}  # island -> bridges too many (negative: too few)
        for h in partners[k0]:
            n = counts[h]
            if n:
                change[h] = 0
                for e in links[h][:2]:
                    off[e] = off.get(e, 0) - n
        off = {e: d for e, d in off.items() if d}
        if sum(abs(v) for v in off.values()) > 2 * most:
            continue
        if _even(puzzle, capacities, counts, change, off, cuts, ignore, limit, most):
            done = _settle(change, capacities, counts, puzzle, cuts, ignore)
            if done is not None:
                return done
    return None


def _even(puzzle, caps, counts, change: dict[int, int], off: dict[int, int], cuts: Cuts, ignore: set[int],
          limit: int, most: int) -> bool:
    """Walks added to ``change`` until no island in ``off`` is off its count; False when one is not
    found within ``most`` walks."""
    links, incident, partners, islands = puzzle.links, puzzle.incident, puzzle.crossing_partners, puzzle.islands
    implied = len(islands) > 2
    get = change.get

    def can_add(k: int) -> bool:
        n = get(k, counts[k])
        if n >= caps[k]:
            return False
        if n == 0:
            for h in partners[k]:
                if get(h, counts[h]):
                    return False
        if implied:
            a, e, _h = links[k]
            c = islands[a].number
            if c == islands[e].number and n + 1 >= c:
                return False
        return True

    def can_take(k: int) -> bool:
        n = get(k, counts[k])
        if n != 1:
            return n > 1
        for c in cuts.of_link.get(k, ()):
            if c in ignore:
                continue
            kind, cut_links = cuts.cuts[c]
            if kind == REQUIRE and not any(get(h, counts[h]) for h in cut_links if h != k):
                return False
        return True

    walks = 0
    while off:
        walks += 1
        if walks > most:
            return False
        u = next(iter(off))
        first = 0 if off[u] > 0 else 1  # 0: the walk starts by taking a bridge away
        pred: dict[int, tuple[int, int]] = {2 * u + first: (-1, -1)}
        queue = [2 * u + first]
        path = None
        for state in queue:
            if len(pred) > limit:
                break
            v, s = state >> 1, state & 1
            for k in incident[v]:
                if not (can_add(k) if s else can_take(k)):
                    continue
                x, y, _h = links[k]
                w = y if x == v else x
                left = off.get(w, 0)
                if w != u and left and (left > 0) == (s == 0):  # a step that evens w out
                    path = [(k, 1 if s else -1)]
                    cur = state
                    while cur != 2 * u + first:
                        prev, h = pred[cur]
                        path.append((h, 1 if prev & 1 else -1))
                        cur = prev
                    break
                nxt = 2 * w + 1 - s
                if nxt in pred:
                    continue
                pred[nxt] = (state, k)
                queue.append(nxt)
            if path is not None:
                break
        if path is None:
            return False
        for e, d in ((u, -1 if off[u] > 0 else 1), (w, -1 if off[w] > 0 else 1)):
            off[e] += d
            if not off[e]:
                del off[e]
        for k, d in path:
            n = get(k, counts[k]) + d
            if n < 0 or n > caps[k]:
                return False
            change[k] = n
    return True


def _settle(change: dict[int, int], caps, counts, puzzle, cuts: Cuts, ignore: set[int]):
    """The changed links' new counts when they keep the rules (see :func:`alternate`), else None."""
    links, incident, partners, islands = puzzle.links, puzzle.incident, puzzle.crossing_partners, puzzle.islands
    implied = len(islands) > 2
    for k, n in change.items():
        if n < 0 or n > caps[k]:
            return None
        if implied and n:
            a, e, _h = links[k]
            c = islands[a].number
            if c == islands[e].number and n >= c:
                return None
        if n and not counts[k]:
            for h in partners[k]:
                if change.get(h, counts[h]):
                    return None
    for i in {e for k in change for e in links[k][:2]}:  # every island keeps its count
        if sum(change.get(k, counts[k]) for k in incident[i]) != islands[i].number:
            return None
    for c in cuts.touching(change):
        if c in ignore:
            continue
        kind, cut = cuts.cuts[c]
        if kind == REQUIRE:
            if not any(change.get(k, counts[k]) for k in cut):
                return None
        elif all(change.get(k, counts[k]) for k in cut):
            return None
    return {k: n for k, n in change.items() if n != counts[k]}
