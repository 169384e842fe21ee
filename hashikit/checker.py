"""The rule checker: names every rule a set of bridges breaks, and where.

It is deliberately independent of the solvers and of the model's derived
structure (candidate links, crossing pairs): it reads only the islands, their
numbers, MAXBRIDGES, the no-loops flag and the bridges, and re-derives the geometry
itself, so a bug in the shared link or crossing code cannot hide a wrong answer.
Its work is bounded by the number of bridges and islands, whatever coordinates a
(possibly hostile) solution names.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from operator import itemgetter

from .model import Pos, Puzzle, Solution, describe_cell
from .records import Fresh, Record

RULES = {
    "not-straight": "a bridge must run straight along one row or column between two cells",
    "no-island": "both ends of a bridge must be islands (on the board)",
    "island-between": "a bridge may not pass over an island",
    "bad-count": "a bridge count must be a whole number of at least 1",
    "too-many-bridges": "at most MAXBRIDGES bridges may join one pair of islands",
    "crossing": "bridges may not cross",
    "island-count": "each island needs exactly as many bridges as its number",
    "disconnected": "all islands must form one connected group",
    "loop": "in the no-loops variant the bridges may form no cycle",
}


class Violation(Record, frozen=True):
    rule: str
    message: str
    cells: tuple[Pos, ...] = ()

    def __str__(self) -> str:
        return f"[{self.rule}] {self.message}"


class CheckReport(Record):
    violations: list[Violation]
    components: list[list[Pos]] = Fresh(list)

    @property
    def ok(self) -> bool:
        return not self.violations

    def __bool__(self) -> bool:
        return self.ok

    def rules(self) -> set[str]:
        return {v.rule for v in self.violations}

    def __str__(self) -> str:
        if self.ok:
            return "valid: every rule holds"
        lines = [f"invalid: {len(self.violations)} violation{'s' if len(self.violations) != 1 else ''}"]
        lines.extend(f"  {v}" for v in self.violations)
        return "\n".join(lines)


def _cell(v) -> str:
    """A coordinate for a message; huge ones (which str() may even refuse) abbreviated."""
    if isinstance(v, int) and not isinstance(v, bool) and abs(v) < 10 ** 12:
        return str(v + 1)
    return "(a huge number)" if isinstance(v, int) else repr(type(v).__name__)


def _where(pos) -> str:
    try:
        r, c = pos
    except (TypeError, ValueError):
        return "a malformed cell"
    if all(isinstance(v, int) and not isinstance(v, bool) and abs(v) < 10 ** 12 for v in (r, c)):
        return describe_cell(r, c)
    return f"row {_cell(r)}, column {_cell(c)}"


def _bridge_name(p: Pos, q: Pos) -> str:
    return f"the bridge from {_where(p)} to {_where(q)}"


def _is_cell(pos, puzzle: Puzzle) -> bool:
    """A (row, col) pair of ints on the board: the only ends whose cells are ever looked at."""
    if type(pos) is not tuple or len(pos) != 2:
        return False
    r, c = pos
    if not (type(r) is int and type(c) is int):  # the common case first; then int subclasses but bool
        if not (isinstance(r, int) and isinstance(c, int)) or isinstance(r, bool) or isinstance(c, bool):
            return False
    return 0 <= r < puzzle.rows and 0 <= c < puzzle.cols


class _Lines:
    """The islands of each row and each column, sorted, to find one between two cells by bisection
    (never by walking the cells: a bridge may be 10,000 cells long)."""

    def __init__(self, positions):
        self.rows: dict[int, list[int]] = {}
        self.cols: dict[int, list[int]] = {}
        for r, c in positions:
            self.rows.setdefault(r, []).append(c)
            self.cols.setdefault(c, []).append(r)
        for line in (*self.rows.values(), *self.cols.values()):
            line.sort()

    def first_between(self, p: Pos, q: Pos) -> Pos | None:
        (r1, c1), (r2, c2) = sorted((p, q))
        if r1 == r2:
            cols = self.rows.get(r1, [])
            i = bisect_right(cols, c1)
            return (r1, cols[i]) if i < len(cols) and cols[i] < c2 else None
        rows = self.cols.get(c1, [])
        i = bisect_right(rows, r1)
        return (rows[i], c1) if i < len(rows) and rows[i] < r2 else None


def check(puzzle: Puzzle, solution: Solution) -> CheckReport:
    """Check ``solution`` against every rule of ``puzzle``; see ``RULES`` for their names.

    The work is bounded by the bridges and the islands, not by the coordinates they name:
    an end off the board is reported without looking at the cells up to it.
    """
    islands = puzzle.islands
    numbers = dict(zip(zip(map(itemgetter(0), islands), map(itemgetter(1), islands)), map(itemgetter(2), islands)))
    if _valid_fast(puzzle, numbers, solution.bridges):
        return CheckReport([], [sorted(numbers)] if numbers else [])
    return _check_full(puzzle, solution, numbers)


def _check_full(puzzle: Puzzle, solution: Solution, numbers: dict[Pos, int]) -> CheckReport:
    """Every rule, each broken one named with its cells (``check`` without the fast pass)."""
    ignored = {isl.pos for isl in puzzle.ignored}
    lines = _Lines(numbers)
    violations: list[Violation] = []
    degree = dict.fromkeys(numbers, 0)
    good: list[tuple[Pos, Pos, int]] = []  # bridges whose geometry is sound

    for (p, q), count in solution.bridges.items():
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            violations.append(Violation("bad-count", f"{_bridge_name(p, q)} has count {_count(count)}", (p, q)))
            continue
        if count > puzzle.maxbridges:
            violations.append(Violation(
                "too-many-bridges", f"{_bridge_name(p, q)} has {_count(count)} bridges; MAXBRIDGES is {puzzle.maxbridges}",
                (p, q)))
        if not (_is_cell(p, puzzle) and _is_cell(q, puzzle)):
            for end in (e for e in (p, q) if not _is_cell(e, puzzle)):
                violations.append(Violation(
                    "no-island", f"{_bridge_name(p, q)}: {_where(end)} is outside the {puzzle.rows}x{puzzle.cols} board",
                    (end,)))
            continue
        if p == q or (p[0] != q[0] and p[1] != q[1]):
            violations.append(Violation("not-straight", f"{_bridge_name(p, q)} is not along one row or column", (p, q)))
            continue
        ends_ok = True
        for end in (p, q):
            if end not in numbers:
                what = "an ignored island" if end in ignored else "not an island"
                violations.append(Violation("no-island", f"{_bridge_name(p, q)}: {describe_cell(*end)} is {what}", (end,)))
                ends_ok = False
        blocker = lines.first_between(p, q)
        if blocker is not None:
            violations.append(Violation(
                "island-between", f"{_bridge_name(p, q)} passes over the island at {describe_cell(*blocker)}",
                (p, q, blocker)))
            ends_ok = False
        if ends_ok:
            degree[p] += count
            degree[q] += count
            good.append((p, q, count))

    violations.extend(_crossings(good))

    for pos, number in numbers.items():
        if degree[pos] != number:
            violations.append(Violation(
                "island-count",
                f"island {number} at {describe_cell(*pos)} has {degree[pos]} bridge{'s' if degree[pos] != 1 else ''}",
                (pos,)))

    components = _components(list(numbers), good)
    if len(components) > 1:
        sizes = ", ".join(str(len(c)) for c in components)
        desc = "; ".join(
            f"{{{', '.join(describe_cell(*p) for p in comp[:3])}{', ...' if len(comp) > 3 else ''}}}"
            for comp in components[:4])
        violations.append(Violation(
            "disconnected",
            f"the islands form {len(components)} separate groups (sizes {sizes}): {desc}"
            + (" ..." if len(components) > 4 else ""),
            tuple(comp[0] for comp in components)))
    if puzzle.no_loops:
        violations.extend(_loops(good))
    return CheckReport(violations, components)


def _valid_fast(puzzle: Puzzle, numbers: dict[Pos, int], bridges: dict) -> bool:
    """True only if every rule holds, decided on integer arrays (a flat board of the islands and
    the across bridges' cells, the islands' counts); False whenever anything is unusual or wrong,
    for :func:`check`'s full pass to name.  A board of more cells than a few per bridge and island
    goes there too, so the work stays bounded by the bridges and islands."""
    rows, cols, top = puzzle.rows, puzzle.cols, puzzle.maxbridges
    n = len(numbers)
    if rows * cols > 8 * (len(bridges) + n) + 256:
        return False
    where = [-1] * (rows * cols)  # the island on each cell (its index), -1 for none
    grid = bytearray(rows * cols)
    across = bytes([2]) * cols  # an across bridge's cells, sliced to its length
    for i, (r, c) in enumerate(numbers):
        where[r * cols + c] = i
        grid[r * cols + c] = 1
    degree = [0] * n
    ends: list[tuple[int, int]] = []
    down: list[tuple[int, int]] = []
    for key, count in bridges.items():
        if type(count) is not int or not 1 <= count <= top or type(key) is not tuple or len(key) != 2:
            return False
        p, q = key
        if type(p) is not tuple or type(q) is not tuple or len(p) != 2 or len(q) != 2:
            return False
        r1, c1 = p
        r2, c2 = q
        if type(r1) is not int or type(c1) is not int or type(r2) is not int or type(c2) is not int:
            return False
        if not (0 <= r1 < rows and 0 <= c1 < cols and 0 <= r2 < rows and 0 <= c2 < cols):
            return False
        x, y = r1 * cols + c1, r2 * cols + c2
        i, j = where[x], where[y]
        if i < 0 or j < 0 or i == j:
            return False
        if x > y:
            x, y = y, x
        if r1 == r2:
            if 1 in grid[x + 1:y]:
                return False  # an island between
            grid[x + 1:y] = across[:y - x - 1]
        elif c1 == c2:
            down.append((x + cols, y))
        else:
            return False
        degree[i] += count
        degree[j] += count
        ends.append((i, j))
    for (x, y) in down:
        if any(grid[x:y:cols]):
            return False  # an island between, or a bridge across
    if degree != list(numbers.values()):
        return False
    if puzzle.no_loops and len(ends) != n - 1:
        return False
    parent = list(range(n))
    groups = n
    for i, j in ends:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        while parent[j] != j:
            parent[j] = parent[parent[j]]
            j = parent[j]
        if i != j:
            parent[i] = j
            groups -= 1
    return groups <= 1


def _count(count) -> str:
    if isinstance(count, int) and not isinstance(count, bool) and abs(count) >= 10 ** 12:
        return "(a huge number)"
    return repr(count)


def _crossings(bridges: list[tuple[Pos, Pos, int]]) -> list[Violation]:
    """Crossing bridges: for each vertical bridge, the horizontal ones in the rows it spans that
    cover its column, found by bisection over each row's sorted, non-overlapping bridges (sound
    bridges join neighbouring islands, so two in one row never overlap)."""
    by_row: dict[int, list[tuple[int, int, Pos, Pos]]] = {}
    for p, q, _ in bridges:
        if p[0] == q[0]:
            by_row.setdefault(p[0], []).append((min(p[1], q[1]), max(p[1], q[1]), p, q))
    for spans in by_row.values():
        spans.sort()
    starts = {r: [s[0] for s in spans] for r, spans in by_row.items()}
    rows = sorted(by_row)
    out = []
    for p, q, _ in bridges:
        if p[1] != q[1] or p[0] == q[0]:
            continue
        c, top, bottom = p[1], min(p[0], q[0]), max(p[0], q[0])
        for r in rows[bisect_right(rows, top):bisect_left(rows, bottom)]:
            i = bisect_left(starts[r], c) - 1
            if i >= 0:
                lo, hi, hp, hq = by_row[r][i]
                if lo < c < hi:
                    out.append(Violation(
                        "crossing", f"{_bridge_name(hp, hq)} crosses {_bridge_name(p, q)} at {describe_cell(r, c)}",
                        (hp, hq, p, q)))
    return out


def _loops(bridges: list[tuple[Pos, Pos, int]]) -> list[Violation]:
    """The no-loops rule: the first cycle the bridges close (each pair counted once), with its cells."""
    parent: dict[Pos, Pos] = {}
    tree: dict[Pos, list[Pos]] = {}
    closing = []
    for p, q, _ in bridges:
        rp, rq = _root(parent, p), _root(parent, q)
        if rp == rq:
            closing.append((p, q))
            continue
        parent[rp] = rq
        tree.setdefault(p, []).append(q)
        tree.setdefault(q, []).append(p)
    if not closing:
        return []
    p, q = closing[0]
    cycle = _path(tree, p, q)
    shown = ", ".join(describe_cell(*c) for c in cycle[:6]) + (", ..." if len(cycle) > 6 else "")
    more = f" ({len(closing)} independent loops in all)" if len(closing) > 1 else ""
    return [Violation("loop", f"the bridges form a loop through {len(cycle)} islands: {shown}{more}",
                      tuple(cycle))]


def _root(parent: dict[Pos, Pos], x: Pos) -> Pos:
    """The representative of ``x`` in the union-find ``parent`` (a new cell is its own)."""
    parent.setdefault(x, x)
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


def _path(tree: dict[Pos, list[Pos]], start: Pos, goal: Pos) -> list[Pos]:
    """The islands on the tree path from ``start`` to ``goal`` (breadth-first)."""
    came = {start: start}
    queue = [start]
    for node in queue:
        if node == goal:
            break
        for nxt in tree.get(node, ()):
            if nxt not in came:
                came[nxt] = node
                queue.append(nxt)
    path = [goal]
    while path[-1] != start:
        path.append(came[path[-1]])
    return path[::-1]


def _components(nodes: list[Pos], bridges: list[tuple[Pos, Pos, int]]) -> list[list[Pos]]:
    parent = {n: n for n in nodes}
    for p, q, _ in bridges:
        rp, rq = _root(parent, p), _root(parent, q)
        if rp != rq:
            parent[rp] = rq
    groups: dict[Pos, list[Pos]] = {}
    for n in nodes:
        groups.setdefault(_root(parent, n), []).append(n)
    return sorted((sorted(g) for g in groups.values()), key=lambda g: (-len(g), g))
