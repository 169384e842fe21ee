"""Who runs, who waits and who is refused on the web server (``limits.Admission``).

- A **client** is an address: the peer's, or, when the peer is a trusted proxy, the last address
  its ``X-Forwarded-For`` names that is not a trusted proxy itself (:func:`client_of`).
- :class:`ClientGate` lets each client have at most ``client_at_once`` API requests in flight;
  one more is answered 429 before its body is read.
- Work waits for a **lane**: ``light`` (boards within the light size), ``heavy`` (larger boards
  and pictures) and ``generate``, each running ``at_once`` requests on workers of its own.  A lane
  keeps at most ``queue_length`` requests waiting, each at most ``queue_wait`` seconds: past
  either, 503 with Retry-After.  A freed slot goes to the waiting request whose client runs the
  fewest in that lane, the oldest first among equals, and a full queue makes room for a client
  with less in it by pushing out the newest waiter of the client with the most: one client's
  burst never queues ahead of everyone else, nor keeps them out.
- Heavy work (the heavy and generate lanes) is limited per client too: ``client_heavy_at_once`` at
  once and ``client_heavy_per_minute`` in any minute; past either, 429 with Retry-After.

Everything here runs on the server's event loop (one thread): no locks.
"""

from __future__ import annotations

import asyncio
import collections
import ipaddress
import math
import time
from contextlib import asynccontextmanager

from ..limits import Admission

#: the lanes, in the words /api/limits uses
LIGHT, HEAVY, GENERATE = "light", "heavy", "generate"
#: clients remembered for their heavy requests of the last minute, before the stale ones are dropped
_FORGET_AFTER = 4096


class Refused(Exception):
    """A request that is not run: ``code`` 503 (the server is busy) or 429 (this client asks too
    much), with the seconds after which to try again."""

    def __init__(self, code: int, message: str, retry_after: float, status: str):
        super().__init__(message)
        self.code, self.message, self.status = code, message, status
        self.retry_after = max(1, math.ceil(retry_after))

    def headers(self) -> dict[str, str]:
        return {"retry-after": str(self.retry_after)}

    def body(self) -> dict:
        return {"error": self.message, "status": self.status}


# -- the client ------------------------------------------------------------------------------
def proxies(addresses) -> tuple:
    """Trusted proxies (addresses or networks, e.g. ``127.0.0.1``, ``10.0.0.0/8``) as networks;
    ValueError names one that is neither."""
    out = []
    for text in addresses or ():
        try:
            out.append(ipaddress.ip_network(str(text).strip(), strict=False))
        except ValueError:
            raise ValueError(f"not an address or a network: {text!r}") from None
    return tuple(out)


def _trusted(address: str, trusted: tuple) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in net for net in trusted)


def client_of(scope, trusted: tuple = ()) -> str:
    """The address a request comes from: the peer's, unless the peer is a trusted proxy; then the
    last address in ``X-Forwarded-For`` (which each proxy extends with its own peer) that is not
    a trusted proxy, read from the right, so that no client can name itself by sending the header."""
    peer = (scope.get("client") or ("unknown", 0))[0]
    if not trusted or not _trusted(peer, trusted):
        return peer
    hops = []
    for name, value in scope.get("headers", ()):
        if name == b"x-forwarded-for":
            hops += [hop.strip() for hop in value.decode("latin-1").split(",") if hop.strip()]
    for hop in reversed(hops):
        if not _trusted(hop, trusted):
            return hop[:64]
    return peer


# -- lanes -----------------------------------------------------------------------------------
class _Waiter:
    __slots__ = ("client", "since", "granted")

    def __init__(self, client: str, granted: asyncio.Future):
        self.client, self.since, self.granted = client, time.monotonic(), granted


