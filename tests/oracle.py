"""A brute-force Hashi enumerator for the tests, independent of hashikit's model and engines.

It works on a plain grid (a list of rows of ints, 0 = empty), derives the links and the
crossings itself, and walks every bridge-count assignment with only the simplest pruning
(an island never over its number, an island that can no longer reach its number). Small boards
only (about 6x6): it is exponential on purpose, so that nothing clever can be wrong in it.
"""

from __future__ import annotations

import random


def islands_of(grid) -> list[tuple[int, int, int]]:
    return [(r, c, v) for r, row in enumerate(grid) for c, v in enumerate(row) if v]


def links_of(grid) -> list[tuple[tuple[int, int], tuple[int, int], list[tuple[int, int]]]]:
    """Each link: (end a, end b, the cells strictly between them)."""
    rows, cols = len(grid), len(grid[0])
    out = []
    for r in range(rows):
        for c in range(cols):
            if not grid[r][c]:
                continue
            for dr, dc in ((0, 1), (1, 0)):
                rr, cc, between = r + dr, c + dc, []
                while 0 <= rr < rows and 0 <= cc < cols and not grid[rr][cc]:
                    between.append((rr, cc))
                    rr, cc = rr + dr, cc + dc
                if 0 <= rr < rows and 0 <= cc < cols:
                    out.append(((r, c), (rr, cc), between))
    return out


def count_solutions(grid, maxbridges: int = 2, no_loops: bool = False, cap: int = 1000) -> tuple[int, list]:
    """(number of solutions, up to ``cap``; the solutions found as {(a, b): count})."""
    isl = islands_of(grid)
    need = {(r, c): v for r, c, v in isl}
    links = links_of(grid)
    n = len(links)
    crosses = [set() for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            if set(links[i][2]) & set(links[j][2]):
                crosses[i].add(j)
                crosses[j].add(i)
    # remaining capacity at an island counted from link index k on
    rest = [dict() for _ in range(n + 1)]
    for k in range(n - 1, -1, -1):
        rest[k] = dict(rest[k + 1])
        for end in links[k][:2]:
            rest[k][end] = rest[k].get(end, 0) + maxbridges
    have = {p: 0 for p in need}
    counts = [0] * n
    found: list = []

    def connected_and_ok() -> bool:
        parent = {p: p for p in need}

        def find(p):
            while parent[p] != p:
                parent[p] = parent[parent[p]]
                p = parent[p]
            return p

        edges = 0
        for k, c in enumerate(counts):
            if c:
                a, b = find(links[k][0]), find(links[k][1])
                if a == b and no_loops:
                    return False
                parent[a] = b
                edges += 1
        return len({find(p) for p in need}) == 1

    def walk(k: int) -> None:
        if len(found) >= cap:
            return
        if k == n:
            if all(have[p] == need[p] for p in need) and connected_and_ok():
                found.append({(links[j][0], links[j][1]): c for j, c in enumerate(counts) if c})
            return
        a, b = links[k][0], links[k][1]
        for c in range(maxbridges + 1):
            if c and any(counts[j] for j in crosses[k] if j < k):
                break
            if have[a] + c > need[a] or have[b] + c > need[b]:
                break
            have[a] += c
            have[b] += c
            counts[k] = c
            ok = all(have[p] + rest[k + 1].get(p, 0) >= need[p] for p in (a, b))
            if ok:
                walk(k + 1)
            have[a] -= c
            have[b] -= c
            counts[k] = 0

    if len(need) == 1:
        return (1, [{}]) if next(iter(need.values())) == 0 else (0, [])
    walk(0)
    return len(found), found


def random_board(rng: random.Random, max_side: int = 6, maxbridges: int | None = None, trees: float = 0.0):
    """A random small board (grid, maxbridges): islands may touch; about half are built from a
    random set of bridges (so often solvable), the rest have random numbers (mostly infeasible).
    ``trees``: the share of built boards whose bridges form a forest (no extra links that close a
    cycle), for the no-loops variant; 0 keeps the boards of earlier runs."""
    rows, cols = rng.randint(2, max_side), rng.randint(2, max_side)
    mb = maxbridges or rng.choice((1, 2, 2, 3))
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    k = rng.randint(2, max(2, min(len(cells), int(len(cells) * rng.uniform(0.3, 0.95)))))
    chosen = rng.sample(cells, k)
    grid = [[0] * cols for _ in range(rows)]
    if rng.random() < 0.15:
        for r, c in chosen:
            grid[r][c] = rng.randint(1, 4 * mb)
        return grid, mb
    for r, c in chosen:
        grid[r][c] = 1  # placeholder: any island
    links = links_of(grid)
    rng.shuffle(links)
    degree = {p: 0 for p in chosen}
    parent = {p: p for p in chosen}

    def find(p):
        while parent[p] != p:
            p = parent[p]
        return p

    used: set = set()
    taken = []
    phases = (True,) if trees and rng.random() < trees else (True, False)
    # first a spanning forest (joins first: often connected), then extra links (cycles: several solutions)
    for joining in phases:
        for a, b, between in links:
            if (a, b) in taken or used & set(between):
                continue
            if joining and find(a) == find(b):
                continue
            if not joining and rng.random() < 0.25:
                continue
            parent[find(a)] = find(b)
            used |= set(between)
            taken.append((a, b))
            c = rng.randint(1, mb)
            degree[a] += c
            degree[b] += c
    for (r, c), d in degree.items():
        grid[r][c] = d
    if not any(any(row) for row in grid):
        grid[chosen[0][0]][chosen[0][1]] = 1
    return grid, mb
