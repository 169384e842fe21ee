"""The use-cases, written once: solve, check, hint, explain, grade, analyze, generate, parse,
convert and render.  The CLI prints what these return and the web API serves it.

Layering: this module imports the model, the engines (``solvers``), ``formats``, ``logic``,
``render``, ``checker`` and ``generate``; the front ends (``cli``, ``web``) import this module
and never each other.  Every answer is a pydantic model (:class:`SolveReport`,
:class:`CheckReport`, :class:`StepModel`, ...): ``--format json`` prints
``model.model_dump(exclude_unset=True)`` and the web API declares the same models, so the
OpenAPI description is generated from the very classes that make the answers.

Every use-case that takes a puzzle first :func:`admit`-s it under a :class:`~hashikit.limits.Limits`
(``limits.CLI`` or ``limits.WEB``): board size, islands, MAXBRIDGES, and the one verdict for a
puzzle whose numbers alone make it impossible (:class:`BadInput`, exit 2 / HTTP 400).
Every solution any use-case returns comes from an engine and is checked by the rule checker.
"""

from __future__ import annotations

import os
from typing import Any, Callable, Literal

from pydantic import BaseModel, Field

from . import limits as limits_mod
from .errors import FormatError, HashikitError, PuzzleError
from .limits import Limits
from .model import Puzzle, Solution, describe_cell

LEVELS = ("easy", "medium", "hard", "expert")

#: rules a board still being played can already break (the others need a finished board)
IN_PLAY_RULES = ("not-straight", "no-island", "island-between", "bad-count", "too-many-bridges", "crossing")

Bridge = list[int]
"""``[r1, c1, r2, c2, count]``, 0-based rows and columns."""
LinkEnds = list[int]
"""``[r1, c1, r2, c2]``: the two islands a link joins."""
Cell = list[int]
"""``[row, col]``."""
Mark = list[int]
"""``[r1, c1, r2, c2, most]``: at most ``most`` bridges on that link (0: "no bridge here");
a request may leave ``most`` out (``[r1, c1, r2, c2]``, a "no bridge" mark)."""


class BadInput(HashikitError, ValueError):
    """Input a use-case refuses before any work: one line, exit 2 on the CLI, 400 on the web."""


class OutOfTime(HashikitError):
    """Work that ran past its time limit and was stopped (the answer is status ``unknown``)."""


# -- the answers ---------------------------------------------------------------------------
class Answer(BaseModel):
    """Base of every answer: ``as_json()`` leaves out the optional fields the use-case did not
    set (so ``"unique": null`` means "asked, not known", and an absent ``"unique"`` "not asked");
    list fields are always there."""

    def as_json(self) -> dict[str, Any]:
        full = self.model_dump(mode="json")
        always = {name for name, f in type(self).model_fields.items()
                  if f.is_required() or f.default_factory is not None}
        return {k: v for k, v in full.items() if k in always or k in self.model_fields_set}


class PuzzleModel(BaseModel):
    """A puzzle as the JSON format writes it (0-based; ``ignore``: islands left out of play)."""

    rows: int
    cols: int
    maxbridges: int = 2
    no_loops: bool = False
    islands: list[list[int]] = Field(description="[row, col, number]")
    ignore: list[list[int]] = Field(default_factory=list, description="[row, col] of islands left out")
    format: str | None = None


class SolveReport(Answer):
    """One solve: the first solution's bridges, and what was asked about the others."""

    status: Literal["solved", "infeasible", "unknown"]
    bridges: list[Bridge] = Field(default_factory=list)
    engine: str | None = None
    stats: dict[str, Any] | None = None
    reason: str | None = None
    message: str | None = None
    #: with uniqueness asked: True proved, False (see ``second``), None not known
    unique: bool | None = None
    second: list[Bridge] | None = None
    #: with enumeration asked: the solutions found and whether they are all of them
    solutions: list[list[Bridge]] | None = None
    complete: bool | None = None
    #: why the enumeration stopped before ``complete``: "limit" (--limit reached), "time limit",
    #: or "engine" (no time limit was set: the engine did not search further)
    stopped: Literal["limit", "time limit", "engine"] | None = None


class ViolationModel(BaseModel):
    rule: str
    message: str
    cells: list[Cell] = Field(default_factory=list)


class CheckReport(Answer):
    """``complete``: every rule holds.  ``valid``: no rule in ``violations`` is broken; for a
    board in play (``in_play``), ``violations`` holds only what such a board can break."""

    complete: bool
    valid: bool
    violations: list[ViolationModel] = Field(default_factory=list)


