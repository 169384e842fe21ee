"""The generator's SAT proof of uniqueness (``solvers.proof.unique_proof`` on ``lean_encode``'s
formula): the same formula as the engine's ``encode``, the same models, and the same answer as the
brute-force oracle on small random boards."""

from __future__ import annotations

import random

import pytest

from hashikit.model import Puzzle, Solution
from hashikit.solvers.base import Status
from hashikit.solvers.cadical import open_solver
from hashikit.solvers.proof import LeanEncoding, lean_encode, tight_encode, unique_proof
from hashikit.solvers.sat import blocking_clause, encode

from oracle import count_solutions, random_board
from test_oracle import valid

pytest.importorskip("pysolvers", reason="python-sat is not installed: no SAT engine")


def models(enc, cap: int = 300) -> set[tuple[int, ...]]:
    """The link counts of the formula's models (degree and crossing rules, no connectivity), up to ``cap``."""
    found = set()
    with open_solver("minisat22", [list(c) for c in enc.clauses]) as sat:
        while len(found) < cap and sat.solve():
            counts = enc.counts(sat.get_model())
            found.add(tuple(counts))
            block = blocking_clause(enc, counts)
            if not block:
                break
            sat.add_clause(block)
    return found


def boards(n: int, seed: int):
    rng = random.Random(seed)
    for _ in range(n):
        grid, mb = random_board(rng)
        yield grid, mb, Puzzle.from_grid(grid, mb)


def test_lean_formula_is_the_engines_formula_with_the_same_models():
    lean = 0
    for grid, mb, puzzle in boards(250, 7):
        ours, theirs = lean_encode(puzzle), encode(puzzle)
        lean += isinstance(ours, LeanEncoding)
        assert [tuple(c) for c in ours.clauses] == [tuple(c) for c in theirs.clauses], grid
        assert ours.nvars == theirs.nvars and ours.base == getattr(theirs, "base", ours.base)
        assert models(ours) == models(theirs), grid
    assert lean >= 150  # most boards take the lean path (the rest: a link no bridge fits, or a large degree)


def test_lean_formula_of_generated_puzzles_is_the_engines():
    from hashikit.generate import generate_unique

    for seed, level in enumerate(["easy", "medium", "hard", "easy", "hard"]):
        puzzle, solution, _grade = generate_unique(9, 9, level, seed=seed, islands_percent=30, expansion=10,
                                                   verify=False)
        ours = lean_encode(puzzle)
        assert isinstance(ours, LeanEncoding)
        assert [tuple(c) for c in ours.clauses] == [tuple(c) for c in encode(puzzle).clauses]
        assert unique_proof(puzzle, solution.counts(puzzle))[0] is Status.INFEASIBLE


def agree_with_the_oracle(n: int, seed: int) -> tuple[int, int]:
    """``unique_proof`` on ``n`` random boards against the brute-force oracle: (boards with a
    solution, unique ones)."""
    checked = unique = 0
    for grid, mb, puzzle in boards(n, seed):
        want, solutions = count_solutions(grid, mb, cap=3)
        if not want:
            continue
        counts = Solution(solutions[0]).counts(puzzle)
        status, other = unique_proof(puzzle, counts)
        checked += 1
        if want == 1:
            unique += 1
            assert status is Status.INFEASIBLE, grid
        else:
            assert status is Status.SOLVED and other != counts, grid
            assert valid(puzzle, Solution.from_counts(puzzle, other)), grid
    return checked, unique


def test_unique_proof_agrees_with_the_brute_force_oracle():
    checked, unique = agree_with_the_oracle(300, 11)
    assert checked >= 60 and 10 <= unique < checked


def test_unique_proofs_no_good_is_the_engines(monkeypatch):
    """The proof's no-good of the construction, built from the lean formula's bases, excludes exactly
    what ``blocking_clause`` excludes (the same literals)."""
    import hashikit.solvers.proof as sat

    seen = []

    class Spy:
        def __init__(self, inner):
            self.inner = inner

        def add_clause(self, clause):
            seen.append(sorted(clause))
            self.inner.add_clause(clause)

        def __getattr__(self, name):
            return getattr(self.inner, name)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.inner.delete()

    real = sat.open_solver
    monkeypatch.setattr(sat, "open_solver", lambda *a, **k: Spy(real(*a, **k)))
    compared = 0
    for grid, mb, puzzle in boards(150, 3):
        want, solutions = count_solutions(grid, mb, cap=2)
        if not want or not isinstance(lean_encode(puzzle), LeanEncoding):
            continue
        counts = Solution(solutions[0]).counts(puzzle)
        seen.clear()
        unique_proof(puzzle, counts)
        assert seen[0] == sorted(blocking_clause(encode(puzzle), counts)), grid
        compared += 1
    assert compared >= 30


def _true(enc, counts):
    """Per variable of ``enc``'s unary formula, its value under ``counts``."""
    value = {}
    for b, c, cap in zip(enc.base, counts, enc.capacities):
        for j in range(1, cap + 1):
            value[b + j] = c >= j
    return lambda lit: value[lit] if lit > 0 else not value[-lit]


def test_tight_part_and_rest_are_the_lean_formula_split_by_the_counts():
    """``tight_encode``: its two parts hold exactly ``lean_encode``'s clauses (as a multiset), the
    first those with at most one literal true under the counts, the rest the others."""
    from collections import Counter

    split_seen = 0
    rng = random.Random(5)
    for grid, mb, puzzle in boards(250, 13):
        lean = lean_encode(puzzle)
        if not isinstance(lean, LeanEncoding):
            assert tight_encode(puzzle, [0] * len(puzzle.links)) is None, grid
            continue
        want, solutions = count_solutions(grid, mb, cap=1)
        # a solution's counts where there is one, else any counts within the capacities
        counts = (Solution(solutions[0]).counts(puzzle) if want else
                  [rng.randint(0, cap) for cap in puzzle.link_capacities])
        enc, tight, rest = tight_encode(puzzle, counts)
        assert enc.clauses is tight and enc.base == lean.base and enc.nvars == lean.nvars
        more = rest()
        assert Counter(map(tuple, tight + more)) == Counter(map(tuple, lean.clauses)), grid
        true = _true(lean, counts)
        assert all(sum(map(true, c)) <= 1 for c in tight), grid
        assert all(sum(map(true, c)) >= 2 for c in more), grid
        split_seen += bool(more) and want
    assert split_seen >= 30


def test_unique_proof_on_the_tight_part_agrees_with_the_oracle_and_loads_the_rest_when_it_must(monkeypatch):
    """The proof runs on the tight part first; a model of the part only (not a second solution)
    loads the rest.  Against the brute-force oracle on boards where the part alone has second
    models, both ways are taken and every answer is right."""
    import hashikit.solvers.proof as proof

    loaded = []
    real = proof._TightBackend.solve

    def spy(self, deadline):
        had = self.rest is not None
        out = real(self, deadline)
        loaded.append(had and self.rest is None)
        return out

    monkeypatch.setattr(proof._TightBackend, "solve", spy)
    checked, unique = agree_with_the_oracle(400, 17)
    assert checked >= 80 and unique >= 10
    assert any(loaded) and not all(loaded)  # the rest loaded in some proofs, not in others
