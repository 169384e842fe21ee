"""The paper's engine: the branch-and-cut ILP of Coelho, Laporte, Lindbeck & Vidal (2019), on SCIP.

Model (PySCIPOpt).  For each link ``e`` with capacity ``cap_e`` (MAXBRIDGES,
capped by both ends' numbers):

- ``x_e`` integer in ``0..cap_e`` (bridges on ``e``) and ``y_e`` binary ("used"),
  with ``y_e <= x_e <= cap_e * y_e``;
- degree: ``sum(x_e, e at island i) = number(i)`` for each island;
- crossings: ``y_h + y_v <= 1`` for each crossing pair;
- optionally (``weak=True``, the default) the *weak connectivity* inequality
  ``sum(y_e) >= n - 1`` (a connected graph on ``n`` islands has a spanning tree);
- connectivity cuts ``sum(y_e, e in delta(S)) >= 1``, separated lazily *inside*
  the branch-and-bound search by a constraint handler: whenever SCIP holds an
  integral candidate (LP or pseudo solution) whose used links fall apart into
  components, one cut is added for *every* component ``S``; solutions found by
  heuristics are checked and rejected when disconnected.  With
  ``fractional=True`` (the default) the handler also separates fractional LP
  solutions: each component of the support graph ``{e : y_e > 0}`` gives a
  violated cut.  Measured on three 400-island instances (alpha 75) this cut the
  mean time from about 13.7 s to 9.0 s; ``fractional=False`` is the paper's
  integer-only separation.  ``params`` passes SCIP parameters through.

Measured on ten 400-island instances (alpha 75, SCIP 10 via PySCIPOpt 6.3, one
thread): 9.3 s mean / 13.6 s max with the weak inequality, 6.1 s / 10.8 s
without it; the SAT engine takes 0.08 s / 0.16 s on the same instances.

The problem is a pure feasibility problem (zero objective), so SCIP stops at
the first connected solution.  Enumeration and the no-loops rule come from the loop
shared by every engine (``lazy.py``): each solve builds the model afresh with the
no-goods so far (``x_e >= c_e + 1`` or ``x_e <= c_e - 1``, switched by two binaries per
link, one switch on) and cycle cuts ``y(C) <= |C| - 1``; the connectivity cuts found so
far are kept as model constraints.  SCIP never prints (``hideOutput``) and never catches
Ctrl-C (``misc/catchctrlc`` off): it solves in a helper thread that is interrupted, and
KeyboardInterrupt reaches the caller.  "Infeasible" is reported only when SCIP proved
it (or a capacity count or a disconnected link graph shows it); at the time
limit the status is UNKNOWN.
"""

from __future__ import annotations

import time

from pyscipopt import SCIP_RESULT, Conshdlr, Model, quicksum

from ..limits import Deadline
from ..model import Puzzle
from . import lazy
from .base import SolveResult, Status
from .graph import components as _components, simple_infeasibility


