"""Human-style deduction for Hashiwokakero: states, rules in levels, hints and grades.

The levels easy, medium and hard are the solver stages of Simon Tatham's *Bridges*;
expert adds hashikit's own techniques (see :mod:`hashikit.logic.rules`).

>>> from hashikit.logic import solve_logically, grade
>>> state, steps, stuck = solve_logically(puzzle, max_level="medium")   # doctest: +SKIP
>>> print(steps[0].sentence)                                              # doctest: +SKIP

May import: the model, errors, limits, ``run``, the checker and the solvers (for a verdict).
"""

from .deducer import Deducer, solve_logically
from .hints import hint, hint_bridges, hint_marks, next_step
from .grade import WEIGHTS, Grade, grade
from .rules import RULES, Rule
from .state import LEVELS, State, Step, apply, components, contradiction, contradictions

__all__ = ["LEVELS", "RULES", "WEIGHTS", "Deducer", "Grade", "Rule", "State", "Step", "apply", "components",
           "contradiction", "contradictions", "grade", "hint", "hint_bridges", "hint_marks", "next_step",
           "solve_logically"]
