"""One runner for everything that runs many jobs (bench, generate --count, generate-suite, a cluster).
Its vocabulary (jobs, results, seeds, sinks) lives in :mod:`.jobs`; this module runs them, on the
worker pool of :mod:`.workers` or on another executor (a cluster's).

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
- the **executor** runs the jobs.  By default it is the runner's own: a
  :class:`hashikit.run.workers.Pool` of ``workers`` fresh processes (from a fork server, so safe
  beside threads), the same pool the web app serves from, with one thread per worker handing it
  jobs.  A job whose worker dies (a crash, the kernel's OOM killer) or passes its hard deadline
  gets its own error row, and the pool puts a new worker in that one's place.  Any other
  :class:`concurrent.futures.Executor` passed in (for example Dask's ``Client.get_executor()``)
  is used as it is and left to its owner; pass a zero-argument function that makes one
  (``executor=make_executor``) to let the runner restart it after it breaks.  An executor with a
  ``capacity()`` method (a cluster's: :class:`hashikit.run.cluster.DaskExecutor`) is asked it
  about once a second: the runner keeps twice that many jobs submitted, following it as workers
  join and leave (none while it is 0), puts back jobs the executor itself cancelled, and stops
  on what it raises (a lost scheduler), with the rows stored so far kept for a resume.

Use::

    from hashikit.run.batch import Job, JsonLinesSink, run_batch, job_seed

    jobs = [Job(f"{i}", make_one, (job_seed(base, i),)) for i in range(100)]
    for result in run_batch(jobs, workers=2, sink=JsonLinesSink("out.jsonl"), resume=True):
        ...

Ctrl-C (KeyboardInterrupt in the calling thread) cancels every pending job, kills the runner's
own workers at once and re-raises KeyboardInterrupt (the CLI turns it into exit 130).  Worker
processes ignore SIGINT themselves, so a terminal's Ctrl-C, sent to the whole process group,
reaches only the runner.  SIGTERM does the same (exit status 143) where nobody else handles it,
and a worker whose runner was killed outright ends itself within a second or so.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections import deque
from concurrent.futures import FIRST_COMPLETED, BrokenExecutor, CancelledError, Executor, Future, ThreadPoolExecutor, wait
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
    - ``grace``: seconds past a job's ``time_limit`` before the runner ends it (own pool only;
      the clock starts when the job reaches a worker);
    - ``max_in_flight``: jobs submitted at once (default 2 x workers: each worker has the next one
      ready; for an executor with ``capacity()``, 2 x that, followed as it changes);
    - ``preload``: modules each worker imports before its first job.
    """
    jobs = list(jobs)
    _validate_keys(jobs)
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
                results = _Runner(executor, workers, initializer, initargs, grace, max_in_flight, preload).run(todo)
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


def _validate_keys(jobs: list[Job]) -> None:
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


def _sigterm(signum, frame):
    raise SystemExit(128 + signal.SIGTERM)


def _exit_on_sigterm():
    """While the runner's own pool works, SIGTERM ends the batch as Ctrl-C does (workers ended,
    exit status 143) instead of leaving the workers behind.  Only where nobody else handles SIGTERM
    (the default handler, main thread); returns the function that puts the old handler back."""
    if threading.current_thread() is not threading.main_thread():
        return None
    if signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        return None
    signal.signal(signal.SIGTERM, _sigterm)
    return lambda: signal.signal(signal.SIGTERM, signal.SIG_DFL)


