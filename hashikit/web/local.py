"""The page's questions answered in this process, without a server: the page that ``hashikit site``
writes runs this module in a Web Worker (Python in the browser, Pyodide), and its ``server.js``
(the site's own, in place of the served page's) asks it what the served page asks ``web/app.py``.

Each call takes the JSON body the page sends the server and answers the JSON the server answers,
from the server's own jobs (:mod:`.jobs`: the request's JSON read, its use-case run, its answer
as JSON) under :data:`hashikit.limits.SITE`: boards up to its sides, generation up to
``SITE_GENERATE_MAX_SIDE`` at the easiest ``SITE_LEVEL_COUNT`` levels.  Beyond them, where the
server would take the request (``limits.WEB``; the jobs' :class:`~.jobs.NeedsServer`), the answer
is an error whose status is ``needs-server``: the page then asks a hashikit server if one answers
it, and says the feature needs one otherwise.  What the server's request models check (the
fields) is checked here.  The solver is the engine python-sat's absence leaves (``search``, pure
Python); the generator proves each puzzle unique with it.

:func:`answer` is the one way in: a call's name and its JSON body as text, and the answer as
text: ``{"ok": answer}`` or ``{"error": message, "code": HTTP status, "status": kind}``.
Nothing here imports a web framework, pydantic or anything Python in the browser lacks.
"""

from __future__ import annotations

import json

from ..errors import BadArgument, HashikitError
from ..limits import SITE, SITE_GENERATE_MAX_SIDE, SITE_GENERATE_TIME_LIMIT, SITE_LEVEL_COUNT, \
    WEB_GENERATE_MAX_SIDE, Deadline
from ..model import LEVELS
from ..service import BadInput, OutOfTime
from . import jobs

#: the levels this page generates itself
LEVELS_HERE = LEVELS[:SITE_LEVEL_COUNT]
NEEDS_SERVER = "needs-server"


class Refused(Exception):
    """An answer other than 200: the HTTP status the server would give, and a kind."""

    def __init__(self, code: int, message: str, status: str | None = None):
        super().__init__(message)
        self.code, self.message, self.status = code, message, status


def _needs_server(message: str) -> Refused:
    return Refused(400, f"{message}: that needs a hashikit server, and none answers this page",
                   NEEDS_SERVER)


def _fields(body: dict, allowed: tuple[str, ...], required: tuple[str, ...] = ()) -> None:
    """What the server's request models check before a job runs: no field they lack, none missing."""
    for name in body:
        if name not in allowed:
            raise BadInput(f'"{name}" is not a field of this request')
    for name in required:
        if name not in body:
            raise BadInput(f'the request has no "{name}"')


def _deadline() -> Deadline:
    return Deadline.after(SITE.default_time_limit)


def parse(body: dict) -> dict:
    _fields(body, ("text", "format"), ("text",))
    text, fmt = body["text"], body.get("format")
    if not isinstance(text, str) or (fmt is not None and not isinstance(fmt, str)):
        raise BadInput('"text" and "format" are text')
    if not text.strip():
        raise BadInput('"text" is empty')
    return jobs.parse(text, fmt, SITE)


def solve(body: dict) -> dict:
    _fields(body, ("puzzle",), ("puzzle",))
    return jobs.solve(body["puzzle"], _deadline(), SITE)


def check(body: dict) -> dict:
    _fields(body, ("puzzle", "bridges", "marks"), ("puzzle", "bridges"))
    return jobs.check(body["puzzle"], body["bridges"], body.get("marks"), SITE)


def hint(body: dict) -> dict:
    _fields(body, ("puzzle", "bridges", "marks"), ("puzzle",))
    return jobs.hint(body["puzzle"], body.get("bridges"), body.get("marks"), _deadline(), SITE)


def analyze(body: dict) -> dict:
    _fields(body, ("puzzle",), ("puzzle",))
    return jobs.analyze(body["puzzle"], _deadline(), SITE)


def convert(body: dict) -> dict:
    _fields(body, ("puzzle", "format", "bridges", "marks"), ("puzzle", "format"))
    return jobs.convert(body["puzzle"], body.get("bridges"), body["format"], SITE)


def generate(body: dict) -> dict:
    """A unique puzzle graded at the level asked, within this page's sides and levels."""
    from ..spec import GenerateSpec

    try:
        spec = GenerateSpec(**body)
    except TypeError as exc:
        raise BadInput(f"not a field of this request: {exc}") from None
    try:
        spec.validate(WEB_GENERATE_MAX_SIDE)
    except BadArgument as exc:
        raise BadInput(str(exc)) from None
    rows, cols = spec.size
    if max(rows, cols) > SITE_GENERATE_MAX_SIDE:
        raise _needs_server(f"this page generates boards up to {SITE_GENERATE_MAX_SIDE}x{SITE_GENERATE_MAX_SIDE}")
    if spec.difficulty not in LEVELS_HERE:
        raise _needs_server(f"this page generates {', '.join(LEVELS_HERE)} puzzles, not {spec.difficulty}")
    try:
        return jobs.generate(spec, Deadline.after(SITE_GENERATE_TIME_LIMIT))
    except OutOfTime as exc:
        raise Refused(503, f"no {spec.difficulty} {rows}x{cols} puzzle found within {SITE_GENERATE_TIME_LIMIT:g} s "
                           f"({exc}); try again, or a smaller board", "timeout") from None


def _refused(exc: Refused) -> str:
    return json.dumps({"error": exc.message, "code": exc.code, "status": exc.status})


CALLS = {"parse": parse, "solve": solve, "check": check, "hint": hint, "analyze": analyze,
         "convert": convert, "generate": generate}


def answer(name: str, body_text: str) -> str:
    """The answer to the call ``name`` with the JSON body ``body_text``, as JSON text."""
    try:
        call = CALLS.get(name)
        if call is None:
            raise Refused(404, f"no such call: {name}")
        try:
            body = json.loads(body_text)
        except ValueError as exc:
            raise BadInput(f"the request body is not valid JSON: {exc}") from None
        if not isinstance(body, dict):
            raise BadInput("the request body must be a JSON object ({...})")
        return json.dumps({"ok": call(body)})
    except jobs.NeedsServer as exc:
        return _refused(_needs_server(str(exc)))
    except Refused as exc:
        return _refused(exc)
    except (HashikitError, ValueError) as exc:
        return json.dumps({"error": str(exc), "code": 400, "status": None})
    except (TypeError, KeyError, IndexError, AttributeError, RecursionError) as exc:
        # a body whose parts are not of the API's shapes (the server's request models refuse them)
        return json.dumps({"error": f"the request does not match the API ({type(exc).__name__}: {exc})",
                           "code": 400, "status": None})
    except MemoryError:
        return json.dumps({"error": "the request needs more memory than this page has", "code": 400, "status": None})
