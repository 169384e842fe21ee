"""Every limit hashikit enforces, in one place; the README's "Limits" section, the CLI's help
and the web API's OpenAPI description are built from (or checked against) these numbers.

A :class:`Limits` is a board spec: the sides, cells, islands, MAXBRIDGES and input bytes a board
may have, and :meth:`Limits.problem` is the one check of them, which the model, the readers, the
use-cases' admission, the web and the paper's generator all call.  :data:`MODEL` is what the
model takes from anyone; the entry points (readers, the CLI, the web API, library calls that read
files) enforce :data:`CLI` or :data:`WEB`, refusing input above them with a clear error (exit 2 /
HTTP 400) before any work starts.
"""

from __future__ import annotations

import math
import os
import time

from .records import Record, fields

#: the smallest board side, and the smallest MAXBRIDGES
MIN_SIDE = 1
MIN_MAXBRIDGES = 1
#: the longest board side the model takes from anyone (memory stays sane for hostile input)
MAX_SIDE = 10_000


class Limits(Record, frozen=True):
    #: longest board side (rows or columns)
    max_side: int
    #: most cells (rows x cols)
    max_cells: int
    #: most islands
    max_islands: int
    #: largest MAXBRIDGES (numbers then go up to 4 x this; None: any)
    max_maxbridges: int | None
    #: most bytes of input text (None: any)
    max_input_bytes: int | None
    #: longest time limit a caller may ask for, in seconds (None: unbounded)
    max_time_limit: float | None
    #: the time limit used when the caller gives none (None: no limit)
    default_time_limit: float | None

    def problem(self, rows: int | None = None, cols: int | None = None, *, islands: int | None = None,
                maxbridges: int | None = None, input_bytes: int | None = None) -> str | None:
        """What keeps a board out of these limits, in words that name the limit (None: nothing):
        a side outside ``MIN_SIDE`` to ``max_side`` (one side alone when only one is given), too
        many cells, islands, MAXBRIDGES outside its range, too many input bytes.  A quantity not
        given is not checked.  Each layer raises its own error with these words."""
        top = self.max_side
        if rows is not None and cols is not None:
            if not (MIN_SIDE <= rows <= top and MIN_SIDE <= cols <= top):
                return f"the board is {_short(rows)}x{_short(cols)} (rows x columns); sides run from {MIN_SIDE} to {top:,}"
            if rows * cols > self.max_cells:
                return (f"the board is {rows}x{cols}, {rows * cols:,} cells; the limit is "
                        f"{self.max_cells:,} cells")
        else:
            for count, what in ((rows, "rows"), (cols, "columns")):
                if count is not None and not MIN_SIDE <= count <= top:
                    has = f"more than {top:,}" if count > top else _short(count)
                    return f"the board has {has} {what}; sides run from {MIN_SIDE} to {top:,}"
        if islands is not None and islands > self.max_islands:
            return f"the puzzle has more than {self.max_islands:,} islands, the limit"
        if maxbridges is not None:
            high = self.max_maxbridges
            if maxbridges < MIN_MAXBRIDGES or (high is not None and maxbridges > high):
                return (f"MAXBRIDGES is {_short(maxbridges)}; it runs from {MIN_MAXBRIDGES} to {high}" if high
                        else f"MAXBRIDGES is {_short(maxbridges)}; it is at least {MIN_MAXBRIDGES}")
        if input_bytes is not None and self.max_input_bytes is not None and input_bytes > self.max_input_bytes:
            return f"the input is {input_bytes:,} bytes; the limit is {self.max_input_bytes:,} bytes"
        return None


def _short(n: int) -> str:
    """A whole number for a message; a huge one by its count of digits."""
    return str(n) if abs(n) < 10 ** 12 else f"(a number of {len(str(abs(n)))} digits)"


#: what the model takes from anyone, the library included: sides up to MAX_SIDE, any MAXBRIDGES
MODEL = Limits(max_side=MAX_SIDE, max_cells=MAX_SIDE * MAX_SIDE, max_islands=MAX_SIDE * MAX_SIDE,
               max_maxbridges=None, max_input_bytes=None, max_time_limit=None, default_time_limit=None)

#: the command line and library readers
CLI = Limits(max_side=MAX_SIDE, max_cells=4_000_000, max_islands=1_000_000, max_maxbridges=64,
             max_input_bytes=64 * 1024 * 1024, max_time_limit=None, default_time_limit=None)

