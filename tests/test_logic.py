"""The deducer: each rule on a small puzzle, soundness on real puzzles, grades."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hst

from conftest import pure_only
from hashikit.checker import check
from hashikit.generate import random_solution, tatham_layout
from hashikit.logic import (LEVELS, RULES, Deducer, State, Step, apply, contradiction, grade, next_step,
                            solve_logically)
from hashikit.logic import expert as X
from hashikit.logic.closure import close, step_levels
from hashikit.logic.groups import LookaheadGroups
from hashikit.logic.state import word
from hashikit.model import Puzzle, Solution

SHARED = Path(__file__).resolve().parents[2] / "shared"
REAL = SHARED / "puzzles" / "real"
RULE = {r.name: r for r in RULES}


def P(*rows: str, no_loops: bool = False) -> Puzzle:
    return Puzzle.from_grid([[0 if ch == "." else int(ch) for ch in row] for row in rows], no_loops=no_loops)


def link(p: Puzzle, a: tuple[int, int], b: tuple[int, int]) -> int:
    i, j = sorted((p.index[a], p.index[b]))
    return p.link_index[(i, j)]


def steps_of(name: str, st: State) -> list[Step]:
    """Every step the rule ``name`` finds on ``st``."""
    rule = RULE[name]
    d = Deducer(st.copy())
    if rule.scope == "board":
        return list(rule.test(d))
    size = {"island": st.geo.n, "link": st.geo.nlinks, "crossing": len(st.geo.crossings)}[rule.scope]
    return [s for s in (rule.test(d, x) for x in range(size)) if s is not None]


def first(name: str, st: State, island: int | None = None) -> Step:
    for step in steps_of(name, st):
        if island is None or island in step.islands:
            assert step.rule == name or RULE[name].level == "hard", step
            return step
    raise AssertionError(f"{name} did not fire")


# ----------------------------------------------------------------------------- easy (Tatham stage 1)
def test_fill_two_neighbours_sentence():
    p = P("2.4.2")
    step = first("fill", State(p), island=p.index[(0, 2)])
    assert step.rule == "fill" and step.level == "easy"
    assert step.sentence == ("The 4 at row 1, column 3 has only two neighbours it can still reach, "
                             "so it needs two bridges to each.")
    assert sorted(step.changes) == [(0, 2, 2), (1, 2, 2)]


def test_fill_caps_a_link_at_what_the_island_misses():
    # the 2 has its bridge to the right: it misses one, and its link down gets exactly one more
    p = P("2.2", "...", "3..")
    right, down = link(p, (0, 0), (0, 2)), link(p, (0, 0), (2, 0))
    st = State(p)
    st.lo[right] = st.hi[right] = 1
    step = first("fill", st, island=0)
    assert step.changes == ((down, 1, 2),)


def test_one_each_needs_number_above_maxbridges_times_directions_minus_one():
    p = P("2.3.2")
    step = first("one-each", State(p), island=p.index[(0, 2)])
    assert step.level == "easy" and sorted(step.changes) == [(0, 1, 2), (1, 1, 2)]
    assert "needs at least one bridge to" in step.sentence
    # a 2 with two directions: 2 <= 2 * 1, nothing follows in stage 1
    assert not [s for s in steps_of("one-each", State(P("1.2.2"))) if 1 in s.islands]


def test_finished_island_takes_no_more():
    p = P("1.2", "...", "2..")
    k_right, k_down = link(p, (0, 0), (0, 2)), link(p, (0, 0), (2, 0))
    st = State(p)
    st.lo[k_right] = 1
    step = first("finished", st, island=0)
    assert step.changes == ((k_down, 0, 0),)
    assert step.sentence == ("The 1 at row 1, column 1 already has its bridge, so no more bridges can go to "
                             "the 2 at row 3, column 1.")


def test_blocked_by_crossing_bridge():
    p = P(".1.", "1.1", ".1.")
    h, v = link(p, (1, 0), (1, 2)), link(p, (0, 1), (2, 1))
    assert p.crossings == ((h, v),)
    st = State(p)
    st.lo[h] = 1
    step = first("blocked", st)
    assert step.changes == ((v, 0, 0),)
    assert step.sentence == ("A bridge between the 1 at row 1, column 2 and the 1 at row 3, column 2 would "
                             "cross the bridge from row 2, column 1 to row 2, column 3, so they cannot be joined.")


# ----------------------------------------------------------------------------- medium (stage 2)
def test_at_least_one_adds_a_first_bridge_only():
    # the 3 can get at most two from the right (a 2), so it needs one to the left; never two at once
    p = P("3.3.2", ".....", "2....")
    st = State(p)
    i = p.index[(0, 2)]
    step = first("at-least-one", st, island=i)
    k = link(p, (0, 0), (0, 2))
    assert step.level == "medium" and (k, 1, 2) in step.changes
    assert all(lo == 1 for _k, lo, _hi in step.changes)


def test_no_loop_rule_only_in_no_loops_puzzles():
    rows = ("2.2", "...", "2.2")
    for no_loops in (False, True):
        p = P(*rows, no_loops=no_loops)
        st = State(p)
        top, left, right = link(p, (0, 0), (0, 2)), link(p, (0, 0), (2, 0)), link(p, (0, 2), (2, 2))
        st.lo[top] = st.lo[left] = st.lo[right] = 1
        found = steps_of("no-loop", st)
        if not no_loops:
            assert found == []
        else:
            bottom = link(p, (2, 0), (2, 2))
            assert found and found[0].changes == ((bottom, 0, 0),)
            assert "close a loop" in found[0].sentence


# ----------------------------------------------------------------------------- hard (stage 3)
def test_what_if_room():
    p = P("3.2", "...", "2.1")
    k_right, k_down = link(p, (0, 0), (0, 2)), link(p, (0, 0), (2, 0))
    st = State(p)
    st.lo[k_right] = st.hi[k_right] = 2
    st.hi[link(p, (0, 2), (2, 2))] = 0
    step = first("what-if", st, island=p.index[(2, 0)])
    assert step.rule == "room" and step.level == "hard"
    assert step.changes == ((k_down, 0, 1),)
    assert step.sentence.startswith("The 3 at row 1, column 1 can take only one bridge more")


def test_what_if_isolation_one_one_and_two_two():
    p = P("1.1", "...", "2.2")
    top, bottom = link(p, (0, 0), (0, 2)), link(p, (2, 0), (2, 2))
    by_link = {s.links[0]: s for s in steps_of("what-if", State(p))}
    assert by_link[top].rule == "isolation" and by_link[top].changes == ((top, 0, 0),)
    assert by_link[top].sentence == ("One bridge between the 1 at row 1, column 1 and the 1 at row 1, column 3 "
                                     "would complete both of them and leave their group cut off from the other "
                                     "islands; so there is no bridge between them.")
    assert by_link[bottom].changes == ((bottom, 0, 1),)
    assert by_link[bottom].sentence.endswith("so they share at most one bridge.")


def test_what_if_starve():
    # a bridge 2-2 across the middle would cut the 1s at the top and bottom off from each other
    p = P(".1.", "2.2", ".1.")
    found = [s for s in steps_of("what-if", State(p)) if s.rule == "starve"]
    assert found and found[0].changes[0][2] == 0
    assert "could no longer get all" in found[0].sentence


def test_must_exit():
    # Tatham's own example: the 3 joined to both the 1 and the 2 would close a group off
    p = P("1.3.2", ".....", "..4..")
    i = p.index[(0, 2)]
    step = first("must-exit", State(p), island=i)
    assert step.changes == ((link(p, (0, 2), (2, 2)), 1, 2),)
    assert step.sentence.startswith("If the 3 at row 1, column 3 sent all the bridges it can to")


# ----------------------------------------------------------------------------- expert
def test_at_least_general():
    p = Puzzle.from_grid([[3, 0, 5, 0, 3]], maxbridges=3)
    step = first("at-least", State(p), island=1)
    assert step.level == "expert" and sorted(step.changes) == [(0, 2, 3), (1, 2, 3)]


def test_single_exit_of_a_group():
    p = P("2.2.1", ".....", "1....")
    inner, right, down = link(p, (0, 0), (0, 2)), link(p, (0, 2), (0, 4)), link(p, (0, 0), (2, 0))
    st = State(p)
    st.lo[inner] = 1
    st.hi[right] = 0
    step = first("single-exit", st)
    assert step.level == "expert"
    assert step.changes == ((down, 1, 1),)
    assert "only way out left" in step.sentence


def test_group_need():
    p = P("3.3", "...", "2.2")
    inner = link(p, (0, 0), (0, 2))
    st = State(p)
    st.lo[inner] = st.hi[inner] = 1
    step = first("group-need", st)
    assert step.level == "expert" and step.changes[0][1] == 2
    assert "still needs four bridges" in step.sentence


def test_cut_link():
    p = P("1.2.1")
    steps = steps_of("cut-link", State(p))
    assert {s.links[0] for s in steps} == {0, 1}
    assert all(s.changes[0][1] == 1 for s in steps)
    assert steps[0].sentence.startswith("Every route between one island on one side and the other 2 runs between")


def test_lookahead():
    p = P("2.1", "...", "2..")
    k = link(p, (0, 0), (0, 2))
    step = first("lookahead", State(p))
    assert step.level == "expert"
    assert step.changes == ((k, 1, 1),)
    assert step.sentence.startswith("If no bridge joined the 2 at row 1, column 1 and the 1 at row 1, column 3")


def test_expert_contradiction_rule():
    p = P("2.1", "...", "2..")
    step = first("contradiction", State(p))
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
    wiki = grade(Puzzle.from_grid(puzzles["janko_wikipedia:0"]["grid"]))
    assert wiki.level in LEVELS and wiki.score > 0




def _reference_run(p: Puzzle, level: str) -> tuple[list[Step], State]:
    """Steps taken by a fresh engine at every step (every element looked at again each time)."""
    ref, st = [], State(p) if isinstance(p, Puzzle) else p
    while not st.complete() and all(a <= b for a, b in zip(st.lo, st.hi)):
        step = next_step(st, level)
        if step is None:
            break
        apply(st, step)
        ref.append(step)
    return ref, st


@pytest.mark.parametrize("level", ["hard", "expert"])
def test_incremental_engine_takes_the_steps_of_a_fresh_one(level):
    """The engine wakes every rule a change can affect: its run equals fresh lookups at every step."""
    for seed in range(5 if level == "hard" else 3):
        p = random_solution(8, 8, random.Random(seed))[0]
        ref, st = _reference_run(p, level)
        state, steps, _stuck = solve_logically(p, level)
        assert steps == ref
        assert state == st


def test_no_loops_incremental_engine():
    for seed in range(5):
        base = random_solution(7, 7, random.Random(seed), cycles=0)[0]
        p = Puzzle(base.rows, base.cols, base.islands, base.maxbridges, no_loops=True)
        ref, st = _reference_run(p, "hard")
        state, steps, _stuck = solve_logically(p, "hard")
        assert steps == ref and state == st


def test_lookahead_groups_match_the_plain_check():
    """The lookahead's shortcut for closed groups finds what the plain check finds."""
    for seed in range(4):
        p = random_solution(9, 9, random.Random(seed))[0]
        st, _steps, _stuck = solve_logically(p, "medium")
        groups = LookaheadGroups(st)
        for k in st.undecided():
            for full in (False, True):
                assert X._lookahead_reason(st, k, full, groups) == X._lookahead_reason(st, k, full)


