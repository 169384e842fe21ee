"""Connectivity inside CaDiCaL: the SAT engine's formula with a user propagator (IPASIR-UP)
instead of the cut loop's rounds.  Experimental, offered as the ``sat`` engine's option
``connectivity="propagator"``: correct, but slower than the loop (1.2x its CPU time on the Coelho
instances, about 3x from 10,000 islands: ``benchmarks/results/propagate.md``).

The propagator observes each link's "used" literal.  When CaDiCaL has a complete assignment it
hands the propagator the observed literals (``check_model``); if the used links leave the islands
in more than one group, the propagator rejects the assignment and gives CaDiCaL the split cut of
every group (as the loop would: "some link leaving the group carries a bridge", valid for every
connected solution) as external clauses, and the search goes on inside the same call.  Every
assignment CaDiCaL then returns is connected, so the shared loop (``lazy.run``) only adds
no-goods (uniqueness, enumeration) and the no-loops rule's cycle cuts.

CaDiCaL 1.9.5 as python-sat binds it calls every callback of the propagator on every event:
each assignment of an observed literal, each decision level, each backtrack, each decision and
each propagation fixpoint is a call into Python, whether or not the propagator has anything to
say (no callback can be left out, and the propagator's ``is_lazy`` flag does not change that).
Those calls, and the search CaDiCaL makes with a propagator attached, are what the benchmark
weighs against the loop's rounds.
"""

from __future__ import annotations

import time

from pysat.engines import Propagator

from ..errors import BadArgument, SolverUnavailable
from ..limits import Deadline
from ..model import Puzzle
from . import lazy
from .base import SolveResult, Status
from .cadical import CADICAL, extension, open_solver
from .sat import CADICAL_OPTIONS, blocking_clause, formula

#: the values of the ``sat`` engine's ``connectivity`` option
CONNECTIVITY = ("cuts", "propagator")


class Connectivity(Propagator):
    """Checks each complete assignment CaDiCaL finds and answers a disconnected one with the
    split cuts of all its groups.  It propagates nothing on partial assignments."""

    def __init__(self, enc, stats: dict):
        super().__init__()
        self.is_lazy = True
        self.enc = enc
        self.stats = stats
        self.link_of = {enc.used(k): k for k, cap in enumerate(enc.capacities) if cap}
        self.pending: list[list[int]] = []

    def check_model(self, model: list[int]) -> bool:
        link_of = self.link_of
        used = [link_of[lit] for lit in model if lit > 0 and lit in link_of]
        cuts = lazy.split_cuts(self.enc.puzzle, used, self.enc.capacities)
        self.stats["models_checked"] = self.stats.get("models_checked", 0) + 1
        self.stats["cuts"] = self.stats.get("cuts", 0) + len(cuts)
        enc_used = self.enc.used
        self.pending.extend([enc_used(k) for k in cut] for cut in cuts)
        return not cuts

    def has_clause(self) -> bool:
        return bool(self.pending)

    def add_clause(self) -> list[int]:
        return self.pending.pop()

    def on_assignment(self, lit: int, fixed: bool = False) -> None:
        pass

    def on_new_level(self) -> None:
        pass

    def on_backtrack(self, to: int) -> None:
        pass

    def decide(self) -> int:
        return 0

    def propagate(self) -> list[int]:
        return []

    def provide_reason(self, lit: int) -> list[int]:
        return []


class PropagatorBackend:
    """The shared loop's view of one CaDiCaL with :class:`Connectivity` attached: every
    assignment it returns is connected (run the loop with ``enforces_splits=True``)."""

    def __init__(self, enc, sat, stats: dict):
        self.enc = enc
        self.sat = sat
        self.stats = stats
        self.api = extension()
        self.interrupted = False
        self.propagator = Connectivity(enc, stats)
        self.api.cadical195_pconn(sat._solver, self.propagator)
        for lit in self.propagator.link_of:
            self.api.cadical195_vobserve(sat._solver, lit)

    def close(self) -> None:
        """Detach the propagator, unless a solve was cut short (Ctrl-C): CaDiCaL then refuses the
        detach and aborts the process, while deleting the solver with it attached is safe."""
        if self.sat._solver is not None and not self.interrupted:
            self.api.cadical195_pdisconn(self.sat._solver)

    def solve(self, deadline):
        self.stats["solver_calls"] = self.stats.get("solver_calls", 0) + 1
        self.interrupted = True
        answer = self.sat.solve()
        self.interrupted = False
        if answer:
            return Status.SOLVED, self.enc.counts(self.sat.get_model())
        return Status.INFEASIBLE, None

    def require_one(self, links):
        self.sat.add_clause([self.enc.used(k) for k in links])

    def forbid_all(self, links):
        self.sat.add_clause([-self.enc.used(k) for k in links])

    def exclude(self, counts):
        self.sat.add_clause(blocking_clause(self.enc, counts))


def available() -> bool:
    """python-sat's extension has CaDiCaL 1.9.5 with its propagator calls."""
    api = extension()
    return api is not None and all(hasattr(api, name) for name in
                                   ("cadical195_pconn", "cadical195_pdisconn", "cadical195_vobserve"))


def solve(puzzle: Puzzle, time_limit: float | Deadline | None = None, max_solutions: int = 1,
          implied: bool = True, report=None, announce=None, *, solver: str = CADICAL,
          local: bool = True) -> SolveResult:
    """As :func:`hashikit.solvers.sat.solve`, connectivity kept by :class:`Connectivity`
    (``solvers.solve`` runs it for the ``sat`` engine's ``connectivity="propagator"``).

    Refuses what has no meaning here: a SAT solver other than CaDiCaL 1.9.5 (the only one with
    user propagators), ``local=False`` (there are no rounds)."""
    if solver != CADICAL:
        raise BadArgument(f"engine 'sat': connectivity 'propagator' needs solver {CADICAL!r}, "
                          f"the only one with user propagators; got {solver!r}")
    if not local:
        raise BadArgument("engine 'sat': local=False chooses how the cut loop's rounds run; "
                          "connectivity 'propagator' has no rounds")
    if not available():
        raise SolverUnavailable("connectivity 'propagator' needs python-sat's CaDiCaL 1.9.5 with its "
                                "user propagator calls (python-sat >= 1.8)")
    start = time.monotonic()
    deadline = Deadline.of(time_limit)
    stats: dict = {"sat_solver": CADICAL, "connectivity": "propagator", "rounds": 0, "cuts": 0}
    enc, refuted = formula(puzzle, implied, stats, announce, start)
    if refuted is not None:
        return refuted
    with open_solver(CADICAL, enc.clauses, CADICAL_OPTIONS) as sat:
        backend = PropagatorBackend(enc, sat, stats)
        try:
            status, found, complete, stopped = lazy.run(
                puzzle, backend, max_solutions=max_solutions, deadline=deadline, stats=stats,
                report=report, capacities=enc.capacities, enforces_splits=True)
        finally:
            backend.close()
    return lazy.result(puzzle, "sat", status, found, complete, stopped, stats, start, "the SAT solver")
