"""The default engine: SAT (CaDiCaL through python-sat) with lazy connectivity.

Encoding.  Link ``k`` with capacity ``cap`` (MAXBRIDGES, capped by both ends'
numbers) gets ``cap`` order variables ``x[k][j]`` = "at least ``j`` bridges on
``k``", with ``x[k][j+1] -> x[k][j]``; ``x[k][1]`` is the paper's ``y_k``.

- crossing pairs: ``not x[h][1] or not x[v][1]``;
- degree: the bridge count of an island, a sum of unary counts, equals its
  number.  For small MAXBRIDGES the clauses forbid each *maximal* count tuple
  that is one too many or one too few (no auxiliary variables; unit propagation
  is then exact on each island); larger MAXBRIDGES use a totalizer;
- implied clauses: two islands with the same number c are not joined by c
  bridges (they would form an isolated pair);
- connectivity, lazily: solve; if the bridges fall apart into components,
  add for *every* component S the clause "some link leaving S carries a bridge"
  and solve again on the same incremental solver, until connected or UNSAT.

The answer is checked before it is returned only by the tests (the rule
checker is independent of this module); "infeasible" is said only when the
SAT solver proved it (or a capacity count shows it).
"""

from __future__ import annotations

import threading
import time
from functools import lru_cache
from itertools import product

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool
from pysat.solvers import Solver

from ..model import Puzzle, Solution
from .base import SolveResult, Status
from .graph import components as graph_components, simple_infeasibility

DEFAULT_SAT_SOLVER = "cadical195"
#: python-sat cannot interrupt CaDiCaL or Lingeling; under a time limit we use this one
INTERRUPTIBLE_SAT_SOLVER = "glucose4"
_NOT_INTERRUPTIBLE = ("cadical", "lingeling")
#: degree constraints with more count tuples than this use a totalizer instead
_TUPLE_LIMIT = 400


