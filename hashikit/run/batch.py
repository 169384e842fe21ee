"""One runner for everything that runs many jobs (bench, generate --count, generate-suite, a cluster).
Its vocabulary (jobs, results, seeds, sinks) lives in :mod:`.jobs`; this module runs them.  About
570 lines: the runner, its own process pool and its crash attribution are one piece.

Why one: each of those needs the same five things, and two hand-made pools already disagreed on
them: a crashed or killed worker must cost one row, not the batch; every job gets a seed that does
not depend on the order jobs finish in or on the machine; one progress bar (on standard error,
never on standard output); results on disk as they finish, so a long run that stops can be
resumed; and Ctrl-C that stops at once.

Vocabulary, stated once:

- a **job** (:class:`Job`) is a picklable module-level function with its arguments and a *key*:
  a short string, unique in the batch and stable across runs (it names the job's row on disk and
  feeds its seed);
- a **result** (:class:`Result`) is what one job gave: ``ok`` and its ``value``, or ``ok=False``
  and a one-line ``error`` (an exception in the job, a worker that died, a time limit);
- a **sink** (:class:`JsonLinesSink`, :class:`CsvSink`) stores one row per result, appended and
  flushed as it comes; with ``resume=True`` the jobs whose rows are already stored are not run
  again (their stored results come back first, marked ``resumed``);
- the **executor** is any :class:`concurrent.futures.Executor`.  By default the runner starts a
  ``ProcessPoolExecutor`` of ``workers`` fresh processes (from a fork server) that it owns: it
  restarts it when a worker dies, and terminates its processes on Ctrl-C or at a job's hard
  deadline.  An executor
  passed in (for example Dask's ``Client.get_executor()``) is used as it is and left to its owner;
  pass a zero-argument function that makes one (``executor=make_executor``) to let the runner
  restart it after a crash.  An executor with a ``capacity()`` method (a cluster's:
  :class:`hashikit.run.cluster.DaskExecutor`) is asked it about once a second: the runner keeps
  twice that many jobs submitted, following it as workers join and leave (none while it is 0),
  puts back jobs the executor itself cancelled, and stops on what it raises (a lost scheduler),
  with the rows stored so far kept for a resume.

Use::

    from hashikit.run.batch import Job, JsonLinesSink, run_batch, job_seed

    jobs = [Job(f"{i}", make_one, (job_seed(base, i),)) for i in range(100)]
    for result in run_batch(jobs, workers=2, sink=JsonLinesSink("out.jsonl"), resume=True):
        ...

Ctrl-C (KeyboardInterrupt in the calling thread) cancels every pending job, terminates the
runner's own worker processes within about a second and re-raises KeyboardInterrupt (the CLI
turns it into exit 130).  Worker processes ignore SIGINT themselves, so a terminal's Ctrl-C, sent
to the whole process group, reaches only the runner.  SIGTERM does the same (exit status 143)
where nobody else handles it, and a worker whose runner was killed outright ends itself within
a second or so (a pool's workers would otherwise wait for work forever).
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import deque
from concurrent.futures import FIRST_COMPLETED, BrokenExecutor, CancelledError, Executor, Future, wait
from typing import Any, Callable, Iterable, Iterator, Sequence

from .jobs import BatchError, CsvSink, Job, JsonLinesSink, Result, base_seed, job_seed, jobs_from_records

__all__ = ["Job", "Result", "BatchError", "JsonLinesSink", "CsvSink", "run_batch", "jobs_from_records",
           "job_seed", "base_seed", "DEFAULT_GRACE"]

#: seconds a job may run past its own time limit before the runner ends it (process start-up,
#: imports, model building that the job's limit may not cover)
DEFAULT_GRACE = 5.0
#: seconds between two looks at an executor that tells its capacity (a cluster)
POLL = 1.0
#: times a job the executor itself cancelled (a cluster that lost its scheduler) is put back
REQUEUES = 3
#: OSErrors in a row at submit to the own pool that are taken for its breaking (a new pool each)
SUBMIT_RETRIES = 3


# -- progress ----------------------------------------------------------------------------------
class _Display:
    """One rich progress bar on standard error: bar, count, rate, elapsed, ETA, failures.

    Off when ``enabled`` is False or standard error is not a terminal (unless ``force``): a log
    file gets no bar, and standard output never gets anything from here.
    """

    def __init__(self, total: int, label: str, enabled: bool, force: bool = False):
        self.total = total
        self.failed = 0
        self.label = label
        self._progress = None
        if not enabled or total == 0 or not (force or sys.stderr.isatty()):
            return
        from rich.console import Console
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TaskProgressColumn, TextColumn,
                                   TimeElapsedColumn, TimeRemainingColumn)

        console = Console(file=sys.stderr, force_terminal=True if force else None)
        self._progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                  TaskProgressColumn(), TextColumn("{task.fields[rate]}"),
                                  TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                                  TextColumn("{task.fields[failed]}"), console=console, transient=False)
        self._start = time.perf_counter()
        self._task = self._progress.add_task(label, total=total, rate="", failed="")

    def __enter__(self):
        if self._progress is not None:
            self._progress.start()
        return self

    def advance(self, ok: bool) -> None:
        if self._progress is None:
            return
        self.failed += 0 if ok else 1
        task = self._progress.tasks[0]
        done = task.completed + 1
        rate = done / max(time.perf_counter() - self._start, 1e-9)
        self._progress.update(self._task, advance=1, rate=f"{rate:.1f}/s",
                              failed=f"{self.failed} failed" if self.failed else "")

    def __exit__(self, *exc) -> None:
        if self._progress is not None:
            self._progress.stop()


# -- in the worker -----------------------------------------------------------------------------
def _worker_init(initializer, initargs, runner_pid: int) -> None:  # pragma: no cover - in the workers
    """Workers ignore SIGINT (Ctrl-C is the runner's to handle: it ends them), end themselves when
    the runner is gone (killed: nobody else would ever end them), then run the caller's set-up."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    import threading

    threading.Thread(target=_watch_runner, args=(runner_pid,), name="hashikit-batch-watch", daemon=True).start()
    if initializer is not None:
        initializer(*initargs)


def _process_gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    try:  # dead but not yet reaped by its parent
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as fh:
            return fh.read().rsplit(")", 1)[-1].split()[0] == "Z"
    except OSError:
        return False


def _watch_runner(pid: int, every: float = 1.0) -> None:  # pragma: no cover - in the workers
    while not _process_gone(pid):
        time.sleep(every)
    os._exit(70)


def _one_line(exc: BaseException) -> str:
    text = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    return text.strip().splitlines()[0] if text.strip() else type(exc).__name__


def _call(fn, args, kwargs) -> tuple[bool, Any, float]:
    """Run one job where it lands: (ok, value or one-line error, seconds).  Never raises but Ctrl-C."""
    start = time.perf_counter()
    try:
        value = fn(*args, **dict(kwargs))
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # SystemExit too: a job that exits is a failed job, not a dead worker
        return False, _one_line(exc), time.perf_counter() - start
    return True, value, time.perf_counter() - start


# -- the runner --------------------------------------------------------------------------------
def run_batch(jobs: Iterable[Job], *, workers: int | None = None,
              executor: Executor | Callable[[], Executor] | None = None, inline: bool = False,
              sink: JsonLinesSink | CsvSink | None = None, resume: bool = False, retry_failed: bool = False,
              progress: bool = True, force_progress: bool = False, label: str = "jobs",
              initializer: Callable[..., None] | None = None, initargs: tuple = (),
              grace: float = DEFAULT_GRACE, max_in_flight: int | None = None,
              preload: Sequence[str] = ()) -> Iterator[Result]:
    """Run ``jobs`` and yield a :class:`Result` for each as it finishes (resumed ones first).

    - ``workers``: size of the runner's own process pool (default: the number of cores);
    - ``executor``: another Executor, or a function that makes one (restartable after a crash);
    - ``inline``: run in this process, one after another (no isolation, no hard deadline: for
      one worker, debugging and tests that patch functions);
    - ``sink`` and ``resume``: store rows as they come; with ``resume`` skip the jobs already
      stored (``retry_failed``: run the failed ones again);
    - ``progress``: the bar on standard error when it is a terminal (``force_progress``: always);
    - ``initializer(*initargs)``: once per worker process of the runner's own pool;
    - ``grace``: seconds past a job's ``time_limit`` before the runner ends it (own pool only);
    - ``max_in_flight``: jobs submitted at once (default 2 x workers: each worker has the next one
      ready; for an executor with ``capacity()``, 2 x that, followed as it changes);
    - ``preload``: modules the fork server imports once for all workers (the first batch's list
      counts: there is one fork server per process).
    """
    jobs = list(jobs)
    _check_keys(jobs)
    stored = sink.load() if (sink is not None and resume) else {}
    if retry_failed:
        stored = {k: r for k, r in stored.items() if r.ok}
    todo = [(i, job) for i, job in enumerate(jobs) if job.key not in stored]
    if sink is not None:
        sink.open(append=resume)
    try:
        with _Display(len(jobs), label, enabled=progress, force=force_progress) as bar:
            for i, job in enumerate(jobs):
                if job.key in stored:
                    old = stored[job.key]
                    old.index, old.job = i, job
                    bar.advance(old.ok)
                    yield old
            if inline:
                results = _run_inline(todo)
            else:
                results = _Pool(executor, workers, initializer, initargs, grace, max_in_flight, preload).run(todo)
            try:
                for result in results:
                    if sink is not None:
                        sink.write(result)
                    bar.advance(result.ok)
                    yield result
            finally:
                results.close()  # the pool's own clean-up runs now, not at garbage collection
    finally:
        if sink is not None:
            sink.close()


def _check_keys(jobs: list[Job]) -> None:
    seen: set[str] = set()
    for job in jobs:
        if not isinstance(job.key, str) or not job.key:
            raise BatchError(f"job key {job.key!r}: a key is a non-empty string")
        if job.key in seen:
            raise BatchError(f"two jobs share the key {job.key!r}: keys name rows on disk and must be unique")
        seen.add(job.key)


def _run_inline(todo) -> Iterator[Result]:
    for i, job in todo:
        ok, value, seconds = _call(job.fn, job.args, job.kwargs)
        yield Result(job.key, i, ok, value if ok else None, "" if ok else value, seconds, job=job)


def _process_context(preload: Sequence[str]):
    """Fresh worker processes, safe beside threads (no plain fork): a fork server where the system has
    one (workers start in milliseconds, with hashikit and ``preload`` already imported), else spawn."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["hashikit.run.batch", *preload])  # used when the server first starts
        return ctx
    return multiprocessing.get_context("spawn")


def _death_note(procs, executor=None) -> str:
    """Why a worker died, from its exit code: a signal's name or the code (SIGTERM is the pool's own clean-up).

    The codes are read only after the executor's own thread has reaped its workers (it joins
    every one of a broken pool).  With a fork server a worker's exit code arrives once, as four
    bytes on a pipe, and ``multiprocessing``'s forkserver ``Popen.poll`` is not thread-safe: two
    threads that both see the pipe ready both read it, the slower one meets end-of-file and stores
    255 over the real code.  Joining the workers here while that thread joins them turned "exit
    code 7" into "exit code 255" whenever the timing fell that way.
    """
    deadline = time.monotonic() + 2.0
    reaper = getattr(executor, "_executor_manager_thread", None)  # private, as ``_processes``
    if reaper is not None and reaper is not threading.current_thread():
        reaper.join(max(0.0, deadline - time.monotonic()))
    for p in procs:  # no-ops once the reaper is done; else (a foreign executor) wait for the code here
        p.join(max(0.0, deadline - time.monotonic()))
    codes = [p.exitcode for p in procs if p.exitcode not in (None, 0)]
    for code in sorted(codes, key=lambda c: c == -signal.SIGTERM):
        if code < 0:
            try:
                return f"killed by {signal.Signals(-code).name}"
            except ValueError:
                return f"killed by signal {-code}"
        return f"exit code {code}"
    return "ended abruptly"


def _sigterm(signum, frame):
    raise SystemExit(128 + signal.SIGTERM)


def _exit_on_sigterm():
    """While the runner's own pool works, SIGTERM ends the batch as Ctrl-C does (workers ended,
    exit status 143) instead of leaving the workers behind.  Only where nobody else handles SIGTERM
    (the default handler, main thread); returns the function that puts the old handler back."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        return None
    if signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        return None
    signal.signal(signal.SIGTERM, _sigterm)
    return lambda: signal.signal(signal.SIGTERM, signal.SIG_DFL)