class Lane:
    """``at_once`` slots, and a queue of at most ``queue_length`` waiting requests."""

    def __init__(self, name: str, at_once: int, queue_length: int):
        self.name, self.at_once, self.queue_length = name, at_once, queue_length
        self.free = at_once
        self.waiting: list[_Waiter] = []
        self.running: collections.Counter[str] = collections.Counter()

    async def enter(self, client: str, wait: float) -> None:
        """Take a slot for ``client``, waiting at most ``wait`` seconds; :class:`Refused` (503)
        when the queue is full or the wait runs out.  A full queue makes room for a client that
        has less in this lane than another by pushing out that one's newest waiter (503): a
        crowd of one client's requests never keeps the others out."""
        if self.free > 0 and not self.waiting:
            self._grant(client)
            return
        if len(self.waiting) >= self.queue_length:
            self._push_out(client)
        waiter = _Waiter(client, asyncio.get_running_loop().create_future())
        self.waiting.append(waiter)
        try:
            await asyncio.wait_for(asyncio.shield(waiter.granted), wait)
        except asyncio.TimeoutError:
            pass
        except Refused:
            raise  # pushed out of the queue
        except BaseException:  # cancelled (the server stops, the client went): give back what was granted
            if waiter in self.waiting:
                self.waiting.remove(waiter)
            elif waiter.granted.done() and not waiter.granted.cancelled() and waiter.granted.exception() is None:
                self.leave(client)
            raise
        if waiter.granted.done():
            if waiter.granted.exception() is not None:
                raise waiter.granted.exception()
            return
        self.waiting.remove(waiter)
        raise self._busy(f"no worker came free within {wait:g} s")

    def _share(self, client: str) -> int:
        """What ``client`` has in this lane: running and waiting."""
        return self.running[client] + sum(1 for w in self.waiting if w.client == client)

    def _push_out(self, client: str) -> None:
        """Room in a full queue for ``client``: the newest waiter of the client with the most in this
        lane leaves it (503), if that client has more than one more than ``client``; else
        :class:`Refused` for ``client`` itself."""
        victim = max(reversed(self.waiting), key=lambda w: self._share(w.client))
        if self._share(victim.client) <= self._share(client) + 1:
            raise self._busy(f"{len(self.waiting)} requests are waiting already")
        self.waiting.remove(victim)
        victim.granted.set_exception(self._busy(f"{len(self.waiting) + 1} requests are waiting, this client's "
                                                f"among the most"))

    def leave(self, client: str) -> None:
        self.running[client] -= 1
        if self.running[client] <= 0:
            del self.running[client]
        self.free += 1
        self._dispatch()

    def _grant(self, client: str) -> None:
        self.free -= 1
        self.running[client] += 1

    def _dispatch(self) -> None:
        while self.free > 0 and self.waiting:
            waiter = min(self.waiting, key=lambda w: (self.running[w.client], w.since))
            self.waiting.remove(waiter)
            self._grant(waiter.client)
            waiter.granted.set_result(True)

    def _busy(self, why: str) -> Refused:
        return Refused(503, f"the server is busy ({self.name} work: {self.at_once} running, {why}); "
                            f"try again in a moment", 1.0, "busy")


