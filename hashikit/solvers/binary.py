"""The SAT engine's binary encoding, for links that can carry more bridges than ``sat.UNARY_MAX_CAP``.

A link's count is ``ceil(log2(cap + 1))`` bits bounded by ``cap`` (a lexicographic comparison), a
"used" variable is the OR of its bits, and each degree is a tree of ripple-carry adders whose output
bits are fixed to the island's number: O(log MAXBRIDGES) variables and clauses per link and island,
where the unary encoding (``sat.Encoding``) grows with MAXBRIDGES.  It answers the same questions as
``sat.Encoding`` (``used``, ``differs``, ``counts``, ``count``, ``holding``, ``hold``, ``link_vars``),
so the rounds and the proofs take either.
"""

from __future__ import annotations

from ..model import Puzzle


class BinaryEncoding:
    """The binary CNF of a puzzle without connectivity: O(log cap) variables per link."""

    name = "binary"

    def __init__(self, puzzle: Puzzle, implied: bool = True):
        self.puzzle = puzzle
        self.capacities = list(puzzle.link_capacities)
        self.clauses: list[list[int]] = []
        self.nvars = 0
        self.false = self._new()
        self.clauses.append([-self.false])
        self.bits: list[list[int]] = []
        self._used: list[int] = []
        for cap in self.capacities:
            bits = [self._new() for _ in range(cap.bit_length())]
            self.bits.append(bits)
            self._used.append(self._new() if cap else 0)
            self._bound(bits, cap)
        for k, bits in enumerate(self.bits):
            if bits:
                u = self._used[k]
                self.clauses.append([-u] + bits)
                self.clauses.extend([-b, u] for b in bits)
        for h, v in puzzle.crossings:
            if self.capacities[h] and self.capacities[v]:
                self.clauses.append([-self._used[h], -self._used[v]])
        for i, isl in enumerate(puzzle.islands):
            self._equals(self._sum([self.bits[k] for k in puzzle.incident[i] if self.capacities[k]]), isl.number)
        if implied and len(puzzle.islands) > 2:
            isl = puzzle.islands
            for k, ln in enumerate(puzzle.links):
                c = isl[ln.a].number
                if c == isl[ln.b].number and c <= self.capacities[k]:
                    self.clauses.append(self.differs(k, c))

    def _new(self) -> int:
        self.nvars += 1
        return self.nvars

    def _bound(self, bits: list[int], cap: int) -> None:
        """count <= cap, bit by bit from the top: a 1 where cap has a 0 needs a higher 0 where cap has a 1."""
        for j, b in enumerate(bits):
            if not cap >> j & 1:
                self.clauses.append([-b] + [-bits[i] for i in range(j + 1, len(bits)) if cap >> i & 1])

    def _add(self, a: list[int], b: list[int]) -> list[int]:
        """The bits of a + b (ripple-carry full adders, Tseitin)."""
        width = max(len(a), len(b))
        a = a + [self.false] * (width - len(a))
        b = b + [self.false] * (width - len(b))
        carry = self.false
        out = []
        for x, y in zip(a, b):
            s, c = self._new(), self._new()
            self.clauses.extend([
                [-x, -y, -carry, s], [-x, y, carry, s], [x, -y, carry, s], [x, y, -carry, s],
                [x, y, carry, -s], [x, -y, -carry, -s], [-x, y, -carry, -s], [-x, -y, carry, -s],
                [-x, -y, c], [-x, -carry, c], [-y, -carry, c],
                [x, y, -c], [x, carry, -c], [y, carry, -c],
            ])
            out.append(s)
            carry = c
        return out + [carry]

    def _sum(self, numbers: list[list[int]]) -> list[int]:
        while len(numbers) > 1:
            numbers = [self._add(numbers[i], numbers[i + 1]) if i + 1 < len(numbers) else numbers[i]
                       for i in range(0, len(numbers), 2)]
        return numbers[0] if numbers else []

    def _equals(self, bits: list[int], value: int) -> None:
        if value >> len(bits):
            self.clauses.append([])  # more than these bits can hold: UNSAT
        for j, b in enumerate(bits):
            self.clauses.append([b] if value >> j & 1 else [-b])

    def used(self, k: int) -> int:
        return self._used[k]

    def differs(self, k: int, c: int) -> list[int]:
        return [-b if c >> j & 1 else b for j, b in enumerate(self.bits[k])]

    def counts(self, model: list[int]) -> list[int]:
        return [sum(1 << j for j, b in enumerate(bits) if model[b - 1] > 0) for bits in self.bits]

    def count(self, model: list[int], k: int) -> int:
        return sum(1 << j for j, b in enumerate(self.bits[k]) if model[b - 1] > 0)

    def holding(self, counts: list[int]) -> list[tuple[int, ...]]:
        return [self.hold(k, c) if cap else () for k, (c, cap) in enumerate(zip(counts, self.capacities))]

    def hold(self, k: int, c: int) -> tuple[int, ...]:
        return tuple(-lit for lit in self.differs(k, c))

    def link_vars(self, k: int) -> list[int]:
        return self.bits[k]