class Connectivity(Conshdlr):
    """Lazy connectivity: rejects disconnected candidates and adds ``y(delta(S)) >= 1`` per component."""

    def __init__(self, puzzle: Puzzle, live: list[int], y: dict, stats: dict):
        super().__init__()
        self.puzzle = puzzle
        self.live = live      # links that can carry a bridge
        self.y = y            # link index -> binary variable
        self.capacities = [1 if k in y else 0 for k in range(len(puzzle.links))]  # 0: cannot carry a bridge
        self.stats = stats
        self.added: set[frozenset[int]] = set()
        self.n = len(puzzle.islands)

    def _used(self, solution, threshold: float = 0.5) -> list[int]:
        model, y = self.model, self.y
        return [k for k in self.live if model.getSolVal(solution, y[k]) > threshold]

    def _connected(self, solution) -> bool:
        links = self.puzzle.links
        return len(_components(self.n, ((links[k].a, links[k].b) for k in self._used(solution)))) == 1

    def conssepalp(self, constraints, nusefulconss):
        return self._cuts(self._used(None, 1e-6), SCIP_RESULT.CONSADDED, SCIP_RESULT.DIDNOTFIND)

    def _cuts(self, used, added_result, none_result) -> dict:
        cuts = lazy.split_cuts(self.puzzle, used, self.capacities)
        if not cuts:
            return {"result": SCIP_RESULT.FEASIBLE if none_result == SCIP_RESULT.INFEASIBLE else none_result}
        new = 0
        for links in cuts:
            if not links:
                # a group with no link to the rest of the board: no solution at all
                return {"result": SCIP_RESULT.CUTOFF}
            cut = frozenset(links)
            if cut in self.added:
                continue
            self.added.add(cut)
            self.model.addCons(quicksum(self.y[k] for k in sorted(cut)) >= 1,
                               name=f"conn_{len(self.added)}", removable=False)
            new += 1
        self.stats["cuts"] += new
        if new:
            return {"result": added_result}
        # every cut is already in the model: let SCIP branch instead (cannot loop)
        return {"result": none_result}

    # -- fundamental callbacks ---------------------------------------------------
    def conscheck(self, constraints, solution, checkintegrality, checklprows, printreason, completely):
        return {"result": SCIP_RESULT.FEASIBLE if self._connected(solution) else SCIP_RESULT.INFEASIBLE}

    def consenfolp(self, constraints, nusefulconss, solinfeasible):
        return self._cuts(self._used(None), SCIP_RESULT.CONSADDED, SCIP_RESULT.INFEASIBLE)

    def consenfops(self, constraints, nusefulconss, solinfeasible, objinfeasible):
        return self._cuts(self._used(None), SCIP_RESULT.CONSADDED, SCIP_RESULT.INFEASIBLE)

    def consenforelax(self, solution, constraints, nusefulconss, solinfeasible):
        return {"result": SCIP_RESULT.FEASIBLE if self._connected(solution) else SCIP_RESULT.INFEASIBLE}

    def conslock(self, constraint, locktype, nlockspos, nlocksneg):
        # the cuts have positive coefficients and a lower bound: lowering a y may break them
        model = self.model
        original = constraint is None or constraint.isOriginal()
        for k in self.live:
            var = self.y[k] if original else model.getTransformedVar(self.y[k])
            model.addVarLocksType(var, locktype, nlockspos, nlocksneg)