#: the web API (per request)
WEB = Limits(max_side=60, max_cells=3_600, max_islands=3_600, max_maxbridges=8,
             max_input_bytes=1_000_000, max_time_limit=10.0, default_time_limit=10.0)

#: the page that needs no server (``hashikit site``): what Python in the browser takes per call; a
#: larger board goes to a hashikit server when one answers the page
SITE = Limits(max_side=25, max_cells=625, max_islands=625, max_maxbridges=4,
              max_input_bytes=1_000_000, max_time_limit=10.0, default_time_limit=10.0)

#: what a request for a generated puzzle may ask, wherever it comes from (``hashikit.spec``, the
#: one rule book of such requests, reads these): the smallest side, MAXBRIDGES (lowest, highest),
#: islands per cell of the default layout (the most, the default), Tatham's layout's islands
#: percent and expansion (lowest, highest; and their defaults, his presets', when a request gives
#: one of them) and the seeds (lowest, highest: 63 bits, as a catalogue stores them)
GENERATE_MIN_SIDE = 2
#: the largest side the command line generates (the web's is WEB_GENERATE_MAX_SIDE)
GENERATE_MAX_SIDE = 1000
GENERATE_MAXBRIDGES = (1, 4)
GENERATE_MAX_DENSITY, GENERATE_DENSITY = 0.5, 0.25
GENERATE_ISLANDS_PERCENT = (1, 30)
GENERATE_EXPANSION = (0, 100)
GENERATE_TATHAM_DEFAULTS = (30, 10)
GENERATE_SEEDS = (0, 2 ** 63 - 1)
#: seconds the command line gives one graded puzzle when ``--time-limit`` is not given
GENERATE_TIME_LIMIT = 120.0

#: web: the largest generated board side, the generate time limit, and concurrent generations
WEB_GENERATE_MAX_SIDE = 25
WEB_GENERATE_TIME_LIMIT = 20.0
WEB_MAX_GENERATING = 2


class Admission(Record, frozen=True):
    """How a web server shares its workers among requests and clients (``hashikit serve``; the
    fields are stated in ``/api/limits``).  Each request that computes declares its cost before it
    runs (board cells and islands, or a picture's pixels from its header); a light one (a board
    within ``light_cells`` and ``light_islands``, sent in at most ``light_bytes``) runs in the light
    lane, on workers of its own,
    every other in the heavy lane, whose workers run at a lower CPU priority.  A request waits in
    its lane's queue at most ``queue_wait`` seconds (then 503 with Retry-After), and its time limit
    counts from when its work starts."""

    #: cells and islands of the largest light board
    light_cells: int
    light_islands: int
    #: the largest request body of light work: reading and parsing more is heavy work whatever it
    #: holds (and a client at its heavy limit is refused such a request before its body is read)
    light_bytes: int
    #: requests each lane runs at once, one worker each (generations have a lane of their own:
    #: ``WEB_MAX_GENERATING``)
    light_at_once: int
    heavy_at_once: int
    #: requests that may wait in one lane (more: 503 at once), and the longest wait, in seconds
    queue_length: int
    queue_wait: float
    #: per client address: requests in flight, heavy requests (pictures and generations included) at
    #: once and in any minute (more: 429 with Retry-After)
    client_at_once: int
    client_heavy_at_once: int
    client_heavy_per_minute: int
    #: slow clients, in seconds: for a request's headers (from the connection's start or the end of
    #: the answer before), for its body (from the end of its headers), and idle between requests
    header_timeout: float
    body_timeout: float
    keep_alive: float
    #: open connections per client address (not counted for a trusted proxy), and in all
    client_connections: int
    connections: int
    #: bytes of address space each worker process may map (``RLIMIT_AS``); a worker that runs out
    #: is replaced and its request answered 503
    worker_memory: int
    #: the largest picture ``/api/read-picture`` decodes, in pixels (its header is read first)
    picture_pixels: int
    #: the most memory the whole server takes (its process and every worker, shared pages counted
    #: once) under any mix of allowed requests: what grows with a request (a picture's pixels, a
    #: large board) runs only on the ``heavy_at_once`` heavy workers, within ``picture_pixels`` and
    #: ``worker_memory``; ``benchmarks/load.py`` measures it under each attack
    server_memory: int

    def longest_wait(self, time_limit: float) -> float:
        """The longest a client waits for an answer to work with ``time_limit``: the queue, the
        work and the margin."""
        return self.queue_wait + time_limit + TIME_MARGIN

