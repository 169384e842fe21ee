"""Run hashikit's batch jobs on Dask distributed: a local cluster of processes or a real one.

:func:`executor` is a context manager that yields a standard
:class:`concurrent.futures.Executor` (Dask's ``Client.get_executor()``), so the batch
runner and any ``submit``/``as_completed`` loop use a cluster exactly as they use a
local process pool:

``local`` or ``local:WORKERS``
    a ``distributed.LocalCluster`` on this machine: WORKERS processes (default: the
    CPU count), one thread each (the engines are pure Python and hold the GIL);
``tcp://HOST:8786``
    a scheduler already running (``dask scheduler``) with its workers (``dask worker
    tcp://HOST:8786``); every worker needs hashikit installed.

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
import warnings
from concurrent.futures import Executor, Future, as_completed
from typing import Callable, Iterable, Iterator

from ..errors import HashikitError

INSTALL = 'the cluster needs Dask: pip install "hashikit[cluster]"'
#: how many times a task may error (an exception in the job) before its error is final
RETRIES = 2
#: how many workers may die while running a task before the scheduler gives it up
ALLOWED_FAILURES = 3
#: seconds to wait for a remote scheduler
CONNECT_TIMEOUT = 10

_SPEC = re.compile(r"^(local(?::(?P<workers>\d+))?|(?P<address>tcp://[^\s/:]+(?::\d+)?))$")


class ClusterUnavailable(HashikitError, ImportError):
    """Dask distributed is not installed."""


class ClusterError(HashikitError):
    """A cluster spec that cannot be understood or a scheduler that cannot be reached."""


def parse_spec(spec: str) -> tuple[str, int | str | None]:
    """``local`` -> ("local", None), ``local:4`` -> ("local", 4), ``tcp://h:8786`` -> ("tcp", address)."""
    m = _SPEC.match(spec.strip()) if isinstance(spec, str) else None
    if not m:
        raise ClusterError(f"a cluster is 'local', 'local:WORKERS' or 'tcp://HOST:PORT', got {spec!r}")
    if m.group("address"):
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
             connect_timeout: float = CONNECT_TIMEOUT, quiet: bool = True) -> Iterator[Executor]:
    """A ``concurrent.futures.Executor`` running on the cluster ``spec`` (see the module doc)."""
    kind, arg = parse_spec(spec)
    dask, distributed = _import_distributed()
    cluster = client = None
    settings = {"distributed.scheduler.allowed-failures": allowed_failures}
    with dask.config.set(settings):
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
            pool = client.get_executor(retries=retries, pure=False)
            try:
                yield pool
            finally:
                # normal end: nothing is left; an error or Ctrl-C: cancel what is still queued
                pool.shutdown(wait=False)
        finally:
            if client is not None:
                client.close()
            if cluster is not None:
                cluster.close()


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


__all__ = ["ALLOWED_FAILURES", "ClusterError", "ClusterUnavailable", "INSTALL", "RETRIES", "cluster_spec",
           "executor", "parse_spec", "run_jobs", "workers_of"]
