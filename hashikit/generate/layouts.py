"""Layouts for the generators: a random connected construction (a solution) on a board, drawn
the way published puzzles look (:func:`random_solution`) or the way Simon Tatham's generator
grows it (:func:`tatham_layout`), and :func:`stretch_to_frame`, which moves the outermost islands
out to the board's edges.  :mod:`.unique` turns a layout into a puzzle of one solution at a level.
"""

from __future__ import annotations

import random
from functools import lru_cache
from itertools import repeat
from typing import Callable

from ..limits import Deadline
from ..model import DEFAULT_MAXBRIDGES, Island, Puzzle, Solution
from .timeout import _OutOfTime


Pos = tuple[int, int]
_DIRS = ((0, 1), (1, 0), (0, -1), (-1, 0))


class _Board:
    """A construction in progress: islands, bridges and the cells they occupy."""

    def __init__(self, rows: int, cols: int):
        self.rows, self.cols = rows, cols
        self.cell: dict[Pos, str] = {}  # pos -> "I" island, "H"/"V" bridge cell
        self.islands: list[Pos] = []
        self.edges: dict[tuple[Pos, Pos], int] = {}  # (p, q) with p < q -> count

    def inside(self, r: int, c: int) -> bool:
        return 0 <= r < self.rows and 0 <= c < self.cols

    def add_island(self, p: Pos) -> None:
        self.cell[p] = "I"
        self.islands.append(p)

    def add_edge(self, p: Pos, q: Pos, count: int = 1) -> None:
        key = (p, q) if p < q else (q, p)
        self.edges[key] = self.edges.get(key, 0) + count
        mark = "H" if p[0] == q[0] else "V"
        for cell in _between(p, q):
            self.cell[cell] = mark

    def sight(self, p: Pos, d: tuple[int, int]) -> Pos | None:
        """The island seen from ``p`` along ``d`` over empty cells only (no bridge crossed)."""
        r, c = p[0] + d[0], p[1] + d[1]
        while self.inside(r, c):
            what = self.cell.get((r, c))
            if what == "I":
                return (r, c)
            if what is not None:
                return None
            r, c = r + d[0], c + d[1]
        return None

    def has_adjacent_island(self, p: Pos, besides: Pos | None = None) -> bool:
        for dr, dc in _DIRS:
            q = (p[0] + dr, p[1] + dc)
            if q != besides and self.cell.get(q) == "I":
                return True
        return False

    def construction(self, maxbridges: int, no_loops: bool = False) -> tuple[Puzzle, list[int]]:
        """The puzzle and the construction's count on each of its links."""
        degree = {p: 0 for p in self.islands}
        for (p, q), k in self.edges.items():
            degree[p] += k
            degree[q] += k
        puzzle = Puzzle(self.rows, self.cols, [Island(r, c, degree[(r, c)]) for r, c in self.islands], maxbridges,
                        no_loops=no_loops)
        return puzzle, list(map(self.edges.get, puzzle.link_cells, repeat(0)))

    def result(self, maxbridges: int) -> tuple[Puzzle, Solution]:
        puzzle, _counts = self.construction(maxbridges)
        return puzzle, Solution(self.edges)


def _between(p: Pos, q: Pos) -> list[Pos]:
    (r1, c1), (r2, c2) = p, q
    if r1 == r2:
        return [(r1, c) for c in range(min(c1, c2) + 1, max(c1, c2))]
    return [(r, c1) for r in range(min(r1, r2) + 1, max(r1, r2))]




def _check(deadline: Deadline | None) -> None:
    if deadline is not None and deadline.expired():
        raise _OutOfTime


#: drawings of a layout that found no room for a single bridge before random_solution gives up
_REDRAWS = 100


