"""The web API's typed requests (pydantic): what each endpoint takes, and the two answers of the
web's own, the error and the limits document (``GET /api/limits``) the page reads instead of
prose.  Every other answer is a use-case's shape (:mod:`hashikit.service.shapes`)."""

from __future__ import annotations

import typing
from functools import lru_cache
from typing import Annotated, Literal

from pydantic import (BaseModel, BeforeValidator, ConfigDict, Field, StrictBool, StrictFloat, StrictInt, StrictStr,
                      WithJsonSchema)

from .. import __version__, service
from ..errors import HashikitError
from ..limits import (MIN_MAXBRIDGES, MIN_SIDE, TIME_MARGIN, WEB, WEB_ADMISSION, WEB_GENERATE_MAX_SIDE,
                      WEB_MAX_GENERATING, Admission)
from ..publish.layout import PAPERS
from ..publish.sheets import FORMATS as SHEET_FORMATS, MAX_PUZZLES as SHEET_MOST, PER_PAGE as SHEET_PER_PAGE
from ..records import fields as record_fields
from ..spec import OPTIONS, GenerateSpec
from ..service import picture as _picture  # noqa: F401  (its PictureReport is an answer too)
from ..service.shapes import declare_dataclasses


# pydantic reads the answers (the use-cases' shapes) as standard dataclasses
declare_dataclasses()


# -- the requests ---------------------------------------------------------------------
class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


def _whole_float(value):
    return int(value) if isinstance(value, float) and value.is_integer() else value


#: a whole number as JSON Schema's ``integer`` is one: 3 or 3.0, never "3", true or 3.5
Whole = Annotated[StrictInt, BeforeValidator(_whole_float)]
Ints = list[Whole]


def _strict(tp):
    """The strict pydantic type for a field of a shape (no coercion: "3" is not 3)."""
    args = typing.get_args(tp)
    if typing.get_origin(tp) is list:
        return list[_strict(args[0])]
    if type(None) in args:
        return _strict(next(a for a in args if a is not type(None)))
    return {int: Whole, bool: StrictBool, str: StrictStr}[tp]


def _integers(low: int, high: int) -> dict:
    return {"type": "integer", "minimum": low, "maximum": high}


def _tuples(*items: dict, optional: int = 0) -> dict:
    """An array of fixed-length arrays of whole numbers in these ranges (the last ``optional`` may be left out)."""
    return {"type": "array", "items": {"type": "array", "prefixItems": list(items),
                                       "minItems": len(items) - optional, "maxItems": len(items)}}


#: what JSON Schema can say of a request's board under ``limits.WEB`` (its one check is the reader's,
#: which also refuses what these cannot say: an island off the board or on another, a number above
#: 4 x MAXBRIDGES, grid rows of unequal lengths)
_AT = _integers(0, WEB.max_side - 1)
_MOST = _integers(0, WEB.max_maxbridges)
_BOARD = {
    "rows": _integers(MIN_SIDE, WEB.max_side), "cols": _integers(MIN_SIDE, WEB.max_side),
    "maxbridges": _integers(MIN_MAXBRIDGES, WEB.max_maxbridges), "no_loops": {"type": "boolean"},
    "islands": {**_tuples(_AT, _AT, _integers(1, 4 * WEB.max_maxbridges)), "minItems": 1, "maxItems": WEB.max_islands},
    "ignore": _tuples(_AT, _AT), "format": {"type": "string", "enum": ["hashikit-puzzle"]},
    "grid": {"type": "array", "minItems": 1, "maxItems": WEB.max_side,
             "items": {"type": "array", "minItems": 1, "maxItems": WEB.max_side,
                       "items": _integers(0, 4 * WEB.max_maxbridges)},
             "contains": {"type": "array", "contains": _integers(1, 4 * WEB.max_maxbridges)}},
}
#: a request's bridges ([r1, c1, r2, c2, count]) and marks ([r1, c1, r2, c2] or [..., most])
_BRIDGES = _tuples(_AT, _AT, _AT, _AT, _MOST)
_MARKS = _tuples(_AT, _AT, _AT, _AT, _MOST, optional=1)


