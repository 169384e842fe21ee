"""The generator's proof of uniqueness: :func:`unique_proof`, the SAT engine's search for a second
solution (the cut loop of :func:`sat.solve`, started from the no-good of the first) on the unary
formula of :func:`lean_encode`, which is
:func:`sat.encode`'s formula (the same clauses in the same order) built from per-island blocks cached
by the island's links' capacities and its number: the generator proves thousands of small puzzles, and
building and loading their formulas is most of the proof's cost (``benchmarks/results/generate.md``).
The search starts on the part of the formula that a unit propagation ending in the first solution can
use (:func:`tight_encode`); the rest is loaded only when that part alone leaves room for another."""

from __future__ import annotations

from functools import lru_cache
from itertools import accumulate, repeat

from ..limits import Deadline
from ..model import Puzzle
from . import lazy
from .base import Status
from .cadical import open_solver
from .region import _call, _degree_block, _degree_patterns
from .sat import CADICAL_OPTIONS, UNARY_MAX_CAP, Encoding, SatBackend, blocking_clause, encode


class LeanEncoding(Encoding):
    """:class:`Encoding`'s clauses (the same clauses in the same order, as tuples) for a puzzle
    every link of which can carry a bridge and every island's degree of which takes the tuple
    clauses (no totalizer), built faster: each island's degree clauses are picked by getters cached
    by its links' capacities and its number (:func:`_degree_block`) out of one row of literals made
    from per-link tuples, with no Python loop per literal.  Made by :func:`lean_encode`."""

    def __init__(self, puzzle: Puzzle, capacities: list[int], starts: list[int], clauses: list):
        self.puzzle = puzzle
        self.capacities = capacities
        self.base = starts[:-1]
        self.nvars = starts[-1]
        self.clauses = clauses
        self._isolated_pairs()


def lean_encode(puzzle: Puzzle):
    """The formula :func:`encode` gives ``puzzle``: a :class:`LeanEncoding` where it applies (every
    link can carry a bridge, every degree takes the tuple clauses: the generator's puzzles), else
    :func:`encode`'s own."""
    capacities = list(puzzle.link_capacities)
    if not capacities or min(capacities) < 1 or max(capacities) > UNARY_MAX_CAP:
        return encode(puzzle)
    starts = [0, *accumulate(capacities)]
    base, nvars = starts[:-1], starts[-1]
    clauses: list = [(-(b + j + 1), b + j) for b, cap in zip(base, capacities) for j in range(1, cap)]
    clauses += [(-(base[h] + 1), -(base[v] + 1)) for h, v in puzzle.crossings]
    # per link, its literals "at least j bridges" (slices of 1..nvars) and their negations
    spans = list(map(slice, base, starts[1:]))
    pos = list(map(tuple(range(1, nvars + 1)).__getitem__, spans))
    neg = list(map(tuple(range(-1, -nvars - 1, -1)).__getitem__, spans))
    cap, add = capacities.__getitem__, clauses.extend
    for inc, isl in zip(puzzle.incident, puzzle.islands):
        block = _degree_block(tuple(map(cap, inc)), isl.number)
        if block is None:
            return encode(puzzle)
        add(map(_call, block, repeat(sum(map(pos.__getitem__, inc), ()) + sum(map(neg.__getitem__, inc), ()))))
    return LeanEncoding(puzzle, capacities, starts, clauses)


#: a link's capacity and count in one number (for :func:`_tight_block`'s key): capacity * _CODE + count
_CODE = UNARY_MAX_CAP + 1


