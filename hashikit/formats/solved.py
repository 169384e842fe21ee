"""A solved board drawn as text, one line per row.

Islands are ``1``-``9`` and ``A``-``G`` (10-16); ``.``, ``0`` or a space is an empty
cell; ``-`` / ``=`` are cells of a single / double horizontal bridge and ``|`` / ``"``
of a single / double vertical one.  Also read: Unicode ``─ ═ │ ║`` and ``$`` for a
double vertical bridge (the HCMUS course and ``solution_text`` convention).
``#`` starts a comment line; ``# maxbridges: 3`` sets MAXBRIDGES, ``# no-loops`` the variant.

A bridge between two neighbouring islands has no cell to be drawn in; for such
solutions the writer uses the *spaced* layout, announced by the comment line
``# spaced``: board cells stand on every other column and line, and the columns
and lines between them hold the bridges (spaces where there are none)::

    # spaced
    1-1 .
    |
    2=2-1

Text cannot show three or more bridges on one link or bridges that cross: the
writer refuses such solutions with a FormatError.
"""

from __future__ import annotations

import re

from ..errors import FormatError
from ..limits import CLI, Limits
from ..model import Puzzle, Solution, describe_cell
from . import Document, Format, register
from ._common import (board_lines, build_puzzle, drawn_size, validate_board, validate_islands, validate_side,
                      validate_solution, grid_header, number_of, symbol_of)

#: mark -> (horizontal?, count)
MARKS = {
    "-": (True, 1), "─": (True, 1),
    "=": (True, 2), "═": (True, 2),
    "|": (False, 1), "│": (False, 1),
    '"': (False, 2), "║": (False, 2), "$": (False, 2),
}
ASCII = {(True, 1): "-", (True, 2): "=", (False, 1): "|", (False, 2): '"'}
UNICODE = {(True, 1): "─", (True, 2): "═", (False, 1): "│", (False, 2): "║"}


_SPACED = re.compile(r"\s*#\s*spaced\b", re.IGNORECASE)
_BLANK = " .0"


def _kind(ch: str):
    """('island', n) / ('empty', 0) / ('mark', (horizontal, count)) / None for a stranger."""
    if ch == " ":
        return ("empty", 0)
    if ch in MARKS:
        return ("mark", MARKS[ch])
    n = number_of(ch)
    if n is None:
        return None
    return ("island", n) if n else ("empty", 0)


def size(text: str, source: str) -> tuple[int, int] | None:
    """The rows and columns the drawing spans (two lines and characters a cell when spaced)."""
    spaced = any(_SPACED.match(line) for line in text.splitlines())
    return drawn_size(text, lambda line: len(line.rstrip("\r\n")), 2 if spaced else 1)


