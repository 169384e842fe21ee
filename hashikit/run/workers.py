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

Ownership: a worker's pipe is read and closed only by the one thread that holds the worker at
that moment (the thread starting it, the pool while it is idle, the caller running a job on it).
Nobody else touches it: ``Pool.close`` kills the workers other threads hold and leaves their
pipes to them (they see the pipe end and close it).  A descriptor closed by one thread while
another polls it can be handed to a new pipe at once, and the poller then reads, or closes,
somebody else's pipe.  Likewise a worker process's exit is read by one thread at a time
(:class:`_Process`): ``forkserver`` hands the exit code over a pipe once, and two readers
would store 255 over the real code.

Memory and priority: a pool may give each worker a cap on the memory it maps (``RLIMIT_AS``) and
a lower CPU priority (``nice``).  A job that runs out of memory raises ``MemoryError`` in the
caller, and its worker, which may be left in any state, is replaced, as one that died is.  A
capped worker hands the memory a job freed back to the system after each job, so that a pool
holds what its running jobs need, not the most each worker ever needed.

Ctrl-C: workers ignore SIGINT (the terminal sends it to the whole process group; only the caller
reports it); the caller's KeyboardInterrupt kills the worker it waited on before propagating.

This module imports nothing of hashikit: it sits below the engines and the use-cases.  It is
longer than most on purpose: the one-off worker, the pool and the process wrapper share the
ownership rules above, which are easiest to keep when they are read in one place.
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

from .itself import limit_self, release_memory, watch_owner

#: longest single wait on a pipe (poll() of a huge timeout overflows)
_MAX_WAIT = 3600.0
#: longest wait for a new pool worker to start and import its modules
_READY_WAIT = 120.0
#: how often a waiting caller looks at its cancel event
_CANCEL_POLL = 0.05
#: longest wait for the exit code of a worker whose pipe ended without an answer
_DIED_WAIT = 2.0
#: how many workers a pool's job is handed to when each is found dead before it started the job
_HAND_OVER_TRIES = 3
#: first and longest pause before starting a worker again after a start failed
_RETRY_FIRST, _RETRY_MOST = 0.05, 5.0


class Overrun(Exception):
    """The job was still running at its deadline (or waited for a worker past it); its worker,
    if it had one, was killed."""


class Cancelled(Exception):
    """The caller's cancel event was set; the job's worker was killed."""


def exit_note(code: int | None) -> str:
    """Why a worker ended, from its exit code: a signal's name, the code, or "ended abruptly"
    when the code is not known."""
    if code is None:
        return "ended abruptly"
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}"


class WorkerDied(Exception):
    """The worker ended without an answer (killed from outside, out of memory, the pool closed)."""

    def __init__(self, exitcode: int | None):
        super().__init__("the worker process ended without an answer"
                         + (f" ({exit_note(exitcode)})" if exitcode is not None else ""))
        self.exitcode = exitcode


# -- the worker's side ----------------------------------------------------------------------------
def _serve(conn, job=None, preload: Sequence[str] = (), owner: int | None = None,
           setup: tuple[Callable[..., None], tuple] | None = None, memory: int | None = None, nice: int = 0) -> None:
    """A worker's life: run ``job`` and end (one-off), or run the jobs sent on ``conn`` until the
    pool closes its end, which ends the worker quietly wherever it is met (a pool's worker, after
    importing ``preload`` and running ``setup``, a function and its arguments, so that its first
    job starts warm).  A pool's worker also ends itself within about a
    second once the process ``owner`` that made the pool is gone (killed outright: nobody else
    would end a worker busy with a long job).  ``memory`` caps the bytes it maps and ``nice``
    lowers its CPU priority, before anything else."""
    global _active_lock
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    limit_self(memory, nice)
    # a forked worker does not use its parent's pool (its own jobs start one-off workers), nor a
    # lock some other thread of the parent may have held at the fork
    _active_lock = threading.Lock()
    del _active[:]
    if job is not None:
        _run_job(conn, *job)
        conn.close()
        return
    if owner is not None:
        threading.Thread(target=watch_owner, args=(owner,), name="hashikit-owner-watch", daemon=True).start()
    for name in preload:
        try:
            importlib.import_module(name)
        except ImportError:
            pass  # an optional engine; the job that needs it says so
    if setup is not None:
        setup[0](*setup[1])
    try:
        conn.send(("ready", os.getpid()))
        while True:
            job = conn.recv()
            conn.send(("started", None))  # the caller knows the job reached a live worker
            _run_job(conn, *job)
            if memory is not None:
                release_memory()
    except (EOFError, OSError):
        return  # the pool closed its end: nobody waits for this worker any more


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
    except OSError:
        raise  # the caller closed its end: the worker's life ends (see _serve)
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
            elif got != "started":  # the job's start is not its answer
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