@pure_only
def test_carried_deducer_takes_the_steps_of_a_fresh_one():
    """A deducer started from its parent's (the generator's repairs) takes a fresh engine's steps."""
    from hashikit.generate import unique as G
    runs = []
    carry = G._carry

    def checked(engine, old, new, cells):
        d = carry(engine, old, new, cells)
        taken: list = []
        runs.append((d, d.st.copy(), taken))
        if isinstance(d, G._Closed):  # the closure decided every link: the deducer is not started
            return d
        run = d.run
        d.run = lambda level, max_steps=None, steps=None, deadline=None: run(level, max_steps, taken, deadline)
        return d

    G._carry = checked
    try:
        for seed in range(3):
            G.generate_unique(10, 10, "hard", seed=seed, verify=False)
    finally:
        G._carry = carry
    assert runs and any(isinstance(d, G._Closed) for d, _start, _taken in runs)
    for d, start, taken in runs[:60] + [run for run in runs[60:] if isinstance(run[0], G._Closed)]:
        ref, st = _reference_run(start, "hard")
        assert [_bare(s) for s in taken] == [_bare(s) for s in ref]  # the generator's runs have no words
        assert st.lo == d.st.lo and st.hi == d.st.hi


def _board(seed: int, most: int) -> Puzzle:
    """A random board with a solution, of either layout, 5x5 to 14x14."""
    rng = random.Random(seed)
    size = 5 + seed % 10
    draw = tatham_layout if seed % 2 else random_solution
    return draw(size, size, rng, maxbridges=most)[0]


