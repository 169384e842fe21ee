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
    (``dask worker tcp://HOST:8786``); every worker needs hashikit installed.  The port is
    required: an address without one is refused before any work.

Jobs are plain functions of their arguments (a seed in, a result out), so a task that
ran on a worker that died is simply run again elsewhere: each task may be retried
(``retries``) after an error, and the scheduler re-runs tasks of a killed worker up to
``allowed_failures`` times before it gives up with ``KilledWorker``.  Leaving the
``with`` block, normally or by Ctrl-C, cancels the tasks not finished and closes the
client (and the local cluster).

The executor also tells the batch runner what a cluster is like now
(:meth:`DaskExecutor.capacity`, asked about once a second): its workers' threads, followed as
workers join and leave, so N single-thread workers run N tasks; a scheduler that cannot be
reached for ``connect_timeout`` seconds is :class:`ClusterLost` (the runner stops, the rows
stored so far stay for a resume); a scheduler without workers for ``NO_WORKERS_NOTE`` seconds
is said once (``note``) and waited for.

Dask is an optional extra: ``pip install ".[cluster]"``; without it
:func:`executor` raises :class:`ClusterUnavailable` with that line.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import time
import warnings
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from typing import Callable, Iterable, Iterator

from ..errors import HashikitError

INSTALL = 'the cluster needs Dask: pip install ".[cluster]"'
#: how many times a task may error (an exception in the job) before its error is final
RETRIES = 2
#: how many workers may die while running a task before the scheduler gives it up
ALLOWED_FAILURES = 3
#: seconds to wait for a remote scheduler, and for one that went away to come back
CONNECT_TIMEOUT = 10
#: seconds between two looks at the cluster (its workers' threads, its scheduler still there)
POLL = 1.0
#: seconds a scheduler may have no workers before that is said (the run keeps waiting for some)
NO_WORKERS_NOTE = 5.0

_LOCAL = re.compile(r"^local(?::(?P<workers>\d+))?$")
# a host name, an IPv4 address or a bracketed IPv6 one; then the port, which Dask needs
_TCP = re.compile(r"^tcp://(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)"
                  r"(?::(?P<port>\d*))?$")
_FORMS = "a cluster is 'local', 'local:WORKERS' or 'tcp://HOST:PORT'"


class ClusterUnavailable(HashikitError, ImportError):
    """Dask distributed is not installed."""


class ClusterError(HashikitError):
    """A cluster spec that cannot be understood or a scheduler that cannot be reached."""


class ClusterLost(ClusterError):
    """The scheduler went away during a run (killed, its machine gone) and did not come back."""


def parse_spec(spec: str) -> tuple[str, int | str | None]:
    """``local`` -> ("local", None), ``local:4`` -> ("local", 4), ``tcp://h:8786`` -> ("tcp", address)."""
    text = spec.strip() if isinstance(spec, str) else ""
    tcp = _TCP.match(text)
    if tcp:
        port = tcp.group("port")
        if not port:
            raise ClusterError(f"the scheduler address {text!r} has no port: give one, as in "
                               f"tcp://{tcp.group('host')}:8786 (dask scheduler's default)")
        if not 1 <= int(port) <= 65535:
            raise ClusterError(f"the scheduler address {text!r}: a port runs from 1 to 65535, got {int(port)}")
        return "tcp", text
    m = _LOCAL.match(text)
    if not m:
        raise ClusterError(f"{_FORMS}, got {spec!r}")
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


class DaskExecutor(Executor):
    """Dask's ``Client.get_executor()`` (tasks retried, never cached by key), plus what the batch
    runner asks of a cluster: :meth:`capacity`, which follows the workers and notices a lost
    scheduler.  ``_client`` is the Dask client."""

    def __init__(self, client, address: str, *, retries: int = RETRIES, lost_after: float = CONNECT_TIMEOUT,
                 note: Callable[[str], None] | None = None):
        self._client = client
        self._inner = client.get_executor(retries=retries, pure=False)
        self.address = address
        self.lost_after = lost_after
        self._note = note or _log_note
        self._looked = -float("inf")
        self._threads = 0
        self._gone_since: float | None = None
        self._empty_since: float | None = None
        self._said_empty = False

    def submit(self, fn, /, *args, **kwargs) -> Future:
        return self._inner.submit(fn, *args, **kwargs)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        try:
            self._inner.shutdown(wait=wait)
        except Exception:  # noqa: BLE001 - a client already closed (its scheduler gone) has nothing to cancel
            pass

    def capacity(self) -> int:
        """How many tasks the cluster runs at once now: its workers' threads (looked up at most once
        every ``POLL`` seconds).  0 while it has no workers or its scheduler cannot be reached;
        :class:`ClusterLost` once the scheduler has been unreachable for ``lost_after`` seconds (or
        the client gave up on it)."""
        now = time.monotonic()
        if now - self._looked < POLL:
            return self._threads
        self._looked = now
        status = self._client.status
        threads = None
        if status == "running":
            try:
                threads = sum(self._client.nthreads(callback_timeout=self.lost_after).values())
            except Exception:  # noqa: BLE001 - OSError, TimeoutError, Dask's CommClosedError: not reachable now
                threads = None
        if threads is None:
            self._gone_since = self._gone_since if self._gone_since is not None else now
            if status in ("closing", "closed") or now - self._gone_since >= self.lost_after:
                raise ClusterLost(f"lost the Dask scheduler at {self.address}: "
                                  f"unreachable for {max(now - self._gone_since, self.lost_after):.0f} s")
            self._threads = 0
            return 0
        self._gone_since = None
        self._follow_workers(threads, now)
        self._threads = threads
        return threads

    def _follow_workers(self, threads: int, now: float) -> None:
        """Say once when the scheduler has had no workers for ``NO_WORKERS_NOTE`` s, and when some join."""
        if threads:
            if self._said_empty:
                self._note(f"the Dask scheduler at {self.address} has workers again ({threads} threads): running")
            self._empty_since, self._said_empty = None, False
            return
        self._empty_since = self._empty_since if self._empty_since is not None else now
        if not self._said_empty and now - self._empty_since >= NO_WORKERS_NOTE:
            self._said_empty = True
            start = f"start them with: dask worker {self.address}; " if self.address.startswith("tcp://") else ""
            self._note(f"the Dask scheduler at {self.address} has no workers: waiting for some ({start}Ctrl-C stops)")


def _log_note(text: str) -> None:
    logging.getLogger(__name__).warning("%s", text)


_NOISY = ("distributed", "tornado", "asyncio")


@contextlib.contextmanager
def _quiet_dask(quiet: bool) -> Iterator[None]:
    """Dask's own log lines (tracebacks of a lost connection) kept from the person's terminal.

    Dask's logging set-up gives some of its loggers levels of their own (``tornado.application``,
    ``distributed.client``), so each is silenced, not only the three at the top."""
    if not quiet:
        yield
        return
    manager = logging.Logger.manager
    names = [n for n in list(manager.loggerDict) if n.split(".")[0] in _NOISY] + list(_NOISY)
    loggers = {n: logging.getLogger(n) for n in names}
    levels = {n: lg.level for n, lg in loggers.items()}
    for lg in loggers.values():
        lg.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for n, lg in loggers.items():
            lg.setLevel(levels[n])


@contextlib.contextmanager
def executor(spec: str, *, retries: int = RETRIES, allowed_failures: int = ALLOWED_FAILURES,
             connect_timeout: float = CONNECT_TIMEOUT, quiet: bool = True,
             note: Callable[[str], None] | None = None) -> Iterator[DaskExecutor]:
    """A :class:`DaskExecutor` (a ``concurrent.futures.Executor``) running on the cluster ``spec``
    (see the module doc).  ``note(text)`` hears that a scheduler has no workers (default: a
    warning on the ``hashikit.run.cluster`` logger); ``quiet`` keeps Dask's own logging quiet."""
    kind, arg = parse_spec(spec)
    dask, distributed = _import_distributed()
    cluster = client = None
    settings = {"distributed.scheduler.allowed-failures": allowed_failures}
    with dask.config.set(settings), _quiet_dask(quiet):
        try:
            if kind == "local":
                workers = arg or os.cpu_count() or 1
                with warnings.catch_warnings():  # "port 8787 in use": no dashboard is asked for
                    warnings.filterwarnings("ignore", message="Port .* is already in use")
                    cluster = distributed.LocalCluster(
                        n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                        silence_logs=logging.CRITICAL if quiet else logging.WARNING)
                client = distributed.Client(cluster)
                address = f"local:{workers}"
            else:
                try:
                    client = distributed.Client(arg, timeout=connect_timeout)
                except (OSError, TimeoutError) as exc:
                    raise ClusterError(f"cannot reach the Dask scheduler at {arg}: {exc}") from None
                address = arg
            pool = DaskExecutor(client, address, retries=retries, lost_after=connect_timeout, note=note)
            try:
                yield pool
            finally:
                # normal end: nothing is left; an error or Ctrl-C: cancel what is still queued
                pool.shutdown(wait=False)
        finally:
            _close_quietly(client, cluster)


def _close_quietly(client, cluster) -> None:
    """Close the client and the local cluster; a scheduler already gone makes that fail, and a
    failure here must not hide why the block ended (Ctrl-C, a lost cluster)."""
    for thing in (client, cluster):
        if thing is None:
            continue
        try:
            if thing is client:
                thing.close(timeout=CONNECT_TIMEOUT)
            else:
                thing.close()
        except Exception:  # noqa: BLE001 - ClosedClientError, CommClosedError, a timeout
            pass


def workers_of(pool: Executor) -> dict[str, int]:
    """Worker address -> process id, for a Dask executor (tests kill one to see retries)."""
    return pool._client.run(os.getpid)


def run_jobs(pool: Executor, fn: Callable, jobs: Iterable[tuple]) -> Iterator[tuple[tuple, object]]:
    """Submit ``fn(*args)`` for every ``args`` in ``jobs``; yield ``(args, result)`` as each finishes.

    The thin loop the batch runner replaces (it adds resume, per-job seeds and a window of jobs in
    flight); an error in a job is raised here; a lost scheduler is :class:`ClusterLost`; on an
    error or Ctrl-C in the caller, the unfinished futures are cancelled.
    """
    capacity = getattr(pool, "capacity", None)
    futures: dict[Future, tuple] = {pool.submit(fn, *args): args for args in jobs}
    pending = set(futures)
    try:
        while pending:
            done, pending = wait(pending, timeout=POLL if capacity else None, return_when=FIRST_COMPLETED)
            if capacity is not None:
                capacity()  # raises ClusterLost
            for fut in done:
                if fut.cancelled():  # not by the caller: the scheduler went away (ClusterLost) or restarted
                    _cancelled_by_cluster(pool)
                yield futures[fut], fut.result()
    finally:
        for fut in futures:
            fut.cancel()


def _cancelled_by_cluster(pool: Executor) -> None:
    """A task the caller did not cancel came back cancelled: Dask does that to the tasks of a
    scheduler it lost.  Raise :class:`ClusterLost` as soon as the pool says so (bounded wait)."""
    capacity = getattr(pool, "capacity", None)
    end = time.monotonic() + getattr(pool, "lost_after", CONNECT_TIMEOUT) + 2 * POLL
    while capacity is not None and time.monotonic() < end:
        capacity()
        time.sleep(POLL)
    raise ClusterError("a task was cancelled by the cluster (was its scheduler restarted?)")


__all__ = ["ALLOWED_FAILURES", "ClusterError", "ClusterLost", "ClusterUnavailable", "DaskExecutor", "INSTALL",
           "NO_WORKERS_NOTE", "POLL", "RETRIES", "cluster_spec", "executor", "parse_spec", "run_jobs", "workers_of"]
