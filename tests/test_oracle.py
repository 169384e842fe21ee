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
from hashikit.solvers import ENGINES, solve

from oracle import count_solutions, random_board

CAP = 12  # solutions compared per board


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


def agree(engine: str, grid, mb: int, enumerate_: bool) -> str | None:
    """None when the engine agrees with the oracle on this board, else what differs."""
    puzzle = Puzzle.from_grid(grid, mb)
    want, _ = count_solutions(grid, mb, cap=CAP + 1)
    if not enumerate_:
        res = solve(puzzle, engine=engine)
        if (want > 0) != res.solved:
            return f"status {res.status}, oracle counts {want}"
        if res.solved and not check(puzzle, res.solution).ok:
            return "returned an invalid solution"
        return None
    res = solve(puzzle, engine=engine, max_solutions=CAP)
    got = len(res.solutions)
    if (want > 0) != res.solved:
        return f"status {res.status}, oracle counts {want}"
    if got != min(want, CAP):
        return f"{got} solutions, oracle {want}"
    if len(set(res.solutions)) != got:
        return "the same solution twice"
    if want <= CAP - 1 and want and not res.complete:
        return f"all {want} found but not called complete"
    for sol in res.solutions:
        if not check(puzzle, sol).ok:
            return "returned an invalid solution"
    # the uniqueness question as asked by `--unique`
    res2 = solve(puzzle, engine=engine, max_solutions=2)
    if want and res2.unique is not (want == 1):
        return f"unique={res2.unique}, oracle counts {want}"
    return None


def run_boards(engine: str, n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    enumerate_ = supports_enumeration(engine)
    bad = []
    for _ in range(n):
        grid, mb = random_board(rng)
        why = agree(engine, grid, mb, enumerate_)
        if why:
            bad.append(f"{why}: maxbridges {mb}, grid {grid}")
    return bad


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
    n = 2000 if engine == "sat" else 300
    bad = run_boards(engine, n, seed=8)
    assert not bad, f"{len(bad)} disagreements, first: {bad[:3]}"


@pytest.mark.slow
@pytest.mark.parametrize("engine", engines())
def test_engines_agree_with_brute_force_many(engine):
    n = 20000 if engine == "sat" else 5000
    bad = run_boards(engine, n, seed=2026)
    assert not bad, f"{len(bad)} disagreements, first: {bad[:3]}"
