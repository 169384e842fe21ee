"""Simon Tatham's Bridges game ID: ``WxH[params]:<desc>``, e.g. ``7x7m2:4d2b1b4a26b3m1c3c3c2d3``.

Parameters, as ``bridges.c`` (``decode_params``) reads them, in this order:
``W`` [``x`` ``H``] [``i`` islands%] [``e`` expansion%] [``m`` MAXBRIDGES] [``L`` no loops]
[``d`` difficulty].  A missing ``m`` means MAXBRIDGES 2.  hashikit keeps W, H,
MAXBRIDGES and ``L`` (the no-loops variant, ``Puzzle.no_loops``); generator settings
(i, e, d) are accepted and ignored.

The description runs row-major over the W x H board: ``1``-``9`` and ``A``-``G``
(10-16) are islands, a lowercase letter ``a``-``z`` a run of 1-26 empty cells.
"""

from __future__ import annotations

import re

from ..errors import FormatError
from ..limits import CLI, Limits
from ..model import DEFAULT_MAXBRIDGES, Puzzle, Solution
from . import Document, Format, register
from ._common import build_puzzle, header_line, validate_board, validate_islands, validate_maxbridges, whole_number

_NUM = re.compile(r"\d+", re.ASCII)


def _the_line(text: str, source: str) -> tuple[str, int, int]:
    """The one non-comment line: (stripped text, line number, column of its first char)."""
    found = None
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if found is not None:
            raise FormatError("extra text after the game ID (a Tatham game ID is one line)",
                              source, lineno, len(line) - len(line.lstrip()) + 1)
        found = (line.strip(), lineno, len(line) - len(line.lstrip()) + 1)
    if found is None:
        raise FormatError("no game ID found (the input is empty)", source)
    return found


def _board_size(params: str, source: str, lineno: int, col0: int) -> tuple[int, int, int] | None:
    """``(width, height, end)`` from the start of the parameters (``W`` [``x`` ``H``]), ``end``
    where they stop; None when they do not start with a number."""
    def number(m, what):
        return whole_number(m.group(), what, source, lineno, col0 + m.start())

    m = _NUM.match(params)
    if not m:
        return None
    width = height = number(m, "the board width")
    i = m.end()
    if params[i:i + 1] == "x":
        m = _NUM.match(params, i + 1)
        if not m:
            raise FormatError("'x' must be followed by the board height", source, lineno, col0 + i + 1)
        height, i = number(m, "the board height"), m.end()
    return width, height, i


def size(text: str, source: str) -> tuple[int, int] | None:
    """The rows and columns the game ID's parameters declare (``W`` x ``H``)."""
    head = header_line(text)
    found = head and _board_size(head[0].split(":", 1)[0], source, head[1], head[2])
    return (found[1], found[0]) if found else None


def parse_params(params: str, source: str, lineno: int, col0: int,
                 limits: Limits = CLI) -> tuple[int, int, int, bool]:
    """``(width, height, maxbridges, allowloops)`` from the part before ``:``."""
    def fail(msg, i):
        raise FormatError(msg, source, lineno, col0 + i)

    def number(m, what):
        return whole_number(m.group(), what, source, lineno, col0 + m.start())

    found = _board_size(params, source, lineno, col0)
    if not found:
        fail(f"a Tatham game ID starts with the board size, like 7x7m2: got {params[:10]!r}", 0)
    width, height, i = found
    maxb, allowloops = DEFAULT_MAXBRIDGES, True
    order = "iemLd"
    last = -1
    while i < len(params):
        ch = params[i]
        if ch not in order:
            fail(f"unknown parameter {ch!r} in the game ID (Tatham's are i, e, m, L, d)", i)
        if order.index(ch) <= last:
            fail(f"parameter {ch!r} is out of order or repeated (Tatham's order is i, e, m, L, d)", i)
        last = order.index(ch)
        if ch == "L":
            allowloops = False
            i += 1
            continue
        m = _NUM.match(params, i + 1)
        if not m:
            fail(f"parameter {ch!r} must be followed by a number", i + 1)
        value = number(m, f"parameter {ch!r}")
        if ch == "m":
            maxb = validate_maxbridges(value, limits, source, lineno, col0 + i + 1)
        i = m.end()
    validate_board(height, width, limits, source, lineno, col0)
    return width, height, maxb, allowloops


