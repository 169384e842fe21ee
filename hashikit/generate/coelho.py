"""The benchmark generator of Coelho, Laporte, Lindbeck & Vidal (2019), in near-linear time.

The paper's construction (arXiv 1905.00973), as ``hashikit.generate.coelho`` made it
(the published set is calibrated against that one, see benchmarks/coelho_calibration.py):

1. *growth*: one island at a random cell; then, repeatedly, a random island and
   direction (drawn again while that direction is blocked; after 50 blocked draws in a
   row, drawn among the open ones only), and a new island at a random free cell along
   that line, joined by one bridge that crosses nothing;
2. *cycles*: ``floor((100 - alpha)% of (n - 1))`` times, one more bridge on a random
   candidate: a pair of islands that see each other across empty cells and are not
   joined, or a joined pair with fewer than MAXBRIDGES bridges;
3. *doubling*: ``round(beta% of n)`` random single links get a second bridge
   (``exact=False``: each with probability beta%);
4. each island's number is its bridge count.

The old code rebuilt, at every step, the list it drew from (every island's free
lines in the growth, every pair of islands that see each other in the cycle step):
quadratic, 142 s for 5,000 islands.  Here those lists are kept as 0/1 *slots* in a
Fenwick tree, in the very order the old lists had, and updated locally when a cell
fills (only the islands next to or in line with that cell change); every draw is the
same call on the same ``random.Random`` with the same bound.  So a seed gives exactly
the puzzle and solution the old generator gave (tests/test_coelho_generator.py checks
this against a plain transcription of it), and the calibration is unchanged.

Vocabulary: a *cell key* is ``row * cols + col``; a cell is *occupied* by an island
or a bridge; the *run* of an island in a direction is the free cells from it up to
the first occupied cell or the board's edge; a *slot* is one entry of a drawn list.
"""

from __future__ import annotations

import operator
import random
from bisect import bisect_left, bisect_right, insort

from ..limits import MODEL
from ..model import DEFAULT_MAXBRIDGES, Island, Puzzle, Solution

Pos = tuple[int, int]
#: the growth's directions, in the old generator's order (a slot is 4 * island + direction)
_DIRS = ((0, 1), (1, 0), (0, -1), (-1, 0))
_OPPOSITE = (2, 3, 0, 1)
#: blocked draws in a row before the growth draws among the open directions only
_MAX_MISSES = 50
#: growths tried when one boxes itself in before n islands
_GROWTHS = 20
_BRIDGE = -1  # the value of a bridge cell in ``_Layout.occ`` (islands hold their index)


class _Slots:
    """0/1 slots in a Fenwick tree: set and clear one, count them, find the k-th set one.

    The capacity doubles when a slot past it is set, so a huge board with few islands
    costs no more than a small one.
    """

    __slots__ = ("flags", "tree", "size", "total")

    def __init__(self, capacity: int = 64):
        self.size = 1
        while self.size < capacity:
            self.size *= 2
        self.flags = bytearray(self.size)
        self.tree = [0] * (self.size + 1)
        self.total = 0

    def _grow(self, need: int) -> None:
        size = self.size
        while size <= need:
            size *= 2
        flags = self.flags + bytearray(size - self.size)
        tree = [0] * (size + 1)
        for i, f in enumerate(flags):  # linear Fenwick build
            if f:
                tree[i + 1] += 1
        for i in range(1, size + 1):
            j = i + (i & -i)
            if j <= size:
                tree[j] += tree[i]
        self.size, self.flags, self.tree = size, flags, tree

    def __getitem__(self, i: int) -> int:
        return self.flags[i] if i < self.size else 0

    def set(self, i: int, on: bool) -> None:
        if i >= self.size:
            if not on:
                return
            self._grow(i)
        if self.flags[i] == on:
            return
        self.flags[i] = on
        delta = 1 if on else -1
        self.total += delta
        tree, size = self.tree, self.size
        i += 1
        while i <= size:
            tree[i] += delta
            i += i & -i

    def kth(self, k: int) -> int:
        """The index of the k-th set slot, counting from 0 (``0 <= k < total``)."""
        tree = self.tree
        pos, step = 0, self.size
        while step:
            nxt = pos + step
            if nxt <= self.size and tree[nxt] <= k:
                pos = nxt
                k -= tree[nxt]
            step >>= 1
        return pos


