"""The descriptor of ohmec's hashi.js puzzle collection (the Nikoli set in ../shared):
``WxH:<row>.<row>...``.  In a row a digit is an island, ``a``-``z`` a run of 1-26
empty cells and ``-`` one empty cell.  A solved descriptor marks a bridge on the
cell next to the island it starts from: ``_``/``=`` single/double bridge running
east from the island to the west of the mark, ``|``/``#`` single/double bridge
running south from the island above the mark.
"""

from __future__ import annotations

import re

from ..errors import FormatError
from ..model import Puzzle, Solution
from . import Document, Format, register
from ._common import build_puzzle, number_of, symbol_of

_HEAD = re.compile(r"\s*(\d+)x(\d+):")
_MARKS = {"_": (True, 1), "=": (True, 2), "|": (False, 1), "#": (False, 2)}


def read(text: str, source: str) -> Document:
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    if len(lines) != 1:
        raise FormatError("expected one line 'WxH:rows'", source, 1)
    line = lines[0]
    lineno = text.splitlines().index(line) + 1
    m = _HEAD.match(line)
    if not m:
        raise FormatError("expected 'WxH:' at the start, e.g. 7x7:4a3a3a3.a2c4a...", source, lineno, 1)
    width, height = int(m.group(1)), int(m.group(2))
    body = line[m.end():].rstrip()
    rows_text = body.split(".")
    if len(rows_text) == height + 1 and rows_text[-1] == "":
        rows_text.pop()  # a trailing separator, as some entries of the collection have
    if len(rows_text) != height:
        raise FormatError(f"{len(rows_text)} rows separated by '.', but the header says {height}",
                          source, lineno, m.end() + 1)
    islands, marks = [], []
    col_base = m.end() + 1
    for r, row in enumerate(rows_text):
        c = 0
        for i, ch in enumerate(row):
            where = col_base + i
            if ch.isdigit():
                v = number_of(ch)
                if v:
                    islands.append((r, c, v))
                c += 1
            elif "a" <= ch <= "z":
                c += ord(ch) - ord("a") + 1
            elif ch == "-":
                c += 1
            elif ch in _MARKS:
                marks.append((r, c, ch, where))
                c += 1
            else:
                raise FormatError(f"unknown character {ch!r}: use digits, a-z runs, '-', or _ = | #",
                                  source, lineno, where)
            if c > width:
                raise FormatError(f"row {r + 1} is longer than the width {width}", source, lineno, where)
        if c != width:
            raise FormatError(f"row {r + 1} has {c} cells, the width is {width}", source, lineno,
                              col_base + len(row))
        col_base += len(row) + 1
    puzzle = build_puzzle(height, width, islands, 2, source)
    if not marks:
        return Document(puzzle)
    return Document(puzzle, _solution(puzzle, marks, source, lineno))


def _solution(puzzle: Puzzle, marks, source: str, lineno: int) -> Solution:
    at = {isl.pos for isl in puzzle.islands}
    bridges = {}
    for r, c, ch, where in marks:
        horizontal, count = _MARKS[ch]
        dr, dc = (0, 1) if horizontal else (1, 0)
        start = (r - dr, c - dc)
        if start not in at:
            raise FormatError(f"bridge mark {ch!r} has no island to its {'west' if horizontal else 'north'}",
                              source, lineno, where)
        end = (r, c)
        while end not in at:
            end = (end[0] + dr, end[1] + dc)
            if end[0] >= puzzle.rows or end[1] >= puzzle.cols:
                raise FormatError(f"bridge mark {ch!r} runs off the board without reaching an island",
                                  source, lineno, where)
        bridges[(start, end)] = count
    return Solution(bridges)


def write(puzzle: Puzzle, solution: Solution | None = None) -> str:
    rows = []
    for row in puzzle.grid():
        out, run = [], 0
        for v in row:
            if v:
                if run:
                    out.append(_run(run))
                    run = 0
                if v > 9:
                    raise FormatError(f"the ohmec format holds island numbers 1 to 9; this puzzle has {v}")
                out.append(symbol_of(v, "ohmec"))
            else:
                run += 1
        if run:
            out.append(_run(run))
        rows.append("".join(out))
    if puzzle.maxbridges != 2:
        raise FormatError("the ohmec format has no MAXBRIDGES field; it holds only MAXBRIDGES 2 puzzles")
    return f"{puzzle.cols}x{puzzle.rows}:" + ".".join(rows) + "\n"


def _run(n: int) -> str:
    parts = []
    while n > 26:
        parts.append("z")
        n -= 26
    parts.append(chr(ord("a") + n - 1))
    return "".join(parts)


register(Format("ohmec", (".ohmec",), "ohmec hashi.js descriptor WxH:rows (the Nikoli set)", read, write,
                has_solution=True))