class StepModel(Answer):
    """One deduction: the rule, its level, a sentence, the islands and links it is about and
    ``changes`` as ``[r1, c1, r2, c2, lo, hi]`` (the link's new bridge-count interval)."""

    rule: str
    level: str
    sentence: str
    islands: list[Cell] = Field(default_factory=list)
    links: list[LinkEnds] = Field(default_factory=list)
    changes: list[list[int]] = Field(default_factory=list)


class HintReport(Answer):
    """``hint`` (a step), ``conflict`` (``problems``), ``complete``, ``stuck``, ``infeasible`` (the
    puzzle has no solution) or ``unknown`` (time limit)."""

    status: Literal["hint", "conflict", "complete", "stuck", "infeasible", "unknown"]
    sentence: str
    rule: str | None = None
    level: str | None = None
    islands: list[Cell] = Field(default_factory=list)
    links: list[LinkEnds] = Field(default_factory=list)
    changes: list[list[int]] = Field(default_factory=list)
    #: what the hint puts on the board: bridges ``[r1, c1, r2, c2, count]`` and marks
    #: ``[r1, c1, r2, c2, most]`` (0: "no bridge here"), which later hints receive back
    bridges: list[Bridge] = Field(default_factory=list)
    marks: list[Mark] = Field(default_factory=list)
    problems: list[str] = Field(default_factory=list)


class GradeReport(Answer):
    """``grade`` is None (ungraded) when the rules get stuck; ``verdict`` then says why."""

    grade: str | None
    score: int
    steps: dict[str, int]
    undecided: int
    verdict: str | None = None


class ExplainReport(Answer):
    solved: bool
    steps: list[StepModel]
    undecided: int
    verdict: str | None = None


class AnalyzeReport(Answer):
    """For a puzzle being built: how many solutions, its grade when unique, where two differ."""

    status: Literal["infeasible", "unique", "several", "unknown"]
    reason: str | None = None
    grade: str | None = None
    score: int | None = None
    differ: list[LinkEnds] = Field(default_factory=list)
    solutions: list[list[Bridge]] = Field(default_factory=list)


class ParseReport(Answer):
    puzzle: PuzzleModel
    bridges: list[Bridge] | None = None
    links: list[LinkEnds]
    crossings: list[list[int]] = Field(description="pairs of indices into links that cross")


class ConvertReport(Answer):
    """A puzzle (and its bridges) as text in a named format."""

    format: str
    text: str


class GenerateReport(Answer):
    puzzle: PuzzleModel
    grade: str | None = None
    score: int | None = None
    seed: int | None = None


# -- admission: limits and the one verdict for impossible numbers -----------------------------
def admit(puzzle: Puzzle, lim: Limits = limits_mod.CLI, numbers: bool = True) -> Puzzle:
    """Refuse a puzzle above ``lim`` and, with ``numbers``, one whose numbers alone make it
    impossible (an island needing more bridges than its links can carry): the same verdict,
    bad input, from every use-case."""
    check_dimensions(puzzle.rows, puzzle.cols, lim)
    if len(puzzle.islands) > lim.max_islands:
        raise BadInput(f"the puzzle has {len(puzzle.islands)} islands; the limit is {lim.max_islands}")
    if puzzle.maxbridges > lim.max_maxbridges:
        raise BadInput(f"MAXBRIDGES is {puzzle.maxbridges}; the limit is {lim.max_maxbridges}")
    if numbers:
        problems = puzzle.capacity_problems()
        if problems:
            raise BadInput(problems[0] + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""))
    return puzzle


def check_dimensions(rows: int, cols: int, lim: Limits) -> None:
    """Refuse a board side or cell count above ``lim`` (cheap: before a board is built)."""
    if rows > lim.max_side or cols > lim.max_side or rows * cols > lim.max_cells:
        side = lim.max_side
        raise BadInput(f"the board is {rows}x{cols}; the limit is {side}x{side} "
                       f"({lim.max_cells} cells)")


def time_limit_for(asked: float | None, lim: Limits) -> float | None:
    """The time limit to use: the caller's, capped by ``lim``, else ``lim``'s default."""
    if asked is None:
        return lim.default_time_limit
    if lim.max_time_limit is not None:
        return min(asked, lim.max_time_limit)
    return asked


