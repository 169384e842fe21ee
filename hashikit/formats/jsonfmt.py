"""JSON puzzles and solutions.

Puzzle::

    {"format": "hashikit-puzzle", "rows": R, "cols": C, "maxbridges": M,
     "islands": [[r, c, n], ...], "ignore": [[r, c], ...]}

``ignore`` (optional) lists islands to leave out, as ProB's ``ignore`` set; they are
written back into ``islands`` and ``ignore``.  Also read: ``{"grid": [[...], ...]}``
or ``{"grid_text": ["4..4", ...]}`` with optional ``maxbridges``/``maxb`` (the shared
``.jsonl`` records; their ``solution_bridges`` is read as the solution).

Solution::

    {"format": "hashikit-solution", "puzzle": {puzzle object},
     "bridges": [[r1, c1, r2, c2, count], ...]}

Rows and columns are 0-based.  ``puzzle`` may be left out (the document then holds
only the solution); a puzzle object with ``bridges`` holds both.
"""

from __future__ import annotations

import json
import re

from ..errors import FormatError, PuzzleError
from ..model import DEFAULT_MAXBRIDGES, Puzzle, Solution
from . import Document, Format, register
from ._common import number_of

PUZZLE_TAG = "hashikit-puzzle"
SOLUTION_TAG = "hashikit-solution"


