"""The worker pool attacked from every side while real jobs run (issue "hold up").

Many callers at once run real solves (each solution checked by the rule checker), plain values,
jobs that raise, jobs killed at their deadline and jobs cancelled, while an attacker SIGKILLs
workers from outside, busy and idle.  Every caller must get its true answer or its documented
error, and a ``WorkerDied`` only where the attacker killed a worker (never more of them than
kills).  Afterwards the pool must be whole again and answer everything right; pools closed under
running jobs answer every caller; pools are started and closed one after another in the same
process, a local Dask cluster among them.  No thread of the test process may die of an
exception (a pipe closed twice across threads showed up as ``OSError: [Errno 9]`` there, and a
descriptor closed under a poller could hand a caller another worker's answer).

The default run is bounded (a few rounds); ``-m slow`` runs many more.
"""

from __future__ import annotations

import os
import random
import signal
import threading
import time

import pytest

from hashikit.run import workers
from hashikit.checker import check
from hashikit.model import Puzzle
from hashikit.solvers import solve

#: a board with exactly one solution and one with several (small: a solve takes milliseconds)
UNIQUE = [[2, 0, 2], [0, 0, 0], [2, 0, 2]]
SEVERAL = [[3, 0, 3], [0, 0, 0], [3, 0, 3]]


# -- jobs (module level: the workers import them by name) ---------------------------------------------
def square(x):
    return x * x


def sleep_then(seconds, value=None):
    time.sleep(seconds)
    return value


def fail(message):
    raise ValueError(message)


def solve_in_worker(grid):
    """A real solve inside the worker (one engine call, no nested worker): the bridge counts."""
    from hashikit.solvers import solve as run

    result = run(Puzzle.from_grid(grid), max_solutions=1)
    puzzle = Puzzle.from_grid(grid)
    return result.status.value, (result.solution.counts(puzzle) if result.solution else None)


# -- the attack ---------------------------------------------------------------------------------------------
class Attacker:
    """SIGKILLs a random worker of ``pool`` (busy or idle) every ``every`` seconds until stopped,
    each time once the pool has started every replacement (so the callers make progress however
    slowly a loaded machine starts processes); counts kills."""

    def __init__(self, pool: workers.Pool, every: float, seed: int):
        self.pool, self.every, self.rng = pool, every, random.Random(seed)
        self.kills = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="attacker", daemon=True)

    def _run(self):
        while not self._stop.wait(self.every):
            pids = self.pool.pids()
            if not pids or self.pool.starting():
                continue
            try:
                os.kill(self.rng.choice(pids), signal.SIGKILL)
                self.kills += 1
            except ProcessLookupError:
                pass

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()


@pytest.fixture
def thread_errors():
    """Every exception that ends a thread of this process while the test runs."""
    seen: list[str] = []
    before = threading.excepthook

    def hook(args):
        seen.append(f"{args.thread.name if args.thread else '?'}: {args.exc_type.__name__}: {args.exc_value}")

    threading.excepthook = hook
    yield seen
    threading.excepthook = before


def one_request(pool: workers.Pool, kind: str, rng: random.Random):
    """Run one job of ``kind``; returns ("ok", None) when the answer is the true one, or
    ("died", None) for the documented error of a killed worker; anything else fails the test."""
    deadline = time.monotonic() + 60
    try:
        if kind == "value":
            x = rng.randrange(1000)
            assert pool.run(square, (x,), deadline=deadline) == x * x
        elif kind == "solve":
            grid = rng.choice([UNIQUE, SEVERAL])
            status, counts = pool.run(solve_in_worker, (grid,), deadline=deadline)
            puzzle = Puzzle.from_grid(grid)
            assert status == "solved" and counts is not None
            from hashikit.model import Solution
            assert check(puzzle, Solution.from_counts(puzzle, counts)).ok
        elif kind == "raise":
            with pytest.raises(ValueError, match="expected"):
                pool.run(fail, ("expected",), deadline=deadline)
        elif kind == "overrun":
            with pytest.raises(workers.Overrun):
                pool.run(sleep_then, (60,), deadline=time.monotonic() + rng.uniform(0.05, 0.3))
        elif kind == "cancel":
            cancel = threading.Event()
            threading.Timer(rng.uniform(0.05, 0.3), cancel.set).start()
            with pytest.raises(workers.Cancelled):
                pool.run(sleep_then, (60,), deadline=deadline, cancel=cancel)
        else:
            raise AssertionError(kind)
    except workers.WorkerDied:
        return "died"
    return "ok"