# -- reading ---------------------------------------------------------------------------------
def load(path: str, fmt: str | None = None):
    """A file's :class:`~hashikit.formats.Document` (``-``: standard input)."""
    from .formats import read_file

    return read_file(path, fmt)


def load_puzzle(path: str, fmt: str | None = None, lim: Limits = limits_mod.CLI):
    """A document that holds a puzzle within ``lim`` (its solution too, when it has one)."""
    doc = load(path, fmt)
    if doc.puzzle is None:
        raise BadInput(f"{path}: holds a solution without its puzzle; give the puzzle file")
    try:
        admit(doc.puzzle, lim, numbers=False)
    except BadInput as exc:
        raise BadInput(f"{path}: {exc}") from None
    return doc


def admit_file(path: str, puzzle: Puzzle, lim: Limits = limits_mod.CLI) -> Puzzle:
    """:func:`admit` with the file's name in the message."""
    try:
        return admit(puzzle, lim)
    except BadInput as exc:
        raise BadInput(f"{path}: {exc}") from None


def parse(text: str, fmt: str | None = None, lim: Limits = limits_mod.WEB, source: str = "<request>") -> ParseReport:
    """Read puzzle text (never a path) and describe its geometry: links and crossing pairs."""
    from .formats import read_text

    if len(text.encode("utf-8", "surrogatepass")) > lim.max_input_bytes:
        raise BadInput(f"the text is larger than {lim.max_input_bytes} bytes")
    try:
        doc = read_text(text, fmt, source)
    except FormatError as exc:
        raise BadInput(f"cannot read the puzzle: {_where(exc)}") from None
    except (PuzzleError, ValueError, IndexError, KeyError, TypeError, OverflowError) as exc:
        raise BadInput(f"cannot read the puzzle: {exc}") from None
    except RecursionError:
        raise BadInput("cannot read the puzzle: it is nested too deeply") from None
    if doc.puzzle is None:
        raise BadInput("the text holds bridges but no puzzle")
    admit(doc.puzzle, lim, numbers=False)
    report = ParseReport(puzzle=puzzle_model(doc.puzzle), links=link_ends(doc.puzzle),
                         crossings=[list(pair) for pair in doc.puzzle.crossings])
    if doc.solution is not None:
        report.bridges = doc.solution.to_list()
    return report


def _where(exc: FormatError) -> str:
    if exc.line is not None:
        where = f"line {exc.line}" + (f", column {exc.column}" if exc.column is not None else "")
        return f"{where}: {exc.message}"
    return exc.message


def puzzle_of(obj: dict[str, Any], source: str = "<record>") -> Puzzle:
    """The puzzle of a :class:`PuzzleModel`'s JSON data (e.g. a stored :func:`generate_record`)."""
    from .formats.jsonfmt import puzzle_from_obj

    return puzzle_from_obj(obj, source)


def puzzle_model(puzzle: Puzzle) -> PuzzleModel:
    from .formats.jsonfmt import puzzle_obj

    return PuzzleModel(**{k: v for k, v in puzzle_obj(puzzle).items() if k in PuzzleModel.model_fields})


def link_ends(puzzle: Puzzle) -> list[LinkEnds]:
    isl = puzzle.islands
    return [[*isl[ln.a].pos, *isl[ln.b].pos] for ln in puzzle.links]


def bridges_on_board(puzzle: Puzzle, solution: Solution, what: str = "bridges") -> Solution:
    """Refuse bridges with an end off the board or an absurd count before anything walks them."""
    for (p, q), k in solution.bridges.items():
        for r, c in (p, q):
            if not (0 <= r < puzzle.rows and 0 <= c < puzzle.cols):
                raise BadInput(f"{what}: the bridge {[*p, *q, k]} has an end outside the "
                               f"{puzzle.rows}x{puzzle.cols} board")
        if not -4 * puzzle.maxbridges <= k <= 4 * puzzle.maxbridges:
            raise BadInput(f"{what}: the bridge {[*p, *q, k]} has a count far above MAXBRIDGES")
    return solution


