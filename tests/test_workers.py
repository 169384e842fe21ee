"""hashikit.run.workers: deadlines kept by killing the worker, partial results streamed, a job's
exception raised in the caller, killed workers replaced, nothing left running after close or
Ctrl-C; and the time-limited solve and the web app on a pool.

The jobs are module-level functions: a pool's workers (forkserver or spawn) import them by name.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from hashikit.run import workers
from hashikit.checker import check
from hashikit.limits import TIME_MARGIN
from hashikit.model import Puzzle
from conftest import loaded

ROOT = Path(__file__).resolve().parents[1]
def slack() -> float:
    """Seconds of slack on top of what a deadline promises: 2 s, more on a loaded machine."""
    return loaded(2.0)


# -- jobs ----------------------------------------------------------------------------------------------
def square(x):
    return x * x


def pid():
    return os.getpid()


def sleep_then(seconds, value=None):
    time.sleep(seconds)
    return value


def fail(message):
    raise ValueError(message)


def post_then_sleep(n, seconds, post):
    for i in range(n):
        post(i)
    time.sleep(seconds)
    return "done"


def unpicklable_answer():
    return threading.Lock()


_KEPT = []


def resident_mib() -> int:
    return int(next(line for line in Path("/proc/self/status").read_text().splitlines()
                    if line.startswith("VmRSS")).split()[1]) // 1024


def churn_then_resident(blocks: int = 300_000) -> int:
    """Take ``blocks`` KiB in blocks that go through malloc, keep one small block taken after them
    (the heap cannot shrink past it), free the rest: this process's resident MiB at the job's end."""
    taken = [bytearray(1024) for _ in range(blocks)]
    _KEPT.append(bytearray(1024))
    del taken
    return resident_mib()


def alive(p: int) -> bool:
    """``p`` is a running process (not gone, not a zombie waiting to be reaped)."""
    try:
        state = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        try:
            os.kill(p, 0)
        except ProcessLookupError:
            return False
        return True
    return state not in ("Z", "X")


def gone_soon(pids, within: float = 5.0) -> bool:
    end = time.monotonic() + within
    while time.monotonic() < end:
        if not any(alive(p) for p in pids):
            return True
        time.sleep(0.05)
    return False


def warm(pool):
    """Have every worker import this module (the first job a worker runs imports it: seconds on a
    loaded machine, which would count against a short deadline)."""
    threads = [threading.Thread(target=pool.run, args=(sleep_then, (0.5,))) for _ in range(pool.size)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


@pytest.fixture(scope="module")
def pool():
    with workers.Pool(2, name="hashikit-test") as p:
        warm(p)
        yield p


@pytest.fixture(scope="module")
def one():
    """A pool of one worker: what happens to *the* worker is visible."""
    with workers.Pool(1, name="hashikit-test-one") as p:
        warm(p)
        yield p


def soon(seconds: float) -> float:
    return time.monotonic() + seconds


# -- the pool ----------------------------------------------------------------------------------------
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="resident memory from /proc (Linux)")
def test_a_capped_worker_hands_back_what_its_job_freed():
    """A worker with a memory cap (the web's) gives the heap its job freed back to the system
    after the job: a worker that once needed much does not hold it for good."""
    with workers.Pool(1, name="hashikit-test-trim", memory=2 ** 30) as p:
        before = p.run(resident_mib)
        during = p.run(churn_then_resident)
        after = p.run(resident_mib)
    assert during > before + 200, (before, during)  # the job's freed blocks were still the process's
    assert after < before + 100, (before, during, after)


def test_pool_runs_jobs_on_warm_workers(pool):
    assert [pool.run(square, (i,)) for i in range(20)] == [i * i for i in range(20)]
    assert pool.run(pid) in pool.pids() and os.getpid() not in pool.pids()


def test_a_job_past_its_deadline_is_killed_and_its_worker_replaced(one):
    first = one.run(pid)
    start = time.monotonic()
    with pytest.raises(workers.Overrun):
        one.run(sleep_then, (60,), deadline=soon(0.3))
    assert time.monotonic() - start < 0.3 + slack()
    assert gone_soon([first])  # killed, not left sleeping
    assert one.run(square, (7,), deadline=soon(30)) == 49  # the next job runs, on the replacement
    assert one.run(pid) != first


def test_partial_results_are_streamed_and_kept_at_the_deadline(pool):
    got = []
    assert pool.run(post_then_sleep, (3, 0), on_message=got.append) == "done" and got == [0, 1, 2]
    got.clear()
    with pytest.raises(workers.Overrun):
        pool.run(post_then_sleep, (4, 60), on_message=got.append, deadline=soon(1.0))
    assert got == [0, 1, 2, 3]


def test_a_jobs_exception_is_raised_in_the_caller_and_the_worker_carries_on(one):
    before = one.run(pid)
    with pytest.raises(ValueError, match="no such thing"):
        one.run(fail, ("no such thing",))
    with pytest.raises(RuntimeError, match="could not be handed back"):
        one.run(unpicklable_answer)
    assert one.run(pid) == before


def test_a_job_that_does_not_pickle_is_refused_and_the_worker_stays(pool):
    with pytest.raises(TypeError, match="pickle"):
        pool.run(square, (threading.Lock(),))
    assert pool.run(square, (3,)) == 9


def test_a_worker_killed_from_outside_is_a_clear_error_and_is_replaced(one):
    victim = one.run(pid)
    threading.Timer(0.3, os.kill, (victim, signal.SIGKILL)).start()
    with pytest.raises(workers.WorkerDied):
        one.run(sleep_then, (60,), deadline=soon(30))
    assert one.run(square, (5,), deadline=soon(30)) == 25
    os.kill(one.pids()[0], signal.SIGKILL)  # idle this time: the next job gets a live worker
    time.sleep(0.2)
    assert one.run(square, (6,), deadline=soon(30)) == 36


def test_waiting_for_a_worker_counts_against_the_deadline(one):
    busy = threading.Thread(target=one.run, args=(sleep_then, (2,)))
    busy.start()
    time.sleep(0.2)
    start = time.monotonic()
    with pytest.raises(workers.Overrun):
        one.run(square, (2,), deadline=soon(0.3))
    assert time.monotonic() - start < 0.3 + slack()
    busy.join()
    assert one.run(square, (2,)) == 4  # the busy worker came back


def test_callers_queue_for_the_workers(pool):
    """More callers than workers: each answers (the others wait their turn)."""
    out = [None] * 8

    def call(i):
        out[i] = pool.run(sleep_then, (0.1, i), deadline=soon(30))

    threads = [threading.Thread(target=call, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert out == list(range(8))


def test_cancel_kills_the_job(one):
    first = one.run(pid)
    cancel = threading.Event()
    threading.Timer(0.3, cancel.set).start()
    start = time.monotonic()
    with pytest.raises(workers.Cancelled):
        one.run(sleep_then, (60,), cancel=cancel, deadline=soon(30))
    assert time.monotonic() - start < 0.3 + slack() and gone_soon([first])
    assert one.run(square, (3,), deadline=soon(30)) == 9


def test_close_leaves_no_live_worker():
    one = workers.Pool(2, name="hashikit-test")
    pids = one.pids()
    assert len(pids) == 2 and all(alive(p) for p in pids)
    stuck = threading.Thread(target=lambda: pytest.raises(workers.WorkerDied, one.run, sleep_then, (60,)))
    stuck.start()
    time.sleep(0.3)
    one.close()
    stuck.join(5)
    assert not stuck.is_alive()  # the caller waiting on a killed worker was answered
    assert gone_soon(pids)
    assert not [p for p in multiprocessing.active_children() if p.pid in pids]
    with pytest.raises(workers.WorkerDied):
        one.run(square, (1,))


def test_the_current_pool_is_used_by_default(pool):
    assert workers.current() is None
    assert workers.run(pid, deadline=soon(30)) not in pool.pids()  # one-off worker
    workers.activate(pool)
    try:
        assert workers.current() is pool and workers.run(pid, deadline=soon(30)) in pool.pids()
    finally:
        workers.deactivate(pool)
    assert workers.current() is None


# -- one-off workers (no pool: the CLI and library) ---------------------------------------------------------
def test_one_off_worker_keeps_the_deadline_and_streams():
    got = []
    start = time.monotonic()
    with pytest.raises(workers.Overrun):
        workers.run(post_then_sleep, (2, 60), on_message=got.append, deadline=soon(1.0))
    assert time.monotonic() - start < 1.0 + slack() and got == [0, 1]
    with pytest.raises(ValueError, match="boom"):
        workers.run(fail, ("boom",))
    assert workers.run(square, (4,), deadline=soon(30)) == 16
    time.sleep(0.2)
    assert not [p for p in multiprocessing.active_children() if p.name.startswith("hashikit-worker")]


# -- Ctrl-C: a process with a pool, interrupted while it waits on a long job ---------------------------------
CTRL_C = textwrap.dedent("""
    import os, sys, time
    sys.path.insert(0, sys.argv[1])
    from hashikit.run import workers
    import test_workers as jobs
    if __name__ == "__main__":
        pool = workers.activate(workers.Pool(2))
        print(" ".join(map(str, pool.pids())), flush=True)
        try:
            workers.run(jobs.sleep_then, (600,))
        except KeyboardInterrupt:
            print("interrupted", flush=True)
            raise
""")


def test_ctrl_c_ends_the_job_and_the_pool(tmp_path):
    script = tmp_path / "pool_ctrl_c.py"
    script.write_text(CTRL_C)
    proc = subprocess.Popen([sys.executable, str(script), str(Path(__file__).parent)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        pids = [int(p) for p in proc.stdout.readline().split()]
        assert len(pids) == 2 and all(alive(p) for p in pids), proc.stderr.read()
        time.sleep(0.5)
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=15)
        took = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert out.strip() == "interrupted" and "KeyboardInterrupt" in err and took < 5, (out, err)
    assert gone_soon(pids)


# -- the time-limited solve on a pool -------------------------------------------------------------------------
def test_a_time_limited_solve_on_a_pool_keeps_its_limit_and_its_solutions(pool):
    from hashikit.solvers import solve

    m = 100_000
    p = Puzzle(3, 3, [(0, 0, m), (0, 2, m), (2, 0, m), (2, 2, m)], maxbridges=m)
    workers.activate(pool)
    try:
        start = time.monotonic()
        r = solve(p, max_solutions=10**9, time_limit=1.0)
        took = time.monotonic() - start
        ring = Puzzle.from_grid([[2, 0, 2], [0, 0, 0], [2, 0, 2]])
        small = solve(ring, max_solutions=2, time_limit=10)
    finally:
        workers.deactivate(pool)
    assert took < 1.0 + TIME_MARGIN + slack()
    assert r.stats["process"] == "pool worker" and r.stopped == "time limit" and r.solutions
    assert all(check(p, s).ok for s in r.solutions)
    assert small.solved and small.unique is True and small.stats["process"] == "pool worker"
    assert check(ring, small.solution).ok


def test_a_died_worker_says_why_in_the_words_the_batch_runner_uses():
    from hashikit.run.workers import WorkerDied, exit_note

    assert str(WorkerDied(-9)) == "the worker process ended without an answer (killed by SIGKILL)"
    assert str(WorkerDied(7)) == "the worker process ended without an answer (exit code 7)"
    assert str(WorkerDied(None)) == "the worker process ended without an answer"
    assert exit_note(None) == "ended abruptly" and exit_note(-200) == "killed by signal 200"


def test_a_deadline_already_past_is_an_overrun_not_a_death(one):
    """A job whose deadline has passed when it is handed over is an Overrun: the worker is killed
    at once, and its "started" notice, still in the pipe, is not taken for its answer (it was
    reported as WorkerDied, 'out of memory?', whenever the worker said it started in time)."""
    for _ in range(20):
        with pytest.raises(workers.Overrun):
            one.run(sleep_then, (60,), deadline=time.monotonic() - 1)
    assert one.run(square, (3,), deadline=soon(30)) == 9


def test_what_a_killed_worker_left_in_its_pipe_is_read_but_its_start_is_no_answer():
    mine, theirs = multiprocessing.Pipe()
    got = []
    theirs.send(("started", None))
    theirs.send(("message", "m"))
    assert workers._late(mine, got.append, "overrun", None) == ("overrun", None) and got == ["m"]
    theirs.send(("started", None))
    theirs.send(("value", 7))
    assert workers._late(mine, got.append, "overrun", None) == ("value", 7)


START_INTERRUPTED = textwrap.dedent("""
    import sys, time
    from hashikit.run import workers

    class Interrupted(workers._Worker):
        # Ctrl-C lands just after the worker process was started, before the pool holds it:
        # nobody kills that process, and it reports "ready" into a pipe its pool has closed
        def __init__(self, *args):
            raise KeyboardInterrupt

    if __name__ == "__main__":  # the fork server's children import this file without running it
        workers._Worker = Interrupted
        try:
            workers.Pool(1, name="hashikit-test-start", initializer=time.sleep, initargs=(0.5,))
        except KeyboardInterrupt:
            time.sleep(3)  # the orphan wakes up, says it is ready, meets the closed pipe
            print("interrupted", flush=True)
""")


def test_a_worker_whose_pool_was_interrupted_while_starting_it_ends_quietly(tmp_path):
    """Ctrl-C while a pool starts a worker (the batch runner's first submission, a forkserver still
    importing): the worker outlives its pool's start, finds its pipe closed when it says it is
    ready, and ends without a word (it printed a BrokenPipeError traceback under the batch
    runner's Ctrl-C exit)."""
    script = tmp_path / "start_interrupted.py"
    script.write_text(START_INTERRUPTED)
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert proc.stdout.strip() == "interrupted" and proc.stderr == "", proc.stderr[-2000:]

