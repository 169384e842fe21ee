"""Puzzle generators: :mod:`.unique` makes puzzles with exactly one solution at a chosen level
(graded by :mod:`hashikit.logic`, proved unique by :mod:`hashikit.solvers`); :mod:`.coelho` is
the construction of Coelho et al. (2019), the benchmark's generator.

May import: the model, checker, logic and solvers (never service, run, publish or the front ends).
"""

from .coelho import coelho, coelho_with_solution
from .unique import GenerateStats, generate_unique, random_solution, tatham_layout

__all__ = ["GenerateStats", "coelho", "coelho_with_solution", "generate_unique", "random_solution", "tatham_layout"]
