"""Run a function in another process with a deadline: the one place hashikit keeps a time limit on
work that cannot stop itself (python-sat cannot interrupt CaDiCaL; model building, the deduction
engine and the generator are Python loops).

Vocabulary, used throughout:

- a *job* is ``fn(*args, **kwargs)``; with ``on_message`` given, the job also gets a ``post``
  keyword: ``post(x)`` hands ``x`` to ``on_message(x)`` in the caller at once (partial results:
  an engine posts each solution as it finds it);
- the *deadline* is a ``time.monotonic()`` instant.  A job still running at its deadline has its
  worker killed (:class:`Overrun`, after the messages it posted were delivered), so the caller
  gets its answer at the deadline whatever the job does;
- a *worker* is a process that runs jobs.  Either one worker per job, started for it and ended
  after it (no pool active: the CLI and library calls, exactly as before, nothing left behind),
  or a warm worker of a :class:`Pool`, started in advance and reused (the web app).

Pools and threads: a pool starts its workers with ``forkserver`` where available (else
``spawn``), never by forking the calling process, which may have threads (the web server's
thread pool; a fork could copy a lock another thread holds).  A worker whose job overran, died
or was interrupted is killed and replaced in the background; a job's exception only travels
back to the caller, the worker carries on.  Jobs for a pool must be picklable (module-level
functions).  Waiting for a free worker counts against the job's deadline: a deadline is a
promise about when the caller has its answer, wherever the time went.

The one-off worker uses ``fork`` where available (start-up in milliseconds, the arguments are
not pickled: a million-island puzzle is not copied through a pipe), else ``spawn``.

Ctrl-C: workers ignore SIGINT (the terminal sends it to the whole process group; only the caller
reports it); the caller's KeyboardInterrupt kills the worker it waited on before propagating.

This module imports nothing of hashikit: it sits below the engines and the use-cases.
"""

from __future__ import annotations

import atexit
import collections
import importlib
import multiprocessing
import os
import signal
import threading
import time
from typing import Any, Callable, Sequence

#: longest single wait on a pipe (poll() of a huge timeout overflows)
_MAX_WAIT = 3600.0
#: longest wait for a new pool worker to start and import its modules
_READY_WAIT = 120.0
#: how often a waiting caller looks at its cancel event
_CANCEL_POLL = 0.05


class Overrun(Exception):
    """The job was still running at its deadline (or waited for a worker past it); its worker,
    if it had one, was killed."""


class Cancelled(Exception):
    """The caller's cancel event was set; the job's worker was killed."""


class WorkerDied(Exception):
    """The worker ended without an answer (killed from outside, out of memory, the pool closed)."""

    def __init__(self, exitcode: int | None):
        super().__init__("the worker process ended without an answer"
                         + (f" (exit code {exitcode})" if exitcode is not None else ""))
        self.exitcode = exitcode


# -- the worker's side ----------------------------------------------------------------------------
def _serve(conn, job=None, preload: Sequence[str] = ()) -> None:
    """A worker's life: run ``job`` and end (one-off), or run the jobs sent on ``conn`` until it
    closes (a pool's worker, after importing ``preload`` so its first job starts warm)."""
    global _active_lock
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # a forked worker does not use its parent's pool (its own jobs start one-off workers), nor a
    # lock some other thread of the parent may have held at the fork
    _active_lock = threading.Lock()
    del _active[:]
    if job is not None:
        _run_job(conn, *job)
        conn.close()
        return
    for name in preload:
        try:
            importlib.import_module(name)
        except ImportError:
            pass  # an optional engine; the job that needs it says so
    conn.send(("ready", os.getpid()))
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        _run_job(conn, *job)


def _run_job(conn, fn: Callable, args: tuple, kwargs: dict, stream: bool) -> None:
    """Run one job and send ``("value", v)`` or ``("error", exc)``; ``("message", x)`` before, for each post."""
    try:
        if stream:
            kwargs = {**kwargs, "post": lambda message: conn.send(("message", message))}
        answer = ("value", fn(*args, **kwargs))
    except BaseException as exc:  # noqa: BLE001 - handed to the caller, raised there
        answer = ("error", exc if isinstance(exc, Exception) else RuntimeError(repr(exc)))
    try:
        conn.send(answer)
    except Exception as exc:  # an answer that does not pickle: say what it was
        conn.send(("error", RuntimeError(f"the worker's answer could not be handed back: "
                                         f"{type(exc).__name__}: {exc}")))


