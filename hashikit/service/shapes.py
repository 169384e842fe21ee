"""The typed JSON shapes of every answer and the plain list shapes of bridges, links, cells and
marks.  ``--format json`` prints ``as_json()`` of these and the web API declares them, so the
OpenAPI description is generated from the classes that make the answers.

They are standard-library dataclasses, not pydantic models: a command pays nothing at start-up
for them (a plain ``hashikit solve`` never imports pydantic).  The web app hands the same classes
to FastAPI, which reads their fields, types and field docstrings (``__pydantic_config__``)."""

from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields
from typing import Any, Literal

from ..model import DEFAULT_MAXBRIDGES


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


#: how pydantic (in the web app) reads these classes: a field's docstring is its description
PYDANTIC_CONFIG = {"use_attribute_docstrings": True}


def plain(value: Any) -> Any:
    """``value`` as JSON data: dataclasses as dicts of all their fields, tuples as lists."""
    if hasattr(value, "__dataclass_fields__"):
        return {f.name: plain(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


def shape(cls):
    """A JSON shape: a keyword-only dataclass that pydantic reads with :data:`PYDANTIC_CONFIG`; an
    :class:`Answer` also remembers which fields its maker set.  The dataclass makes only
    ``__init__``; equality and repr come from :class:`Shape` (a command that imports the shapes
    builds one method per class, not three)."""
    if not issubclass(cls, Shape):
        raise TypeError(f"{cls.__name__}: a shape derives from Shape")
    cls.__pydantic_config__ = PYDANTIC_CONFIG
    cls = dataclass(kw_only=True, repr=False, eq=False)(cls)
    if issubclass(cls, Answer):
        init = cls.__init__

        def __init__(self, **given):
            init(self, **given)
            object.__setattr__(self, "_given", set(given))

        __init__.__wrapped__ = init
        cls.__init__ = __init__
    return cls


class Shape:
    """Base of every shape: equal when of one class with equal fields; shown with its fields."""

    __hash__ = None  # mutable, like a dataclass with eq

    def _values(self) -> tuple:
        return tuple(getattr(self, f.name) for f in fields(self))

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()

    def __repr__(self) -> str:
        shown = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in fields(self))
        return f"{type(self).__name__}({shown})"


class Answer(Shape):
    """Base of every answer: ``as_json()`` leaves out the optional fields the use-case did not
    set (so ``"unique": null`` means "asked, not known", and an absent ``"unique"`` "not asked");
    list fields are always there."""

    def __setattr__(self, name: str, value: Any) -> None:
        object.__setattr__(self, name, value)
        given = self.__dict__.get("_given")
        if given is not None:
            given.add(name)

    def as_json(self) -> dict[str, Any]:
        given = self.__dict__.get("_given", ())
        return {f.name: plain(getattr(self, f.name)) for f in fields(self)
                if f.name in given or f.default is MISSING}

    def dump(self) -> dict[str, Any]:
        """Every field, set or not, as JSON data."""
        return plain(self)


@shape
class PuzzleModel(Shape):
    """A puzzle as the JSON format writes it (0-based; ``ignore``: islands left out of play)."""

    rows: int
    """rows of the board"""
    cols: int
    """columns of the board"""
    maxbridges: int = DEFAULT_MAXBRIDGES
    """at most this many bridges join one pair of islands"""
    no_loops: bool = False
    """the variant whose bridges may form no cycle"""
    islands: list[list[int]]
    """[row, col, number]"""
    ignore: list[list[int]] = field(default_factory=list)
    """[row, col] of islands left out of play"""
    format: str | None = None
    """"hashikit-puzzle", the JSON format's tag"""

    @classmethod
    def of(cls, puzzle) -> "PuzzleModel":
        """The shape of ``puzzle`` (a :class:`hashikit.model.Puzzle`), from the JSON format's own writer."""
        from ..formats.jsonfmt import puzzle_data

        return cls(**{k: v for k, v in puzzle_data(puzzle).items() if k in cls.__dataclass_fields__})


@shape
class SolveReport(Answer):
    """One solve: the first solution's bridges, and what was asked about the others."""

    status: Literal["solved", "infeasible", "unknown"]
    bridges: list[Bridge] = field(default_factory=list)
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


@shape
class ViolationModel(Shape):
    rule: str
    message: str
    cells: list[Cell] = field(default_factory=list)


@shape
class BoardCheckReport(Answer):
    """``complete``: every rule holds.  ``valid``: no rule in ``violations`` is broken; for a
    board in play (``in_play``), ``violations`` holds only what such a board can break."""

    complete: bool
    valid: bool
    violations: list[ViolationModel] = field(default_factory=list)


@shape
class StepModel(Answer):
    """One deduction: the rule, its level, a sentence, the islands and links it is about and
    ``changes`` as ``[r1, c1, r2, c2, lo, hi]`` (the link's new bridge-count interval)."""

    rule: str
    level: str
    sentence: str
    islands: list[Cell] = field(default_factory=list)
    links: list[LinkEnds] = field(default_factory=list)
    changes: list[list[int]] = field(default_factory=list)


@shape
class HintReport(Answer):
    """``hint`` (a step), ``conflict`` (``problems``), ``complete``, ``stuck``, ``infeasible`` (the
    puzzle has no solution) or ``unknown`` (time limit)."""

    status: Literal["hint", "conflict", "complete", "stuck", "infeasible", "unknown"]
    sentence: str
    rule: str | None = None
    level: str | None = None
    islands: list[Cell] = field(default_factory=list)
    links: list[LinkEnds] = field(default_factory=list)
    changes: list[list[int]] = field(default_factory=list)
    #: what the hint puts on the board: bridges ``[r1, c1, r2, c2, count]`` and marks
    #: ``[r1, c1, r2, c2, most]`` (0: "no bridge here"), which later hints receive back
    bridges: list[Bridge] = field(default_factory=list)
    marks: list[Mark] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


@shape
class GradeReport(Answer):
    """``grade`` is None (ungraded) when the rules get stuck; ``verdict`` then says why."""

    grade: str | None
    score: int
    steps: dict[str, int]
    undecided: int
    verdict: str | None = None


@shape
class ExplainReport(Answer):
    solved: bool
    steps: list[StepModel]
    undecided: int
    verdict: str | None = None


@shape
class AnalyzeReport(Answer):
    """For a puzzle being built: how many solutions, its grade when unique, where two differ."""

    status: Literal["infeasible", "unique", "several", "unknown"]
    reason: str | None = None
    grade: str | None = None
    score: int | None = None
    differ: list[LinkEnds] = field(default_factory=list)
    solutions: list[list[Bridge]] = field(default_factory=list)


@shape
class ParseReport(Answer):
    puzzle: PuzzleModel
    bridges: list[Bridge] | None = None
    links: list[LinkEnds]
    crossings: list[list[int]]
    """pairs of indices into links that cross"""


@shape
class ConvertReport(Answer):
    """A puzzle (and its bridges) as text in a named format."""

    format: str
    text: str


@shape
class GenerateReport(Answer):
    puzzle: PuzzleModel
    grade: str | None = None
    score: int | None = None
    seed: int | None = None
