"""pzprjs' pzprv3 file text for Hashikake, with its answer.

Lines: ``pzprv3``, ``hashikake``, rows, cols, then ``rows`` lines of cells (a number
or ``.``; ``-`` is an unknown number), then ``rows`` lines of ``cols - 1`` values for
the segments between horizontally adjacent cells, then ``rows - 1`` lines of ``cols``
values for the vertical ones: 0 no bridge, 1 / 2 bridges, -1 a "no bridge" mark.
On a one-column board the horizontal lines hold no values (blank lines, which the
reader does not need).  The one-line form with ``/`` between lines (as in pzprjs'
tests) is read too.  MAXBRIDGES is 2.
"""

from __future__ import annotations

from ..errors import FormatError
from ..limits import CLI, Limits
from ..model import Puzzle, Solution, describe_cell
from . import Document, Format, register
from ._common import build_puzzle, validate_board, validate_islands, validate_side, validate_solution, is_whole, whole_number
from .puzzlink import PIDS


def _records(text: str) -> list[tuple[str, int, int]]:
    """Logical lines as ``(text, line, column)``; '/'-separated single-line text is split.
    Blank lines are dropped (only zero-width bridge lines are blank)."""
    out = []
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if "/" in line:
            col = 1
            for part in line.split("/"):
                if part.strip():
                    out.append((part, lineno, col))
                col += len(part) + 1
        else:
            out.append((line, lineno, 1))
    return out


def _tokens(rec):
    text, line, col = rec
    toks, i = [], 0
    for part in text.split(" "):
        if part:
            toks.append((part, line, col + i))
        i += len(part) + 1
    return toks


def size(text: str, source: str) -> tuple[int, int] | None:
    """The rows and columns the third and fourth lines declare."""
    recs = _records(text)
    if len(recs) < 4 or not recs[0][0].strip().startswith("pzprv3"):
        return None
    if not all(is_whole(rec[0].strip()) for rec in recs[2:4]):
        return None
    rows, cols = (whole_number(rec[0].strip(), f"the number of {name}", source, rec[1], rec[2])
                  for rec, name in ((recs[2], "rows"), (recs[3], "cols")))
    return rows, cols