#: the page that needs no server: the largest board it generates, how many of the levels
#: (``model.LEVELS``, easiest first) it generates (the hardest needs a hashikit server) and the
#: seconds one generation may take
SITE_GENERATE_MAX_SIDE = 15
SITE_LEVEL_COUNT = 3
SITE_GENERATE_TIME_LIMIT = 20.0
#: seconds allowed past a time limit before an answer is late: the whole command, counted from
#: the process's start (start-up, reading, building, solving, checking, writing and the exit)
TIME_MARGIN = 0.5
#: the web server's admission: light boards up to 25x25 (the largest the page generates), 3 light
#: and 2 heavy requests at once on 2 CPUs' worth of workers, 8 requests in flight per client (a
#: browser opens 6 connections to a server), pictures up to 13 megapixels (a 12 MP phone photo;
#: the reader needs about 20 bytes a pixel)
WEB_ADMISSION = Admission(
    light_cells=625, light_islands=200, light_bytes=65_536, light_at_once=3, heavy_at_once=2, queue_length=16, queue_wait=2.0,
    client_at_once=8, client_heavy_at_once=1, client_heavy_per_minute=30,
    header_timeout=10.0, body_timeout=20.0, keep_alive=5.0, client_connections=16, connections=256,
    worker_memory=1024 * 1024 * 1024, picture_pixels=13_000_000, server_memory=1536 * 1024 * 1024)
#: seconds past the deadline a worker that keeps the deadline itself gets to hand back its own
#: (partial) answer before it is killed
GRACE = TIME_MARGIN / 4
#: seconds past the deadline at which a command stops whatever it is doing (reading, building, a
#: check) and answers "unknown"; the rest of the margin is for writing that answer and the exit
HARD_STOP = TIME_MARGIN / 2
#: seconds the generator's proof of uniqueness gets at least, however little of the limit the
#: search left (a proof cut short throws the puzzle found away; a command's worker is still
#: ended at its own deadline)
PROOF_FLOOR = 0.5


def validate_seconds(value, name: str = "time_limit") -> float:
    """``value`` as a time limit in seconds: a finite number above 0, else ``BadArgument`` (a
    ``ValueError``) naming the value; the one check every layer's time limit goes through."""
    from .errors import BadArgument

    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise BadArgument(f"{name} must be a number of seconds or None, got {value!r}")
    try:
        finite = math.isfinite(value)
    except OverflowError:  # an int too large for a float
        finite = False
    if not finite or value <= 0:
        raise BadArgument(f"{name} must be a positive, finite number of seconds, got {value!r}")
    return float(value)


class Deadline:
    """The instant (``time.monotonic()``) by which an answer is due, made once where the time
    limit is given and passed down: each layer reads :meth:`left` rather than starting a clock
    of its own.  ``seconds`` is the limit as asked (for messages)."""

    __slots__ = ("at", "seconds")

    def __init__(self, at: float, seconds: float):
        self.at, self.seconds = at, seconds

    @classmethod
    def after(cls, seconds, start: float | None = None) -> "Deadline":
        """``seconds`` (checked by :func:`validate_seconds`) after ``start`` (monotonic; default now)."""
        seconds = validate_seconds(seconds)
        return cls((time.monotonic() if start is None else start) + seconds, seconds)

    @classmethod
    def of(cls, limit) -> "Deadline | None":
        """A time limit as a deadline: None stays None, a :class:`Deadline` is itself, a number of
        seconds counts from now."""
        if limit is None or isinstance(limit, Deadline):
            return limit
        return cls.after(limit)

    def capped(self, seconds: float | None) -> "Deadline":
        """This deadline, or ``seconds`` from now if that comes first (None: no cap)."""
        if seconds is None or self.at <= time.monotonic() + seconds:
            return self
        return Deadline.after(seconds)

    def at_least(self, seconds: float) -> "Deadline":
        """This deadline, or ``seconds`` from now if that comes later."""
        if self.at >= time.monotonic() + seconds:
            return self
        return Deadline(time.monotonic() + seconds, self.seconds)

    def left(self) -> float:
        """Seconds until the deadline (0 once it has passed)."""
        return max(0.0, self.at - time.monotonic())

    def expired(self) -> bool:
        return time.monotonic() >= self.at

    def __repr__(self) -> str:
        return f"Deadline({self.seconds:g} s, {self.at - time.monotonic():+.3f} s left)"


