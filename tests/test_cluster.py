"""The Dask executor: a local cluster gives the same puzzles as one process for the same seeds, and a
worker killed mid-run loses nothing (its tasks run again elsewhere)."""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import pytest

from hashikit.publish.catalog import Catalog, generate_row
from hashikit.run import batch, cluster
from hashikit.run.batch import Job, JsonLinesSink, run_batch
from hashikit.run.cluster import (ClusterError, ClusterLost, ClusterUnavailable, DaskExecutor, executor, parse_spec,
                                  run_jobs, workers_of)

SIZE, LEVEL = 6, "easy"


def slow_row(rows, cols, level, seed):
    """A job long enough that a worker is killed while it holds some."""
    time.sleep(0.2)
    return generate_row(rows, cols, level, seed)


@pytest.mark.parametrize("spec, parsed", [("local", ("local", None)), ("local:2", ("local", 2)),
                                          ("tcp://10.0.0.5:8786", ("tcp", "tcp://10.0.0.5:8786")),
                                          ("tcp://scheduler.example:9000", ("tcp", "tcp://scheduler.example:9000")),
                                          ("tcp://[::1]:8786", ("tcp", "tcp://[::1]:8786"))])
def test_specs(spec, parsed):
    assert parse_spec(spec) == parsed


@pytest.mark.parametrize("spec", ["", "local:", "local:0", "local:x", "remote", "tcp://", "http://h:1",
                                  "local:99999", "tcp://a b:1", "tcp://h:1/x", "tcp://-h:1", None])
def test_bad_specs_are_refused_with_the_forms_named(spec):
    with pytest.raises(ClusterError, match="local|workers"):
        parse_spec(spec)


@pytest.mark.parametrize("spec, message", [
    ("tcp://127.0.0.1", r"'tcp://127.0.0.1' has no port: give one, as in tcp://127.0.0.1:8786"),
    ("tcp://sched:", r"'tcp://sched:' has no port: give one, as in tcp://sched:8786"),
    ("tcp://sched:0", r"a port runs from 1 to 65535, got 0"),
    ("tcp://sched:65536", r"a port runs from 1 to 65535, got 65536")])
def test_an_address_without_a_usable_port_is_refused_before_any_work(spec, message):
    with pytest.raises(ClusterError, match=message):
        parse_spec(spec)


