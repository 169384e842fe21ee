"""The sat engine's local rounds on small solvers (``SatBackend._solve_near``): every assignment a
round returns, local or global, is checked against the whole encoding's clauses (``encode``), every
cut added so far and every no-good, on random boards with the local path forced on and its region
kept small, so that its small solvers, its widening, the incremental solver under held links and
the global fallback all answer rounds."""

from __future__ import annotations

import random

import pytest

from hashikit.checker import check
from hashikit.solvers import region, sat, solve

from conftest import random_puzzle


def unsatisfied(enc, counts) -> list[list[int]]:
    """The clauses of the unary encoding ``enc`` that the bridge counts ``counts`` leave unmet."""
    value = [False] * (enc.nvars + 1)
    for k, b in enumerate(enc.base):
        for j in range(1, enc.capacities[k] + 1):
            value[b + j] = j <= counts[k]
    return [cl for cl in enc.clauses if not any(value[abs(lit)] == (lit > 0) for lit in cl)]


@pytest.fixture
def watched(monkeypatch):
    """Every round's answer checked against the whole formula, the cuts and the no-goods."""
    monkeypatch.setattr(sat, "LOCAL_MIN_ISLANDS", 0)
    seen = {"rounds": 0, "near": 0, "small": 0, "held": 0}
    solve_round = sat.SatBackend.solve
    near = sat.SatBackend._solve_near

    def checked(self, deadline):
        status, counts = solve_round(self, deadline)
        if counts is not None:
            seen["rounds"] += 1
            assert self.enc.name == "unary"
            bad = unsatisfied(self.enc, counts)
            assert not bad, f"clauses not met: {bad[:3]}"
            for kind, links in self.cuts.cuts:
                assert any(counts[k] for k in links) if kind == region.REQUIRE else not all(counts[k] for k in links)
            assert all(counts != nogood for nogood in self.nogoods)
        return status, counts

    def counting(self, deadline):
        held, small = self.stats.get("local_solves", 0), self.stats.get("small_solves", 0)
        counts = near(self, deadline)
        if counts is not None:
            seen["near"] += 1
            seen["small"] += self.stats.get("small_solves", 0) > small
            seen["held"] += self.stats.get("local_solves", 0) > held
        return counts

    monkeypatch.setattr(sat.SatBackend, "solve", checked)
    monkeypatch.setattr(sat.SatBackend, "_solve_near", counting)
    return seen


@pytest.mark.parametrize("radius, tries, held", [(0, 0, 0.0), (1, 1, 0.0), (2, 1, 0.0), (1, 1, 0.5)])
def test_every_round_meets_the_whole_formula_and_every_cut(monkeypatch, watched, radius, tries, held):
    """``held`` 0: every round tries the small solvers first; 0.5: the incremental solver first where
    the round's region holds at most half the islands."""
    monkeypatch.setattr(sat, "LOCAL_RADIUS", radius)
    monkeypatch.setattr(sat, "LOCAL_TRIES", tries)
    monkeypatch.setattr(sat, "LOCAL_SHARE", 1.0)
    monkeypatch.setattr(sat, "HELD_SHARE", held)
    monkeypatch.setattr(sat, "HELD_TRIES", 2)
    rng = random.Random(radius * 10 + tries)
    for seed in range(12):
        size = rng.randint(12, 30)
        puzzle, _ = random_puzzle(size, size, 1000 * radius + seed, maxbridges=rng.choice((1, 2, 3)), density=0.3)
        for implied in (False, True):
            res = sat.solve(puzzle, max_solutions=3, implied=implied)
            assert res.solutions and all(check(puzzle, s).ok for s in res.solutions)
            assert len(set(res.solutions)) == len(res.solutions)
    assert watched["small"] > 0 and watched["near"] > 0, watched
    assert watched["rounds"] > watched["near"], watched  # some rounds were global
    if held:
        assert watched["held"] > 0, watched