def _no_default(schema: dict) -> None:
    """A field left out is not null: its schema states no default (the reader's default holds)."""
    schema.pop("default", None)


def _described(tp, schema: dict):
    """``tp`` for pydantic (types only), ``schema`` for the OpenAPI description (ranges and shapes)."""
    return Annotated[tp, WithJsonSchema(schema)]


class _EitherBoard(Strict):
    """A board is given by its rows, columns and islands, or by its grid."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={
        "anyOf": [{"required": ["rows", "cols", "islands"]}, {"required": ["grid"]}]})


def _puzzle_in() -> type[Strict]:
    """The puzzle a request carries: the fields of the JSON format's shape
    (:class:`~hashikit.service.shapes.PuzzleModel`, their one source), or ``grid``.  pydantic
    checks their types; their ranges and which fields go together are stated in JSON Schema terms
    for the OpenAPI description, and checked by the JSON format's reader under ``limits.WEB``."""
    from pydantic import TypeAdapter, create_model

    shape = service.PuzzleModel
    described = TypeAdapter(shape).json_schema()["properties"]
    hints = typing.get_type_hints(shape)
    fields = {name: (_described(_strict(hints[name]) | None, _BOARD[name]),
                     Field(None, description=described[name].get("description"), json_schema_extra=_no_default))
              for name in record_fields(shape)}
    fields["grid"] = (_described(list[Ints] | None, _BOARD["grid"]),
                      Field(None, description="rows of cells: 0 empty, else the island's number",
                            json_schema_extra=_no_default))
    return create_model("PuzzleIn", __base__=_EitherBoard, __doc__=(
        "A puzzle as the JSON format holds it (rows, cols, islands, optional maxbridges, no_loops and "
        "ignore), or `grid` (rows of numbers, 0 empty)."), **fields)


PuzzleIn = _puzzle_in()


def _parse_request():
    """The parse request, its ``format`` an enum built from the formats registry."""
    from pydantic import create_model

    from ..formats import formats

    names = tuple(sorted(name for name, f in formats().items() if f.read))
    return create_model("ParseRequest", __base__=Strict,
                        text=(_described(StrictStr, {"type": "string", "minLength": 1, "pattern": r"\S"}),
                              Field(description="grid text, a Tatham game ID, a puzz.link URL, JSON, ...")),
                        format=(Literal[names] | None, Field(None, description="a readable format's name; left out: guessed")))


ParseRequest = _parse_request()


class PuzzleRequest(Strict):
    puzzle: PuzzleIn


Bridges = _described(list[Ints], _BRIDGES)
MaybeBridges = _described(list[Ints] | None, _BRIDGES)
MaybeMarks = _described(list[Ints] | None, _MARKS)
#: base64 (padded), perhaps after a data: URL's header
_BASE64 = r"^(data:[^,]*,)?([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{4}|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2}==)$"
Base64 = _described(StrictStr, {"type": "string", "pattern": _BASE64})


class BoardRequest(Strict):
    puzzle: PuzzleIn
    bridges: MaybeBridges = Field(None, description="[r1, c1, r2, c2, count], 0-based", json_schema_extra=_no_default)
    marks: MaybeMarks = Field(
        None, description="[r1, c1, r2, c2, most]: at most `most` bridges on that link (0 or left out: 'no bridge'), "
                          "as hints hand them out", json_schema_extra=_no_default)


class CheckRequest(BoardRequest):
    bridges: Bridges = Field(description="[r1, c1, r2, c2, count], 0-based")


class PictureRequest(Strict):
    image: Base64 = Field(description="the picture's bytes (PNG, JPEG or WebP) in base64, or a data: URL")


