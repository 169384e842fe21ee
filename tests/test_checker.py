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


# -- the fast pass against the full one --------------------------------------------------------

def _variants(p, sol, rng):
    """The solution, and changed copies: counts off, a bridge gone, a bridge added along a row or
    column (crossing, over an island, doubling a pair), bad counts and ends, keys written backwards."""
    keys = list(sol.bridges)
    yield dict(sol.bridges)
    key = rng.choice(keys)
    yield {**sol.bridges, key: 1 if sol.bridges[key] == 2 else 2}
    yield {k: v for k, v in sol.bridges.items() if k != key}
    yield {**sol.bridges, key: p.maxbridges + 1}
    yield {**sol.bridges, key: True}
    yield {**sol.bridges, key: 1.0}
    yield {k if k != key else (k[1], k[0]): v for k, v in sol.bridges.items()}
    yield {k if k != key else ((float(k[0][0]), k[0][1]), k[1]): v for k, v in sol.bridges.items()}
    yield {**sol.bridges, ((0, 0), (0, p.cols + 3)): 1}
    cells = [isl.pos for isl in p.islands]
    for _ in range(4):
        a, b = rng.sample(cells, 2)
        if a[0] == b[0] or a[1] == b[1]:
            yield {**sol.bridges, (min(a, b), max(a, b)): 1}
        a, b = rng.choice(keys)
        other = {k: v for k, v in sol.bridges.items() if k != (a, b)}
        yield {**other, (a, b): 1, (b, a): 1}


@pytest.mark.parametrize("seed", range(40))
def test_the_fast_pass_agrees_with_the_full_one(seed):
    """On valid and broken solutions, with and without the no-loops rule, ``check`` gives the full
    pass's report, and the fast pass accepts exactly what the full pass finds valid."""
    import random

    from conftest import random_puzzle

    from hashikit.checker import _check_full, _valid_fast

    rng = random.Random(seed)
    base, sol = random_puzzle(rng.randint(3, 12), rng.randint(3, 12), seed)
    if len(base.islands) < 3:
        pytest.skip("a board too small to change")
    # a loop where one fits: join two islands of one row or column with no island between
    extra = dict(sol.bridges)
    for isl, nxt in zip(base.islands, base.islands[1:]):
        if isl.row == nxt.row and (isl.pos, nxt.pos) not in extra:
            extra[(isl.pos, nxt.pos)] = 1
            break
    looped = Puzzle(base.rows, base.cols, [
        (r, c, n + sum(k for e, k in extra.items() if (r, c) in e) - sum(k for e, k in sol.bridges.items() if (r, c) in e))
        for r, c, n in base.islands])
    seen_ok = seen_bad = 0
    for p, s in ((base, sol), (looped, Solution(extra))):
        for puzzle in (p, Puzzle(p.rows, p.cols, p.islands, no_loops=True)):
            for bridges in _variants(puzzle, s, rng):
                candidate = Solution()
                candidate.bridges = bridges
                # and the puzzle renumbered to the bridges' counts: only crossings, islands
                # between, connection and loops left to break
                for q in (puzzle, _renumbered(puzzle, bridges)):
                    numbers = {isl.pos: isl.number for isl in q.islands}
                    full = _check_full(q, candidate, numbers)
                    assert check(q, candidate) == full
                    assert _valid_fast(q, numbers, bridges) == full.ok
                    seen_ok += full.ok
                    seen_bad += not full.ok
    assert seen_ok >= 2 and seen_bad >= 10


def _renumbered(puzzle, bridges):
    degree = dict.fromkeys((isl.pos for isl in puzzle.islands), 0)
    for (p, q), k in bridges.items():
        if type(k) is int and p in degree and q in degree:
            degree[p] += k
            degree[q] += k
    top = 4 * puzzle.maxbridges
    return Puzzle(puzzle.rows, puzzle.cols, [(r, c, degree[r, c] if 1 <= degree[r, c] <= top else n)
                                             for r, c, n in puzzle.islands], no_loops=puzzle.no_loops)


def test_a_crossing_in_a_connected_solution_with_the_right_counts():
    p = Puzzle(3, 3, [(0, 0, 2), (0, 1, 2), (1, 0, 2), (1, 2, 1), (2, 1, 1)])
    bridges = {((0, 0), (0, 1)): 1, ((0, 0), (1, 0)): 1, ((1, 0), (1, 2)): 1, ((0, 1), (2, 1)): 1}
    assert rules_broken(p, bridges) == {"crossing"}
    del bridges[((0, 1), (2, 1))]
    assert "crossing" not in rules_broken(p, bridges)


def test_a_valid_solution_on_a_long_row_takes_either_pass():
    """A bridge of 6,000 cells, and boards too sparse for the fast pass's flat grid."""
    from hashikit.checker import _valid_fast

    for width, extra in ((10_000, 1_900), (9_000, 0), (10_000, 0)):
        cells = [0, 6_000, width - 1] + [6_010 + 2 * t for t in range(extra)]
        cells.sort()
        bridges = {((0, a), (0, b)): 1 for a, b in zip(cells, cells[1:])}
        p = Puzzle(1, width, [(0, c, 1 if c in (cells[0], cells[-1]) else 2) for c in cells])
        report = check(p, Solution(bridges))
        assert report.ok and report.components == [[(0, c) for c in cells]]
        assert _valid_fast(p, {isl.pos: isl.number for isl in p.islands}, bridges) is (extra > 0)