def test_a_no_good_is_kept_by_the_small_solvers(monkeypatch, watched):
    """After a solution is excluded, later local rounds may not come back to it."""
    monkeypatch.setattr(sat, "LOCAL_RADIUS", 1)
    monkeypatch.setattr(sat, "HELD_SHARE", 0.0)
    for seed in range(6):
        puzzle, _ = random_puzzle(25, 25, 500 + seed, density=0.3)
        res = sat.solve(puzzle, max_solutions=4, implied=False)
        assert len(set(res.solutions)) == len(res.solutions)
        whole = sat.solve(puzzle, max_solutions=4, implied=False, local=False)
        assert len(res.solutions) == len(whole.solutions)
    assert watched["small"] > 0, watched


def test_rounds_too_wide_for_the_incremental_solver_go_to_small_solvers(monkeypatch):
    """A round whose region holds more than ``HELD_MAX_ISLANDS`` islands (here: any) is answered
    by small solvers on a board of a thousand islands, at the default sizes otherwise."""
    monkeypatch.setattr(sat, "HELD_MAX_ISLANDS", 0)
    puzzle, _ = random_puzzle(70, 70, 3, density=0.25)
    result = solve(puzzle, engine="sat")
    assert check(puzzle, result.solution).ok
    assert result.stats["small_solves"] > 0 and result.stats["global_solves"] < result.stats["rounds"]


@pytest.mark.parametrize("name", ["cadical195", "minisat22"])
def test_a_conflict_budget_gives_up_without_an_answer(name):
    """``solve_conflicts`` on the direct handles (CaDiCaL's and MiniSat's): None once the conflicts
    run out, the answer when they suffice (nine pigeons into eight holes: unsatisfiable, and hard
    for resolution)."""
    from itertools import combinations

    from hashikit.solvers.cadical import Cadical, open_solver

    holes = 8
    var = lambda p, h: p * holes + h + 1  # noqa: E731
    clauses = [[var(p, h) for h in range(holes)] for p in range(holes + 1)]
    clauses += [[-var(p, h), -var(q, h)] for h in range(holes) for p, q in combinations(range(holes + 1), 2)]
    with open_solver(name, clauses) as solver:
        assert isinstance(solver, Cadical)  # the direct handle (MiniSat's is a subclass), not python-sat's Solver
        assert solver.solve_conflicts([], 10) is None
        assert solver.get_model() is None and solver.get_core() is None
    with open_solver(name, [[1, 2], [-1]]) as solver:
        assert solver.solve_conflicts([], 10) is True and solver.get_model() == [-1, 2]
        assert solver.solve_conflicts([-2], 10) is False and solver.get_core() == [-2]


def test_a_board_over_held_max_board_sends_its_rounds_to_small_solvers_first(monkeypatch):
    """Over ``HELD_MAX_BOARD`` islands every round goes to alternating walks and the small solvers first: the held tries
    (each of which costs the whole board) fall away, and the answer is still valid.  (Places allowed
    to grow to the whole board: a place may need more of the board than ``LOCAL_SHARE``, and then
    the held way answers for it.)"""
    puzzle, _ = random_puzzle(70, 70, 3, density=0.25)
    before = solve(puzzle, engine="sat")
    monkeypatch.setattr(sat, "HELD_MAX_BOARD", 0)
    monkeypatch.setattr(sat, "LOCAL_SHARE", 1.0)
    monkeypatch.setattr(sat, "LOCAL_TRIES", 30)
    after = solve(puzzle, engine="sat")
    assert check(puzzle, before.solution).ok and check(puzzle, after.solution).ok
    assert before.stats.get("local_solves", 0) > 0 and before.stats.get("small_solves", 0) == 0, before.stats
    assert after.stats["small_solves"] > 0
    assert after.stats.get("local_solves", 0) == 0 and after.stats["global_solves"] == 1, after.stats
    # alternating walks first on such a board (README), never under the gate
    assert after.stats.get("alternate_fixes", 0) > 0 and "alternate_fixes" not in before.stats