KINDS = ["value", "solve", "raise", "overrun", "cancel"]


def storm(pool: workers.Pool, callers: int, per_caller: int, seed: int) -> dict:
    """``callers`` threads, each running ``per_caller`` random jobs; the outcomes counted."""
    outcomes = {"ok": 0, "died": 0}
    failures: list[BaseException] = []
    lock = threading.Lock()

    def caller(k):
        rng = random.Random(seed * 1000 + k)
        for _ in range(per_caller):
            try:
                got = one_request(pool, rng.choice(KINDS), rng)
            except BaseException as exc:  # noqa: BLE001 - reported below, with the others
                with lock:
                    failures.append(exc)
                return
            with lock:
                outcomes[got] += 1

    threads = [threading.Thread(target=caller, args=(k,), name=f"caller-{k}") for k in range(callers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(300)
    assert not [t for t in threads if t.is_alive()], "a caller never got an answer"
    assert not failures, failures[:3]
    return outcomes


def whole_again(pool: workers.Pool, timeout: float = 60) -> bool:
    """The pool has all its workers back, alive and ready.  A worker killed while idle is seen
    dead when a job next comes for it, so quick jobs are run on every worker meanwhile."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        jobs = [threading.Thread(target=pool.run, args=(sleep_then, (0.05,)), daemon=True) for _ in range(pool.size)]
        for t in jobs:
            t.start()
        for t in jobs:
            t.join(max(0.0, end - time.monotonic()))
        pids = pool.pids()
        if len(pids) == pool.size and not pool.starting() and all(_alive(p) for p in pids):
            return True
        time.sleep(0.1)
    return False


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def _open_fds() -> int:
    return len(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else 0


def attack_round(size: int, callers: int, per_caller: int, seed: int, every: float) -> dict:
    with workers.Pool(size, name="hashikit-stress", preload=[__name__]) as pool:
        with Attacker(pool, every, seed) as attacker:
            chaos = storm(pool, callers, per_caller, seed)
        # a worker whose job the attacker ended is the only way to a WorkerDied
        assert chaos["died"] <= attacker.kills, (chaos, attacker.kills)
        assert whole_again(pool), "the pool did not get its workers back after the attack"
        calm = storm(pool, callers, per_caller, seed + 1)
        assert calm["died"] == 0, calm  # no attacker, no excuse: every answer is the true one
        return {"kills": attacker.kills, **chaos}


def closed_under_load(size: int, callers: int) -> None:
    """Closing a pool while its workers run jobs answers every caller (WorkerDied or its value)."""
    pool = workers.Pool(size, name="hashikit-stress-close")
    answered = []

    def caller():
        try:
            answered.append(pool.run(sleep_then, (rng_pause(), "v"), deadline=time.monotonic() + 60))
        except (workers.WorkerDied, workers.Overrun):
            answered.append("died")

    threads = [threading.Thread(target=caller) for _ in range(callers)]
    for t in threads:
        t.start()
    time.sleep(0.3)
    pool.close()
    for t in threads:
        t.join(30)
    assert len(answered) == callers and set(answered) <= {"v", "died"}, answered
    with pytest.raises(workers.WorkerDied):
        pool.run(square, (2,))


def rng_pause() -> float:
    return random.uniform(0.0, 1.0)


# -- the tests --------------------------------------------------------------------------------------------------
def test_the_pool_survives_an_attack_and_answers_truly(thread_errors):
    fds = _open_fds()
    result = attack_round(size=2, callers=4, per_caller=8, seed=1, every=0.15)
    assert result["kills"] > 0 and result["ok"] > 0
    closed_under_load(2, 4)
    attack_round(size=2, callers=3, per_caller=4, seed=2, every=0.2)  # pools one after another
    time.sleep(0.5)  # the reaper threads finish
    assert not thread_errors, thread_errors
    assert _open_fds() <= fds + 8, (fds, _open_fds())  # no descriptor left behind per pool


def test_time_limited_solves_on_a_pool_after_an_attack(thread_errors):
    """The solve path the web uses (``solvers.solve`` with a limit, on the current pool) gives the
    true answer after its workers were killed, never "unknown" within its limit."""
    with workers.Pool(2, name="hashikit-stress-solve") as pool:
        workers.activate(pool)
        try:
            with Attacker(pool, 0.1, seed=7):
                time.sleep(1.0)
            assert whole_again(pool)
            for grid in [UNIQUE, SEVERAL] * 5:
                puzzle = Puzzle.from_grid(grid)
                result = solve(puzzle, max_solutions=2, time_limit=30)
                assert result.solved and result.stats["process"] == "pool worker", result.stopped
                assert all(check(puzzle, s).ok for s in result.solutions)
        finally:
            workers.deactivate(pool)
    assert not thread_errors, thread_errors


def test_a_pool_after_a_local_dask_cluster_in_the_same_process(thread_errors):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=":0",
                                  silence_logs=50) as cluster, distributed.Client(cluster) as client:
        assert client.submit(square, 7).result(timeout=60) == 49
    attack_round(size=2, callers=3, per_caller=4, seed=11, every=0.2)
    assert not thread_errors, thread_errors


def test_pools_closed_while_their_workers_start(thread_errors):
    """The web app's pattern: a pool that warms in the background (``wait=False``), closed at
    once, again and again.  Its starting thread and ``close`` must not both close a worker's
    pipe (once one of them did, the other closed a descriptor by then given to a new pipe)."""
    fds = _open_fds()
    for k in range(30):
        pool = workers.Pool(2, name="hashikit-stress-warm", wait=False, preload=["hashikit.solvers.sat", "json"])
        time.sleep(0.01 * (k % 8))
        pool.close()
    pool = workers.Pool(2, name="hashikit-stress-warm")
    try:
        assert whole_again(pool) and pool.run(square, (9,), deadline=time.monotonic() + 60) == 81
    finally:
        pool.close()
    time.sleep(0.5)
    assert not thread_errors, thread_errors
    assert _open_fds() <= fds + 4, (fds, _open_fds())


def test_a_worker_killed_while_starting_is_started_again(thread_errors):
    with workers.Pool(1, name="hashikit-stress-start") as pool:
        for _ in range(3):
            first = pool.pids()
            os.kill(first[0], signal.SIGKILL)
            assert pool.run(square, (5,), deadline=time.monotonic() + 60) == 25  # noticed, replaced
            killed = 0
            while pool.starting() and killed < 3:  # the replacement, killed before it is ready
                for pid in pool.pids():
                    try:
                        os.kill(pid, signal.SIGKILL)
                        killed += 1
                    except ProcessLookupError:
                        pass
            assert pool.run(square, (6,), deadline=time.monotonic() + 60) == 36
            assert whole_again(pool) and pool.pids() != first
    assert not thread_errors, thread_errors


@pytest.mark.slow
def test_the_pool_survives_a_long_attack(thread_errors):
    rounds = int(os.environ.get("HASHIKIT_STRESS_ROUNDS", "30"))
    kills = 0
    for seed in range(100, 100 + rounds):
        kills += attack_round(size=3, callers=8, per_caller=20, seed=seed, every=0.05)["kills"]
        closed_under_load(3, 6)
    assert kills > 0 and not thread_errors, thread_errors
