"""Solve and prove: exact solving with uniqueness or enumeration (every solution checked by
the rule checker), the solver's verdict on a puzzle the rules got stuck on, and :func:`within`,
the time limit kept on work that cannot stop itself (a worker killed at the deadline)."""

from __future__ import annotations

from collections.abc import Callable
from .. import limits as limits_mod
from ..limits import Deadline, Limits
from ..model import Puzzle, Solution
from .admit import OutOfTime, admit, time_limit_for
from .shapes import SolveReport


def solve(puzzle: Puzzle, *, engine: str | None = None, time_limit: float | Deadline | None = None,
          unique: bool = False, enumerate_all: bool = False, max_solutions: int = 100,
          lim: Limits = limits_mod.CLI, stats: bool = True) -> SolveReport:
    """Solve exactly; with ``unique`` prove uniqueness or give a second solution, with
    ``enumerate_all`` list up to ``max_solutions`` solutions.  Engine errors (an option the engine
    does not support, a bad value) are the engine's :class:`HashikitError`: bad input."""
    from ..solvers import DEFAULT_ENGINE
    from ..solvers import solve as engine_solve

    deadline = time_limit_for(time_limit, lim)
    admit(puzzle, lim)
    want = max(max_solutions if enumerate_all else 1, 2 if unique else 1)
    result = engine_solve(puzzle, engine=engine or DEFAULT_ENGINE, time_limit=deadline, max_solutions=want)
    assert_checked(puzzle, result.solutions)
    report = SolveReport(status=result.status.value,
                         bridges=result.solution.to_list() if result.solution is not None else [],
                         engine=result.engine)
    if stats:
        report.stats = {k: (round(v, 6) if isinstance(v, float) else v) for k, v in result.stats.items()}
    if result.reason:
        report.reason = result.reason
    if result.status.value == "unknown":
        report.message = "no answer within the time limit" + (f" of {deadline.seconds:g} s" if deadline else "")
    if unique and result.solution is not None:
        report.unique = result.unique
        if result.unique is False:
            report.second = result.solutions[1].to_list()
    if enumerate_all:
        report.solutions = [s.to_list() for s in result.solutions[:max_solutions]]
        report.complete = result.complete
        if not result.complete and result.solution is not None:
            report.stopped = ("limit" if len(result.solutions) >= want
                              else "time limit" if deadline is not None else "engine")
    return report


def assert_checked(puzzle: Puzzle, solutions) -> None:
    """Every solution a use-case hands out passes the independent rule checker."""
    from ..checker import check

    for s in solutions:
        report = check(puzzle, s)
        if not report.ok:  # an engine bug: never hand out a wrong answer
            raise RuntimeError(f"an engine returned a solution that breaks the rules: {report}")


def solve_for_output(puzzle: Puzzle, lim: Limits = limits_mod.CLI,
                     time_limit: float | Deadline | None = None) -> tuple[Solution | None, SolveReport]:
    """Solve for a command that writes or draws the solution (None when there is none)."""
    report = solve(puzzle, lim=lim, time_limit=time_limit, stats=False)
    return (Solution.from_list(report.bridges) if report.status == "solved" else None), report


def verdict(puzzle: Puzzle, time_limit: float | Deadline | None = None) -> str:
    """Why the rules got stuck, from the exact solver: no solution, several, or a guess needed."""
    from ..solvers import solve as engine_solve

    return verdict_of(engine_solve(puzzle, max_solutions=2, time_limit=time_limit))


def verdict_of(result) -> str:
    """Why the rules got stuck, in words, from an exact solve asked for two solutions."""
    if result.status.value == "infeasible":
        return "the puzzle has no solution" + (f": {result.reason}" if result.reason else "")
    if result.unique is False:
        return "the puzzle has several solutions"
    if result.unique is True:
        return "the puzzle has one solution, but finding it needs a guess (search)"
    return "the solver could not tell within the time limit whether it has one solution"


def within(seconds: float | Deadline | None, fn: Callable, *args, cancel=None, **kwargs):
    """``fn(*args, **kwargs)`` in a worker process killed ``seconds`` from now, or at the
    :class:`~hashikit.limits.Deadline` given (plus nothing: the caller adds
    ``limits.TIME_MARGIN`` to what it promises); :class:`OutOfTime` when killed.

    For work without its own time limit (the deducer, the generator's layout).
    ``seconds`` None runs ``fn`` here.  The worker's exceptions are raised here; Ctrl-C kills
    the worker at once.  The worker is one of the current pool's (``hashikit.run.workers``: the web
    app has one; waiting for a free worker counts against ``seconds``), else a one-off process.
    ``cancel`` (a ``threading.Event``): once set, the worker is killed and
    ``workers.Cancelled`` raised.
    """
    deadline = time_limit_for(seconds, limits_mod.CLI)
    if deadline is None:
        return fn(*args, **kwargs)
    from ..run import workers
    from ..solvers.process import killed_at_deadline

    try:  # the engine solves inside run in the worker: the kill ends them too
        return workers.run(killed_at_deadline, (fn, *args), kwargs, deadline=deadline.at, cancel=cancel)
    except workers.Overrun:
        raise OutOfTime(f"no answer within the time limit of {deadline.seconds:g} s") from None
    except workers.WorkerDied:
        raise RuntimeError("the worker process ended without an answer (out of memory?)") from None
