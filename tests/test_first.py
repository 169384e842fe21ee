"""The first model's portfolio (``solvers/first.py``): its answers, its deadline, and that no member
outlives it, whether it returns, runs out of time, or its caller is killed outright."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from itertools import combinations

import pytest

from hashikit.solvers import first
from hashikit.solvers.cadical import Deferred, open_solver

pytestmark = pytest.mark.skipif(not first.available(), reason="the portfolio forks members (Linux only)")

CONFIGS = [{"inprocessing": 0, "chrono": 2}, {"inprocessing": 0, "chrono": 2, "seed": 1}]


def pigeons(n: int) -> list[list[int]]:
    """n + 1 pigeons in n holes: no model, and CaDiCaL needs long to see it from n = 11 or so."""
    var = lambda p, h: p * n + h + 1  # noqa: E731
    clauses = [[var(p, h) for h in range(n)] for p in range(n + 1)]
    clauses += [[-var(p, h), -var(q, h)] for h in range(n) for p, q in combinations(range(n + 1), 2)]
    return clauses


def alive(pid: int) -> bool:
    """``pid`` is a process that has not ended (a zombie has ended)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def children(pid: int) -> set[int]:
    out = set()
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/children") as f:
                out.update(int(c) for c in f.read().split())
        except FileNotFoundError:
            pass
    return out


def test_a_model_from_the_first_member_to_answer_meets_every_clause():
    clauses = pigeons(5)[:-1]  # one conflict fewer: now it has models
    answer = first.portfolio(clauses, CONFIGS)
    assert answer.sat is True and answer.winner in (0, 1)
    assert all(any(answer.model[abs(lit) - 1] == lit for lit in clause) for clause in clauses)
    assert len(answer.pids) == 2 and not any(alive(pid) for pid in answer.pids)


def test_no_model_is_an_answer_too():
    answer = first.portfolio(pigeons(5), CONFIGS)
    assert answer.sat is False and answer.model is None
    with open_solver("cadical195", pigeons(5)) as solver:  # the same answer in this process
        assert solver.solve() is False


def test_at_the_deadline_every_member_is_killed_and_reaped():
    began = time.monotonic()
    answer = first.portfolio(pigeons(13), CONFIGS, deadline_at=time.monotonic() + 0.5)
    assert answer.sat is None and answer.ended == ["deadline"]
    assert time.monotonic() - began < 3
    assert len(answer.pids) == 2 and not any(alive(pid) for pid in answer.pids)


def test_a_member_that_dies_leaves_the_others_to_answer(monkeypatch):
    clauses = pigeons(5)[:-1]
    real = first._member

    def dying(flat, options, out, parent):
        if options.get("seed") == 1:
            os._exit(3)  # as if killed from outside before it answered
        real(flat, options, out, parent)

    monkeypatch.setattr(first, "_member", dying)
    answer = first.portfolio(clauses, CONFIGS)
    assert answer.sat is True and answer.winner == 0


def test_members_die_with_a_caller_that_is_killed_outright():
    script = textwrap.dedent(f"""
        from hashikit.solvers import first
        from test_first import pigeons
        first.portfolio(pigeons(14), {CONFIGS!r})
    """)
    env = {**os.environ, "PYTHONPATH": os.path.dirname(__file__)}
    caller = subprocess.Popen([sys.executable, "-c", script], env=env)
    try:
        members: set[int] = set()
        for _ in range(200):
            members = children(caller.pid)
            if len(members) == 2:
                break
            time.sleep(0.05)
        assert len(members) == 2, members
        caller.send_signal(signal.SIGKILL)
        caller.wait()
        for _ in range(100):
            if not any(alive(pid) for pid in members):
                break
            time.sleep(0.05)
        assert not any(alive(pid) for pid in members)
    finally:
        caller.kill()
        caller.wait()


def test_a_deferred_solver_is_made_at_its_first_solve_with_the_clauses_added_before():
    made = []

    def make():
        made.append(1)
        return open_solver("cadical195", [[1, 2]])

    with Deferred(make) as solver:
        solver.add_clause([-1])
        assert not made and solver.pending == [[-1]]
        assert solver.solve() is True and made == [1]
        assert solver.get_model() == [-1, 2]
        solver.add_clause([-2])
        assert solver.solve() is False and made == [1]


def test_a_time_limited_solve_on_the_portfolio_path_leaves_no_process_behind(monkeypatch, tmp_path):
    from hashikit.model import Puzzle
    from hashikit.solvers import sat, solve

    monkeypatch.setattr(sat, "FIRST_MIN_ISLANDS", 0)
    monkeypatch.setattr(sat, "a_core_is_free", lambda: True)  # whatever the machine's load
    pids = tmp_path / "pids"

    def never_answers(*args):
        with open(pids, "a") as f:
            f.write(f"{os.getpid()}\n")
        time.sleep(600)
        os._exit(0)

    monkeypatch.setattr(first, "_member", never_answers)
    began = time.monotonic()
    result = solve(Puzzle.from_grid([[2, 0, 2], [0, 0, 0], [2, 0, 2]]), "sat", time_limit=1.0)
    assert result.status.value == "unknown" and result.stopped == "time limit"
    assert time.monotonic() - began < 8
    members = [int(pid) for pid in pids.read_text().split()]
    assert len(members) == 2
    for _ in range(100):
        if not any(alive(pid) for pid in members):
            break
        time.sleep(0.05)
    assert not any(alive(pid) for pid in members)


def test_no_process_to_fork_is_no_answer_and_the_caller_solves_itself(monkeypatch):
    def refused():
        raise BlockingIOError("Resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", refused)
    assert first.portfolio(pigeons(5), CONFIGS) is None