def board_marks(puzzle: Puzzle, marks: list[Mark] | None) -> list[tuple[int, int]]:
    """A player's marks as ``(link, most)`` pairs (:meth:`hashikit.logic.State.from_board` reads
    them); BadInput for a mark on no link or a ``most`` outside 0..MAXBRIDGES."""
    out = []
    for m in marks or []:
        if len(m) not in (4, 5):
            raise BadInput(f"marks: a mark is [r1, c1, r2, c2] or [r1, c1, r2, c2, most], got {m!r}")
        p, q = tuple(m[:2]), tuple(m[2:4])
        a, b = puzzle.index.get(p), puzzle.index.get(q)
        k = puzzle.link_index.get((min(a, b), max(a, b))) if a is not None and b is not None else None
        if k is None:
            raise BadInput(f"marks: no link joins {describe_cell(*p)} and {describe_cell(*q)}")
        most = m[4] if len(m) == 5 else 0
        if not 0 <= most <= puzzle.maxbridges:
            raise BadInput(f"marks: the mark {m!r} allows {most} bridges; give 0 to {puzzle.maxbridges}")
        out.append((k, most))
    return out


def mark_list(puzzle: Puzzle, marks) -> list[Mark]:
    """``(link, most)`` pairs as ``[r1, c1, r2, c2, most]``."""
    isl, links = puzzle.islands, puzzle.links
    return [[*isl[links[k].a].pos, *isl[links[k].b].pos, most] for k, most in marks]


# -- solve -----------------------------------------------------------------------------------
def solve(puzzle: Puzzle, *, engine: str | None = None, time_limit: float | None = None,
          unique: bool = False, enumerate_all: bool = False, limit: int = 100,
          lim: Limits = limits_mod.CLI, stats: bool = True) -> SolveReport:
    """Solve exactly; with ``unique`` prove uniqueness or give a second solution, with
    ``enumerate_all`` list up to ``limit`` solutions.  Engine errors (an option the engine
    does not support, a bad value) are the engine's :class:`HashikitError`: bad input."""
    from .solvers import DEFAULT_ENGINE
    from .solvers import solve as engine_solve

    admit(puzzle, lim)
    seconds = time_limit_for(time_limit, lim)
    want = max(limit if enumerate_all else 1, 2 if unique else 1)
    result = engine_solve(puzzle, engine=engine or DEFAULT_ENGINE, time_limit=seconds, max_solutions=want)
    _assert_checked(puzzle, result.solutions)
    report = SolveReport(status=result.status.value,
                         bridges=result.solution.to_list() if result.solution is not None else [],
                         engine=result.engine)
    if stats:
        report.stats = {k: (round(v, 6) if isinstance(v, float) else v) for k, v in result.stats.items()}
    if result.reason:
        report.reason = result.reason
    if result.status.value == "unknown":
        report.message = "no answer within the time limit" + (f" of {seconds:g} s" if seconds else "")
    if unique and result.solution is not None:
        report.unique = result.unique
        if result.unique is False:
            report.second = result.solutions[1].to_list()
    if enumerate_all:
        report.solutions = [s.to_list() for s in result.solutions[:limit]]
        report.complete = result.complete
        if not result.complete and result.solution is not None:
            report.stopped = ("limit" if len(result.solutions) >= want
                              else "time limit" if seconds is not None else "engine")
    return report


def _assert_checked(puzzle: Puzzle, solutions) -> None:
    """Every solution a use-case hands out passes the independent rule checker."""
    from .checker import check

    for s in solutions:
        report = check(puzzle, s)
        if not report.ok:  # an engine bug: never hand out a wrong answer
            raise RuntimeError(f"an engine returned a solution that breaks the rules: {report}")


def solve_for_output(puzzle: Puzzle, lim: Limits = limits_mod.CLI,
                     time_limit: float | None = None) -> tuple[Solution | None, SolveReport]:
    """Solve for a command that writes or draws the solution (None when there is none)."""
    report = solve(puzzle, lim=lim, time_limit=time_limit, stats=False)
    return (Solution.from_list(report.bridges) if report.status == "solved" else None), report


# -- check -----------------------------------------------------------------------------------
def check(puzzle: Puzzle, solution: Solution, *, in_play: bool = False,
          marks: list[LinkEnds] | None = None) -> CheckReport:
    """Check ``solution`` by the rules.  ``in_play``: a board still being played, whose
    ``violations`` are only those such a board can break (and marks that hold a bridge)."""
    from .checker import check as rule_check

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
    return CheckReport(complete=report.ok and not violations, valid=not violations, violations=violations)


def _mark_words(most: int) -> str:
    return "'no bridge'" if most == 0 else f"'at most {most}'"


