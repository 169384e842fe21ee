"""The deduction engine: each rule on a small puzzle, soundness on real puzzles, grades."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hashikit.checker import check
from hashikit.logic import (LEVELS, State, Step, apply, contradiction, grade, next_step, solve_logically)
from hashikit.logic import rules as R
from hashikit.model import Puzzle, Solution

SHARED = Path(__file__).resolve().parents[2] / "shared"
REAL = SHARED / "puzzles" / "real"


def P(*rows: str) -> Puzzle:
    return Puzzle.from_grid([[0 if ch == "." else int(ch) for ch in row] for row in rows])


def link(p: Puzzle, a: tuple[int, int], b: tuple[int, int]) -> int:
    i, j = sorted((p.index[a], p.index[b]))
    return p.link_index[(i, j)]


def first(rule, st: State, island: int | None = None) -> Step:
    for step in rule(st):
        if island is None or island in step.islands:
            return step
    raise AssertionError(f"{rule.__name__} did not fire")


# ----------------------------------------------------------------------------- easy rules
def test_fill_two_neighbours_sentence():
    p = P("2.4.2")
    step = first(R.rule_fill, State(p), island=p.index[(0, 2)])
    assert step.rule == "fill" and step.level == "easy"
    assert step.sentence == ("The 4 at row 1, column 3 has only two neighbours it can still reach, "
                             "so it needs two bridges to each.")
    assert sorted(step.changes) == [(0, 2, 2), (1, 2, 2)]


def test_at_least_three_with_two_neighbours():
    p = P("2.3.2")
    step = first(R.rule_at_least, State(p), island=p.index[(0, 2)])
    assert sorted(step.changes) == [(0, 1, 2), (1, 1, 2)]
    assert step.sentence.startswith("The 3 at row 1, column 3 can get at most two bridges from its other "
                                    "neighbours, so it needs at least one bridge to the 2 at row 1, column 1")


def test_finished_island_takes_no_more():
    p = P("1.2", "...", "2..")
    k_right, k_down = link(p, (0, 0), (0, 2)), link(p, (0, 0), (2, 0))
    st = State(p)
    st.lo[k_right] = 1
    step = first(R.rule_finished, st, island=0)
    assert step.changes == ((k_down, 0, 0),)
    assert step.sentence == ("The 1 at row 1, column 1 already has its bridge, so no more bridges can go to "
                             "the 2 at row 3, column 1.")


def test_blocked_by_crossing_bridge():
    p = P(".1.", "1.1", ".1.")
    h, v = link(p, (1, 0), (1, 2)), link(p, (0, 1), (2, 1))
    assert p.crossings == ((h, v),)
    st = State(p)
    st.lo[h] = 1
    step = first(R.rule_blocked, st)
    assert step.changes == ((v, 0, 0),)
    assert step.sentence == ("A bridge between the 1 at row 1, column 2 and the 1 at row 3, column 2 would "
                             "cross the bridge from row 2, column 1 to row 2, column 3, so they cannot be joined.")


def test_room_limits_a_link():
    p = P("3.2", "...", "2..")
    k_right, k_down = link(p, (0, 0), (0, 2)), link(p, (0, 0), (2, 0))
    st = State(p)
    st.lo[k_right] = st.hi[k_right] = 2
    step = first(R.rule_room, st, island=0)
    assert step.changes == ((k_down, 0, 1),)
    assert step.sentence == ("The 3 at row 1, column 1 already has two bridges elsewhere, so at most one "
                             "bridge can go to the 2 at row 3, column 1.")


# ----------------------------------------------------------------------------- medium rules
def test_isolation_one_one_and_two_two():
    p = P("1.1", "...", "2.2")
    steps = list(R.rule_isolation(State(p)))
    by_link = {s.links[0]: s for s in steps}
    top, bottom = link(p, (0, 0), (0, 2)), link(p, (2, 0), (2, 2))
    assert by_link[top].changes == ((top, 0, 0),)
    assert by_link[top].sentence == ("Joining the 1 at row 1, column 1 and the 1 at row 1, column 3 would complete "
                                     "both of them and leave the pair cut off from the other islands, so there "
                                     "is no bridge between them.")
    assert by_link[bottom].changes == ((bottom, 0, 1),)
    assert by_link[bottom].sentence.startswith("Two bridges between the 2 at row 3, column 1 and the 2 at row 3")
    assert by_link[bottom].sentence.endswith("so they share at most one bridge.")


def test_single_exit_of_a_group():
    p = P("2.2.1", ".....", "1....")
    inner, right, down = link(p, (0, 0), (0, 2)), link(p, (0, 2), (0, 4)), link(p, (0, 0), (2, 0))
    st = State(p)
    st.lo[inner] = 1
    st.hi[right] = 0
    step = first(R.rule_single_exit, st)
    assert step.rule == "single-exit" and step.level == "medium"
    assert step.changes == ((down, 1, 1),)
    assert "only way out left" in step.sentence


# ----------------------------------------------------------------------------- hard rules
def test_group_need():
    p = P("3.3", "...", "2.2")
    inner = link(p, (0, 0), (0, 2))
    st = State(p)
    st.lo[inner] = st.hi[inner] = 1
    step = first(R.rule_group_need, st)
    assert step.level == "hard" and step.changes[0][1] == 2
    assert "still needs four bridges" in step.sentence


def test_cut_link():
    p = P("1.2.1")
    steps = list(R.rule_cut_link(State(p)))
    assert {s.links[0] for s in steps} == {0, 1}
    assert all(s.changes[0][1] == 1 for s in steps)
    assert steps[0].sentence.startswith("Every route between one island on one side and the other 2 runs between")


def test_lookahead():
    p = P("2.1", "...", "2..")
    k = link(p, (0, 0), (0, 2))
    step = first(R.rule_lookahead, State(p))
    assert step.rule == "lookahead" and step.level == "hard"
    assert step.changes == ((k, 1, 1),)
    assert step.sentence.startswith("If no bridge joined the 2 at row 1, column 1 and the 1 at row 1, column 3")


def test_expert_contradiction_rule():
    p = P("2.1", "...", "2..")
    step = first(R.rule_contradiction, State(p))
    assert step.level == "expert" and step.sentence.startswith("Suppose")
    assert "leads to a contradiction" in step.sentence


# ----------------------------------------------------------------------------- engine
def test_next_step_respects_max_level():
    p = P("1.1", "...", "2.2")
    assert next_step(State(p), "easy") is None or next_step(State(p), "easy").level == "easy"
    step = next_step(State(p), "medium")
    assert step is not None and step.level in ("easy", "medium")
    with pytest.raises(ValueError):
        next_step(State(p), "impossible")


def test_solve_logically_small():
    p = P("2.4.2")
    state, steps, stuck = solve_logically(p)
    assert not stuck and state.complete()
    assert check(p, state.solution()).ok
    assert grade(p).level == "easy"


def test_contradiction_messages():
    p = P("2.4.2", ".....", "1...1")
    assert contradiction(State(p)) is None
    # the player drew crossing bridges
    q = P(".1.", "1.1", ".1.")
    player = Solution({((1, 0), (1, 2)): 1, ((0, 1), (2, 1)): 1})
    msg = contradiction(State.from_solution(q, player))
    assert msg == "the bridge from row 2, column 1 to row 2, column 3 crosses the bridge from row 1, column 2 to row 3, column 2"
    # too many bridges at an island
    over = Solution({((0, 0), (0, 2)): 2, ((0, 2), (0, 4)): 2, ((0, 0), (2, 0)): 1})
    msgs = contradiction(State.from_solution(p, over))
    assert "has three bridges, more than its number" in msgs
    # a finished pair cut off
    r = P("1.1", "...", "2.2")
    cut = contradiction(State.from_solution(r, Solution({((0, 0), (0, 2)): 1})))
    assert "complete but cut off" in cut
    # more bridges than a link can carry
    bad = contradiction(State.from_solution(p, Solution({((0, 0), (0, 2)): 3})))
    assert "at most two can join" in bad


def test_player_state_is_lower_bound():
    p = P("2.4.2")
    st = State.from_solution(p, Solution({((0, 0), (0, 2)): 1}))
    assert st.lo[0] == 1 and st.hi[0] == 2
    state, steps, stuck = solve_logically(st)
    assert not stuck and state.lo == [2, 2]


# ----------------------------------------------------------------------------- real puzzles
def _real_unique(limit_islands: int = 60):
    if not REAL.is_dir():
        pytest.skip(f"shared real puzzles not found at {REAL}")
    out = []
    for path in sorted(REAL.glob("*/*.jsonl")):
        for n, line in enumerate(path.read_text().splitlines()):
            d = json.loads(line)
            if d.get("unique") and sum(1 for row in d["grid"] for v in row if v) <= limit_islands:
                out.append((f"{path.parent.name}:{n}", d))
    return out


def test_soundness_on_real_puzzles():
    """Every step keeps the unique solution inside its intervals; the end state is that solution."""
    puzzles = _real_unique()
    assert puzzles
    finished = {level: 0 for level in LEVELS}
    for name, d in puzzles:
        p = Puzzle.from_grid(d["grid"], d.get("maxb", 2))
        sol = Solution.from_list(d["solution_bridges"]).counts(p)
        st = State(p)
        hardest = 0
        while not st.complete():
            step = next_step(st, "expert")
            if step is None:
                break
            for k, lo, hi in step.changes:
                assert lo <= sol[k] <= hi, f"{name}: unsound step {step}"
            assert apply(st, step)
            hardest = max(hardest, LEVELS.index(step.level))
        if st.complete():
            assert st.lo == sol, name
            assert check(p, st.solution()).ok, name
            finished[LEVELS[hardest]] += 1
    assert sum(finished.values()) >= 0.9 * len(puzzles), finished


def test_grades_of_known_puzzles():
    puzzles = dict(_real_unique())
    key = "hcmus_csc14003:31"
    if key not in puzzles:
        pytest.skip("hcmus puzzle 31 not in the shared set")
    g = grade(Puzzle.from_grid(puzzles[key]["grid"]))
    assert g.level == "expert" and g.steps_per_level["expert"] >= 1
    g30 = grade(Puzzle.from_grid(puzzles["hcmus_csc14003:30"]["grid"]))
    assert g30.level == "hard"
    wiki = grade(Puzzle.from_grid(puzzles["janko_wikipedia:0"]["grid"]))
    assert wiki.level in LEVELS and wiki.score > 0


def test_deducer_takes_the_steps_of_next_step():
    """The incremental engine (solve_logically, fast_level) takes exactly next_step's steps."""
    import random

    from hashikit.generate import random_solution
    for seed in range(6):
        p = random_solution(8, 8, random.Random(seed))[0]
        ref, st = [], State(p)
        while not st.complete():
            step = next_step(st, "hard")
            if step is None:
                break
            apply(st, step)
            ref.append(step)
        state, steps, _stuck = solve_logically(p, "hard")
        assert steps == ref
        assert state == st
        fast_state, used, _ = R.fast_level(p, "hard")
        assert fast_state == st
        assert used == max([LEVELS.index(s.level) for s in ref], default=0)