def read(text: str, source: str, limits: Limits = CLI) -> Document:
    recs = _records(text)

    def fail(msg, line=None, col=None):
        raise FormatError(msg, source, line, col)

    if len(recs) < 4 or not recs[0][0].strip().startswith("pzprv3"):
        fail("not a pzprv3 file: it starts with 'pzprv3', the puzzle type, rows and cols",
             *(recs[0][1:] if recs else (None, None)))
    pid = recs[1][0].strip()
    if pid not in PIDS:
        fail(f"puzzle type {pid[:20]!r} is not Hashikake", recs[1][1], recs[1][2])
    size = []
    for rec, name in ((recs[2], "rows"), (recs[3], "cols")):
        value = whole_number(rec[0].strip(), f"the number of {name}", source, rec[1], rec[2])
        validate_side(value, "rows" if name == "rows" else "columns", limits, source, rec[1], rec[2])
        size.append(value)
    rows, cols = size
    validate_board(rows, cols, limits, source, recs[2][1], recs[2][2])
    body = recs[4:]
    if len(body) < rows:
        fail(f"expected {rows} rows of cells, found {len(body)}", *(body[-1][1:] if body else recs[3][1:]))
    islands, where = [], {}
    for r in range(rows):
        toks = _tokens(body[r])
        if len(toks) != cols:
            fail(f"cell row {r + 1} has {len(toks)} cells, expected {cols}", body[r][1], body[r][2])
        for c, (tok, line, col) in enumerate(toks):
            if tok == ".":
                continue
            if tok == "-":
                fail("an island with an unknown number ('?'); hashikit needs every number", line, col)
            if not is_whole(tok):
                fail(f"unexpected cell {tok[:20]!r}: a number or '.'", line, col)
            islands.append((r, c, whole_number(tok, "an island's number", source, line, col)))
            validate_islands(len(islands), limits, source, line, col)
            where[(r, c)] = (line, col)
    if not islands:
        fail("the puzzle has no islands", body[0][1], body[0][2])
    puzzle = build_puzzle(rows, cols, islands, 2, source, lambda r, c: where.get((r, c), (None, None)),
                          limits=limits)
    rest = body[rows:]
    hlines = rows if cols > 1 else 0
    if len(rest) < hlines + rows - 1 or (hlines + rows - 1 == 0):
        return Document(puzzle)  # no (complete) answer section: the problem only

    def grid_of(recs_, width):
        vals = []
        for rec in recs_:
            toks = _tokens(rec)
            if len(toks) != width:
                fail(f"a bridge line has {len(toks)} values, expected {width}", rec[1], rec[2])
            row = []
            for tok, line, col in toks:
                if tok not in ("-1", "0", "1", "2"):
                    fail(f"bridge value {tok[:20]!r}: expected 0, 1, 2 or -1", line, col)
                row.append((max(int(tok), 0), line, col))
            vals.append(row)
        return vals

    hseg = grid_of(rest[:hlines], cols - 1) if hlines else [[] for _ in range(rows)]
    vseg = grid_of(rest[hlines:hlines + rows - 1], cols)
    isl = {(r, c) for r, c, _ in islands}
    used = set()
    bridges = []
    for horizontal, seg in ((True, hseg), (False, vseg)):
        limit = cols - 1 if horizontal else rows - 1
        for (r, c) in sorted(isl):
            k = c if horizontal else r
            if k >= limit:
                continue
            a = seg[r][c]
            if a[0] == 0:
                continue
            count = a[0]
            k += 1
            while True:
                cell = (r, k) if horizontal else (k, c)
                if cell in isl:
                    break
                s = (seg[r][k] if horizontal else seg[k][c]) if k < limit else None
                if s is None or s[0] != count:
                    at = a if s is None else s
                    fail(f"the bridge from the island at {describe_cell(r, c)} does not run "
                         f"{'right' if horizontal else 'down'} to another island with the same count",
                         at[1], at[2])
                used.add((horizontal, cell))
                k += 1
            used.add((horizontal, (r, c)))
            bridges.append((((r, c), cell), count))
    for horizontal, seg in ((True, hseg), (False, vseg)):
        for r, row in enumerate(seg):
            for c, (v, line, col) in enumerate(row):
                if v and (horizontal, (r, c)) not in used:
                    fail("a bridge segment that does not start at an island", line, col)
    return Document(puzzle, Solution(bridges) if bridges else None)


def write(puzzle: Puzzle, solution: Solution | None = None) -> str:
    if puzzle.maxbridges != 2:
        raise FormatError(f"pzprv3 Hashikake has MAXBRIDGES 2; this puzzle has {puzzle.maxbridges}")
    grid = puzzle.grid()
    lines = ["pzprv3", "hashikake", str(puzzle.rows), str(puzzle.cols)]
    lines += ["".join(f"{v if v else '.'} " for v in row) for row in grid]
    if solution is not None:
        validate_solution(puzzle, solution)
        h = [[0] * (puzzle.cols - 1) for _ in range(puzzle.rows)]
        v = [[0] * puzzle.cols for _ in range(puzzle.rows - 1)]
        for (p, q), count in solution:
            name = f"the bridge {describe_cell(*p)} - {describe_cell(*q)}"
            if count > 2:
                raise FormatError(f"{name} has {count} bridges; pzprv3 Hashikake holds at most 2 on a link")
            if p[0] == q[0] and p != q:
                cells = [(p[0], c) for c in range(p[1], q[1])]
                seg = h
            elif p[1] == q[1] and p != q:
                cells = [(r, p[1]) for r in range(p[0], q[0])]
                seg = v
            else:
                raise FormatError(f"{name} is not straight; pzprv3 cannot hold it")
            for r, c in cells:
                if seg[r][c]:
                    raise FormatError(f"{name} overlaps another bridge; pzprv3 cannot hold both")
                seg[r][c] = count
        lines += ["".join(f"{x} " for x in row) for row in h + v]
    return "\n".join(lines) + "\n"


register(Format("pzprv3", (".pzprv3",), "pzprjs file text with its answer", read, write, has_solution=True, size=size,
                readme="pzprjs file text (`pzprv3/hashikake/...`) with its answer"))
