"""Play: checking a board by the rules, a player's mistakes against the unique solution, and
the next hint from a board in play."""

from __future__ import annotations

from .. import limits as limits_mod
from ..errors import PuzzleError
from ..limits import Deadline, Limits
from ..model import Puzzle, Solution, describe_cell
from .admit import BadInput, admit, board_marks, bridges_on_board, mark_list, time_limit_for
from .shapes import BoardCheckReport, HintReport, IN_PLAY_RULES, LinkEnds, Mark, StepModel, ViolationModel
from .solving import assert_checked, verdict_of


def check(puzzle: Puzzle, solution: Solution, *, in_play: bool = False,
          marks: list[LinkEnds] | None = None) -> BoardCheckReport:
    """Check ``solution`` by the rules.  ``in_play``: a board still being played, whose
    ``violations`` are only those such a board can break (and marks that hold a bridge)."""
    from ..checker import check as rule_check

    report = rule_check(puzzle, solution)
    found = [v for v in report.violations
             if not in_play or v.rule in IN_PLAY_RULES
             or (v.rule == "island-count" and _island_over(puzzle, solution, v))]
    violations = [ViolationModel(rule=v.rule, message=v.message, cells=[list(c) for c in v.cells])
                  for v in found]
    for k, most in board_marks(puzzle, marks):
        a, b = puzzle.islands[puzzle.links[k].a], puzzle.islands[puzzle.links[k].b]
        if solution.bridges.get((a.pos, b.pos), 0) > most:
            violations.append(ViolationModel(
                rule="marked", cells=[list(a.pos), list(b.pos)],
                message=f"the link from {describe_cell(*a.pos)} to {describe_cell(*b.pos)} is marked "
                        f"{_mark_words(most)} but holds {solution.bridges[(a.pos, b.pos)]}"))
    return BoardCheckReport(complete=report.ok and not violations, valid=not violations, violations=violations)


def _mark_words(most: int) -> str:
    return "'no bridge'" if most == 0 else f"'at most {most}'"


def islands_differ(puzzle: Puzzle, other: Puzzle) -> BoardCheckReport | None:
    """The report for a solution whose own puzzle is another one (None when they agree)."""
    if other.islands == puzzle.islands:
        return None
    mine = {i.pos: i.number for i in puzzle.islands}
    theirs = {i.pos: i.number for i in other.islands}
    (r, c), _ = sorted(set(mine.items()) ^ set(theirs.items()))[0]
    msg = (f"the solution's islands differ from the puzzle's (first at row {r + 1}, column {c + 1}: "
           f"puzzle {mine.get((r, c), 'empty')}, solution {theirs.get((r, c), 'empty')})")
    return BoardCheckReport(complete=False, valid=False,
                       violations=[ViolationModel(rule="islands-differ", message=msg, cells=[[r, c]])])


def _island_over(puzzle: Puzzle, solution: Solution, violation) -> bool:
    """Whether an ``island-count`` violation is an island over its number (a board in play can break that)."""
    pos = violation.cells[0]
    number = next(i.number for i in puzzle.islands if i.pos == pos)
    have = sum(k for (p, q), k in solution.bridges.items()
               if pos in (p, q) and isinstance(k, int) and not isinstance(k, bool))
    return have > number


def step_model(puzzle: Puzzle, step) -> StepModel:
    isl, links = puzzle.islands, puzzle.links
    return StepModel(rule=step.rule, level=step.level, sentence=step.sentence,
                     islands=[list(isl[i].pos) for i in step.islands],
                     links=[[*isl[links[k].a].pos, *isl[links[k].b].pos] for k in step.links],
                     changes=[[*isl[links[k].a].pos, *isl[links[k].b].pos, lo, hi] for k, lo, hi in step.changes])


