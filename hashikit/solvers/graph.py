"""Graph helpers the engines share (not the checker, which keeps its own)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

if TYPE_CHECKING:
    from ..model import Puzzle


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
