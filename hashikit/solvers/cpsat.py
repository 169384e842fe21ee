"""CP engine: the CSP formulation on OR-Tools CP-SAT, with integer bridge counts.

Model.  For each link ``e`` with capacity ``cap_e`` (MAXBRIDGES, capped by both
ends' numbers): an integer ``x_e`` in ``0..cap_e`` and a Boolean ``y_e`` with
``y_e <=> x_e >= 1`` (two enforced linear constraints); the degree of each
island equals its number; crossing links are ``AddAtMostOne(y_h, y_v)``.

Connectivity is lazy, as in the SAT engine: solve; if the bridges fall apart
into components, add for *every* component ``S`` the clause "some link leaving
``S`` is used" (``AddBoolOr`` over ``y(delta(S))``) and solve again.  CP-SAT is
not incremental, so each round is a fresh solve of the same model object with
the added clauses, hinted with the last (disconnected) solution; the time limit
is shared across rounds.

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

from ..model import Puzzle, Solution
from .base import SolveResult, Status
from .graph import components as _components, simple_infeasibility

DEFAULT_WORKERS = 1
#: CP-SAT parameters that suit this model (measured): no LP relaxation, no presolve
#: (each round is a fresh solve, so presolve time is paid again every round)
DEFAULT_PARAMS = {"linearization_level": 0, "cp_model_presolve": False}


def _build(puzzle: Puzzle, caps: list[int], live: list[int]):
    model = cp_model.CpModel()
    x, y = {}, {}
    for k in live:
        x[k] = model.new_int_var(0, caps[k], f"x{k}")
        y[k] = model.new_bool_var(f"y{k}")
        model.add(x[k] >= 1).only_enforce_if(y[k])
        model.add(x[k] == 0).only_enforce_if(~y[k])
    for i, isl in enumerate(puzzle.islands):
        model.add(sum(x[k] for k in puzzle.incident[i] if k in x) == isl.number)
    for h, v in puzzle.crossings:
        if h in y and v in y:
            model.add_at_most_one(y[h], y[v])
    return model, x, y


def solve(puzzle: Puzzle, time_limit: float | None = None, num_workers: int = DEFAULT_WORKERS,
          params: dict | None = None, **_options) -> SolveResult:
    start = time.perf_counter()
    stats: dict = {"rounds": 0, "cuts": 0}

    def done(status, solution=None, reason=None) -> SolveResult:
        stats["time"] = time.perf_counter() - start
        return SolveResult(status, solution, engine="cpsat", reason=reason, stats=stats)

    reason = simple_infeasibility(puzzle)
    if reason:
        return done(Status.INFEASIBLE, reason=reason)
    n = len(puzzle.islands)
    caps = [puzzle.link_capacity(k) for k in range(len(puzzle.links))]
    live = [k for k, c in enumerate(caps) if c]
    links = puzzle.links
    model, x, y = _build(puzzle, caps, live)
    member = [0] * n
    mark = 0
    while True:
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = max(1, int(num_workers))
        for key, value in {**DEFAULT_PARAMS, **(params or {})}.items():
            setattr(solver.parameters, key, value)
        if time_limit is not None:
            left = time_limit - (time.perf_counter() - start)
            if left <= 0:
                return done(Status.UNKNOWN)
            solver.parameters.max_time_in_seconds = left
        stats["rounds"] += 1
        status = solver.solve(model)
        if status == cp_model.INFEASIBLE:
            return done(Status.INFEASIBLE, reason="proved by CP-SAT (no assignment meets the degree, "
                                                  "crossing and connectivity rules)")
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return done(Status.UNKNOWN)
        counts = [0] * len(caps)
        for k in live:
            counts[k] = solver.value(x[k])
        groups = _components(n, [(links[k].a, links[k].b) for k in live if counts[k]])
        if len(groups) == 1:
            return done(Status.SOLVED, Solution.from_counts(puzzle, counts))
        for group in groups:
            mark += 1
            for i in group:
                member[i] = mark
            cut = [y[k] for i in group for k in puzzle.incident[i]
                   if k in y and member[puzzle.other_end(k, i)] != mark]
            model.add_bool_or(cut)
            stats["cuts"] += 1
        model.clear_hints()
        for k in live:
            model.add_hint(x[k], counts[k])
            model.add_hint(y[k], counts[k] > 0)