def player_mistakes(puzzle: Puzzle, partial: Solution | None, marked: list[tuple[int, int]] = (),
                    time_limit: float | Deadline | None = None, result=None) -> list[str]:
    """Bridges (and marks, ``(link, most)``) of a board in play that the puzzle's unique solution
    contradicts; empty when the puzzle is not proved unique (within ``time_limit``).
    ``result``: the engine's answer with ``max_solutions=2`` when the caller has it."""
    if result is None:
        from ..solvers import solve as engine_solve

        result = engine_solve(puzzle, max_solutions=2, time_limit=time_limit)
    if result.unique is not True:
        return []
    assert_checked(puzzle, result.solutions)
    truth = result.solution.bridges
    out = []
    for (p, q), k in (partial.bridges.items() if partial is not None else ()):
        if k > truth.get((p, q), 0):
            out.append(f"the bridge{'s' if k > 1 else ''} from {describe_cell(*p)} to {describe_cell(*q)} "
                       f"({k}) {'are' if k > 1 else 'is'} not part of the solution"
                       + (f" (it has {truth[(p, q)]})" if (p, q) in truth else ""))
    isl = puzzle.islands
    for k, most in marked:
        p, q = isl[puzzle.links[k].a].pos, isl[puzzle.links[k].b].pos
        if truth.get((p, q), 0) > most:
            out.append(f"the link from {describe_cell(*p)} to {describe_cell(*q)} is marked {_mark_words(most)} "
                       f"but the solution has {truth[(p, q)]} there")
    return out


def hint(puzzle: Puzzle, partial: Solution | None = None, *, max_level: str = "expert",
         validate_solution: bool = True, marks: list[Mark] | None = None,
         time_limit: float | Deadline | None = None, lim: Limits = limits_mod.CLI) -> HintReport:
    """The next step from a player's board: ``infeasible`` (the puzzle has no solution), a rule
    the board breaks or a bridge (or mark) the unique solution contradicts (``conflict``),
    ``complete``, the next deduction (``hint``) or ``stuck`` (with the solver's :func:`verdict`).

    The board is the logic layer's own (:meth:`hashikit.logic.State.from_board`: drawn
    bridges and ``marks``), and the step is :func:`hashikit.logic.hint`'s, which always gives
    something to put on the board: the answer's ``bridges`` and ``marks``
    (:func:`~hashikit.logic.hint_bridges`, :func:`~hashikit.logic.hint_marks`).  A player
    who sends them back with the next request finishes the puzzle and never gets a step twice.
    """
    from ..checker import check as rule_check
    from .. import logic
    from ..solvers import solve as engine_solve

    deadline = time_limit_for(time_limit, lim)
    admit(puzzle, lim)
    if partial is not None:
        bridges_on_board(puzzle, partial)
    marked = board_marks(puzzle, marks)
    try:
        state = logic.State.from_board(puzzle, partial, marked)
    except PuzzleError as exc:
        raise BadInput(f"bridges: {exc.message}") from None
    result = engine_solve(puzzle, max_solutions=2, time_limit=deadline)
    if result.status.value == "infeasible":
        return HintReport(status="infeasible", sentence=verdict_of(result))
    problems = logic.contradictions(state)
    if not problems and (partial is not None and partial.bridges or marked) and validate_solution:
        problems = player_mistakes(puzzle, partial, marked, result=result)
    if problems:
        return HintReport(status="conflict", problems=problems,
                          sentence="Your board has a problem: " + problems[0]
                          + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""))
    if partial is not None and partial.bridges and rule_check(puzzle, partial).ok:
        return HintReport(status="complete", sentence="The board is complete: every rule holds.")
    step = logic.hint(state, max_level)
    if step is None:
        return HintReport(status="stuck", sentence=f"No step up to level '{max_level}' applies here: "
                                                   + verdict_of(result))
    placed = Solution.from_counts(puzzle, _raised(state, logic.hint_bridges(state, step)))
    return HintReport(status="hint", **step_model(puzzle, step).dump(),
                      bridges=placed.to_list(), marks=mark_list(puzzle, logic.hint_marks(state, step)))


def _raised(state, placed: list[tuple[int, int]]) -> list[int]:
    """Per-link counts of the bridges a hint places (0 elsewhere)."""
    counts = [0] * len(state.lo)
    for k, count in placed:
        counts[k] = count
    return counts


def step_highlight(puzzle: Puzzle, step: HintReport | StepModel) -> list:
    """The cells and link ends a step is about, as the renderer's ``highlight``."""
    marks: list = [tuple(c) for c in step.islands]
    marks += [((r1, c1), (r2, c2)) for r1, c1, r2, c2 in step.links]
    return marks
