"""The generator's proof of uniqueness: :func:`unique_proof`, the SAT engine's search for a second
solution (the cut loop of :func:`sat.solve`, started from the no-good of the first) on the unary
formula of :func:`lean_encode`, which is
:func:`sat.encode`'s formula (the same clauses in the same order) built from per-island blocks cached
by the island's links' capacities and its number: the generator proves thousands of small puzzles, and
building their formulas is most of the proof's cost (``benchmarks/results/generate.md``)."""

from __future__ import annotations

from itertools import accumulate, repeat

from ..limits import Deadline
from ..model import Puzzle
from . import lazy
from .base import Status
from .cadical import open_solver
from .region import _call, _degree_block
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


def unique_proof(puzzle: Puzzle, counts: list[int], time_limit: float | Deadline | None = None,
                 solver: str = "minisat22") -> tuple[Status, list[int] | None]:
    """A solution of ``puzzle`` other than ``counts`` (bridges per link of ``puzzle.links``):
    ``(SOLVED, its counts)``, ``(INFEASIBLE, None)`` when the SAT solver proved there is none, or
    ``(UNKNOWN, None)`` at the deadline (checked between solver calls only).

    With ``counts`` a solution (the caller checks it), INFEASIBLE proves it the only one: the same
    formula (built faster, :func:`lean_encode`) and cut loop as :func:`sat.solve` with
    ``max_solutions=2``, started with the no-good of ``counts`` instead of a first call that finds
    them, on ``solver`` (MiniSat by default: it answers the generator's small formulas sooner)."""
    deadline = Deadline.of(time_limit)
    enc = lean_encode(puzzle)
    stats: dict = {}
    if isinstance(enc, LeanEncoding):  # the no-good of ``counts`` (:func:`blocking_clause`'s literals)
        base, caps = enc.base, enc.capacities
        block = [-(b + c) for b, c in zip(base, counts) if c]
        block += [b + c + 1 for b, c, cap in zip(base, counts, caps) if c < cap]
    else:
        block = blocking_clause(enc, counts)
    with open_solver(solver, enc.clauses, CADICAL_OPTIONS) as sat:
        backend = SatBackend(enc, sat, stats, local=False)
        sat.add_clause(block)
        status, found, _complete, _stopped = lazy.run(puzzle, backend, max_solutions=1, deadline=deadline,
                                                     stats=stats, capacities=enc.capacities)
    return (Status.SOLVED, found[0]) if found else (status, None)
