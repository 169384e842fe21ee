"""The ``.has`` format of Coelho, Laporte, Lindbeck & Vidal (2019).

First line ``<rows> <cols> <n>`` (n = number of islands), then ``rows`` lines of
``cols`` whitespace-separated integers: 0 empty, 1..8 an island.  hashikit also
accepts ``#`` comment lines (``# maxbridges: 3``, ``# no-loops``) and writes them only
when MAXBRIDGES is not 2 or the puzzle is of the no-loops variant.
"""

from __future__ import annotations

import re

from ..errors import FormatError
from ..limits import CLI, Limits
from ..model import Puzzle, Solution
from . import Document, Format, register
from ._common import header_line, validate_board, validate_islands, grid_header, is_whole, whole_number
from .csvgrid import puzzle_from_rows, read_int_rows

_TOKEN = re.compile(r"\S+")


def split_ws(line: str):
    return [(m.start() + 1, m.group()) for m in _TOKEN.finditer(line)]


def size(text: str, source: str) -> tuple[int, int] | None:
    """The rows and columns the header line ``<rows> <cols> <n>`` declares."""
    head = header_line(text)
    fields = split_ws(head[0]) if head else []
    if len(fields) != 3 or not all(is_whole(token) for _, token in fields):
        return None
    rows, cols = (whole_number(token, what, source, head[1], head[2] + at - 1)
                  for (at, token), what in zip(fields, ("the number of rows", "the number of columns")))
    return rows, cols


def read(text: str, source: str, limits: Limits = CLI) -> Document:
    rows, maxb, lines_of, cols_of, no_loops = read_int_rows(text, source, ".has file", split_ws,
                                                            check_width=False, limits=limits,
                                                            extra_lines=1)
    if not rows:
        raise FormatError("the file is empty: expected a first line '<rows> <cols> <islands>'", source)
    head, hline = rows[0], lines_of[0]
    if len(head) != 3:
        raise FormatError(f"the first line must be '<rows> <cols> <islands>' (3 numbers), "
                          f"found {len(head)}", source, hline, 1)
    nrows, ncols, n = head
    validate_board(nrows, ncols, limits, source, hline, 1)
    validate_islands(n, limits, source, hline, cols_of[0][2])
    body, blines, bcols = rows[1:], lines_of[1:], cols_of[1:]
    if len(body) < nrows:
        raise FormatError(f"the header says {nrows} rows but the file has {len(body)}", source,
                          (blines[-1] + 1) if blines else hline + 1)
    if len(body) > nrows:
        raise FormatError(f"extra line: the header says {nrows} rows", source, blines[nrows], 1)
    for r, row in enumerate(body):
        if len(row) != ncols:
            col = bcols[r][ncols] if len(row) > ncols else (bcols[r][-1] if bcols[r] else 1)
            raise FormatError(f"row {r + 1} has {len(row)} cells but the header says {ncols} columns",
                              source, blines[r], col)
    puzzle = puzzle_from_rows(body, maxb, blines, bcols, source, ".has grid", no_loops, limits)
    found = len(puzzle.islands)
    if found != n:
        raise FormatError(f"the header says {n} islands but the grid has {found}", source, hline,
                          cols_of[0][2])
    return Document(puzzle)


def write(puzzle: Puzzle, solution: Solution | None = None) -> str:
    grid = puzzle.grid()
    width = max(2, max(len(str(v)) for row in grid for v in row))
    lines = [f"{puzzle.rows} {puzzle.cols} {len(puzzle.islands)}"]
    lines += ["".join(f"{v:>{width}} " for v in row) for row in grid]
    return grid_header(puzzle) + "\n".join(lines) + "\n"


register(Format("has", (".has",), "Coelho et al. benchmark format: 'rows cols n' then rows of integers",
                read, write, holds_no_loops=True, size=size,
                readme="Coelho et al. 2019: `rows cols n`, then rows of integers"))
