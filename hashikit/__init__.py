"""hashikit: solve, check, convert, draw (and soon generate and play) Hashiwokakero puzzles.

>>> from hashikit import Puzzle, solve, check
>>> p = Puzzle.from_grid([[2, 0, 2], [0, 0, 0], [2, 0, 2]])
>>> r = solve(p)
>>> r.status.value, check(p, r.solution).ok
('solved', True)
"""

__version__ = "0.1.0"

from os import environ as _environ

if _environ.get("HASHIKIT_PURE") == "1":  # run the compiled modules' Python sources (see _build.py)
    from ._build import prefer_sources

    prefer_sources()

#: where each public name lives; it is imported when first asked for, so that a command (and
#: ``hashikit --version``) loads only the modules it uses
_HOME = {
    "Puzzle": "model", "Island": "model", "Link": "model", "Solution": "model",
    "check": "checker", "CheckReport": "checker", "Violation": "checker",
    "solve": "solvers", "SolveResult": "solvers", "Status": "solvers",
    "HashikitError": "errors", "PuzzleError": "errors", "FormatError": "errors", "SolverUnavailable": "errors",
    "read_picture": "service.picture",
}

__all__ = list(_HOME)


def __getattr__(name: str):
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