@pytest.mark.parametrize("most", [1, 2, 3, 4])
def test_closure_ends_where_the_engine_gets_stuck(most):
    """``close`` (island by island, no steps) reaches the state an engine run at easy or medium ends
    in, and says finished exactly when that run finishes."""
    finished = stuck = 0
    for seed in range(40):
        p = _board(seed, most)
        for level in ("easy", "medium"):
            d = Deducer(State(p), suppose=False)
            engine_stuck = d.run(level)
            st = State(p)
            assert close(st, level) is not engine_stuck, (seed, level)
            assert (st.lo, st.hi) == (d.st.lo, d.st.hi), (seed, level)
            finished += not engine_stuck
            stuck += engine_stuck
    assert finished and (stuck or most == 1)  # with MAXBRIDGES 1 these boards all finish at easy


def test_a_settled_deducer_takes_the_rest_of_a_fresh_run():
    """A deducer started on the medium closure with ``settled="medium"`` takes the steps a run from
    scratch takes from its first hard step on, and ends where it ends."""
    compared = 0
    for seed in range(30):
        p = _board(seed, 2)
        full = Deducer(State(p), suppose=False, words=False)
        steps: list = []
        full.run("hard", steps=steps)
        st = State(p)
        close(st, "easy")
        close(st, "medium")
        settled = Deducer(st, suppose=False, words=False, settled="medium")
        rest: list = []
        settled.run("hard", steps=rest)
        first_hard = next((n for n, s in enumerate(steps) if s.level == "hard"), len(steps))
        assert rest == steps[first_hard:], seed
        assert (settled.st.lo, settled.st.hi) == (full.st.lo, full.st.hi)
        compared += bool(rest)
    assert compared


