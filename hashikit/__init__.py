"""hashikit: solve, check, convert, draw (and soon generate and play) Hashiwokakero puzzles.

>>> from hashikit import Puzzle, solve, check
>>> p = Puzzle.from_grid([[2, 0, 2], [0, 0, 0], [2, 0, 2]])
>>> r = solve(p)
>>> r.status.value, check(p, r.solution).ok
('solved', True)
"""

from .checker import CheckReport, Violation, check
from .errors import FormatError, HashikitError, PuzzleError, SolverUnavailable
from .model import Island, Link, Puzzle, Solution
from .solvers import SolveResult, Status, solve

__version__ = "0.1.0"

__all__ = ["Puzzle", "Island", "Link", "Solution", "check", "CheckReport", "Violation", "solve",
           "SolveResult", "Status", "HashikitError", "PuzzleError", "FormatError", "SolverUnavailable"]
