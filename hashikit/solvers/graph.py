"""Graph helpers the engines share (not the checker, which keeps its own)."""

from __future__ import annotations

from collections.abc import Iterable

from ..model import Puzzle


class DisjointSets:
    """Union-find over ``0..n-1`` (path halving): the engines' one copy."""

    def __init__(self, n: int):
        self.parent = list(range(n))

    def find(self, x: int) -> int:
        parent = self.parent
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(self, a: int, b: int) -> bool:
        """Join the sets of ``a`` and ``b``; False when they were one set already."""
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return False
        self.parent[ra] = rb
        return True


def components(n: int, edges: Iterable[tuple[int, int]]) -> list[list[int]]:
    """Connected components (lists of vertices) of the graph on ``0..n-1`` with ``edges``.
    (Hot: once a round on every engine, hence :class:`DisjointSets`'s path halving written inline.)"""
    parent = list(range(n))
    for a, b in edges:
        while parent[a] != a:
            parent[a] = a = parent[parent[a]]
        while parent[b] != b:
            parent[b] = b = parent[parent[b]]
        if a != b:
            parent[a] = b
    groups: dict[int, list[int]] = {}
    for i in range(n):
        r = i
        while parent[r] != r:
            parent[r] = r = parent[parent[r]]
        groups.setdefault(r, []).append(i)
    return list(groups.values())


def simple_infeasibility(puzzle: "Puzzle") -> str | None:
    """A reason in words when a puzzle is infeasible for a simple reason, else None.

    An island whose links cannot carry its number, or islands that no chain of
    possible links joins to the rest.  Engines say this before any search.
    """
    problems = puzzle.capacity_problems()
    if problems:
        return problems[0]
    n = len(puzzle.islands)
    links = puzzle.links
    live = [(links[k].a, links[k].b) for k in range(len(links)) if puzzle.link_capacity(k)]
    if n > 1 and len(components(n, live)) > 1:
        return "the islands cannot all be joined: some groups have no possible link between them"
    return None
