"""Grade and explain: the whole logical path of a puzzle, its difficulty level, and the
analysis the web page shows (level, uniqueness, verdict)."""

from __future__ import annotations

from .. import limits as limits_mod
from ..limits import Deadline, Limits
from ..model import Puzzle
from .admit import admit, time_limit_for
from .play import step_model
from .shapes import AnalyzeReport, ExplainReport, GradeReport
from .solving import assert_checked, verdict


def explain(puzzle: Puzzle, max_level: str = "expert", time_limit: float | Deadline | None = None,
            lim: Limits = limits_mod.CLI) -> ExplainReport:
    """The whole logical path, step by step; when stuck, the solver's :func:`verdict` (within
    what is left of ``time_limit``)."""
    from ..logic import solve_logically

    deadline = time_limit_for(time_limit, lim)
    admit(puzzle, lim)
    state, steps, stuck = solve_logically(puzzle, max_level)
    report = ExplainReport(solved=not stuck, steps=[step_model(puzzle, s) for s in steps],
                           undecided=len(state.undecided()))
    if stuck:
        report.verdict = verdict(puzzle, deadline)
    return report


def grade(puzzle: Puzzle, max_level: str = "expert", time_limit: float | Deadline | None = None,
          lim: Limits = limits_mod.CLI) -> GradeReport:
    """The lowest rule level that finishes the puzzle (None when stuck, with the verdict)."""
    from ..logic import grade as logic_grade

    deadline = time_limit_for(time_limit, lim)
    admit(puzzle, lim)
    g = logic_grade(puzzle, max_level)
    report = GradeReport(grade=g.level, score=g.score, steps=g.steps_per_level, undecided=g.undecided)
    if g.level is None:
        report.verdict = verdict(puzzle, deadline)
    return report


def analyze(puzzle: Puzzle, time_limit: float | Deadline | None = None,
            lim: Limits = limits_mod.WEB) -> AnalyzeReport:
    """For the constructor: infeasible (with the reason), unique (with its grade), several
    (two solutions and the links on which they differ) or unknown (time limit)."""
    from ..logic import grade as logic_grade
    from ..solvers import solve as engine_solve

    deadline = time_limit_for(time_limit, lim)
    admit(puzzle, lim)
    result = engine_solve(puzzle, max_solutions=2, time_limit=deadline)
    assert_checked(puzzle, result.solutions)
    sols = [s.to_list() for s in result.solutions[:2]]
    if result.status.value == "infeasible":
        return AnalyzeReport(status="infeasible", reason=result.reason or "no solution exists")
    if result.unique is False:
        a, b = result.solutions[0].bridges, result.solutions[1].bridges
        differ = sorted([*p, *q] for (p, q) in set(a) | set(b) if a.get((p, q), 0) != b.get((p, q), 0))
        return AnalyzeReport(status="several", differ=differ, solutions=sols)
    if result.unique is True:
        g = logic_grade(puzzle)
        return AnalyzeReport(status="unique", grade=g.level, score=g.score, solutions=sols)
    return AnalyzeReport(status="unknown", reason="no answer within the time limit", solutions=sols)
