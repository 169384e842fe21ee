"""The SAT engine's solver handle: CaDiCaL 1.9.5 (the default) and MiniSat 2.2 (the generator's
proof of uniqueness: a small formula, answered sooner) called straight on python-sat's extension
module, any other solver through python-sat's ``Solver``.

python-sat's ``Solver`` is a Python layer over its extension module ``pysolvers``.  Importing that
layer (``pysat.solvers``) loads its formula readers (with ``bz2``, ``gzip``, ``lzma`` and
``decimal``), ``tempfile`` and ``random``: about 25 ms, a third of a plain ``hashikit solve``
(``benchmarks/results/startup.md``).  The engine needs a few calls on CaDiCaL: a new solver with
its options and clauses, one more clause, solve (under assumptions), the model, the failed
assumptions.  :func:`open_solver` makes them on ``pysolvers``
itself, as ``pysat.solvers.Cadical195`` makes them (and the same calls on MiniSat, as
``pysat.solvers.Minisat22`` does), when the extension has them and answers a two-clause formula
right (python-sat 1.8 and 1.9 do); otherwise, and for every other solver name, it returns
python-sat's own ``Solver``.  ``tests/test_sat.py`` runs both on the same formulas.
"""

from __future__ import annotations

import threading
from collections import deque
from functools import lru_cache
from itertools import repeat

import pysolvers  # python-sat's extension module: without python-sat there is no SAT engine

#: the solver this module calls directly
CADICAL = "cadical195"
_CALLS = ("cadical195_new", "cadical195_set", "cadical195_add_cl", "cadical195_solve", "cadical195_model",
          "cadical195_core", "cadical195_del", "cadical195_cbudget", "cadical195_solve_lim", "cadical195_setphases")
#: the solver called directly besides it, and its calls
MINISAT = "minisat22"
_MINISAT_CALLS = ("minisat22_new", "minisat22_add_cl", "minisat22_solve", "minisat22_model", "minisat22_core",
                  "minisat22_del", "minisat22_cbudget", "minisat22_solve_lim", "minisat22_setphases")


class Cadical:
    """CaDiCaL on ``pysolvers``: ``add_clause``, ``solve``, ``get_model`` and ``delete`` as
    python-sat's ``Solver`` has them (a context manager too)."""

    def __init__(self, api, clauses=(), options: dict[str, int] | None = None) -> None:
        self._api = api
        self._solver = None  # set before the call: a failed start leaves nothing for __del__ to free
        self._solver = self._new()
        self._sat: bool | None = None
        self._assumed: list[int] = []
        for name, value in (options or {}).items():  # before any clause, as CaDiCaL requires
            api.cadical195_set(self._solver, name, value)
        add, solver = self._add, self._solver
        for clause in clauses:
            add(solver, clause)

    def _new(self):
        self._add = self._api.cadical195_add_cl
        return self._api.cadical195_new()

    def add_clause(self, clause: list[int]) -> None:
        self._add(self._solver, clause)

    def append_formula(self, clauses) -> None:
        """Every clause of ``clauses`` (as python-sat's ``Solver.append_formula``)."""
        deque(map(self._add, repeat(self._solver), clauses), 0)

    def solve(self, assumptions: list[int] | tuple[int, ...] = ()) -> bool:
        # the flag says whether this is the main thread, where CaDiCaL leaves Ctrl-C to Python
        main = int(threading.current_thread() is threading.main_thread())
        self._assumed = list(assumptions)
        self._sat = self._solve(main)
        return self._sat

    def _solve(self, main: int) -> bool:
        return self._api.cadical195_solve(self._solver, self._assumed, main)

    def solve_conflicts(self, assumptions: list[int] | tuple[int, ...], conflicts: int) -> bool | None:
        """:meth:`solve` given at most ``conflicts`` conflicts: None when they run out first."""
        main = int(threading.current_thread() is threading.main_thread())
        self._assumed = list(assumptions)
        self._sat = self._solve_limited(main, conflicts)
        return self._sat

    def _solve_limited(self, main: int, conflicts: int) -> bool | None:
        self._api.cadical195_cbudget(self._solver, conflicts)
        status = self._api.cadical195_solve_lim(self._solver, self._assumed, main)
        return None if status == 0 else status > 0

    def set_phases(self, literals: list[int]) -> None:
        """The value each variable is first tried at in the next solves (``literals``' signs)."""
        self._api.cadical195_setphases(self._solver, literals)

    def get_core(self) -> list[int] | None:
        """After an unsatisfiable solve under assumptions: the assumptions it failed on."""
        if self._sat is not False:
            return None
        return self._core() or []

    def _core(self) -> list[int] | None:
        return self._api.cadical195_core(self._solver, self._assumed)

    def get_model(self) -> list[int] | None:
        if not self._sat:
            return None
        return self._model() or []

    def _model(self) -> list[int] | None:
        return self._api.cadical195_model(self._solver)

    def delete(self) -> None:
        if self._solver is not None:
            self._api.cadical195_del(self._solver, None)
            self._solver = None

    def __enter__(self) -> Cadical:
        return self

    def __exit__(self, *exc) -> None:
        self.delete()

    def __del__(self) -> None:
        self.delete()