@pytest.mark.parametrize("name", ["cadical195", "minisat22"])
def test_append_formula_adds_every_clause(name):
    """The direct handles take a batch of clauses (the small solvers of the local rounds load theirs so)."""
    from hashikit.solvers.cadical import Cadical, open_solver

    with open_solver(name, []) as solver:
        assert isinstance(solver, Cadical)
        solver.append_formula([[1, 2], [-1], (-2, 3)])
        assert solver.solve() is True and solver.get_model()[:3] == [-1, 2, 3]
        solver.append_formula(iter([[-3]]))
        assert solver.solve() is False


@pytest.mark.parametrize("seed", range(5))
def test_a_place_grows_nearest_islands_first(seed):
    """Widening by island count: ``size`` islands, and every ring of whole radius that fits is inside."""
    puzzle, _ = random_puzzle(20, 20, seed, density=0.25)
    rng = random.Random(seed)
    seeds = {rng.randrange(len(puzzle.islands))}
    for size in (1, 5, 17, 60, 10 ** 6):
        grown = sat._ring(puzzle, seeds, size=size)
        assert len(grown) == min(size, len(sat._ring(puzzle, seeds)))
        assert seeds <= grown
        for radius in range(30):
            ring = sat._ring(puzzle, seeds, radius)
            if len(ring) <= size:
                assert ring <= grown


def test_rounds_met_by_alternating_walks_meet_the_whole_formula(monkeypatch, watched):
    """Cuts met by moving bridges round alternating walks (``region.alternate``, before any small
    solver): every round's answer still meets the whole formula, every cut and no-good, and the
    solutions agree in number with global rounds."""
    monkeypatch.setattr(sat, "HELD_SHARE", 0.0)
    monkeypatch.setattr(sat, "HELD_MAX_BOARD", 0)
    monkeypatch.setattr(sat, "ALTERNATE_LIMIT", 10_000)
    fixes = 0
    rng = random.Random(7)
    for seed in range(10):
        size = rng.randint(15, 30)
        puzzle, _ = random_puzzle(size, size, 700 + seed, maxbridges=rng.choice((1, 2, 3)), density=0.3)
        for implied in (False, True):
            res = sat.solve(puzzle, max_solutions=3, implied=implied)
            fixes += res.stats.get("alternate_fixes", 0)
            assert res.solutions and all(check(puzzle, s).ok for s in res.solutions)
            whole = sat.solve(puzzle, max_solutions=3, implied=implied, local=False)
            assert len(res.solutions) == len(whole.solutions)
    assert fixes > 0 and watched["near"] > 0, (fixes, watched)


def test_an_alternating_walk_keeps_every_island_count_and_meets_the_cut():
    """From a model of the formula without connectivity, each group's cut: what ``region.alternate``
    returns keeps every island's count, every capacity, no crossing, the implied pairs, and meets the
    cut; ``_settle`` refuses a change that leaves an island off its count."""
    from hashikit.solvers import lazy
    from hashikit.solvers.cadical import open_solver

    met = tried = 0
    for seed in range(8):
        puzzle, _ = random_puzzle(25, 25, 900 + seed, maxbridges=2, density=0.3)
        enc = sat.encode(puzzle)
        with open_solver("cadical195", enc.clauses) as solver:
            assert solver.solve()
            counts = enc.counts(solver.get_model())
        cuts = region.Cuts()
        for links in lazy.split_cuts(puzzle, lazy.used_links(counts), enc.capacities):
            cuts.add(region.REQUIRE, links)
            tried += 1
            change = region.alternate(puzzle, enc.capacities, counts, links, cuts, limit=10_000)
            if change is None:
                continue
            met += 1
            after = list(counts)
            for k, n in change.items():
                after[k] = n
            assert not unsatisfied(enc, after)
            assert any(after[k] for k in links)
            k = next(iter(change))
            bad = {k: counts[k] + (1 if counts[k] < enc.capacities[k] else -1)}  # one link alone: off
            assert region._settle(bad, enc.capacities, counts, puzzle, cuts, set()) is None
    assert met > 0, (met, tried)
