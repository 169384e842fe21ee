"""A solved board drawn as text, one line per row.

Islands are ``1``-``9`` and ``A``-``G`` (10-16); ``.``, ``0`` or a space is an empty
cell; ``-`` / ``=`` are cells of a single / double horizontal bridge and ``|`` / ``"``
of a single / double vertical one.  Also read: Unicode ``─ ═ │ ║`` and ``$`` for a
double vertical bridge (the HCMUS course and ``solution_text`` convention).
``#`` starts a comment line; ``# maxbridges: 3`` sets MAXBRIDGES.

Text cannot show three or more bridges on one link, bridges that cross, or a bridge
between two neighbouring cells: the writer refuses such solutions with a FormatError.
"""

from __future__ import annotations

from ..errors import FormatError
from ..model import DEFAULT_MAXBRIDGES, Puzzle, Solution, describe_cell
from . import Document, Format, parse_maxbridges_comment, register
from ._common import build_puzzle, number_of, symbol_of
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


def read(text: str, source: str) -> Document:
    maxb = DEFAULT_MAXBRIDGES
    rows: list[list[tuple]] = []
    lines_of: list[int] = []
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
            if rows:
                ended_at = lineno
            continue
        if ended_at is not None:
            raise FormatError(f"a blank line (line {ended_at}) inside the board", source, lineno)
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
    spaced = any(" " in text.splitlines()[ln - 1].rstrip() for ln in lines_of)
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
    grid = [["." for _ in range(puzzle.cols)] for _ in range(puzzle.rows)]
    for isl in puzzle.islands:
        grid[isl.row][isl.col] = symbol_of(isl.number, "solved")
    islands = puzzle.index
    for (p, q), count in solution:
        name = f"the bridge between {describe_cell(*p)} and {describe_cell(*q)}"
        if count > 2:
            raise FormatError(f"{name} has {count} bridges; solved text shows at most 2 "
                              f"(MAXBRIDGES {puzzle.maxbridges}): use the json-solution format")
        if count < 1:
            raise FormatError(f"{name} has a bridge count of {count}")
        if p not in islands or q not in islands:
            raise FormatError(f"{name} does not join two islands")
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
            if grid[r][c] != ".":
                what = "crosses another bridge" if (r, c) not in islands else "passes over an island"
                raise FormatError(f"{name} {what} at {describe_cell(r, c)}; solved text cannot draw that")
            grid[r][c] = mark
    return header(puzzle) + "\n".join("".join(row) for row in grid) + "\n"


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