@lru_cache(maxsize=None)
def _degree_patterns(caps: tuple[int, ...], need: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Clauses for "the counts on links with these caps sum to ``need``", as ``(position, level)``
    literals: ``level > 0`` is "at least ``level`` bridges on that link", ``-level`` its negation.

    Forbids each maximal tuple one over (``sum == need + 1``: not all of them reached)
    and each maximal tuple one under (``sum == need - 1``: not all of them capped).
    """
    out = []
    for counts in product(*(range(c + 1) for c in caps)):
        s = sum(counts)
        if s == need + 1:
            out.append(tuple((p, -t) for p, t in enumerate(counts) if t))
        elif s == need - 1:
            out.append(tuple((p, t + 1) for p, (t, c) in enumerate(zip(counts, caps)) if t < c))
    return tuple(out)


class Encoding:
    """The CNF of a puzzle without connectivity, plus the variable map."""

    def __init__(self, puzzle: Puzzle, implied: bool = True):
        self.puzzle = puzzle
        self.caps = [puzzle.link_capacity(k) for k in range(len(puzzle.links))]
        self.base: list[int] = []  # x[k][j] is variable base[k] + j
        top = 0
        for cap in self.caps:
            self.base.append(top)
            top += cap
        self.nvars = top
        self.clauses: list[list[int]] = []
        self._order()
        self._crossings()
        self._degrees()
        if implied:
            self._isolated_pairs()

    def var(self, k: int, j: int) -> int:
        return self.base[k] + j

    def used(self, k: int) -> int:
        """The literal "link k carries at least one bridge" (0 if it cannot)."""
        return self.base[k] + 1 if self.caps[k] else 0

    def _order(self) -> None:
        for k, cap in enumerate(self.caps):
            b = self.base[k]
            for j in range(1, cap):
                self.clauses.append([-(b + j + 1), b + j])

    def _crossings(self) -> None:
        for h, v in self.puzzle.crossings:
            if self.caps[h] and self.caps[v]:
                self.clauses.append([-(self.base[h] + 1), -(self.base[v] + 1)])

    def _isolated_pairs(self) -> None:
        """Two islands with the same number c may not join by c bridges: they would be cut off
        (a 1-1 or a 2=2), unless they are the whole puzzle.  Implied by connectivity; saves rounds."""
        isl = self.puzzle.islands
        if len(isl) <= 2:
            return
        for k, ln in enumerate(self.puzzle.links):
            c = isl[ln.a].number
            if c == isl[ln.b].number and c <= self.caps[k]:
                self.clauses.append([-(self.base[k] + c)])

    def _degrees(self) -> None:
        pool = None
        for i, isl in enumerate(self.puzzle.islands):
            links = [k for k in self.puzzle.incident[i] if self.caps[k]]
            caps = [self.caps[k] for k in links]
            need = isl.number
            if sum(caps) < need:
                self.clauses.append([])  # cannot be met: UNSAT
                continue
            size = 1
            for c in caps:
                size *= c + 1
            if size <= _TUPLE_LIMIT:
                self._degree_tuples(links, caps, need)
            else:
                if pool is None:
                    pool = IDPool(start_from=self.nvars + 1)
                lits = [self.var(k, j) for k in links for j in range(1, self.caps[k] + 1)]
                enc = CardEnc.equals(lits=lits, bound=need, vpool=pool, encoding=EncType.totalizer)
                self.clauses.extend(enc.clauses)
        if pool is not None:
            self.nvars = max(self.nvars, pool.top)

    def _degree_tuples(self, links: list[int], caps: list[int], need: int) -> None:
        base = self.base
        for pattern in _degree_patterns(tuple(caps), need):
            self.clauses.append([base[links[p]] + j if j > 0 else -(base[links[p]] - j) for p, j in pattern])

    def counts(self, model: list[int]) -> list[int]:
        """Bridge counts per link from a SAT model."""
        out = []
        for k, cap in enumerate(self.caps):
            b = self.base[k]
            c = 0
            while c < cap and model[b + c] > 0:  # variable v is model[v - 1]
                c += 1
            out.append(c)
        return out


def components(puzzle: Puzzle, counts: list[int]) -> list[list[int]]:
    """Groups of islands joined by bridges (island indices)."""
    return graph_components(len(puzzle.islands), ((ln.a, ln.b) for ln, c in zip(puzzle.links, counts) if c))


def cut_clause(puzzle: Puzzle, enc: Encoding, group: list[int], member: list[int], mark: int) -> list[int]:
    """"Some link leaving ``group`` carries a bridge" (``member`` marks the group with ``mark``)."""
    for i in group:
        member[i] = mark
    clause = []
    for i in group:
        for k in puzzle.incident[i]:
            ln = puzzle.links[k]
            other = ln.b if ln.a == i else ln.a
            if member[other] != mark and enc.caps[k]:
                clause.append(enc.used(k))
    return clause


def solve(puzzle: Puzzle, time_limit: float | None = None, solver: str = DEFAULT_SAT_SOLVER,
          max_solutions: int = 1, implied: bool = True, **_options) -> SolveResult:
    """Solve; with ``max_solutions`` > 1, enumerate up to that many distinct solutions.

    ``result.complete`` is True when the search proved there are no further
    solutions (so ``max_solutions=2`` with one solution found proves uniqueness).
    ``implied=False`` leaves out the implied clauses (connectivity then rests on cuts alone).
    """
    start = time.perf_counter()
    reason = simple_infeasibility(puzzle)
    if reason:
        return SolveResult(Status.INFEASIBLE, engine="sat", reason=reason,
                           stats={"time": time.perf_counter() - start, "rounds": 0, "cuts": 0})
    if time_limit is not None and solver.startswith(_NOT_INTERRUPTIBLE):
        solver = INTERRUPTIBLE_SAT_SOLVER
    enc = Encoding(puzzle, implied)
    stats = {"sat_solver": solver, "vars": enc.nvars, "clauses": len(enc.clauses), "rounds": 0, "cuts": 0}
    member = [-1] * len(puzzle.islands)
    timer = None
    found: list[list[int]] = []
    status = Status.UNKNOWN
    with Solver(name=solver, bootstrap_with=enc.clauses) as sat:
        if time_limit is not None:
            timer = threading.Timer(max(0.0, time_limit - (time.perf_counter() - start)), sat.interrupt)
            timer.daemon = True
            timer.start()
        try:
            while len(found) < max_solutions:
                status, counts = _connectivity_loop(puzzle, enc, sat, member, stats, time_limit is not None)
                if counts is None:
                    break
                found.append(counts)
                if len(found) < max_solutions:
                    sat.add_clause(blocking_clause(enc, counts))
        finally:
            if timer is not None:
                timer.cancel()
    stats["time"] = time.perf_counter() - start
    solutions = [Solution.from_counts(puzzle, c) for c in found]
    reason = None
    if not found and status is Status.INFEASIBLE:
        reason = "proved by the SAT solver (no assignment meets the degree, crossing and connectivity rules)"
    return SolveResult(Status.SOLVED if found else status, solutions[0] if found else None,
                       engine="sat", reason=reason, stats=stats, solutions=solutions,
                       complete=bool(found) and status is Status.INFEASIBLE)


def blocking_clause(enc: Encoding, counts: list[int]) -> list[int]:
    """"Some link's count differs from ``counts``": excludes exactly this solution."""
    clause = []
    for k, (c, cap) in enumerate(zip(counts, enc.caps)):
        if c > 0:
            clause.append(-enc.var(k, c))
        if c < cap:
            clause.append(enc.var(k, c + 1))
    return clause


def _connectivity_loop(puzzle, enc, sat, member, stats, limited):
    """Solve until the bridges are connected (or UNSAT / interrupted).

    ``member`` keeps its marks from earlier calls (one per enumerated solution), so every
    group gets a mark never used before: ``stats["cuts"]`` only grows.  (Restarting the marks
    at 0 on each call once let a stale mark hide links leaving a group, and cut off valid
    solutions: a false "unique".)
    """
    while True:
        stats["rounds"] += 1
        ok = sat.solve_limited(expect_interrupt=True) if limited else sat.solve()
        if ok is None:
            return Status.UNKNOWN, None
        if not ok:
            return Status.INFEASIBLE, None
        counts = enc.counts(sat.get_model())
        groups = components(puzzle, counts)
        if len(groups) == 1:
            return Status.SOLVED, counts
        for group in groups:
            clause = cut_clause(puzzle, enc, group, member, stats["cuts"] + 1)
            sat.add_clause(clause)  # an empty clause makes the next call UNSAT
            stats["cuts"] += 1