@pytest.mark.parametrize("most", [1, 2, 3, 4])
def test_step_levels_follow_the_engine_at_easy_and_medium(most):
    """``step_levels`` (what the generator's grades read) takes the engine's steps at easy and at
    medium without making them: the same levels in the same order, and the same end state."""
    taken = set()
    for seed in range(40):
        p = _board(seed, most)
        for level in ("easy", "medium"):
            d = Deducer(State(p), suppose=False)
            steps: list = []
            d.run(level, steps=steps)
            st = State(p)
            assert step_levels(st, level) == [s.level for s in steps], (seed, level)
            assert (st.lo, st.hi) == (d.st.lo, d.st.hi), (seed, level)
            taken.update(s.level for s in steps)
    assert "easy" in taken and ("medium" in taken or most == 1)


@pytest.mark.parametrize("level", LEVELS)
def test_a_deducer_working_groups_out_late_takes_the_same_steps(level):
    """``groups=False`` (the generator's deducers) works the certain groups out when a rule that
    reads them may first run: the same steps at every level, no-loops puzzles too."""
    for seed in range(6):
        p = _board(seed, 2)
        if seed % 3 == 2:
            p = random_solution(8, 8, random.Random(seed), cycles=0)[0]
            p = Puzzle(p.rows, p.cols, p.islands, p.maxbridges, no_loops=True)
        runs = []
        for groups in (True, False):
            d = Deducer(State(p), suppose=False, words=False, groups=groups)
            steps: list = []
            stuck = d.run(level, steps=steps)
            runs.append((steps, stuck, d.st.lo, d.st.hi))
        assert runs[0] == runs[1], seed


