"""The default engine: SAT (CaDiCaL through python-sat) with lazy connectivity.

Encoding.  Link ``k`` with capacity ``cap`` (MAXBRIDGES, capped by both ends'
numbers) gets, while every capacity is at most ``UNARY_MAX_CAP``, ``cap`` order
variables ``x[k][j]`` = "at least ``j`` bridges on ``k``", with
``x[k][j+1] -> x[k][j]``; ``x[k][1]`` is the paper's ``y_k``.

- crossing pairs: ``not x[h][1] or not x[v][1]``;
- degree: the bridge count of an island, a sum of unary counts, equals its
  number.  For small MAXBRIDGES the clauses forbid each *maximal* count tuple
  that is one too many or one too few (no auxiliary variables; unit propagation
  is then exact on each island); larger ones use a totalizer;
- implied clauses: two islands with the same number c are not joined by c
  bridges (they would form an isolated pair).

Larger capacities (MAXBRIDGES above ``UNARY_MAX_CAP``) use the *binary* encoding of
``binary.py`` instead, so that the formula stays small for any MAXBRIDGES: O(log MAXBRIDGES)
variables and clauses per link and island (the unary totalizer grew with its square).

Connectivity, uniqueness, enumeration and the no-loops rule come from the loop
shared by every engine (``lazy.py``), on one incremental solver: split cuts for
every group when the bridges fall apart, no-goods between solutions, cycle cuts.

The answer is checked before it is returned only by the tests (the rule
checker is independent of this module); "infeasible" is said only when the
SAT solver proved it (or a capacity count shows it).
"""

from __future__ import annotations

import os
import time
from itertools import accumulate

from ..errors import BadArgument
from ..limits import Deadline
from ..model import Puzzle
from . import lazy, region
from .base import SolveResult, Status
from .cadical import CADICAL, Deferred, open_solver, solver_names
from .graph import simple_infeasibility
from .region import _TUPLE_LIMIT, _degree_clauses

DEFAULT_SAT_SOLVER = CADICAL
#: links that can carry more bridges than this switch the puzzle to the binary encoding
UNARY_MAX_CAP = 8


