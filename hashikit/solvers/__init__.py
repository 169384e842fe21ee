"""Solver engines behind one contract: ``solve(puzzle, engine, time_limit, max_solutions, **options)``.

Each engine is one module exposing ``solve(puzzle, time_limit=None, max_solutions=1,
report=None, announce=None, **options)`` and returning a :class:`SolveResult`.  ``ENGINES`` names
them; ``CAPABILITIES`` declares what each does, readable without importing the engine's optional
package.  :func:`solve` refuses up front what an engine does not declare (``UnsupportedOption``)
and values no engine can take (``BadArgument``); an engine whose optional dependency is missing
raises :class:`SolverUnavailable` with the pip command that installs it.

Time limits are kept here, end to end: a limited solve runs in a child process that is ended at
the deadline (``process.py``), so model building, solving and enumeration all count and the
answer comes within ``time_limit + limits.TIME_MARGIN``.  Without a limit the engine runs in
this process; so does a limited solve of an engine that keeps deadlines itself, on a model small
enough to build within a fraction of the margin (``Capabilities.deadline_in_process``: SCIP and
CP-SAT take the time left as their own limit; CaDiCaL cannot be stopped, so sat always uses a child).

May import: the model, errors, limits and ``run`` (a limited solve runs in a worker process).
"""

from __future__ import annotations

import importlib

from ..errors import BadArgument, SolverUnavailable, UnsupportedOption
from ..limits import Deadline, validate_seconds
from ..model import Puzzle
from .base import Capabilities, SolveResult, Status

#: name -> (module, what it is, pip extra that installs its dependency)
ENGINES: dict[str, tuple[str, str, str]] = {
    "sat": ("hashikit.solvers.sat", "SAT (CaDiCaL via python-sat) with lazy connectivity clauses", "hashikit"),
    "milp": ("hashikit.solvers.milp", "the paper's branch-and-cut ILP (SCIP via PySCIPOpt)", ".[milp]"),
    "cpsat": ("hashikit.solvers.cpsat", "CP model with integer bridge counts (OR-Tools CP-SAT)", ".[cpsat]"),
    "search": ("hashikit.solvers.search", "depth-first search in pure Python (no dependency; small boards)", "hashikit"),
}
#: links up to which milp and cpsat keep a time limit in the caller: a 400-island instance (about
#: 700 links) builds its SCIP model in about 0.03 s; 5,000 links in about 0.2 s, a fifth of the margin
IN_PROCESS_LINKS = 5_000
#: what each engine does and the keyword options it takes (an engine not listed gets the defaults)
CAPABILITIES: dict[str, Capabilities] = {
    "sat": Capabilities(enumerate=True, time_limit=True, no_loops=True,
                        options=(("solver", str), ("implied", bool), ("local", bool),
                                 ("connectivity", str))),
    "milp": Capabilities(enumerate=True, time_limit=True, no_loops=True, deadline_in_process=IN_PROCESS_LINKS,
                         options=(("weak", bool), ("fractional", bool), ("params", dict))),
    "cpsat": Capabilities(enumerate=True, time_limit=True, no_loops=True, deadline_in_process=IN_PROCESS_LINKS,
                          options=(("num_workers", int), ("params", dict))),
    "search": Capabilities(enumerate=True, time_limit=True, no_loops=True, deadline_in_process=IN_PROCESS_LINKS),
}


def _default_engine() -> str:
    """sat, or search where python-sat is missing (Python in the browser has no python-sat)."""
    from importlib.util import find_spec

    return "sat" if find_spec("pysolvers") is not None else "search"


DEFAULT_ENGINE = _default_engine()

__all__ = ["ENGINES", "CAPABILITIES", "DEFAULT_ENGINE", "SolveResult", "Status", "Capabilities",
           "solve", "get_engine", "capabilities", "validate_arguments", "SolverUnavailable"]


def _known(name: str) -> None:
    if name not in ENGINES:
        raise UnsupportedOption(f"unknown engine {name!r}; choose from {', '.join(ENGINES)}")


def capabilities(name: str) -> Capabilities:
    """What engine ``name`` declares (without importing it)."""
    _known(name)
    return CAPABILITIES.get(name, Capabilities())


