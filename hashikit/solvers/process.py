"""A time-limited solve in a child process that is ended at the deadline.

Why a process: python-sat cannot interrupt CaDiCaL, and model building (Python loops over
tens of thousands of links) cannot be interrupted either.  The child runs the whole engine
(``engine.solve(..., deadline=...)``) and sends each solution as soon as it is found, then the
result; the parent waits until the deadline plus a grace period, then ends the child.  So the
answer comes within the time limit plus ``limits.TIME_MARGIN``, keeps the solutions found so far,
and never says "infeasible" unless the engine proved it.  Ctrl-C in the parent ends the child
(the child ignores SIGINT: the terminal sends it to both, and only the parent reports it).

``fork`` is used where available (no re-import, start-up in milliseconds), ``spawn`` elsewhere.
"""

from __future__ import annotations

import multiprocessing
import signal
import threading
import time

from ..limits import TIME_MARGIN
from ..model import Puzzle, Solution
from .base import SolveResult, Status
from .lazy import TIME_LIMIT

#: seconds past the deadline the parent waits for the child's own (partial) answer
GRACE = TIME_MARGIN / 4
#: longest single wait (a huge time limit must not overflow poll())
_MAX_WAIT = 3600.0


def _context():
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


def _child(run, puzzle: Puzzle, deadline: float, max_solutions: int, options: dict, conn) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        def report(counts):
            conn.send(("solution", counts))

        def announce(stats):
            conn.send(("stats", stats))

        result = run(puzzle, deadline=deadline, max_solutions=max_solutions,
                     report=report, announce=announce, **options)
        result.solution, result.solutions = None, []  # already sent, one by one
        conn.send(("result", result))
    except BaseException as exc:  # handed to the parent, which raises it
        try:
            conn.send(("error", exc))
        except Exception:
            conn.send(("error", RuntimeError(f"{type(exc).__name__}: {exc}")))
    finally:
        conn.close()


def _end(child) -> None:
    """Kill the child if it still runs; a child with a large model takes a while to free its memory,
    so after a short wait a daemon thread reaps it and the answer is not held up."""
    if child.is_alive():
        child.kill()
    child.join(0.1)
    if child.exitcode is None:
        threading.Thread(target=child.join, name="hashikit-reaper", daemon=True).start()


def solve_in_child(engine: str, run, puzzle: Puzzle, start: float, time_limit: float, max_solutions: int,
                   options: dict) -> SolveResult:
    """Run ``engine`` (its ``solve`` function ``run``) on ``puzzle`` in a child process, ended at
    ``start + time_limit`` (monotonic).  In a daemonic process (which may have no children: the
    caller already runs in a process it ends at its own deadline) the engine runs here, with the
    deadline checked between solver calls."""
    deadline = start + time_limit
    if multiprocessing.current_process().daemon:
        result = run(puzzle, deadline=deadline, max_solutions=max_solutions, **options)
        result.stats["process"] = "caller (daemonic)"
        return result
    ctx = _context()
    receive, send = ctx.Pipe(duplex=False)
    child = ctx.Process(target=_child, args=(run, puzzle, deadline, max_solutions, options, send),
                        name=f"hashikit-{engine}")  # not daemonic: callers may run in a daemonic process
    # (a daemonic process may not have children); it is always killed and reaped below
    found: list[list[int]] = []
    early_stats: dict = {}
    result: SolveResult | None = None
    error: BaseException | None = None
    child.start()
    send.close()
    try:
        while result is None and error is None:
            wait = deadline + GRACE - time.monotonic()
            if wait <= 0 or not receive.poll(min(wait, _MAX_WAIT)):
                if wait > _MAX_WAIT:
                    continue
                break
            try:
                kind, payload = receive.recv()
            except EOFError:  # the child ended without a word (killed, out of memory)
                break
            if kind == "solution":
                found.append(payload)
            elif kind == "stats":
                early_stats = payload
            elif kind == "result":
                result = payload
            else:
                error = payload
    finally:
        _end(child)
        receive.close()
    if error is not None:
        raise error
    solutions = [Solution.from_counts(puzzle, c) for c in found]
    if result is None:
        late = time.monotonic() >= deadline
        result = SolveResult(Status.SOLVED if solutions else Status.UNKNOWN, engine=engine,
                             stopped=TIME_LIMIT if late else f"the engine process ended (exit code {child.exitcode})",
                             stats={**early_stats, "ended_at_deadline": late})
    result.solutions = solutions
    result.solution = solutions[0] if solutions else None
    if solutions and result.status is not Status.SOLVED:
        result.status, result.reason = Status.SOLVED, None
    result.stats["time"] = time.monotonic() - start
    result.stats["process"] = "child"
    return result
