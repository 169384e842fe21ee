"""A pure-Python engine: depth-first search over each link's bridge count, with no dependency,
so that it runs wherever Python runs (the page that needs no server runs it in the browser,
where python-sat is not available).

Each link ``k`` has bounds ``lo[k] <= count <= hi[k]`` (from 0 and its capacity).  After every
choice the bounds are made consistent with:

- island sums: a link carries at least the island's number less what its other links can
  carry, and at most the number less what they must carry;
- crossings: a link with a bridge leaves the links that cross it empty;
- connectivity: the links that can still carry a bridge join every island (at a leaf, where
  every count is known, that is the rule itself);
- no loops (that variant only): the links that must carry a bridge form no cycle.

A choice narrows an undecided link of the most constrained island (the fewest bridges it can
still leave out), towards the most constrained neighbour: one value at a time when there are a few,
halves of the range otherwise, so a huge MAXBRIDGES costs a few levels, not a value each.  The
search is complete: "infeasible" and "unique" are proved by exhausting it.  It keeps a deadline
itself (checked every :data:`CHECK_EVERY` nodes), so a limited solve runs in the caller.

It learns nothing from a dead end, as a SAT solver does: puzzles made for people (the published
ones) take it milliseconds, random boards of a few hundred islands can take it minutes.
"""

from __future__ import annotations

import time

from ..limits import Deadline
from ..model import Puzzle, Solution
from .base import SolveResult, Status
from .graph import DisjointSets, simple_infeasibility
from .lazy import TIME_LIMIT

#: nodes of the search between two looks at the deadline
CHECK_EVERY = 64
#: ranges of at most this many values are tried value by value; wider ones are halved
SPLIT_ABOVE = 3
#: why an exhausted search says a puzzle has no solution
NO_ASSIGNMENT = "no count of bridges on the links meets every rule (the search tried them all)"


class _Stop(Exception):
    """The deadline passed during the search."""