def islands_differ(puzzle: Puzzle, other: Puzzle) -> CheckReport | None:
    """The report for a solution whose own puzzle is another one (None when they agree)."""
    if other.islands == puzzle.islands:
        return None
    mine = {i.pos: i.number for i in puzzle.islands}
    theirs = {i.pos: i.number for i in other.islands}
    (r, c), _ = sorted(set(mine.items()) ^ set(theirs.items()))[0]
    msg = (f"the solution's islands differ from the puzzle's (first at row {r + 1}, column {c + 1}: "
           f"puzzle {mine.get((r, c), 'empty')}, solution {theirs.get((r, c), 'empty')})")
    return CheckReport(complete=False, valid=False,
                       violations=[ViolationModel(rule="islands-differ", message=msg, cells=[[r, c]])])


def _island_over(puzzle: Puzzle, solution: Solution, violation) -> bool:
    """Whether an ``island-count`` violation is an island over its number (a board in play can break that)."""
    pos = violation.cells[0]
    number = next(i.number for i in puzzle.islands if i.pos == pos)
    have = sum(k for (p, q), k in solution.bridges.items()
               if pos in (p, q) and isinstance(k, int) and not isinstance(k, bool))
    return have > number


# -- steps, hints, explanations, grades ---------------------------------------------------------
def step_model(puzzle: Puzzle, step) -> StepModel:
    isl, links = puzzle.islands, puzzle.links
    return StepModel(rule=step.rule, level=step.level, sentence=step.sentence,
                     islands=[list(isl[i].pos) for i in step.islands],
                     links=[[*isl[links[k].a].pos, *isl[links[k].b].pos] for k in step.links],
                     changes=[[*isl[links[k].a].pos, *isl[links[k].b].pos, lo, hi] for k, lo, hi in step.changes])


def player_mistakes(puzzle: Puzzle, partial: Solution | None, marked: list[tuple[int, int]] = (),
                    time_limit: float | None = None, result=None) -> list[str]:
    """Bridges (and marks, ``(link, most)``) of a board in play that the puzzle's unique solution
    contradicts; empty when the puzzle is not proved unique (within ``time_limit``).
    ``result``: the engine's answer with ``max_solutions=2`` when the caller has it."""
    if result is None:
        from .solvers import solve as engine_solve

        result = engine_solve(puzzle, max_solutions=2, time_limit=time_limit)
    if result.unique is not True:
        return []
    _assert_checked(puzzle, result.solutions)
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
         check_solution: bool = True, marks: list[Mark] | None = None,
         time_limit: float | None = None, lim: Limits = limits_mod.CLI) -> HintReport:
    """The next step from a player's board: ``infeasible`` (the puzzle has no solution), a rule
    the board breaks or a bridge (or mark) the unique solution contradicts (``conflict``),
    ``complete``, the next deduction (``hint``) or ``stuck`` (with the solver's :func:`verdict`).

    The board is the logic layer's own (:meth:`hashikit.logic.State.from_board`: drawn
    bridges and ``marks``), and the step is :func:`hashikit.logic.hint`'s, which always gives
    something to put on the board: the answer's ``bridges`` and ``marks``
    (:func:`~hashikit.logic.hint_bridges`, :func:`~hashikit.logic.hint_marks`).  A player
    who sends them back with the next request finishes the puzzle and never gets a step twice.
    """
    from .checker import check as rule_check
    from . import logic
    from .solvers import solve as engine_solve

    admit(puzzle, lim)
    if partial is not None:
        bridges_on_board(puzzle, partial)
    marked = board_marks(puzzle, marks)
    try:
        state = logic.State.from_board(puzzle, partial, marked)
    except PuzzleError as exc:
        raise BadInput(f"bridges: {exc.message}") from None
    result = engine_solve(puzzle, max_solutions=2, time_limit=time_limit_for(time_limit, lim))
    if result.status.value == "infeasible":
        return HintReport(status="infeasible", sentence=_verdict_of(result))
    problems = logic.contradictions(state)
    if not problems and (partial is not None and partial.bridges or marked) and check_solution:
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
                                                   + _verdict_of(result))
    placed = Solution.from_counts(puzzle, _raised(state, logic.hint_bridges(state, step)))
    return HintReport(status="hint", **step_model(puzzle, step).model_dump(),
                      bridges=placed.to_list(), marks=mark_list(puzzle, logic.hint_marks(state, step)))


def _raised(state, placed: list[tuple[int, int]]) -> list[int]:
    """Per-link counts of the bridges a hint places (0 elsewhere)."""
    counts = [0] * len(state.lo)
    for k, count in placed:
        counts[k] = count
    return counts


