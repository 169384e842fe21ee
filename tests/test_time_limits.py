"""Time limits: one Deadline passed down, refused when absurd, and kept for the whole command.

Nothing here is timed: how long commands take is measured by benchmarks/time_limits.py
(benchmarks/results/time_limits.md).  These tests pin what does not depend on the machine's
speed: the values refused, a deadline already past answering "unknown", the clock starting
with the process, and the hard stop ending a command stuck in its own process.
"""

from __future__ import annotations

import json
import math
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hashikit import limits, service
from hashikit.cli import main
from hashikit.limits import Deadline
from hashikit.model import Puzzle
from hashikit.spec import GenerateSpec

ROOT = Path(__file__).resolve().parent.parent
SMALL = Puzzle.from_grid([[2, 0, 2], [0, 0, 0], [2, 0, 2]])
BAD = [0, -1, -0.5, math.inf, -math.inf, math.nan, "1", True]


def past() -> Deadline:
    return Deadline(time.monotonic() - 1.0, 2.5)


@pytest.mark.parametrize("value", BAD, ids=repr)
def test_deadline_refuses_what_is_not_a_positive_finite_number(value):
    with pytest.raises(ValueError, match=re.escape(repr(value))):
        Deadline.after(value)


@pytest.mark.parametrize("value", [0, -1, math.nan])
@pytest.mark.parametrize("use", ["solve", "grade", "explain", "hint", "analyze", "generate_unique",
                                 "generate_record", "within", "engine"])
def test_the_use_cases_refuse_a_bad_time_limit_naming_it(use, value):
    """From the library, not only from the command line (where argparse refuses it)."""
    from hashikit import solve

    calls = {
        "solve": lambda: service.solve(SMALL, time_limit=value),
        "grade": lambda: service.grade(SMALL, time_limit=value),
        "explain": lambda: service.explain(SMALL, time_limit=value),
        "hint": lambda: service.hint(SMALL, time_limit=value),
        "analyze": lambda: service.analyze(SMALL, time_limit=value),
        "generate_unique": lambda: service.generate_unique(GenerateSpec(rows=7, difficulty="easy", seed=1),
                                                           time_limit=value),
        "generate_record": lambda: service.generate_record(7, 7, 1, "easy", time_limit=value),
        "within": lambda: service.within(value, sum, [1, 2]),
        "engine": lambda: solve(SMALL, time_limit=value),
    }
    with pytest.raises(ValueError, match=re.escape(repr(value))):
        calls[use]()


def test_a_deadline_is_kept_as_given_not_restarted():
    """A Deadline passed down is the caller's instant: one already past answers "unknown" at once
    (a number of seconds would have started a clock of its own)."""
    report = service.solve(SMALL, time_limit=past())
    assert report.status == "unknown"
    assert report.message == "no answer within the time limit of 2.5 s"
    assert service.solve(SMALL, time_limit=Deadline.after(60)).status == "solved"


@pytest.mark.parametrize("engine", ["milp", "cpsat"])
def test_an_engine_keeping_the_deadline_in_process_gets_the_same_instant(engine):
    from hashikit.solvers import get_engine

    try:
        get_engine(engine)
    except Exception as exc:  # noqa: BLE001 - an optional engine
        pytest.skip(str(exc))
    assert service.solve(SMALL, engine=engine, time_limit=past()).status == "unknown"
    assert service.solve(SMALL, engine=engine, time_limit=Deadline.after(60)).status == "solved"


def test_within_keeps_the_deadline_given():
    with pytest.raises(service.OutOfTime, match="2.5 s"):
        service.within(past(), time.sleep, 60)  # (a job quick enough to answer before its kill may)
    assert service.within(Deadline.after(60), sum, [1, 2]) == 3


@pytest.mark.parametrize("use", ["solve", "grade", "explain", "hint", "analyze"])
def test_the_use_cases_hand_the_engine_the_very_deadline(monkeypatch, use):
    """No layer re-derives seconds: the engine gets the caller's Deadline object."""
    import hashikit.solvers

    seen = []
    real = hashikit.solvers.solve

    def spy(puzzle, *a, time_limit=None, **kw):
        seen.append(time_limit)
        return real(puzzle, *a, time_limit=time_limit, **kw)

    monkeypatch.setattr(hashikit.solvers, "solve", spy)
    stuck = Puzzle.from_grid([[1, 0, 1], [0, 0, 0], [1, 0, 1]])  # no solution: grade and explain ask the engine
    deadline = Deadline.after(60)
    getattr(service, use)(stuck, time_limit=deadline, lim=limits.CLI)  # (the web's cap makes a nearer one)
    assert seen and all(d is deadline for d in seen)


def test_generate_with_a_deadline_already_past_is_out_of_time():
    with pytest.raises(service.OutOfTime, match="within the time limit of 2.5 s"):
        service.generate_unique(GenerateSpec(rows=7, difficulty="easy", seed=1), time_limit=past())


def test_web_caps_a_deadline():
    far = Deadline.after(1000)
    capped = service.time_limit_for(far, limits.WEB)
    assert capped.seconds == limits.WEB.max_time_limit and capped.at < far.at
    assert service.time_limit_for(None, limits.WEB).seconds == limits.WEB.default_time_limit
    assert service.time_limit_for(None, limits.CLI) is None


def test_the_clock_starts_with_the_process():
    """A process that sleeps before asking still counts the sleep (as it counts its imports)."""
    code = ("import time; time.sleep(1.0); from hashikit.limits import process_start; "
            "print(time.monotonic() - process_start())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert float(out.stdout) >= 1.0
    assert limits.process_start() <= time.monotonic()


def test_main_in_process_leaves_no_timer(capsys):
    """main(argv) from a library or a test counts from the call and arms no hard stop."""
    before = signal.getsignal(signal.SIGALRM)
    code = main(["explain", str(ROOT / "examples" / "prob-bridges.txt"), "--time-limit", "30"])
    assert code == 0, capsys.readouterr().err
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGALRM) is before


