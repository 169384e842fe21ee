"""The sat engine's local rounds (a round after cuts solved near them, the rest of the board held
by assumptions) against the brute-force oracle.  The region is made as small as it goes and the
implied clauses are left out, so that small boards take many cut rounds and the local path, its
core-guided widening and its global fallback all run."""

from __future__ import annotations

import pytest

from hashikit.checker import check
from hashikit.solvers import sat, solve

from conftest import random_puzzle
import engine_oracle

CAP = 12


@pytest.fixture
def counted(monkeypatch):
    """Local rounds on boards of any size; count the rounds tried locally and those the local path
    answered, over a test."""
    monkeypatch.setattr(sat, "LOCAL_MIN_ISLANDS", 0)
    seen = {"local": 0, "near": 0}
    near = sat.SatBackend._solve_near

    def counting(self, deadline):
        seen["near"] += 1
        counts = near(self, deadline)
        seen["local"] += counts is not None
        return counts

    monkeypatch.setattr(sat.SatBackend, "_solve_near", counting)
    return seen


def disagreements(n: int, seed: int, no_loops: bool) -> list[str]:
    return engine_oracle.disagreements(n, seed, no_loops, cap=CAP)


def check_local(monkeypatch, counted, radius, tries, no_loops, seed, n):
    monkeypatch.setattr(sat, "LOCAL_RADIUS", radius)
    monkeypatch.setattr(sat, "LOCAL_TRIES", tries)
    monkeypatch.setattr(sat, "LOCAL_SHARE", 1.0)
    bad = disagreements(n, seed, no_loops)
    assert not bad, f"{len(bad)} disagreements, first: {bad[:3]}"
    assert counted["local"] >= n // 50, counted  # the local path really answered rounds
    assert counted["near"] > counted["local"], counted  # and really fell back to global ones


@pytest.mark.parametrize("radius, tries, no_loops, seed", [(0, 8, False, 31), (0, 1, True, 33)])
def test_local_rounds_agree_with_brute_force(monkeypatch, counted, radius, tries, no_loops, seed):
    check_local(monkeypatch, counted, radius, tries, no_loops, seed, 500)


@pytest.mark.slow
@pytest.mark.parametrize("radius, tries, no_loops, seed", [
    (0, 8, False, 41), (1, 8, False, 42), (0, 8, True, 43), (0, 1, False, 44)])
def test_local_rounds_agree_with_brute_force_many(monkeypatch, counted, radius, tries, no_loops, seed):
    check_local(monkeypatch, counted, radius, tries, no_loops, seed, 5000)


@pytest.mark.parametrize("seed", [1, 2])
def test_a_board_of_hundreds_of_islands_takes_local_rounds_and_answers_as_global_rounds(counted, seed):
    puzzle, _ = random_puzzle(50, 50, seed, density=0.25)
    local = solve(puzzle, engine="sat", max_solutions=2)
    assert local.solutions and all(check(puzzle, s).ok for s in local.solutions)
    assert local.stats["local_solves"] > 0 and counted["local"] > 0
    whole = solve(puzzle, engine="sat", max_solutions=2, local=False)
    assert "local_solves" not in whole.stats
    assert all(check(puzzle, s).ok for s in whole.solutions)
    assert local.unique == whole.unique


def test_local_rounds_on_the_binary_encoding(monkeypatch, counted):
    """MAXBRIDGES above ``UNARY_MAX_CAP``: links held by their bits, the core mapped back to links."""
    monkeypatch.setattr(sat, "LOCAL_RADIUS", 0)
    for seed in range(2):
        puzzle, _ = random_puzzle(20, 20, seed, maxbridges=sat.UNARY_MAX_CAP + 1, density=0.25)
        local = solve(puzzle, engine="sat", max_solutions=2)
        assert local.stats["encoding"] == "binary"
        assert local.solutions and all(check(puzzle, s).ok for s in local.solutions)
        whole = solve(puzzle, engine="sat", max_solutions=2, local=False)
        assert local.unique == whole.unique
    assert counted["local"] > 0, counted


def test_small_boards_take_global_rounds_only():
    puzzle, _ = random_puzzle(50, 50, 1, density=0.25)
    assert len(puzzle.islands) < sat.LOCAL_MIN_ISLANDS
    result = solve(puzzle, engine="sat")
    assert result.stats["rounds"] > 1 and "local_solves" not in result.stats


def test_boards_of_a_thousand_islands_take_local_rounds():
    puzzle, _ = random_puzzle(70, 70, 3, density=0.25)
    assert len(puzzle.islands) >= sat.LOCAL_MIN_ISLANDS
    result = solve(puzzle, engine="sat")
    assert check(puzzle, result.solution).ok
    assert result.stats["local_solves"] > 0 and result.stats["global_solves"] < result.stats["rounds"]
