"""Generators: the Coelho et al. benchmark generator and unique graded generation."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from conftest import pure_only
from hashikit.checker import check
from hashikit.generate import GenerateStats, coelho, coelho_with_solution, generate_unique, random_solution
from hashikit.limits import Deadline
from hashikit.logic import grade
from hashikit.model import Puzzle, Solution
from hashikit.solvers import Status, solve

SHARED = Path(__file__).resolve().parents[2] / "shared"
COELHO = SHARED / "benchmarks" / "coelho2019"


def test_coelho_reproducible_by_seed():
    a = coelho(40, 10, 10, 50, 10, seed=7)
    b = coelho(40, 10, 10, 50, 10, seed=7)
    c = coelho(40, 10, 10, 50, 10, seed=8)
    assert a == b
    assert a != c


@pytest.mark.parametrize("alpha,beta", [(25, 0), (50, 10), (75, 15)])
def test_coelho_solvable_and_checked(alpha, beta):
    puzzle, construction = coelho_with_solution(60, 13, 13, alpha, beta, seed=alpha + beta)
    assert len(puzzle.islands) == 60
    assert check(puzzle, construction).ok
    result = solve(puzzle)
    assert result.status is Status.SOLVED
    assert check(puzzle, result.solution).ok


def test_coelho_counts_follow_the_published_rule():
    n = 100
    puzzle, sol = coelho_with_solution(n, 16, 16, 50, 10, seed=3)
    # floor(50% of 99) extra bridges on top of the 99 tree bridges, and round(10% of 100) doubled
    assert sol.total() == 99 + 49 + 10
    assert sum(i.number for i in puzzle.islands) == 2 * sol.total()


def _published(name: str) -> Puzzle:
    lines = (COELHO / name.split("_")[2] / name).read_text().split("\n")
    rows, cols, _n = map(int, lines[0].split())
    return Puzzle.from_grid([[int(x) for x in line.split()] for line in lines[1:1 + rows]])


def test_coelho_matches_a_published_group():
    if not COELHO.is_dir():
        pytest.skip(f"Coelho benchmark not found at {COELHO}")
    pub = [_published(f"Hs_16_100_50_05_{i:03d}.has") for i in range(1, 6)]
    ours = [coelho(100, 16, 16, 50, 5, seed=i) for i in range(5)]

    def summary(ps):
        return (sum(len(p.islands) for p in ps) / len(ps),
                sum(sum(i.number for i in p.islands) / 2 for p in ps) / len(ps),
                sum(len(p.links) for p in ps) / len(ps))

    (pi, pt, pl), (oi, ot, ol) = summary(pub), summary(ours)
    assert pi == oi == 100
    assert abs(pt - ot) <= 2          # total bridges: 153 published
    assert abs(pl - ol) / pl < 0.05   # candidate links: about 168


def test_random_solution_is_valid():
    import random
    puzzle, sol = random_solution(9, 9, random.Random(1))
    assert check(puzzle, sol).ok
    assert 0.12 <= len(puzzle.islands) / 81 <= 0.35


@pytest.mark.parametrize("difficulty,size,seed", [("easy", 7, 1), ("medium", 7, 2), ("hard", 8, 3)])
def test_generate_unique_graded(difficulty, size, seed):
    stats = GenerateStats()
    puzzle, solution, g = generate_unique(size, size, difficulty, seed=seed, stats=stats)
    assert g.level == difficulty
    assert grade(puzzle) == g
    assert check(puzzle, solution).ok
    result = solve(puzzle, max_solutions=2)
    assert result.unique is True
    assert result.solution == solution


def test_generate_unique_hard_15x15_quickly():
    """Issue #4's target size: a 15x15 hard puzzle in well under a few seconds."""
    start = time.perf_counter()
    puzzle, solution, g = generate_unique(15, 15, "hard", seed=4)
    assert time.perf_counter() - start < 10
    assert g.level == "hard" and grade(puzzle).level == "hard"
    assert grade(puzzle) == g
    assert solve(puzzle, max_solutions=2).unique is True
    assert check(puzzle, solution).ok


def test_generate_unique_reproducible():
    a = generate_unique(7, 7, "medium", seed=11)
    b = generate_unique(7, 7, "medium", seed=11)
    assert a[0] == b[0] and a[1] == b[1]


