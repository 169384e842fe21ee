"""Comma-separated grid rows: ``0,2,0`` (spaces around commas allowed), 0 = empty.

This is the input convention of the HCMUS CSC14003 Hashiwokakero course projects.
``#`` starts a comment line; ``# maxbridges: 3`` sets MAXBRIDGES, ``# no-loops`` the variant.
"""

from __future__ import annotations

from ..errors import FormatError
from ..limits import CLI, Limits
from ..model import Puzzle, Solution
from . import Document, Format, register
from ._common import (MAX_DIGITS, board_lines, build_puzzle, drawn_size, validate_islands, validate_side, grid_header,
                      is_whole, whole_number)


def read_int_rows(text: str, source: str, kind: str, split, check_width: bool = True,
                  limits: Limits = CLI, extra_lines: int = 0):
    """Rows of non-negative integers: ``(rows, maxbridges, lines_of, cols_of, no_loops)``.

    ``split(line)`` yields ``(start_column, token)`` with 1-based columns.
    Comment lines (``#``) may set MAXBRIDGES and the no-loops rule; blank lines around the
    grid are skipped.  The first ``extra_lines`` lines are a header (not cells).
    """
    lines, maxb, no_loops = board_lines(text, source, kind, limits, max_lines=limits.max_side + extra_lines)
    rows: list[list[int]] = []
    lines_of: list[int] = []
    cols_of: list[list[int]] = []
    islands = 0
    for lineno, line in lines:
        numbers, cols = [], []
        for col, token in split(line):
            if token.isascii() and token.isdigit() and len(token) <= MAX_DIGITS:
                value = int(token)  # the common case, checked at once (a large board has millions)
            else:
                if not token:
                    raise FormatError(f"an empty cell in the {kind} (two separators in a row?)",
                                      source, lineno, col)
                if not is_whole(token):
                    raise FormatError(f"{token[:20]!r} is not a whole number: cells are 0 (empty) or an "
                                      f"island's number", source, lineno, col)
                value = whole_number(token, "a cell", source, lineno, col)
            if value and len(rows) >= extra_lines:  # a .has file's first line is its header
                islands += 1
                if islands > limits.max_islands:
                    validate_islands(islands, limits, source, lineno, col)
            numbers.append(value)
            cols.append(col)
            if len(numbers) > limits.max_side:
                validate_side(len(numbers), "columns", limits, source, lineno, col)
        if check_width and rows and len(numbers) != len(rows[0]):
            raise FormatError(f"row {len(rows) + 1} has {len(numbers)} cells but row 1 has "
                              f"{len(rows[0])}", source, lineno, cols[-1] if len(numbers) > len(rows[0])
                              else len(line.rstrip()) + 1)
        rows.append(numbers)
        lines_of.append(lineno)
        cols_of.append(cols)
    return rows, maxb, lines_of, cols_of, no_loops


def split_commas(line: str):
    out, start = [], 0
    for part in line.split(","):
        stripped = part.strip()
        lead = len(part) - len(part.lstrip())
        out.append((start + lead + 1 if stripped else start + 1, stripped))
        start += len(part) + 1
    return out


def puzzle_from_rows(rows, maxb, lines_of, cols_of, source, kind, no_loops=False, limits: Limits = CLI):
    if not rows:
        raise FormatError(f"no {kind} rows found (the puzzle is empty)", source)
    islands = [(r, c, v) for r, row in enumerate(rows) for c, v in enumerate(row) if v]
    if not islands:
        raise FormatError(f"the {kind} has no islands", source)
    return build_puzzle(len(rows), len(rows[0]), islands, maxb, source,
                        lambda r, c: (lines_of[r], cols_of[r][c]), no_loops, limits)


def read(text: str, source: str, limits: Limits = CLI) -> Document:
    rows, maxb, lines_of, cols_of, no_loops = read_int_rows(text, source, "CSV grid", split_commas,
                                                            limits=limits)
    return Document(puzzle_from_rows(rows, maxb, lines_of, cols_of, source, "CSV grid", no_loops, limits))


def size(text: str, source: str) -> tuple[int, int] | None:
    """The rows and columns the comma-separated lines draw."""
    return drawn_size(text, lambda line: line.count(",") + 1)


def write(puzzle: Puzzle, solution: Solution | None = None) -> str:
    lines = [",".join(str(v) for v in row) for row in puzzle.grid()]
    return grid_header(puzzle) + "\n".join(lines) + "\n"


register(Format("csv", (".csv",), "comma-separated grid rows, 0 = empty (HCMUS course input)",
                read, write, holds_no_loops=True, size=size,
                readme="comma-separated rows of integers, 0 empty (the HCMUS course inputs); `#` comment "
                       "lines as in `grid`"))
