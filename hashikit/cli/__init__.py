"""The ``hashikit`` command, a thin printer of the use-cases: :mod:`.commands` (the parser and the
puzzle commands), :mod:`.logic` (hint, explain, grade, generate), :mod:`.catalog` (catalogue
and book), :mod:`.bench`, with :mod:`.common` and :mod:`.argtypes` shared by them.

May import: anything of hashikit but the web app (``hashikit.web.cli``, the ``serve`` command, is
the one piece of the web it registers).
"""

import sys


def main(argv: list[str] | None = None) -> int:
    """The ``hashikit`` command (:func:`hashikit.cli.commands.main`); ``--version`` answers before
    anything else is imported."""
    if (sys.argv[1:] if argv is None else argv) == ["--version"]:
        from .. import __version__

        print(f"hashikit {__version__}")
        return 0
    from .commands import main as run

    return run(argv)


def __getattr__(name: str):
    if name == "build_parser":
        from .commands import build_parser

        return build_parser
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["build_parser", "main"]
