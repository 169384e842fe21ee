"""Every limit hashikit enforces, in one place; the README's "Limits" section, the CLI's help
and the web API's OpenAPI description are built from (or checked against) these numbers.

The model itself accepts any MAXBRIDGES >= 1 and any board; these are the caps that the
*entry points* (readers, the CLI, the web API, library calls that read files) enforce,
refusing input above them with a clear error (exit 2 / HTTP 400) before any work starts.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    #: longest board side (rows or columns)
    max_side: int
    #: most cells (rows x cols)
    max_cells: int
    #: most islands
    max_islands: int
    #: largest MAXBRIDGES (numbers then go up to 4 x this)
    max_maxbridges: int
    #: most bytes of input text
    max_input_bytes: int
    #: longest time limit a caller may ask for, in seconds (None: unbounded)
    max_time_limit: float | None
    #: the time limit used when the caller gives none (None: no limit)
    default_time_limit: float | None


#: the command line and library readers
CLI = Limits(max_side=10_000, max_cells=4_000_000, max_islands=1_000_000, max_maxbridges=64,
             max_input_bytes=64 * 1024 * 1024, max_time_limit=None, default_time_limit=None)

#: the web API (per request)
WEB = Limits(max_side=60, max_cells=3_600, max_islands=3_600, max_maxbridges=8,
             max_input_bytes=1_000_000, max_time_limit=10.0, default_time_limit=10.0)

#: web: the largest generated board side, the generate time limit, and concurrent generations
WEB_GENERATE_MAX_SIDE = 25
WEB_GENERATE_TIME_LIMIT = 20.0
WEB_MAX_GENERATING = 2
#: seconds allowed past a time limit before an answer is late (process start-up, clean-up)
TIME_MARGIN = 1.0


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
    from dataclasses import fields

    out = ["| cap | command line and library readers (`limits.CLI`) | web API (`limits.WEB`) |",
           "|---|---|---|"]
    for f in fields(Limits):
        out.append(f"| {_WHAT[f.name]} | {_number(getattr(CLI, f.name))} | {_number(getattr(WEB, f.name))} |")
    out.append(f"| generated board side | | {WEB_GENERATE_MAX_SIDE} |")
    out.append(f"| generate time limit | | {_number(WEB_GENERATE_TIME_LIMIT)} |")
    out.append(f"| generations at once | | {WEB_MAX_GENERATING} |")
    out.append(f"| margin allowed past a time limit | {_number(TIME_MARGIN)} | {_number(TIME_MARGIN)} |")
    return "\n".join(out) + "\n"
