"""The descriptor of ohmec's hashi.js puzzle collection (the Nikoli set in ../shared):
``WxH:<row>.<row>...``.  In a row a digit is an island, ``a``-``z`` a run of 1-26
empty cells and ``-`` one empty cell.  A solved descriptor marks a bridge on the
cell next to the island it starts from: ``_``/``=`` single/double bridge running
east from the island to the west of the mark, ``|``/``#`` single/double bridge
running south from the island above the mark.  MAXBRIDGES is 2.

The writer writes those marks for a solution it is given; a bridge between
neighbouring islands (no cell for its mark), three or more bridges on a link, or
two marks on one cell (crossing bridges) cannot be written and are refused.
"""

from __future__ import annotations

import re

from ..errors import FormatError
from ..limits import CLI, Limits
from ..model import Puzzle, Solution, describe_cell
from . import Document, Format, register
from ._common import build_puzzle, header_line, validate_board, validate_islands, validate_solution, symbol_of, whole_number

_HEAD = re.compile(r"\s*(\d+)x(\d+):", re.ASCII)
_MARKS = {"_": (True, 1), "=": (True, 2), "|": (False, 1), "#": (False, 2)}
_MARK_OF = {v: k for k, v in _MARKS.items()}


def _declared(m: re.Match, source: str, lineno: int, indent: int) -> tuple[int, int]:
    """The rows and columns of a matched ``WxH:`` head."""
    width = whole_number(m.group(1), "the width", source, lineno, indent + m.start(1) + 1)
    height = whole_number(m.group(2), "the height", source, lineno, indent + m.start(2) + 1)
    return height, width


def size(text: str, source: str) -> tuple[int, int] | None:
    """The rows and columns the ``WxH:`` head declares."""
    head = header_line(text)
    m = _HEAD.match(head[0]) if head else None
    return _declared(m, source, head[1], head[2] - 1) if m else None


def read(text: str, source: str, limits: Limits = CLI) -> Document:
    numbered = [(n, ln) for n, ln in enumerate(text.splitlines(), 1)
                if ln.strip() and not ln.lstrip().startswith("#")]
    if len(numbered) != 1:
        raise FormatError("expected one line 'WxH:rows'", source, numbered[1][0] if numbered else 1)
    lineno, line = numbered[0]
    m = _HEAD.match(line)
    if not m:
        raise FormatError("expected 'WxH:' at the start, e.g. 7x7:4a3a3a3.a2c4a...", source, lineno, 1)
    height, width = _declared(m, source, lineno, 0)
    validate_board(height, width, limits, source, lineno, 1)
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
            if "0" <= ch <= "9":
                if ch != "0":
                    islands.append((r, c, int(ch)))
                    validate_islands(len(islands), limits, source, lineno, where)
                c += 1
            elif "a" <= ch <= "z":
                c += ord(ch) - ord("a") + 1
            elif ch == "-":
                c += 1
            elif ch in _MARKS:
                marks.append((r, c, ch, where))
                c += 1
            else:
                raise FormatError(f"unknown character {ch!r}: use digits 0-9, a-z runs, '-', or _ = | #",
                                  source, lineno, where)
            if c > width:
                raise FormatError(f"row {r + 1} is longer than the width {width}", source, lineno, where)
        if c != width:
            raise FormatError(f"row {r + 1} has {c} cells, the width is {width}", source, lineno,
                              col_base + len(row))
        col_base += len(row) + 1
    if not islands:
        raise FormatError("the puzzle has no islands", source, lineno, m.end() + 1)
    puzzle = build_puzzle(height, width, islands, 2, source, limits=limits)
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


def _marks(puzzle: Puzzle, solution: Solution) -> dict[tuple[int, int], str]:
    """The mark on the first cell of each bridge, refusing what the descriptor cannot hold."""
    validate_solution(puzzle, solution)
    out: dict[tuple[int, int], str] = {}
    for (p, q), count in solution:
        name = f"the bridge from {describe_cell(*p)} to {describe_cell(*q)}"
        if p[0] != q[0] and p[1] != q[1]:
            raise FormatError(f"{name} is not straight; the ohmec format cannot hold it")
        if count > 2:
            raise FormatError(f"{name} has {count} bridges; the ohmec format holds at most 2")
        horizontal = p[0] == q[0]
        cell = (p[0], p[1] + 1) if horizontal else (p[0] + 1, p[1])
        if cell == q or cell in puzzle.index:
            raise FormatError(f"the ohmec format cannot hold {name}: neighbouring islands leave no "
                              f"cell for its mark; use the json format")
        if cell in out:
            raise FormatError(f"{name} starts on a cell another bridge marks (crossing bridges); "
                              f"the ohmec format cannot hold both")
        out[cell] = _MARK_OF[(horizontal, count)]
    return out


def write(puzzle: Puzzle, solution: Solution | None = None) -> str:
    if puzzle.maxbridges != 2:
        raise FormatError("the ohmec format has no MAXBRIDGES field; it holds only MAXBRIDGES 2 puzzles")
    marks = _marks(puzzle, solution) if solution is not None else {}
    rows = []
    for r, row in enumerate(puzzle.grid()):
        out, run = [], 0
        for c, v in enumerate(row):
            mark = marks.get((r, c))
            if v or mark:
                if run:
                    out.append(_run(run))
                    run = 0
                if v > 9:
                    raise FormatError(f"the ohmec format holds island numbers 1 to 9; this puzzle has {v}")
                out.append(symbol_of(v, "ohmec") if v else mark)
            else:
                run += 1
        if run:
            out.append(_run(run))
        rows.append("".join(out))
    return f"{puzzle.cols}x{puzzle.rows}:" + ".".join(rows) + "\n"


def _run(n: int) -> str:
    parts = []
    while n > 26:
        parts.append("z")
        n -= 26
    parts.append(chr(ord("a") + n - 1))
    return "".join(parts)


register(Format("ohmec", (".ohmec",), "ohmec hashi.js descriptor WxH:rows (the Nikoli collection)",
                read, write, has_solution=True, size=size,
                readme="the `WxH:rows` descriptors of ohmec's hashi.js (the Nikoli set), with its "
                       "solved-example bridge marks"))