class Encoding:
    """The unary (order) CNF of a puzzle without connectivity, plus the variable map."""

    name = "unary"

    def __init__(self, puzzle: Puzzle, implied: bool = True, capacities: list[int] | None = None):
        self.puzzle = puzzle
        self.capacities = list(puzzle.link_capacities) if capacities is None else capacities
        starts = [0, *accumulate(self.capacities)]
        self.base: list[int] = starts[:-1]  # x[k][j] is variable base[k] + j
        self.nvars = starts[-1]
        self.clauses: list[list[int] | tuple[int, ...]] = []
        self._order()
        self._crossings()
        self._degrees()
        if implied:
            self._isolated_pairs()

    def var(self, k: int, j: int) -> int:
        return self.base[k] + j

    def used(self, k: int) -> int:
        """The literal "link k carries at least one bridge" (0 if it cannot)."""
        return self.base[k] + 1 if self.capacities[k] else 0

    def _order(self) -> None:
        self.clauses.extend([[-(b + j + 1), b + j] for b, cap in zip(self.base, self.capacities) for j in range(1, cap)])

    def _crossings(self) -> None:
        capacities, base = self.capacities, self.base
        self.clauses.extend([[-(base[h] + 1), -(base[v] + 1)] for h, v in self.puzzle.crossings if capacities[h] and capacities[v]])

    def _isolated_pairs(self) -> None:
        """Two islands with the same number c may not join by c bridges: they would be cut off
        (a 1-1 or a 2=2), unless they are the whole puzzle.  Implied by connectivity; saves rounds."""
        isl = self.puzzle.islands
        if len(isl) <= 2:
            return
        numbers = [(isl[a].number, isl[b].number) for a, b, _horizontal in self.puzzle.links]
        base = self.base
        self.clauses.extend([[-(base[k] + c)] for k, ((c, d), cap) in enumerate(zip(numbers, self.capacities))
                             if c == d and c <= cap])

    def _degrees(self) -> None:
        pool = None
        for i, isl in enumerate(self.puzzle.islands):
            links = [k for k in self.puzzle.incident[i] if self.capacities[k]]
            capacities = [self.capacities[k] for k in links]
            need = isl.number
            if sum(capacities) < need:
                self.clauses.append([])  # cannot be met: UNSAT
                continue
            size = 1
            for c in capacities:
                size *= c + 1
            if size <= _TUPLE_LIMIT:
                self._degree_tuples(links, capacities, need)
            else:
                if pool is None:
                    from pysat.card import CardEnc, EncType
                    from pysat.formula import IDPool

                    pool = IDPool(start_from=self.nvars + 1)
                lits = [self.var(k, j) for k in links for j in range(1, self.capacities[k] + 1)]
                enc = CardEnc.equals(lits=lits, bound=need, vpool=pool, encoding=EncType.totalizer)
                self.clauses.extend(enc.clauses)
        if pool is not None:
            self.nvars = max(self.nvars, pool.top)

    def _degree_tuples(self, links: list[int], capacities: list[int], need: int) -> None:
        base = self.base
        self.clauses.extend(_degree_clauses(tuple(capacities), need, [base[k] for k in links]))

    def differs(self, k: int, c: int) -> list[int]:
        """Literals of "link ``k`` does not carry exactly ``c`` bridges"."""
        out = []
        if c > 0:
            out.append(-self.var(k, c))
        if c < self.capacities[k]:
            out.append(self.var(k, c + 1))
        return out

    def counts(self, model: list[int]) -> list[int]:
        """Bridge counts per link from a SAT model."""
        out = []
        for k, cap in enumerate(self.capacities):
            b = self.base[k]
            c = 0
            while c < cap and model[b + c] > 0:  # variable v is model[v - 1]
                c += 1
            out.append(c)
        return out

    def count(self, model: list[int], k: int) -> int:
        """Link ``k``'s bridge count in a SAT model."""
        b, cap = self.base[k], self.capacities[k]
        c = 0
        while c < cap and model[b + c] > 0:
            c += 1
        return c

    def holding(self, counts: list[int]) -> list[tuple[int, ...]]:
        """Per link, the literals that hold it at its count in ``counts`` (none for a link that
        cannot carry a bridge)."""
        out = []
        for b, cap, c in zip(self.base, self.capacities, counts):
            if not cap:
                out.append(())
            elif not c:
                out.append((-(b + 1),))
            elif c == cap:
                out.append((b + c,))
            else:
                out.append((b + c, -(b + c + 1)))
        return out

    def hold(self, k: int, c: int) -> tuple[int, ...]:
        """The literals that hold link ``k`` (one that can carry a bridge) at count ``c``."""
        b = self.base[k]
        return (-(b + 1),) if not c else (b + c,) if c == self.capacities[k] else (b + c, -(b + c + 1))

    def link_vars(self, k: int) -> range:
        """The variables of link ``k``'s count."""
        return range(self.base[k] + 1, self.base[k] + self.capacities[k] + 1)


def encode(puzzle: Puzzle, implied: bool = True):
    """The unary encoding for small capacities, the binary one above ``UNARY_MAX_CAP``."""
    capacities = list(puzzle.link_capacities)
    if max(capacities, default=0) > UNARY_MAX_CAP:
        from .binary import BinaryEncoding  # here: most puzzles never need it

        return BinaryEncoding(puzzle, implied)
    return Encoding(puzzle, implied, capacities)


