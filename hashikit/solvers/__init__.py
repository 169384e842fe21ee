"""Solver engines behind one interface: ``solve(puzzle, engine=..., time_limit=...)``.

Each engine is one module exposing ``solve(puzzle, time_limit=None, **options)``
and returning a :class:`SolveResult`.  ``ENGINES`` names them; an engine whose
optional dependency is missing raises :class:`SolverUnavailable` with the pip
command that installs it.
"""

from __future__ import annotations

import importlib

from ..errors import SolverUnavailable
from ..model import Puzzle
from .base import SolveResult, Status

#: name -> (module, what it is, pip extra that installs its dependency)
ENGINES: dict[str, tuple[str, str, str]] = {
    "sat": ("hashikit.solvers.sat", "SAT (CaDiCaL via python-sat) with lazy connectivity clauses", "hashikit"),
    "milp": ("hashikit.solvers.milp", "the paper's branch-and-cut ILP (SCIP via PySCIPOpt)", "hashikit[milp]"),
    "cpsat": ("hashikit.solvers.cpsat", "CP model with integer bridge counts (OR-Tools CP-SAT)", "hashikit[cpsat]"),
}
DEFAULT_ENGINE = "sat"

__all__ = ["ENGINES", "DEFAULT_ENGINE", "SolveResult", "Status", "solve", "get_engine", "SolverUnavailable"]


def get_engine(name: str):
    """The ``solve`` function of engine ``name``."""
    if name not in ENGINES:
        raise ValueError(f"unknown engine {name!r}; choose from {', '.join(ENGINES)}")
    module_name, _, extra = ENGINES[name]
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise SolverUnavailable(
            f"engine {name!r} needs a package that is not installed ({exc.name or exc}); "
            f"install it with: pip install '{extra}'") from None
    return module.solve


def solve(puzzle: Puzzle, engine: str = DEFAULT_ENGINE, time_limit: float | None = None,
          **options) -> SolveResult:
    """Solve ``puzzle`` with ``engine``; the result's status says solved / infeasible / unknown."""
    result = get_engine(engine)(puzzle, time_limit=time_limit, **options)
    result.engine = result.engine or engine
    return result