def _convert_request():
    """The convert request, its ``format`` an enum built from the formats registry."""
    from pydantic import create_model

    names = tuple(service.writable_formats())
    return create_model("ConvertRequest", __base__=BoardRequest,
                        format=(Literal[names], Field(description="a writable format's name")))


ConvertRequest = _convert_request()


#: the board sides a generate request may ask for, per option (the others keep the spec's own ranges)
_WEB_HIGH = {"rows": WEB_GENERATE_MAX_SIDE, "cols": WEB_GENERATE_MAX_SIDE}


class _Generate(Strict):
    def spec(self) -> GenerateSpec:
        """The request as the rule book's record, checked under the web's limits (its one check:
        :class:`~hashikit.errors.BadArgument`, a 400 naming the limit)."""
        return GenerateSpec(**self.model_dump()).validate(WEB_GENERATE_MAX_SIDE)


def _exact(schema: dict) -> dict:
    """``schema`` with an integer maximum that a JSON number would round up (above 2**53: the OpenAPI
    document holds bounds as floats, and 2**63 - 1 comes out as 2**63) stated as the exact exclusive
    maximum above it, so that no client reads a bound the server does not keep."""
    top = schema.get("maximum")
    if isinstance(top, int) and int(float(top)) != top and int(float(top + 1)) == top + 1:
        schema = {key: value for key, value in schema.items() if key != "maximum"}
        schema["exclusiveMaximum"] = top + 1
    return schema


def _generate_request():
    """The generate request, a field per option of :data:`hashikit.spec.OPTIONS`: its type (strict),
    default and help, and its range in JSON Schema terms for the OpenAPI description.  pydantic
    checks the types only; the ranges and the rules between options are the spec's one check."""
    from typing import Annotated

    from pydantic import WithJsonSchema, create_model

    strict = {int: Whole, float: StrictFloat | StrictInt, bool: StrictBool, str: StrictStr}
    fields = {}
    for name, option in OPTIONS.items():
        kind = Annotated[strict[option.kind], WithJsonSchema(_exact(option.json_schema(_WEB_HIGH.get(name))))]
        help_ = option.help + (f" (left out: {option.implied})" if option.implied is not None else "")
        fields[name] = (kind if option.default is not None else kind | None,
                        Field(option.default, description=help_))
    return create_model("GenerateRequest", __base__=_Generate, __doc__="A request for a unique graded puzzle.",
                        **fields)


GenerateRequest = _generate_request()


class SheetsRequest(Strict):
    """Print sheets of these puzzles, the book's layout engine, as a PDF or as SVG pages."""

    puzzles: list[PuzzleIn] = Field(min_length=1, max_length=SHEET_MOST, description="the puzzles, each proved "
                                    "unique and finished by the deduction rules before it is printed")
    per_page: Literal[SHEET_PER_PAGE] = Field(4, description="puzzles a page (and solutions a page)")
    solutions: StrictBool = Field(True, description="the solutions on the pages after the puzzles")
    paper: Literal[tuple(PAPERS)] = "a4"
    format: Literal[SHEET_FORMATS] = Field("pdf", description="pdf: the PDF itself (application/pdf); svg: "
                                           '`{"pages": [svg, ...], "solutions_from": k}` for a browser to print')


class ErrorAnswer(BaseModel):
    error: str
    status: str | None = None