def test_closure_refuses_no_loops_puzzles_and_other_levels():
    p = random_solution(7, 7, random.Random(1), cycles=0)[0]
    with pytest.raises(ValueError):
        close(State(Puzzle(p.rows, p.cols, p.islands, p.maxbridges, no_loops=True)), "easy")
    with pytest.raises(ValueError):
        close(State(p), "hard")
    with pytest.raises(ValueError):
        step_levels(State(p), "hard")


@pure_only
@pytest.mark.parametrize("level", ["easy", "medium"])
def test_carried_closures_end_where_a_fresh_engine_ends(level):
    """At easy and medium the generator's carried runs are closures from the changed islands'
    links (unique._Closed): each ends in the state an engine run from its start state ends in."""
    from hashikit.generate import unique as G
    runs = []
    carry = G._carry

    def checked(engine, old, new, cells):
        d = carry(engine, old, new, cells)
        runs.append((d, d.st.copy(), len(new.islands) - len(old.islands)))
        return d

    G._carry = checked
    try:
        for seed in range(4):
            G.generate_unique(10, 10, level, seed=seed, verify=False)
            G.generate_unique(10, 10, level, seed=seed, islands_percent=30, expansion=10, verify=False)
        # islands inserted and taken away again (one taken away joins the links across its cell):
        # the first 15x15 medium seed whose repairs do both
        for seed in range(40):
            mark = len(runs)
            G.generate_unique(15, 15, "medium", seed=seed, verify=False)
            made = [run for run in runs[mark:] if isinstance(run[0], G._Closed)]
            if any(moved > 0 for _d, _s, moved in made) and any(moved < 0 for _d, _s, moved in made):
                break
    finally:
        G._carry = carry
    closed = [run for run in runs if isinstance(run[0], G._Closed)]
    assert len(closed) > 10 and any(moved for _d, _start, moved in closed)
    for d, start, _moved in closed:
        fresh = Deducer(start, suppose=False)
        stuck = fresh.run(d.level)
        assert (d.st.lo, d.st.hi) == (fresh.st.lo, fresh.st.hi)
        assert (d.open > 0) == stuck


def _bare(step):
    """The step without its sentence."""
    return dataclasses.replace(step, sentence="")


@pytest.mark.parametrize("level", ["hard", "expert"])
def test_a_deducer_without_words_takes_the_same_steps(level):
    """``words=False`` (the generator's runs) leaves the sentences empty and changes nothing else."""
    for seed in range(4):
        p = random_solution(9, 9, random.Random(seed))[0]
        runs = []
        for words in (True, False):
            d = Deducer(State(p), words=words)
            steps: list = []
            d.run(level, steps=steps)
            runs.append((steps, d.st.lo, d.st.hi))
        (with_words, lo, hi), (without, lo2, hi2) = runs
        assert with_words and all(s.sentence for s in with_words)
        assert not any(s.sentence for s in without if s.level != "expert")
        assert [_bare(s) for s in with_words] == [_bare(s) for s in without]
        assert (lo, hi) == (lo2, hi2)


# ----------------------------------------------------------------------------- faster rules, same steps
def _what_if_reference(d: Deducer, x: int):
    """Tatham's stage-3 trials at island ``x``, every one by the plain check (no kept supplies,
    no islands-at-risk shortcut)."""
    from hashikit.logic import hard as H
    st = d.st
    missing = st.geo.num[x] - d.dlo[x]
    if missing <= 0:
        return None
    for k in st.geo.inc[x]:
        if st.hi[k] <= st.lo[k]:
            continue
        for n in range(st.lo[k] + 1, st.lo[k] + min(st.hi[k] - st.lo[k], missing) + 1):
            found = H._trial_reference(d, x, k, n)
            if found is not None:
                return H._what_if_step(st, x, k, n, *found)
    return None


def _every_trial(d: Deducer) -> list:
    """(island, link, count, what the fast trial finds, what the plain one finds) for every trial."""
    from hashikit.logic import hard as H
    st, out = d.st, []
    for x in range(st.geo.n):
        for k in st.geo.inc[x]:
            for n in range(st.lo[k] + 1, st.hi[k] + 1):
                if d.dlo[x] + n - st.lo[k] <= st.geo.num[x]:
                    out.append((x, k, n, H._trial(d, x, k, n), H._trial_reference(d, x, k, n)))
    return out