#: a local round first opens the links within this many links of a cut's links' ends
LOCAL_RADIUS = 1
#: a place is widened at most this many times before its cut is left to the incremental solver
LOCAL_TRIES = 9
#: each widening multiplies a place's islands by this, taking the nearest first (in links): on long-link
#: boards a few hops reach far, and a place that needed 2,000 islands took the 5,000 of the next radius
LOCAL_GROWTH = 2.0
#: the cuts left unmet by the small solvers are tried on the incremental solver with the links within this
#: many links of their links' ends open
HELD_RADIUS = 2
#: a round whose cuts' region (at ``HELD_RADIUS``) holds at most this share of the islands goes to the
#: incremental solver at once, all its cuts together; larger ones go to the small solvers first
HELD_SHARE = 0.9
#: nor more than this many islands (each try there costs the whole board, and a large region needs many)
HELD_MAX_ISLANDS = 40_000
#: boards with more islands than this send every round to the small solvers first: a held try costs the
#: whole board (at 100,000 islands, 54 held tries took 46 s of a 167 s solve; the small solvers alone
#: answered the same rounds, and the solve took 133 s: ``benchmarks/results/scale_rounds.md``)
HELD_MAX_BOARD = 50_000
#: a round's tries on the incremental solver stop once they cost more than this share of the first
#: global solve (CPU)
HELD_BUDGET = 2.0
#: conflicts one try of the cuts the small solvers left may take (CaDiCaL) before the round goes global
HELD_CONFLICTS = 20_000
#: tries of a round's unmet cuts on the incremental solver, the rest held, before the round goes global
HELD_TRIES = 30
#: boards with fewer islands take global rounds only (their rounds are cheap already:
#: ``benchmarks/results/scale_small.md``)
LOCAL_MIN_ISLANDS = 1000
#: a place whose region holds more than this share of the islands goes global instead
LOCAL_SHARE = 0.9
#: on boards of more than ``HELD_MAX_BOARD`` islands, each cut of a local round is first met, where it can
#: be, by moving bridges round alternating walks through one of its links (:func:`region.alternate`),
#: each searched breadth-first over at most this many states (0: never); the small solvers take the rest.
#: At 100,000 islands that meets about 1,100 of 1,750 cuts, the easy ones: the hard ones (groups fenced in
#: by crossing bridges) need changes up to 6-12 links away (``benchmarks/results/scale_rounds.md``).  On
#: smaller boards the held rounds do better without it (30,000 islands: 68 s where 18 s)
ALTERNATE_LIMIT = 100
#: where the walks ran, the cuts left to the small solvers are the hard ones: their places start this
#: many links out (100,000 islands, rounds only: 17.8-20.3 s CPU at 3, 22-23 at 2, 25-29 at 4-5, against
#: 26.7 on main at the same load: ``benchmarks/results/scale_rounds.md``)
WALKED_RADIUS = 3
#: CaDiCaL's options for the small solver of one part of a local round
LOCAL_OPTIONS: dict[str, int] = {}
#: CaDiCaL's options: stable mode only (as in its "sat" configuration) about halves the first solve of
#: a 10,000-island board (5,200 conflicts instead of 16,000); small boards: ``benchmarks/results/scale_small.md``
CADICAL_OPTIONS = {"stabilizeonly": 1}
#: boards with at least this many islands (and CaDiCaL) take their first model from solvers of their
#: own (:data:`FIRST_PORTFOLIO`); that model is the first answer, and the rounds' solver is made, primed
#: with it, only when a round needs it.  That first solve is 2-3x faster, but the local rounds after it are
#: slower (they lack the learned clauses of a real search): a loss at 10,000 and 30,000 islands (30,000:
#: 24.6 s of CPU where 17.4 s), a gain at 100,000 (``benchmarks/results/scale_first.md``)
FIRST_MIN_ISLANDS = 50_000
#: CaDiCaL's options for that first model: without inprocessing, with chronological backtracking, in
#: stable mode only (30,000 islands, four boards: 4.5-5.0 s where without stable mode 5.0-12.5 s; 100,000
#: islands: 29 s where 56-66 s: ``benchmarks/results/scale_first.md``)
FIRST_OPTIONS = {"inprocessing": 0, "chrono": 2, "stabilizeonly": 1}
#: the first model's portfolio: one CaDiCaL per entry (its options), each in a process of its own, on the
#: same clauses; the first to answer wins (``solvers/first.py``).  One entry: solved in this process.  The
#: second entry searches without restarts: each restart assigns the whole trail again, so at 100,000 islands
#: it was the faster one in four draws of six (22.9-36.7 s of CPU where 29.1-47.2), but it never leaves a
#: bad start (77 s where 39 s in the sixth); beside ``FIRST_OPTIONS`` that draw is capped.  Both 100,000-island
#: boards as a portfolio: 30.9 and 24.9 s of wall where the same with seed 1 took 29.0 and 36.2 s
#: (``benchmarks/results/scale_first.md``, last section)
FIRST_PORTFOLIO: tuple[dict[str, int], ...] = (FIRST_OPTIONS, {**FIRST_OPTIONS, "restart": 0})


