"""Each rule of the checker, with a case that breaks it and one that does not."""

import pytest

from hashikit.checker import RULES, check
from hashikit.model import Puzzle, Solution

SQUARE = Puzzle.from_grid([[2, 0, 2],
                           [0, 0, 0],
                           [2, 0, 2]])
RING = {((0, 0), (0, 2)): 1, ((0, 0), (2, 0)): 1, ((0, 2), (2, 2)): 1, ((2, 0), (2, 2)): 1}


def rules_broken(puzzle, bridges):
    return check(puzzle, Solution(bridges)).rules()


def test_a_valid_solution_passes():
    report = check(SQUARE, Solution(RING))
    assert report.ok and bool(report) and "valid" in str(report)


def test_not_straight():
    bad = dict(RING)
    bad[((0, 0), (2, 2))] = 1
    assert "not-straight" in rules_broken(SQUARE, bad)


def test_no_island_at_an_end():
    assert "no-island" in rules_broken(SQUARE, {**RING, ((0, 0), (0, 1)): 1})


def test_ignored_island_is_not_an_end():
    p = Puzzle(1, 3, [(0, 0, 1), (0, 1, 1), (0, 2, 1)], ignore=[(0, 1)])
    assert "no-island" in rules_broken(p, {((0, 0), (0, 1)): 1})
    assert check(p, Solution({((0, 0), (0, 2)): 1})).ok


def test_island_between():
    p = Puzzle.from_grid([[1, 2, 1]])
    assert "island-between" in rules_broken(p, {((0, 0), (0, 2)): 1})
    assert check(p, Solution({((0, 0), (0, 1)): 1, ((0, 1), (0, 2)): 1})).ok


def test_bad_count():
    assert "bad-count" in rules_broken(SQUARE, {**RING, ((0, 0), (0, 2)): -1})


def test_too_many_bridges():
    p = Puzzle.from_grid([[3, 0, 3]])
    assert "too-many-bridges" in rules_broken(p, {((0, 0), (0, 2)): 3})
    p3 = Puzzle.from_grid([[3, 0, 3]], maxbridges=3)
    assert check(p3, Solution({((0, 0), (0, 2)): 3})).ok


def test_crossing():
    p = Puzzle.from_grid([[0, 1, 0],
                          [1, 0, 1],
                          [0, 1, 0]])
    report = check(p, Solution({((1, 0), (1, 2)): 1, ((0, 1), (2, 1)): 1}))
    assert "crossing" in report.rules()
    v = next(v for v in report.violations if v.rule == "crossing")
    assert "row 2, column 2" in v.message


def test_island_count_names_each_island():
    report = check(SQUARE, Solution({**RING, ((0, 0), (0, 2)): 2}))
    counts = [v for v in report.violations if v.rule == "island-count"]
    assert {v.cells[0] for v in counts} == {(0, 0), (0, 2)}


def test_disconnected_lists_the_groups():
    p = Puzzle.from_grid([[1, 0, 1],
                          [0, 0, 0],
                          [1, 0, 1]])
    report = check(p, Solution({((0, 0), (0, 2)): 1, ((2, 0), (2, 2)): 1}))
    assert report.rules() == {"disconnected"}
    assert sorted(report.components) == [[(0, 0), (0, 2)], [(2, 0), (2, 2)]]
    assert "2 separate groups" in str(report)


def test_every_rule_is_described():
    assert set(RULES) == {"not-straight", "no-island", "island-between", "bad-count",
                          "too-many-bridges", "crossing", "island-count", "disconnected"}


@pytest.mark.parametrize("seed", range(5))
def test_random_valid_solutions_pass_and_a_changed_one_fails(seed):
    from conftest import random_puzzle

    p, sol = random_puzzle(10, 10, seed)
    assert check(p, sol).ok
    (key, k), *_ = sol.bridges.items()
    changed = dict(sol.bridges)
    changed[key] = 1 if k == 2 else 2
    assert "island-count" in check(p, Solution(changed)).rules()
