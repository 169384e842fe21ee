"""The rule checker: names every rule a set of bridges breaks, and where.

It is deliberately independent of the solvers and of the model's derived
structure (candidate links, crossing pairs): it reads only the islands, their
numbers, MAXBRIDGES and the bridges, and re-derives the geometry itself, so a
bug in the shared link or crossing code cannot hide a wrong answer.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .model import Pos, Puzzle, Solution, describe_cell

RULES = {
    "not-straight": "a bridge must run straight along one row or column between two cells",
    "no-island": "both ends of a bridge must be islands",
    "island-between": "a bridge may not pass over an island",
    "bad-count": "a bridge count must be a whole number of at least 1",
    "too-many-bridges": "at most MAXBRIDGES bridges may join one pair of islands",
    "crossing": "bridges may not cross",
    "island-count": "each island needs exactly as many bridges as its number",
    "disconnected": "all islands must form one connected group",
}


@dataclass(frozen=True)
class Violation:
    rule: str
    message: str
    cells: tuple[Pos, ...] = field(default=())

    def __str__(self) -> str:
        return f"[{self.rule}] {self.message}"


@dataclass
class CheckReport:
    violations: list[Violation]
    components: list[list[Pos]] = field(default_factory=list)

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


def _bridge_name(p: Pos, q: Pos) -> str:
    return f"the bridge from {describe_cell(*p)} to {describe_cell(*q)}"


def check(puzzle: Puzzle, solution: Solution) -> CheckReport:
    """Check ``solution`` against every rule of ``puzzle``; see ``RULES`` for their names."""
    numbers = {isl.pos: isl.number for isl in puzzle.islands}
    ignored = {isl.pos for isl in puzzle.ignored}
    violations: list[Violation] = []
    degree = dict.fromkeys(numbers, 0)
    good: list[tuple[Pos, Pos, int]] = []  # bridges whose geometry is sound

    for (p, q), count in solution.bridges.items():
        name = _bridge_name(p, q)
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            violations.append(Violation("bad-count", f"{name} has count {count!r}", (p, q)))
            continue
        if count > puzzle.maxbridges:
            violations.append(Violation(
                "too-many-bridges", f"{name} has {count} bridges; MAXBRIDGES is {puzzle.maxbridges}", (p, q)))
        if p == q or (p[0] != q[0] and p[1] != q[1]):
            violations.append(Violation("not-straight", f"{name} is not along one row or column", (p, q)))
            continue
        ends_ok = True
        for end in (p, q):
            if end not in numbers:
                what = "an ignored island" if end in ignored else "not an island"
                violations.append(Violation("no-island", f"{name}: {describe_cell(*end)} is {what}", (end,)))
                ends_ok = False
        between = _cells_between(p, q)
        blockers = [c for c in between if c in numbers]
        if blockers:
            violations.append(Violation(
                "island-between", f"{name} passes over the island at {describe_cell(*blockers[0])}",
                (p, q, *blockers)))
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
    return CheckReport(violations, components)


def _cells_between(p: Pos, q: Pos) -> list[Pos]:
    (r1, c1), (r2, c2) = p, q
    if r1 == r2:
        return [(r1, c) for c in range(min(c1, c2) + 1, max(c1, c2))]
    return [(r, c1) for r in range(min(r1, r2) + 1, max(r1, r2))]


def _crossings(bridges: list[tuple[Pos, Pos, int]]) -> list[Violation]:
    """Crossing bridges, found by marking the cells each bridge passes over."""
    horizontal_cells: dict[Pos, tuple[Pos, Pos]] = {}
    for p, q, _ in bridges:
        if p[0] == q[0]:
            for cell in _cells_between(p, q):
                horizontal_cells[cell] = (p, q)
    out = []
    seen = set()
    for p, q, _ in bridges:
        if p[1] == q[1] and p[0] != q[0]:
            for cell in _cells_between(p, q):
                h = horizontal_cells.get(cell)
                if h is not None and (h, (p, q)) not in seen:
                    seen.add((h, (p, q)))
                    out.append(Violation(
                        "crossing", f"{_bridge_name(*h)} crosses {_bridge_name(p, q)} at {describe_cell(*cell)}",
                        (h[0], h[1], p, q)))
    return out


def _components(nodes: list[Pos], bridges: list[tuple[Pos, Pos, int]]) -> list[list[Pos]]:
    parent = {n: n for n in nodes}

    def find(x: Pos) -> Pos:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for p, q, _ in bridges:
        rp, rq = find(p), find(q)
        if rp != rq:
            parent[rp] = rq
    groups: dict[Pos, list[Pos]] = {}
    for n in nodes:
        groups.setdefault(find(n), []).append(n)
    return sorted((sorted(g) for g in groups.values()), key=lambda g: (-len(g), g))
