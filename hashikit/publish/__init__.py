"""Publishing: :mod:`.catalog` (an SQLite catalogue of puzzles with their solutions, levels and
seeds) and printable books, one concern a module: :mod:`.sources` (a book's puzzles: loaded,
checked through the service's use-cases, ordered), :mod:`.layout` (every page placed once, for a
book or for sheets of puzzles N a page), :mod:`.output` (the pages drawn by the render back ends:
PDF, SVG, PNG) and :mod:`.book` (:func:`~.book.make_book`, from sources to files).

May import: the model, formats, checker, logic, solvers, render, generate, the service's
use-cases and ``run`` (never cli or web).
"""