def verdict(puzzle: Puzzle, time_limit: float | None = None) -> str:
    """Why the rules got stuck, from the exact solver: no solution, several, or a guess needed."""
    from .solvers import solve as engine_solve

    return _verdict_of(engine_solve(puzzle, max_solutions=2, time_limit=time_limit))


def _verdict_of(result) -> str:
    if result.status.value == "infeasible":
        return "the puzzle has no solution" + (f": {result.reason}" if result.reason else "")
    if result.unique is False:
        return "the puzzle has several solutions"
    if result.unique is True:
        return "the puzzle has one solution, but finding it needs a guess (search)"
    return "the solver could not tell within the time limit whether it has one solution"


def explain(puzzle: Puzzle, max_level: str = "expert", time_limit: float | None = None,
            lim: Limits = limits_mod.CLI) -> ExplainReport:
    """The whole logical path, step by step; when stuck, the solver's :func:`verdict`."""
    from .logic import solve_logically

    admit(puzzle, lim)
    state, steps, stuck = solve_logically(puzzle, max_level)
    report = ExplainReport(solved=not stuck, steps=[step_model(puzzle, s) for s in steps],
                           undecided=len(state.undecided()))
    if stuck:
        report.verdict = verdict(puzzle, time_limit_for(time_limit, lim))
    return report


def grade(puzzle: Puzzle, max_level: str = "expert", time_limit: float | None = None,
          lim: Limits = limits_mod.CLI) -> GradeReport:
    """The lowest rule level that finishes the puzzle (None when stuck, with the verdict)."""
    from .logic import grade as logic_grade

    admit(puzzle, lim)
    g = logic_grade(puzzle, max_level)
    report = GradeReport(grade=g.level, score=g.score, steps=g.steps_per_level, undecided=g.undecided)
    if g.level is None:
        report.verdict = verdict(puzzle, time_limit_for(time_limit, lim))
    return report


def analyze(puzzle: Puzzle, time_limit: float | None = None, lim: Limits = limits_mod.WEB) -> AnalyzeReport:
    """For the constructor: infeasible (with the reason), unique (with its grade), several
    (two solutions and the links on which they differ) or unknown (time limit)."""
    from .logic import grade as logic_grade
    from .solvers import solve as engine_solve

    admit(puzzle, lim)
    result = engine_solve(puzzle, max_solutions=2, time_limit=time_limit_for(time_limit, lim))
    _assert_checked(puzzle, result.solutions)
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


# -- generate --------------------------------------------------------------------------------
def generate_unique(rows: int, cols: int, difficulty: str, seed: int, *, maxbridges: int = 2,
                    time_limit: float | None = None, density: float | None = None,
                    allow_adjacent: bool = False, no_loops: bool = False,
                    islands_percent: int | None = None, expansion: int | None = None
                    ) -> tuple[Puzzle, GenerateReport]:
    """A unique puzzle graded exactly at ``difficulty``; :class:`OutOfTime` when none in time,
    :class:`BadInput` for options the generator refuses (see
    :func:`hashikit.generate.generate_unique`: ``density`` and ``allow_adjacent`` shape the
    default layout, ``islands_percent`` / ``expansion`` choose Tatham's)."""
    puzzle, _solution, report = _generate_solved(rows, cols, difficulty, seed, maxbridges=maxbridges,
                                                 time_limit=time_limit, density=density,
                                                 allow_adjacent=allow_adjacent, no_loops=no_loops,
                                                 islands_percent=islands_percent, expansion=expansion)
    return puzzle, report


def _generate_solved(rows: int, cols: int, difficulty: str, seed: int, *, maxbridges: int = 2,
                     time_limit: float | None = None, density: float | None = None, allow_adjacent: bool = False,
                     no_loops: bool = False, islands_percent: int | None = None,
                     expansion: int | None = None) -> tuple[Puzzle, Solution, GenerateReport]:
    """:func:`generate_unique` with the (checked) solution too."""
    from .generate import generate_unique as make

    if density is not None and (islands_percent is not None or expansion is not None):
        raise BadInput("density shapes the default layout; Tatham's (islands percent, expansion) has its own")
    layout = dict(allow_adjacent=allow_adjacent, no_loops=no_loops, islands_percent=islands_percent,
                  expansion=expansion, **({"density": density} if density is not None else {}))
    try:
        puzzle, solution, g = make(rows, cols, difficulty, seed, maxbridges=maxbridges, time_limit=time_limit,
                                   **layout)
    except ValueError as exc:
        raise BadInput(str(exc)) from None
    except RuntimeError as exc:
        raise OutOfTime(f"no {difficulty} {rows}x{cols} puzzle found"
                        + (f" within {time_limit:g} s" if time_limit else "") + f" ({exc})") from None
    _assert_checked(puzzle, [solution])
    return puzzle, solution, GenerateReport(puzzle=puzzle_model(puzzle), grade=g.level, score=g.score, seed=seed)


