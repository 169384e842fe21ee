"""The web app's guards at the door, before any endpoint runs: the request body (JSON, its size,
its arrival in time), the security headers of every answer, and the words of a refusal
(:class:`ApiError`, and pydantic's complaints as one line naming the field)."""

from __future__ import annotations

import asyncio
import json

from fastapi.exceptions import RequestValidationError
from starlette.responses import JSONResponse, Response

#: the status of an answer nobody waits for any more (the client disconnected; nginx's 499)
CLIENT_GONE = 499


class ApiError(Exception):
    """An answer with a 4xx/5xx status and ``{"error": message}``."""

    def __init__(self, code: int, message: str, **extra):
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = extra


# -- body guard: 415, 413 and malformed JSON before any route runs --------------------------
class BodyGuard:
    """For the API's POST endpoints (``paths``): JSON content type (415), the body cap (413, also
    without a Content-Length), the whole body within ``timeout`` seconds (408, and the connection
    closed), UTF-8 and a JSON object (400); then hands the body on unchanged.  Other paths and
    methods go on to the router (404, 405)."""

    def __init__(self, app, max_body: int, paths: frozenset, timeout: float):
        self.app, self.max_body, self.paths, self.timeout = app, max_body, paths, timeout

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope["method"] != "POST" or scope["path"] not in self.paths:
            return await self.app(scope, receive, send)
        try:
            body = await self._read(scope, receive)
        except ApiError as exc:
            headers = {"connection": "close"} if exc.code == 408 else None
            response = JSONResponse({"error": exc.message}, status_code=exc.code, headers=headers)
            return await response(scope, receive, send)
        sent = False

        async def replay():
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": bytes(body), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _read(self, scope, receive) -> bytearray:
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        ctype = headers.get("content-type", "").split(";")[0].strip().lower()
        if ctype != "application/json":
            raise ApiError(415, "send the request body as JSON with 'Content-Type: application/json'")
        declared = headers.get("content-length")
        if declared is not None:
            try:
                size = int(declared)
            except ValueError:
                raise ApiError(400, "the Content-Length header is not a number") from None
            if size > self.max_body:
                raise ApiError(413, f"the request body is {size} bytes; the limit is {self.max_body}")
        body = bytearray()
        end = asyncio.get_running_loop().time() + self.timeout
        while True:
            try:
                message = await asyncio.wait_for(receive(), max(0.0, end - asyncio.get_running_loop().time()))
            except asyncio.TimeoutError:
                raise ApiError(408, f"the request body did not arrive within {self.timeout:g} s") from None
            if message["type"] == "http.disconnect":
                raise ApiError(CLIENT_GONE, "the client went away before its request arrived")
            body += message.get("body", b"")
            if len(body) > self.max_body:
                raise ApiError(413, f"the request body is larger than the limit of {self.max_body} bytes")
            if not message.get("more_body"):
                break
        validate_json(bytes(body))
        scope.setdefault("state", {})["body_bytes"] = len(body)
        return body


def validate_json(body: bytes) -> None:
    """400 for a body that is empty, not UTF-8, not JSON, or not a JSON object."""
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


def validation_message(exc: RequestValidationError) -> str:
    """Pydantic's first complaint as one line naming the field, e.g. ``"puzzle"."rows": ...``."""
    errors = exc.errors()
    if not errors:
        return "the request does not match the API"
    err = errors[0]
    loc = [str(p) for p in err.get("loc", ()) if p != "body"]
    where = ".".join(f'"{p}"' if not p.isdigit() else f"[{p}]" for p in loc) or "the request"
    msg = err.get("msg", "invalid")
    if err.get("type") == "missing":
        return f"the request has no {where}"
    if err.get("type") == "extra_forbidden":
        return f"{where} is not a field of this request"
    return f"{where}: {msg}" + (f" ({len(errors) - 1} more problems)" if len(errors) > 1 else "")


class RootSlash:
    """Behind a reverse proxy at a path (``hashikit serve --root-path /hashi``), the page's own
    address ``/hashi`` goes to ``/hashi/`` (where its relative addresses resolve), by a relative
    redirect: the player's own host and scheme, never the address the server binds."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        root = scope.get("root_path", "") if scope["type"] == "http" else ""
        if root and scope["path"] == root and scope["method"] in ("GET", "HEAD"):
            query = scope.get("query_string", b"").decode("latin-1")
            where = root.rsplit("/", 1)[-1] + "/" + (f"?{query}" if query else "")
            return await Response(status_code=307, headers={"location": where})(scope, receive, send)
        return await self.app(scope, receive, send)