def random_solution(rows: int, cols: int, rng: random.Random, density: float = 0.25,
                    cycles: float = 0.25, doubles: float = 0.35, maxbridges: int = DEFAULT_MAXBRIDGES,
                    max_len: int | None = None, allow_adjacent: bool = False,
                    deadline: Deadline | None = None, fill_frame: bool = True) -> tuple[Puzzle, Solution]:
    """A random connected construction looking like published puzzles.

    ``density``: share of cells that are islands; ``cycles``: extra links per
    island (0: a tree, as the no-loops variant needs); ``doubles``: share of links
    given a second bridge (up to MAXBRIDGES).  Islands are never next to each other
    (as in published puzzles and Tatham's) unless ``allow_adjacent``.  ``max_len``:
    the longest new bridge of the growth, by default half the board's side up to
    17x17 and 5 on larger boards (longer ones box the growth in well below
    ``density``: about 0.18 islands per cell and bridges 4 cells long at 60x60,
    where published puzzles have 0.2-0.35 and 2.3-3.1).  ``deadline``: the
    :class:`~hashikit.limits.Deadline` past which the drawing stops (``_OutOfTime``).
    ``fill_frame``: the outermost rows and columns of islands are moved out to the board's edges
    (:func:`stretch_to_frame`), so the first and last row and column each hold an island.
    """
    puzzle, solution = _random_board(rows, cols, rng, density, cycles, doubles, maxbridges, max_len, allow_adjacent,
                                     deadline).result(maxbridges)
    return stretch_to_frame(puzzle, solution) if fill_frame else (puzzle, solution)  # type: ignore[return-value]