class SatBackend:
    """The shared loop's view of one incremental SAT solver, and of small ones for local rounds.

    Every cut goes to the incremental solver and to a :class:`region.Cuts` store.  With ``local`` on
    (and at least ``LOCAL_MIN_ISLANDS`` islands), a round that follows cuts is first solved *near*
    them, keeping the last assignment elsewhere:

    - *held*: when the islands within ``HELD_RADIUS`` links of the cuts' links are few (at most
      ``HELD_SHARE`` of the board and ``HELD_MAX_ISLANDS``, on a board of at most ``HELD_MAX_BOARD``
      islands), the incremental solver is asked with
      every other link held at its count by assumptions; where that leaves no assignment, the links
      in the failed assumptions (the core) are freed too, up to ``HELD_TRIES`` times, within
      ``HELD_BUDGET`` times the CPU of the first global solve;
    - *small*: otherwise, or when that fails, a cut at a time (smallest first; one the assignment
      already meets is skipped): the links of the islands within ``LOCAL_RADIUS`` links of the cut's
      links' ends are opened, every other link held, on a small CaDiCaL of the cut's own
      (:class:`region.Place`: every stored cut and no-good folded in, the other unmet cuts left to
      their own places) whose first phases are the current counts.  A place with no model is widened
      on the same solver (its islands times ``LOCAL_GROWTH``, nearest first) up to ``LOCAL_TRIES``
      times; the cuts still unmet go to the held way, each try there within ``HELD_CONFLICTS``
      conflicts;
    - *global*: when both fail, on the incremental solver.

    Each solved part or held solve satisfies every clause of the whole formula and every cut and
    no-good that concerns its links, with the rest held; the clauses on other links keep their values.
    So every assignment returned satisfies the whole formula and every cut, and only the incremental
    solver, which holds them all, answers "infeasible".  After a no-good (:meth:`exclude`) the next
    round is global.

    ``first`` (a model of the formula without cuts) with ``sat`` a :class:`~.cadical.Deferred` not yet
    made: the first round answers that model itself when it meets every clause added so far, and the
    incremental solver is made only when something is asked of it (a held or global round, a proof).
    """

    def __init__(self, enc, sat, stats: dict | None = None, local: bool = True, first=None):
        self.enc = enc
        self.sat = sat
        self.stats = stats if stats is not None else {}
        self.local = local and len(enc.puzzle.islands) >= LOCAL_MIN_ISLANDS
        self.first = first  # a model of the formula without cuts: the first answer while it meets the clauses so far
        self.counts: list[int] | None = None  # the last assignment
        self.cuts = region.Cuts()
        self.pending: list[int] | None = []  # the cuts added since the last assignment; None: go global
        self.nogoods: list[list[int]] = []  # the solutions excluded so far
        self._link_of: list[int] | None = None

    def solve(self, deadline):
        if self.local and self.counts is not None and self.pending:
            counts = self._solve_near(deadline)
            if counts is not None:
                self.pending = []
                return Status.SOLVED, counts
        first, self.first = self.first, None
        if first is not None and isinstance(self.sat, Deferred) and self.sat.solver is None and \
                satisfies(first, self.sat.pending):
            # the first model meets every clause so far: it is the answer, and the rounds' solver is
            # made only when a round needs it
            self.counts = self.enc.counts(first)
            self.pending = []
            return Status.SOLVED, list(self.counts)
        self.stats["global_solves"] = self.stats.get("global_solves", 0) + 1
        # (a rounds' solver made for a first model was primed with it when made: ``sat.solve``)
        if self._timed("global_time", self.sat.solve, ()):
            self.counts = self.enc.counts(self.sat.get_model())
            self.pending = []
            return Status.SOLVED, list(self.counts)
        return Status.INFEASIBLE, None

    def _solve_near(self, deadline) -> list[int] | None:
        """A round near the cuts added since the last one: the new counts, or None to go global."""
        puzzle = self.enc.puzzle
        ends = puzzle.links
        counts = list(self.counts)
        cuts = self.cuts.cuts
        unmet = {c for c in self.pending if not region.meets(counts, *cuts[c])}
        if self._walks():
            for c in sorted(unmet, key=lambda c: len(cuts[c][1])):
                if c in unmet and cuts[c][0] == region.REQUIRE:
                    self._alternate(c, counts, unmet)
            if not unmet:
                self.counts = counts
                return list(counts)
        seeds = {e for c in unmet for k in cuts[c][1] for e in ends[k][:2]}
        free = _ring(puzzle, seeds, HELD_RADIUS) if len(puzzle.islands) <= HELD_MAX_BOARD else None
        if free is not None and len(free) <= min(len(puzzle.islands) * HELD_SHARE, HELD_MAX_ISLANDS):
            if self._solve_held(counts, unmet, deadline, free=free):
                self.counts = counts
                return list(counts)
            counts[:] = self.counts
        for c in sorted(unmet, key=lambda c: len(cuts[c][1])):  # smallest first
            if c not in unmet:
                continue
            if lazy.past(deadline):
                return None
            found = self._solve_place(c, counts, unmet)
            if found is None:
                continue  # left to the incremental solver
            changed = [k for k, n in found.items() if counts[k] != n]
            for k in changed:
                counts[k] = found[k]
            unmet -= {u for u in self.cuts.touching(changed) & unmet if region.meets(counts, *cuts[u])}
        if unmet and not self._solve_held(counts, unmet, deadline, HELD_CONFLICTS):
            return None
        self.counts = counts
        return list(counts)

    def _solve_held(self, counts: list[int], unmet: set[int], deadline, conflicts: int | None = None,
                    free: set[int] | None = None) -> bool:
        """The cuts still unmet, on the incremental solver: every link farther than ``HELD_RADIUS``
        links from their links' ends held at ``counts`` by assumptions; where that leaves no
        assignment, the links in the failed assumptions (the core) are freed too, up to
        ``HELD_TRIES`` times, each within ``conflicts`` (when given).  True when ``counts`` now hold the answer."""
        puzzle, enc = self.enc.puzzle, self.enc
        links, incident = puzzle.links, puzzle.incident
        most = len(puzzle.islands) * LOCAL_SHARE
        seeds = {e for c in unmet for k in self.cuts.cuts[c][1] for e in links[k][:2]}
        fixed = enc.holding(counts)
        budget = HELD_BUDGET * max(self.stats.get("global_time", 0.0), self.stats.get("first_time", 0.0))
        spent = self.stats.get("local_time", 0.0)
        for _ in range(HELD_TRIES):
            if free is None:
                free = _ring(puzzle, seeds, HELD_RADIUS)
            if len(free) > most or lazy.past(deadline) or self.stats.get("local_time", 0.0) - spent > budget:
                return False
            open_links = {k for i in free for k in incident[i]}
            assume = [lit for k, lits in enumerate(fixed) if k not in open_links for lit in lits]
            self.stats["local_solves"] = self.stats.get("local_solves", 0) + 1
            limited = getattr(self.sat, "solve_conflicts", None) if conflicts else None
            answer = self._timed("local_time", limited, assume, conflicts) if limited is not None else \
                self._timed("local_time", self.sat.solve, assume)
            if answer is None:
                return False
            if answer:
                model = self.sat.get_model()
                for k in open_links:
                    if enc.capacities[k]:
                        counts[k] = enc.count(model, k)
                return True
            core = self.sat.get_core()
            if not core:
                return False
            link_of = self._links_of_vars()
            for lit in core:
                k = link_of[abs(lit)]
                seeds.add(links[k].a)
                seeds.add(links[k].b)
            free = None
        return False

    def _solve_place(self, c: int, counts: list[int], unmet: set[int]) -> dict[int, int] | None:
        """Cut ``c`` met near its links on a small solver (:class:`region.Place`): new counts of the
        links opened, or None when ``LOCAL_TRIES`` widenings found none."""
        puzzle = self.enc.puzzle
        incident, ends = puzzle.incident, puzzle.links
        most = len(puzzle.islands) * LOCAL_SHARE
        seeds = {e for k in self.cuts.cuts[c][1] for e in ends[k][:2]}
        # the other unmet cuts are left to their own places: a place need not meet them
        place = region.Place(puzzle, self.enc.capacities, counts, self.cuts, self.nogoods, unmet - {c},
                             LOCAL_OPTIONS)
        try:
            free = _ring(puzzle, seeds, WALKED_RADIUS if self._walks() else LOCAL_RADIUS)
            for tries in range(LOCAL_TRIES + 1):
                if tries:
                    free = _ring(puzzle, free, size=int(len(free) * LOCAL_GROWTH))
                if len(free) > most:
                    return None
                if not self._timed("small_time", place.widen, {k for i in free for k in incident[i]}):
                    return None
                self.stats["small_solves"] = self.stats.get("small_solves", 0) + 1
                found = self._timed("small_time", place.solve)
                if found is not None:
                    return found
            return None
        finally:
            place.close()

    def _walks(self) -> bool:
        """The local rounds meet their cuts by alternating walks first (``ALTERNATE_LIMIT``)."""
        return bool(ALTERNATE_LIMIT) and not self.nogoods and len(self.enc.puzzle.islands) > HELD_MAX_BOARD

    def _alternate(self, c: int, counts: list[int], unmet: set[int]) -> None:
        """Cut ``c`` met by an alternating walk (:func:`region.alternate`) where one is found: ``counts``
        and ``unmet`` updated."""
        cuts = self.cuts.cuts
        found = self._timed("alternate_time", region.alternate, self.enc.puzzle, self.enc.capacities, counts,
                            cuts[c][1], self.cuts, unmet - {c}, ALTERNATE_LIMIT)
        if found is None:
            return
        self.stats["alternate_fixes"] = self.stats.get("alternate_fixes", 0) + 1
        for k, n in found.items():
            counts[k] = n
        unmet -= {u for u in self.cuts.touching(found) & unmet if region.meets(counts, *cuts[u])}

    def _links_of_vars(self) -> list[int]:
        """The link of each variable of the encoding (worked out once)."""
        if self._link_of is None:
            enc = self.enc
            link_of = [-1] * (enc.nvars + 1)
            for k in range(len(enc.capacities)):
                for v in enc.link_vars(k):
                    link_of[v] = k
            self._link_of = link_of
        return self._link_of

    def _timed(self, key: str, call, *args):
        began = time.process_time()
        try:
            return call(*args)
        finally:
            self.stats[key] = round(self.stats.get(key, 0.0) + time.process_time() - began, 3)

    def _add(self, kind: int, links) -> None:
        self.cuts.add(kind, links)
        if self.pending is not None:
            self.pending.append(len(self.cuts.cuts) - 1)

    def require_one(self, links):
        self.sat.add_clause([self.enc.used(k) for k in links])  # an empty clause: UNSAT
        self._add(region.REQUIRE, links)

    def forbid_all(self, links):
        self.sat.add_clause([-self.enc.used(k) for k in links])
        self._add(region.FORBID, links)

    def exclude(self, counts):
        self.sat.add_clause(blocking_clause(self.enc, counts))
        self.nogoods.append(list(counts))
        self.pending = None