def generate_paper(islands: int, rows: int, cols: int, alpha: float, beta: float, seed: int | None,
                   maxbridges: int = 2) -> Puzzle:
    """The generator of Coelho et al. (2019); BadInput when the board cannot hold it."""
    from .generate import coelho

    if islands > rows * cols:
        raise BadInput(f"{islands} islands do not fit on a {rows}x{cols} board")
    try:
        return coelho(islands, rows, cols, alpha, beta, seed, maxbridges=maxbridges)
    except (RuntimeError, ValueError) as exc:
        raise BadInput(str(exc)) from None


def generate_record(rows: int, cols: int, seed: int, difficulty: str | None = None, *,
                    islands: int | None = None, alpha: float = 50.0, beta: float = 5.0, maxbridges: int = 2,
                    time_limit: float | None = None, **layout) -> dict[str, Any]:
    """One generated puzzle as JSON data, for a batch (``generate --count``, ``generate-suite``,
    a catalogue or a cluster): a module-level function of plain arguments answering plain data,
    so any executor can run it and any sink store it.

    With ``difficulty``: a unique puzzle graded at that level (:func:`generate_unique`; ``layout``
    its keywords ``density``, ``allow_adjacent``, ``no_loops``, ``islands_percent``, ``expansion``);
    with ``islands``: the paper's generator (:func:`generate_paper`, ``alpha``, ``beta``).
    Answers ``{"puzzle": {...}, "grade", "score", "seed", "islands"}`` (grade and score None for
    the paper's), and for a unique puzzle its checked solution as ``"bridges"`` (``[[r1, c1, r2, c2,
    count], ...]``, as a catalogue stores it); raises :class:`BadInput` or :class:`OutOfTime` (a
    batch's error row).
    """
    if (difficulty is None) == (islands is None):
        raise BadInput("give a difficulty (unique, graded) or a number of islands (the paper's), not both")
    if islands is not None:
        if layout:
            raise BadInput(f"{', '.join(sorted(layout))}: not options of the paper's generator")
        puzzle = generate_paper(islands, rows, cols, alpha, beta, seed, maxbridges)
        report = GenerateReport(puzzle=puzzle_model(puzzle), seed=seed)
    else:
        puzzle, solution, report = _generate_solved(rows, cols, difficulty, seed, maxbridges=maxbridges,
                                                    time_limit=time_limit, **layout)
        return {**report.model_dump(mode="json"), "islands": len(puzzle.islands), "bridges": solution.to_list()}
    return {**report.model_dump(mode="json"), "islands": len(puzzle.islands)}


# -- output ----------------------------------------------------------------------------------
def output_format(path: str | None, to: str | None, *, default: str | None = None):
    """The format to write to ``path`` (``-``/None: standard output), checked before any work."""
    from .formats import format_for_path, get

    if to:
        fmt = get(to)
    elif path in (None, "-"):
        if default is None:
            raise BadInput("writing to standard output: name the format with --to")
        fmt = get(default)
    else:
        fmt = format_for_path(path, writing=True)
    if fmt.write is None:
        raise BadInput(f"format {fmt.name!r} cannot be written")
    return fmt


def check_writable(path: str | None) -> None:
    """Refuse an output path that cannot be written (missing folder, a directory, no
    permission) before the work starts, so no work is lost to a bad path."""
    if path in (None, "-"):
        return
    if os.path.isdir(path):
        raise BadInput(f"{path}: is a directory; give a file name")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise BadInput(f"{path}: the folder {folder} does not exist")
    if os.path.exists(path) and not os.access(path, os.W_OK):
        raise BadInput(f"{path}: cannot write: permission denied")
    if not os.path.exists(path) and not os.access(folder, os.W_OK):
        raise BadInput(f"{path}: cannot write into {folder}: permission denied")