def test_lookahead_groups_match_the_plain_check():
    """rule_lookahead's shortcut for closed groups finds what _closed_group finds."""
    import random

    from hashikit.generate import random_solution
    for seed in range(4):
        p = random_solution(9, 9, random.Random(seed))[0]
        st, _steps, _stuck = solve_logically(p, "medium")
        groups = R._Groups(st)
        for k in st.undecided():
            for full in (False, True):
                assert R._lookahead_reason(st, k, full, groups) == R._lookahead_reason(st, k, full)


def test_carried_deducer_takes_the_steps_of_next_step():
    """A deducer started from its parent's (the generator's repairs) still takes next_step's steps,
    and every link its lookahead holds clean has no lookahead step."""
    from hashikit import generate as G
    runs = []
    carry = G._carry

    def checked(engine, old, new, cells):
        d = carry(engine, old, new, cells)
        taken: list = []
        runs.append((d, d.st.copy(), taken))
        run = d.run
        d.run = lambda level, max_steps=None, steps=None: run(level, max_steps, taken)
        return d

    G._carry = checked
    try:
        for seed in range(3):
            G.generate_unique(10, 10, "hard", seed=seed, verify=False)
    finally:
        G._carry = carry
    assert runs
    for d, start, taken in runs[:60]:
        ref, st = [], start
        while not st.complete() and all(a <= b for a, b in zip(st.lo, st.hi)):
            step = next_step(st, "hard")
            if step is None:
                break
            apply(st, step)
            ref.append(step)
        assert taken == ref
        assert st.lo == d.st.lo and st.hi == d.st.hi
        groups = R._Groups(d.st)
        for k in d.st.undecided():
            if not d.la_flag[k]:
                assert R._lookahead_reason(d.st, k, False, groups) is None
                assert R._lookahead_reason(d.st, k, True, groups) is None
