"""The typed JSON shapes of every answer and the plain list shapes of bridges, links, cells and
marks.  ``--format json`` prints ``as_json()`` of these and the web API declares them, so the
OpenAPI description is generated from the classes that make the answers.

They are records (:mod:`hashikit.records`), not pydantic models or dataclasses: a command pays
nothing at start-up for them (a plain ``hashikit solve`` imports neither pydantic nor
``dataclasses``).  The web app hands the same classes to FastAPI: :func:`declare_dataclasses` makes
them standard dataclasses in place (fields only, no methods), which pydantic reads with their
types and field docstrings (``__pydantic_config__``)."""

from __future__ import annotations

from itertools import chain

from ..model import DEFAULT_MAXBRIDGES
from ..records import MISSING, Fresh, Record, fields

TYPE_CHECKING = False
if TYPE_CHECKING:  # for type checkers; pydantic gets them from declare_dataclasses
    from typing import Any, Literal


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

#: every shape class, in the order made
_SHAPES: list[type[Shape]] = []


#: the types :func:`plain` hands back as they are, asked first (most values are numbers of bridge lists)
_SCALARS = frozenset({int, str, float, bool, type(None)})
_ROWS = frozenset({list, tuple})


def plain(value: object) -> object:
    """``value`` as JSON data: shapes as dicts of all their fields, tuples as lists."""
    if value.__class__ in _SCALARS:
        return value
    if isinstance(value, (list, tuple)) and set(map(type, value)) <= _ROWS and \
            set(map(type, chain.from_iterable(value))) <= _SCALARS:
        return list(map(list, value))  # a table of scalars (the bridges): no call per number
    if isinstance(value, Shape):
        return {name: plain(getattr(value, name)) for name in fields(value)}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


class Shape(Record, kw_only=True):
    """Base of every shape: a keyword-only record.  A list field's default is ``Fresh(list)``."""

    __pydantic_config__ = PYDANTIC_CONFIG

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        _SHAPES.append(cls)


class Answer(Shape):
    """Base of every answer: ``as_json()`` leaves out the optional fields the use-case did not
    set (so ``"unique": null`` means "asked, not known", and an absent ``"unique"`` "not asked");
    list fields are always there."""

    def __init__(self, **given: object) -> None:
        super().__init__(**given)
        object.__setattr__(self, "_given", set(given))

    def __setattr__(self, name: str, value: object) -> None:
        object.__setattr__(self, name, value)
        given = self.__dict__.get("_given")
        if given is not None:
            given.add(name)

    def as_json(self) -> dict[str, object]:
        given = self.__dict__.get("_given", ())
        return {name: plain(getattr(self, name)) for name in self._fields if name in given or self._always(name)}

    @classmethod
    def _always(cls, name: str) -> bool:
        """Whether field ``name`` is always in the JSON: required, or a list (``Fresh``)."""
        default = cls._defaults.get(name, MISSING)
        return default is MISSING or isinstance(default, Fresh)

    def dump(self) -> dict[str, object]:
        """Every field, set or not, as JSON data."""
        return plain(self)


def declare_dataclasses() -> None:
    """Make every shape a standard dataclass in place, for pydantic (the web app calls this once):
    only the fields are declared (``init``, ``repr`` and ``eq`` stay the records'), so the classes
    behave as before.  Loads ``dataclasses``, which a command never needs, and ``typing``: the
    fields' annotations name ``Any`` and ``Literal``, which only pydantic evaluates, so they are
    put in this module's namespace here rather than imported when a command loads the shapes."""
    import dataclasses
    import typing

    globals().update(Any=typing.Any, Literal=typing.Literal)

    for cls in _SHAPES:
        if "__dataclass_fields__" in cls.__dict__:  # declared by an earlier call
            continue
        for name in cls.__dict__.get("__annotations__", {}):
            default = cls.__dict__.get(name)
            if isinstance(default, Fresh):
                setattr(cls, name, dataclasses.field(default_factory=default.make))
        dataclasses.dataclass(init=False, repr=False, eq=False, kw_only=True)(cls)


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
    ignore: list[list[int]] = Fresh(list)
    """[row, col] of islands left out of play"""
    format: str | None = None
    """"hashikit-puzzle", the JSON format's tag"""

    @classmethod
    def of(cls, puzzle) -> "PuzzleModel":
        """The shape of ``puzzle`` (a :class:`hashikit.model.Puzzle`), from the JSON format's own writer."""
        from ..formats.jsonfmt import puzzle_data

        return cls(**{k: v for k, v in puzzle_data(puzzle).items() if k in cls._fields})


class SolveReport(Answer):
    """One solve: the first solution's bridges, and what was asked about the others."""

    status: Literal["solved", "infeasible", "unknown"]
    bridges: list[Bridge] = Fresh(list)
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


class ViolationModel(Shape):
    rule: str
    message: str
    cells: list[Cell] = Fresh(list)


class BoardCheckReport(Answer):
    """``complete``: every rule holds.  ``valid``: no rule in ``violations`` is broken; for a
    board in play (``in_play``), ``violations`` holds only what such a board can break."""

    complete: bool
    valid: bool
    violations: list[ViolationModel] = Fresh(list)


class StepModel(Answer):
    """One deduction: the rule, its level, a sentence, the islands and links it is about and
    ``changes`` as ``[r1, c1, r2, c2, lo, hi]`` (the link's new bridge-count interval)."""

    rule: str
    level: str
    sentence: str
    islands: list[Cell] = Fresh(list)
    links: list[LinkEnds] = Fresh(list)
    changes: list[list[int]] = Fresh(list)


class HintReport(Answer):
    """``hint`` (a step), ``conflict`` (``problems``), ``complete``, ``stuck``, ``infeasible`` (the
    puzzle has no solution) or ``unknown`` (time limit)."""

    status: Literal["hint", "conflict", "complete", "stuck", "infeasible", "unknown"]
    sentence: str
    rule: str | None = None
    level: str | None = None
    islands: list[Cell] = Fresh(list)
    links: list[LinkEnds] = Fresh(list)
    changes: list[list[int]] = Fresh(list)
    #: what the hint puts on the board: bridges ``[r1, c1, r2, c2, count]`` and marks
    #: ``[r1, c1, r2, c2, most]`` (0: "no bridge here"), which later hints receive back
    bridges: list[Bridge] = Fresh(list)
    marks: list[Mark] = Fresh(list)
    problems: list[str] = Fresh(list)


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
    differ: list[LinkEnds] = Fresh(list)
    solutions: list[list[Bridge]] = Fresh(list)


class ParseReport(Answer):
    puzzle: PuzzleModel
    bridges: list[Bridge] | None = None
    links: list[LinkEnds]
    crossings: list[list[int]]
    """pairs of indices into links that cross"""


class ConvertReport(Answer):
    """A puzzle (and its bridges) as text in a named format."""

    format: str
    text: str


class GenerateReport(Answer):
    puzzle: PuzzleModel
    grade: str | None = None
    score: int | None = None
    seed: int | None = None