def _stuck_reading(tmp_path, *argv):
    """Run ``hashikit ARGV`` reading a standard input that never ends: the command is stuck in
    its own process, where only the hard stop can end it."""
    out, err = tmp_path / "out", tmp_path / "err"
    with open(out, "w") as fo, open(err, "w") as fe:
        proc = subprocess.Popen([sys.executable, "-m", "hashikit", *argv], stdin=subprocess.PIPE,
                                stdout=fo, stderr=fe, cwd=ROOT)
        try:
            code = proc.wait(timeout=120)
        finally:
            proc.kill()
            proc.stdin.close()
            proc.wait()
    return code, out.read_text(), err.read_text()


@pytest.mark.parametrize("argv, where, expected", [
    (["solve", "-", "--from", "grid"], "err", "unknown by sat: no answer within the time limit of 0.5 s"),
    (["solve", "-", "--from", "grid", "-q"], "err", ""),
    (["solve", "-", "--from", "grid", "--format", "json"], "out",
     {"status": "unknown", "bridges": [], "engine": "sat", "message": "no answer within the time limit of 0.5 s"}),
    (["grade", "-", "--from", "grid"], "out", "unknown: no answer within the time limit of 0.5 s"),
    (["explain", "-", "--from", "grid", "--format", "json"], "out",
     {"solved": False, "steps": [], "undecided": None, "status": "unknown",
      "verdict": "unknown: no answer within the time limit of 0.5 s"}),
    (["grade", "-", "--from", "grid", "--format", "json"], "out",
     {"grade": None, "score": None, "steps": {}, "undecided": None, "status": "unknown",
      "verdict": "unknown: no answer within the time limit of 0.5 s"}),
    (["hint", "-", "--from", "grid"], "out", "unknown: no answer within the time limit of 0.5 s"),
])
def test_the_hard_stop_answers_unknown_when_a_stage_cannot_stop(tmp_path, argv, where, expected):
    code, out, err = _stuck_reading(tmp_path, *argv, "--time-limit", "0.5")
    assert code == 1, err
    text = out if where == "out" else err
    assert (json.loads(text) if isinstance(expected, dict) else text.strip()) == expected
    assert "Traceback" not in err


def test_the_hard_stop_writes_a_json_answer_to_the_output_file(tmp_path):
    report = tmp_path / "report.json"
    code, out, err = _stuck_reading(tmp_path, "solve", "-", "--from", "grid", "--format", "json",
                                    "-o", report, "--time-limit", "0.5")
    assert code == 1 and out == "", err
    assert json.loads(report.read_text())["status"] == "unknown"


def test_the_hard_stop_finds_every_descendant():
    """The workers a stopped command leaves (and theirs) are found, to be killed."""
    from hashikit.cli.deadline import _descendants

    script = ("import subprocess, sys, time; "
              "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)']); time.sleep(60)")
    child = subprocess.Popen([sys.executable, "-c", script])
    below: list[int] = []
    try:
        for _ in range(1200):
            below = _descendants(child.pid)
            if below:
                break
            time.sleep(0.05)
        assert len(below) == 1
        assert int(Path(f"/proc/{below[0]}/stat").read_text().rsplit(")", 1)[1].split()[1]) == child.pid
        mine = _descendants()
        assert child.pid in mine and below[0] in mine and mine.index(child.pid) < mine.index(below[0])
    finally:
        for pid in [*below, child.pid]:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        child.wait()


def test_the_readme_states_the_margins():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"`limits.TIME_MARGIN` ({limits.TIME_MARGIN:g} s)" in readme
    assert f"`limits.GRACE`, {limits.GRACE:g} s" in readme
    assert f"`limits.HARD_STOP` ({limits.HARD_STOP:g} s)" in readme
    assert limits.GRACE < limits.HARD_STOP < limits.TIME_MARGIN


def test_a_solve_inside_a_killed_worker_runs_in_that_worker():
    """Inside ``within`` (a worker killed at the deadline) a limited solve needs no process of its
    own: one would be left running, orphaned, by the kill."""
    from hashikit import solve
    from hashikit.solvers import process

    inside = service.within(60, solve, SMALL, time_limit=30)
    assert inside.solved and inside.stats["process"] == "caller (killed at the deadline)"
    assert not process._killed_at_deadline
    assert solve(SMALL, time_limit=30).stats["process"] == "child"


@pytest.mark.parametrize("bad", [-1, 0, float("nan"), float("inf"), "1", True])
def test_a_bad_time_limit_from_the_library_is_refused_where_it_is_given(bad):
    """Every library entry that takes a time limit refuses a bad one at once, with the same check
    (``limits.validate_seconds``), rather than 'no puzzle within -1 s' or a job that never stops."""
    from hashikit.errors import BadArgument
    from hashikit.generate import generate_unique
    from hashikit.run.batch import Job
    from hashikit.service import within
    from hashikit.solvers import solve
    from hashikit.model import Puzzle

    puzzle = Puzzle.from_grid([[1, 0, 1]])
    for call in (lambda: generate_unique(7, 7, "easy", seed=1, time_limit=bad),
                 lambda: Job("k", print, time_limit=bad),
                 lambda: within(bad, print),
                 lambda: solve(puzzle, time_limit=bad)):
        with pytest.raises(ValueError, match="time_limit"):
            call()
    assert issubclass(BadArgument, ValueError)
