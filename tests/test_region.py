"""solvers/region.py: a part of a board, its other links held, as a formula of its own.

Checked against the whole board's encoding: the held solution's counts satisfy the part, and
every model of the part, put back into the board, satisfies every clause of the whole encoding
that the part speaks for (all of them, when the part's exact islands are the open links' ends)."""

import random

import pytest

from hashikit.solvers import region
from hashikit.solvers.cadical import CADICAL, open_solver
from hashikit.solvers.sat import Encoding

from conftest import random_puzzle


def satisfied(clauses, model_of) -> bool:
    return all(any(model_of(lit) for lit in cl) for cl in clauses)


def whole_model(enc, counts):
    base, caps = enc.base, enc.capacities

    def holds(lit):
        v = abs(lit)
        k = max(i for i, b in enumerate(base) if b < v) if v else 0
        return (v - base[k] <= counts[k]) == (lit > 0)
    return holds


def part_model(part, counts):
    def holds(lit):
        v = abs(lit)
        k = next(k for k in part.links if part.base[k] < v <= part.base[k] + part.capacities[k])
        return (v - part.base[k] <= counts[k]) == (lit > 0)
    return holds


def solve_parts(parts):
    out = {}
    for part in parts:
        assert part.clauses is not None
        with open_solver(CADICAL, part.clauses) as sat:
            if not sat.solve():
                return None
            out.update(part.counts(sat.get_model()))
    return out


@pytest.mark.parametrize("seed", range(40))
def test_a_part_is_the_whole_formula_with_the_rest_held(seed):
    rng = random.Random(seed)
    puzzle, solution = random_puzzle(rng.randint(4, 9), rng.randint(4, 9), seed, maxbridges=rng.choice((1, 2, 3)))
    enc = Encoding(puzzle)
    held = solution.counts(puzzle)
    assert satisfied(enc.clauses, whole_model(enc, held))
    links = [k for k in range(len(puzzle.links)) if enc.capacities[k]]
    open_links = rng.sample(links, rng.randint(0, len(links)))
    cuts = region.Cuts()
    # a cut the held solution meets, and one it does not meet through the held links alone
    used = [k for k in links if held[k]]
    if used:
        cuts.add(region.REQUIRE, [used[0]] + open_links[:2])
    part = region.build(puzzle, enc.capacities, held, open_links, cuts)
    assert part.clauses is not None
    assert satisfied(part.clauses, part_model(part, held))  # the held solution is a model
    found = solve_parts(region.split(part))
    assert found is not None
    counts = list(held)
    for k, c in found.items():
        counts[k] = c
    assert satisfied(enc.clauses, whole_model(enc, counts))


@pytest.mark.parametrize("seed", range(20))
def test_a_part_with_no_way_left_says_so(seed):
    rng = random.Random(100 + seed)
    puzzle, solution = random_puzzle(6, 6, 100 + seed)
    enc = Encoding(puzzle)
    held = solution.counts(puzzle)
    links = [k for k in range(len(puzzle.links)) if enc.capacities[k] and held[k]]
    k = rng.choice(links)
    cuts = region.Cuts()
    cuts.add(region.FORBID, [k])  # "link k carries no bridge": its island's count must move elsewhere
    part = region.build(puzzle, enc.capacities, held, [k], cuts)
    found = None if part.clauses is None else solve_parts(region.split(part))
    assert found is None  # one link alone cannot move: its ends' numbers hold it


def test_parts_far_apart_are_solved_apart():
    puzzle, solution = random_puzzle(12, 12, 7)
    enc = Encoding(puzzle)
    held = solution.counts(puzzle)
    isl = puzzle.islands
    left = [k for k, ln in enumerate(puzzle.links) if enc.capacities[k] and max(isl[ln.a].col, isl[ln.b].col) <= 2]
    right = [k for k, ln in enumerate(puzzle.links) if enc.capacities[k] and min(isl[ln.a].col, isl[ln.b].col) >= 9]
    part = region.build(puzzle, enc.capacities, held, left + right)
    parts = region.split(part)
    assert len(parts) >= 2
    assert sorted(k for p in parts for k in p.links) == sorted(part.links)
    assert sum(len(p.clauses) for p in parts) == len(part.clauses)
