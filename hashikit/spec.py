"""The rule book of a request for a generated puzzle, stated once: :class:`GenerateSpec`, one
record of what such a request asks (size, level, MAXBRIDGES, no-loops, the layout: islands per
cell and adjacency, or Tatham's islands percent and expansion; seed, time limit) with one
:meth:`~GenerateSpec.validate`, and :data:`OPTIONS`, each option's type, range, default and the
words that name it.  The command line's argument types, the service, the web's request model (and
so its OpenAPI description), the limits document the page builds its form from, and the
generator are all made from these: every refusal names the same limit in the same words.

The numbers themselves are in :mod:`hashikit.limits`; the board a request may read is the other
rule book, :meth:`hashikit.limits.Limits.problem`.

May import: errors, records, limits and the model.
"""

from __future__ import annotations

import math

from .errors import BadArgument
from .limits import (GENERATE_DENSITY, GENERATE_EXPANSION, GENERATE_ISLANDS_PERCENT, GENERATE_MAX_DENSITY,
                     GENERATE_MAXBRIDGES, GENERATE_MIN_SIDE, GENERATE_SEEDS, GENERATE_TATHAM_DEFAULTS, MAX_SIDE,
                     validate_seconds)
from .model import DEFAULT_MAXBRIDGES, LEVELS
from .records import Record


class Option(Record, frozen=True):
    """One thing a generation request may ask."""

    #: the keyword of :class:`GenerateSpec` (and of the library's calls, and the web's JSON field)
    name: str
    #: ``int``, ``float``, ``bool`` or ``str``
    kind: type
    #: how a message names it
    words: str
    #: one line for ``--help`` and the OpenAPI description
    help: str
    #: the value when a request leaves it out (None: left out, see ``implied``)
    default: object = None
    #: the lowest and the highest value (None: no bound); with ``above`` the value must be above ``low``
    low: float | None = None
    high: float | None = None
    above: bool = False
    #: the values it may take (for a level)
    choices: tuple = ()
    #: what the generator takes when the option is left out and ``default`` is None
    implied: object = None

    def bounds(self, high: float | None = None) -> tuple[float | None, float | None]:
        """The lowest and highest value, ``high`` (an entry's tighter cap) in place of the option's."""
        return self.low, self.high if high is None else high

    def range_words(self, high: float | None = None) -> str:
        """The range in words: ``from 1 to 4``, ``above 0 and at most 0.5``, ``one of easy, ...``."""
        if self.choices:
            return "one of " + ", ".join(self.choices)
        if self.kind is bool:
            return "true or false"
        low, top = self.bounds(high)
        if self.above:
            return f"above {low:g}" + (f" and at most {top:g}" if top is not None else "")
        return f"from {low} to {top}" if top is not None else f"at least {low}"

    def problem(self, value, high: float | None = None) -> str | None:
        """What is wrong with ``value`` for this option, in words naming its limit (None: nothing);
        ``high``: an entry's tighter highest value (the web's board sides)."""
        if self.choices:
            ok = isinstance(value, str) and value in self.choices
        elif self.kind is bool:
            ok = isinstance(value, bool)
        else:
            low, top = self.bounds(high)
            number = (int,) if self.kind is int else (int, float)
            ok = (not isinstance(value, bool) and isinstance(value, number) and _finite(value)
                  and (low is None or (value > low if self.above else value >= low))
                  and (top is None or value <= top))
        return None if ok else f"{self.words} must be {self.range_words(high)} (got {_shown(value)})"

    def json_schema(self, high: float | None = None) -> dict:
        """The option's type and range in JSON Schema terms (the web's OpenAPI description)."""
        if self.choices:
            return {"type": "string", "enum": list(self.choices)}
        schema = {"type": {int: "integer", float: "number", bool: "boolean", str: "string"}[self.kind]}
        low, top = self.bounds(high)
        if low is not None:
            schema["exclusiveMinimum" if self.above else "minimum"] = low
        if top is not None:
            schema["maximum"] = top
        return schema


def _finite(value) -> bool:
    try:
        return math.isfinite(value)
    except OverflowError:  # an int too large for a float
        return False


def _shown(value) -> str:
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10 ** 20:
        return f"a number of {len(str(abs(value)))} digits"
    return repr(value)


