"""CP engine: the CSP formulation on OR-Tools CP-SAT, with integer bridge counts.

Model.  For each link ``e`` with capacity ``cap_e`` (MAXBRIDGES, capped by both
ends' numbers): an integer ``x_e`` in ``0..cap_e`` and a Boolean ``y_e`` with
``y_e <=> x_e >= 1`` (two enforced linear constraints); the degree of each
island equals its number; crossing links are ``AddAtMostOne(y_h, y_v)``.

Connectivity, enumeration and the no-loops rule come from the loop shared by every
engine (``lazy.py``): a split cut is ``AddBoolOr`` over ``y(delta(S))``, a cycle cut
``AddBoolOr`` over the negated ``y``, a no-good one Boolean ``d_e => x_e != c_e`` per link
and ``AddBoolOr(d)``.  CP-SAT is not incremental, so each round is a fresh solve of the
same model object with the added constraints, hinted with the last solution; the
deadline is shared across rounds.  Each solve runs in a helper thread so that Ctrl-C
stops the search (``stop_search``) and reaches the caller as KeyboardInterrupt.

Why lazy and not a flow formulation.  A single-commodity flow (island 0 sends
one unit to every other island over used links) needs no rounds, but measured on
three 400-island instances of Coelho et al. (alpha 75) it was slower: about 5 s
on average with CP-SAT's defaults and more than 300 s without the LP relaxation,
against 0.75 s on average for the lazy loop with ``linearization_level=0`` and
presolve off (the defaults here, see ``DEFAULT_PARAMS``; ``params`` overrides
them).  One worker beat two on the same test (2 cores).

"Infeasible" is reported only when CP-SAT proved it (or a capacity count or a
disconnected link graph shows it); at the time limit the status is UNKNOWN.
"""

from __future__ import annotations

import time

from ortools.sat.python import cp_model

from ..limits import Deadline
from ..model import Puzzle
from . import lazy
from .base import SolveResult, Status
from .graph import simple_infeasibility

DEFAULT_WORKERS = 1
#: CP-SAT parameters that suit this model (measured): no LP relaxation, no presolve
#: (each round is a fresh solve, so presolve time is paid again every round)
DEFAULT_PARAMS = {"linearization_level": 0, "cp_model_presolve": False}


def _build(puzzle: Puzzle, capacities: list[int], live: list[int]):
    model = cp_model.CpModel()
    x, y = {}, {}
    for k in live:
        x[k] = model.new_int_var(0, capacities[k], f"x{k}")
        y[k] = model.new_bool_var(f"y{k}")
        model.add(x[k] >= 1).only_enforce_if(y[k])
        model.add(x[k] == 0).only_enforce_if(~y[k])
    for i, isl in enumerate(puzzle.islands):
        model.add(sum(x[k] for k in puzzle.incident[i] if k in x) == isl.number)
    for h, v in puzzle.crossings:
        if h in y and v in y:
            model.add_at_most_one(y[h], y[v])
    return model, x, y


class CpBackend:
    """The shared loop's view of one CP-SAT model, solved afresh each round."""

    def __init__(self, puzzle: Puzzle, capacities: list[int], live: list[int], num_workers: int, params: dict):
        self.model, self.x, self.y = _build(puzzle, capacities, live)
        self.capacities = capacities
        self.nlinks = len(capacities)
        self.live = live
        # CP-SAT's own SIGINT handler would end the process: Ctrl-C is Python's (see lazy.interruptible)
        self.settings = {"num_workers": max(1, int(num_workers)), **DEFAULT_PARAMS, **params,
                         "catch_sigint_signal": False}

    def solve(self, deadline):
        solver = cp_model.CpSolver()
        for key, value in self.settings.items():
            setattr(solver.parameters, key, value)
        if deadline is not None:
            left = lazy.left(deadline)
            if left <= 0:
                return Status.UNKNOWN, None
            solver.parameters.max_time_in_seconds = left
        status = lazy.interruptible(lambda: solver.solve(self.model), solver.stop_search)
        if status == cp_model.INFEASIBLE:
            return Status.INFEASIBLE, None
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return Status.UNKNOWN, None
        counts = [0] * self.nlinks
        for k in self.live:
            counts[k] = solver.value(self.x[k])
        self._hint(counts)
        return Status.SOLVED, counts

    def _hint(self, counts):
        model = self.model
        model.clear_hints()
        for k in self.live:
            model.add_hint(self.x[k], counts[k])
            model.add_hint(self.y[k], counts[k] > 0)

    def require_one(self, links):
        self.model.add_bool_or([self.y[k] for k in links])  # empty: infeasible

    def forbid_all(self, links):
        self.model.add_bool_or([~self.y[k] for k in links])

    def exclude(self, counts):
        differs = []
        for k in self.live:
            d = self.model.new_bool_var("")
            self.model.add(self.x[k] != counts[k]).only_enforce_if(d)
            differs.append(d)
        self.model.add_bool_or(differs)


def solve(puzzle: Puzzle, time_limit: float | Deadline | None = None, num_workers: int = DEFAULT_WORKERS,
          params: dict | None = None, max_solutions: int = 1,
          report=None, announce=None) -> SolveResult:
    start = time.monotonic()
    deadline = Deadline.of(time_limit)
    stats: dict = {"rounds": 0, "cuts": 0}
    reason = simple_infeasibility(puzzle)
    if reason:
        return lazy.simple_result("cpsat", reason, stats, start)
    capacities = list(puzzle.link_capacities)
    live = [k for k, c in enumerate(capacities) if c]
    backend = CpBackend(puzzle, capacities, live, num_workers, params or {})
    status, found, complete, stopped = lazy.run(
        puzzle, backend, max_solutions=max_solutions, deadline=deadline, stats=stats, report=report,
        capacities=capacities)
    return lazy.result(puzzle, "cpsat", status, found, complete, stopped, stats, start, "CP-SAT")
