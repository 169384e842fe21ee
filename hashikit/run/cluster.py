"""Run hashikit's batch jobs on Dask distributed: a local cluster of processes or a real one.

:func:`executor` is a context manager that yields a standard
:class:`concurrent.futures.Executor` (Dask's ``Client.get_executor()``), so the batch
runner and any ``submit``/``as_completed`` loop use a cluster exactly as they use a
local process pool:

``local`` or ``local:WORKERS``
    a ``distributed.LocalCluster`` on this machine: WORKERS processes (default: the
    CPU count), one thread each (the engines are pure Python and hold the GIL);
``tcp://HOST:PORT``
    a scheduler already running (``dask scheduler``, port 8786 by default) with its workers
    (``dask worker tcp://HOST:8786``); every worker needs hashikit installed.

The executor tells the batch runner what a cluster can do and whether it still can:
``capacity()`` is the sum of its workers' threads (followed as workers join and leave, from the
scheduler's figures that the client refreshes every 2 s), so the runner keeps that many tasks
running and as many ready; ``check()`` raises :class:`ClusterLost` once the scheduler is gone
(Dask tries to reconnect for ``connect_timeout`` seconds first) and calls ``notify`` with one line
when no worker has been attached for :data:`NO_WORKERS_NOTICE` seconds (it keeps waiting).

Jobs are plain functions of their arguments (a seed in, a result out), so a task that
ran on a worker that died is simply run again elsewhere: each task may be retried
(``retries``) after an error, and the scheduler re-runs tasks of a killed worker up to
``allowed_failures`` times before it gives up with ``KilledWorker``.  Leaving the
``with`` block, normally or by Ctrl-C, cancels the tasks not finished and closes the
client (and the local cluster).

Dask is an optional extra: ``pip install "hashikit[cluster]"``; without it
:func:`executor` raises :class:`ClusterUnavailable` with that line.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import time
import warnings
from concurrent.futures import Executor, Future, InvalidStateError, as_completed
from typing import Callable, Iterable, Iterator

from ..errors import HashikitError

INSTALL = 'the cluster needs Dask: pip install "hashikit[cluster]"'
#: how many times a task may error (an exception in the job) before its error is final
RETRIES = 2
#: how many workers may die while running a task before the scheduler gives it up
ALLOWED_FAILURES = 3
#: seconds to wait for a remote scheduler, and for a lost connection to come back
CONNECT_TIMEOUT = 10
#: seconds without any worker attached before the executor says so (it keeps waiting)
NO_WORKERS_NOTICE = 5
#: the loggers that would print Dask's tracebacks and reconnect chatter over the command's one line
_NOISY = ("distributed", "tornado", "asyncio", "concurrent.futures")

_SPEC = re.compile(r"^(local(?::(?P<workers>\d+))?|(?P<address>tcp://(?P<host>[^\s/:\[\]]+|\[[0-9A-Fa-f:.]+\])"
                   r"(?::(?P<port>\d*))?))$")


class ClusterUnavailable(HashikitError, ImportError):
    """Dask distributed is not installed."""


class ClusterError(HashikitError):
    """A cluster spec that cannot be understood or a scheduler that cannot be reached."""


class ClusterLost(ClusterError):
    """The scheduler went away during the run (the command's exit status 1: not bad input)."""

    exit_code = 1


def parse_spec(spec: str) -> tuple[str, int | str | None]:
    """``local`` -> ("local", None), ``local:4`` -> ("local", 4), ``tcp://h:8786`` -> ("tcp", address).

    The one check of a spec (the ``--cluster`` option's type calls it): whatever passes here is an
    address Dask can connect to, so a malformed one is refused before any work starts."""
    m = _SPEC.match(spec.strip()) if isinstance(spec, str) else None
    if not m:
        raise ClusterError(f"a cluster is 'local', 'local:WORKERS' or 'tcp://HOST:PORT', got {spec!r}")
    if m.group("address"):
        port = m.group("port")
        if not port:
            raise ClusterError(f"{spec.strip()}: a scheduler address needs its port, as in "
                               f"tcp://{m.group('host')}:8786 (dask scheduler's default)")
        if not 1 <= int(port) <= 65535:
            raise ClusterError(f"{spec.strip()}: a port is 1 to 65535, got {port}")
        return "tcp", m.group("address")
    workers = m.group("workers")
    if workers is not None and not 1 <= int(workers) <= 1024:
        raise ClusterError(f"a local cluster has 1 to 1024 workers, got {workers}")
    return "local", None if workers is None else int(workers)


def cluster_spec(text: str) -> str:
    """An argparse ``type=``: the spec checked, returned as given."""
    import argparse

    try:
        parse_spec(text)
    except ClusterError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def _import_distributed():
    try:
        import dask
        import distributed
    except ImportError:
        raise ClusterUnavailable(INSTALL) from None
    return dask, distributed


@contextlib.contextmanager
def executor(spec: str, *, retries: int = RETRIES, allowed_failures: int = ALLOWED_FAILURES,
             connect_timeout: float = CONNECT_TIMEOUT, quiet: bool = True,
             notify: Callable[[str], None] | None = None) -> Iterator["ClusterExecutor"]:
    """A ``concurrent.futures.Executor`` running on the cluster ``spec`` (see the module doc).

    ``quiet``: Dask's own log lines (reconnect attempts, tracebacks of a lost connection) are
    silenced while the block runs, so a command's one-line error is all a person sees;
    ``notify(line)``: told when no worker is attached (see :meth:`ClusterExecutor.check`)."""
    kind, arg = parse_spec(spec)
    dask, distributed = _import_distributed()
    cluster = client = None
    settings = {"distributed.scheduler.allowed-failures": allowed_failures}
    with dask.config.set(settings), (_quiet_logs() if quiet else contextlib.nullcontext()):
        try:
            if kind == "local":
                workers = arg or os.cpu_count() or 1
                with warnings.catch_warnings():  # "port 8787 in use": no dashboard is asked for
                    warnings.filterwarnings("ignore", message="Port .* is already in use")
                    cluster = distributed.LocalCluster(
                        n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                        silence_logs=logging.CRITICAL if quiet else logging.WARNING)
                client = distributed.Client(cluster)
            else:
                try:
                    client = distributed.Client(arg, timeout=connect_timeout)
                except (OSError, TimeoutError) as exc:
                    raise ClusterError(f"cannot reach the Dask scheduler at {arg}: {exc}") from None
            pool = ClusterExecutor(client, arg if kind == "tcp" else cluster.scheduler_address, retries=retries,
                                   connect_timeout=connect_timeout, notify=notify)
            try:
                yield pool
            finally:
                # normal end: nothing is left; an error or Ctrl-C: cancel what is still queued
                pool.shutdown(wait=False)
        finally:
            # a lost scheduler or a Ctrl-C must not turn into a second error here: the first one is the story
            if client is not None:
                with contextlib.suppress(Exception):
                    client.close(timeout=2)
            if cluster is not None:
                with contextlib.suppress(Exception):
                    cluster.close(timeout=5)


@contextlib.contextmanager
def _quiet_logs() -> Iterator[None]:
    """Dask's loggers (and those of its event loop) silenced for the block, then as they were.

    Each logger Dask configured with a level of its own is raised too: a child's own level, not
    its parent's, decides whether its record reaches the parent's handler."""
    names = [n for n in logging.root.manager.loggerDict if n.split(".")[0] in _NOISY] + list(_NOISY)
    loggers = [logging.getLogger(n) for n in dict.fromkeys(names)]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for lg, level in zip(loggers, levels):
            lg.setLevel(level)


class ClusterExecutor(Executor):
    """Dask's ``concurrent.futures`` executor, with what the batch runner asks of a cluster.

    - ``submit`` as Dask's ``Client.get_executor()``: one Dask task a call (``pure=False``,
      ``retries``); cancelling the returned future cancels the task, and is a no-op once the
      scheduler is gone (no traceback from a dead connection);
    - :meth:`capacity`: how many tasks the cluster runs at once now;
    - :meth:`check`: raises :class:`ClusterLost` once the scheduler is gone; says when no worker
      is attached.
    """

    def __init__(self, client, address: str, *, retries: int = RETRIES, connect_timeout: float = CONNECT_TIMEOUT,
                 notify: Callable[[str], None] | None = None):
        self._client = client
        self.address = address
        self._retries = retries
        self._connect_timeout = connect_timeout
        self._notify = notify
        self._tasks: set = set()  # Dask forgets a task once no future of it is held: hold them here
        self._shutdown = False
        self._workers_seen = time.monotonic()  # the last time a worker was attached (or the start)
        self._told = False
        self._connecting_since: float | None = None

    def submit(self, fn, /, *args, **kwargs) -> Future:
        if self._shutdown:
            raise RuntimeError("cannot schedule new futures after shutdown")
        self.check()
        task = self._client.submit(fn, *args, pure=False, retries=self._retries, **kwargs)
        self._tasks.add(task)
        fut: Future = Future()

        def on_done(f: Future) -> None:
            self._tasks.discard(task)
            if f.cancelled() and task.status == "pending" and self._client.status == "running":
                with contextlib.suppress(Exception):
                    task.cancel()
        fut.add_done_callback(on_done)
        self._client.loop.add_callback(_deliver, task, fut)
        return fut

    def capacity(self) -> int:
        """Tasks the cluster runs at once: its workers' threads, from the scheduler's figures (0: none attached).

        The client refreshes them every ``distributed.client.scheduler-info-interval`` (2 s); read
        from that cache, so this does not wait on the network."""
        info = getattr(self._client, "_scheduler_identity", None)  # private: the cache of scheduler_info()
        if isinstance(info, dict) and "total_threads" in info:
            return int(info["total_threads"])
        return sum(self._client.nthreads().values())  # a Dask without that cache: ask the scheduler

    def check(self) -> None:
        """Raise :class:`ClusterLost` if the scheduler is gone; say once when no worker is attached.

        A lost connection is given ``connect_timeout`` seconds to come back (Dask retries for as
        long, then closes the client) and 5 more; the tasks it had are cancelled by Dask, and the
        batch runner submits them again once the client is back."""
        status = self._client.status
        now = time.monotonic()
        if status == "connecting":
            if self._connecting_since is None:
                self._connecting_since = now
            if now - self._connecting_since <= self._connect_timeout + 5:
                return
            raise ClusterLost(f"lost the Dask scheduler at {self.address}: no connection for "
                              f"{now - self._connecting_since:.0f} s")
        if status not in ("running", "newly-created"):
            raise ClusterLost(f"lost the Dask scheduler at {self.address} (the connection closed and did not "
                              f"come back within {self._connect_timeout:g} s)")
        self._connecting_since = None
        if self.capacity() > 0:
            self._workers_seen, self._told = now, False  # all workers gone again later: said again
        elif not self._told and now - self._workers_seen >= NO_WORKERS_NOTICE:
            self._told = True
            if self._notify is not None:
                self._notify(f"no Dask worker is attached to {self.address} (for {NO_WORKERS_NOTICE} s): "
                             f"waiting for one (start some with: dask worker {self.address} --nthreads 1; "
                             f"Ctrl-C stops)")

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Cancel the tasks not finished (``wait=False``) or wait for them; quiet once the scheduler is gone."""
        if self._shutdown:
            return
        self._shutdown = True
        tasks = [t for t in self._tasks if t.status == "pending"]
        if not tasks or self._client.status != "running":
            return
        with contextlib.suppress(Exception):
            if wait and not cancel_futures:
                self._client.gather(tasks, errors="skip")
            else:
                self._client.cancel(tasks)


async def _deliver(task, fut: Future) -> None:
    """Dask's task outcome into the ``concurrent.futures`` future (left alone if that was cancelled)."""
    outcome = await task._result(raiseit=False)  # private, as in Dask's own executor
    try:
        if task.status == "finished":
            fut.set_result(outcome)
        elif task.status == "cancelled":
            if fut.cancel():
                fut.set_running_or_notify_cancel()
        else:
            _typ, exc, tb = outcome
            fut.set_exception(exc.with_traceback(tb))
    except InvalidStateError:  # cancelled by the caller meanwhile
        pass


def workers_of(pool: Executor) -> dict[str, int]:
    """Worker address -> process id, for a Dask executor (tests kill one to see retries)."""
    return pool._client.run(os.getpid)


def run_jobs(pool: Executor, fn: Callable, jobs: Iterable[tuple]) -> Iterator[tuple[tuple, object]]:
    """Submit ``fn(*args)`` for every ``args`` in ``jobs``; yield ``(args, result)`` as each finishes.

    The thin loop the batch runner replaces (it adds resume and per-job seeds); on an error or
    Ctrl-C in the caller, the unfinished futures are cancelled.
    """
    futures: dict[Future, tuple] = {pool.submit(fn, *args): args for args in jobs}
    try:
        for fut in as_completed(futures):
            yield futures[fut], fut.result()
    finally:
        for fut in futures:
            fut.cancel()


__all__ = ["ALLOWED_FAILURES", "ClusterError", "ClusterExecutor", "ClusterLost", "ClusterUnavailable", "INSTALL",
           "NO_WORKERS_NOTICE", "RETRIES", "cluster_spec", "executor", "parse_spec", "run_jobs", "workers_of"]