class _sigint_deferred:
    """Ctrl-C waits until the block ends: ``submit`` may start a worker process, and one
    interrupted half-started is not yet known to the pool, so it would not be ended."""

    def __enter__(self):
        import threading

        self.got, self.old = False, None
        if threading.current_thread() is threading.main_thread() and \
                signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            self.old = signal.signal(signal.SIGINT, self._note)
        return self

    def _note(self, signum, frame) -> None:
        self.got = True

    def __exit__(self, *exc) -> None:
        if self.old is not None:
            signal.signal(signal.SIGINT, self.old)
            if self.got:
                raise KeyboardInterrupt


class _InFlight:
    """The submitted jobs, and when each began to run.

    A process pool hands jobs to its workers first in, first out, one per free worker; so with
    ``workers`` busy, the oldest ``workers`` submitted jobs are the running ones, and a waiting
    job starts when one of them ends.  That gives each job its own start time (for its hard
    deadline) while a few more wait in the pool's queue, so no worker idles between jobs.
    """

    def __init__(self, workers: int):
        self.workers = workers
        self.jobs: dict[Future, tuple[int, Job]] = {}
        self.started: dict[Future, float] = {}
        self.waiting: deque[Future] = deque()

    def __len__(self) -> int:
        return len(self.jobs)

    def add(self, fut: Future, i: int, job: Job) -> None:
        self.jobs[fut] = (i, job)
        self.waiting.append(fut)
        self._promote()

    def pop(self, fut: Future) -> tuple[int, Job]:
        item = self.jobs.pop(fut)
        if self.started.pop(fut, None) is None:
            self.waiting.remove(fut)
        self._promote()
        return item

    def clear(self) -> list[tuple[int, Job]]:
        items = sorted(self.jobs.values())
        self.jobs.clear()
        self.started.clear()
        self.waiting.clear()
        return items

    def _promote(self) -> None:
        now = time.monotonic()
        while self.waiting and len(self.started) < self.workers:
            self.started[self.waiting.popleft()] = now

    def deadlines(self, grace: float) -> list[tuple[float, Future]]:
        """(hard deadline, future) of the running jobs that have a time limit."""
        return [(t0 + self.jobs[f][1].time_limit + grace, f) for f, t0 in self.started.items()
                if self.jobs[f][1].time_limit is not None]