# -- the caller's side ------------------------------------------------------------------------------
def _collect(conn, deadline: float | None, on_message, cancel: threading.Event | None) -> tuple[str, Any]:
    """Wait for the job's answer: ``(kind, payload)`` with kind ``value``, ``error``, ``overrun``,
    ``cancelled`` or ``died``; messages go to ``on_message`` on the way."""
    while True:
        wait = _MAX_WAIT if deadline is None else deadline - time.monotonic()
        if wait <= 0:
            return "overrun", None
        if cancel is not None:
            if cancel.is_set():
                return "cancelled", None
            wait = min(wait, _CANCEL_POLL)
        try:
            if not conn.poll(min(wait, _MAX_WAIT)):
                continue
            kind, payload = conn.recv()
        except (EOFError, OSError):
            return "died", None
        if kind == "message":
            on_message(payload)
        else:
            return kind, payload


def _late(conn, on_message, kind: str, payload) -> tuple[str, Any]:
    """After the worker was killed: what it had sent before still sits in the pipe (the caller
    may not have been scheduled in time to read it): deliver those messages and, if its answer
    is among them, take it.  A cancelled job's leftovers are dropped."""
    if kind == "cancelled":
        return kind, payload
    try:
        while conn.poll(0):
            got, value = conn.recv()
            if got == "message":
                on_message(value)
            else:
                return got, value
    except (EOFError, OSError):
        pass
    return kind, payload


def _outcome(kind: str, payload, exitcode=None):
    """The job's value, or the exception that says why there is none."""
    if kind == "value":
        return payload
    if kind == "error":
        raise payload
    if kind == "overrun":
        raise Overrun("the job was still running at its deadline")
    if kind == "cancelled":
        raise Cancelled("the job was cancelled")
    raise WorkerDied(exitcode)


def _end(process) -> None:
    """Kill ``process`` if it still runs and reap it; one with a large model takes a while to free
    its memory, so after a short wait a daemon thread reaps it and the caller is not held up."""
    if process.is_alive():
        process.kill()
    process.join(0.1)
    if process.exitcode is None:
        threading.Thread(target=process.join, name="hashikit-reaper", daemon=True).start()


def _one_off_context():
    return multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")


def _run_one_off(fn, args, kwargs, deadline, on_message, cancel, name):
    ctx = _one_off_context()
    receive, send = ctx.Pipe(duplex=False)
    # not daemonic: the job may start workers of its own (an engine's time-limited solve inside a
    # time-limited hint); it is killed and reaped below whatever happens, so it never outlives this call
    child = ctx.Process(target=_serve, args=(send, (fn, args, kwargs, on_message is not None)), name=name)
    child.start()
    send.close()
    try:
        kind, payload = _collect(receive, deadline, on_message, cancel)
        _end(child)
        if kind not in ("value", "error"):
            kind, payload = _late(receive, on_message, kind, payload)
    finally:
        _end(child)
        receive.close()
    return _outcome(kind, payload, child.exitcode)


def run(fn: Callable, args: tuple = (), kwargs: dict | None = None, *, deadline: float | None = None,
        on_message: Callable[[Any], None] | None = None, cancel: threading.Event | None = None,
        pool: "Pool | None" = None, name: str = "hashikit-worker"):
    """``fn(*args, **kwargs)`` in a worker, answered by ``deadline`` (monotonic; None: no deadline).

    Returns the job's value or raises its exception; :class:`Overrun` at the deadline,
    :class:`Cancelled` once ``cancel`` is set, :class:`WorkerDied` when the worker ended without
    an answer.  ``on_message`` receives what the job posts (see the module's docstring).  Runs on
    ``pool``, else on the :func:`current` pool, else in a one-off worker.
    """
    kwargs = kwargs or {}
    pool = pool if pool is not None else current()
    if pool is None:
        return _run_one_off(fn, args, kwargs, deadline, on_message, cancel, name)
    return pool.run(fn, args, kwargs, deadline=deadline, on_message=on_message, cancel=cancel)


