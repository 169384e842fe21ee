"""A solved board drawn as text, one line per row.

Islands are ``1``-``9`` and ``A``-``G`` (10-16); ``.``, ``0`` or a space is an empty
cell; ``-`` / ``=`` are cells of a single / double horizontal bridge and ``|`` / ``"``
of a single / double vertical one.  Also read: Unicode ``─ ═ │ ║`` and ``$`` for a
double vertical bridge (the HCMUS course and ``solution_text`` convention).
``#`` starts a comment line; ``# maxbridges: 3`` sets MAXBRIDGES.

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
from ..model import Puzzle, Solution, describe_cell
from . import Document, Format, register
from ._common import board_lines, build_puzzle, number_of, symbol_of
from .grid import header

#: mark -> (horizontal?, count)
MARKS = {
    "-": (True, 1), "─": (True, 1),
    "=": (True, 2), "═": (True, 2),
    "|": (False, 1), "│": (False, 1),
    '"': (False, 2), "║": (False, 2), "$": (False, 2),
}
ASCII = {(True, 1): "-", (True, 2): "=", (False, 1): "|", (False, 2): '"'}
UNICODE = {(True, 1): "─", (True, 2): "═", (False, 1): "│", (False, 2): "║"}


def _cell(ch: str):
    """('island', n) / ('empty', 0) / ('mark', (horizontal, count)) / None."""
    if ch == " ":
        return ("empty", 0)
    if ch in MARKS:
        return ("mark", MARKS[ch])
    n = number_of(ch)
    if n is None:
        return None
    return ("island", n) if n else ("empty", 0)


_SPACED = re.compile(r"\s*#\s*spaced\b", re.IGNORECASE)


def read(text: str, source: str) -> Document:
    if any(_SPACED.match(line) for line in text.splitlines()):
        return _read_spaced(text, source)
    return _read_compact(text, source)


def _read_spaced(text: str, source: str) -> Document:
    """Read the canvas as a compact board, then keep every other line and column."""
    canvas = _read_compact(text, source, spaced=True)
    lines_of = [n for n, ln in enumerate(text.splitlines(), 1) if ln.strip() and not ln.lstrip().startswith("#")]
    isl = canvas.puzzle.islands
    for i in isl:
        if i.row % 2 or i.col % 2:
            raise FormatError("in the spaced layout islands stand on odd-numbered lines and columns "
                              "(1, 3, 5, ...); this one is between cells", source, lines_of[i.row], i.col + 1)
    rows, cols = (canvas.puzzle.rows + 1) // 2, (canvas.puzzle.cols + 1) // 2
    puzzle = build_puzzle(rows, cols, [(i.row // 2, i.col // 2, i.number) for i in isl],
                          canvas.puzzle.maxbridges, source, lambda r, c: (lines_of[2 * r], 2 * c + 1))
    half = lambda p: (p[0] // 2, p[1] // 2)  # noqa: E731
    return Document(puzzle, Solution({(half(p), half(q)): k for (p, q), k in canvas.solution}))


def _read_compact(text: str, source: str, spaced: bool = False) -> Document:
    lines, maxb = board_lines(text, source, "board")
    rows: list[list[tuple]] = []
    lines_of: list[int] = []
    for lineno, line in lines:
        cells = []
        for col, ch in enumerate(line.rstrip("\r\n"), 1):
            c = _cell(ch)
            if c is None:
                raise FormatError(f"unknown character {ch!r} in a solved board: use 1-9 and A-G for "
                                  f"islands, '.' for empty, '-' '=' '|' '\"' (or '$') for bridges",
                                  source, lineno, col)
            cells.append(c)
        rows.append(cells)
        lines_of.append(lineno)
    if not rows:
        raise FormatError("no board rows found (the file is empty)", source)
    width = max(len(r) for r in rows)
    if spaced and width % 2 == 0:
        width += 1
    spaced = spaced or any(" " in text.splitlines()[ln - 1].rstrip() for ln in lines_of)
    for r, cells in enumerate(rows):
        if len(cells) != width:
            if not spaced:  # with spaces for empty cells, an editor may have stripped trailing ones
                raise FormatError(f"row {r + 1} has {len(cells)} cells but the longest row has {width}",
                                  source, lines_of[r], len(cells) + 1)
            cells.extend([("empty", 0)] * (width - len(cells)))
    height = len(rows)

    def where(r, c):
        return lines_of[r], c + 1

    islands = [(r, c, v) for r in range(height) for c, (kind, v) in enumerate(rows[r]) if kind == "island"]
    if not islands:
        raise FormatError("the board has no islands", source)
    puzzle = build_puzzle(height, width, islands, maxb, source, where)

    bridges = []
    for horizontal in (True, False):
        outer, inner = (height, width) if horizontal else (width, height)
        for a in range(outer):
            b = 0
            while b < inner:
                r, c = (a, b) if horizontal else (b, a)
                kind, val = rows[r][c]
                if kind != "mark" or val[0] != horizontal:
                    b += 1
                    continue
                start, count = b, val[1]
                while b < inner:
                    r2, c2 = (a, b) if horizontal else (b, a)
                    kind2, val2 = rows[r2][c2]
                    if kind2 != "mark" or val2[0] != horizontal:
                        break
                    if val2[1] != count:
                        raise FormatError(f"a {'horizontal' if horizontal else 'vertical'} bridge mixes "
                                          f"single and double marks", source, *where(r2, c2))
                    b += 1
                ends = []
                for pos, side in ((start - 1, "start"), (b, "end")):
                    rr, cc = (a, pos) if horizontal else (pos, a)
                    if not 0 <= pos < inner:
                        last = start if pos < 0 else b - 1
                        raise FormatError(f"a {'horizontal' if horizontal else 'vertical'} bridge runs "
                                          f"off the board instead of ending at an island", source,
                                          *(where(a, last) if horizontal else where(last, a)))
                    kind3, val3 = rows[rr][cc]
                    if kind3 == "mark":
                        other = "vertical" if horizontal else "horizontal"
                        raise FormatError(f"a {other} bridge mark inside a "
                                          f"{'horizontal' if horizontal else 'vertical'} bridge "
                                          f"(bridges cannot cross)", source, *where(rr, cc))
                    if kind3 != "island":
                        raise FormatError(f"a {'horizontal' if horizontal else 'vertical'} bridge does "
                                          f"not end at an island", source, *where(rr, cc))
                    ends.append((rr, cc))
                bridges.append(((ends[0], ends[1]), count))
    return Document(puzzle, Solution(bridges))


def _draw(puzzle: Puzzle, solution: Solution, marks: dict) -> str:
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
    head = header(puzzle) + ("# spaced: cells on every other column and line\n" if spaced else "")
    return head + "\n".join("".join(row).rstrip() for row in grid) + "\n"


def write(puzzle: Puzzle, solution: Solution | None = None, unicode: bool = False) -> str:
    if solution is None:
        raise FormatError("the solved format draws a solution; there is none to write")
    return _draw(puzzle, solution, UNICODE if unicode else ASCII)


def write_unicode(puzzle: Puzzle, solution: Solution | None = None) -> str:
    return write(puzzle, solution, unicode=True)


register(Format("solved", (".sol",), "solved board text: islands, '.', '-' '=' '|' '\"' bridges",
                read, write, needs_solution=True, has_solution=True))
register(Format("solved-unicode", (".usol",), "solved board text with Unicode bridges ─ ═ │ ║",
                read, write_unicode, needs_solution=True, has_solution=True))