def _ring(puzzle: Puzzle, seeds, radius: int | None = None, size: int | None = None) -> set[int]:
    """The islands at most ``radius`` possible links from ``seeds`` (any number of links when None);
    with ``size``, only the nearest of them, until they number ``size``."""
    links, incident = puzzle.links, puzzle.incident
    seen = set(seeds)
    frontier = list(seen)
    most = float("inf") if size is None else size
    layers = 0
    while frontier and (radius is None or layers < radius) and len(seen) < most:
        layers += 1
        nxt = []
        for i in frontier:
            for k in incident[i]:
                a, b, _h = links[k]
                other = b if a == i else a
                if other not in seen:
                    seen.add(other)
                    nxt.append(other)
                    if len(seen) >= most:
                        return seen
        frontier = nxt
    return seen


def blocking_clause(enc, counts: list[int]) -> list[int]:
    """"Some link's count differs from ``counts``": excludes exactly this solution."""
    return [lit for k, c in enumerate(counts) if enc.capacities[k] for lit in enc.differs(k, c)]


def formula(puzzle: Puzzle, implied: bool, stats: dict, announce, start: float):
    """``(encoding, None)`` for a solve, or ``(None, result)`` when :func:`simple_infeasibility`
    already refutes the puzzle.  ``announce`` (when given) hears ``stats`` first (which solver runs,
    even if the process is ended before it answers) and again with the formula's size."""
    if announce is not None:
        announce(dict(stats))
    reason = simple_infeasibility(puzzle)
    if reason:
        return None, lazy.simple_result("sat", reason, stats, start)
    enc = encode(puzzle, implied)
    stats.update(encoding=enc.name, vars=enc.nvars, clauses=len(enc.clauses))
    if announce is not None:
        announce(dict(stats))
    return enc, None


