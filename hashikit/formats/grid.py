"""Plain grid text: one line per row; ``1``-``9`` and ``A``-``G`` (10-16) are islands,
``.`` or ``0`` empty cells; ``#`` starts a comment line; ``# maxbridges: 3`` sets MAXBRIDGES
and ``# no-loops`` the no-loops variant.

Cells may also be separated by spaces (``4 . . 4``).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress, repeat

from ..errors import FormatError
from ..limits import CLI, Limits
from ..model import Island, Puzzle, Solution
from . import Document, Format, register
from ._common import (board_lines, build_puzzle, drawn_size, validate_islands, validate_board, validate_side, grid_header,
                      number_of, symbol_of)


#: :func:`number_of` of every character it reads as a cell
_CELL = {ch: number_of(ch) for ch in map(chr, range(128)) if number_of(ch) is not None}


def split_cells(line: str) -> list[tuple[int, str]]:
    """``(column, char)`` pairs of a row line, 1-based columns; spaces between cells allowed."""
    columns, chars = _cells(line)
    return list(zip(columns, chars))


def _cells(line: str) -> tuple[Sequence[int], Sequence[str]]:
    """A row line's cells as their 1-based columns and their characters (:func:`split_cells`
    as two sequences: a line without spaces between cells is its own characters)."""
    stripped = line.rstrip()
    tokens = stripped.split()
    if len(tokens) > 1 and all(len(t) == 1 for t in tokens):
        return [col for col, ch in enumerate(stripped, 1) if not ch.isspace()], tokens
    return range(1, len(stripped) + 1), stripped


def read_rows(text: str, source: str, cell_number=number_of, kind: str = "grid", limits: Limits = CLI):
    """Rows of numbers and the text line of each, MAXBRIDGES and the no-loops flag from comments."""
    lines, maxb, no_loops = board_lines(text, source, kind, limits)
    if lines:  # the board's size from its first row and its row count, before reading every cell
        validate_board(len(lines), len(_cells(lines[0][1])[1]), limits, source, lines[0][0])
    rows: list[list[int]] = []
    cols_of: list[Sequence[int]] = []
    lines_of: list[int] = []
    width = None
    islands = 0
    for lineno, line in lines:
        columns, chars = _cells(line)
        validate_side(len(chars), "columns", limits, source, lineno, columns[-1] if chars else None)
        numbers = list(map(_CELL.get, chars)) if cell_number is number_of else None
        if numbers is not None and None not in numbers:  # the common case: one lookup a cell
            found = len(numbers) - numbers.count(0)
            if found and limits.problem(islands=islands + found):
                numbers = None  # over the limit in this row: the loop below names the cell
            else:
                islands += found
        if numbers is None or None in numbers:
            numbers = []
            for col, ch in zip(columns, chars):
                v = cell_number(ch)
                if v is None:
                    raise FormatError(f"unknown character {ch!r} in a {kind}: use 1-9, A-G for 10-16, "
                                      f"'.' or '0' for an empty cell", source, lineno, col)
                if v:
                    islands += 1
                    validate_islands(islands, limits, source, lineno, col)
                numbers.append(v)
        if width is None:
            width = len(numbers)
        elif len(numbers) != width:
            raise FormatError(f"row {len(rows) + 1} has {len(numbers)} cells but row 1 has {width}",
                              source, lineno)
        rows.append(numbers)
        cols_of.append(columns)
        lines_of.append(lineno)
    if not rows:
        raise FormatError("no grid rows found (the puzzle is empty)", source)
    return rows, maxb, lines_of, cols_of, no_loops


def islands_of(rows: list[list[int]]) -> list[Island]:
    """The islands of rows of numbers (0 for an empty cell), row by row."""
    islands: list[Island] = []
    for r, row in enumerate(rows):
        at = list(compress(range(len(row)), row))
        islands.extend(map(tuple.__new__, repeat(Island), zip(repeat(r), at, map(row.__getitem__, at))))
    return islands


def read(text: str, source: str, limits: Limits = CLI) -> Document:
    rows, maxb, lines_of, cols_of, no_loops = read_rows(text, source, limits=limits)
    islands = islands_of(rows)
    if not islands:
        raise FormatError("the grid has no islands", source)
    return Document(build_puzzle(len(rows), len(rows[0]), islands, maxb, source,
                                 lambda r, c: (lines_of[r], cols_of[r][c]), no_loops, limits))


def size(text: str, source: str) -> tuple[int, int] | None:
    """The rows and columns the grid's lines draw."""
    return drawn_size(text, lambda line: len(_cells(line)[1]))


def header(puzzle: Puzzle) -> str:
    return grid_header(puzzle)


def write(puzzle: Puzzle, solution: Solution | None = None) -> str:
    lines = ["".join(symbol_of(v, "grid") if v else "." for v in row) for row in puzzle.grid()]
    return header(puzzle) + "\n".join(lines) + "\n"


register(Format("grid", (".txt", ".grid"), "plain grid: 1-9 and A-G (10-16) islands, '.' or '0' empty, "
                "'#' comments", read, write, holds_no_loops=True, size=size,
                readme="one line per row: `1`-`9`, `A`-`G` (10-16) islands, `.` or `0` empty; `#` comment "
                       "lines; `# maxbridges: 3` sets MAXBRIDGES, `# no-loops` the no-loops variant"))
