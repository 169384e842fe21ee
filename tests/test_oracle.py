"""Every engine against a brute-force enumerator (tests/oracle.py) on random small boards.

Status, the number of solutions (through ``max_solutions``) and uniqueness must agree exactly;
every solution returned must pass the independent rule checker. The default run covers a fixed
seed's boards; ``pytest -m slow`` runs many more.
"""

from __future__ import annotations

import random

import pytest

from hashikit.checker import check
from hashikit.model import Puzzle
from hashikit.solvers import ENGINES, capabilities, solve

from oracle import count_solutions, random_board

CAP = 12  # solutions compared per board
#: milp builds a fresh SCIP model per solution (about 0.1-0.3 s each): fewer per board
CAPS = {"milp": 4}


def engines():
    out = []
    for name in ENGINES:
        try:
            solve(Puzzle.from_grid([[1, 1]]), engine=name)
        except Exception as exc:  # an engine whose package is missing is skipped, not failed
            out.append(pytest.param(name, marks=pytest.mark.skip(reason=f"{name}: {exc}")))
            continue
        out.append(name)
    return out


def supports_enumeration(engine: str) -> bool:
    res = solve(Puzzle.from_grid([[3, 0, 3], [0, 0, 0], [3, 0, 3]]), engine=engine, max_solutions=3)
    return len(res.solutions) == 2  # this square has exactly two solutions (counted by hand above)


def valid(puzzle: Puzzle, solution) -> bool:
    """The rule checker's verdict, and for the no-loops variant no cycle: a connected set of
    used links with one fewer than islands is a tree."""
    if not check(puzzle, solution).ok:
        return False
    return not puzzle.no_loops or len(solution.bridges) == len(puzzle.islands) - 1


def agree(engine: str, grid, mb: int, enumerate_: bool, no_loops: bool = False) -> str | None:
    """None when the engine agrees with the oracle on this board, else what differs."""
    puzzle = Puzzle.from_grid(grid, mb, no_loops=no_loops)
    cap = CAPS.get(engine, CAP)
    want, _ = count_solutions(grid, mb, no_loops=no_loops, cap=cap + 1)
    if not enumerate_:
        res = solve(puzzle, engine=engine)
        if (want > 0) != res.solved:
            return f"status {res.status}, oracle counts {want}"
        if res.solved and not valid(puzzle, res.solution):
            return "returned an invalid solution"
        return None
    res = solve(puzzle, engine=engine, max_solutions=cap)
    got = len(res.solutions)
    if (want > 0) != res.solved:
        return f"status {res.status}, oracle counts {want}"
    if got != min(want, cap):
        return f"{got} solutions, oracle {want}"
    if len(set(res.solutions)) != got:
        return "the same solution twice"
    if want <= cap - 1 and want and not res.complete:
        return f"all {want} found but not called complete"
    for sol in res.solutions:
        if not valid(puzzle, sol):
            return "returned an invalid solution"
    # the uniqueness question as asked by `--unique`
    res2 = solve(puzzle, engine=engine, max_solutions=2)
    if want and res2.unique is not (want == 1):
        return f"unique={res2.unique}, oracle counts {want}"
    return None


def run_boards(engine: str, n: int, seed: int, no_loops: bool = False) -> list[str]:
    rng = random.Random(seed)
    enumerate_ = supports_enumeration(engine)
    bad = []
    for _ in range(n):
        grid, mb = random_board(rng, trees=0.5 if no_loops else 0.0)
        why = agree(engine, grid, mb, enumerate_, no_loops)
        if why:
            bad.append(f"{why}: maxbridges {mb}, no_loops {no_loops}, grid {grid}")
    return bad


def no_loops_engines():
    return [e for e in engines() if not isinstance(e, str) or capabilities(e).no_loops]


ISSUE_8_BOARD = ["35432.", "35.4.1", "132343"]