def solve(puzzle: Puzzle, time_limit: float | Deadline | None = None, solver: str = DEFAULT_SAT_SOLVER,
          max_solutions: int = 1, implied: bool = True, local: bool = True,
          report=None, announce=None) -> SolveResult:
    """Solve; with ``max_solutions`` > 1, enumerate up to that many distinct solutions.

    ``result.complete`` is True when the search proved there are no further
    solutions (so ``max_solutions=2`` with one solution found proves uniqueness).
    ``implied=False`` leaves out the implied clauses (connectivity then rests on cuts alone).
    ``local=False`` makes every round global (see :class:`SatBackend`).
    ``time_limit`` (seconds or a :class:`~hashikit.limits.Deadline`) is checked between solver
    calls only: CaDiCaL cannot be interrupted, so ``solvers.solve`` keeps a time limit by running
    this in a worker process killed at the deadline.
    """
    start = time.monotonic()
    if solver != DEFAULT_SAT_SOLVER and solver not in solver_names():
        raise BadArgument(f"engine 'sat': unknown SAT solver {solver!r}; choose from "
                          f"{', '.join(sorted(solver_names()))}")
    deadline = Deadline.of(time_limit)
    stats: dict = {"sat_solver": solver, "rounds": 0, "cuts": 0}
    enc, refuted = formula(puzzle, implied, stats, announce, start)
    if refuted is not None:
        return refuted
    capacities = enc.capacities
    first = None
    if local and solver == CADICAL and len(puzzle.islands) >= FIRST_MIN_ISLANDS:
        first = first_model(enc, stats, deadline)
        if first is None:
            return lazy.result(puzzle, "sat", Status.UNKNOWN, [], False, lazy.TIME_LIMIT, stats, start,
                               "the SAT solver")
        if first is False:  # the formula without connectivity has no model: neither has the puzzle
            return lazy.result(puzzle, "sat", Status.INFEASIBLE, [], False, None, stats, start, "the SAT solver")

    def rounds_solver():
        began = time.process_time()
        made = open_solver(solver, enc.clauses, CADICAL_OPTIONS)
        if first is not None:
            # the first model, assumed whole: found again in one pass of propagation, it leaves the
            # solver's saved phases on it (before the cuts, which it may not meet, come in)
            made.solve(first)
        stats["rounds_solver_time"] = round(time.process_time() - began, 3)
        return made

    with (Deferred(rounds_solver) if first is not None else rounds_solver()) as sat:
        status, found, complete, stopped = lazy.run(
            puzzle, SatBackend(enc, sat, stats, local, first), max_solutions=max_solutions, deadline=deadline,
            stats=stats, report=report, capacities=capacities)
    return lazy.result(puzzle, "sat", status, found, complete, stopped, stats, start, "the SAT solver")