def test_verify_under_a_time_limit_runs_in_this_process_and_still_refuses_a_second_solution(monkeypatch):
    """Under a time limit the SAT proof of a small finished puzzle runs here (not in a worker): the
    same puzzle as without a limit, and a puzzle with two solutions is still refused."""
    from hashikit.generate import unique as G
    from hashikit.solvers import process

    def no_worker(*_a, **_k):
        raise AssertionError("the proof went to a worker")

    monkeypatch.setattr(process, "solve_limited", no_worker)
    a = generate_unique(9, 9, "hard", seed=4, islands_percent=30, expansion=10, time_limit=60)
    b = generate_unique(9, 9, "hard", seed=4, islands_percent=30, expansion=10)
    assert a[0] == b[0] and a[1] == b[1]
    two = Puzzle(3, 3, [(0, 0, 3), (0, 2, 3), (2, 0, 3), (2, 2, 3)])  # a square of 3s: doubles across or down
    construction = solve(two).solution
    with pytest.raises(AssertionError, match="second solution"):
        G._verify(two, construction, Deadline.after(60))


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard", "expert"])
def test_runs_from_scratch_grade_as_the_engine(difficulty):
    """The generator's runs from scratch (the quick one, the easy and medium rules closed first,
    and the other, at easy the steps counted without the engine) end stuck in the engine's state,
    or finished at its grade, with the levels of its steps when the grade is the one asked for."""
    import random

    from hashikit.generate import tatham_layout
    from hashikit.generate import unique as G
    from hashikit.logic import LEVELS
    from hashikit.logic.deducer import Deducer
    from hashikit.logic.state import State

    target = LEVELS.index(difficulty)
    outcomes = set()
    for seed in range(25):
        rng = random.Random(seed)
        p = (tatham_layout(9, 9, rng) if seed % 2 else random_solution(9, 9, rng))[0]
        engine = Deducer(State(p), suppose=False, words=False)
        steps: list = []
        stuck = engine.run(difficulty, steps=steps)
        for quick in (True, False):
            ours, levels, ours_stuck, hardest = G._from_scratch(p, difficulty, target, None, Deducer, State, quick)
            assert ours_stuck == stuck, (seed, quick)
            if stuck:
                assert (ours.st.lo, ours.st.hi) == (engine.st.lo, engine.st.hi)
                outcomes.add("stuck")
            elif hardest == target:
                assert hardest == engine.hardest and levels == [s.level for s in steps]
                outcomes.add("graded")
            else:
                assert hardest == engine.hardest and (ours is None or not quick)
                outcomes.add("too easy")
    assert "stuck" in outcomes and len(outcomes) >= 2


def _empty_border(puzzle) -> bool:
    rows, cols = {i.row for i in puzzle.islands}, {i.col for i in puzzle.islands}
    return not ({0, puzzle.rows - 1} <= rows and {0, puzzle.cols - 1} <= cols)


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
def test_generated_puzzles_fill_their_frame(difficulty):
    """An R x C puzzle has an island in its first and last row and column (issue 21; the rate over
    100 puzzles a level is in benchmarks/results/generate.md), and no-loops and non-square ones too."""
    made = [generate_unique(10, 10, difficulty, seed=seed)[0] for seed in range(8)]
    made.append(generate_unique(6, 11, difficulty, seed=1, no_loops=difficulty != "medium")[0])
    assert not [p for p in made if _empty_border(p)]


def test_stretch_to_frame_keeps_the_same_puzzle():
    """Moving the outermost rows and columns of islands out to the edges keeps every link and
    crossing (in order), the solution (checked), uniqueness and the grade."""
    import random

    from hashikit.generate import stretch_to_frame

    tried = 0
    for seed in range(40):
        puzzle, sol = random_solution(12, 12, random.Random(seed), fill_frame=False, density=0.15)
        if not _empty_border(puzzle):
            continue
        tried += 1
        framed, moved = stretch_to_frame(puzzle, sol)
        assert not _empty_border(framed) and (framed.rows, framed.cols) == (12, 12)
        assert check(framed, moved).ok
        assert len(framed.links) == len(puzzle.links)
        assert sorted(map(len, framed.crossing_partners)) == sorted(map(len, puzzle.crossing_partners))
        assert sorted(isl.number for isl in framed.islands) == sorted(isl.number for isl in puzzle.islands)
        assert solve(framed, max_solutions=2).unique == solve(puzzle, max_solutions=2).unique
        assert grade(framed).level == grade(puzzle).level and grade(framed).score == grade(puzzle).score
    assert tried >= 5


