"""hashikit.run.batch: crashed workers become error rows, resume, seeds, Ctrl-C, progress on stderr only.

The job functions are module-level so that spawned workers can import them.  The Ctrl-C and
progress tests run a small script in a subprocess, as a person's terminal would.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import textwrap
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from hashikit.run.batch import BatchError, CsvSink, Job, JsonLinesSink, base_seed, job_seed, jobs_from_records, run_batch

ROOT = Path(__file__).resolve().parents[1]


from batch_jobs import exit_hard, fail, kill_self, mark, nap, nap_noted, quit_job, seeded_draw, square


def runs_of(folder, key):
    return len(list(Path(folder).glob(f"{key}.*")))


def by_key(results):
    return {r.key: r for r in results}


# -- crashes ----------------------------------------------------------------------------------------
def test_killed_and_exiting_workers_give_error_rows_and_the_rest_finish():
    jobs = [Job(f"sq{i}", square, (i,)) for i in range(6)]
    jobs.insert(2, Job("exit7", exit_hard, (7,)))
    jobs.insert(5, Job("sigkill", kill_self))
    res = by_key(run_batch(jobs, workers=2, progress=False))
    assert set(res) == {j.key for j in jobs}
    for i in range(6):
        assert res[f"sq{i}"].ok and res[f"sq{i}"].value == i * i
    assert not res["exit7"].ok and "exit code 7" in res["exit7"].error
    # each crash is its own job's: the worker's exit status says why
    assert not res["sigkill"].ok and res["sigkill"].error == "worker process died (killed by SIGKILL)"


def test_a_worker_killed_from_outside_costs_its_job_only(tmp_path):
    """SIGKILL from outside to a busy worker (the kernel's OOM killer, an operator): that job gets
    its error row with the signal's name, the pool puts a new worker in its place, and every other
    job, the one running beside it included, finishes."""
    jobs = [Job(f"n{i}", nap_noted, (str(tmp_path), f"n{i}", 1.0)) for i in range(6)]
    killed: list[str] = []

    def kill_first():
        end = time.monotonic() + 60
        while time.monotonic() < end:
            notes = sorted(tmp_path.iterdir())
            if notes:
                key, pid = notes[0].name.split(".")
                os.kill(int(pid), signal.SIGKILL)
                killed.append(key)
                return
            time.sleep(0.02)

    killer = threading.Thread(target=kill_first)
    killer.start()
    res = by_key(run_batch(jobs, workers=2, progress=False))
    killer.join()
    assert len(killed) == 1
    assert res[killed[0]].error == "worker process died (killed by SIGKILL)"
    assert {k: r.value for k, r in res.items() if k != killed[0]} == {j.key: j.key for j in jobs if j.key != killed[0]}


def _interrupted_batches(count: int) -> list[str]:
    """Run tests/batch_interrupt.py ``count`` times, Ctrl-C each; what went wrong, if anything."""
    bad = []
    for _ in range(count):
        proc = subprocess.Popen([sys.executable, str(ROOT / "tests" / "batch_interrupt.py")], cwd=ROOT,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert proc.stdout.readline().strip() == "go"
        time.sleep(0.8)  # the workers have their jobs, the others wait their turn
        proc.send_signal(signal.SIGINT)
        try:
            _, err = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            _, err = proc.communicate()
            bad.append(f"still running 30 s after Ctrl-C: {err[-1500:]}")
            continue
        if proc.returncode != 130 or err:
            bad.append(f"exit {proc.returncode}: {err[-1500:]}")
    return bad


def test_ctrl_c_with_jobs_waiting_ends_130_and_says_nothing():
    """Ctrl-C with jobs running and more waiting: exit 130, nothing on standard error.  (On the
    standard library's process pool this printed an InvalidStateError from the pool's manager
    thread about 1 run in 16, and an EBADF from the interpreter's exit hook about 1 in 100.)"""
    assert _interrupted_batches(6) == []


@pytest.mark.slow
def test_ctrl_c_with_jobs_waiting_never_leaves_a_traceback_long_run():
    assert _interrupted_batches(80) == []


@pytest.mark.slow
def test_a_storm_of_crashes_never_breaks_the_runner_or_its_exit():
    """Crashing jobs among good ones, 10 batches a process, 8 processes: every row right, and each
    process exits."""
    for _ in range(8):
        proc = subprocess.run([sys.executable, str(ROOT / "tests" / "batch_storm.py"), "10"], cwd=ROOT,
                              capture_output=True, text=True, timeout=180)
        assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr[-3000:]


def test_a_crash_storm_in_one_batch_gives_each_crash_its_own_row():
    jobs = [Job(f"sq{i}", square, (i,)) for i in range(12)]
    for i in range(0, 12, 3):
        jobs.insert(i, Job(f"exit{i}", exit_hard, (i + 1,)))
    res = by_key(run_batch(jobs, workers=2, progress=False))
    assert {k: r.value for k, r in res.items() if k.startswith("sq")} == {f"sq{i}": i * i for i in range(12)}
    assert {k: r.error for k, r in res.items() if k.startswith("exit")} == \
        {f"exit{i}": f"worker process died (exit code {i + 1})" for i in range(0, 12, 3)}


def test_exceptions_and_exits_in_a_job_are_error_rows_inline_and_in_workers():
    jobs = [Job("bad", fail, ("no luck",)), Job("quit", quit_job), Job("good", square, (3,))]
    for kw in ({"inline": True}, {"workers": 2}):
        res = by_key(run_batch(jobs, progress=False, **kw))
        assert res["bad"].error == "ValueError: no luck" and not res["bad"].ok
        assert not res["quit"].ok and "SystemExit" in res["quit"].error
        assert res["good"].ok and res["good"].value == 9


def test_a_job_past_its_hard_deadline_is_ended_and_the_others_finish():
    jobs = [Job("stuck", nap, (60,), time_limit=0.2)] + [Job(f"sq{i}", square, (i,)) for i in range(4)]
    start = time.monotonic()
    res = by_key(run_batch(jobs, workers=2, grace=0.3, progress=False))
    assert time.monotonic() - start < 15
    assert not res["stuck"].ok and "time limit" in res["stuck"].error
    assert all(res[f"sq{i}"].ok and res[f"sq{i}"].value == i * i for i in range(4))


def test_a_deadline_counts_from_when_the_job_starts_not_while_it_waits():
    # one worker, two 1.2 s jobs: the second waits 1.2 s in the pool's queue, then runs 1.2 s; its
    # hard deadline (0.1 + 1.9 s) is kept only if the clock starts when it starts
    jobs = [Job(f"n{i}", nap, (1.2,), time_limit=0.1) for i in range(2)]
    res = by_key(run_batch(jobs, workers=1, grace=1.9, progress=False))
    assert all(r.ok for r in res.values()), {k: r.error for k, r in res.items()}


def test_another_executor_is_used_and_left_open():
    with ThreadPoolExecutor(2) as pool:
        res = by_key(run_batch([Job(str(i), square, (i,)) for i in range(5)], executor=pool, progress=False))
        assert {k: r.value for k, r in res.items()} == {str(i): i * i for i in range(5)}
        assert pool.submit(square, 4).result() == 16  # not shut down by the runner


def test_duplicate_or_empty_keys_are_refused():
    with pytest.raises(BatchError, match="share the key"):
        list(run_batch([Job("a", square, (1,)), Job("a", square, (2,))], inline=True, progress=False))
    with pytest.raises(BatchError, match="non-empty"):
        list(run_batch([Job("", square, (1,))], inline=True, progress=False))


def test_jobs_from_records_names_jobs_by_record():
    jobs = jobs_from_records(square, [2, 3], key=str)
    assert [(j.key, j.args) for j in jobs] == [("2", (2,)), ("3", (3,))]
    assert [r.value for r in run_batch(jobs, inline=True, progress=False)] == [4, 9]


# -- resume -----------------------------------------------------------------------------------------
def test_resume_skips_stored_jobs(tmp_path):
    out = tmp_path / "out.jsonl"
    ran = tmp_path / "ran"
    ran.mkdir()
    first = [Job(f"k{i}", mark, (str(ran), f"k{i}")) for i in range(4)]
    assert [r.ok for r in run_batch(first, workers=2, sink=JsonLinesSink(str(out)), progress=False)] == [True] * 4
    with open(out, "a") as fh:  # a run killed mid-write leaves a torn line
        fh.write('{"key": "k9", "ok": tr')
    more = first + [Job(f"k{i}", mark, (str(ran), f"k{i}")) for i in range(4, 6)]
    res = list(run_batch(more, workers=2, sink=JsonLinesSink(str(out)), resume=True, progress=False))
    assert {r.key for r in res} == {f"k{i}" for i in range(6)}
    assert {r.key for r in res if r.resumed} == {f"k{i}" for i in range(4)}
    assert all(runs_of(ran, f"k{i}") == 1 for i in range(6))
    rows = [json.loads(line) for line in out.read_text().splitlines() if line.startswith('{"key": "k') and
            line.endswith("}")]
    assert sorted(r["key"] for r in rows) == [f"k{i}" for i in range(6)]
    # without resume the file starts afresh and every job runs again
    list(run_batch(more, inline=True, sink=JsonLinesSink(str(out)), progress=False))
    assert len(out.read_text().splitlines()) == 6 and runs_of(ran, "k0") == 2


def test_resume_runs_failed_jobs_again_only_when_asked(tmp_path):
    out = str(tmp_path / "out.jsonl")
    jobs = [Job("bad", fail, ("x",)), Job("good", square, (2,))]
    list(run_batch(jobs, inline=True, sink=JsonLinesSink(out), progress=False))
    again = by_key(run_batch(jobs, inline=True, sink=JsonLinesSink(out), resume=True, progress=False))
    assert again["bad"].resumed and again["bad"].error == "ValueError: x"
    retried = by_key(run_batch(jobs, inline=True, sink=JsonLinesSink(out), resume=True, retry_failed=True,
                               progress=False))
    assert not retried["bad"].resumed and retried["good"].resumed


def test_csv_sink_streams_rows_and_resumes(tmp_path):
    out = str(tmp_path / "out.csv")

    def sink():
        return CsvSink(out, ["name", "square", "error"], key_of=lambda row: row["name"],
                       row_of=lambda r: {"name": r.key, "square": r.value if r.ok else "", "error": r.error},
                       result_of=lambda row: (row["error"] == "", int(row["square"]) if row["square"] else None))

    jobs = [Job(str(i), square, (i,)) for i in range(3)] + [Job("bad", fail, ("x",))]
    list(run_batch(jobs, inline=True, sink=sink(), progress=False))
    lines = Path(out).read_text().splitlines()
    assert lines[0] == "name,square,error" and len(lines) == 5
    res = by_key(run_batch(jobs + [Job("3", square, (3,))], inline=True, sink=sink(), resume=True, progress=False))
    assert res["2"].resumed and res["2"].value == 4 and not res["3"].resumed and res["3"].value == 9
    assert not res["bad"].ok and res["bad"].resumed
    assert len(Path(out).read_text().splitlines()) == 6
    other = CsvSink(out, ["a", "b"], key_of=lambda row: row["a"], row_of=lambda r: {})
    with pytest.raises(BatchError, match="cannot resume"):
        list(run_batch(jobs, inline=True, sink=other, resume=True, progress=False))


# -- seeds ------------------------------------------------------------------------------------------
def test_seeds_do_not_depend_on_order_workers_or_process():
    keys = [f"job{i}" for i in range(8)]
    jobs = [Job(k, seeded_draw, (42, k)) for k in keys]
    inline = {r.key: r.value for r in run_batch(jobs, inline=True, progress=False)}
    shuffled = list(jobs)
    random.Random(5).shuffle(shuffled)
    pooled = {r.key: r.value for r in run_batch(shuffled, workers=2, progress=False)}
    assert inline == pooled
    assert len(set(inline.values())) == len(keys)
    # another interpreter with another hash seed computes the same seeds
    code = "from hashikit.run.batch import job_seed; print(job_seed(42, 'job3'), job_seed(7, 100, 25, 5, 1))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONHASHSEED": "123"}).stdout.split()
    assert out == [str(job_seed(42, "job3")), str(job_seed(7, 100, 25, 5, 1))]