def get_engine(name: str):
    """The ``solve`` function of engine ``name``."""
    _known(name)
    module_name, _, extra = ENGINES[name]
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise SolverUnavailable(
            f"engine {name!r} needs a package that is not installed ({exc.name or exc}); "
            f"install it with: pip install '{extra}'") from None
    return module.solve


def _type_name(kind: type) -> str:
    return {bool: "true/false", int: "a whole number", str: "a name", dict: "a mapping"}.get(kind, kind.__name__)


def validate_arguments(puzzle, engine: str, time_limit=None, max_solutions=1, options: dict | None = None) -> None:
    """Refuse, before any work, what ``engine`` does not declare or no engine can take."""
    able = capabilities(engine)
    if not isinstance(puzzle, Puzzle):
        raise BadArgument(f"solve needs a Puzzle, got {type(puzzle).__name__}")
    if time_limit is not None and not isinstance(time_limit, Deadline):
        validate_seconds(time_limit)
    if isinstance(max_solutions, bool) or not isinstance(max_solutions, int) or max_solutions < 1:
        raise BadArgument(f"max_solutions must be a whole number >= 1, got {max_solutions!r}")
    accepted = dict(able.options)
    offered = ", ".join(accepted) or "none"
    for key, value in (options or {}).items():
        if key not in accepted:
            raise UnsupportedOption(f"engine {engine!r} has no option {key!r} (its options: {offered})")
        kind = accepted[key]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise BadArgument(f"engine {engine!r}: option {key!r} must be {_type_name(kind)}, got {value!r}")
    if max_solutions > 1 and not able.enumerate:
        raise UnsupportedOption(f"engine {engine!r} finds one solution only: max_solutions must be 1, "
                                f"got {max_solutions}")
    if time_limit is not None and not able.time_limit:
        raise UnsupportedOption(f"engine {engine!r} does not keep time limits: time_limit must be None")
    if puzzle.no_loops and not able.no_loops:
        raise UnsupportedOption(f"engine {engine!r} does not solve the no-loops variant; engines that do: "
                                f"{', '.join(n for n in ENGINES if capabilities(n).no_loops)}")


def _sat_connectivity(loop, value: str):
    """The sat engine's ``connectivity``: ``"cuts"``, the cut loop (``loop``, ``sat.solve``), or
    ``"propagator"``, connectivity inside CaDiCaL (``propagate.solve``, experimental)."""
    if value == "cuts":
        return loop
    from .propagate import CONNECTIVITY, solve as inside

    if value not in CONNECTIVITY:
        raise BadArgument(f"engine 'sat': unknown connectivity {value!r}; choose from {', '.join(CONNECTIVITY)}")
    return inside


def solve(puzzle: Puzzle, engine: str = DEFAULT_ENGINE, time_limit: float | Deadline | None = None,
          max_solutions: int = 1, **options) -> SolveResult:
    """Solve ``puzzle`` with ``engine``; the result's status says solved / infeasible / unknown.

    ``max_solutions > 1`` enumerates distinct solutions (2 answers "is it unique?"); with
    ``time_limit`` the answer comes within it plus ``limits.TIME_MARGIN`` (status unknown, or the
    solutions found so far, and ``stopped == "time limit"``), counted once the engine's package is
    imported (the first call in a process imports it).  ``time_limit`` may be a
    :class:`~hashikit.limits.Deadline` (a caller's, shared with its other stages).
    """
    validate_arguments(puzzle, engine, time_limit, max_solutions, options)
    run = get_engine(engine)  # imported once per process, before a clock given in seconds starts
    if engine == "sat" and "connectivity" in options:
        options = dict(options)
        run = _sat_connectivity(run, options.pop("connectivity"))
    deadline = Deadline.of(time_limit)
    if deadline is None:
        result = run(puzzle, max_solutions=max_solutions, **options)
    else:
        from .process import solve_limited

        # the links are counted only for a board that can be small (a connected one has at least
        # islands - 1): building them for a large one is work the worker does, under the deadline
        small = capabilities(engine).deadline_in_process
        keeps_deadline = bool(small) and len(puzzle.islands) <= small + 1 and len(puzzle.links) <= small
        result = solve_limited(engine, run, puzzle, deadline, max_solutions, options, keeps_deadline)
    result.engine = result.engine or engine
    return result
