"""Levels: easy/medium/hard are Tatham's solver stages; grades and generated puzzles agree with an
independent model of his stages (tests/tatham_stages.py), and never call a puzzle with several
solutions graded (the brute-force oracle, tests/oracle.py)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from hashikit.checker import check
from hashikit.generate import generate_unique, random_solution, tatham_layout
from hashikit.logic import LEVELS, grade, solve_logically
from hashikit.model import Puzzle

from oracle import count_solutions, random_board
from tatham_stages import tatham_level

TATHAM = {0: "easy", 1: "medium", 2: "hard", None: None}


def _ours(puzzle: Puzzle) -> str | None:
    """Our grade with Tatham's stages only (None: they get stuck)."""
    return grade(puzzle, "hard").level


def _no_neighbours(p: Puzzle) -> bool:
    cells = {isl.pos for isl in p.islands}
    return not any((r, c + 1) in cells or (r + 1, c) in cells for r, c in cells)


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
def test_generated_puzzles_grade_the_same_by_tatham_stages(difficulty):
    """A sample at each level: no neighbouring islands, and his stages finish it at exactly that level."""
    for seed in range(4):
        p, solution, g = generate_unique(10, 10, difficulty, seed=seed)
        assert g.level == difficulty
        assert _no_neighbours(p)
        assert TATHAM[tatham_level(p)] == difficulty, (difficulty, seed)
        assert check(p, solution).ok


def test_generated_at_tatham_parameters():
    for seed, difficulty in enumerate(["easy", "medium", "hard"]):
        p, solution, g = generate_unique(10, 10, difficulty, seed=seed, islands_percent=30, expansion=10)
        assert g.level == difficulty and TATHAM[tatham_level(p)] == difficulty
        assert _no_neighbours(p) and check(p, solution).ok


@pytest.mark.parametrize("maxbridges", [1, 2, 3, 4])
def test_grades_agree_with_tatham_stages_on_random_boards(maxbridges):
    """Ours up to hard and his stages agree on random layouts (published-like and his own)."""
    for seed in range(25):
        rng = random.Random(seed)
        size = rng.choice([5, 7, 9])
        if seed % 2:
            p, _ = tatham_layout(size, size, rng, maxbridges=maxbridges)
        else:
            p, _ = random_solution(size, size, rng, maxbridges=maxbridges)
        assert _ours(p) == TATHAM[tatham_level(p)], (maxbridges, seed)


def test_no_loops_grades_agree_with_tatham_stages():
    for seed in range(25):
        rng = random.Random(seed)
        base, _ = tatham_layout(7, 7, rng, no_loops=True)
        p = Puzzle(base.rows, base.cols, base.islands, base.maxbridges, no_loops=True)
        assert _ours(p) == TATHAM[tatham_level(p)], seed


@settings(max_examples=120, deadline=None)
@given(hs.integers(0, 10 ** 9), hs.booleans())
def test_graded_means_unique_by_the_oracle(seed, no_loops):
    """Grading never finishes a puzzle that has several solutions (or none)."""
    grid, mb = random_board(random.Random(seed), max_side=5)
    p = Puzzle.from_grid(grid, mb, no_loops=no_loops)
    if p.capacity_problems():
        return
    state, _steps, stuck = solve_logically(p)
    if not stuck:
        n, _ = count_solutions(grid, mb, no_loops=no_loops, cap=2)
        assert n == 1, (grid, mb, no_loops)
        assert check(p, state.solution()).ok


def test_no_loops_puzzle_unique_only_with_the_rule():
    """Boards unique only under the rule: graded with it, stuck (several solutions) without it."""
    found = 0
    for seed in range(400):
        grid, mb = random_board(random.Random(seed), max_side=5)
        free, _ = count_solutions(grid, mb, no_loops=False, cap=3)
        strict, _ = count_solutions(grid, mb, no_loops=True, cap=3)
        if strict == 1 and free > 1:
            with_rule = grade(Puzzle.from_grid(grid, mb, no_loops=True))
            without = grade(Puzzle.from_grid(grid, mb))
            assert without.level is None
            if with_rule.level is not None:
                found += 1
    assert found >= 1


@pytest.mark.parametrize("difficulty", ["easy", "hard"])
def test_generate_no_loops(difficulty):
    p, solution, g = generate_unique(8, 8, difficulty, seed=3, no_loops=True)
    assert p.no_loops and g.level == difficulty
    assert check(p, solution).ok
    assert sum(1 for _k, c in solution.bridges.items() if c) == len(p.islands) - 1
    assert TATHAM[tatham_level(p)] == difficulty


def test_generate_rejects_bad_arguments():
    for kwargs in ({"maxbridges": 0}, {"maxbridges": 5}, {"islands_percent": 40}, {"expansion": -1},
                   {"density": 0}, {"islands_percent": 20, "allow_adjacent": True}):
        with pytest.raises(ValueError):
            generate_unique(7, 7, "easy", seed=1, **kwargs)


def test_generate_allows_adjacent_only_when_asked():
    seen = 0
    for seed in range(6):
        p, solution, _g = generate_unique(9, 9, "easy", seed=seed, allow_adjacent=True, verify=False)
        assert check(p, solution).ok
        seen += not _no_neighbours(p)
    assert seen >= 1


def test_time_limit_is_kept_on_a_huge_board():
    import time

    start = time.perf_counter()
    with pytest.raises(RuntimeError, match="time limit"):
        generate_unique(1000, 1000, "easy", seed=1, time_limit=1.0)
    assert time.perf_counter() - start < 6.0


def test_levels_are_listed_once():
    assert LEVELS == ("easy", "medium", "hard", "expert")


@pytest.mark.parametrize("maxbridges", [1, 3, 4])
def test_generate_other_maxbridges(maxbridges):
    if maxbridges == 1:  # medium adds nothing to easy then (but the no-loops rule)
        with pytest.raises(ValueError, match="maxbridges 1"):
            generate_unique(8, 8, "medium", seed=2, maxbridges=1)
    p, solution, g = generate_unique(8, 8, "medium", seed=2, maxbridges=maxbridges, no_loops=maxbridges == 1)
    assert p.maxbridges == maxbridges and g.level == "medium"
    assert max(solution.bridges.values()) <= maxbridges and check(p, solution).ok
    assert TATHAM[tatham_level(p)] == "medium"
