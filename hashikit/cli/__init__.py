"""The ``hashikit`` command, a thin printer of the use-cases: :mod:`.main` (the parser and the
puzzle commands), :mod:`.logic` (hint, explain, grade, generate), :mod:`.catalog` (catalogue
and book), :mod:`.bench`, with :mod:`.common` and :mod:`.argtypes` shared by them.

May import: anything of hashikit but the web app (``hashikit.web.cli``, the ``serve`` command, is
the one piece of the web it registers).
"""

from .main import main

__all__ = ["main"]