class Minisat(Cadical):
    """MiniSat 2.2 on ``pysolvers``, with :class:`Cadical`'s calls (it takes no options)."""

    def __init__(self, api, clauses=()) -> None:
        super().__init__(api, clauses)

    def _new(self):
        self._add = self._api.minisat22_add_cl
        return self._api.minisat22_new()

    def _solve_limited(self, main: int, conflicts: int) -> bool | None:
        self._api.minisat22_cbudget(self._solver, conflicts)
        return self._api.minisat22_solve_lim(self._solver, self._assumed, main, 0)

    def set_phases(self, literals: list[int]) -> None:
        self._api.minisat22_setphases(self._solver, literals)

    def _solve(self, main: int) -> bool:
        return self._api.minisat22_solve(self._solver, self._assumed, main)

    def _core(self) -> list[int] | None:
        return self._api.minisat22_core(self._solver)

    def _model(self) -> list[int] | None:
        return self._api.minisat22_model(self._solver)

    def delete(self) -> None:
        if self._solver is not None:
            self._api.minisat22_del(self._solver)
            self._solver = None


class Deferred:
    """A solver made only when something is first asked of it beyond a clause: the clauses added
    before are kept and given to it then (``pending``).  Any call but :meth:`add_clause` (solve, the
    model, the core...) makes it; :meth:`delete` frees it if it was made."""

    def __init__(self, make) -> None:
        self._make = make
        self.solver = None
        self.pending: list[list[int]] = []

    def add_clause(self, clause) -> None:
        if self.solver is None:
            self.pending.append(list(clause))
        else:
            self.solver.add_clause(clause)

    def made(self):
        """The solver, made now if it was not yet, with the pending clauses."""
        if self.solver is None:
            solver = self._make()
            solver.append_formula(self.pending)
            self.solver, self.pending = solver, []
        return self.solver

    def __getattr__(self, name: str):
        if name.startswith("__"):  # copy, pickle and the like probe these: they are not the solver's
            raise AttributeError(name)
        return getattr(self.made(), name)

    def delete(self) -> None:
        if self.solver is not None:
            self.solver.delete()
            self.solver = None

    def __enter__(self) -> Deferred:
        return self

    def __exit__(self, *exc) -> None:
        self.delete()


@lru_cache(maxsize=None)
def extension():
    """python-sat's extension module when it has CaDiCaL's calls and they answer right, else None."""
    return pysolvers if _answers(Cadical, _CALLS) else None


@lru_cache(maxsize=None)
def minisat_extension():
    """python-sat's extension module when it has MiniSat's calls and they answer right, else None."""
    return pysolvers if _answers(Minisat, _MINISAT_CALLS) else None


def _answers(handle, calls) -> bool:
    """``handle`` on ``pysolvers`` has ``calls`` and answers a two-clause formula right."""
    if not all(hasattr(pysolvers, name) for name in calls):
        return False
    try:
        with handle(pysolvers, [[1, 2], [-1]]) as probe:
            if probe.solve() is not True or probe.get_model() != [-1, 2]:
                return False
            if probe.solve([-2]) is not False or probe.get_core() != [-2]:
                return False
            probe.add_clause([-2])
            if probe.solve() is not False:
                return False
    except Exception:  # a changed signature: python-sat's own Solver knows its extension
        return False
    return True


def open_solver(name: str, clauses: list[list[int]], options: dict[str, int] | None = None):
    """A solver holding ``clauses``: :class:`Cadical` for CaDiCaL and :class:`Minisat` for MiniSat
    when the extension allows it, else python-sat's ``Solver(name=name)``.  Use it as a context
    manager.  ``options`` (CaDiCaL's, by name) are set on CaDiCaL only."""
    if name == CADICAL:
        api = extension()
        if api is not None:
            return Cadical(api, clauses, options)
    elif name == MINISAT:
        api = minisat_extension()
        if api is not None:
            return Minisat(api, clauses)
    from pysat.solvers import Solver

    return Solver(name=name, bootstrap_with=clauses)


@lru_cache(maxsize=None)
def solver_names() -> frozenset[str]:
    """python-sat's incremental solvers' names (kissat is not incremental)."""
    from pysat.solvers import SolverNames

    return frozenset(name for key, names in vars(SolverNames).items()
                     if isinstance(names, tuple) and not key.startswith("kissat") for name in names)
