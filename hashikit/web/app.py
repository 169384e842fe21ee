"""The Starlette application behind ``hashikit serve``: a JSON API and the page in ``static/``.

Every endpoint takes JSON text (never a path: nothing here opens a file named by
a request), answers JSON, and answers bad input with a 4xx status and
``{"error": "..."}``.  CPU work (solving, hints, generating) runs in a thread
pool so the server keeps answering while it runs.  The API is described by
:data:`OPENAPI` (served at ``/api/openapi.json``) and in the README.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .. import __version__
from ..errors import FormatError, HashikitError, PuzzleError
from ..formats.jsonfmt import puzzle_from_obj, puzzle_obj, solution_from_list

STATIC = Path(__file__).resolve().parent / "static"

#: Largest request body (bytes).
MAX_BODY = 1_000_000
#: Largest board side the app plays (and generates).
MAX_SIDE = 60
#: Seconds one solve may take before the answer is status "unknown".
SOLVE_TIME_LIMIT = 10.0
#: Seconds one generate request may take before it gives up (503).
GENERATE_TIME_LIMIT = 20.0
#: Largest side /api/generate makes (bigger boards rarely come out in time).
MAX_GENERATE_SIDE = 25
#: Generate requests run at once; more are answered 503 "busy".
MAX_GENERATING = 2

#: Rules a partial board (one still being played) can already break.
PARTIAL_RULES = ("not-straight", "no-island", "island-between", "bad-count", "too-many-bridges", "crossing")
SOURCE = "<request>"


class ApiError(Exception):
    """An answer with a 4xx/5xx status and ``{"error": message}``."""

    def __init__(self, code: int, message: str, **extra):
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = extra


# -- request helpers ------------------------------------------------------------
async def read_json(request: Request, max_body: int) -> dict:
    """The request's JSON object, or ApiError: 415 not JSON, 413 too large, 400 malformed."""
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype != "application/json":
        raise ApiError(415, "send the request body as JSON with 'Content-Type: application/json'")
    declared = request.headers.get("content-length")
    if declared is not None:
        try:
            size = int(declared)
        except ValueError:
            raise ApiError(400, "the Content-Length header is not a number") from None
        if size > max_body:
            raise ApiError(413, f"the request body is {size} bytes; the limit is {max_body}")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > max_body:
            raise ApiError(413, f"the request body is larger than the limit of {max_body} bytes")
    if not body.strip():
        raise ApiError(400, "the request body is empty; send a JSON object")
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ApiError(400, f"the request body is not UTF-8 (byte {exc.start + 1})") from None
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ApiError(400, f"the request body is not valid JSON: {exc.msg} "
                            f"(line {exc.lineno}, column {exc.colno})") from None
    except (ValueError, RecursionError) as exc:  # huge integers, deep nesting
        raise ApiError(400, f"the request body is not acceptable JSON: {str(exc)[:120]}") from None
    if not isinstance(obj, dict):
        raise ApiError(400, "the request body must be a JSON object ({...})")
    return obj


