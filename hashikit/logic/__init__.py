"""Human-style deduction for Hashiwokakero: states, rules in levels, hints and grades.

>>> from hashikit.logic import solve_logically, grade
>>> state, steps, stuck = solve_logically(puzzle, max_level="medium")   # doctest: +SKIP
>>> print(steps[0].sentence)                                              # doctest: +SKIP
"""

from .grade import WEIGHTS, Grade, grade
from .rules import RULES, next_step, solve_logically
from .state import LEVELS, State, Step, apply, components, contradiction, contradictions

__all__ = ["LEVELS", "RULES", "WEIGHTS", "Grade", "State", "Step", "apply", "components", "contradiction",
           "contradictions", "grade", "next_step", "solve_logically"]