def test_fill_frame_false_keeps_the_first_drawing():
    import random

    loose = [random_solution(10, 10, random.Random(seed), fill_frame=False)[0] for seed in range(12)]
    framed = [random_solution(10, 10, random.Random(seed))[0] for seed in range(12)]
    assert any(_empty_border(p) for p in loose) and not any(_empty_border(p) for p in framed)
    assert all(check(p, s).ok for p, s in (random_solution(10, 10, random.Random(s)) for s in range(3)))
    empty = next(seed for seed in range(40) if _empty_border(generate_unique(10, 10, "easy", seed=seed,
                                                                             fill_frame=False)[0]))
    assert not _empty_border(generate_unique(10, 10, "easy", seed=empty)[0])


def test_generate_unique_rejects_unknown_level():
    with pytest.raises(ValueError):
        generate_unique(7, 7, "fiendish", seed=1)


def test_random_solution_large_board_looks_published():
    """Issue #4: on large boards bridges stay short, so the layout reaches its density."""
    import random
    puzzle, sol = random_solution(40, 40, random.Random(2))
    assert check(puzzle, sol).ok
    assert 0.24 <= len(puzzle.islands) / 1600 <= 0.3
    lengths = [abs(p[0] - q[0]) + abs(p[1] - q[1]) for p, q in sol.bridges]
    assert 2.3 <= sum(lengths) / len(lengths) <= 3.1


# ---------------------------------------------------------------- the repair batches (issue 10)
from hypothesis import assume, given, settings, strategies as st  # noqa: E402


def _stuck(seed: int, size: int):
    """A default layout and the hard-level engine stuck on it (None when it finishes)."""
    import random
    from hashikit.logic.deducer import Deducer
    from hashikit.logic.state import State
    puzzle, sol = random_solution(size, size, random.Random(seed), cycles=0.1, doubles=0.5)
    engine = Deducer(State(puzzle), suppose=False)
    return (puzzle, sol, engine) if engine.run("hard") else None


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), size=st.integers(8, 16))
def test_a_batch_of_repairs_keeps_the_construction_a_solution_and_undoes_exactly(seed, size):
    """Every repair of a batch keeps the construction a solution (by the checker), the batch's
    repairs lie in blocks not next to each other, and taking them back gives the layout again."""
    import random
    from hashikit.generate.repairs import _SITE_GAP, _apply, _batch
    found = _stuck(seed, size)
    assume(found is not None)  # (about two layouts in three are stuck at these sizes)
    puzzle, sol, engine = found
    counts = sol.counts(puzzle)
    batch, _inserts = _batch(puzzle, counts, engine, random.Random(seed), False, 50, [])
    assert batch, "a stuck engine always has a repair to try"
    blocks = [{(p[0] // _SITE_GAP, p[1] // _SITE_GAP) for p in r.where} for r in batch]
    for i, a in enumerate(blocks):
        for b in blocks[i + 1:]:
            assert all(max(abs(x[0] - y[0]), abs(x[1] - y[1])) >= 2 for x in a for y in b)
    new, new_counts, where = _apply(puzzle, counts, batch)
    assert check(new, Solution.from_counts(new, new_counts)).ok
    assert set(where) <= {i.pos for i in new.islands}
    assert all(not any(abs(i.row - j.row) + abs(i.col - j.col) == 1 for j in new.islands) for i in new.islands)
    back, back_counts, _where = _apply(new, new_counts, [], batch)
    assert back == puzzle and Solution.from_counts(back, back_counts) == sol
    # the next batch, taking back every other repair of this one, is a solution as well
    from hashikit.logic.deducer import Deducer
    from hashikit.logic.state import State
    engine = Deducer(State(new), suppose=False)
    if engine.run("hard"):
        undo = batch[::2]
        again, _left = _batch(new, new_counts, engine, random.Random(seed + 1), False, 50, undo)
        newer, newer_counts, _where = _apply(new, new_counts, again, undo)
        assert check(newer, Solution.from_counts(newer, newer_counts)).ok


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6), size=st.integers(8, 16))
def test_a_batch_never_chooses_a_skipped_repair(seed, size):
    """``_batch`` with ``skip``: the same choice as without it, less the skipped repairs (drawn
    again from the same random state, the first batch's repairs skipped: none of them comes back)."""
    import random
    from hashikit.generate.repairs import _batch
    found = _stuck(seed, size)
    assume(found is not None)
    puzzle, sol, engine = found
    counts = sol.counts(puzzle)
    first, _inserts = _batch(puzzle, counts, engine, random.Random(seed), False, 3, [])
    assert first
    again, _inserts = _batch(puzzle, counts, engine, random.Random(seed), False, 3, [], skip=set(first))
    assert not set(again) & set(first)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6), size=st.integers(8, 16))