def check_picture(path: str) -> None:
    """A picture path: .svg or .png, writable (checked before the work)."""
    ext = os.path.splitext(path)[1].lower()
    if ext not in (".svg", ".png"):
        raise BadInput(f"{path}: cannot draw to a {ext or 'extensionless'} file; use a .svg or .png file name")
    check_writable(path)


def check_folder(path: str) -> None:
    """An output folder: made now (so a bad one fails before the work), writable."""
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as exc:
        raise BadInput(f"{path}: cannot make the folder: {exc.strerror or exc}") from None
    if not os.access(path, os.W_OK):
        raise BadInput(f"{path}: cannot write into the folder: permission denied")


def write_output(data: str | bytes, path: str | None, stdout=None) -> None:
    """Write text or bytes to ``path`` (``-``/None: standard output); BadInput on an OS error."""
    import sys

    if path in (None, "-"):
        out = stdout or sys.stdout
        if isinstance(data, bytes):
            out.buffer.write(data)
        else:
            out.write(data if data.endswith("\n") else data + "\n")
        return
    try:
        if isinstance(data, bytes):
            with open(path, "wb") as fh:
                fh.write(data)
        else:
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(data)
    except OSError as exc:
        raise BadInput(f"{path}: cannot write: {exc.strerror or exc}") from None


def convert(puzzle: Puzzle, solution: Solution | None, fmt_name: str) -> str:
    """The puzzle (and solution) as text in format ``fmt_name``."""
    from .formats import write_text

    return write_text(puzzle, fmt_name, solution)


def writable_formats() -> list[str]:
    """The formats that can be written, from the formats registry."""
    from .formats import formats

    return sorted(name for name, f in formats().items() if f.write)


def convert_report(puzzle: Puzzle, solution: Solution | None, fmt_name: str) -> ConvertReport:
    """:func:`convert` as an answer; a format that shows a solution when none is given is bad input."""
    from .formats import get

    fmt = get(fmt_name)
    if fmt.needs_solution and solution is None:
        raise BadInput(f"format {fmt_name!r} shows a solution: send the bridges too")
    return ConvertReport(format=fmt_name, text=convert(puzzle, solution, fmt_name))


def solution_text(puzzle: Puzzle, solution: Solution, unicode: bool = False) -> str:
    """The solved grid; for boards the text cannot draw (MAXBRIDGES > 2), the bridge list."""
    from .formats import write_text

    try:
        return write_text(puzzle, "solved-unicode" if unicode else "solved", solution)
    except FormatError:
        return "\n".join(" ".join(map(str, b)) for b in solution.to_list()) + "\n"


def render(path: str, puzzle: Puzzle, solution: Solution | None = None, **kw) -> None:
    """Draw to ``path`` (.svg or .png); BadInput on an OS error."""
    from . import render as draw

    try:
        draw.write(path, puzzle, solution, **kw)
    except OSError as exc:
        raise BadInput(f"{path}: cannot write: {exc.strerror or exc}") from None


def step_highlight(puzzle: Puzzle, step: HintReport | StepModel) -> list:
    """The cells and link ends a step is about, as the renderer's ``highlight``."""
    marks: list = [tuple(c) for c in step.islands]
    marks += [((r1, c1), (r2, c2)) for r1, c1, r2, c2 in step.links]
    return marks


# -- time limits for work that cannot stop itself -------------------------------------------------
def within(seconds: float | None, fn: Callable, *args, cancel=None, **kwargs):
    """``fn(*args, **kwargs)`` in a worker process killed at ``seconds`` (plus nothing: the
    caller adds ``limits.TIME_MARGIN`` to what it promises); :class:`OutOfTime` when killed.

    For work without its own time limit (the deduction engine, the generator's layout).
    ``seconds`` None runs ``fn`` here.  The worker's exceptions are raised here; Ctrl-C kills
    the worker at once.  The worker is one of the current pool's (``hashikit.workers``: the web
    app has one; waiting for a free worker counts against ``seconds``), else a one-off process.
    ``cancel`` (a ``threading.Event``): once set, the worker is killed and
    ``workers.Cancelled`` raised.
    """
    if seconds is None:
        return fn(*args, **kwargs)
    import time

    from . import workers

    try:
        return workers.run(fn, args, kwargs, deadline=time.monotonic() + seconds, cancel=cancel)
    except workers.Overrun:
        raise OutOfTime(f"no answer within the time limit of {seconds:g} s") from None
    except workers.WorkerDied:
        raise RuntimeError("the worker process ended without an answer (out of memory?)") from None
