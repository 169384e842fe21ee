"""Levels: easy/medium/hard are Tatham's solver stages; grades and generated puzzles agree with an
independent model of his stages (tests/tatham_stages.py), and never call a puzzle with several
solutions graded (the brute-force oracle, tests/oracle.py).

One known difference is kept on purpose and tested as such: with MAXBRIDGES 3 or 4 his stage 1
counts the room of a link that already has bridges from the other island's whole number
(``exact_room=False`` in the model); ours counts what that island can still take.  Ours must
agree with the model counting room exactly on every board, and the two model readings must
agree whenever MAXBRIDGES is 1 or 2."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from hashikit.checker import check
from hashikit.generate import generate_unique, random_solution, tatham_layout
from hashikit.logic import LEVELS, Deducer, State, grade, solve_logically
from hashikit.model import Puzzle

from conftest import need, real_records, REAL
from oracle import count_solutions, random_board
from tatham_stages import board_at, stage_pass, tatham_level

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
        assert _his(p) == difficulty, (difficulty, seed)
        assert check(p, solution).ok


def test_generated_at_tatham_parameters():
    for seed, difficulty in enumerate(["easy", "medium", "hard"]):
        p, solution, g = generate_unique(10, 10, difficulty, seed=seed, islands_percent=30, expansion=10)
        assert g.level == difficulty and _his(p) == difficulty
        assert _no_neighbours(p) and check(p, solution).ok


def _his(p: Puzzle) -> str | None:
    """His grade, as his solver reads it (MAXBRIDGES 1-2) or with the room counted exactly (3-4)."""
    exact = TATHAM[tatham_level(p, exact_room=True)]
    if p.maxbridges <= 2:
        assert TATHAM[tatham_level(p)] == exact, "the room reading matters only with MAXBRIDGES 3-4"
    return exact


def _random_boards(maxbridges: int, count: int, no_loops: bool = False):
    for seed in range(count):
        rng = random.Random(seed)
        size = rng.choice([5, 7, 9])
        if seed % 2:
            p, _ = tatham_layout(size, size, rng, maxbridges=maxbridges, no_loops=no_loops)
        else:
            p, _ = random_solution(size, size, rng, maxbridges=maxbridges, cycles=0 if no_loops else 0.25)
        yield seed, (Puzzle(p.rows, p.cols, p.islands, p.maxbridges, no_loops=True) if no_loops else p)


def test_his_room_makes_his_own_grade_depend_on_the_island_order():
    """Why ours counts a link's room exactly (MAXBRIDGES 3-4): counted his way, the room is not
    monotone (a bridge drawn on a link can make it look larger), so his stages grade this board
    hard when they visit the islands in reading order (his order for a loaded game) and easy in
    the reverse order; his generator grades in the order it placed the islands, which a game ID
    does not record.  Counted exactly, both orders agree with ours."""
    rows = ["5..7..5", ".......", "7.6.2.7", ".......", ".......", "..3....", "2..4..2"]
    p = Puzzle.from_grid([[0 if ch == "." else int(ch) for ch in row] for row in rows], 3)
    backwards = range(len(p.islands) - 1, -1, -1)
    assert (tatham_level(p), tatham_level(p, order=backwards)) == (2, 0)
    assert tatham_level(p, exact_room=True) == tatham_level(p, exact_room=True, order=backwards) == 0
    assert _ours(p) == "easy"


@pytest.mark.parametrize("maxbridges", [1, 2, 3, 4])
def test_grades_agree_with_tatham_stages_on_random_boards(maxbridges):
    """Ours up to hard and his stages agree on random layouts (published-like and his own)."""
    for seed, p in _random_boards(maxbridges, 25):
        assert _ours(p) == _his(p), (maxbridges, seed)


def _bound(board, k: int) -> tuple[int, int]:
    """His interval for link ``k``: (bridges, most it can still get)."""
    if board.possible(k) == 0 or board.is_marked_link(k):
        return board.cur[k], board.cur[k]
    return board.cur[k], min(board.possible(k), board.most[k])


#: our easy steps that his solver takes without a stage: a crossed link's possible count is 0, a
#: full island's links are marked
_AUTOMATIC = {"blocked", "finished"}


def _steps_are_his(p: Puzzle) -> None:
    """Each step we take is one his stage of that level takes at that island from the same state
    (his result at least as narrow), and where our rules stop at a level his stages up to that
    level change nothing.  The grade alone would miss a rule that others make up for."""
    state = State(p)
    engine = Deducer(state)
    for level in range(3):
        while (step := engine.next_step(level)) is not None:
            rank = LEVELS.index(step.level)
            if step.rule not in _AUTOMATIC:
                his = board_at(p, state.lo, state.hi)
                getattr(his, f"stage{rank + 1}")(step.islands[0])
                for k, lo, hi in step.changes:
                    got = _bound(his, k)
                    assert got[0] >= lo and got[1] <= hi, (step.rule, step.sentence, got)
            engine.apply(step)
        if engine.bad:
            return
        his = board_at(p, state.lo, state.hi)
        for stage in range(level + 1):
            assert not stage_pass(his, stage), (LEVELS[level], f"his stage {stage + 1} goes on")


@pytest.mark.parametrize("maxbridges", [1, 2, 3, 4])
def test_each_step_is_one_his_stages_take(maxbridges):
    for seed, p in _random_boards(maxbridges, 12):
        _steps_are_his(p)
    for seed, p in _random_boards(maxbridges, 6, no_loops=True):
        _steps_are_his(p)


@pytest.mark.slow
@pytest.mark.parametrize("no_loops", [False, True])
@pytest.mark.parametrize("maxbridges", [1, 2, 3, 4])
def test_grades_agree_with_tatham_stages_on_many_random_boards(maxbridges, no_loops):
    for seed, p in _random_boards(maxbridges, 400, no_loops):
        assert _ours(p) == _his(p), (maxbridges, no_loops, seed)
        _steps_are_his(p)


def _generated_cases():
    for maxbridges in (1, 2, 3, 4):
        for no_loops in (False, True):
            for difficulty in ("easy", "medium", "hard"):
                if maxbridges == 1 and difficulty == "medium" and not no_loops:
                    continue  # refused: his medium adds nothing to easy then (tested below)
                if maxbridges == 1 and difficulty == "hard":
                    continue  # the generator finds none in its 200 layouts (1 random board in 400 is)
                yield maxbridges, no_loops, difficulty


@pytest.mark.parametrize("maxbridges,no_loops,difficulty", list(_generated_cases()))
def test_generated_at_every_level_and_maxbridges_grade_the_same_by_his_stages(maxbridges, no_loops, difficulty):
    """What we generate at a level is what his stages grade at that level: MAXBRIDGES 1-4, with
    and without the no-loops rule."""
    p, solution, g = generate_unique(8, 8, difficulty, seed=11, maxbridges=maxbridges, no_loops=no_loops)
    assert (g.level, p.maxbridges, p.no_loops) == (difficulty, maxbridges, no_loops)
    assert check(p, solution).ok
    assert _ours(p) == difficulty
    assert _his(p) == difficulty


def _published(max_islands: int | None):
    out = []
    for rid, rec in real_records():
        if rec.get("solvable", True) is False:
            continue
        p = Puzzle.from_grid(rec["grid"], rec.get("maxb", 2), no_loops=not rec.get("allowloops", True))
        if max_islands is None or len(p.islands) <= max_islands:
            out.append((rid, p))
    return out


def _published_agree(max_islands: int | None) -> int:
    need(REAL)
    cases = _published(max_islands)
    assert cases, f"no published puzzles read under {REAL}"
    for rid, p in cases:
        assert _ours(p) == _his(p), rid
    return len(cases)


def test_published_puzzles_grade_as_his_stages():
    """Every published puzzle up to 40 islands (about two thirds of them): his stages and ours
    give the same level (or both get stuck)."""
    assert _published_agree(40) >= 60


@pytest.mark.slow
def test_all_published_puzzles_grade_as_his_stages():
    """All of them (the model is slow on the 100-260 island boards: about 90 s)."""
    _published_agree(None)


def test_no_loops_grades_agree_with_tatham_stages():
    for seed in range(25):
        rng = random.Random(seed)
        base, _ = tatham_layout(7, 7, rng, no_loops=True)
        p = Puzzle(base.rows, base.cols, base.islands, base.maxbridges, no_loops=True)
        assert _ours(p) == _his(p), seed


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
    assert _his(p) == difficulty


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
        with pytest.raises(ValueError, match="MAXBRIDGES 1"):
            generate_unique(8, 8, "medium", seed=2, maxbridges=1)
    p, solution, g = generate_unique(8, 8, "medium", seed=2, maxbridges=maxbridges, no_loops=maxbridges == 1)
    assert p.maxbridges == maxbridges and g.level == "medium"
    assert max(solution.bridges.values()) <= maxbridges and check(p, solution).ok
    assert _his(p) == "medium"