# -- the limits document (GET /api/limits): what the page reads instead of prose ------------
class GenerateLimits(BaseModel):
    """What /api/generate takes (:data:`hashikit.spec.OPTIONS`, the sides capped for the web)."""

    min_side: int = Field(description="smallest rows or columns /api/generate makes")
    max_side: int = Field(description="largest rows or columns /api/generate makes")
    default_side: int = Field(description="rows (and columns) when a request leaves them out")
    time_limit: float = Field(description="seconds one generation may take (then 503, status timeout)")
    at_once: int = Field(description="generations that may run at once (more: 503, status busy)")
    levels: list[str] = Field(description="the difficulty levels, easiest first")
    default_level: str = Field(description="the level when a request leaves it out")
    maxbridges: list[int] = Field(description="[lowest, highest] MAXBRIDGES the generator makes")
    default_maxbridges: int
    min_density: float = Field(description="islands per cell must be above this")
    max_density: float = Field(description="the most islands per cell a request may ask for")
    default_density: float = Field(description="islands per cell when a request leaves the density out")
    islands_percent: list[int] = Field(description="[lowest, highest] islands percent of Tatham's layout")
    default_islands_percent: int = Field(description="Tatham's islands percent when only the expansion is given")
    expansion: list[int] = Field(description="[lowest, highest] expansion (percent) of Tatham's layout")
    default_expansion: int = Field(description="Tatham's expansion when only the islands percent is given")
    seeds: list[int] = Field(description="[lowest, highest] seed")
    no_loops: bool = Field(description="the generator makes the no-loops variant")
    allow_adjacent: bool = Field(description="the default layout may put islands in neighbouring cells")


class FormatInfo(BaseModel):
    name: str = Field(description="the format's name, as /api/convert and /api/parse take it")
    title: str = Field(description="a plain name for people")
    needs_solution: bool = Field(description="the text shows a solution: /api/convert needs `bridges`")
    no_loops: bool = Field(description="the format can hold the no-loops variant")
    maxbridges: list[int] = Field(description="the MAXBRIDGES values (1 to the web cap) the format can hold")


class SheetsLimits(BaseModel):
    per_page: list[int] = Field(description="the puzzles a page print sheets take")
    max_puzzles: int = Field(description="the most puzzles one request prints")
    papers: list[str]


class AdmissionLimits(BaseModel):
    """How this server shares its workers (``hashikit.limits.Admission``): lanes, queues, the
    limits per client address and for slow clients."""

    light_cells: int = Field(description="a board of at most this many cells (and light_islands islands) is light "
                                         "work: it runs in the light lane, on workers of its own")
    light_islands: int = Field(description="a board of at most this many islands (and light_cells cells) is light work")
    light_bytes: int = Field(description="the largest request body of light work: a larger one is heavy work, and "
                                         "refused before it is read when its client is at its heavy limit")
    light_at_once: int = Field(description="light requests that run at once")
    heavy_at_once: int = Field(description="heavy requests (larger boards, pictures) that run at once")
    generate_at_once: int = Field(description="generations that run at once")
    queue_length: int = Field(description="requests that may wait in one lane; more are answered 503 at once")
    queue_wait: float = Field(description="seconds a request waits for a slot at most; then 503 with Retry-After")
    longest_wait: float = Field(description="seconds a client waits for a solve, hint or analysis at most: "
                                            "queue_wait, then time_limit of work, then time_margin")
    longest_generate_wait: float = Field(description="seconds a client waits for a generation at most")
    client_at_once: int = Field(description="requests one client address may have in flight; more: 429")
    client_heavy_at_once: int = Field(description="heavy requests (larger boards, pictures, generations) one client "
                                                  "address may run at once; more: 429")
    client_heavy_per_minute: int = Field(description="heavy requests one client address may start in any minute; "
                                                     "more: 429 with Retry-After")
    header_timeout: float = Field(description="seconds for a request's headers to arrive (hashikit serve; then "
                                              "the connection is closed)")
    body_timeout: float = Field(description="seconds for a request's body to arrive once its headers have (then 408)")
    keep_alive: float = Field(description="seconds an idle connection is kept open (hashikit serve)")
    client_connections: int = Field(description="connections one client address may hold open (hashikit serve; "
                                                "a trusted proxy's are not counted)")
    connections: int = Field(description="connections and requests the server holds at once (hashikit serve; "
                                         "more: 503)")
    worker_memory: int = Field(description="bytes of memory each worker process may map; work that needs more "
                                           "is answered 503 and its worker replaced")
    picture_pixels: int = Field(description="the largest picture /api/read-picture decodes, in pixels")
    server_memory: int = Field(description="bytes of memory the whole server takes at most (its process and "
                                           "every worker, shared pages counted once) under any mix of allowed "
                                           "requests: what grows with a request runs only on the heavy workers")
    trusted_proxies: list[str] = Field(description="the proxies whose X-Forwarded-For names the client "
                                                   "(addresses or networks)")


