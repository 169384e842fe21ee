"""The sat engine's first model from solvers of its own (``FIRST_PORTFOLIO``: forked members; or
one CaDiCaL with ``FIRST_OPTIONS`` in the process), handed to the rounds, against the brute-force
oracle: the path forced onto small random boards, with local rounds on, so that its infeasible
answers, its hand-over and the rounds after it all run.  A fork costs about a tenth of a second
from a test process, so most boards take the one-solver way and fewer the portfolio."""

from __future__ import annotations

import pytest

from hashikit.model import Puzzle
from hashikit.solvers import sat

from oracle import count_solutions
from test_sat_local import disagreements


@pytest.fixture(params=["here", "portfolio"])
def handed(monkeypatch, request):
    """The path on boards of any size; count the rounds' solvers that were handed a first model."""
    monkeypatch.setattr(sat, "FIRST_MIN_ISLANDS", 0)
    if request.param == "here":
        monkeypatch.setattr(sat, "FIRST_PORTFOLIO", (sat.FIRST_OPTIONS,))
    else:
        monkeypatch.setattr(sat, "a_core_is_free", lambda: True)  # whatever the machine's load
    monkeypatch.setattr(sat, "LOCAL_MIN_ISLANDS", 0)
    monkeypatch.setattr(sat, "LOCAL_RADIUS", 0)
    seen = {"handed": 0, "boards": 300 if request.param == "here" else 40}
    init = sat.SatBackend.__init__

    def counting(self, enc, solver, stats=None, local=True, first=None):
        seen["handed"] += first is not None
        init(self, enc, solver, stats, local, first)

    monkeypatch.setattr(sat.SatBackend, "__init__", counting)
    return seen


@pytest.mark.parametrize("no_loops, seed", [(False, 51), (True, 52)])
def test_first_model_path_agrees_with_brute_force(handed, no_loops, seed):
    bad = disagreements(handed["boards"], seed, no_loops)
    assert not bad, f"{len(bad)} disagreements, first: {bad[:3]}"
    assert handed["handed"] >= handed["boards"] * 2 // 3, handed  # the path really ran (simple infeasibility answers before it)


@pytest.mark.slow
@pytest.mark.parametrize("no_loops, seed", [(False, 61), (True, 62), (False, 63)])
def test_first_model_path_agrees_with_brute_force_long(handed, no_loops, seed):
    bad = disagreements(handed["boards"] * 10, seed, no_loops)
    assert not bad, f"{len(bad)} disagreements, first: {bad[:3]}"


def test_the_first_solver_says_infeasible_when_degrees_and_crossings_have_no_model(handed):
    grid = [[0, 0, 0], [0, 2, 0], [1, 0, 0], [0, 0, 1], [1, 0, 4], [0, 5, 6]]  # found by a random search
    assert count_solutions(grid, 3)[0] == 0
    res = sat.solve(Puzzle.from_grid(grid, 3))
    assert res.status.value == "infeasible" and res.solution is None and not res.complete
    assert "first_time" in res.stats and "global_time" not in res.stats  # the rounds' solver never ran
    assert handed["handed"] == 0


def test_on_a_busy_machine_the_first_model_is_found_in_the_process(monkeypatch):
    from hashikit.solvers import first

    monkeypatch.setattr(sat, "FIRST_MIN_ISLANDS", 0)
    monkeypatch.setattr(sat.os, "getloadavg", lambda: (99.0, 99.0, 99.0))
    monkeypatch.setattr(first, "portfolio", lambda *args: pytest.fail("the portfolio ran on a busy machine"))
    res = sat.solve(Puzzle.from_grid([[2, 0, 2], [0, 0, 0], [2, 0, 2]]))
    assert res.status.value == "solved" and "first_time" in res.stats and "first_member" not in res.stats
