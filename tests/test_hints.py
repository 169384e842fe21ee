"""Hints a player can always act on: a hint places bridges or hands out marks the board can hold
("no bridge here", or at most n bridges on a link), and following hints alone solves a puzzle."""

from __future__ import annotations

import pytest

from hashikit.checker import check
from hashikit.errors import PuzzleError
from hashikit.logic import State, contradiction, hint, hint_bridges, hint_marks, next_step
from hashikit.model import Puzzle, Solution

from conftest import real_records, record_puzzle


def P(*rows: str) -> Puzzle:
    return Puzzle.from_grid([[0 if ch == "." else int(ch) for ch in row] for row in rows])


def follow_hints(puzzle: Puzzle, limit: int = 10_000) -> tuple[Solution, int]:
    """Play from an empty board by applying each hint's bridges and marks; the final board."""
    counts = [0] * len(puzzle.links)
    marks: dict[int, int] = {}
    for taken in range(limit):
        state = State.from_board(puzzle, Solution.from_counts(puzzle, counts), marks.items())
        if state.complete():
            return state.solution(), taken
        step = hint(state)
        assert step is not None, f"no hint after {taken} (board {counts}, marks {marks})"
        placed, marked = hint_bridges(state, step), hint_marks(state, step)
        assert placed or marked, f"a hint the board cannot hold: {step}"
        for k, count in placed:
            counts[k] = count
        for k, most in marked:
            marks[k] = most
    raise AssertionError("hints did not finish")


def _published_unique():
    out = [(name, rec) for name, rec in real_records() if rec.get("unique")]
    if not out:
        pytest.skip("shared published puzzles not found (../shared/puzzles/real)")
    return out


def _follow(records):
    for name, rec in records:
        p = record_puzzle(rec)
        solution, _taken = follow_hints(p)
        assert check(p, solution).ok, name


def test_hints_alone_solve_the_published_unique_puzzles_up_to_40_islands():
    _follow([(n, r) for n, r in _published_unique() if sum(1 for row in r["grid"] for v in row if v) <= 40])


@pytest.mark.slow
def test_hints_alone_solve_every_published_unique_puzzle():
    _follow([(n, r) for n, r in _published_unique() if sum(1 for row in r["grid"] for v in row if v) > 40])


def test_hint_prefers_a_bridge_at_the_lowest_level():
    # the 1 at the left is finished-by-nothing; the first easy step in table order only rules out,
    # but a bridge-placing easy step exists: the hint is that one
    p = P("1.3.2", ".....", "2....")
    st = State(p)
    first = next_step(st)
    h = hint(st)
    assert h.level == first.level
    assert hint_bridges(st, h)


def test_exclusion_only_hint_comes_with_marks():
    """Where every lowest-level step only rules bridges out, the hint carries them as marks."""
    import random

    from hashikit.generate import random_solution
    from hashikit.logic import solve_logically

    found = 0
    for seed in range(20):
        if found:
            break
        p = random_solution(7, 7, random.Random(seed))[0]
        _state, steps, _stuck = solve_logically(p)
        st = State(p)
        for step in steps:
            h = hint(st)
            if not hint_bridges(st, h):
                marks = hint_marks(st, h)
                assert marks
                board = State.from_board(p, st.solution(), marks)
                assert all(board.hi[k] == most for k, most in marks)
                found += 1
                break
            for k, lo, hi in step.changes:
                st.lo[k], st.hi[k] = max(st.lo[k], lo), min(st.hi[k], hi)
    assert found >= 1


def test_board_marks_by_cells_and_errors():
    p = P("2.4.2")
    st = State.from_board(p, None, [(((0, 0), (0, 2)), 1)])
    assert st.hi[0] == 1
    with pytest.raises(PuzzleError):
        State.from_board(p, None, [(((0, 0), (0, 4)), 1)])
    with pytest.raises(PuzzleError):
        State.from_board(p, None, [(0, -1)])
    # a drawn bridge above the player's own mark is named
    bad = State.from_board(p, Solution({((0, 0), (0, 2)): 2}), [(0, 1)])
    assert "your mark there allows at most one" in contradiction(bad)
