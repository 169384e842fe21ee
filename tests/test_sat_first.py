"""The sat engine's first model from a solver of its own (``FIRST_OPTIONS``), assumed whole by the
rounds' solver, against the brute-force oracle: the path forced onto small random boards, with
local rounds on, so that its infeasible answers, its hand-over and the rounds after it all run."""

from __future__ import annotations

import random

import pytest

from hashikit.model import Puzzle
from hashikit.solvers import sat

from oracle import count_solutions, random_board
from test_oracle import valid

CAP = 6


@pytest.fixture
def forced(monkeypatch):
    monkeypatch.setattr(sat, "FIRST_MIN_ISLANDS", 0)
    monkeypatch.setattr(sat, "LOCAL_MIN_ISLANDS", 0)
    monkeypatch.setattr(sat, "LOCAL_RADIUS", 0)


def run(n: int, seed: int, no_loops: bool) -> tuple[list[str], dict]:
    rng = random.Random(seed)
    bad, seen = [], {"first": 0, "first infeasible": 0, "solved": 0}
    for _ in range(n):
        grid, mb = random_board(rng, trees=0.5 if no_loops else 0.0)
        puzzle = Puzzle.from_grid(grid, mb, no_loops=no_loops)
        want, _ = count_solutions(grid, mb, no_loops=no_loops, cap=CAP + 1)
        res = sat.solve(puzzle, max_solutions=CAP, implied=False)
        if "first_time" in res.stats:
            seen["first"] += 1
            seen["first infeasible"] += not res.solved and "global_time" not in res.stats  # the rounds never ran
        seen["solved"] += res.solved
        why = None
        if (want > 0) != res.solved or len(res.solutions) != min(want, CAP):
            why = f"{len(res.solutions)} solutions ({res.status.value}), oracle {want}"
        elif len(set(res.solutions)) != len(res.solutions) or not all(valid(puzzle, s) for s in res.solutions):
            why = "a repeated or invalid solution"
        elif want < CAP and want and not res.complete:
            why = f"all {want} found but not called complete"
        if why:
            bad.append(f"{why}: maxbridges {mb}, no_loops {no_loops}, grid {grid}")
    return bad, seen


@pytest.mark.parametrize("no_loops, seed", [(False, 51), (True, 52)])
def test_first_model_path_agrees_with_brute_force(forced, no_loops, seed):
    bad, seen = run(300, seed, no_loops)
    assert not bad, f"{len(bad)} disagreements, first: {bad[:3]}"
    assert seen["first"] >= 200, seen  # the path really ran (simple infeasibility answers before it)
    assert seen["solved"] >= 50, seen


@pytest.mark.slow
@pytest.mark.parametrize("no_loops, seed", [(False, 61), (True, 62), (False, 63)])
def test_first_model_path_agrees_with_brute_force_long(forced, no_loops, seed):
    bad, seen = run(3000, seed, no_loops)
    assert not bad, f"{len(bad)} disagreements, first: {bad[:3]}"


def test_the_first_solver_says_infeasible_when_degrees_and_crossings_have_no_model(forced):
    grid = [[0, 0, 0], [0, 2, 0], [1, 0, 0], [0, 0, 1], [1, 0, 4], [0, 5, 6]]  # found by a random search
    assert count_solutions(grid, 3)[0] == 0
    res = sat.solve(Puzzle.from_grid(grid, 3))
    assert res.status.value == "infeasible" and res.solution is None and not res.complete
    assert "first_time" in res.stats and "global_time" not in res.stats  # the rounds' solver never ran