def test_missing_dask_gives_the_install_line(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed -> ImportError
    with pytest.raises(ClusterUnavailable, match=r'pip install "\.\[cluster\]"'):
        with executor("local:1"):
            pass


def test_unreachable_scheduler_is_a_clear_error():
    with pytest.raises(ClusterError, match="cannot reach the Dask scheduler at tcp://127.0.0.1:9"):
        with executor("tcp://127.0.0.1:9", connect_timeout=1):
            pass


def test_local_cluster_gives_the_same_puzzles_and_survives_a_killed_worker(tmp_path):
    """In the test process (a later worker pool in the same process must not suffer from it:
    tests/test_pool_stress.py and the serial suite run after it)."""
    seeds = list(range(16))
    in_process = {generate_row(SIZE, SIZE, LEVEL, s)[0]: s for s in seeds}
    got: dict[str, int] = {}
    cat = Catalog(tmp_path / "c.db")
    killed = False
    with pytest.raises(KeyboardInterrupt):
        with executor("local:2") as pool:
            pids = workers_of(pool)
            assert len(pids) == 2 and os.getpid() not in pids.values()
            for (_, _, _, seed), row in run_jobs(pool, slow_row, [(SIZE, SIZE, LEVEL, s) for s in seeds]):
                got[row[0]] = seed
                cat.add_rows([row])  # one writer, fed as results stream in
                if len(got) == 4 and not killed:
                    os.kill(next(iter(pids.values())), signal.SIGKILL)
                    killed = True
            # then Ctrl-C with many jobs queued: the block ends, the queue is cancelled, workers stop
            pids = workers_of(pool)
            for _ in run_jobs(pool, generate_row, [(15, 15, "hard", s) for s in range(500)]):
                raise KeyboardInterrupt
    time.sleep(1)
    assert [p for p in pids.values() if os.path.exists(f"/proc/{p}")] == []
    assert killed
    assert got == in_process  # every seed once, each the same puzzle as in one process
    assert cat.fingerprints() == set(in_process) and len(cat) == len(seeds)
    assert cat.add_rows([generate_row(SIZE, SIZE, LEVEL, 0)]) == 0  # a second run adds nothing
    cat.close()


# -- what the batch runner asks a cluster: its capacity, and whether it is still there ---------------------
class TellingExecutor(ThreadPoolExecutor):
    """A thread pool that tells a capacity, as a cluster's executor does, and counts what it was given."""

    def __init__(self, capacity):
        super().__init__(max_workers=32)
        self.cap = capacity  # an int, or a function (may raise, as a lost cluster does)
        self.lock = threading.Lock()
        self.submitted = 0
        self.looks = 0

    def capacity(self) -> int:
        self.looks += 1
        return self.cap() if callable(self.cap) else self.cap

    def submit(self, fn, /, *args, **kwargs):
        with self.lock:
            self.submitted += 1
        return super().submit(fn, *args, **kwargs)


def gated(gate: threading.Event, x: int) -> int:
    assert gate.wait(60), "the test never opened the gate"
    return x * x


def wait_until(cond, what: str, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < end, what
        time.sleep(0.01)


def test_the_window_follows_the_clusters_capacity(monkeypatch):
    """Nothing is submitted while the cluster has no threads; then twice its threads, growing as workers join."""
    monkeypatch.setattr(batch, "POLL", 0.05)
    first, rest = threading.Event(), threading.Event()
    pool = TellingExecutor(0)
    seen = {}

    def steer():
        wait_until(lambda: pool.looks >= 5, "the runner never looked at the capacity")
        seen["no threads"] = pool.submitted
        pool.cap = 1
        wait_until(lambda: pool.submitted >= 2, "one thread: two jobs should be submitted")
        time.sleep(0.3)  # room for a wrong third submission to show
        seen["1 thread"] = pool.submitted
        pool.cap = 4
        wait_until(lambda: pool.submitted >= 8, "four threads: eight jobs should be in flight")
        time.sleep(0.3)
        seen["4 threads"] = pool.submitted
        first.set()
        rest.set()

    helper = threading.Thread(target=steer, daemon=True)
    helper.start()
    jobs = [Job(str(i), gated, (first if i < 2 else rest, i)) for i in range(20)]
    with pool:
        results = list(run_batch(jobs, executor=pool, progress=False))
    helper.join(5)
    assert seen == {"no threads": 0, "1 thread": 2, "4 threads": 8}
    assert sorted((r.key, r.ok, r.value) for r in results) == sorted((str(i), True, i * i) for i in range(20))


def test_a_lost_cluster_ends_the_batch_and_the_stored_rows_resume(tmp_path, monkeypatch):
    monkeypatch.setattr(batch, "POLL", 0.05)
    sink = lambda: JsonLinesSink(str(tmp_path / "rows.jsonl"))  # noqa: E731
    ran: list[int] = []

    def note(x):
        ran.append(x)
        return x * x

    state = {"results": 0}

    def capacity():
        if state["results"] >= 5:
            raise ClusterLost("lost the Dask scheduler at tcp://h:1: unreachable for 10 s")
        return 1

    jobs = [Job(str(i), note, (i,)) for i in range(12)]
    got = []
    with TellingExecutor(capacity) as pool, pytest.raises(ClusterLost, match="lost the Dask scheduler"):
        for r in run_batch(jobs, executor=pool, sink=sink(), resume=True, progress=False):
            got.append(r)
            state["results"] += 1
    # the loss is seen at the next look at the capacity: a row or two may come in before it
    assert 5 <= len(got) < len(jobs) and all(r.ok for r in got)
    assert set(sink().load()) == {r.key for r in got}  # every row given is stored, nothing else
    with TellingExecutor(2) as pool:
        again = list(run_batch(jobs, executor=pool, sink=sink(), resume=True, progress=False))
    assert sum(r.resumed for r in again) == len(got) and len(again) == 12 and all(r.ok for r in again)
    assert set(ran) == set(range(12)) and len(ran) - 12 <= 2  # run twice: only what was in flight at the loss
    assert {r.key: r.value for r in again} == {str(i): i * i for i in range(12)}


def test_jobs_the_cluster_cancelled_are_put_back_not_failed(monkeypatch):
    """Dask cancels the tasks of a scheduler it lost; if it comes back, those jobs run again."""
    monkeypatch.setattr(batch, "POLL", 0.05)

    class Cancelling(TellingExecutor):
        def __init__(self):
            super().__init__(2)
            self.cancelled: set = set()

        def submit(self, fn, /, *args, **kwargs):
            key = args[1]  # _call(fn, args, kwargs): the job's own args
            if key[0] % 2 == 0 and key not in self.cancelled:
                self.cancelled.add(key)
                fut = Future()
                fut.cancel()
                fut.set_running_or_notify_cancel()
                return fut
            return super().submit(fn, *args, **kwargs)

    with Cancelling() as pool:
        results = list(run_batch([Job(str(i), square, (i,)) for i in range(8)], executor=pool, progress=False))
    assert {r.key: (r.ok, r.value) for r in results} == {str(i): (True, i * i) for i in range(8)}
    assert len(pool.cancelled) == 4


def square(x):
    return x * x


class FakeClient:
    """What DaskExecutor reads of a Dask client: its status and its workers' threads."""

    def __init__(self, threads=None, status="running"):
        self.status = status
        self.threads = threads if threads is not None else {"tcp://w1:1": 1, "tcp://w2:1": 1}
        self.asked = 0

    def nthreads(self, callback_timeout=None):
        self.asked += 1
        if isinstance(self.threads, Exception):
            raise self.threads
        return dict(self.threads)

    def get_executor(self, **kw):
        return ThreadPoolExecutor(1)


def dask_executor(client, **kw) -> DaskExecutor:
    return DaskExecutor(client, "tcp://h:8786", lost_after=kw.pop("lost_after", 10), note=kw.pop("note", None))


def test_capacity_is_the_workers_threads_followed_as_they_change(monkeypatch):
    client = FakeClient()
    pool = dask_executor(client)
    assert pool.capacity() == 2
    client.threads = {"tcp://w1:1": 1, "tcp://w2:1": 1, "tcp://w3:1": 4}
    assert pool.capacity() == 2 and client.asked == 1  # looked at most once a POLL
    monkeypatch.setattr(cluster, "POLL", 0.0)
    assert pool.capacity() == 6
    client.threads = {"tcp://w3:1": 4}
    assert pool.capacity() == 4


@pytest.mark.parametrize("trouble", ["connecting", OSError("connection refused"), TimeoutError()])
def test_a_scheduler_unreachable_for_lost_after_seconds_is_lost(monkeypatch, trouble):
    monkeypatch.setattr(cluster, "POLL", 0.0)
    client = FakeClient()
    pool = dask_executor(client, lost_after=0.3)
    assert pool.capacity() == 2
    if isinstance(trouble, str):
        client.status = trouble
    else:
        client.threads = trouble
    assert pool.capacity() == 0  # gone for now: submit nothing, wait
    time.sleep(0.35)
    with pytest.raises(ClusterLost, match=r"lost the Dask scheduler at tcp://h:8786: unreachable for \d+ s"):
        pool.capacity()


def test_a_scheduler_that_comes_back_in_time_is_not_lost(monkeypatch):
    monkeypatch.setattr(cluster, "POLL", 0.0)
    client = FakeClient(status="connecting")
    pool = dask_executor(client, lost_after=0.3)
    assert pool.capacity() == 0
    client.status = "running"
    assert pool.capacity() == 2
    time.sleep(0.35)
    assert pool.capacity() == 2  # the clock restarted when it came back


def test_a_client_that_gave_up_is_lost_at_once(monkeypatch):
    monkeypatch.setattr(cluster, "POLL", 0.0)
    for status in ("closing", "closed"):
        with pytest.raises(ClusterLost):
            dask_executor(FakeClient(status=status), lost_after=100).capacity()


def test_no_workers_is_said_once_and_workers_joining_too(monkeypatch):
    monkeypatch.setattr(cluster, "POLL", 0.0)
    monkeypatch.setattr(cluster, "NO_WORKERS_NOTE", 0.0)
    said: list[str] = []
    client = FakeClient(threads={})
    pool = dask_executor(client, note=said.append)
    assert [pool.capacity() for _ in range(3)] == [0, 0, 0]
    assert said == ["the Dask scheduler at tcp://h:8786 has no workers: waiting for some "
                    "(start them with: dask worker tcp://h:8786; Ctrl-C stops)"]
    client.threads = {"tcp://w:1": 3}
    assert pool.capacity() == 3 and pool.capacity() == 3
    assert said[1:] == ["the Dask scheduler at tcp://h:8786 has workers again (3 threads): running"]


def test_a_local_cluster_without_workers_is_not_told_to_start_dask_workers(monkeypatch):
    monkeypatch.setattr(cluster, "POLL", 0.0)
    monkeypatch.setattr(cluster, "NO_WORKERS_NOTE", 0.0)
    said: list[str] = []
    DaskExecutor(FakeClient(threads={}), "local:2", note=said.append).capacity()
    assert said == ["the Dask scheduler at local:2 has no workers: waiting for some (Ctrl-C stops)"]


def test_no_workers_is_not_said_before_its_time(monkeypatch):
    monkeypatch.setattr(cluster, "POLL", 0.0)
    said: list[str] = []
    pool = dask_executor(FakeClient(threads={}), note=said.append)
    assert pool.capacity() == 0 and said == []


def test_run_jobs_raises_lost_when_the_cluster_cancels_its_tasks(monkeypatch):
    monkeypatch.setattr(cluster, "POLL", 0.01)

    class Lost(TellingExecutor):
        def submit(self, fn, /, *args, **kwargs):
            fut = Future()
            fut.cancel()
            fut.set_running_or_notify_cancel()
            return fut

    calls = {"n": 0}

    def capacity():
        calls["n"] += 1
        if calls["n"] > 3:
            raise ClusterLost("lost the Dask scheduler at tcp://h:1: unreachable for 10 s")
        return 0

    with Lost(capacity) as pool, pytest.raises(ClusterLost):
        list(run_jobs(pool, square, [(i,) for i in range(4)]))


def test_the_readme_and_help_say_the_times_the_code_keeps(capsys):
    from hashikit.cli import main

    readme = (Path(__file__).parent.parent / "README.md").read_text()
    assert f"**No workers:** after {cluster.NO_WORKERS_NOTE:g} s the command says so once" in readme
    assert f"does not come back within {cluster.CONNECT_TIMEOUT:g} s" in readme
    assert f"twice the cluster's worker threads\n  submitted and looks again every {'second' if batch.POLL == 1 else batch.POLL}" \
        in readme
    with pytest.raises(SystemExit):
        main(["generate", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert f"a scheduler lost for {cluster.CONNECT_TIMEOUT:g} s ends the run (exit 1): the same command resumes" \
        in help_text and "tcp://HOST:PORT" in help_text