def test_built_first_changes_a_bridged_open_link_while_one_can_take_another_bridge(seed, size):
    """``_batch(built_first=True)``, one repair: where an open link the construction bridges can take
    one more bridge, the repair is a count change on a bridged link, never a first bridge on an
    empty one (without it, the first bridge on an empty link comes up too)."""
    import random
    from hashikit.generate.repairs import _batch
    found = _stuck(seed, size)
    assume(found is not None)
    puzzle, sol, engine = found
    counts = sol.counts(puzzle)
    open_links = engine.st.undecided()
    assume(any(1 <= counts[k] < puzzle.maxbridges for k in open_links))
    for draw in range(5):
        chosen, _inserts = _batch(puzzle, counts, engine, random.Random(seed + draw), False, 1, [], built_first=True)
        assert len(chosen) == 1 and chosen[0].cell is None
        a, b = (puzzle.index[p] for p in chosen[0].bridge)
        assert counts[puzzle.link_index[(min(a, b), max(a, b))]] >= 1


@pure_only
def test_a_dropped_repair_is_not_tried_again_on_the_same_construction(monkeypatch):
    """While the repair loop stays on one construction (the same deducer, the same repairs to take
    back), each batch it chooses is new: a dropped batch, chosen again, would end the same way (one
    of them again only when every candidate has failed there, and that one is kept).  The puzzles
    stay exact: 15x15 easy and hard at Tatham's preset, a few seeds."""
    from hashikit.generate import unique as G
    calls = []
    choose = G._batch

    def recorded(puzzle, counts, deducer, rng, allow_adjacent, size, undo, *rest, **options):
        chosen, inserts = choose(puzzle, counts, deducer, rng, allow_adjacent, size, undo, *rest, **options)
        calls.append((deducer, tuple(undo), tuple(chosen)))  # (the deducer kept alive: ids stay unique)
        return chosen, inserts

    monkeypatch.setattr(G, "_batch", recorded)
    runs = 0
    for seed in range(8):
        for level in ("easy", "hard"):
            calls.clear()
            puzzle, solution, g = generate_unique(15, 15, level, seed=seed, islands_percent=30, expansion=10)
            assert g.level == level and grade(puzzle) == g and check(puzzle, solution).ok
            seen: set = set()
            for i, (deducer, undo, chosen) in enumerate(calls):
                if i and (calls[i - 1][0] is not deducer or calls[i - 1][1] != undo or not calls[i - 1][2]):
                    seen = set()  # another construction, or every candidate had failed
                else:
                    runs += bool(i)
                assert chosen not in seen, (seed, level, i)
                seen.add(chosen)
    assert runs >= 20


@pure_only
def test_large_board_generation_uses_batches_and_stays_exact(monkeypatch):
    """20x20 hard: several repairs per rebuild; the puzzle has no neighbouring islands, grades
    hard, is unique by the SAT engine, and the same seed gives the same puzzle."""
    from hashikit.generate import unique as G
    sizes = []
    apply = G._apply

    def counted(puzzle, counts, add, undo=()):
        sizes.append(len(add))
        return apply(puzzle, counts, add, undo)

    monkeypatch.setattr(G, "_apply", counted)
    puzzle, solution, g = generate_unique(20, 20, "hard", seed=5)
    assert max(sizes) > 1
    assert g.level == "hard" and grade(puzzle) == g
    assert check(puzzle, solution).ok
    assert solve(puzzle, max_solutions=2).unique is True
    cells = {i.pos for i in puzzle.islands}
    assert not any((r + 1, c) in cells or (r, c + 1) in cells for r, c in cells)
    again = generate_unique(20, 20, "hard", seed=5)
    assert again[0] == puzzle and again[1] == solution