@lru_cache(maxsize=1 << 14)
def _tight_block(codes: tuple[int, ...], need: int):
    """:func:`_degree_block`'s getters for an island whose links have the capacities and the counts
    in the construction coded in ``codes`` (see :data:`_CODE`), split in two: the clauses with at
    most one literal true under the counts (the only ones that can be the reason of a unit
    propagation that ends in the counts), and the others.  None where :func:`_degree_block` is."""
    capacities = tuple(code // _CODE for code in codes)
    counts = [code % _CODE for code in codes]
    block = _degree_block(capacities, need)
    if block is None:
        return None
    if sum(capacities) < need:  # the empty clause
        return block, ()
    tight: list = []
    other: list = []
    for pattern, get in zip(_degree_patterns(capacities, need), block):
        true = sum(counts[p] >= j if j > 0 else counts[p] < -j for p, j in pattern)
        (tight if true <= 1 else other).append(get)
    return tuple(tight), tuple(other)


def tight_encode(puzzle: Puzzle, counts: list[int]):
    """:func:`lean_encode`'s formula split by ``counts`` (bridges per link): ``(enc, tight, rest)``,
    ``tight`` the clauses with at most one literal true under ``counts`` and ``rest`` a function
    that lists the others (together: the formula's clauses, in another order); ``enc`` a
    :class:`LeanEncoding` whose ``clauses`` are ``tight``.  None where :func:`lean_encode` is not
    lean.

    Where unit propagation alone derives ``counts`` from the formula (a puzzle the easy and medium
    rules finish: each of those rules is propagation on one island's degree clauses or one
    crossing), each clause it uses has its one true literal under ``counts`` as the one it
    propagates, so ``tight`` with the no-good of ``counts`` is already contradictory: the rest need
    not be written or loaded."""
    capacities = list(puzzle.link_capacities)
    if not capacities or min(capacities) < 1 or max(capacities) > UNARY_MAX_CAP:
        return None
    starts = [0, *accumulate(capacities)]
    base, nvars = starts[:-1], starts[-1]
    # "at least j + 1 bridges" implies "at least j": both literals true under a count of exactly j;
    # two crossing links carry no bridges both: both literals true when neither carries one
    tight: list = [(-(b + j + 1), b + j) for b, cap, c in zip(base, capacities, counts)
                   for j in range(1, cap) if j != c]
    crossings = puzzle.crossings
    tight += [(-(base[h] + 1), -(base[v] + 1)) for h, v in crossings if counts[h] or counts[v]]
    spans = list(map(slice, base, starts[1:]))
    pos = list(map(tuple(range(1, nvars + 1)).__getitem__, spans))
    neg = list(map(tuple(range(-1, -nvars - 1, -1)).__getitem__, spans))
    code = [cap * _CODE + c for cap, c in zip(capacities, counts)].__getitem__
    add = tight.extend
    later = []
    for inc, isl in zip(puzzle.incident, puzzle.islands):
        split = _tight_block(tuple(map(code, inc)), isl.number)
        if split is None:
            return None
        row = sum(map(pos.__getitem__, inc), ()) + sum(map(neg.__getitem__, inc), ())
        add(map(_call, split[0], repeat(row)))
        if split[1]:
            later.append((split[1], row))

    def rest() -> list:
        out = [(-(b + c + 1), b + c) for b, cap, c in zip(base, capacities, counts) if 0 < c < cap]
        out += [(-(base[h] + 1), -(base[v] + 1)) for h, v in crossings if not (counts[h] or counts[v])]
        for getters, row in later:
            out.extend(map(_call, getters, repeat(row)))
        return out

    return LeanEncoding(puzzle, capacities, starts, tight), tight, rest


def unique_proof(puzzle: Puzzle, counts: list[int], time_limit: float | Deadline | None = None,
                 solver: str = "minisat22") -> tuple[Status, list[int] | None]:
    """A solution of ``puzzle`` other than ``counts`` (bridges per link of ``puzzle.links``):
    ``(SOLVED, its counts)``, ``(INFEASIBLE, None)`` when the SAT solver proved there is none, or
    ``(UNKNOWN, None)`` at the deadline (checked between solver calls only).

    With ``counts`` a solution (the caller checks it), INFEASIBLE proves it the only one: the same
    formula (built faster, :func:`lean_encode`) and cut loop as :func:`sat.solve` with
    ``max_solutions=2``, started with the no-good of ``counts`` instead of a first call that finds
    them, on ``solver`` (MiniSat by default: it answers the generator's small formulas sooner).
    The solver first holds only :func:`tight_encode`'s part of the formula: "no model" there is
    "no model" of the whole (a part of its clauses), and a puzzle the easy and medium rules finish
    ends there; an assignment of the part that is not another solution loads the rest
    (:class:`_TightBackend`), so every solution returned meets the whole formula."""
    deadline = Deadline.of(time_limit)
    stats: dict = {}
    split = tight_encode(puzzle, counts)
    if split is None:
        enc = lean_encode(puzzle)
        block = blocking_clause(enc, counts)
        with open_solver(solver, enc.clauses, CADICAL_OPTIONS) as sat:
            sat.add_clause(block)
            return _second(puzzle, SatBackend(enc, sat, stats, local=False), stats, deadline)
    enc, tight, rest = split
    base, caps = enc.base, enc.capacities  # the no-good of ``counts`` (:func:`blocking_clause`'s literals)
    block = [-(b + c) for b, c in zip(base, counts) if c]
    block += [b + c + 1 for b, c, cap in zip(base, counts, caps) if c < cap]
    with open_solver(solver, tight, CADICAL_OPTIONS) as sat:
        sat.add_clause(block)
        if not sat.solve():  # a part of the formula, with the no-good, has no model
            return Status.INFEASIBLE, None
        return _second(puzzle, _TightBackend(enc, sat, stats, rest, counts), stats, deadline)


class _TightBackend(SatBackend):
    """:class:`SatBackend` on :func:`tight_encode`'s part of the formula: an assignment that is not
    a solution of the degree and crossing rules other than the proof's counts (a model of the part
    only) loads the rest of the formula (``rest``) and is solved again.  Until then a cut still
    holds for every solution, and "infeasible" of the part is infeasible of the whole."""

    def __init__(self, enc, sat, stats: dict, rest, counts_of_proof: list[int]):
        super().__init__(enc, sat, stats, local=False)
        self.rest = rest
        self.counts_of_proof = counts_of_proof

    def solve(self, deadline):
        status, got = super().solve(deadline)
        while got is not None and self.rest is not None and not self._holds(got):
            for clause in self.rest():
                self.sat.add_clause(clause)
            self.rest = None
            status, got = super().solve(deadline)
        return status, got

    def _holds(self, got: list[int]) -> bool:
        """``got`` differs from the proof's counts, and meets every island's number and crossing."""
        if got == self.counts_of_proof:
            return False
        puzzle = self.enc.puzzle
        if any(map(int.__gt__, got, self.enc.capacities)):
            return False
        for inc, isl in zip(puzzle.incident, puzzle.islands):
            if sum(map(got.__getitem__, inc)) != isl.number:
                return False
        return not any(got[h] and got[v] for h, v in puzzle.crossings)


def _second(puzzle: Puzzle, backend: SatBackend, stats: dict, deadline: Deadline | None
            ) -> tuple[Status, list[int] | None]:
    """The cut loop on ``backend`` (its solver holding the formula and the no-good of the first solution)."""
    status, found, _complete, _stopped = lazy.run(puzzle, backend, max_solutions=1, deadline=deadline,  # type: ignore[arg-type]
                                                 stats=stats, capacities=backend.enc.capacities)
    return (Status.SOLVED, found[0]) if found else (status, None)
