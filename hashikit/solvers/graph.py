"""Graph helpers the engines share (not the checker, which keeps its own)."""

from __future__ import annotations

from typing import Iterable


def components(n: int, edges: Iterable[tuple[int, int]]) -> list[list[int]]:
    """Connected components (lists of vertices) of the graph on ``0..n-1`` with ``edges``."""
    parent = list(range(n))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in edges:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[ra] = rb
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(find(i), []).append(i)
    return list(groups.values())