@pure_only
def test_a_carried_deducer_starts_with_the_risks_worked_out_from_scratch(monkeypatch):
    """A deducer carried over a repair that changed only counts takes its parent's supplies and
    islands at risk, brought up to date where the states differ: they must be those worked out
    afresh on its own state (15x15 hard at Tatham's preset and expert, a few seeds)."""
    from hashikit.logic.deducer import Deducer

    inherit = Deducer._inherit_risk
    seen = []

    def checked(self, parent):
        inherit(self, parent)
        got, supply = (list(self._risky), list(self._risk)), list(self._supply)
        self._start_risk()
        assert got == (list(self._risky), list(self._risk))
        num, dlo = self.st.geo.num, self.dlo
        assert all(supply[y] == self._supply[y] for y in range(self.st.geo.n) if num[y] > dlo[y])
        seen.append(1)

    monkeypatch.setattr(Deducer, "_inherit_risk", checked)
    for seed in range(4):
        generate_unique(15, 15, "hard", seed=seed, islands_percent=30, expansion=10)
    generate_unique(12, 12, "expert", seed=1)
    assert len(seen) > 20


@pytest.mark.parametrize("level", ["easy", "medium", "hard", "expert"])
def test_small_boards_give_a_puzzle_or_a_plain_no_never_a_broken_board(level):
    """A first island with no room for a bridge once made a 0 island (PuzzleError from the model);
    now it is drawn again, and a board too small for the level is a plain "none found"."""
    made = 0
    for rows, cols in ((2, 2), (2, 3), (3, 3), (3, 4), (4, 4)):
        for seed in range(3):
            try:
                puzzle, solution, grade = generate_unique(rows, cols, level, seed=seed, time_limit=10)
            except ValueError as exc:  # nothing fits: no bridge between two islands that are not neighbours
                assert (rows, cols) == (2, 2) and "no bridge fits" in str(exc)
                continue
            except RuntimeError as exc:
                assert f"no {level} {rows}x{cols} puzzle found" in str(exc)
                continue
            assert check(puzzle, solution).ok and grade.level == level
            made += 1
    assert level != "easy" or made > 0


def test_the_command_line_the_web_and_the_library_take_the_same_generation_ranges():
    """One statement of what a generation request may ask (``limits.GENERATE_*``): the smallest side
    (once 2 on the command line and 3 on the web), MAXBRIDGES and islands per cell."""
    import subprocess
    import sys

    from fastapi.testclient import TestClient

    from hashikit import limits
    from hashikit.web.app import create_app

    low = limits.GENERATE_MIN_SIDE
    with pytest.raises(ValueError, match=f"rows must be from {low} to"):
        generate_unique(low - 1, 5, "easy", seed=1)
    with pytest.raises(ValueError, match="MAXBRIDGES must be from 1 to 4"):
        generate_unique(5, 5, "easy", seed=1, maxbridges=limits.GENERATE_MAXBRIDGES[1] + 1)
    with pytest.raises(ValueError, match="density"):
        generate_unique(5, 5, "easy", seed=1, density=limits.GENERATE_MAX_DENSITY + 0.01)
    puzzle, solution, _ = generate_unique(low, 3, "easy", seed=1)
    assert check(puzzle, solution).ok

    def cli(*args):
        return subprocess.run([sys.executable, "-m", "hashikit", "generate", *args], capture_output=True, text=True,
                              timeout=120)

    assert cli("--size", f"{low - 1}x5", "--difficulty", "easy").returncode == 2
    made = cli("--size", f"{low}x3", "--difficulty", "easy", "--seed", "1")
    assert made.returncode == 0, made.stderr
    assert cli("--size", "5x5", "--difficulty", "easy", "--maxbridges", "5").returncode == 2
    assert cli("--size", "5x5", "--difficulty", "easy", "--density", "0.51").returncode == 2

    with TestClient(create_app()) as client:
        gen = client.get("/api/limits").json()["generate"]
        assert gen["min_side"] == low and gen["maxbridges"] == list(limits.GENERATE_MAXBRIDGES)
        assert gen["max_density"] == limits.GENERATE_MAX_DENSITY
        assert client.post("/api/generate", json={"rows": low - 1, "cols": 5, "seed": 1}).status_code == 400
        ok = client.post("/api/generate", json={"rows": low, "cols": 3, "difficulty": "easy", "seed": 1})
        assert ok.status_code == 200, ok.json()
        assert client.post("/api/generate", json={"rows": 5, "maxbridges": 5, "seed": 1}).status_code == 400