def test_seeds_differ_by_base_and_parts_and_fit_63_bits():
    seeds = {job_seed(b, *p) for b in range(20) for p in [(i,) for i in range(50)] + [(1, 2), (2, 1), ("1",)]}
    assert len(seeds) == 20 * 53
    assert all(0 <= s < 2 ** 63 for s in seeds)
    assert base_seed(17) == 17 and isinstance(base_seed(None), int)


# -- Ctrl-C and progress, in a subprocess ---------------------------------------------------------------
SCRIPT = textwrap.dedent("""
    import os, sys, time
    from pathlib import Path
    from hashikit.run.batch import Job, run_batch

    def slow(folder, i):
        Path(folder, str(os.getpid())).touch()
        time.sleep(60)

    def quick(i):
        return i

    if __name__ == "__main__":
        mode, folder = sys.argv[1], sys.argv[2]
        try:
            if mode == "slow":
                jobs = [Job(str(i), slow, (folder, i)) for i in range(6)]
                for r in run_batch(jobs, workers=2, progress=False):
                    print(r.key, r.ok, flush=True)
            else:
                for r in run_batch([Job(str(i), quick, (i,)) for i in range(3)], workers=2,
                                   force_progress=(mode == "forced"), label="demo"):
                    pass
        except KeyboardInterrupt:
            sys.exit(130)
""")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie (dead, not yet reaped by its parent) counts as gone
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.parametrize("sig, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143), (signal.SIGKILL, -9)])
def test_a_stopped_batch_leaves_no_worker_behind(tmp_path, sig, status):
    """Ctrl-C (SIGINT) and SIGTERM end the batch and its workers within seconds; after SIGKILL of the
    runner (no clean-up possible) the workers notice and end themselves."""
    script = tmp_path / "slowbatch.py"
    script.write_text(SCRIPT)
    started = tmp_path / "started"
    started.mkdir()
    proc = subprocess.Popen([sys.executable, str(script), "slow", str(started)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while len(list(started.iterdir())) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        workers = [int(p.name) for p in started.iterdir()]
        assert len(workers) == 2, "the workers never started"
        t0 = time.monotonic()
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=10)
        took = time.monotonic() - t0
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == status, err
    assert took < 4, f"the batch took {took:.1f} s to stop"
    assert out == ""  # no job finished, none was reported as done
    deadline = time.monotonic() + 5
    while [pid for pid in workers if _alive(pid)] and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in workers if _alive(pid)]


@pytest.mark.parametrize("mode", ["forced", "plain"])
def test_progress_goes_to_stderr_only(tmp_path, mode):
    script = tmp_path / "quick.py"
    script.write_text(SCRIPT)
    proc = subprocess.run([sys.executable, str(script), mode, str(tmp_path)], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == ""
    if mode == "forced":
        assert "demo" in proc.stderr and "3/3" in proc.stderr
    else:  # standard error is a pipe here, not a terminal: no bar
        assert proc.stderr == ""