class _Process:
    """A worker process whose state is read by one thread at a time.

    ``multiprocessing`` is not safe here on its own: a ``forkserver`` child's exit code comes
    once over a pipe (a second reader gets 255), and ``Process.start()`` in any thread polls
    every tracked child of the process.  So the process is taken off ``multiprocessing``'s list
    of children (nothing else polls it) and every poll, join and kill goes through ``_lock``.
    Once reaped, its exit code is kept and its descriptors are closed at once (not whenever the
    garbage collector gets to it)."""

    def __init__(self, process):
        self.process = process
        self.pid = process.pid
        self._exitcode: int | None = None
        self._lock = threading.Lock()
        multiprocessing.process._children.discard(process)  # see the class docstring

    def _poll(self) -> int | None:
        """Under ``_lock``: the exit code, the process closed once it is known."""
        if self._exitcode is None and self.process.exitcode is not None:
            self._exitcode = self.process.exitcode
            self.process.close()
        return self._exitcode

    def alive(self) -> bool:
        """False once it has ended (or while another thread is reaping it)."""
        if not self._lock.acquire(blocking=False):
            return False  # a reaper holds it: the process was killed
        try:
            return self._poll() is None
        finally:
            self._lock.release()

    def exitcode(self) -> int | None:
        """Its exit code, None while it runs or while another thread reaps it."""
        if not self._lock.acquire(blocking=False):
            return None
        try:
            return self._poll()
        finally:
            self._lock.release()

    def wait(self, timeout: float) -> int | None:
        """Its exit code, waiting up to ``timeout`` seconds for it to end."""
        with self._lock:
            if self._poll() is None:
                self.process.join(timeout)
            return self._poll()

    def kill(self) -> None:
        with self._lock:
            if self._poll() is None:
                self.process.kill()

    def end(self) -> None:
        """Kill it if it still runs and reap it; one with a large model takes a while to free its
        memory, so after a short wait a daemon thread reaps it and the caller is not held up."""
        with self._lock:
            if self._poll() is not None:
                return
            self.process.kill()
            self.process.join(0.1)
            if self._poll() is not None:
                return
        threading.Thread(target=self._reap, name="hashikit-reaper", daemon=True).start()

    def _reap(self) -> None:
        with self._lock:
            if self._exitcode is None:
                self.process.join()
                self._poll()


def _one_off_context():
    return multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")


def _run_one_off(fn, args, kwargs, deadline, on_message, cancel, name):
    ctx = _one_off_context()
    receive, send = ctx.Pipe(duplex=False)
    # not daemonic: the job may start workers of its own (an engine's time-limited solve inside a
    # time-limited hint); it is killed and reaped below whatever happens, so it never outlives this call
    process = ctx.Process(target=_serve, args=(send, (fn, args, kwargs, on_message is not None)), name=name)
    process.start()
    child = _Process(process)
    send.close()
    try:
        kind, payload = _collect(receive, deadline, on_message, cancel)
        child.end()
        if kind not in ("value", "error"):
            kind, payload = _late(receive, on_message, kind, payload)
    finally:
        child.end()
        receive.close()
    return _outcome(kind, payload, child.exitcode())


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
    """A pool's worker: its process and the parent's end of its pipe.  Whoever holds it (see the
    module's docstring on ownership) is the only one to use and close ``conn``."""

    def __init__(self, process: _Process, conn):
        self.process, self.conn = process, conn

    def dispose(self) -> None:
        """Kill, reap (in the background if slow) and close the pipe: by its holder only."""
        self.process.end()
        self.conn.close()


def _pool_context(preload: Sequence[str]):
    if "forkserver" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["hashikit.run.workers", *preload])  # used when the server first starts
        return ctx
    return multiprocessing.get_context("spawn")