class _Search:
    """The bounds of every link, the trail that undoes their changes, and the search."""

    def __init__(self, puzzle: Puzzle):
        links = puzzle.links
        self.n = len(puzzle.islands)
        self.ends = [(ln.a, ln.b) for ln in links]
        self.number = [isl.number for isl in puzzle.islands]
        self.incident = puzzle.incident
        self.crossing = puzzle.crossing_partners
        self.no_loops = puzzle.no_loops
        self.lo = [0] * len(links)
        self.hi = list(puzzle.link_capacities)
        self.trail: list[tuple[int, int, int]] = []
        self.queue: list[int] = []
        self.queued = [False] * self.n
        self.nodes = 0

    # -- bounds ------------------------------------------------------------------------------
    def narrow(self, k: int, lo: int, hi: int) -> bool:
        """Bounds of link ``k`` within ``lo..hi`` (its islands queued); False when none are left."""
        old_lo, old_hi = self.lo[k], self.hi[k]
        lo, hi = max(lo, old_lo), min(hi, old_hi)
        if lo == old_lo and hi == old_hi:
            return True
        if lo > hi:
            return False
        self.trail.append((k, old_lo, old_hi))
        self.lo[k], self.hi[k] = lo, hi
        for i in self.ends[k]:
            if not self.queued[i]:
                self.queued[i] = True
                self.queue.append(i)
        if old_lo == 0 and lo > 0:
            for c in self.crossing[k]:
                if not self.narrow(c, 0, 0):
                    return False
        return True

    def propagate(self) -> bool:
        """The island sums applied until nothing changes; False at a contradiction."""
        lo, hi, queue, queued = self.lo, self.hi, self.queue, self.queued
        incident, number = self.incident, self.number
        while queue:
            i = queue.pop()
            queued[i] = False
            links = incident[i]
            need = number[i]
            sum_lo = sum_hi = 0
            for k in links:
                sum_lo += lo[k]
                sum_hi += hi[k]
            if sum_lo > need or sum_hi < need:
                return self._fail()
            if sum_lo == sum_hi:
                continue
            for k in links:
                new_lo = need - (sum_hi - hi[k])
                new_hi = need - (sum_lo - lo[k])
                if new_lo > lo[k] or new_hi < hi[k]:
                    if not self.narrow(k, new_lo, new_hi):
                        return self._fail()
                    if not queued[i]:
                        queued[i] = True
                        queue.append(i)
                    break  # the sums changed: this island is looked at again
        return self.connected() and (not self.no_loops or self.acyclic())

    def _fail(self) -> bool:
        for i in self.queue:
            self.queued[i] = False
        self.queue.clear()
        return False

    def connected(self) -> bool:
        """Whether the links that can still carry a bridge join every island."""
        n = self.n
        if n <= 1:
            return True
        hi, ends, incident = self.hi, self.ends, self.incident
        seen = [False] * n
        seen[0] = True
        todo = [0]
        reached = 1
        while todo:
            i = todo.pop()
            for k in incident[i]:
                if hi[k]:
                    a, b = ends[k]
                    j = b if a == i else a
                    if not seen[j]:
                        seen[j] = True
                        reached += 1
                        todo.append(j)
        return reached == n

    def acyclic(self) -> bool:
        """Whether the links that must carry a bridge form no cycle."""
        sets = DisjointSets(self.n)
        return all(sets.union(*self.ends[k]) for k, low in enumerate(self.lo) if low)

    def undo(self, mark: int) -> None:
        lo, hi, trail = self.lo, self.hi, self.trail
        while len(trail) > mark:
            k, old_lo, old_hi = trail.pop()
            lo[k], hi[k] = old_lo, old_hi

    # -- the search --------------------------------------------------------------------------
    def choice(self) -> int | None:
        """An undecided link of the most constrained island (the least it can still leave out,
        then the fewest undecided links), the one whose other end is most constrained; None when
        every link is decided."""
        lo, hi, number, ends = self.lo, self.hi, self.number, self.ends
        best, key = None, None
        for i, links in enumerate(self.incident):
            open_links = [k for k in links if lo[k] != hi[k]]
            if not open_links:
                continue
            slack = sum(hi[k] for k in links) - number[i]
            mine = (slack, len(open_links))
            if key is None or mine < key:
                best, key = (i, open_links), mine
        if best is None:
            return None
        i, open_links = best

        def other_slack(k: int) -> int:
            a, b = ends[k]
            j = b if a == i else a
            return sum(hi[m] for m in self.incident[j]) - number[j]

        return min(open_links, key=lambda k: (other_slack(k), hi[k] - lo[k], k))

    def alternatives(self, k: int) -> list[tuple[int, int]]:
        """The ranges a choice on link ``k`` tries, the last one first."""
        low, high = self.lo[k], self.hi[k]
        if high - low < SPLIT_ABOVE:
            return [(v, v) for v in range(low, high + 1)]
        mid = (low + high) // 2
        return [(low, mid), (mid + 1, high)]

    def solutions(self, deadline: Deadline | None):
        """Every solution's counts, one at a time (raises :class:`_Stop` at the deadline)."""
        self.queue[:] = range(self.n)
        self.queued = [True] * self.n
        ok = self.propagate()
        stack: list[tuple[int, int, list[tuple[int, int]]]] = []
        while True:
            if ok:
                k = self.choice()
                if k is None:
                    yield list(self.lo)
                else:
                    stack.append((len(self.trail), k, self.alternatives(k)))
            ok = False
            while stack and not ok:
                mark, k, alternatives = stack[-1]
                self.undo(mark)
                if not alternatives:
                    stack.pop()
                    continue
                low, high = alternatives.pop()
                ok = self.narrow(k, low, high) and self.propagate()
                if not ok:
                    self._fail()
                self.nodes += 1
                if deadline is not None and self.nodes % CHECK_EVERY == 0 and deadline.expired():
                    raise _Stop
            if not ok:
                return


def solve(puzzle: Puzzle, time_limit: float | Deadline | None = None, max_solutions: int = 1,
          report=None, announce=None) -> SolveResult:
    """Up to ``max_solutions`` solutions of ``puzzle`` (``complete`` when the search ran out);
    ``report`` hears each solution's counts as it is found."""
    start = time.monotonic()
    deadline = Deadline.of(time_limit)
    reason = simple_infeasibility(puzzle)
    if reason is not None:
        return SolveResult(Status.INFEASIBLE, engine="search", complete=True, reason=reason,
                           stats={"time": time.monotonic() - start, "nodes": 0})
    if deadline is not None and deadline.expired():
        return SolveResult(Status.UNKNOWN, engine="search", stopped=TIME_LIMIT, stats={"time": 0.0, "nodes": 0})
    search = _Search(puzzle)
    if announce is not None:
        announce({"links": len(search.ends)})
    found: list[Solution] = []
    stopped = None
    complete = True
    try:
        for counts in search.solutions(deadline):
            found.append(Solution.from_counts(puzzle, counts))
            if report is not None:
                report(counts)
            if len(found) >= max_solutions:
                complete = False
                break
    except _Stop:
        stopped, complete = TIME_LIMIT, False
    stats = {"time": time.monotonic() - start, "nodes": search.nodes}
    if found:
        return SolveResult(Status.SOLVED, solution=found[0], solutions=found, engine="search",
                           complete=complete, stopped=stopped, stats=stats)
    if stopped:
        return SolveResult(Status.UNKNOWN, engine="search", stopped=stopped, stats=stats)
    return SolveResult(Status.INFEASIBLE, engine="search", complete=True, reason=NO_ASSIGNMENT, stats=stats)
