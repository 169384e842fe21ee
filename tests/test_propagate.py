"""The sat engine with connectivity inside CaDiCaL (``connectivity="propagator"``,
``solvers/propagate.py``) against the brute-force oracle, every answer through the rule checker;
every clause the propagator adds checked against every solution the oracle finds; its refusals."""

from __future__ import annotations


import pytest

from hashikit.errors import BadArgument, UnsupportedOption
from hashikit.model import Puzzle
from hashikit.solvers import capabilities, propagate, solve

from conftest import random_puzzle
import engine_oracle
from test_oracle import valid

pytestmark = pytest.mark.skipif(not propagate.available(),
                                reason="python-sat's CaDiCaL 1.9.5 has no user propagator calls here")
CAP = 12


@pytest.fixture
def added(monkeypatch):
    """Every clause the propagator hands CaDiCaL, and the number of models it checked, over a test."""
    seen = {"clauses": [], "checked": 0, "rejected": 0}
    plain_add, plain_check = propagate.Connectivity.add_clause, propagate.Connectivity.check_model

    def add_clause(self):
        clause = plain_add(self)
        seen["clauses"].append((self, list(clause)))
        return clause

    def check_model(self, model):
        ok = plain_check(self, model)
        seen["checked"] += 1
        seen["rejected"] += not ok
        return ok

    monkeypatch.setattr(propagate.Connectivity, "add_clause", add_clause)
    monkeypatch.setattr(propagate.Connectivity, "check_model", check_model)
    return seen


def link_counts(puzzle: Puzzle, oracle_solution: dict) -> list[int]:
    """An oracle solution ({(cell, cell): count}) as counts per link of ``puzzle.links``."""
    isl = puzzle.islands
    out = []
    for a, b, _h in puzzle.links:
        pa, pb = isl[a].pos, isl[b].pos
        out.append(oracle_solution.get((pa, pb), oracle_solution.get((pb, pa), 0)))
    return out


def disagreements(n: int, seed: int, no_loops: bool, added: dict) -> list[str]:
    def clauses_hold(puzzle, solutions):  # every clause added holds in every solution (the oracle listed them all)
        for prop, clause in added["clauses"]:
            links = [prop.link_of[lit] for lit in clause]
            if any(not any(link_counts(puzzle, s)[k] for k in links) for s in solutions):
                return f"clause {clause} (links {links}) excludes a solution"
        return None

    return engine_oracle.disagreements(n, seed, no_loops, {"connectivity": "propagator"}, CAP,
                                       before=added["clauses"].clear, also=clauses_hold)


@pytest.mark.parametrize("no_loops, seed", [(False, 61), (True, 62)])
def test_the_propagator_agrees_with_brute_force(added, no_loops, seed):
    bad = disagreements(300, seed, no_loops, added)
    assert not bad, f"{len(bad)} disagreements, first: {bad[:3]}"
    assert added["rejected"] >= 20, added["rejected"]  # disconnected models were really met and cut inside the call


@pytest.mark.slow
@pytest.mark.parametrize("no_loops, seed", [(False, 71), (True, 72), (False, 73)])
def test_the_propagator_agrees_with_brute_force_on_more_boards(added, no_loops, seed):
    bad = disagreements(1500, seed, no_loops, added)
    assert not bad, f"{len(bad)} disagreements, first: {bad[:3]}"


def test_one_solver_call_keeps_connectivity(added):
    """A board whose first models fall apart: the cuts go in inside one CaDiCaL call, and the answer
    is connected (the rule checker says so)."""
    puzzle, _ = random_puzzle(30, 30, seed=5, density=0.3)
    res = solve(puzzle, engine="sat", connectivity="propagator", implied=False)
    assert res.solved and valid(puzzle, res.solution)
    assert res.stats["solver_calls"] == 1 and res.stats["rounds"] == 1
    assert added["rejected"] >= 1 and res.stats["cuts"] >= 1, res.stats
    assert res.stats["connectivity"] == "propagator"


def test_a_time_limited_solve_runs_the_propagator_too():
    puzzle, _ = random_puzzle(20, 20, seed=8)
    res = solve(puzzle, engine="sat", time_limit=30, connectivity="propagator")
    assert res.solved and valid(puzzle, res.solution)
    assert res.stats["connectivity"] == "propagator"


def test_the_option_is_declared_and_what_it_cannot_do_is_refused():
    assert ("connectivity", str) in capabilities("sat").options
    p = Puzzle.from_grid([[2, 0, 2], [0, 0, 0], [2, 0, 2]])
    assert solve(p, engine="sat", connectivity="cuts").solved
    with pytest.raises(BadArgument, match="unknown connectivity 'inside'.*cuts, propagator"):
        solve(p, engine="sat", connectivity="inside")
    with pytest.raises(BadArgument, match="needs solver 'cadical195'"):
        solve(p, engine="sat", connectivity="propagator", solver="glucose4")
    with pytest.raises(BadArgument, match="has no rounds"):
        solve(p, engine="sat", connectivity="propagator", local=False)
    with pytest.raises(UnsupportedOption, match="no option 'connectivity'"):
        solve(p, engine="search", connectivity="propagator")


def test_the_readme_states_the_option_and_its_refusals():
    from pathlib import Path

    text = " ".join((Path(__file__).resolve().parents[1] / "README.md").read_text().split())
    assert '`connectivity` (`"cuts"`, the default loop, or `"propagator"`' in text
    assert set(propagate.CONNECTIVITY) == {"cuts", "propagator"}
    assert 'It needs `solver="cadical195"` and refuses `local=False`' in text


def test_the_readme_bench_line_runs_the_propagator(tmp_path):
    """``hashikit bench DIR --engine sat --engine-option connectivity=propagator``, as the README writes it."""
    import csv

    from hashikit.cli import main
    from hashikit.formats import write_text

    d = tmp_path / "boards"
    d.mkdir()
    for seed in (3, 4):
        (d / f"p{seed}.has").write_text(write_text(random_puzzle(12, 12, seed=seed)[0], "has"), encoding="utf-8")
    out = tmp_path / "runs.csv"
    code = main(["bench", str(d), "--engine", "sat", "--engine-option", "connectivity=propagator",
                 "--jobs", "1", "--csv", str(out), "--quiet"])
    assert code == 0
    rows = list(csv.DictReader(out.open()))
    assert len(rows) == 2 and all(r["status"] == "solved" and r["valid"] == "True" for r in rows), rows


def test_ctrl_c_during_a_solve_ends_as_it_does_for_the_loop():
    """Ctrl-C inside the propagator's solve: an exception in the caller (python-sat's "Caught
    keyboard interrupt", as for the loop), never CaDiCaL aborting the process on the detach."""
    import subprocess
    import sys
    import textwrap

    code = textwrap.dedent("""
        import os, signal, sys
        sys.path.insert(0, "tests")
        from conftest import random_puzzle
        from hashikit.solvers import propagate, solve

        plain = propagate.Connectivity.check_model

        def interrupted(self, model):
            os.kill(os.getpid(), signal.SIGINT)
            return plain(self, model)

        propagate.Connectivity.check_model = interrupted
        puzzle, _ = random_puzzle(30, 30, seed=5, density=0.3)
        try:
            solve(puzzle, engine="sat", connectivity="propagator", implied=False)
        except BaseException as exc:
            print("caught", type(exc).__name__, exc)
            sys.exit(3)
        print("finished")
    """)
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=60)
    assert out.returncode == 3, (out.returncode, out.stdout, out.stderr[-2000:])
    assert "interrupt" in out.stdout.lower(), out.stdout
