"""One request to an ASGI app as a server would make it, for the tests that watch what an app does
when its client goes away or before it reads a body: the scope, and a receive that hands over the
body, then the disconnect once it has happened (at once from then on, as a server's does)."""

from __future__ import annotations

import asyncio
import time


def post_scope(path: str, body: bytes, client: str = "127.0.0.1") -> dict:
    return {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http",
            "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
            "client": (client, 5000), "server": ("testserver", 80),
            "headers": [(b"host", b"testserver"), (b"content-type", b"application/json"),
                        (b"content-length", str(len(body)).encode())]}


def receiver(body: bytes, leave_after: float | None = None, read: list | None = None):
    """A receive: the body, then ``http.disconnect`` ``leave_after`` seconds from now (None: not for
    a minute); ``read`` gets the body each time the app reads it."""
    first, leave_at = True, time.monotonic() + (60 if leave_after is None else leave_after)

    async def receive():
        nonlocal first
        if first:
            first = False
            if read is not None:
                read.append(body)
            return {"type": "http.request", "body": body, "more_body": False}
        if time.monotonic() < leave_at:
            await asyncio.sleep(leave_at - time.monotonic())
        return {"type": "http.disconnect"}

    return receive


def sender(sent: list):
    async def send(message):
        sent.append(message)

    return send
