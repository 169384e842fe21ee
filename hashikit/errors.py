"""Errors that hashikit reports to people: each names where the problem is."""

from __future__ import annotations


class HashikitError(Exception):
    """Base class of every error hashikit raises on purpose."""


class PuzzleError(HashikitError, ValueError):
    """A puzzle breaks a structural rule (size, numbers, positions).

    ``row``/``col`` (0-based) say which cell, when one cell is to blame.
    """

    def __init__(self, message: str, row: int | None = None, col: int | None = None):
        super().__init__(message)
        self.message = message
        self.row = row
        self.col = col


class FormatError(HashikitError, ValueError):
    """Input text that a reader cannot accept.

    ``source`` is the file name (or ``<stdin>``/``<string>``); ``line`` and
    ``column`` are 1-based, as editors count them.
    """

    def __init__(self, message: str, source: str | None = None,
                 line: int | None = None, column: int | None = None):
        super().__init__(message)
        self.message = message
        self.source = source
        self.line = line
        self.column = column

    def __str__(self) -> str:
        where = self.source or "<input>"
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        return f"{where}: {self.message}"


class SolverUnavailable(HashikitError, ImportError):
    """An engine's optional dependency is not installed."""


class UnsupportedOption(HashikitError, ValueError):
    """A caller asked an engine (or a command) for something it does not do: refused, never ignored."""


class BadArgument(HashikitError, ValueError):
    """A value a caller passed (a time limit, a solution count) that no engine can take: nan, inf,
    zero or negative where a positive number is needed, a bool where a number is needed."""