#: what a generation request may ask, by name, in the order forms show them
OPTIONS: dict[str, Option] = {o.name: o for o in (
    Option("rows", int, "rows", "rows of the board", 7, GENERATE_MIN_SIDE, MAX_SIDE),
    Option("cols", int, "columns", "columns of the board (left out: as many as rows)", None, GENERATE_MIN_SIDE,
           MAX_SIDE),
    Option("difficulty", str, "the difficulty", "the level the puzzle grades at exactly", "medium", choices=LEVELS),
    Option("maxbridges", int, "MAXBRIDGES", "MAXBRIDGES: the most bridges on one link", DEFAULT_MAXBRIDGES,
           *GENERATE_MAXBRIDGES),
    Option("no_loops", bool, "no loops", "the variant whose bridges may form no cycle", False),
    Option("allow_adjacent", bool, "allow adjacent", "islands may sit in neighbouring cells (in the default layout)",
           False),
    Option("density", float, "the density (islands per cell)", "islands per cell of the default layout", None,
           0, GENERATE_MAX_DENSITY, above=True, implied=GENERATE_DENSITY),
    Option("islands_percent", int, "the islands percent (Tatham's layout)",
           "Tatham's layout, with islands on this percentage of the cells", None, *GENERATE_ISLANDS_PERCENT,
           implied=GENERATE_TATHAM_DEFAULTS[0]),
    Option("expansion", int, "the expansion (Tatham's layout)", "Tatham's layout, with his expansion factor in percent",
           None, *GENERATE_EXPANSION, implied=GENERATE_TATHAM_DEFAULTS[1]),
    Option("seed", int, "the seed", "the random seed: the same seed and options make the same puzzle", None,
           *GENERATE_SEEDS),
)}

#: the options that shape Tatham's layout (given one, the layout is his)
TATHAM = ("islands_percent", "expansion")


class GenerateSpec(Record, frozen=True, kw_only=True):
    """A request for a unique puzzle graded at ``difficulty``: the options of :data:`OPTIONS`
    (None: left out) and the seconds it may take (``time_limit``, None: no limit).  Made as asked;
    :meth:`validate` is its one check, run where the request enters, before any work."""

    rows: int = OPTIONS["rows"].default
    cols: int | None = None
    difficulty: str = OPTIONS["difficulty"].default
    maxbridges: int = DEFAULT_MAXBRIDGES
    no_loops: bool = False
    allow_adjacent: bool = False
    density: float | None = None
    islands_percent: int | None = None
    expansion: int | None = None
    seed: int | None = None
    time_limit: float | None = None

    def validate(self, max_side: int = MAX_SIDE) -> "GenerateSpec":
        """This spec, checked: :class:`~hashikit.errors.BadArgument` (a ``ValueError``) naming the
        first option out of its range (board sides up to ``max_side``, the entry's cap), or
        options that do not go together."""
        for option in OPTIONS.values():
            value = getattr(self, option.name)
            if value is None and option.default is None:
                continue
            refused = option.problem(value, max_side if option.name in ("rows", "cols") else None)
            if refused:
                raise BadArgument(refused)
        if self.time_limit is not None:
            validate_seconds(self.time_limit, "the time limit")
        if self.maxbridges == 1 and self.difficulty == "medium" and not self.no_loops:
            raise BadArgument("with MAXBRIDGES 1 no puzzle is medium: Tatham's medium rule (a first bridge where "
                              "the other links cannot carry the number) then finds only what his easy rule "
                              "finds; choose easy or hard, or the no-loops variant")
        if self.tatham_layout() is not None:
            if self.density is not None:
                raise BadArgument("the density shapes the default layout; Tatham's (islands percent, expansion) "
                                  "has its own")
            if self.allow_adjacent:
                raise BadArgument("Tatham's layout never puts islands side by side: allow adjacent does not apply")
        return self

    @property
    def size(self) -> tuple[int, int]:
        """``(rows, columns)``, columns as many as rows when left out."""
        return self.rows, self.rows if self.cols is None else self.cols

    def tatham_layout(self) -> tuple[int, int] | None:
        """Tatham's islands percent and expansion (the one left out at its default) when the
        request asks for his layout; None for the default layout."""
        if self.islands_percent is None and self.expansion is None:
            return None
        percent, expansion = (getattr(self, name) for name in TATHAM)
        return (OPTIONS["islands_percent"].implied if percent is None else percent,
                OPTIONS["expansion"].implied if expansion is None else expansion)

    def layout_density(self) -> float:
        """Islands per cell of the default layout."""
        return OPTIONS["density"].implied if self.density is None else self.density

    def options(self) -> dict[str, object]:
        """The options asked (those left out omitted), as keywords of this class."""
        return {name: getattr(self, name) for name in (*OPTIONS, "time_limit") if getattr(self, name) is not None
                and not (name in ("no_loops", "allow_adjacent") and getattr(self, name) is False)}


__all__ = ["GenerateSpec", "OPTIONS", "Option", "TATHAM"]