def _random_board(rows: int, cols: int, rng: random.Random, density: float, cycles: float, doubles: float,
                  maxbridges: int, max_len: int | None, allow_adjacent: bool, deadline: Deadline | None) -> _Board:
    """:func:`random_solution`'s drawing, before its islands are moved out to the frame."""
    target = max(2, round(density * rows * cols))
    if max_len is None:
        max_len = max(3, max(rows, cols) // 2)
        if max_len > 8:
            max_len = 5
    for _ in range(_REDRAWS):  # a first island with no room for a bridge (small boards) is drawn again
        board = _Board(rows, cols)
        _grow(board, rng, target, 2, max_len, allow_adjacent, deadline)
        if board.edges:
            break
    else:
        raise ValueError(f"no bridge fits on a {rows}x{cols} board in {_REDRAWS} drawings")
    _add_cycles(board, rng, round(cycles * len(board.islands)), deadline)
    if maxbridges >= 2:
        for key in board.edges:
            if rng.random() < doubles:
                board.edges[key] = min(maxbridges, board.edges[key] + 1)
    return board


def _fills_frame(rows: int, cols: int, positions) -> bool:
    """An island (of ``positions``) in the first and the last row and column."""
    used_rows = {r for r, _c in positions}
    used_cols = {c for _r, c in positions}
    return {0, rows - 1} <= used_rows and {0, cols - 1} <= used_cols


def stretch_to_frame(puzzle: Puzzle, solution: Solution | None = None) -> tuple[Puzzle, Solution | None]:
    """The puzzle with its topmost row of islands moved up to the first row, its bottommost down
    to the last, its leftmost column to the first and its rightmost to the last (with the
    solution's bridges, which get longer).

    The puzzle stays the same puzzle: no island lies beyond an outermost line, so a moved island
    sees the same islands, and no link gains or loses a crossing (the cells the moved links
    take in addition hold nothing and no other link); the deductions, the grade, uniqueness and
    the solution are those of the puzzle before (the moves keep the order of the islands along
    every row and column).  Islands stay apart (the line a row or column leaves is empty).  A
    puzzle with ignored islands is left as it is."""
    rows = sorted({isl.row for isl in puzzle.islands})
    cols = sorted({isl.col for isl in puzzle.islands})
    if puzzle.ignored or not rows or (rows[0] == 0 and rows[-1] == puzzle.rows - 1 and cols[0] == 0
                                      and cols[-1] == puzzle.cols - 1):
        return puzzle, solution
    row: dict[int, int] = {rows[0]: 0, rows[-1]: puzzle.rows - 1} if len(rows) > 1 else {}
    col: dict[int, int] = {cols[0]: 0, cols[-1]: puzzle.cols - 1} if len(cols) > 1 else {}
    move = lambda r, c: (row.get(r, r), col.get(c, c))  # noqa: E731
    stretched = Puzzle(puzzle.rows, puzzle.cols, [(*move(isl.row, isl.col), isl.number) for isl in puzzle.islands],
                       puzzle.maxbridges, no_loops=puzzle.no_loops)
    if solution is None:
        return stretched, None
    return stretched, Solution({(move(*p), move(*q)): k for (p, q), k in solution.bridges.items()})  # type: ignore[arg-type]


def _run(board: _Board, p: Pos, d: tuple[int, int], most: int) -> list[Pos]:
    """Up to ``most`` empty cells from ``p`` along ``d`` (stops at the first occupied cell or the edge)."""
    out: list[Pos] = []
    r, c = p[0] + d[0], p[1] + d[1]
    cell, rows, cols = board.cell, board.rows, board.cols
    while len(out) < most and 0 <= r < rows and 0 <= c < cols and (r, c) not in cell:
        out.append((r, c))
        r, c = r + d[0], c + d[1]
    return out


def _grow(board: _Board, rng: random.Random, target: int, min_len: int, max_len: int,
          allow_adjacent: bool, deadline: Deadline | None) -> None:
    """Add islands, each joined by one new bridge (``min_len``..``max_len`` cells away) to an
    island that still has room, until ``target`` islands or none has room (linear time)."""
    if not board.islands:
        board.add_island((rng.randrange(board.rows), rng.randrange(board.cols)))
    growing = list(board.islands)
    dirs = list(_DIRS)
    tick = 0
    while len(board.islands) < target and growing:
        tick += 1
        if tick % 256 == 0:
            _check(deadline)
        j = rng.randrange(len(growing))
        src = growing[j]
        rng.shuffle(dirs)
        for d in dirs:
            run = _run(board, src, d, max_len)[min_len - 1:]
            choices = [q for q in run if allow_adjacent or not board.has_adjacent_island(q)]
            if choices:
                q = rng.choice(choices)
                board.add_island(q)
                board.add_edge(src, q)
                growing.append(q)
                break
        else:
            growing[j] = growing[-1]
            growing.pop()


def _add_cycles(board: _Board, rng: random.Random, count: int, deadline: Deadline | None) -> int:
    """Join up to ``count`` random pairs of islands that see each other over empty cells."""
    if count <= 0:
        return 0
    pairs = []
    for n, p in enumerate(board.islands):
        if n % 256 == 0:
            _check(deadline)
        for d in ((0, 1), (1, 0)):
            q = board.sight(p, d)
            if q is not None and (p, q) not in board.edges:
                pairs.append((p, q))
    rng.shuffle(pairs)
    added = 0
    for p, q in pairs:
        if added >= count:
            break
        if all(cell not in board.cell for cell in _between(p, q)):  # no bridge added across it since
            board.add_edge(p, q)
            added += 1
    return added


#: the cells of :func:`tatham_layout`'s flat board
_EMPTY, _ISLAND, _BRIDGE, _OUT = 0, 1, 2, 3


def _below(bits: Callable[[int], int], n: int) -> int:
    """``rng.randrange(n)`` for ``n >= 1`` from ``bits``, the rng's ``getrandbits``: the same draw as
    ``random.Random``'s own (``getrandbits(n.bit_length())`` until it is below ``n``), which
    :func:`tatham_layout` also writes out in its loop, without a call per draw."""
    k = n.bit_length()
    r = bits(k)
    while r >= n:
        r = bits(k)
    return r


def tatham_layout(rows: int, cols: int, rng: random.Random, islands_percent: int = 30, expansion: int = 10,
                  maxbridges: int = DEFAULT_MAXBRIDGES, no_loops: bool = False,
                  deadline: Deadline | None = None) -> tuple[Puzzle, Solution]:
    """A construction drawn the way Simon Tatham's *Bridges* draws one (facts of bridges.c).

    Islands are wanted on ``islands_percent`` of the cells (at least 3).  From a
    random island and direction, a new island goes at least two cells away and at
    most up to the edge, the cell before a bridge, or two cells before an island;
    with ``expansion`` percent chance it goes at that farthest cell (else at a
    random one in the range), and (loops allowed) with the same chance the island
    is joined to the island it sees instead.  A new island next to another one
    across the line is refused; each join gets 1..MAXBRIDGES bridges.  After 50
    refusals in a row the board is taken as it is; it is drawn again when it has
    one island or does not touch all four edges.
    """
    return _tatham_board(rows, cols, rng, islands_percent, expansion, maxbridges, no_loops, deadline).result(maxbridges)


def _tatham_board(rows: int, cols: int, rng: random.Random, islands_percent: int, expansion: int, maxbridges: int,
                  no_loops: bool, deadline: Deadline | None) -> _Board:
    """:func:`tatham_layout`'s drawing."""
    target = max(islands_percent * rows * cols // 100, 3)
    w = cols + 2
    blank = bytearray([_OUT]) * w + (bytearray([_OUT]) + bytearray(cols) + bytearray([_OUT])) * rows \
        + bytearray([_OUT]) * w
    while True:
        _check(deadline)
        islands, edges = _tatham_drawing(blank, rows, cols, rng.getrandbits, target, expansion, maxbridges,
                                         no_loops)
        if len(islands) > 1:
            pos = [(x // w - 1, x % w - 1) for x in islands]
            if _fills_frame(rows, cols, pos):
                board = _Board(rows, cols)
                board.islands = pos
                board.edges = {((p // w - 1, p % w - 1), (q // w - 1, q % w - 1)): k for (p, q), k in edges.items()}
                return board


def _tatham_drawing(blank: bytearray, rows: int, cols: int, bits: Callable[[int], int], target: int, expansion: int, maxbridges: int,
                    no_loops: bool) -> tuple[list[int], dict[tuple[int, int], int]]:
    """One drawing of :func:`tatham_layout` on the flat board ``blank`` (a border of _OUT cells:
    cell (r, c) at (r + 1) * (cols + 2) + c + 1): its islands and bridges as flat cells.  ``bits``:
    the rng's ``getrandbits``, each draw written out as in :func:`_below`."""
    w = cols + 2
    k_bridges, k_percent = maxbridges.bit_length(), (100).bit_length()
    grid = bytearray(blank)
    laid = bytes([_BRIDGE]) * max(rows, cols)  # bridge cells for the longest span, sliced to length
    start = (_below(bits, rows) + 1) * w + _below(bits, cols) + 1
    grid[start] = _ISLAND
    islands = [start]
    way = _ways(rows, cols)
    ways: list[tuple[int, tuple[int, ...], int, int]] = [way[start]]  # type: ignore[list-item]
    edges: dict[tuple[int, int], int] = {}

    bad = 0
    n, k_n = 1, 1
    while n < target and bad <= 50:
        j = bits(k_n)
        while j >= n:
            j = bits(k_n)
        src, dirs, m, k = ways[j]
        j = bits(k)
        while j >= m:
            j = bits(k)
        s = dirs[j]
        # one step of Tatham's drawing: an island added or two joined, else a refusal
        bad += 1
        first = src + s
        if grid[first] == _BRIDGE:
            continue  # a bridge already leaves the island this way
        x = first
        while not grid[x]:
            x += s
        count = bits(k_bridges)
        while count >= maxbridges:
            count = bits(k_bridges)
        count += 1
        if grid[x] == _ISLAND:
            if not no_loops:
                j = bits(k_percent)
                while j >= 100:
                    j = bits(k_percent)
                if j < expansion:
                    key = (src, x) if src < x else (x, src)
                    edges[key] = edges.get(key, 0) + count
                    grid[first:x:s] = laid[:(x - first) // s]
                    bad = 0
                    continue
            far = x - 2 * s
        else:
            far = x - s
        near = src + 2 * s
        span = (far - near) // s
        if span < 0:
            continue
        j = bits(k_percent)
        while j >= 100:
            j = bits(k_percent)
        if j < expansion:
            new = far
        else:
            m = span + 1
            k = m.bit_length()
            j = bits(k)
            while j >= m:
                j = bits(k)
            new = near + j * s
        side = 1 if s == w or s == -w else w
        if grid[new + side] == _ISLAND or grid[new - side] == _ISLAND:
            continue
        grid[new] = _ISLAND
        islands.append(new)
        ways.append(way[new])  # type: ignore[arg-type]
        n += 1
        k_n = n.bit_length()
        edges[(src, new) if src < new else (new, src)] = count  # (a new island: its first bridge)
        grid[first:new:s] = laid[:(new - first) // s]
        bad = 0
    return islands, edges


@lru_cache(maxsize=16)
def _ways(rows: int, cols: int) -> list[tuple[int, tuple[int, ...], int, int] | None]:
    """Per cell of :func:`_tatham_drawing`'s flat board: the cell, its directions that stay on the
    board (the border never changes), how many, and the bits a draw among them takes."""
    w = cols + 2
    out: list = [None] * (w * (rows + 2))
    for r in range(rows):
        for c in range(cols):
            x = (r + 1) * w + c + 1
            dirs = tuple(s for s, ok in ((1, c + 1 < cols), (w, r + 1 < rows), (-1, c > 0), (-w, r > 0)) if ok)
            out[x] = (x, dirs, len(dirs), len(dirs).bit_length())
    return out