class Gatekeeper:
    """The lanes and the per-client heavy limits of one app."""

    def __init__(self, settings: Admission, generate_at_once: int):
        self.settings = settings
        self.lanes = {LIGHT: Lane(LIGHT, settings.light_at_once, settings.queue_length),
                      HEAVY: Lane(HEAVY, settings.heavy_at_once, settings.queue_length),
                      GENERATE: Lane(GENERATE, generate_at_once, settings.queue_length)}
        self.heavy_now: collections.Counter[str] = collections.Counter()
        self.heavy_started: dict[str, collections.deque] = {}

    def lane_for(self, cost, body: int = 0) -> str:
        """The lane of a request that declared ``cost`` (a :class:`hashikit.service.Cost`) and came in a
        body of ``body`` bytes."""
        s = self.settings
        return LIGHT if cost.light(s.light_cells, s.light_islands) and body <= s.light_bytes else HEAVY

    def refuse_heavy(self, client: str) -> None:
        """:class:`Refused` (429) if ``client`` may start no heavy request now (the gate's early look,
        before a body known to be heavy is read); the slot's own check follows all the same."""
        self._admit_heavy(client)

    async def admit(self, client: str, lane: str) -> tuple[str, str]:
        """A slot of ``lane`` for ``client``, once it is its turn: the ticket to :meth:`release`;
        :class:`Refused` (429 or 503) instead.  Cancelled while it waits, it holds nothing."""
        heavy = lane != LIGHT
        if heavy:
            self._admit_heavy(client)
            self.heavy_now[client] += 1
        try:
            await self.lanes[lane].enter(client, self.settings.queue_wait)
        except BaseException:
            if heavy:
                self._heavy_done(client)
            raise
        if heavy:
            self.heavy_started.setdefault(client, collections.deque()).append(time.monotonic())
        return client, lane

    def release(self, ticket: tuple[str, str]) -> None:
        client, lane = ticket
        self.lanes[lane].leave(client)
        if lane != LIGHT:
            self._heavy_done(client)

    @asynccontextmanager
    async def slot(self, client: str, lane: str):
        """Run the body in a slot of ``lane`` for ``client``; :class:`Refused` (429 or 503) before."""
        ticket = await self.admit(client, lane)
        try:
            yield
        finally:
            self.release(ticket)

    def _heavy_done(self, client: str) -> None:
        self.heavy_now[client] -= 1
        if self.heavy_now[client] <= 0:
            del self.heavy_now[client]

    def _admit_heavy(self, client: str) -> None:
        s = self.settings
        if self.heavy_now[client] >= s.client_heavy_at_once:
            raise Refused(429, f"this client runs {self.heavy_now[client]} heavy requests (large boards, pictures, "
                               f"generations) already, the most at once; wait for its answer", s.queue_wait,
                          "limited")
        now = time.monotonic()
        started = self.heavy_started.get(client)
        if started is not None:
            while started and started[0] <= now - 60.0:
                started.popleft()
            if len(started) >= s.client_heavy_per_minute:
                raise Refused(429, f"this client sent {len(started)} heavy requests (large boards, pictures, "
                                   f"generations) in the last minute, the most allowed",
                              started[0] + 60.0 - now, "limited")
        if len(self.heavy_started) > _FORGET_AFTER:
            self._forget(now)

    def _forget(self, now: float) -> None:
        for client in [c for c, d in self.heavy_started.items() if not d or d[-1] <= now - 60.0]:
            del self.heavy_started[client]


# -- the gate: requests in flight per client --------------------------------------------------
#: the endpoints whose work is always heavy (a picture, a generation)
ALWAYS_HEAVY = frozenset({"/api/read-picture", "/api/generate"})


class ClientGate:
    """ASGI middleware for the API's POST endpoints (``paths``): names the request's client
    (``scope["state"]["client"]``) and lets each client have at most ``at_once`` such requests in
    flight; one more is answered 429 with Retry-After at once, before its body is read.  So is a
    request known to be heavy before it is read (its endpoint's, or its body's declared length over
    ``light_bytes``) from a client at its heavy limit (``gate``)."""

    def __init__(self, app, at_once: int, trusted: tuple = (), paths: frozenset = frozenset(),
                 gate: "Gatekeeper | None" = None):
        self.app, self.at_once, self.trusted, self.paths, self.gate = app, at_once, trusted, paths, gate
        self.in_flight: collections.Counter[str] = collections.Counter()

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope["method"] != "POST" or scope["path"] not in self.paths:
            return await self.app(scope, receive, send)
        client = client_of(scope, self.trusted)
        scope.setdefault("state", {})["client"] = client
        refused = None
        if self.in_flight[client] >= self.at_once:
            refused = Refused(429, f"this client has {self.at_once} requests in flight already, the most at once; "
                                   f"wait for their answers", 1.0, "limited")
        elif self.gate is not None and self._heavy(scope):
            try:
                self.gate.refuse_heavy(client)
            except Refused as exc:
                refused = exc
        if refused is not None:
            from starlette.responses import JSONResponse

            response = JSONResponse(refused.body(), status_code=429, headers=refused.headers())
            return await response(scope, receive, send)
        self.in_flight[client] += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.in_flight[client] -= 1
            if self.in_flight[client] <= 0:
                del self.in_flight[client]

    def _heavy(self, scope) -> bool:
        if scope["path"] in ALWAYS_HEAVY:
            return True
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                return value.isdigit() and int(value) > self.gate.settings.light_bytes
        return False
