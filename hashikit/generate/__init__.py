"""Puzzle generators: :mod:`.unique` makes puzzles with exactly one solution at a chosen level
(graded by :mod:`hashikit.logic`, proved unique by :mod:`hashikit.solvers`) from the random
constructions of :mod:`.layouts`; :mod:`.coelho` is
the construction of Coelho et al. (2019), the benchmark's generator.

May import: the model, checker, logic and solvers (never service, run, publish or the front ends).
"""

from .coelho import coelho, coelho_with_solution
from .layouts import random_solution, stretch_to_frame, tatham_layout
from .unique import GenerateStats, generate_from, generate_unique

__all__ = ["GenerateStats", "coelho", "coelho_with_solution", "generate_from", "generate_unique", "random_solution",
           "stretch_to_frame", "tatham_layout"]