def read(text: str, source: str, limits: Limits = CLI) -> Document:
    """Read the board as a canvas of characters (in the spaced layout, board cells on every
    other line and column), then its islands and the bridges drawn between them."""
    spaced = any(_SPACED.match(line) for line in text.splitlines())
    f = 2 if spaced else 1  # canvas cells per board cell
    top = f * limits.max_side - f + 1
    lines, maxb, no_loops = board_lines(text, source, "board", limits, keep_inner_blank=spaced, max_lines=top)
    if not lines:
        raise FormatError("no board rows found (the file is empty)", source)
    rows = [line.rstrip("\r\n") for _, line in lines]
    lines_of = [n for n, _ in lines]
    width = max(len(r) for r in rows)
    if width > top:
        r = next(i for i, row in enumerate(rows) if len(row) == width)
        validate_side((width + f - 1) // f, "columns", limits, source, lines_of[r], top + 1)
    if spaced and width % 2 == 0:
        width += 1
    validate_board((len(rows) + f - 1) // f, (width + f - 1) // f, limits, source)  # before padding rows
    loose = spaced or any(" " in r.rstrip() for r in rows)
    islands = []
    for r, row in enumerate(rows):
        if len(row) != width:
            if not loose:  # with spaces for empty cells, an editor may have stripped trailing ones
                raise FormatError(f"row {r + 1} has {len(row)} cells but the longest row has {width}",
                                  source, lines_of[r], len(row) + 1)
            rows[r] = row.ljust(width)
        for c, ch in enumerate(row):
            if ch in _BLANK or ch in MARKS:
                continue
            n = number_of(ch)
            if n is None:
                raise FormatError(f"unknown character {ch!r} in a solved board: use 1-9 and A-G for "
                                  f"islands, '.' for empty, '-' '=' '|' '\"' (or '$') for bridges",
                                  source, lines_of[r], c + 1)
            if n:
                if spaced and (r % 2 or c % 2):
                    raise FormatError("in the spaced layout islands stand on odd-numbered lines and "
                                      "columns (1, 3, 5, ...); this one is between cells",
                                      source, lines_of[r], c + 1)
                islands.append((r // f, c // f, n))
                validate_islands(len(islands), limits, source, lines_of[r], c + 1)
    if not islands:
        raise FormatError("the board has no islands", source)
    height = len(rows)
    bridges = [((p, q), k) for p, q, k in _bridges(rows, lines_of, source)]
    puzzle = build_puzzle((height + f - 1) // f, (width + f - 1) // f, islands, maxb, source,
                          lambda r, c: (lines_of[f * r], f * c + 1), no_loops, limits)
    half = (lambda p: (p[0] // 2, p[1] // 2)) if spaced else (lambda p: p)  # noqa: E731
    return Document(puzzle, Solution({(half(p), half(q)): k for (p, q), k in bridges}))


def _bridges(rows: list[str], lines_of: list[int], source: str):
    """``(start, end, count)`` on the canvas for every run of bridge marks, checked to join islands."""
    def where(r, c):
        return lines_of[r], c + 1

    for r, row in enumerate(rows):
        for a, b, count in _runs(row, True, lambda i, r=r: where(r, i), source):
            yield (r, a), (r, b), count
    vertical = sorted({c for row in rows for c, ch in enumerate(row) if ch in MARKS and not MARKS[ch][0]})
    for c in vertical:
        column = "".join(row[c] for row in rows)
        for a, b, count in _runs(column, False, lambda i, c=c: where(i, c), source):
            yield (a, c), (b, c), count


def _runs(line: str, horizontal: bool, where, source: str):
    """``(first end, last end, count)`` of each run of ``horizontal`` (or vertical) marks in ``line``."""
    direction = "horizontal" if horizontal else "vertical"
    n, i = len(line), 0
    while i < n:
        mark = MARKS.get(line[i])
        if mark is None or mark[0] != horizontal:
            i += 1
            continue
        start, count = i, mark[1]
        while i < n:
            mark = MARKS.get(line[i])
            if mark is None or mark[0] != horizontal:
                break
            if mark[1] != count:
                raise FormatError(f"a {direction} bridge mixes single and double marks", source, *where(i))
            i += 1
        for pos in (start - 1, i):
            if not 0 <= pos < n:
                raise FormatError(f"a {direction} bridge runs off the board instead of ending at an island",
                                  source, *where(start if pos < 0 else i - 1))
            kind = _kind(line[pos])
            if kind[0] == "mark":
                other = "vertical" if horizontal else "horizontal"
                raise FormatError(f"a {other} bridge mark inside a {direction} bridge (bridges cannot "
                                  f"cross)", source, *where(pos))
            if kind[0] != "island":
                raise FormatError(f"a {direction} bridge does not end at an island", source, *where(pos))
        yield start - 1, i, count


def _draw(puzzle: Puzzle, solution: Solution, marks: dict) -> str:
    validate_solution(puzzle, solution)
    spaced = any(abs(p[0] - q[0]) + abs(p[1] - q[1]) == 1 for (p, q), _ in solution)
    f = 2 if spaced else 1  # canvas cells per board cell
    grid = [["." if not spaced or (r % 2 == 0 and c % 2 == 0) else " "
             for c in range(f * puzzle.cols - f + 1)] for r in range(f * puzzle.rows - f + 1)]
    for isl in puzzle.islands:
        grid[f * isl.row][f * isl.col] = symbol_of(isl.number, "solved")
    islands = {(f * r, f * c) for (r, c) in puzzle.index}
    for (p, q), count in solution:
        name = f"the bridge between {describe_cell(*p)} and {describe_cell(*q)}"
        if count > 2:
            raise FormatError(f"{name} has {count} bridges; solved text shows at most 2 "
                              f"(MAXBRIDGES {puzzle.maxbridges}): use the json-solution format")
        if count < 1:
            raise FormatError(f"{name} has a bridge count of {count}")
        if p not in puzzle.index or q not in puzzle.index:
            raise FormatError(f"{name} does not join two islands")
        p, q = (f * p[0], f * p[1]), (f * q[0], f * q[1])
        if p[0] == q[0]:
            cells = [(p[0], c) for c in range(p[1] + 1, q[1])]
            mark = marks[(True, count)]
        elif p[1] == q[1]:
            cells = [(r, p[1]) for r in range(p[0] + 1, q[0])]
            mark = marks[(False, count)]
        else:
            raise FormatError(f"{name} is not straight")
        if not cells:
            raise FormatError(f"{name} joins neighbouring cells; solved text has no cell to draw it in")
        for r, c in cells:
            if grid[r][c] not in ". ":
                what = "crosses another bridge" if (r, c) not in islands else "passes over an island"
                raise FormatError(f"{name} {what} at {describe_cell(r // f, c // f)}; "
                                  f"solved text cannot draw that")
            grid[r][c] = mark
    head = grid_header(puzzle) + ("# spaced: cells on every other column and line\n" if spaced else "")
    return head + "\n".join("".join(row).rstrip() for row in grid) + "\n"


def write(puzzle: Puzzle, solution: Solution | None = None, unicode: bool = False) -> str:
    if solution is None:
        raise FormatError("the solved format draws a solution; there is none to write")
    return _draw(puzzle, solution, UNICODE if unicode else ASCII)


def write_unicode(puzzle: Puzzle, solution: Solution | None = None) -> str:
    return write(puzzle, solution, unicode=True)


register(Format("solved", (".sol",), "solved grid text: - = horizontal, | \" vertical bridges",
                read, write, needs_solution=True, has_solution=True, holds_no_loops=True, size=size,
                readme="solved grid: `-` `=` single/double horizontal, `\\|` `\"` single/double vertical "
                       "(also `$`); `# spaced` layout when islands touch; `#` comment lines as in `grid`"))
register(Format("solved-unicode", (".usol",), "the same with ─ ═ │ ║",
                read, write_unicode, needs_solution=True, has_solution=True, holds_no_loops=True, size=size,
                readme="the same drawn with `─ ═ │ ║`"))