#: boards on which the sat engine miscounted before the fix of issue 8 (found by this oracle)
MISCOUNTED = [
    (2, [[3, 5, 2, 3, 0], [1, 5, 0, 6, 3], [2, 0, 1, 6, 6], [4, 5, 0, 6, 4], [2, 0, 0, 6, 4], [0, 2, 0, 4, 2]]),
    (2, [[3, 5, 2], [4, 4, 0], [4, 4, 0], [0, 0, 0], [4, 4, 0], [4, 4, 0]]),
    (3, [[0, 0, 1, 3], [5, 4, 0, 5], [8, 4, 3, 0], [4, 2, 0, 0], [1, 0, 4, 4], [2, 5, 4, 3]]),
    (2, [[3, 0, 4, 4, 0, 4], [3, 0, 6, 6, 0, 4], [0, 0, 2, 4, 2, 0]]),
    (2, [[0, 0, 1, 4, 4], [0, 0, 4, 7, 6], [2, 4, 4, 6, 4], [0, 0, 2, 0, 0], [0, 2, 4, 2, 0]]),  # was a false "unique"
    (3, [[0, 3, 0, 0, 2], [5, 8, 0, 0, 5], [0, 3, 0, 0, 4], [0, 5, 0, 2, 0], [2, 2, 3, 0, 4]]),
]


@pytest.mark.parametrize("engine", engines())
@pytest.mark.parametrize("mb, grid", MISCOUNTED)
def test_boards_once_miscounted(engine, mb, grid):
    assert agree(engine, grid, mb, supports_enumeration(engine)) is None


def test_the_oracle_counts_boards_counted_by_hand():
    # four 2s on a square: only the ring of single bridges (two doubles would leave two pairs)
    assert count_solutions([[2, 0, 2], [0, 0, 0], [2, 0, 2]], 2)[0] == 1
    # four 3s: top = bottom = a, left = right = 3 - a, a in {1, 2}
    assert count_solutions([[3, 0, 3], [0, 0, 0], [3, 0, 3]], 2)[0] == 2
    # a plus sign: the middle crossing links exclude each other
    assert count_solutions([[0, 1, 0], [1, 0, 1], [0, 1, 0]], 2)[0] == 0
    # no loops: the ring of four 2s is a cycle
    assert count_solutions([[2, 0, 2], [0, 0, 0], [2, 0, 2]], 2, no_loops=True)[0] == 0


@pytest.mark.parametrize("engine", engines())
def test_issue_8_board_is_not_unique(engine):
    grid = [[int(ch) if ch != "." else 0 for ch in line] for line in ISSUE_8_BOARD]
    want, _ = count_solutions(grid, 2, cap=50)
    assert want >= 2
    puzzle = Puzzle.from_grid(grid)
    res = solve(puzzle, engine=engine, max_solutions=2)
    assert res.solved
    if supports_enumeration(engine):
        assert res.unique is False
        assert len(res.solutions) == 2 and res.solutions[0] != res.solutions[1]
        assert all(check(puzzle, s).ok for s in res.solutions)
        res_all = solve(puzzle, engine=engine, max_solutions=100)
        assert len(res_all.solutions) == want and res_all.complete


@pytest.mark.parametrize("engine", engines())
def test_engines_agree_with_brute_force(engine):
    n = {"sat": 2000, "milp": 40}.get(engine, 300)  # milp re-solves a fresh model per solution
    bad = run_boards(engine, n, seed=8)
    assert not bad, f"{len(bad)} disagreements, first: {bad[:3]}"


@pytest.mark.slow
@pytest.mark.parametrize("engine", engines())
def test_engines_agree_with_brute_force_many(engine):
    n = 20000 if engine == "sat" else 5000
    bad = run_boards(engine, n, seed=2026)
    assert not bad, f"{len(bad)} disagreements, first: {bad[:3]}"


@pytest.mark.parametrize("engine", no_loops_engines())
def test_no_loops_engines_agree_with_brute_force(engine):
    n = {"sat": 300, "milp": 20}.get(engine, 60)
    bad = run_boards(engine, n, seed=10, no_loops=True)
    assert not bad, f"{len(bad)} disagreements, first: {bad[:3]}"


def test_no_loops_boards_are_mixed():
    """The no-loops runs see solvable boards, unique ones, and boards solvable only with a cycle."""
    rng = random.Random(10)
    kinds = set()
    for _ in range(300):
        grid, mb = random_board(rng, trees=0.5)
        with_rule = count_solutions(grid, mb, no_loops=True, cap=3)[0]
        without = count_solutions(grid, mb, cap=3)[0]
        assert with_rule <= without
        kinds.add((min(with_rule, 2), without > with_rule))
    assert {(1, False), (2, False), (0, True), (1, True)} <= kinds, kinds


@pytest.mark.slow
@pytest.mark.parametrize("engine", no_loops_engines())
def test_no_loops_engines_agree_with_brute_force_many(engine):
    bad = run_boards(engine, 5000, seed=2027, no_loops=True)
    assert not bad, f"{len(bad)} disagreements, first: {bad[:3]}"