def process_start() -> float:
    """The ``time.monotonic()`` instant this process started, so a command's time limit counts
    the interpreter's start-up and imports (Linux: from ``/proc/self/stat``, to the clock tick;
    elsewhere, or when the clocks disagree: now).  Meant for a command's first step."""
    now = time.monotonic()
    try:
        with open("/proc/self/stat", "rb") as fh:
            stat = fh.read()
        ticks = int(stat[stat.rindex(b")") + 2:].split()[19])  # field 22, starttime
        since = time.clock_gettime(time.CLOCK_BOOTTIME) - ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, AttributeError):
        return now
    if not 0.0 <= since <= _BELIEVED_START:  # clocks that disagree (e.g. a time namespace): not believed
        return now
    return now - since


#: the longest start-up :func:`process_start` believes (a command reads it as its first step)
_BELIEVED_START = 60.0


def _number(value) -> str:
    if value is None:
        return "none"
    if isinstance(value, float):
        return f"{value:g} s"
    if value >= 1024 * 1024 and value % (1024 * 1024) == 0:
        return f"{value // (1024 * 1024)} MiB ({value:,} bytes)"
    return f"{value:,}"


#: what each field caps, in the README's words
_WHAT = {
    "max_side": "board side (rows or columns)",
    "max_cells": "board cells (rows x columns)",
    "max_islands": "islands",
    "max_maxbridges": "MAXBRIDGES (island numbers up to 4 x this)",
    "max_input_bytes": "input text, bytes",
    "max_time_limit": "longest time limit a caller may ask for",
    "default_time_limit": "time limit when none is given",
}


def readme_table() -> str:
    """The README's "Limits" table (markdown), made from these numbers."""
    out = ["| cap | command line and library readers (`limits.CLI`) | web API (`limits.WEB`) |",
           "|---|---|---|"]
    for name in fields(Limits):
        out.append(f"| {_WHAT[name]} | {_number(getattr(CLI, name))} | {_number(getattr(WEB, name))} |")
    out.append(f"| generated board side | {GENERATE_MIN_SIDE} to {_number(min(GENERATE_MAX_SIDE, CLI.max_side))} | "
               f"{GENERATE_MIN_SIDE} to {WEB_GENERATE_MAX_SIDE} |")
    mb = f"{GENERATE_MAXBRIDGES[0]} to {GENERATE_MAXBRIDGES[1]}"
    out.append(f"| generated MAXBRIDGES | {mb} | {mb} |")
    density = f"above 0, at most {GENERATE_MAX_DENSITY} (default {GENERATE_DENSITY})"
    out.append(f"| islands per cell of a generated layout | {density} | {density} |")
    out.append(f"| generate time limit | | {_number(WEB_GENERATE_TIME_LIMIT)} |")
    out.append(f"| generations at once | | {WEB_MAX_GENERATING} |")
    out.append(f"| margin allowed past a time limit | {_number(TIME_MARGIN)} | {_number(TIME_MARGIN)} |")
    a = WEB_ADMISSION
    out += [
        f"| a light board (its own workers) | | at most {a.light_cells:,} cells and {a.light_islands:,} islands, "
        f"in a body of at most {a.light_bytes:,} bytes |",
        f"| requests at once: light, heavy | | {a.light_at_once}, {a.heavy_at_once} |",
        f"| requests waiting per lane, longest wait | | {a.queue_length}, {_number(a.queue_wait)} (then 503) |",
        f"| per client: requests in flight | | {a.client_at_once} (then 429) |",
        f"| per client: heavy requests at once, a minute | | {a.client_heavy_at_once}, {a.client_heavy_per_minute} "
        f"(then 429) |",
        f"| headers, body, idle keep-alive (`hashikit serve`) | | {_number(a.header_timeout)}, "
        f"{_number(a.body_timeout)}, {_number(a.keep_alive)} |",
        f"| open connections per client, in all (`hashikit serve`) | | {a.client_connections}, {a.connections} |",
        f"| memory per worker process (address space) | | {_number(a.worker_memory)} |",
        f"| picture pixels (`/api/read-picture`) | | {a.picture_pixels:,} |",
        f"| memory of the whole server (proportional; measured, `benchmarks/results/load.md`) | | "
        f"{_number(a.server_memory)} |",
    ]
    return "\n".join(out) + "\n"