class _Layout:
    """A construction in progress: islands, bridges, the occupied cells of each row and column."""

    def __init__(self, rows: int, cols: int, adjacent: bool):
        self.rows, self.cols, self.adjacent = rows, cols, adjacent
        self.occ: dict[int, int] = {}  # cell key -> island index, or _BRIDGE
        self.in_row: dict[int, list[int]] = {}  # row -> sorted occupied columns
        self.in_col: dict[int, list[int]] = {}  # column -> sorted occupied rows
        self.islands: list[Pos] = []
        self.edges: dict[tuple[Pos, Pos], int] = {}  # (p, q) with p < q -> count, in order of creation
        self.near: set[int] = set()  # with adjacent=False: cells next to an island
        self.open = _Slots()  # the growth's (island, direction) slots whose run has a choice

    # ------------------------------------------------------------------ cells
    def _occupy(self, r: int, c: int, value: int) -> None:
        self.occ[r * self.cols + c] = value
        insort(self.in_row.setdefault(r, []), c)
        insort(self.in_col.setdefault(c, []), r)

    def _nearest(self, r: int, c: int, d: int) -> int | None:
        """The key of the first occupied cell after ``(r, c)`` along direction ``d``, if any."""
        if d == 0 or d == 2:
            line = self.in_row.get(r, ())
            if d == 0:
                i = bisect_right(line, c)
                return r * self.cols + line[i] if i < len(line) else None
            i = bisect_left(line, c) - 1
            return r * self.cols + line[i] if i >= 0 else None
        line = self.in_col.get(c, ())
        if d == 1:
            i = bisect_right(line, r)
            return line[i] * self.cols + c if i < len(line) else None
        i = bisect_left(line, r) - 1
        return line[i] * self.cols + c if i >= 0 else None

    def _run_length(self, r: int, c: int, d: int) -> int:
        """Free cells from ``(r, c)`` along ``d`` before an occupied cell or the edge."""
        end = self._nearest(r, c, d)
        if d == 0:
            return (end - r * self.cols if end is not None else self.cols) - c - 1
        if d == 2:
            return c - (end - r * self.cols if end is not None else -1) - 1
        if d == 1:
            return (end // self.cols if end is not None else self.rows) - r - 1
        return r - (end // self.cols if end is not None else -1) - 1

    def _choices(self, i: int, d: int) -> list[int] | int:
        """The run's cells a new island may take, as steps from island ``i``.

        With ``adjacent`` every run cell (returned as the run's length: steps 1..L); without,
        the cells with no island next to them, nearest first (as the old generator listed them).
        """
        r, c = self.islands[i]
        length = self._run_length(r, c, d)
        if self.adjacent:
            return length
        dr, dc = _DIRS[d]
        near, cols = self.near, self.cols
        return [k for k in range(1, length + 1) if (r + k * dr) * cols + c + k * dc not in near]

    def _has_choice(self, i: int, d: int) -> bool:
        r, c = self.islands[i]
        dr, dc = _DIRS[d]
        rr, cc = r + dr, c + dc
        if not (0 <= rr < self.rows and 0 <= cc < self.cols) or rr * self.cols + cc in self.occ:
            return False
        return self.adjacent or bool(self._choices(i, d))

    # ------------------------------------------------------------------ growth
    def _add_island(self, r: int, c: int) -> int:
        i = len(self.islands)
        self.islands.append((r, c))
        self._occupy(r, c, i)
        return i

    def _touched_slots(self, cells: list[Pos]) -> set[int]:
        """The growth slots whose choices may have changed when ``cells`` changed."""
        out = set()
        occ = self.occ
        for r, c in cells:
            for e in range(4):
                key = self._nearest(r, c, e)
                if key is not None:
                    j = occ[key]
                    if j >= 0:
                        out.add(4 * j + _OPPOSITE[e])
        return out

    def _settle(self, i: int, filled: list[Pos]) -> None:
        """Update the open slots after island ``i`` appeared and ``filled`` cells (it and its bridge) filled.

        With ``adjacent`` only islands next to a filled cell lose a slot; without, every island whose
        run passes a filled cell or a cell that is now next to an island is looked at again.
        """
        slots = self.open
        if self.adjacent:  # a slot is open while the cell next to its island is free
            occ, rows, cols = self.occ, self.rows, self.cols
            for r, c in filled:
                for e, (dr, dc) in enumerate(_DIRS):
                    rr, cc = r + dr, c + dc
                    if 0 <= rr < rows and 0 <= cc < cols:
                        j = occ.get(rr * cols + cc, _BRIDGE)
                        if j >= 0:
                            slots.set(4 * j + _OPPOSITE[e], False)
            for d in range(4):
                slots.set(4 * i + d, self._has_choice(i, d))
            return
        r, c = self.islands[i]
        marked = []
        for dr, dc in _DIRS:
            rr, cc = r + dr, c + dc
            if 0 <= rr < self.rows and 0 <= cc < self.cols:
                self.near.add(rr * self.cols + cc)
                marked.append((rr, cc))
        touched = self._touched_slots(filled + marked)
        touched.update(4 * i + d for d in range(4))
        for s in touched:
            slots.set(s, self._has_choice(s // 4, s % 4))

    def grow(self, rng: random.Random, target: int) -> None:
        """Add islands, each joined by one bridge to an existing one, until ``target`` (or boxed in)."""
        if not self.islands:
            i = self._add_island(rng.randrange(self.rows), rng.randrange(self.cols))
            self._settle(i, [self.islands[i]])
        slots = self.open
        misses = 0
        while len(self.islands) < target:
            if misses < _MAX_MISSES:
                i = rng.randrange(len(self.islands))
                d = rng.randrange(4)
                if not slots[4 * i + d]:
                    misses += 1
                    continue
            else:  # the board is filling up: draw among the open directions only
                if not slots.total:
                    return
                i, d = divmod(slots.kth(rng.randrange(slots.total)), 4)
            misses = 0
            choices = self._choices(i, d)
            if self.adjacent:
                step = rng.randrange(choices) + 1
            else:
                step = choices[rng.randrange(len(choices))]
            self._join_new(i, d, step)

    def _join_new(self, i: int, d: int, step: int) -> None:
        """A new island ``step`` cells from island ``i`` along ``d``, joined to it by one bridge."""
        r, c = self.islands[i]
        dr, dc = _DIRS[d]
        q = self._add_island(r + step * dr, c + step * dc)
        bridge = [(r + k * dr, c + k * dc) for k in range(1, step)]
        for cr, cc in bridge:
            self._occupy(cr, cc, _BRIDGE)
        p, qpos = (r, c), self.islands[q]
        key = (p, qpos) if p < qpos else (qpos, p)
        self.edges[key] = self.edges.get(key, 0) + 1
        self._settle(q, [qpos] + bridge)

    # ------------------------------------------------------------------ cycles
    def add_cycles(self, rng: random.Random, count: int, maxbridges: int) -> int:
        """``count`` times one more bridge on a random candidate (the old list's order:
        per island its pair to the right and below, then the joined pairs by creation)."""
        occ, cols = self.occ, self.cols
        seen = _Slots(2 * len(self.islands))  # slot 2 * island + (0 right, 1 below)
        for i, (r, c) in enumerate(self.islands):
            for d in (0, 1):
                key = self._nearest(r, c, d)
                if key is not None and occ[key] >= 0:
                    q = divmod(key, cols)
                    seen.set(2 * i + d, ((r, c), q) not in self.edges)
        keys = list(self.edges)
        joined = _Slots(len(keys) + count)
        for e, key in enumerate(keys):
            joined.set(e, self.edges[key] < maxbridges)
        added = 0
        while added < count:
            total = seen.total + joined.total
            if not total:
                break
            k = rng.randrange(total)
            if k < seen.total:
                s = seen.kth(k)
                i, d = divmod(s, 2)
                r, c = self.islands[i]
                qr, qc = divmod(self._nearest(r, c, d), cols)
                seen.set(s, False)
                key = ((r, c), (qr, qc))
                joined.set(len(keys), 1 < maxbridges)
                keys.append(key)
                self.edges[key] = 1
                self._block_sights(seen, (r, c), (qr, qc), d)
            else:
                e = joined.kth(k - seen.total)
                key = keys[e]
                self.edges[key] += 1
                if self.edges[key] >= maxbridges:
                    joined.set(e, False)
            added += 1
        return added

    def _block_sights(self, seen: _Slots, p: Pos, q: Pos, d: int) -> None:
        """Fill the cells of a new bridge ``p - q``; the sights across them are gone."""
        across = 1 - d  # a bridge along a row blocks the sights down its columns, and back
        look_back = 3 if d == 0 else 2  # from a bridge cell: up (for a row), left (for a column)
        for r, c in _between(p, q):
            self._occupy(r, c, _BRIDGE)
            key = self._nearest(r, c, look_back)
            if key is not None and self.occ[key] >= 0:
                seen.set(2 * self.occ[key] + across, False)

    # ------------------------------------------------------------------ result
    def result(self, maxbridges: int) -> tuple[Puzzle, Solution]:
        degree = {p: 0 for p in self.islands}
        for (p, q), k in self.edges.items():
            degree[p] += k
            degree[q] += k
        islands = [Island(r, c, degree[(r, c)]) for r, c in self.islands]
        return Puzzle(self.rows, self.cols, islands, maxbridges), Solution(self.edges)


def _between(p: Pos, q: Pos) -> list[Pos]:
    (r1, c1), (r2, c2) = p, q
    if r1 == r2:
        return [(r1, c) for c in range(min(c1, c2) + 1, max(c1, c2))]
    return [(r, c1) for r in range(min(r1, r2) + 1, max(r1, r2))]


def _whole(name: str, value) -> int:
    if isinstance(value, bool):
        raise ValueError(f"{name} must be a whole number, got {value!r}")
    try:
        return operator.index(value)
    except TypeError:
        raise ValueError(f"{name} must be a whole number, got {value!r}") from None


def _validate_arguments(n, rows, cols, alpha, beta, maxbridges) -> tuple[int, int, int, int]:
    """The arguments as whole numbers, or a ValueError that says which one is wrong."""
    n, rows, cols, maxbridges = (_whole(k, v) for k, v in
                                 (("n", n), ("rows", rows), ("cols", cols), ("maxbridges", maxbridges)))
    if n < 1:
        raise ValueError("n must be at least 1")
    refused = MODEL.problem(rows, cols, maxbridges=maxbridges)
    if refused:
        raise ValueError(refused)
    if min(n, rows * cols) < 2:
        raise ValueError(f"a puzzle needs at least 2 islands (n={n} on a {rows}x{cols} board)")
    try:
        ok = 0 <= alpha <= 100 and 0 <= beta <= 100
    except TypeError:
        ok = False
    if not ok:
        raise ValueError(f"alpha and beta are percentages from 0 to 100, got {alpha!r} and {beta!r}")
    return n, rows, cols, maxbridges


def coelho_with_solution(n: int, rows: int, cols: int, alpha: float, beta: float, seed=None,
                         maxbridges: int = DEFAULT_MAXBRIDGES, adjacent: bool = True,
                         exact: bool = True) -> tuple[Puzzle, Solution]:
    """The paper's generator; returns the puzzle and the solution it was built from.

    Steps 1-4 of the module docstring.  ``alpha``: a larger alpha means fewer cycle
    bridges (the published files: about 1.75, 1.5 and 1.25 bridges per island for
    alpha 25, 50, 75 with beta 0).  ``beta``: with ``exact`` (the published files)
    exactly ``round(beta% of n)`` random links below MAXBRIDGES get one more bridge;
    with ``exact=False`` each does with probability beta%.  ``adjacent=False`` keeps
    new islands off cells next to an existing island.

    The same ``seed`` gives the same puzzle (and the same one as the old
    ``hashikit.generate.coelho_with_solution``).  A growth that boxes itself in
    before ``n`` islands is started again (up to 20 times); on a board too small for
    ``n`` the puzzle keeps the largest growth and has fewer islands.
    """
    n, rows, cols, maxbridges = _validate_arguments(n, rows, cols, alpha, beta, maxbridges)
    rng = random.Random(seed)
    target = min(n, rows * cols)
    layout = None
    for _ in range(_GROWTHS):
        attempt = _Layout(rows, cols, adjacent)
        attempt.grow(rng, target)
        if layout is None or len(attempt.islands) > len(layout.islands):
            layout = attempt
        if len(layout.islands) >= n:
            break
    if len(layout.islands) < 2:  # adjacent=False on a board like 2x2: no second island fits
        raise ValueError(f"no room for a second island on a {rows}x{cols} board "
                         f"(adjacent={adjacent}): a puzzle needs at least 2 islands")
    layout.add_cycles(rng, int((100 - alpha) * (len(layout.islands) - 1) / 100), maxbridges)
    if maxbridges >= 2:
        edges = layout.edges
        keys = [key for key, k in edges.items() if k < maxbridges]
        if exact:
            for key in rng.sample(keys, min(len(keys), round(beta * len(layout.islands) / 100))):
                edges[key] += 1
        else:
            for key in keys:
                if rng.random() * 100 < beta:
                    edges[key] += 1
    return layout.result(maxbridges)


def coelho(n: int, rows: int, cols: int, alpha: float, beta: float, seed=None,
           maxbridges: int = DEFAULT_MAXBRIDGES, **options) -> Puzzle:
    """The puzzle of :func:`coelho_with_solution`."""
    return coelho_with_solution(n, rows, cols, alpha, beta, seed, maxbridges, **options)[0]