@pytest.mark.parametrize("seed", range(6))
def test_what_if_trials_match_the_plain_check(seed):
    """Tatham's stage-3 trial read from the engine's kept supplies finds exactly what summing every
    checked island's links finds, and the what-if and lookahead rules with their shortcuts (islands
    at risk, calm links) find what they find without, on every state of a run (random boards,
    maxbridges 1-4)."""
    rng = random.Random(seed)
    p = random_solution(9, 9, rng, maxbridges=1 + seed % 4, allow_adjacent=bool(seed % 2))[0]
    d = Deducer(State(p))
    found = 0
    while True:
        for x, k, n, fast, plain in _every_trial(d):
            assert fast == plain, (seed, x, k, n)
            found += plain is not None
        for x in range(d.st.geo.n):
            assert RULE["what-if"].test(d, x) == _what_if_reference(d, x), (seed, x)
        for k in range(d.st.geo.nlinks):
            assert RULE["lookahead"].test(d, k) == _lookahead_reference(d, k), (seed, k)
        step = d.next_step(3)
        if step is None or not d.apply(step) or d.bad:
            break
    assert found  # the trials did find steps (the comparison can fail)


def _cut_link_reference(st: State):
    """The cut-link rule as first written (adjacency lists, a recursive search on a stack of
    iterators): the engine's version must yield the same steps in the same order."""
    geo, lo, hi = st.geo, st.lo, st.hi
    n = geo.n
    if n < 2:
        return
    adj: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for k, (a, b) in enumerate(geo.ends):
        if hi[k] >= 1:
            adj[a].append((b, k))
            adj[b].append((a, k))
    order = [-1] * n
    low = [0] * n
    size = [1] * n
    counter = 0
    cuts: list[tuple[int, int]] = []  # (link, child island whose subtree is cut off)
    for root in range(n):
        if order[root] != -1:
            continue
        if root != 0:
            return  # already disconnected: that is a contradiction, not a deduction
        order[root] = low[root] = counter
        counter += 1
        stack = [(root, -1, iter(adj[root]))]
        while stack:
            v, via, it = stack[-1]
            advanced = False
            for w, k in it:
                if k == via:
                    continue
                if order[w] == -1:
                    order[w] = low[w] = counter
                    counter += 1
                    stack.append((w, k, iter(adj[w])))
                    advanced = True
                    break
                low[v] = min(low[v], order[w])
            if advanced:
                continue
            stack.pop()
            if stack:
                p = stack[-1][0]
                low[p] = min(low[p], low[v])
                size[p] += size[v]
                if low[v] > order[p]:
                    cuts.append((via, v))
    for k, child in cuts:
        if lo[k] >= 1:
            continue
        a, b = geo.ends[k]
        part = size[child]
        rest = n - part
        yield Step("cut-link", "expert", (a, b), (k,), ((k, 1, hi[k]),),
                   f"Every route between {word(min(part, rest)) if min(part, rest) < 9 else min(part, rest)} "
                   f"island{'s' if min(part, rest) != 1 else ''} on one side and the other "
                   f"{max(part, rest)} runs between {st.link_name(k)}, so there must be a bridge there.")


def _lookahead_reference(d: Deducer, k: int):
    """The lookahead on link ``k`` with both trials always run (no calm-link shortcut)."""
    st = d.st
    if st.geo.n < 3 or st.lo[k] >= st.hi[k]:
        return None
    for full in (False, True):
        reason = X._lookahead_reason(st, k, full)
        if reason is not None:
            return X._lookahead_step(st, k, full, reason)
    return None


#: the plain reading of the rules whose engine versions take shortcuts
_REFERENCE = {"what-if": _what_if_reference, "lookahead": _lookahead_reference,
              "single-exit": lambda d: X.rule_single_exit(d.st), "group-need": lambda d: X.rule_group_need(d.st),
              "cut-link": lambda d: _cut_link_reference(d.st)}