class MilpBackend:
    """The shared loop's view of SCIP: one model per solve, rebuilt with the constraints added since.

    (Going back to the problem stage with ``freeTransform`` and solving again crashes PySCIPOpt 6.3
    in the Python constraint handler's transform callback, so each solve builds a fresh model.)
    """

    def __init__(self, puzzle: Puzzle, capacities: list[int], live: list[int], stats: dict, weak: bool,
                 fractional: bool, params: dict):
        self.puzzle = puzzle
        self.capacities = capacities
        self.live = live
        self.stats = stats
        self.weak = weak
        self.fractional = fractional
        self.params = params
        self.kept: set[frozenset[int]] = set()   # connectivity cuts found by earlier solves
        self.at_least_one: list[list[int]] = []
        self.not_all: list[list[int]] = []
        self.nogoods: list[list[int]] = []

    def _build(self, deadline) -> tuple[Model, dict, dict, Connectivity | None]:
        puzzle, capacities, live = self.puzzle, self.capacities, self.live
        model = Model("hashi")
        model.hideOutput()
        model.setParam("misc/catchctrlc", False)
        n = len(puzzle.islands)
        x, y = {}, {}
        for k in live:
            x[k] = model.addVar(f"x{k}", vtype="I", lb=0, ub=capacities[k])
            y[k] = model.addVar(f"y{k}", vtype="B")
            model.addCons(y[k] <= x[k])
            model.addCons(x[k] <= capacities[k] * y[k])
        for i, isl in enumerate(puzzle.islands):
            model.addCons(quicksum(x[k] for k in puzzle.incident[i] if k in x) == isl.number)
        for h, v in puzzle.crossings:
            if h in y and v in y:
                model.addCons(y[h] + y[v] <= 1)
        if self.weak and n > 1:
            model.addCons(quicksum(y.values()) >= n - 1)
        for cut in sorted(self.kept, key=sorted):
            model.addCons(quicksum(y[k] for k in sorted(cut)) >= 1)
        for links in self.at_least_one:
            model.addCons(quicksum(y[k] for k in links) >= 1)
        for links in self.not_all:
            model.addCons(quicksum(y[k] for k in links) <= len(links) - 1)
        for counts in self.nogoods:
            self._nogood(model, x, counts)
        hdlr = None
        if n > 1:
            hdlr = Connectivity(puzzle, live, y, self.stats)
            hdlr.added = set(self.kept)
            # negative priorities: called only for candidates that are integral
            model.includeConshdlr(hdlr, "hashi_connectivity", "all islands form one group",
                                  chckpriority=-10, enfopriority=-10, needscons=True,
                                  sepapriority=10, sepafreq=1 if self.fractional else -1)
            model.addPyCons(model.createCons(hdlr, "connected", separate=self.fractional, propagate=False))
        for key, value in self.params.items():
            model.setParam(key, value)
        return model, x, y, hdlr

    def _nogood(self, model, x, counts) -> None:
        """Some link's count differs from ``counts``: one switch per way of differing, one switch on."""
        switches = []
        for k in self.live:
            c, cap = counts[k], self.capacities[k]
            if c < cap:  # up: x_k >= c + 1
                up = model.addVar(vtype="B")
                model.addCons(x[k] >= (c + 1) * up)
                switches.append(up)
            if c > 0:  # down: x_k <= c - 1
                down = model.addVar(vtype="B")
                model.addCons(x[k] + (cap - c + 1) * down <= cap)
                switches.append(down)
        model.addCons(quicksum(switches) >= 1)

    def solve(self, deadline):
        """One SCIP solve. All SCIP work (building, solving, freeing the model) runs in a helper
        thread: Ctrl-C lands in the waiting thread, never inside one of SCIP's Python callbacks,
        where PySCIPOpt would swallow it and leave SCIP in an error state (a hang, seen under load
        when the interrupt hit a constraint handler's lock callback while a model was freed)."""
        self._model = None

        def stop() -> None:
            model = self._model
            if model is not None:
                model.interruptSolve()

        return lazy.interruptible(lambda: self._solve_here(deadline), stop)

    def _solve_here(self, deadline):
        try:
            model, x, _y, hdlr = self._build(deadline)
            if deadline is not None:
                left = lazy.left(deadline)
                if left <= 0:
                    return Status.UNKNOWN, None
                model.setParam("limits/time", left)
            self._model = model
            model.optimize()
            self._model = None
            if hdlr is not None:
                self.kept |= hdlr.added
            self.stats["nodes"] += model.getNNodes()
            self.stats["scip_status"] = status = model.getStatus()
            if model.getNSols() > 0:
                sol = model.getBestSol()
                counts = [0] * len(self.capacities)
                for k in self.live:
                    counts[k] = int(round(model.getSolVal(sol, x[k])))
                return Status.SOLVED, counts
            if status == "infeasible":
                return Status.INFEASIBLE, None
            return Status.UNKNOWN, None
        finally:
            self._model = None

    def require_one(self, links):
        self.at_least_one.append(list(links))

    def forbid_all(self, links):
        self.not_all.append(list(links))

    def exclude(self, counts):
        self.nogoods.append(list(counts))


def solve(puzzle: Puzzle, time_limit: float | Deadline | None = None, weak: bool = True,
          fractional: bool = True, params: dict | None = None, max_solutions: int = 1,
          report=None, announce=None) -> SolveResult:
    start = time.monotonic()
    deadline = Deadline.of(time_limit)
    stats: dict = {"cuts": 0, "nodes": 0, "rounds": 0, "weak": bool(weak), "fractional": bool(fractional)}
    reason = simple_infeasibility(puzzle)
    if reason:
        return lazy.simple_result("milp", reason, stats, start)
    capacities = list(puzzle.link_capacities)
    live = [k for k, c in enumerate(capacities) if c]
    backend = MilpBackend(puzzle, capacities, live, stats, weak, fractional, params or {})
    status, found, complete, stopped = lazy.run(
        puzzle, backend, max_solutions=max_solutions, deadline=deadline, stats=stats, report=report,
        capacities=capacities, enforces_splits=len(puzzle.islands) > 1)
    return lazy.result(puzzle, "milp", status, found, complete, stopped, stats, start, "SCIP")
