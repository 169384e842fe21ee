"""A time-limited solve in a worker process that is killed at the deadline (``hashikit.run.workers``).

Why a process: python-sat cannot interrupt CaDiCaL, and model building (Python loops over
tens of thousands of links) cannot be interrupted either.  The worker runs the whole engine
(``engine.solve(..., time_limit=deadline)``) and posts each solution as soon as it is found, then the
result; the caller waits until the deadline plus a grace period, then the worker is killed.  So
the answer comes within the time limit plus ``limits.TIME_MARGIN``, keeps the solutions found so
far, and never says "infeasible" unless the engine proved it.  Ctrl-C in the caller kills the
worker (workers ignore SIGINT: the terminal sends it to both, and only the caller reports it).

Without an active pool (the CLI, library calls) each solve gets a one-off worker, forked where
available; with one (the web app starts one) a warm worker of the pool runs it, and the time
spent waiting for a free worker counts against the time limit.
"""

from __future__ import annotations

import multiprocessing
import time

from ..run import workers
from ..limits import GRACE, Deadline
from ..model import Puzzle, Solution
from .base import SolveResult, Status
from .lazy import TIME_LIMIT


#: set while a job runs in a worker that its caller kills at the deadline (:func:`killed_at_deadline`)
_killed_at_deadline = False


def killed_at_deadline(fn, *args, **kwargs):
    """``fn(*args, **kwargs)`` as the job of a worker its caller kills at the deadline
    (``service.within``): the limited solves inside it run in that worker, the deadline checked
    between solver calls and kept by the kill, rather than in a process of their own, which the
    kill would leave running, orphaned, until the engine finished."""
    global _killed_at_deadline
    before, _killed_at_deadline = _killed_at_deadline, True
    try:
        return fn(*args, **kwargs)
    finally:
        _killed_at_deadline = before


def _engine_job(run, puzzle: Puzzle, deadline: Deadline, max_solutions: int, options: dict, post) -> SolveResult:
    """The job a worker runs: the engine, posting each solution (its bridge counts) and the early
    stats as they come; the result goes back without the solutions, already posted one by one."""
    result = run(puzzle, time_limit=deadline, max_solutions=max_solutions,
                 report=lambda counts: post(("solution", counts)),
                 announce=lambda stats: post(("stats", stats)), **options)
    result.solution, result.solutions = None, []
    return result


def solve_limited(engine: str, run, puzzle: Puzzle, limit: Deadline, max_solutions: int,
                  options: dict, keeps_deadline: bool = False) -> SolveResult:
    """Run ``engine`` (its ``solve`` function ``run``) on ``puzzle`` in a worker process, killed at
    the deadline ``limit`` plus :data:`~hashikit.limits.GRACE`.  The engine runs here instead, with
    the deadline its own, where it ``keeps_deadline`` (a small model of an engine whose solver
    takes the time left as its limit: ``Capabilities.deadline_in_process``), in a worker killed at
    the deadline (:func:`killed_at_deadline`) and in a daemonic process (which may have no
    children: the caller already runs in a process it ends at its own deadline; the deadline is
    then checked between solver calls)."""
    start = time.monotonic()
    if keeps_deadline or _killed_at_deadline or multiprocessing.current_process().daemon:
        result = run(puzzle, time_limit=limit, max_solutions=max_solutions, **options)
        result.stats["process"] = ("caller" if keeps_deadline else "caller (killed at the deadline)"
                                   if _killed_at_deadline else "caller (daemonic)")
        return result
    found: list[list[int]] = []
    early_stats: dict = {}

    def receive(message) -> None:
        kind, payload = message
        if kind == "solution":
            found.append(payload)
        else:
            early_stats.update(payload)

    pool = workers.current()
    try:
        result = workers.run(_engine_job, (run, puzzle, limit, max_solutions, options),
                             deadline=limit.at + GRACE, on_message=receive, pool=pool, name=f"hashikit-{engine}")
        ended = None
    except workers.Overrun:
        result, ended = None, TIME_LIMIT
    except workers.WorkerDied as exc:
        result, ended = None, f"the engine process ended ({workers.exit_note(exc.exitcode)})"
    solutions = [Solution.from_counts(puzzle, c) for c in found]
    if result is None:
        late = limit.expired()
        result = SolveResult(Status.SOLVED if solutions else Status.UNKNOWN, engine=engine,
                             stopped=TIME_LIMIT if late else ended,
                             stats={**early_stats, "ended_at_deadline": late})
    result.solutions = solutions
    result.solution = solutions[0] if solutions else None
    if solutions and result.status is not Status.SOLVED:
        result.status, result.reason = Status.SOLVED, None
    result.stats["time"] = time.monotonic() - start
    result.stats["process"] = "child" if pool is None else "pool worker"
    return result
