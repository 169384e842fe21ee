"""The typed JSON shapes of every answer (pydantic models) and the plain list shapes of
bridges, links, cells and marks.  ``--format json`` prints ``as_json()`` of these and the web
API declares them, so the OpenAPI description is generated from the classes that make the
answers."""

from __future__ import annotations

from typing import Any, Literal
from pydantic import BaseModel, Field


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
