"""How ``hashikit serve`` runs the app: uvicorn in a production configuration, with the read
timeouts uvicorn lacks.

uvicorn closes a connection idle between requests (``timeout_keep_alive``) and answers 503 past a
number of connections and requests (``limit_concurrency``), but it reads a request's headers and
body with no time limit: a client that sends them a byte at a time holds its connection for ever
(slowloris), and every byte it sends resets the keep-alive timer.  :func:`protocol` adds, on
uvicorn's own HTTP/1.1 protocol (h11):

- the request's headers must arrive within ``header_timeout`` seconds of the connection's start
  (or of the end of the answer before, on a kept-alive connection), its body within
  ``body_timeout`` of its headers (the app answers 408 at that moment; the connection is closed a
  second later if it has not been); a byte more does not reset either clock;
- a client address may hold ``client_connections`` connections open; one more is answered 429
  and closed at once (a trusted proxy's connections are not counted: the proxy holds everyone's).

The settings are ``limits.Admission``'s, stated in ``/api/limits``.
"""

from __future__ import annotations

import collections

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from ..limits import Admission
from .admission import _trusted

#: seconds past the body timeout after which the connection is closed if the app has not answered
_BACKSTOP = 1.0
#: seconds a refused connection stays open at most for its client to read the refusal (it is closed
#: as soon as the client closes its side)
_LINGER = 2.0


def _refusal(retry_after: int) -> bytes:
    body = (b'{"error":"this client has too many connections open; close some, or wait for their answers",'
            b'"status":"limited"}')
    return (b"HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\nconnection: close\r\n"
            b"retry-after: " + str(retry_after).encode() + b"\r\ncontent-length: " + str(len(body)).encode()
            + b"\r\n\r\n" + body)


def protocol(settings: Admission, trusted: tuple = ()) -> type:
    """uvicorn's h11 protocol with the header and body timeouts and the per-client connection limit
    of ``settings``; the connections are counted per server (each call makes a new count)."""
    open_by_client: collections.Counter[str] = collections.Counter()

    class Protocol(H11Protocol):
        _peer: str | None = None
        _phase: str | None = None
        _timer = None
        _refused = False

        def connection_made(self, transport) -> None:
            super().connection_made(transport)
            peer = self.client[0] if self.client else None
            if peer is not None and not _trusted(peer, trusted):
                if open_by_client[peer] >= settings.client_connections:
                    self._refuse()
                    return
                self._peer = peer
                open_by_client[peer] += 1
            self._expect("headers")

        def _refuse(self) -> None:
            """Answer 429 before the request is read, and close once the client has had time to
            read it (what it sends meanwhile is dropped: closing with it unread would reset the
            connection, and the client might never see the answer)."""
            self._refused = True
            self.connections.discard(self)  # not counted against the server's own limit
            self.transport.write(_refusal(max(1, round(settings.keep_alive))))
            if self.transport.can_write_eof():
                self.transport.write_eof()
            self.loop.call_later(_LINGER, self.transport.close)

        def data_received(self, data: bytes) -> None:
            if not self._refused:
                super().data_received(data)

        def eof_received(self):
            if self._refused:
                self.transport.close()
            return super().eof_received()

        def connection_lost(self, exc) -> None:
            self._expect(None)
            if self._peer is not None:
                open_by_client[self._peer] -= 1
                if open_by_client[self._peer] <= 0:
                    del open_by_client[self._peer]
                self._peer = None
            super().connection_lost(exc)

        def handle_events(self) -> None:
            super().handle_events()
            self._follow()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._follow()

        def _follow(self) -> None:
            """Set the clock by what the client owes: headers, a body, or nothing (its request is in)."""
            if self.transport.is_closing():
                self._expect(None)
                return
            state = self.conn.their_state
            self._expect("headers" if state is h11.IDLE else "body" if state is h11.SEND_BODY else None)

        def _expect(self, phase: str | None) -> None:
            if phase == self._phase:
                return
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            self._phase = phase
            if phase is not None:
                seconds = settings.header_timeout if phase == "headers" else settings.body_timeout + _BACKSTOP
                self._timer = self.loop.call_later(seconds, self._too_slow)

        def _too_slow(self) -> None:
            self._timer = None
            if not self.transport.is_closing():
                self.logger.info("closed a connection from %s: its request's %s did not arrive in time",
                                 self.client[0] if self.client else "?", self._phase)
                self.transport.close()

    Protocol.__name__ = Protocol.__qualname__ = "TimedH11Protocol"
    return Protocol


def config(app, settings: Admission, trusted: tuple = (), **kwargs):
    """The uvicorn configuration ``hashikit serve`` runs ``app`` with: the protocol above, idle
    connections closed after ``keep_alive`` s, at most ``connections`` connections and requests at
    once (more: 503), and no proxy headers read by uvicorn (the app reads ``X-Forwarded-For`` from
    its trusted proxies only).  ``kwargs`` go to ``uvicorn.Config`` (host, port, log_level, ...)."""
    import uvicorn

    return uvicorn.Config(app, http=protocol(settings, trusted), timeout_keep_alive=settings.keep_alive,
                          limit_concurrency=settings.connections, proxy_headers=False, server_header=False,
                          **{"log_level": "warning", **kwargs})
