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
                          "too-many-bridges", "crossing", "island-count", "disconnected", "loop"}


@pytest.mark.parametrize("seed", range(5))
def test_random_valid_solutions_pass_and_a_changed_one_fails(seed):
    from conftest import random_puzzle

    p, sol = random_puzzle(10, 10, seed)
    assert check(p, sol).ok
    (key, k), *_ = sol.bridges.items()
    changed = dict(sol.bridges)
    changed[key] = 1 if k == 2 else 2
    assert "island-count" in check(p, Solution(changed)).rules()


# -- the no-loops rule ---------------------------------------------------------------------

def test_loop_only_under_the_no_loops_rule():
    looped = Puzzle.from_grid([[2, 0, 2], [0, 0, 0], [2, 0, 2]], no_loops=True)
    report = check(looped, Solution(RING))
    assert report.rules() == {"loop"}
    v = report.violations[0]
    assert sorted(v.cells) == [(0, 0), (0, 2), (2, 0), (2, 2)]
    assert "4 islands" in v.message
    assert check(SQUARE, Solution(RING)).ok  # the same bridges without the rule


def test_a_tree_passes_the_no_loops_rule():
    p = Puzzle.from_grid([[1, 0, 2], [0, 0, 0], [0, 0, 1]], no_loops=True)
    assert check(p, Solution({((0, 0), (0, 2)): 1, ((0, 2), (2, 2)): 1})).ok


def test_a_double_bridge_is_no_loop():
    p = Puzzle.from_grid([[2, 0, 2]], no_loops=True)
    assert check(p, Solution({((0, 0), (0, 2)): 2})).ok


def test_loop_cells_are_a_cycle_of_bridges():
    """The reported cells follow bridges round a cycle (each consecutive pair is bridged)."""
    grid = [[2, 0, 3, 0, 2], [0, 0, 0, 0, 0], [2, 0, 3, 0, 2]]
    p = Puzzle.from_grid(grid, no_loops=True)
    bridges = {((0, 0), (0, 2)): 1, ((0, 2), (0, 4)): 1, ((0, 0), (2, 0)): 1, ((0, 4), (2, 4)): 1,
               ((2, 0), (2, 2)): 1, ((2, 2), (2, 4)): 1, ((0, 2), (2, 2)): 1}
    report = check(p, Solution(bridges))
    (v,) = [v for v in report.violations if v.rule == "loop"]
    cycle = list(v.cells)
    keys = {tuple(sorted(k)) for k in bridges}
    assert len(cycle) >= 4 and len(set(cycle)) == len(cycle)
    for a, b in zip(cycle, cycle[1:] + cycle[:1]):
        assert tuple(sorted((a, b))) in keys
    assert "2 independent loops" in v.message


# -- hostile solutions: bounded work ---------------------------------------------------------

def test_an_end_far_off_the_board_is_reported_without_walking():
    p = Puzzle.from_grid([[1, 0, 1]])
    for far in (30_000_000, 10 ** 400, -5):
        report = check(p, Solution({((0, 0), (0, far)): 1}))
        assert "no-island" in report.rules()
        assert "outside the 1x3 board" in str(report)
    report = check(p, Solution({((0, 0), (0, 10 ** 5000)): 10 ** 5000}))  # str() refuses such ints
    assert {"too-many-bridges", "no-island"} <= report.rules() and "huge" in str(report)


def test_long_bridges_and_a_long_crossing_on_a_wide_board():
    """2,000 bridges across 10,000-wide rows (20M cells a walk would visit) and one long vertical
    bridge crossing all but the two end rows' bridges."""
    p = Puzzle(2000, 10_000, [(r, c, 1) for r in range(2000) for c in (0, 9_999)]
               + [(0, 5000, 1), (1999, 5000, 1)])
    sol = Solution({((r, 0), (r, 9_999)): 1 for r in range(1, 1999)} | {((0, 5000), (1999, 5000)): 1})
    report = check(p, sol)
    crossings = [v for v in report.violations if v.rule == "crossing"]
    assert len(crossings) == 1998
    assert {v.cells[0][0] for v in crossings} == set(range(1, 1999))


def _naive_crossings(bridges):
    """Reference: every (horizontal, vertical) pair whose interiors meet, cell by cell."""
    out = set()
    for p, q in bridges:
        if p[0] != q[0]:
            continue
        for a, b in bridges:
            if a[1] == b[1] and a[0] != b[0]:
                r, c = p[0], a[1]
                if min(p[1], q[1]) < c < max(p[1], q[1]) and min(a[0], b[0]) < r < max(a[0], b[0]):
                    out.add(((p, q), (a, b)))
    return out


@pytest.mark.parametrize("seed", range(30))
def test_crossings_match_a_cell_by_cell_reference(seed):
    import random

    rng = random.Random(seed)
    n = rng.randint(3, 8)
    cells = [(r, c) for r in range(n) for c in range(n)]
    islands = rng.sample(cells, rng.randint(4, len(cells) // 2))
    p = Puzzle(n, n, [(r, c, 8) for r, c in islands])
    isl = p.islands
    links = [(isl[ln.a].pos, isl[ln.b].pos) for ln in p.links]
    chosen = [ln for ln in links if rng.random() < 0.5]
    report = check(p, Solution({ln: 1 for ln in chosen}))
    got = {((v.cells[0], v.cells[1]), (v.cells[2], v.cells[3])) for v in report.violations
           if v.rule == "crossing"}
    assert got == _naive_crossings(chosen)