class LimitsReport(BaseModel):
    """This server's limits and options (``hashikit.limits.WEB`` and the app's own settings)."""

    version: str
    min_side: int = Field(description="smallest rows or columns of a board")
    max_side: int = Field(description="largest rows or columns of a board")
    max_cells: int
    max_islands: int
    min_maxbridges: int = Field(description="smallest MAXBRIDGES")
    max_maxbridges: int = Field(description="largest MAXBRIDGES (island numbers up to 4 x this)")
    max_input_bytes: int = Field(description="largest request body")
    time_limit: float = Field(description="seconds of work a solve, hint or analysis may take, counted from when "
                                          "its work starts (then status unknown)")
    time_margin: float = Field(description="seconds an answer may come after its time limit")
    admission: AdmissionLimits
    generate: GenerateLimits
    formats: list[FormatInfo] = Field(description="the writable formats")
    sheets: SheetsLimits | None = Field(None, description="print sheets (POST /api/sheets); absent: none here")
    server: bool = Field(True, description="a hashikit server answers the page (false in the page that needs no "
                                           "server, `hashikit site`, when none answers it: picture reading, larger "
                                           "boards and the hardest level are then not offered)")
    site: dict | None = Field(None, description="what `hashikit site` wrote into its page (the puzzle of the day's "
                                                "level, size and seed; the build), none when served")


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


def limits_report(solve_time_limit: float, generate_time_limit: float, max_body: int,
                  admission: Admission = WEB_ADMISSION, trusted_proxies: list[str] = ()) -> LimitsReport:
    """The limits document of an app made with these settings: ``limits.WEB``, its admission and
    the generation rule book (:data:`hashikit.spec.OPTIONS`)."""
    def low_high(name):
        return list(OPTIONS[name].bounds(_WEB_HIGH.get(name)))

    shared = AdmissionLimits(
        **{name: getattr(admission, name) for name in record_fields(Admission)},
        generate_at_once=WEB_MAX_GENERATING, longest_wait=admission.longest_wait(solve_time_limit),
        longest_generate_wait=admission.longest_wait(generate_time_limit), trusted_proxies=list(trusted_proxies))

    return LimitsReport(
        version=__version__, min_side=MIN_SIDE, max_side=WEB.max_side, max_cells=WEB.max_cells,
        max_islands=WEB.max_islands, min_maxbridges=MIN_MAXBRIDGES, max_maxbridges=WEB.max_maxbridges,
        max_input_bytes=max_body, time_limit=solve_time_limit, time_margin=TIME_MARGIN, admission=shared,
        generate=GenerateLimits(
            min_side=low_high("rows")[0], max_side=low_high("rows")[1], default_side=OPTIONS["rows"].default,
            time_limit=generate_time_limit, at_once=WEB_MAX_GENERATING,
            levels=list(OPTIONS["difficulty"].choices), default_level=OPTIONS["difficulty"].default,
            maxbridges=low_high("maxbridges"), default_maxbridges=OPTIONS["maxbridges"].default,
            min_density=low_high("density")[0], max_density=low_high("density")[1],
            default_density=OPTIONS["density"].implied,
            islands_percent=low_high("islands_percent"), default_islands_percent=OPTIONS["islands_percent"].implied,
            expansion=low_high("expansion"), default_expansion=OPTIONS["expansion"].implied,
            seeds=low_high("seed"), no_loops="no_loops" in OPTIONS, allow_adjacent="allow_adjacent" in OPTIONS),
        formats=list(format_infos()),
        sheets=SheetsLimits(per_page=list(SHEET_PER_PAGE), max_puzzles=SHEET_MOST, papers=list(PAPERS)))