class _OwnPool:
    """The runner's own workers: a :class:`hashikit.run.workers.Pool` of ``workers`` processes and
    as many threads, each running one job at a time on it with the job's hard deadline (its
    ``time_limit`` plus ``grace``, counted from when the job starts).  A job whose worker dies or
    overruns gets its own error row, and the pool puts a new worker in that one's place; the other
    jobs run on."""

    def __init__(self, workers: int, initializer, initargs, preload, grace: float):
        from .workers import Pool

        self.grace = grace
        self.pool = Pool(workers, preload=("hashikit.run.batch", *preload), name="hashikit-batch",
                         initializer=initializer, initargs=initargs)
        self.threads = ThreadPoolExecutor(workers, thread_name_prefix="hashikit-batch")

    def submit(self, job: Job) -> Future:
        return self.threads.submit(self._run, job)

    def _run(self, job: Job) -> tuple[bool, Any, float]:
        from .workers import Overrun, WorkerDied, exit_note

        deadline = None if job.time_limit is None else time.monotonic() + job.time_limit + self.grace
        try:
            return self.pool.run(_call, (job.fn, job.args, job.kwargs), deadline=deadline)
        except Overrun:
            return False, (f"no answer within its time limit of {job.time_limit:g} s (+{self.grace:g} s): "
                           f"its worker was ended"), 0.0
        except WorkerDied as exc:
            return False, f"worker process died ({exit_note(exc.exitcode)})", 0.0

    def close(self) -> None:
        """End every worker now (a job still running gets WorkerDied in its thread) and the threads."""
        self.threads.shutdown(wait=False, cancel_futures=True)
        self.pool.close()
        self.threads.shutdown(wait=True)


class _Runner:
    """Keeps a few jobs per worker submitted, on the runner's own pool or on another executor.

    On another executor that breaks (``BrokenExecutor``), every job submitted at that moment
    fails alike: a job that was alone is to blame and gets the error row; otherwise each of them
    is run again alone (isolation), so the culprit is found and the others finish.
    """

    def __init__(self, executor, workers, initializer, initargs, grace, max_in_flight, preload=()):
        self.owned = executor is None
        self.factory = executor if (executor is not None and not isinstance(executor, Executor)) else None
        self.executor: Executor | _OwnPool | None = executor if isinstance(executor, Executor) else None
        self.workers = max(1, workers or getattr(self.executor, "_max_workers", None) or os.cpu_count() or 1)
        self.setup = (initializer, initargs, tuple(preload), grace)
        self.max_in_flight = max_in_flight
        self.window = max(1, max_in_flight or 2 * self.workers)
        self.requeued: dict[str, int] = {}

    # -- the executor's life --
    def _start(self):
        if self.executor is None:
            self.executor = _OwnPool(self.workers, *self.setup) if self.owned else self.factory()
        return self.executor

    def _submit(self, job: Job) -> Future:
        ex = self._start()
        return ex.submit(job) if self.owned else ex.submit(_call, job.fn, job.args, job.kwargs)

    def _restartable(self) -> bool:
        return self.factory is not None

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
        flying: dict[Future, tuple[int, Job]] = {}
        restore = _exit_on_sigterm() if self.owned else None
        try:
            while queue or alone or flying:
                self._fill(queue, alone, flying)
                if not flying:  # a cluster that runs nothing now (no workers yet): look again soon
                    time.sleep(POLL)
                    continue
                timeout = POLL if self._capacity() is not None else None
                done, _ = wait(list(flying), timeout=timeout, return_when=FIRST_COMPLETED)
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
        except BaseException:  # Ctrl-C, or the caller stopped early: nothing may outlive the batch
            for fut in flying:
                fut.cancel()
            raise
        finally:
            if restore is not None:
                restore()
            if self.owned and self.executor is not None:
                self.executor.close()
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
            try:
                fut = self._submit(job)
            except BrokenExecutor:
                batch.appendleft((i, job))
                if not self._restartable():
                    raise BatchError("the executor broke and cannot be restarted "
                                     "(pass a function that makes one to allow restarts)") from None
                self.executor = None
                continue
            flying[fut] = (i, job)

    def _after_crash(self, broken, flying, alone) -> Iterator[Result]:
        """Another executor broke: blame a job that ran alone, run the others again one at a time."""
        suspects = sorted(broken + list(flying.values()))
        flying.clear()
        if self.factory is None:
            for i, job in suspects:
                yield Result(job.key, i, False, None, "the executor broke: a worker ended abruptly", job=job)
            return
        self.executor = None
        if len(suspects) == 1:
            i, job = suspects[0]
            yield Result(job.key, i, False, None, "worker process died (the executor broke)", job=job)
            return
        alone.extend(suspects)