def satisfies(model: list[int], clauses) -> bool:
    """``model`` (literals, variable v at ``model[v - 1]``) meets every clause of ``clauses``."""
    size = len(model)
    return all(any(0 < abs(lit) <= size and model[abs(lit) - 1] == lit for lit in clause) for clause in clauses)


def a_core_is_free() -> bool:
    """The load average of the last minute leaves a core free for the portfolio's second member: on a
    busy machine the members would share one core's worth of time, and the portfolio would be slower
    than one solver (100,000 islands at a load of 3-5 on 2 cores: 86 s of wall for 28 s of CPU)."""
    try:
        return os.getloadavg()[0] <= (os.cpu_count() or 1) - 1
    except OSError:  # no load average here
        return True


def first_model(enc, stats: dict, deadline: Deadline | None) -> list[int] | bool | None:
    """A model of ``enc``'s clauses (the formula without connectivity), False when it has none, None
    when the deadline came first: from :data:`FIRST_PORTFOLIO` (the first of its CaDiCaLs to answer,
    each in a process of its own) where processes can be forked and :func:`a_core_is_free`, else from
    one CaDiCaL here with ``FIRST_OPTIONS``.  ``stats`` get the winner's CPU seconds (``first_time``: loading and solving),
    the wall seconds (``first_wall``) and the winner's index in the portfolio (``first_member``)."""
    from . import first as portfolio  # here: a board below FIRST_MIN_ISLANDS does not load it (nor signal)

    began, wall = time.process_time(), time.monotonic()
    answer = None
    if len(FIRST_PORTFOLIO) > 1 and a_core_is_free():
        answer = portfolio.portfolio(enc.clauses, list(FIRST_PORTFOLIO), None if deadline is None else deadline.at)
    if answer is not None and answer.sat is None and not lazy.past(deadline):
        answer = None  # every member died without an answer: solve here
    if answer is None:
        with open_solver(CADICAL, enc.clauses, FIRST_OPTIONS) as sat:
            found = sat.get_model() if sat.solve() else False
        stats.update(first_time=round(time.process_time() - began, 3), first_wall=round(time.monotonic() - wall, 3))
        return found
    stats.update(first_time=round(answer.load + answer.cpu, 3), first_wall=round(answer.wall, 3),
                 first_member=answer.winner)
    if answer.sat is None:
        return None
    return answer.model if answer.sat else False