# -- the pool -----------------------------------------------------------------------------------
class _Worker:
    def __init__(self, process, conn):
        self.process, self.conn = process, conn


def _pool_context(preload: Sequence[str]):
    if "forkserver" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["hashikit.workers", *preload])  # used when the server first starts
        return ctx
    return multiprocessing.get_context("spawn")


class Pool:
    """``size`` warm workers (default: one per CPU) that run jobs with a deadline; more callers
    than workers wait their turn (the wait counts against their deadline).  ``preload`` names
    modules each worker imports before its first job; the pool is returned once every worker
    has (``wait=False``: at once, each worker joining as soon as it is ready).  ``close()`` (or
    leaving a ``with`` block, or the interpreter's exit) kills every worker."""

    def __init__(self, size: int | None = None, *, preload: Sequence[str] = (), name: str = "hashikit-worker",
                 wait: bool = True):
        self.size = max(1, size or os.cpu_count() or 2)
        self.name = name
        self._preload = tuple(preload)
        self._ctx = _pool_context(self._preload)
        self._lock = threading.Condition()
        self._idle: collections.deque[_Worker] = collections.deque()
        self._workers: set[_Worker] = set()
        self._closed = False
        self._started = 0
        atexit.register(self.close)
        try:
            started = [self._start() for _ in range(self.size)]
            if wait:
                for worker in started:
                    self._ready(worker, time.monotonic() + _READY_WAIT)
                    self._add(worker)
        except BaseException:
            self.close()
            raise
        if not wait:
            threading.Thread(target=self._warm, args=(started,), name=f"{name}-warming", daemon=True).start()

    # workers come and go
    def _start(self) -> _Worker:
        """A new worker, counted among the pool's from the start (so ``close`` kills it even
        while it is still starting)."""
        mine, theirs = self._ctx.Pipe(duplex=True)
        try:
            with self._lock:  # started under the lock: close() never meets a worker half started
                if self._closed:
                    raise WorkerDied(None)
                self._started += 1
                process = self._ctx.Process(target=_serve, args=(theirs, None, self._preload),
                                            name=f"{self.name}-{self._started}")
                process.start()
                worker = _Worker(process, mine)
                self._workers.add(worker)
        except BaseException:
            mine.close()
            raise
        finally:
            theirs.close()
        return worker

    def _ready(self, worker: _Worker, deadline: float) -> None:
        """Wait for the worker's word that it has started and imported its modules (so the first
        job is not the one that pays for it)."""
        kind, payload = _collect(worker.conn, deadline, None, None)
        if kind != "ready":
            raise WorkerDied(worker.process.exitcode) if kind == "died" else \
                RuntimeError(f"a worker process did not start within {_READY_WAIT:g} s")

    def _add(self, worker: _Worker) -> None:
        """A started, ready worker joins the idle ones (or is killed: the pool closed meanwhile)."""
        with self._lock:
            if not self._closed and worker in self._workers:
                self._idle.append(worker)
                self._lock.notify()
                return
        self._kill(worker)

    @staticmethod
    def _kill(worker: _Worker) -> None:
        _end(worker.process)
        worker.conn.close()

    def _retire(self, worker: _Worker) -> None:
        """Kill a worker whose job did not end cleanly and start its replacement in the background.
        Its pipe stays open: what it sent before may still be read (the caller closes it)."""
        with self._lock:
            self._workers.discard(worker)
            replace = not self._closed
        _end(worker.process)
        if replace:
            threading.Thread(target=self._replace, name=f"{self.name}-starter", daemon=True).start()

    def _warm(self, started: list[_Worker]) -> None:
        """Hand out each worker as soon as it is ready (``wait=False``: the caller did not wait)."""
        for worker in started:
            try:
                self._ready(worker, time.monotonic() + _READY_WAIT)
            except Exception:  # noqa: BLE001 - it died at start, or the pool closed: the pool runs one short
                with self._lock:
                    self._workers.discard(worker)
                self._kill(worker)
                continue
            self._add(worker)

    def _replace(self) -> None:
        try:
            worker = self._start()
        except Exception:  # noqa: BLE001 - closed meanwhile, or out of processes: the pool runs one short
            return
        try:
            self._ready(worker, time.monotonic() + _READY_WAIT)
        except Exception:  # noqa: BLE001 - it died at start (or the pool closed it): the pool runs one short
            self._kill(worker)
            return
        self._add(worker)

    def _take(self, deadline: float | None, cancel: threading.Event | None) -> _Worker:
        with self._lock:
            while True:
                if self._closed:
                    raise WorkerDied(None)
                while self._idle:
                    worker = self._idle.popleft()
                    if worker.process.is_alive():
                        return worker
                    self._workers.discard(worker)  # died while idle (killed from outside)
                    threading.Thread(target=self._replace, daemon=True).start()
                wait = None if deadline is None else deadline - time.monotonic()
                if wait is not None and wait <= 0:
                    raise Overrun("no worker came free before the deadline")
                if cancel is not None:
                    if cancel.is_set():
                        raise Cancelled("the job was cancelled while waiting for a worker")
                    wait = _CANCEL_POLL if wait is None else min(wait, _CANCEL_POLL)
                self._lock.wait(wait)

    def _give_back(self, worker: _Worker) -> None:
        with self._lock:
            if self._closed or worker not in self._workers:
                return
            self._idle.append(worker)
            self._lock.notify()

    # the public side
    def run(self, fn: Callable, args: tuple = (), kwargs: dict | None = None, *, deadline: float | None = None,
            on_message: Callable[[Any], None] | None = None, cancel: threading.Event | None = None):
        """As :func:`run`, on this pool."""
        worker = self._hand_over(fn, args, kwargs or {}, on_message is not None, deadline, cancel)
        try:
            kind, payload = _collect(worker.conn, deadline, on_message, cancel)
        except BaseException:  # Ctrl-C, or on_message failed: the job may still run
            self._retire(worker)
            worker.conn.close()
            raise
        if kind in ("value", "error"):
            self._give_back(worker)
        else:
            self._retire(worker)
            kind, payload = _late(worker.conn, on_message, kind, payload)
            worker.conn.close()
        return _outcome(kind, payload, worker.process.exitcode)

    def _hand_over(self, fn, args, kwargs, stream: bool, deadline, cancel) -> _Worker:
        """Send the job to a free worker; one found dead (killed while idle, and not yet seen to
        be) is replaced and the job goes to the next: nothing of the job ran there."""
        while True:
            worker = self._take(deadline, cancel)
            try:
                worker.conn.send((fn, args, kwargs, stream))
                return worker
            except (OSError, EOFError):  # the worker is gone
                self._retire(worker)
                worker.conn.close()
            except Exception:  # the job does not pickle: nothing was sent, the worker is fine
                self._give_back(worker)
                raise
            except BaseException:  # Ctrl-C while sending: the worker may hold half a job
                self._retire(worker)
                worker.conn.close()
                raise

    def pids(self) -> list[int]:
        """The workers' process ids (for tests and monitoring)."""
        with self._lock:
            return [w.process.pid for w in self._workers]

    def close(self) -> None:
        """Kill every worker (jobs still running end with :class:`WorkerDied`); idempotent."""
        with self._lock:
            self._closed = True
            workers, self._workers = list(self._workers), set()
            self._idle.clear()
            self._lock.notify_all()
        for worker in workers:
            if worker.process.is_alive():
                worker.process.kill()
        for worker in workers:
            self._kill(worker)
        deactivate(self)
        atexit.unregister(self.close)

    def __enter__(self) -> "Pool":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


# -- the current pool ---------------------------------------------------------------------------------
#: pools made current by :func:`activate`, the last one in force
_active: list[Pool] = []
_active_lock = threading.Lock()


def activate(pool: Pool) -> Pool:
    """Make ``pool`` the one :func:`run` uses when given none (the web app does at start-up)."""
    with _active_lock:
        _active.append(pool)
    return pool


def deactivate(pool: Pool) -> None:
    """Stop using ``pool`` by default (the one activated before it, if any, is current again)."""
    with _active_lock:
        if pool in _active:
            _active.remove(pool)


def current() -> Pool | None:
    """The pool :func:`run` uses by default, or None (one-off workers)."""
    with _active_lock:
        return _active[-1] if _active else None
