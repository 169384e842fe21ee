"""The web API's own typed shapes (pydantic): the requests each endpoint takes, the error answer,
and the limits document (``GET /api/limits``) the page reads instead of prose.  The answers are
the use-cases' own shapes (:mod:`hashikit.service.shapes`)."""

from __future__ import annotations

import typing
from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictFloat, StrictInt, StrictStr

from .. import __version__, service
from ..errors import HashikitError
from ..limits import (GENERATE_DENSITY, GENERATE_MAX_DENSITY, GENERATE_MAXBRIDGES, GENERATE_MIN_SIDE, TIME_MARGIN, WEB,
                      WEB_GENERATE_MAX_SIDE, WEB_MAX_GENERATING)
from ..model import DEFAULT_MAXBRIDGES, LEVELS
from ..records import fields as record_fields
from ..service import picture as _picture  # noqa: F401  (its PictureReport is an answer too)
from ..service.shapes import declare_dataclasses


# pydantic reads the answers (the use-cases' shapes) as standard dataclasses
declare_dataclasses()


# -- the requests ---------------------------------------------------------------------
class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


Ints = list[StrictInt]


def _strict(tp):
    """The strict pydantic type for a JSON-shape field's type (no coercion: "3" is not 3)."""
    args = typing.get_args(tp)
    if typing.get_origin(tp) is list:
        return list[_strict(args[0])]
    if type(None) in args:
        return _strict(next(a for a in args if a is not type(None)))
    return {int: StrictInt, bool: StrictBool, str: StrictStr}[tp]


def _puzzle_in() -> type[Strict]:
    """The puzzle a request carries: the fields of the JSON format's shape
    (:class:`~hashikit.service.shapes.PuzzleModel`, their one source), each optional (the format's
    reader names what is missing), or ``grid``."""
    from pydantic import TypeAdapter, create_model

    shape = service.PuzzleModel
    described = TypeAdapter(shape).json_schema()["properties"]
    hints = typing.get_type_hints(shape)
    fields = {name: (_strict(hints[name]) | None, Field(None, description=described[name].get("description")))
              for name in record_fields(shape)}
    fields["grid"] = (list[Ints] | None, Field(None, description="rows of cells: 0 empty, else the island's number"))
    return create_model("PuzzleIn", __base__=Strict, __doc__=(
        "A puzzle as the JSON format holds it (rows, cols, islands, optional maxbridges, no_loops and "
        "ignore), or `grid` (rows of numbers, 0 empty)."), **fields)


PuzzleIn = _puzzle_in()


class ParseRequest(Strict):
    text: StrictStr = Field(description="grid text, a Tatham game ID, a puzz.link URL, JSON, ...")
    format: StrictStr | None = Field(None, description="a readable format's name; left out: guessed")


class PuzzleRequest(Strict):
    puzzle: PuzzleIn


class BoardRequest(Strict):
    puzzle: PuzzleIn
    bridges: list[Ints] | None = Field(None, description="[r1, c1, r2, c2, count], 0-based")
    marks: list[Ints] | None = Field(None, description="[r1, c1, r2, c2, most]: at most `most` bridges on that "
                                                       "link (0 or left out: 'no bridge'), as hints hand them out")


class CheckRequest(BoardRequest):
    bridges: list[Ints] = Field(description="[r1, c1, r2, c2, count], 0-based")


class PictureRequest(Strict):
    image: StrictStr = Field(description="the picture's bytes (PNG, JPEG or WebP) in base64, or a data: URL")


def _convert_request():
    """The convert request, its ``format`` an enum built from the formats registry."""
    from pydantic import create_model

    names = tuple(service.writable_formats())
    return create_model("ConvertRequest", __base__=BoardRequest,
                        format=(Literal[names], Field(description="a writable format's name")))


ConvertRequest = _convert_request()


class GenerateRequest(Strict):
    rows: StrictInt = Field(7, ge=GENERATE_MIN_SIDE, le=WEB_GENERATE_MAX_SIDE)
    cols: StrictInt | None = Field(None, ge=GENERATE_MIN_SIDE, le=WEB_GENERATE_MAX_SIDE, description="default: rows")
    difficulty: Literal[LEVELS] = "medium"
    seed: StrictInt | None = Field(None, ge=0, le=2**63 - 1)
    maxbridges: StrictInt = Field(DEFAULT_MAXBRIDGES, ge=GENERATE_MAXBRIDGES[0], le=GENERATE_MAXBRIDGES[1],
                                  description="MAXBRIDGES: the most bridges on one link")
    no_loops: StrictBool = Field(False, description="the variant whose bridges may form no cycle")
    density: StrictFloat | StrictInt | None = Field(None, gt=0, le=GENERATE_MAX_DENSITY,
                                                    description=f"islands per cell (default {GENERATE_DENSITY})")


class ErrorAnswer(BaseModel):
    error: str
    status: str | None = None