def read(text: str, source: str, limits: Limits = CLI) -> Document:
    line, lineno, col0 = _the_line(text, source)
    if ":" not in line:
        if "#" in line:
            raise FormatError("a random-seed ID ('#') needs Tatham's generator to expand; give the "
                              "game ID with ':' instead (Game > Specific... in the game)",
                              source, lineno, col0 + line.index("#"))
        raise FormatError("a Tatham game ID has the form WxHm2:<description>; no ':' found",
                          source, lineno, col0)
    params, desc = line.split(":", 1)
    width, height, maxb, allowloops = parse_params(params, source, lineno, col0, limits)
    wh = width * height
    start = col0 + len(params) + 1  # column of desc[0]
    islands, where = [], {}
    cell = 0
    for k, ch in enumerate(desc):
        if cell >= wh:
            raise FormatError(f"the description is longer than a {width}x{height} board "
                              f"({wh} cells) needs", source, lineno, start + k)
        if "1" <= ch <= "9" or "A" <= ch <= "G":
            number = int(ch) if ch.isdigit() else ord(ch) - ord("A") + 10
            r, c = divmod(cell, width)
            islands.append((r, c, number))
            validate_islands(len(islands), limits, source, lineno, start + k)
            where[(r, c)] = start + k
            cell += 1
        elif "a" <= ch <= "z":
            cell += ord(ch) - ord("a") + 1
            if cell > wh:
                raise FormatError(f"the run {ch!r} ({ord(ch) - ord('a') + 1} empty cells) goes past the "
                                  f"end of the {width}x{height} board", source, lineno, start + k)
        else:
            raise FormatError(f"unexpected character {ch!r} in the description: islands are 1-9 "
                              f"and A-G (10-16), a-z are runs of 1-26 empty cells",
                              source, lineno, start + k)
    if cell < wh:
        raise FormatError(f"the description is shorter than a {width}x{height} board needs: it "
                          f"covers {cell} of {wh} cells", source, lineno, start + len(desc))
    if not islands:
        raise FormatError("the description has no islands", source, lineno, start)
    return Document(build_puzzle(height, width, islands, maxb, source,
                                 lambda r, c: (lineno, where.get((r, c), start)),
                                 no_loops=not allowloops, limits=limits))


def encode_desc(puzzle: Puzzle) -> str:
    out, run = [], 0
    numbers = {(i.row, i.col): i.number for i in puzzle.islands}
    for r in range(puzzle.rows):
        for c in range(puzzle.cols):
            n = numbers.get((r, c))
            if n is None:
                if run == 26:
                    out.append("z")
                    run = 0
                run += 1
                continue
            if run:
                out.append(chr(ord("a") + run - 1))
                run = 0
            if n > 16:
                raise FormatError(f"a Tatham game ID holds island numbers up to 16; the island at "
                                  f"row {r + 1}, column {c + 1} has {n}")
            out.append(str(n) if n < 10 else chr(ord("A") + n - 10))
    if run:
        out.append(chr(ord("a") + run - 1))
    return "".join(out)


def write(puzzle: Puzzle, solution: Solution | None = None) -> str:
    loops = "L" if puzzle.no_loops else ""
    return f"{puzzle.cols}x{puzzle.rows}m{puzzle.maxbridges}{loops}:{encode_desc(puzzle)}\n"


register(Format("tatham", (".tatham",), "Simon Tatham's Bridges game ID, e.g. 7x7m2:4d2b1b4a26b3m1c3c3c2d3",
                read, write, holds_no_loops=True, size=size,
                readme="Simon Tatham's Bridges game ID `WxHm<maxb>[L]:<desc>` (`a`-`z` runs of empty "
                       "cells; `L`: the no-loops variant)"))
