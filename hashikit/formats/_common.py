"""Helpers shared by the text readers: cell symbols and error positions."""

from __future__ import annotations

from ..errors import FormatError, PuzzleError
from ..model import DEFAULT_MAXBRIDGES, Puzzle

#: island number -> symbol in grid-like text: 1-9, then A-G for 10-16
SYMBOLS = "123456789ABCDEFG"
EMPTY = ".0"


def number_of(ch: str) -> int | None:
    """The island number a symbol stands for, 0 for empty, None if it is no cell symbol."""
    if ch in EMPTY:
        return 0
    i = SYMBOLS.find(ch.upper()) if ch.isalpha() else SYMBOLS.find(ch)
    return i + 1 if i >= 0 else None


def symbol_of(number: int, fmt: str) -> str:
    if not 1 <= number <= len(SYMBOLS):
        raise FormatError(f"the {fmt} format holds island numbers 1 to {len(SYMBOLS)}; this puzzle has {number}")
    return SYMBOLS[number - 1]


def build_puzzle(rows: int, cols: int, islands, maxbridges: int, source: str,
                 where=None) -> Puzzle:
    """Make a Puzzle, turning a model error into a FormatError at the offending cell.

    ``where(row, col)`` maps a 0-based cell to a 1-based ``(line, column)`` of the text.
    """
    try:
        return Puzzle(rows, cols, islands, maxbridges)
    except PuzzleError as exc:
        line = column = None
        if where is not None and exc.row is not None:
            line, column = where(exc.row, exc.col if exc.col is not None else 0)
        raise FormatError(exc.message, source, line, column) from None


def board_lines(text: str, source: str, kind: str) -> tuple[list[tuple[int, str]], int]:
    """The board's lines as ``(line number, text)`` and MAXBRIDGES, for grid-like text.

    ``#`` comment lines are skipped (``# maxbridges: 3`` sets MAXBRIDGES); blank lines
    around the board are skipped, a blank line inside it is an error.
    """
    from . import parse_maxbridges_comment

    maxb = DEFAULT_MAXBRIDGES
    lines: list[tuple[int, str]] = []
    ended_at = None
    for lineno, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("#"):
            try:
                m = parse_maxbridges_comment(line)
            except ValueError as exc:
                raise FormatError(str(exc), source, lineno) from None
            if m is not None:
                maxb = m
            continue
        if not line.strip():
            if lines:
                ended_at = lineno
            continue
        if ended_at is not None:
            raise FormatError(f"a blank line (line {ended_at}) inside the {kind}", source, lineno)
        lines.append((lineno, line))
    return lines, maxb