class Pool:
    """``size`` warm workers (default: one per CPU) that run jobs with a deadline; more callers
    than workers wait their turn (the wait counts against their deadline).  ``preload`` names
    modules each worker imports before its first job; the pool is returned once every worker
    has (``wait=False``: at once, each worker joining as soon as it is ready); ``initializer(*initargs)``
    runs in each worker after those imports.  ``memory`` (bytes) and ``nice`` are each worker's
    :func:`limit_self`; a job that runs out of that memory raises ``MemoryError`` here and its
    worker is replaced.  ``close()`` (or
    leaving a ``with`` block, or the interpreter's exit) kills every worker.

    Who holds a worker: the thread that starts it, until it is ready; then the pool (``_idle``,
    under ``_lock``); then the caller that took it for a job, until it gives it back or, when
    the job did not end cleanly, disposes of it.  ``_workers`` lists every live worker, held by
    whoever, so that ``close`` can kill them all."""

    def __init__(self, size: int | None = None, *, preload: Sequence[str] = (), name: str = "hashikit-worker",
                 wait: bool = True, initializer: Callable[..., None] | None = None, initargs: tuple = (),
                 memory: int | None = None, nice: int = 0):
        self.size = max(1, size or os.cpu_count() or 2)
        self.name = name
        self.memory, self.nice = memory, nice
        self._preload = tuple(preload)
        self._setup = None if initializer is None else (initializer, tuple(initargs))
        self._owner = os.getpid()
        self._ctx = _pool_context(self._preload)
        self._lock = threading.Condition()
        self._idle: collections.deque[_Worker] = collections.deque()
        self._workers: set[_Worker] = set()
        self._closed = False
        self._started = 0
        self._starting: set[_Worker] = set()  # started, not yet ready
        atexit.register(self.close)
        started: list[_Worker] = []
        try:
            for _ in range(self.size):
                started.append(self._start())
            if wait:
                while started:
                    self._welcome(started.pop(0))
        except BaseException:
            self.close()
            for worker in started:  # still this thread's: close() only killed them
                worker.dispose()
            raise
        if not wait:
            threading.Thread(target=self._warm, args=(started,), name=f"{name}-warming", daemon=True).start()

    # workers come and go
    def _start(self) -> _Worker:
        """A new worker, held by the calling thread and counted among the pool's from the start
        (so ``close`` kills it even while it is still starting)."""
        mine, theirs = self._ctx.Pipe(duplex=True)
        try:
            with self._lock:  # started under the lock: close() never meets a worker half started
                if self._closed:
                    raise WorkerDied(None)
                self._started += 1
                process = self._ctx.Process(target=_serve, args=(theirs, None, self._preload, self._owner, self._setup,
                                                                 self.memory, self.nice),
                                            name=f"{self.name}-{self._started}")
                process.start()
                worker = _Worker(_Process(process), mine)
                self._workers.add(worker)
                self._starting.add(worker)
        except BaseException:
            mine.close()
            raise
        finally:
            theirs.close()
        return worker

    def _welcome(self, worker: _Worker) -> None:
        """Wait for a worker this thread started to say it is ready (so the first job is not the
        one that pays for its start-up), then hand it to the pool; one that died at start, or
        did not start in time, is dropped (``WorkerDied`` or ``RuntimeError``)."""
        kind, _ = _collect(worker.conn, time.monotonic() + _READY_WAIT, None, None)
        with self._lock:
            self._starting.discard(worker)
        if kind != "ready":
            exitcode = worker.process.exitcode()
            self._drop(worker)
            raise WorkerDied(exitcode) if kind == "died" else \
                RuntimeError(f"a worker process did not start within {_READY_WAIT:g} s")
        with self._lock:
            if not self._closed and worker in self._workers:
                self._idle.append(worker)
                self._lock.notify_all()
                return
        self._drop(worker)  # the pool closed meanwhile

    def _drop(self, worker: _Worker) -> None:
        """The holder is done with a worker: it leaves the pool and is disposed of."""
        with self._lock:
            self._workers.discard(worker)
        worker.dispose()

    def _warm(self, started: list[_Worker]) -> None:
        """Hand out each worker as soon as it is ready (``wait=False``: the caller did not wait)."""
        for worker in started:
            try:
                self._welcome(worker)
            except Exception:  # noqa: BLE001 - it died at start: another takes its place
                self._replace_later()

    def _replace_later(self) -> None:
        """Start a worker in the place of one that left, in the background (not once closed)."""
        with self._lock:
            if self._closed:
                return
        threading.Thread(target=self._replace, name=f"{self.name}-starter", daemon=True).start()

    def _replace(self) -> None:
        """Start a worker and hand it to the pool; one that dies while starting (killed from
        outside, out of memory) or cannot be started (out of processes) is tried again, less
        and less often, until one is ready or the pool closes: a pool never stays one short."""
        pause = _RETRY_FIRST
        while True:
            try:
                self._welcome(self._start())
                return
            except Exception:  # noqa: BLE001 - closed, or this start failed: see the docstring
                with self._lock:
                    if self._closed:
                        return
                time.sleep(pause)
                pause = min(2 * pause, _RETRY_MOST)

    def _take(self, deadline: float | None, cancel: threading.Event | None) -> _Worker:
        """An idle worker, now the caller's (one found dead is disposed of and replaced)."""
        while True:
            dead = None
            with self._lock:
                while dead is None:
                    if self._closed:
                        raise WorkerDied(None)
                    if self._idle:
                        worker = self._idle.popleft()
                        if worker.process.alive():
                            return worker
                        dead = worker  # killed from outside while idle
                        break
                    wait = None if deadline is None else deadline - time.monotonic()
                    if wait is not None and wait <= 0:
                        raise Overrun("no worker came free before the deadline")
                    if cancel is not None:
                        if cancel.is_set():
                            raise Cancelled("the job was cancelled while waiting for a worker")
                        wait = _CANCEL_POLL if wait is None else min(wait, _CANCEL_POLL)
                    self._lock.wait(wait)
            self._drop(dead)
            self._replace_later()

    def _give_back(self, worker: _Worker) -> None:
        """A caller is done with a worker whose job ended cleanly: idle again, or disposed of
        if the pool closed meanwhile."""
        with self._lock:
            if not self._closed and worker in self._workers:
                self._idle.append(worker)
                self._lock.notify_all()
                return
        self._drop(worker)

    def _retire(self, worker: _Worker) -> None:
        """A caller's worker whose job did not end cleanly: killed, reaped, replaced.  Its pipe
        stays open for the caller to read what was sent before, and close."""
        with self._lock:
            self._workers.discard(worker)
        worker.process.end()
        self._replace_later()

    # the public side
    def run(self, fn: Callable, args: tuple = (), kwargs: dict | None = None, *, deadline: float | None = None,
            on_message: Callable[[Any], None] | None = None, cancel: threading.Event | None = None):
        """As :func:`run`, on this pool.  A worker that turns out dead before the job reached it
        (killed while idle, not yet seen to be: the job was never started) is replaced and the
        job goes to another, up to :data:`_HAND_OVER_TRIES` times."""
        for _ in range(_HAND_OVER_TRIES):
            worker = self._hand_over(fn, args, kwargs or {}, on_message is not None, deadline, cancel)
            try:
                kind, payload = _collect(worker.conn, deadline, None, cancel)
                if kind == "started":
                    kind, payload = _collect(worker.conn, deadline, on_message, cancel)
                elif kind == "died":
                    self._retire(worker)
                    worker.conn.close()
                    continue
            except BaseException:  # Ctrl-C, or on_message failed: the job may still run
                self._retire(worker)
                worker.conn.close()
                raise
            return self._finish(worker, kind, payload, on_message)
        raise WorkerDied(None)

    def _finish(self, worker: _Worker, kind: str, payload, on_message):
        """The job's outcome; its worker given back (a clean end) or retired."""
        if kind == "value" or (kind == "error" and not isinstance(payload, MemoryError)):
            self._give_back(worker)
            return _outcome(kind, payload)
        if kind == "error":  # out of memory: the worker may be left in any state
            self._retire(worker)
            worker.conn.close()
            raise payload
        if kind == "died":  # its pipe ended: it has exited, or is exiting; its exit code says why
            worker.process.wait(_DIED_WAIT)
        self._retire(worker)
        try:
            kind, payload = _late(worker.conn, on_message, kind, payload)
        finally:
            worker.conn.close()
        return _outcome(kind, payload, worker.process.exitcode())

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

    def wait_ready(self, count: int = 1, timeout: float = _READY_WAIT) -> bool:
        """Wait until at least ``count`` workers are ready (idle or busy; at most the pool's size),
        or ``timeout`` seconds; True when they are.  A server calls it before it takes requests,
        so the first ones do not spend their time limit waiting for workers to start."""
        end = time.monotonic() + timeout
        with self._lock:
            while len(self._workers) - len(self._starting) < min(count, self.size):
                left = end - time.monotonic()
                if self._closed or left <= 0:
                    return False
                self._lock.wait(min(left, _CANCEL_POLL))
            return True

    def starting(self) -> int:
        """How many workers are being started (replacements included) and are not ready yet."""
        with self._lock:
            return len(self._starting)

    def close(self) -> None:
        """Kill every worker (jobs still running end with :class:`WorkerDied`); idempotent.  The
        idle workers are the pool's own and are disposed of here; the others are killed, and the
        threads holding them (callers, starters) close their pipes when they see them end."""
        with self._lock:
            self._closed = True
            idle, self._idle = list(self._idle), collections.deque()
            held = [w for w in self._workers if w not in idle]
            self._workers = set()
            self._starting = set()
            self._lock.notify_all()
        for worker in held:
            worker.process.kill()
        for worker in idle:
            worker.dispose()
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