# -- the limits document (GET /api/limits): what the page reads instead of prose ------------
class GenerateLimits(BaseModel):
    min_side: int = Field(description="smallest rows or columns /api/generate makes")
    max_side: int = Field(description="largest rows or columns /api/generate makes")
    time_limit: float = Field(description="seconds one generation may take (then 503, status timeout)")
    at_once: int = Field(description="generations that may run at once (more: 503, status busy)")
    levels: list[str] = Field(description="the difficulty levels, easiest first")
    maxbridges: list[int] = Field(description="[lowest, highest] MAXBRIDGES the generator makes")
    default_maxbridges: int
    max_density: float = Field(description="the most islands per cell a request may ask for (above 0)")
    default_density: float
    no_loops: bool = Field(description="the generator makes the no-loops variant")


class FormatInfo(BaseModel):
    name: str = Field(description="the format's name, as /api/convert and /api/parse take it")
    title: str = Field(description="a plain name for people")
    needs_solution: bool = Field(description="the text shows a solution: /api/convert needs `bridges`")
    no_loops: bool = Field(description="the format can hold the no-loops variant")
    maxbridges: list[int] = Field(description="the MAXBRIDGES values (1 to the web cap) the format can hold")


class LimitsReport(BaseModel):
    """This server's limits and options (``hashikit.limits.WEB`` and the app's own settings)."""

    version: str
    max_side: int = Field(description="largest rows or columns of a board")
    max_cells: int
    max_islands: int
    max_maxbridges: int = Field(description="largest MAXBRIDGES (island numbers up to 4 x this)")
    max_input_bytes: int = Field(description="largest request body")
    time_limit: float = Field(description="seconds a solve, hint or analysis may take (then status unknown)")
    time_margin: float = Field(description="seconds an answer may come after its time limit")
    generate: GenerateLimits
    formats: list[FormatInfo] = Field(description="the writable formats")


# -- the style table (GET /api/style): the sizes every drawing of a board is made with --------
def _medium_style() -> type[BaseModel]:
    """One medium's sizes, a field per row of :data:`hashikit.render.style.TABLE`."""
    from pydantic import create_model

    from ..render.style import TABLE, described

    about = described()
    return create_model("MediumStyle", __doc__="Sizes as fractions of a cell; null: not drawn in this medium.",
                        **{name: (float | None, Field(description=about[name])) for name in TABLE})


MediumStyle = _medium_style()


class StyleReport(BaseModel):
    """The style table of :mod:`hashikit.render.style`: every size of a board drawing as a fraction of
    its cell, per medium. The page draws with ``page``; ``screen`` is ``hashikit render``'s pictures,
    ``print`` the book's pages, ``overlay`` what a picture showed drawn over it."""

    screen: MediumStyle
    print: MediumStyle
    page: MediumStyle
    overlay: MediumStyle


def style_report() -> StyleReport:
    from ..render.style import table

    return StyleReport(**table())


#: the formats' names on the page (the registry's own descriptions are for the command line)
FORMAT_TITLES = {"tatham": "Tatham game ID", "puzzlink": "puzz.link URL", "grid": "text grid",
                 "csv": "CSV grid", "has": "Coelho et al. .has file", "json": "JSON",
                 "json-solution": "JSON with the solution", "solved": "solved grid (text)",
                 "solved-unicode": "solved grid (box lines)", "prob": "ProB B machine",
                 "dot": "Graphviz DOT", "ohmec": "hashi.js descriptor", "pzprv3": "pzprjs file"}


@lru_cache(maxsize=1)
def format_infos() -> tuple[FormatInfo, ...]:
    """The writable formats, each with the MAXBRIDGES values its writer takes (found by writing
    a two-island puzzle with each, so the list follows the writers)."""
    from ..formats import formats, write_text
    from ..model import Puzzle, Solution

    out = []
    for name in service.writable_formats():
        fmt = formats()[name]
        held = []
        for mb in range(1, WEB.max_maxbridges + 1):
            try:
                write_text(Puzzle(1, 3, [(0, 0, mb), (0, 2, mb)], mb), name, Solution({((0, 0), (0, 2)): mb}))
            except HashikitError:
                continue
            held.append(mb)
        out.append(FormatInfo(name=name, title=FORMAT_TITLES.get(name, name), needs_solution=fmt.needs_solution,
                              no_loops=fmt.holds_no_loops, maxbridges=held))
    return tuple(out)


def limits_report(solve_time_limit: float, generate_time_limit: float, max_body: int) -> LimitsReport:
    """The limits document of an app made with these settings."""
    return LimitsReport(
        version=__version__, max_side=WEB.max_side, max_cells=WEB.max_cells, max_islands=WEB.max_islands,
        max_maxbridges=WEB.max_maxbridges, max_input_bytes=max_body, time_limit=solve_time_limit,
        time_margin=TIME_MARGIN,
        generate=GenerateLimits(min_side=GENERATE_MIN_SIDE, max_side=WEB_GENERATE_MAX_SIDE, time_limit=generate_time_limit,
                                at_once=WEB_MAX_GENERATING, levels=list(LEVELS), maxbridges=list(GENERATE_MAXBRIDGES),
                                default_maxbridges=DEFAULT_MAXBRIDGES, max_density=GENERATE_MAX_DENSITY,
                                default_density=GENERATE_DENSITY, no_loops=True),
        formats=list(format_infos()))