class _Pool:
    """Keeps a few jobs per worker submitted; restarts its own pool after a crash or an overrun.

    Attribution of a crash: when a worker dies, every job submitted at that moment fails with the
    same BrokenProcessPool.  A job that was alone is to blame: it gets the error row.  Otherwise
    each of them is run again alone (isolation), so the culprit is found and the others finish.
    """

    def __init__(self, executor, workers, initializer, initargs, grace, max_in_flight, preload=()):
        self.preload = tuple(preload)
        self.owned = executor is None
        self.factory = executor if (executor is not None and not isinstance(executor, Executor)) else None
        self.executor: Executor | None = executor if isinstance(executor, Executor) else None
        self.workers = max(1, workers or getattr(self.executor, "_max_workers", None) or os.cpu_count() or 1)
        self.initializer, self.initargs = initializer, initargs
        self.grace = grace
        self.max_in_flight = max_in_flight
        self.window = max(1, max_in_flight or 2 * self.workers)
        self.procs: list = []
        self.requeued: dict[str, int] = {}
        self.submit_errors = 0  # OSErrors at submit in a row (own pool)

    # -- the executor's life --
    def _start(self) -> Executor:
        if self.executor is None:
            if self.owned:
                from concurrent.futures import ProcessPoolExecutor

                self.executor = ProcessPoolExecutor(
                    max_workers=self.workers, mp_context=_process_context(self.preload),
                    initializer=_worker_init, initargs=(self.initializer, self.initargs, os.getpid()))
            else:
                self.executor = self.factory()
        return self.executor

    def _note_procs(self, ex=None) -> None:
        procs = getattr(ex or self.executor, "_processes", None)  # private, read only for exit codes
        if procs:
            self.procs = list(procs.values())

    def _end_workers(self) -> None:
        """Terminate the own pool's processes now (SIGTERM, then SIGKILL after a second)."""
        ex, self.executor = self.executor, None
        if ex is None:
            return
        self._note_procs(ex)
        procs = list(self.procs)
        for p in procs:
            if p.is_alive():
                p.terminate()
        # the pool drops its pending work items now: its manager thread, seeing the workers end,
        # sets an exception on each item it still holds, and one already cancelled (Ctrl-C) would
        # raise InvalidStateError in that thread, a traceback on the user's screen
        ex.shutdown(wait=False, cancel_futures=True)
        deadline = time.monotonic() + 1.0
        for p in procs:
            p.join(max(0.0, deadline - time.monotonic()))
            if p.is_alive():
                p.kill()
                p.join(1.0)
        # the pool's manager thread closes the pool's pipes on its way out; at the interpreter's
        # exit a wake-up written to them without the pool's lock, while it closes them, is an EBADF
        # traceback: it ends now, not then (a private attribute, only read)
        manager = getattr(ex, "_executor_manager_thread", None)
        if manager is not None:
            manager.join(2.0)

    def _restartable(self) -> bool:
        return self.owned or self.factory is not None

    def _capacity(self):
        """The executor's ``capacity`` method, if it has one (never the runner's own pool)."""
        return None if self.owned else getattr(self.executor, "capacity", None)

    def _window(self) -> int:
        """Jobs to keep submitted: fixed, or twice what a cluster runs at once now (0: none yet;
        whatever ``capacity()`` raises, a lost scheduler, ends the batch)."""
        if not self.owned and self.executor is None:
            self._start()
        capacity = self._capacity()
        if capacity is None:
            return self.window
        return self.max_in_flight or 2 * max(0, int(capacity()))

    # -- the loop --
    def run(self, todo) -> Iterator[Result]:
        queue = deque(todo)
        alone: deque = deque()  # suspects of a crash, run one at a time
        flying = _InFlight(self.workers)
        restore = _exit_on_sigterm() if self.owned else None
        try:
            while queue or alone or flying:
                self._fill(queue, alone, flying)
                if not flying:  # a cluster that runs nothing now (no workers yet): look again soon
                    time.sleep(POLL)
                    continue
                done, _ = wait(list(flying.jobs), timeout=self._timeout(flying), return_when=FIRST_COMPLETED)
                broken: list[tuple[int, Job]] = []
                for fut in done:
                    i, job = flying.pop(fut)
                    try:
                        ok, value, seconds = fut.result()
                    except BrokenExecutor:
                        broken.append((i, job))
                        continue
                    except CancelledError:
                        if self._capacity() is not None and self.requeued.get(job.key, 0) < REQUEUES:
                            self.requeued[job.key] = self.requeued.get(job.key, 0) + 1
                            queue.appendleft((i, job))  # a cluster that lost its scheduler: not the job's fault
                            continue
                        yield Result(job.key, i, False, None, "cancelled by the executor", job=job)
                        continue
                    except Exception as exc:  # a foreign executor's failure (e.g. Dask's KilledWorker)
                        yield Result(job.key, i, False, None, _one_line(exc), job=job)
                        continue
                    yield Result(job.key, i, ok, value if ok else None, "" if ok else value, seconds, job=job)
                if broken:
                    yield from self._after_crash(broken, flying, alone)
                yield from self._overdue(flying, queue)
        except BaseException:  # Ctrl-C, or the caller stopped early: nothing may outlive the batch
            if self.owned:
                # the own pool's futures are left to the pool (it cancels what it has not started):
                # one cancelled here, still in the pool's books when its manager thread sees the
                # workers end, makes that thread raise InvalidStateError (a traceback on the screen)
                self._end_workers()
            else:
                for fut in flying.jobs:
                    fut.cancel()
            raise
        finally:
            if restore is not None:
                restore()
            if self.owned and self.executor is not None:
                self.executor.shutdown(wait=True)
                self.executor = None

    def _fill(self, queue, alone, flying) -> None:
        if alone:
            if flying:
                return
            batch, limit = alone, 1
        else:
            batch, limit = queue, self._window()
        while batch and len(flying) < limit:
            i, job = batch.popleft()
            ex = None
            try:
                with _sigint_deferred():  # a worker half-started at Ctrl-C would outlive the batch
                    ex = self._start()
                    fut = ex.submit(_call, job.fn, job.args, job.kwargs)
            except (BrokenExecutor, OSError) as exc:
                batch.appendleft((i, job))
                if isinstance(exc, OSError):
                    # a submit that races the own pool's breaking can hand a new worker the pipes the
                    # breaking pool is closing (EBADF); the fork server, sent a request cut short,
                    # then exits, and the next start finds it gone (refused) before it is started
                    # again: a new pool, after a pause, a few times before the error counts
                    self.submit_errors += 1
                    if not self.owned or self.submit_errors > SUBMIT_RETRIES:
                        raise
                    time.sleep(0.1 * self.submit_errors)
                if not self._restartable():
                    raise BatchError("the executor broke and cannot be restarted "
                                     "(pass a function that makes one to allow restarts)") from None
                if self.owned:
                    # every process of the broken pool ends now: a submit that raced the pool's
                    # breaking can have started one after the pool terminated the others, and the
                    # pool's manager thread (joined at the interpreter's exit) waits for it forever
                    self._end_workers()
                self.executor = None
                continue
            self.submit_errors = 0
            flying.add(fut, i, job)
        self._note_procs()

    def _timeout(self, flying) -> float | None:
        if not self.owned:
            return POLL if self._capacity() is not None else None
        ends = flying.deadlines(self.grace)
        return max(0.0, min(ends)[0] - time.monotonic()) if ends else None

    def _after_crash(self, broken, flying, alone) -> Iterator[Result]:
        """A worker died: blame a job that ran alone, run the others again one at a time."""
        note = _death_note(self.procs, self.executor)
        suspects = sorted(broken + flying.clear())
        if self.owned:
            self._end_workers()
        elif self.factory is not None:
            self.executor = None
        else:
            for i, job in suspects:
                yield Result(job.key, i, False, None, f"the executor broke: worker {note}", job=job)
            return
        if len(suspects) == 1:
            i, job = suspects[0]
            yield Result(job.key, i, False, None, f"worker process died ({note})", job=job)
            return
        alone.extend(suspects)

    def _overdue(self, flying, queue) -> Iterator[Result]:
        """Jobs past their hard deadline: end the pool, give them an error row, re-queue the rest."""
        if not self.owned:
            return
        now = time.monotonic()
        late = {f for end, f in flying.deadlines(self.grace) if now >= end}
        if not late:
            return
        late_jobs = sorted(flying.jobs[f] for f in late)
        rest = [item for f, item in flying.jobs.items() if f not in late]
        flying.clear()
        self._end_workers()
        for i, job in late_jobs:
            yield Result(job.key, i, False, None,
                         f"no answer within its time limit of {job.time_limit:g} s (+{self.grace:g} s): "
                         f"its worker was ended", job=job)
        queue.extendleft(reversed(sorted(rest)))