def _whole(obj: dict, key: str, default=None, lo: int | None = None, hi: int | None = None,
           required: bool = False) -> int | None:
    if key not in obj or obj[key] is None:
        if required:
            raise ApiError(400, f'the request has no "{key}"')
        return default
    value = obj[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise ApiError(400, f'"{key}" must be a whole number, got {json.dumps(value)[:40]}')
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise ApiError(400, f'"{key}" must run from {lo} to {hi}, got {value}')
    return value


def _check_size(rows: int, cols: int) -> None:
    if rows > MAX_SIDE or cols > MAX_SIDE:
        raise ApiError(400, f"the board is {rows}x{cols}; the web app plays boards up to {MAX_SIDE}x{MAX_SIDE}")


def puzzle_from_request(body: dict):
    """The request's ``"puzzle"`` object as a Puzzle (the JSON format's reader), or ApiError 400."""
    if "puzzle" not in body:
        raise ApiError(400, 'the request has no "puzzle"')
    obj = body["puzzle"]
    if isinstance(obj, dict):  # refuse a huge board before building it
        dims = [obj.get(k) for k in ("rows", "cols")]
        if all(isinstance(v, int) and not isinstance(v, bool) for v in dims):
            _check_size(*dims)
    try:
        puzzle = puzzle_from_obj(obj, SOURCE, '"puzzle"')
    except FormatError as exc:
        raise ApiError(400, exc.message) from None
    except (PuzzleError, TypeError, ValueError) as exc:
        raise ApiError(400, f'"puzzle": {exc}') from None
    _check_size(puzzle.rows, puzzle.cols)
    return puzzle


def bridges_from_request(body: dict, puzzle, key: str = "bridges"):
    """The request's ``"bridges"`` list ([[r1, c1, r2, c2, k], ...]) as a Solution, or ApiError 400."""
    value = body.get(key, [])
    if value is None:
        value = []
    try:
        solution = solution_from_list(value, SOURCE, key)
    except FormatError as exc:
        raise ApiError(400, exc.message) from None
    for (p, q), k in solution.bridges.items():  # keep the checker's geometry on the board
        for r, c in (p, q):
            if not (0 <= r < puzzle.rows and 0 <= c < puzzle.cols):
                raise ApiError(400, f'"{key}": the bridge {[*p, *q, k]} has an end outside the '
                                    f'{puzzle.rows}x{puzzle.cols} board')
        if abs(k) > 1000:
            raise ApiError(400, f'"{key}": the bridge {[*p, *q, k]} has an absurd count')
    return solution


def puzzle_json(puzzle) -> dict:
    """A puzzle as the API returns it: the JSON format's puzzle object."""
    return puzzle_obj(puzzle)


def _format_error(exc: FormatError) -> str:
    if exc.line is not None:
        where = f"line {exc.line}" + (f", column {exc.column}" if exc.column is not None else "")
        return f"{where}: {exc.message}"
    return exc.message


# -- the work (run in a thread pool) ----------------------------------------------
#: Formats that spell the board out cell by cell: their text shows a too-large board before parsing.
_CELL_FORMATS = ("grid", "csv", "has", "solved", "solved-unicode")


def _precheck_size(text: str, fmt: str | None) -> None:
    """Refuse cell-by-cell text far larger than a 60x60 board before parsing it (cheap)."""
    from ..formats import sniff

    if (fmt or sniff(text)) not in _CELL_FORMATS:
        return
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    longest = max((len(ln) for ln in lines), default=0)
    if len(lines) > 2 * MAX_SIDE + 1 or longest > 8 * MAX_SIDE:
        raise ApiError(400, f"the board has {len(lines)} lines of up to {longest} characters; "
                            f"the web app plays boards up to {MAX_SIDE}x{MAX_SIDE}")


def parse_text(text: str, fmt: str | None):
    from ..formats import read_text

    _precheck_size(text, fmt)
    try:
        doc = read_text(text, fmt, SOURCE)
    except FormatError as exc:
        raise ApiError(400, f"cannot read the puzzle: {_format_error(exc)}") from None
    except (PuzzleError, ValueError, IndexError, KeyError, TypeError) as exc:
        raise ApiError(400, f"cannot read the puzzle: {exc}") from None
    except RecursionError:
        raise ApiError(400, "cannot read the puzzle: it is nested too deeply") from None
    if doc.puzzle is None:
        raise ApiError(400, "the text holds bridges but no puzzle")
    _check_size(doc.puzzle.rows, doc.puzzle.cols)
    out = {"puzzle": puzzle_json(doc.puzzle)}
    if doc.solution is not None:
        out["bridges"] = doc.solution.to_list()
    return out


def solve_puzzle(puzzle, time_limit: float) -> dict:
    from ..solvers import solve

    result = solve(puzzle, max_solutions=2, time_limit=time_limit)
    out = {"status": result.status.value,
           "bridges": result.solution.to_list() if result.solution is not None else []}
    if result.solution is not None:
        out["unique"] = result.unique
        if result.unique is False:
            out["second"] = result.solutions[1].to_list()
    if result.reason:
        out["reason"] = result.reason
    if result.status.value == "unknown":
        out["message"] = f"no answer within the time limit of {time_limit:g} s"
    return out


def _island_over(puzzle, solution, violation) -> bool:
    """Whether an ``island-count`` violation is an island over its number (which a partial board can break)."""
    pos = violation.cells[0]
    number = next(i.number for i in puzzle.islands if i.pos == pos)
    have = sum(k for (p, q), k in solution.bridges.items()
               if pos in (p, q) and isinstance(k, int) and not isinstance(k, bool))
    return have > number


def check_board(puzzle, solution) -> dict:
    from ..checker import check

    report = check(puzzle, solution)
    partial = [v for v in report.violations
               if v.rule in PARTIAL_RULES or (v.rule == "island-count" and _island_over(puzzle, solution, v))]
    return {"complete": report.ok, "valid": not partial,
            "violations": [{"rule": v.rule, "message": v.message, "cells": [list(c) for c in v.cells]}
                           for v in partial]}


def hint_for(puzzle, partial) -> dict:
    """As ``hashikit hint --state``, written once in :func:`hashikit.service.hint`."""
    from .. import service

    try:
        return service.hint(puzzle, partial, time_limit=SOLVE_TIME_LIMIT, lim=service.limits_mod.WEB).as_json()
    except service.BadInput as exc:
        raise ApiError(400, str(exc)) from None


def generate_puzzle(rows: int, cols: int, difficulty: str, seed: int, time_limit: float) -> dict:
    from ..generate import generate_unique

    try:
        puzzle, _solution, g = generate_unique(rows, cols, difficulty, seed, time_limit=time_limit)
    except RuntimeError as exc:
        raise ApiError(503, f"no {difficulty} {cols}x{rows} puzzle found within {time_limit:g} s ({exc}); "
                            f"try again, or a smaller board", status="timeout") from None
    return {"puzzle": puzzle_json(puzzle), "grade": g.level, "score": g.score, "seed": seed}


# -- the application ----------------------------------------------------------------
class SecurityHeaders:
    """Adds headers that keep the page to its own scripts and the browser from guessing types."""

    HEADERS = [
        (b"x-content-type-options", b"nosniff"),
        (b"referrer-policy", b"no-referrer"),
        (b"x-frame-options", b"DENY"),
        (b"content-security-policy",
         b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
         b"connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"),
    ]

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                message = dict(message)
                message["headers"] = list(message.get("headers", [])) + self.HEADERS
            await send(message)

        await self.app(scope, receive, send_with_headers)


def create_app(*, allowed_hosts: list[str] | None = None, max_body: int = MAX_BODY,
               solve_time_limit: float = SOLVE_TIME_LIMIT,
               generate_time_limit: float = GENERATE_TIME_LIMIT) -> Starlette:
    """The web app.  ``allowed_hosts`` (e.g. ``["127.0.0.1", "localhost"]``) refuses other Host
    headers, which keeps DNS-rebinding pages away from a local server; None allows any."""
    from ..logic import LEVELS

    busy = {"generating": 0}

    async def parse(request: Request) -> Response:
        body = await read_json(request, max_body)
        text = body.get("text")
        if not isinstance(text, str):
            raise ApiError(400, '"text" must be a string: the puzzle as grid text, a Tatham ID, '
                                'a puzz.link URL or JSON')
        if not text.strip():
            raise ApiError(400, '"text" is empty')
        fmt = body.get("format")
        if fmt is not None:
            from ..formats import formats

            if not isinstance(fmt, str) or fmt not in formats() or formats()[fmt].read is None:
                readable = sorted(n for n, f in formats().items() if f.read)
                raise ApiError(400, f'"format" must be one of {", ".join(readable)} (or left out to guess)')
        return JSONResponse(await run_in_threadpool(parse_text, text, fmt))

    async def solve(request: Request) -> Response:
        body = await read_json(request, max_body)
        puzzle = puzzle_from_request(body)
        return JSONResponse(await run_in_threadpool(solve_puzzle, puzzle, solve_time_limit))

    async def check(request: Request) -> Response:
        body = await read_json(request, max_body)
        puzzle = puzzle_from_request(body)
        if "bridges" not in body:
            raise ApiError(400, 'the request has no "bridges"')
        solution = bridges_from_request(body, puzzle)
        return JSONResponse(await run_in_threadpool(check_board, puzzle, solution))

    async def hint(request: Request) -> Response:
        body = await read_json(request, max_body)
        puzzle = puzzle_from_request(body)
        partial = bridges_from_request(body, puzzle)
        return JSONResponse(await run_in_threadpool(hint_for, puzzle, partial))

    async def generate(request: Request) -> Response:
        body = await read_json(request, max_body)
        rows = _whole(body, "rows", 7, 3, MAX_GENERATE_SIDE)
        cols = _whole(body, "cols", rows, 3, MAX_GENERATE_SIDE)
        difficulty = body.get("difficulty", "medium")
        if difficulty not in LEVELS:
            raise ApiError(400, f'"difficulty" must be one of {", ".join(LEVELS)}')
        seed = _whole(body, "seed", None, 0, 2**63 - 1)
        if seed is None:
            seed = int.from_bytes(os.urandom(4), "little")
        if busy["generating"] >= MAX_GENERATING:
            raise ApiError(503, f"{MAX_GENERATING} puzzles are being generated already; try again in a moment",
                           status="busy")
        busy["generating"] += 1
        try:
            return JSONResponse(await run_in_threadpool(generate_puzzle, rows, cols, difficulty, seed,
                                                        generate_time_limit))
        finally:
            busy["generating"] -= 1

    async def openapi(request: Request) -> Response:
        return JSONResponse(OPENAPI)

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"cache-control": "no-cache"})

    async def api_error(request: Request, exc: ApiError) -> Response:
        return JSONResponse({"error": exc.message, **exc.extra}, status_code=exc.code)

    async def http_error(request: Request, exc: HTTPException) -> Response:
        if request.url.path.startswith("/api/"):
            message = {404: f"no such endpoint: {request.url.path} (see /api/openapi.json)",
                       405: f"{request.method} is not allowed here; the API takes POST with JSON"
                       }.get(exc.status_code, exc.detail)
            return JSONResponse({"error": message}, status_code=exc.status_code,
                                headers=getattr(exc, "headers", None))
        return Response(str(exc.detail), status_code=exc.status_code, media_type="text/plain")

    async def hashikit_error(request: Request, exc: HashikitError) -> Response:
        return JSONResponse({"error": str(exc)}, status_code=400)

    routes = [
        Route("/", index, methods=["GET", "HEAD"]),
        Route("/api/openapi.json", openapi, methods=["GET"]),
        Route("/api/parse", parse, methods=["POST"]),
        Route("/api/solve", solve, methods=["POST"]),
        Route("/api/check", check, methods=["POST"]),
        Route("/api/hint", hint, methods=["POST"]),
        Route("/api/generate", generate, methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    middleware = [Middleware(SecurityHeaders)]
    if allowed_hosts:
        middleware.insert(0, Middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts))
    return Starlette(routes=routes, middleware=middleware,
                     exception_handlers={ApiError: api_error, HTTPException: http_error,
                                         HashikitError: hashikit_error})


# -- the API's description ------------------------------------------------------------
def _schema_ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def _post(summary: str, description: str, request: dict, response: dict, extra: dict | None = None) -> dict:
    responses = {
        "200": {"description": "the answer", "content": {"application/json": {"schema": response}}},
        "400": {"description": "malformed input (message in `error`)",
                "content": {"application/json": {"schema": _schema_ref("Error")}}},
        "413": {"description": f"request body over {MAX_BODY} bytes",
                "content": {"application/json": {"schema": _schema_ref("Error")}}},
        "415": {"description": "body not sent as application/json",
                "content": {"application/json": {"schema": _schema_ref("Error")}}},
    }
    responses.update(extra or {})
    return {"post": {"summary": summary, "description": description,
                     "requestBody": {"required": True,
                                     "content": {"application/json": {"schema": request}}},
                     "responses": responses}}


_BRIDGES = {"type": "array", "description": "bridges as [r1, c1, r2, c2, count], 0-based",
            "items": {"type": "array", "items": {"type": "integer"}, "minItems": 5, "maxItems": 5}}
_CELLS = {"type": "array", "items": {"type": "array", "items": {"type": "integer"}}}

OPENAPI = {
    "openapi": "3.1.0",
    "info": {"title": "hashikit web API", "version": __version__,
             "description": "The JSON API behind `hashikit serve`. Every endpoint takes and answers JSON; "
                            "rows and columns are 0-based. Bad input answers 4xx with `{\"error\": message}`. "
                            f"Boards are limited to {MAX_SIDE}x{MAX_SIDE}, request bodies to {MAX_BODY} bytes, "
                            f"a solve to {SOLVE_TIME_LIMIT:g} s, a generate to {GENERATE_TIME_LIMIT:g} s."},
    "paths": {
        "/api/parse": _post(
            "Read puzzle text",
            "Reads grid text, a Tatham game ID, a puzz.link URL, JSON or any other readable hashikit "
            "format (guessed from the content unless `format` names it). Text only: a path is not opened.",
            {"type": "object", "required": ["text"],
             "properties": {"text": {"type": "string"},
                            "format": {"type": "string", "description": "e.g. grid, tatham, puzzlink, json"}}},
            {"type": "object", "properties": {"puzzle": _schema_ref("Puzzle"), "bridges": _BRIDGES}}),
        "/api/solve": _post(
            "Solve a puzzle",
            f"Solves exactly and looks for a second solution. Status `unknown` after {SOLVE_TIME_LIMIT:g} s.",
            {"type": "object", "required": ["puzzle"], "properties": {"puzzle": _schema_ref("Puzzle")}},
            {"type": "object", "properties": {
                "status": {"enum": ["solved", "infeasible", "unknown"]}, "bridges": _BRIDGES,
                "unique": {"type": ["boolean", "null"]}, "second": _BRIDGES,
                "reason": {"type": "string"}, "message": {"type": "string"}}}),
        "/api/check": _post(
            "Check a board",
            "`complete`: every rule holds. `valid` and `violations`: only the rules a board still being "
            "played can break (bridges not on a free straight line, too many bridges on one pair, "
            "crossings, an island over its number).",
            {"type": "object", "required": ["puzzle", "bridges"],
             "properties": {"puzzle": _schema_ref("Puzzle"), "bridges": _BRIDGES}},
            {"type": "object", "properties": {
                "valid": {"type": "boolean"}, "complete": {"type": "boolean"},
                "violations": {"type": "array", "items": {"type": "object", "properties": {
                    "rule": {"type": "string"}, "message": {"type": "string"}, "cells": _CELLS}}}}}),
        "/api/hint": _post(
            "Next deduction",
            "As `hashikit hint --state`: `conflict` (with `problems`) when the board breaks a rule or holds a "
            "bridge the unique solution lacks, `complete`, `hint` (the next step: `sentence`, the `islands` "
            "and `links` it is about, `changes` as [r1, c1, r2, c2, lo, hi]) or `stuck`.",
            {"type": "object", "required": ["puzzle"],
             "properties": {"puzzle": _schema_ref("Puzzle"), "bridges": _BRIDGES}},
            {"type": "object", "properties": {
                "status": {"enum": ["hint", "conflict", "complete", "stuck"]}, "sentence": {"type": "string"},
                "level": {"type": "string"}, "rule": {"type": "string"},
                "islands": _CELLS, "links": _CELLS, "changes": _CELLS,
                "problems": {"type": "array", "items": {"type": "string"}}}}),
        "/api/generate": _post(
            "Generate a unique puzzle",
            f"A unique puzzle graded at `difficulty`. 503 with `status: timeout` when none is found in "
            f"{GENERATE_TIME_LIMIT:g} s, `status: busy` while {MAX_GENERATING} others are being generated.",
            {"type": "object", "properties": {
                "rows": {"type": "integer", "minimum": 3, "maximum": MAX_GENERATE_SIDE, "default": 7},
                "cols": {"type": "integer", "minimum": 3, "maximum": MAX_GENERATE_SIDE},
                "difficulty": {"enum": ["easy", "medium", "hard", "expert"], "default": "medium"},
                "seed": {"type": "integer", "minimum": 0}}},
            {"type": "object", "properties": {"puzzle": _schema_ref("Puzzle"), "grade": {"type": "string"},
                                              "score": {"type": "integer"}, "seed": {"type": "integer"}}},
            {"503": {"description": "no puzzle found in time, or the server is busy generating",
                     "content": {"application/json": {"schema": _schema_ref("Error")}}}}),
    },
    "components": {"schemas": {
        "Puzzle": {"type": "object", "required": ["rows", "cols", "islands"], "properties": {
            "rows": {"type": "integer"}, "cols": {"type": "integer"},
            "maxbridges": {"type": "integer", "default": 2},
            "islands": {"type": "array", "description": "[row, col, number]",
                        "items": {"type": "array", "items": {"type": "integer"}, "minItems": 3, "maxItems": 3}},
            "ignore": {"type": "array", "description": "[row, col] of islands left out of play",
                       "items": {"type": "array", "items": {"type": "integer"}}}}},
        "Error": {"type": "object", "properties": {"error": {"type": "string"}}},
    }},
}