def _naive_next_step(d: Deducer, top: int):
    """The engine's contract read plainly: the lowest level with a step, then the first rule of the
    table, then the lowest element index; every element of every rule looked at afresh."""
    sizes = {"island": d.st.geo.n, "link": d.st.geo.nlinks, "crossing": len(d.st.geo.crossings)}
    for rule in d.rules:
        if LEVELS.index(rule.level) > top:
            break
        test = _REFERENCE.get(rule.name, rule.test)
        if rule.scope == "board":
            for step in test(d):
                return step
            continue
        for x in range(sizes[rule.scope]):
            step = test(d, x)
            if step is not None:
                return step
    return None


def _same_steps_as_naive(p: Puzzle) -> int:
    d = Deducer(State(p), suppose=False)
    taken = 0
    while not d.bad:
        step = d.next_step(3)
        assert step == _naive_next_step(d, 3), taken
        if step is None:
            break
        assert d.apply(step)
        taken += 1
    return taken


def test_engine_takes_the_steps_of_the_plain_rules_on_published_puzzles():
    """On the published puzzles (up to 60 islands), every step of the engine (woken elements only,
    kept supplies, islands at risk, calm links, quiet board rules) is the step the plain reading of
    the rules takes looking at everything afresh: the shortcuts change no deduction and no grade."""
    puzzles = [d for _name, d in _real_unique(60)]
    assert puzzles
    steps = sum(_same_steps_as_naive(Puzzle.from_grid(d["grid"], d.get("maxb", 2))) for d in puzzles)
    assert steps > 1000


@pytest.mark.parametrize("seed", range(4))
def test_engine_takes_the_steps_of_the_plain_rules_on_random_boards(seed):
    """The same on random boards (not unique: runs that get stuck), maxbridges 1-4 and no-loops."""
    rng = random.Random(100 + seed)
    p = random_solution(14, 14, rng, maxbridges=1 + seed, cycles=0 if seed == 3 else 0.25)[0]
    if seed == 3:
        p = Puzzle(p.rows, p.cols, p.islands, p.maxbridges, no_loops=True)
    assert _same_steps_as_naive(p) > 10


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=hst.integers(0, 10**6), size=hst.integers(4, 9), most=hst.integers(1, 4), loops=hst.booleans(),
       marks=hst.integers(0, 12))
def test_engine_takes_the_plain_steps_from_any_board(seed, size, most, loops, marks):
    """From a player's board (random bridges and marks, often wrong: finished islands with open
    links, islands that can no longer reach their number), the engine with its shortcuts takes the
    plain engine's steps until it sees a contradiction or gets stuck."""
    rng = random.Random(seed)
    p = random_solution(size, size, rng, maxbridges=most, cycles=0 if loops else 0.25)[0]
    if loops:
        p = Puzzle(p.rows, p.cols, p.islands, p.maxbridges, no_loops=True)
    st = State(p)
    for _ in range(min(marks, st.geo.nlinks)):
        k = rng.randrange(st.geo.nlinks)
        st.hi[k] = rng.randint(0, st.hi[k])
        st.lo[k] = rng.randint(0, st.hi[k])
    d = Deducer(st, suppose=False)
    for _ in range(60):
        if d.bad:
            break
        step = d.next_step(3)
        assert step == _naive_next_step(d, 3)
        if step is None:
            break
        d.apply(step)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=hst.integers(0, 10**6), size=hst.integers(4, 8), most=hst.integers(1, 4), marks=hst.integers(0, 30))
def test_quiet_lookahead_trials_find_nothing_on_any_board(seed, size, most, marks):
    """Where the lookahead's shortcut calls a trial quiet, the trial run on the state finds nothing
    (random boards with random bridges and marks: any state, not only the engine's)."""
    rng = random.Random(seed)
    p = random_solution(size, size, rng, maxbridges=most)[0]
    st = State(p)
    for _ in range(marks):
        k = rng.randrange(st.geo.nlinks)
        st.hi[k] = rng.randint(0, st.hi[k])
        st.lo[k] = rng.randint(0, st.hi[k])
    d = Deducer(st, suppose=False)
    assert list(X.rule_cut_link(st)) == list(_cut_link_reference(st))
    for k in range(st.geo.nlinks):
        if st.lo[k] < st.hi[k]:
            for full in (False, True):
                if X._trial_quiet(d, k, full):
                    assert X._lookahead_reason(st, k, full, d.lookahead_groups()) is None
                    assert X._lookahead_reason(st, k, full) is None