def _int(value, what: str, source: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise FormatError(f"{what} must be a whole number, got {json.dumps(value)}", source)
    return value


def _list(value, what: str, source: str) -> list:
    if not isinstance(value, list):
        raise FormatError(f"{what} must be a list, got {json.dumps(value)[:60]}", source)
    return value


def _maxbridges(obj: dict, source: str) -> int:
    for key in ("maxbridges", "maxb"):
        if key in obj and obj[key] is not None:
            return _int(obj[key], f'"{key}"', source)
    return DEFAULT_MAXBRIDGES


def _grid_rows(obj: dict, source: str) -> list[list[int]]:
    if "grid" in obj:
        rows = _list(obj["grid"], '"grid"', source)
        out = []
        for r, row in enumerate(rows):
            row = _list(row, f'"grid" row {r + 1}', source)
            out.append([_int(v, f'"grid" row {r + 1}, cell {c + 1}', source) for c, v in enumerate(row)])
        return out
    rows = _list(obj["grid_text"], '"grid_text"', source)
    out = []
    for r, line in enumerate(rows):
        if not isinstance(line, str):
            raise FormatError(f'"grid_text" row {r + 1} must be a string', source)
        cells = []
        for c, ch in enumerate(line):
            v = 0 if ch == " " else number_of(ch)
            if v is None:
                raise FormatError(f'unknown character {ch!r} in "grid_text" row {r + 1}, cell {c + 1}',
                                  source)
            cells.append(v)
        out.append(cells)
    return out


def puzzle_from_obj(obj, source: str, where: str = "the puzzle") -> Puzzle:
    if not isinstance(obj, dict):
        raise FormatError(f"{where} must be a JSON object", source)
    tag = obj.get("format")
    if tag is not None and tag != PUZZLE_TAG and ("islands" in obj and "rows" in obj):
        raise FormatError(f'"format" is {json.dumps(tag)}; expected "{PUZZLE_TAG}"', source)
    maxb = _maxbridges(obj, source)
    try:
        if "grid" in obj or "grid_text" in obj:
            grid = _grid_rows(obj, source)
            if not grid:
                raise FormatError('"grid" has no rows', source)
            for r, row in enumerate(grid):
                if len(row) != len(grid[0]):
                    raise FormatError(f'"grid" row {r + 1} has {len(row)} cells but row 1 has '
                                      f'{len(grid[0])}', source)
            if any(v < 0 for row in grid for v in row):
                raise FormatError('"grid" cells must be 0 (empty) or an island number', source)
            puzzle = Puzzle.from_grid(grid, maxb)
            for key, size in (("height", puzzle.rows), ("width", puzzle.cols)):
                if key in obj and obj[key] != size:
                    raise FormatError(f'"{key}" is {json.dumps(obj[key])} but "grid" has {size}', source)
            return puzzle
        for key in ("rows", "cols", "islands"):
            if key not in obj:
                raise FormatError(f'{where} has no "{key}" (or "grid")', source)
        rows = _int(obj["rows"], '"rows"', source)
        cols = _int(obj["cols"], '"cols"', source)
        islands = []
        for k, item in enumerate(_list(obj["islands"], '"islands"', source)):
            if not isinstance(item, list) or len(item) != 3:
                raise FormatError(f'"islands" item {k + 1} must be [row, col, number], got '
                                  f'{json.dumps(item)[:60]}', source)
            islands.append(tuple(_int(v, f'"islands" item {k + 1}', source) for v in item))
        ignore = []
        for k, item in enumerate(_list(obj.get("ignore", []), '"ignore"', source)):
            if not isinstance(item, list) or len(item) != 2:
                raise FormatError(f'"ignore" item {k + 1} must be [row, col], got {json.dumps(item)[:60]}',
                                  source)
            ignore.append(tuple(_int(v, f'"ignore" item {k + 1}', source) for v in item))
        return Puzzle(rows, cols, islands, maxb, ignore=ignore)
    except PuzzleError as exc:
        raise FormatError(f"{where}: {exc.message}", source) from None


def solution_from_list(value, source: str, key: str) -> Solution:
    rows = _list(value, f'"{key}"', source)
    for k, row in enumerate(rows):
        if (not isinstance(row, list) or len(row) != 5
                or any(isinstance(v, bool) or not isinstance(v, int) for v in row)):
            raise FormatError(f'"{key}" item {k + 1} must be [r1, c1, r2, c2, count] of whole numbers, '
                              f'got {json.dumps(row)[:60]}', source)
    try:
        return Solution.from_list(rows)
    except PuzzleError as exc:
        raise FormatError(f'"{key}": {exc.message}', source) from None


def read(text: str, source: str) -> Document:
    try:
        return _read(text, source)
    except FormatError as exc:
        if exc.line is None:  # point at the key the message names, where the text has it
            m = re.search(r'"(\w+)"', exc.message)
            at = text.find(f'"{m.group(1)}"') if m else -1
            if at >= 0:
                line = text.count("\n", 0, at) + 1
                exc.line, exc.column = line, at - (text.rfind("\n", 0, at) + 1) + 1
        raise


def _read(text: str, source: str) -> Document:
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise FormatError(f"invalid JSON: {exc.msg}", source, exc.lineno, exc.colno) from None
    except RecursionError:
        raise FormatError("invalid JSON: nested too deeply", source) from None
    if not isinstance(obj, dict):
        raise FormatError("the JSON must be an object ({...})", source, 1, 1)
    tag = obj.get("format")
    if tag is not None and tag not in (PUZZLE_TAG, SOLUTION_TAG):
        raise FormatError(f'"format" is {json.dumps(tag)}; expected "{PUZZLE_TAG}" or "{SOLUTION_TAG}"',
                          source)
    bridges_key = next((k for k in ("bridges", "solution_bridges") if obj.get(k) is not None), None)
    if tag == SOLUTION_TAG:
        if bridges_key is None:
            raise FormatError('a solution has no "bridges"', source)
        puzzle = puzzle_from_obj(obj["puzzle"], source, '"puzzle"') if obj.get("puzzle") is not None else None
        return Document(puzzle, solution_from_list(obj[bridges_key], source, bridges_key))
    if not any(k in obj for k in ("islands", "grid", "grid_text", "rows", "cols")):
        if "puzzle" in obj:
            puzzle = puzzle_from_obj(obj["puzzle"], source, '"puzzle"')
            solution = solution_from_list(obj[bridges_key], source, bridges_key) if bridges_key else None
            return Document(puzzle, solution)
        if bridges_key:
            return Document(None, solution_from_list(obj[bridges_key], source, bridges_key))
        raise FormatError('the JSON holds no puzzle: expected "islands" (with "rows" and "cols"), '
                          '"grid" or "grid_text"', source)
    puzzle = puzzle_from_obj(obj, source)
    solution = solution_from_list(obj[bridges_key], source, bridges_key) if bridges_key else None
    return Document(puzzle, solution)


def puzzle_obj(puzzle: Puzzle) -> dict:
    obj = {"format": PUZZLE_TAG, "rows": puzzle.rows, "cols": puzzle.cols,
           "maxbridges": puzzle.maxbridges,
           "islands": [list(i) for i in sorted(puzzle.islands + puzzle.ignored)]}
    if puzzle.ignored:
        obj["ignore"] = [[i.row, i.col] for i in puzzle.ignored]
    return obj


def _dump(obj: dict, indent: str = "") -> str:
    """JSON with one island / bridge per line: readable and diff-friendly."""
    lines = []
    items = list(obj.items())
    for k, (key, value) in enumerate(items):
        comma = "," if k < len(items) - 1 else ""
        if isinstance(value, dict):
            lines.append(f'{indent}  "{key}": {_dump(value, indent + "  ")}{comma}')
        elif isinstance(value, list) and value:
            inner = f",\n{indent}    ".join(json.dumps(v) for v in value)
            lines.append(f'{indent}  "{key}": [\n{indent}    {inner}\n{indent}  ]{comma}')
        else:
            lines.append(f'{indent}  "{key}": {json.dumps(value)}{comma}')
    return "{\n" + "\n".join(lines) + f"\n{indent}}}"


def write(puzzle: Puzzle, solution: Solution | None = None) -> str:
    obj = puzzle_obj(puzzle)
    if solution is not None:
        obj["bridges"] = solution.to_list()
    return _dump(obj) + "\n"


def write_solution(puzzle: Puzzle, solution: Solution | None = None) -> str:
    if solution is None:
        raise FormatError("the json-solution format holds a solution; there is none to write")
    return _dump({"format": SOLUTION_TAG, "puzzle": puzzle_obj(puzzle),
                  "bridges": solution.to_list()}) + "\n"


register(Format("json", (".json",), "JSON puzzle (islands list or grid), bridges optional",
                read, write, has_solution=True))
register(Format("json-solution", (".sol.json",), "JSON solution with its puzzle",
                read, write_solution, needs_solution=True, has_solution=True))
