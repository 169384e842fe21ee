"""Publishing: :mod:`.catalog` (an SQLite catalogue of puzzles with their solutions, levels and
seeds) and :mod:`.book` (printable PDF books made from it or from files).

May import: the model, formats, checker, logic, solvers, render and generate (never service,
cli or web).
"""
