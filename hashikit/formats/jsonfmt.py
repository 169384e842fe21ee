"""JSON puzzles and solutions.

Puzzle::

    {"format": "hashikit-puzzle", "rows": R, "cols": C, "maxbridges": M,
     "islands": [[r, c, n], ...], "ignore": [[r, c], ...]}

``ignore`` (optional) lists islands to leave out, as ProB's ``ignore`` set; they are
written back into ``islands`` and ``ignore``.  Also read: ``{"grid": [[...], ...]}``
or ``{"grid_text": ["4..4", ...]}`` with optional ``maxbridges``/``maxb`` (the shared
``.jsonl`` records; their ``solution_bridges`` is read as the solution).

``"no_loops": true`` marks the no-loops variant (the bridges may form no cycle); it is
written only when set.

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
from ..limits import CLI, Limits
from ..model import DEFAULT_MAXBRIDGES, Puzzle, Solution
from . import Document, Format, register
from ._common import validate_board, validate_islands, validate_maxbridges, number_of, short_number

PUZZLE_TAG = "hashikit-puzzle"
SOLUTION_TAG = "hashikit-solution"


def _show(value) -> str:
    """A JSON value for a message, short (and safe for huge numbers)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return short_number(value)
    if isinstance(value, list) and len(value) > 5:
        return _show(value[:5])[:-1] + ", ...]"
    try:
        return json.dumps(value)[:60]
    except (TypeError, ValueError, RecursionError):
        return type(value).__name__


def _int(value, what: str, source: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise FormatError(f"{what} must be a whole number, got {_show(value)}", source)
    return value


def _list(value, what: str, source: str) -> list:
    if not isinstance(value, list):
        raise FormatError(f"{what} must be a list, got {_show(value)}", source)
    return value


def _keyed(key: str, check, *args) -> None:
    """Run a cap check, naming the JSON key (so that the error points at it in the text)."""
    try:
        check(*args)
    except FormatError as exc:
        raise FormatError(f'"{key}": {exc.message}', exc.source) from None


def _maxbridges(obj: dict, source: str, limits: Limits) -> int:
    for key in ("maxbridges", "maxb"):
        if key in obj and obj[key] is not None:
            value = _int(obj[key], f'"{key}"', source)
            _keyed(key, validate_maxbridges, value, limits, source)
            return value
    return DEFAULT_MAXBRIDGES


def _no_loops(obj: dict, source: str) -> bool:
    value = obj.get("no_loops", False)
    if not isinstance(value, bool):
        raise FormatError(f'"no_loops" must be true or false, got {_show(value)}', source)
    return value


def _grid_rows(obj: dict, source: str, limits: Limits) -> list[list[int]]:
    key = "grid" if "grid" in obj else "grid_text"
    rows = _list(obj[key], f'"{key}"', source)
    if rows:
        width = len(rows[0]) if isinstance(rows[0], (list, str)) else 0
        _keyed(key, validate_board, len(rows), width, limits, source)
    if key == "grid":
        out = []
        for r, row in enumerate(rows):
            row = _list(row, f'"grid" row {r + 1}', source)
            if len(row) > limits.max_side:
                _keyed(key, validate_board, len(rows), len(row), limits, source)
            out.append([_int(v, f'"grid" row {r + 1}, cell {c + 1}', source) for c, v in enumerate(row)])
        return out
    out = []
    for r, line in enumerate(rows):
        if not isinstance(line, str):
            raise FormatError(f'"grid_text" row {r + 1} must be a string', source)
        if len(line) > limits.max_side:
            _keyed(key, validate_board, len(rows), len(line), limits, source)
        cells = []
        for c, ch in enumerate(line):
            v = 0 if ch == " " else number_of(ch)
            if v is None:
                raise FormatError(f'unknown character {ch!r} in "grid_text" row {r + 1}, cell {c + 1}',
                                  source)
            cells.append(v)
        out.append(cells)
    return out


def puzzle_from_data(obj, source: str, where: str = "the puzzle", limits: Limits = CLI) -> Puzzle:
    if not isinstance(obj, dict):
        raise FormatError(f"{where} must be a JSON object", source)
    tag = obj.get("format")
    if tag is not None and tag != PUZZLE_TAG and ("islands" in obj and "rows" in obj):
        raise FormatError(f'"format" is {_show(tag)}; expected "{PUZZLE_TAG}"', source)
    maxb = _maxbridges(obj, source, limits)
    no_loops = _no_loops(obj, source)
    try:
        if "grid" in obj or "grid_text" in obj:
            grid = _grid_rows(obj, source, limits)
            if not grid:
                raise FormatError('"grid" has no rows', source)
            for r, row in enumerate(grid):
                if len(row) != len(grid[0]):
                    raise FormatError(f'"grid" row {r + 1} has {len(row)} cells but row 1 has '
                                      f'{len(grid[0])}', source)
            if any(v < 0 for row in grid for v in row):
                raise FormatError('"grid" cells must be 0 (empty) or an island number', source)
            _keyed("grid" if "grid" in obj else "grid_text", validate_islands,
                   sum(1 for row in grid for v in row if v), limits, source)
            puzzle = Puzzle.from_grid(grid, maxb, no_loops=no_loops)
            for key, size in (("height", puzzle.rows), ("width", puzzle.cols)):
                if key in obj and obj[key] != size:
                    raise FormatError(f'"{key}" is {_show(obj[key])} but "grid" has {size}', source)
            return puzzle
        for key in ("rows", "cols", "islands"):
            if key not in obj:
                raise FormatError(f'{where} has no "{key}" (or "grid")', source)
        rows = _int(obj["rows"], '"rows"', source)
        cols = _int(obj["cols"], '"cols"', source)
        _keyed("rows", validate_board, rows, cols, limits, source)
        islands = []
        items = _list(obj["islands"], '"islands"', source)
        _keyed("islands", validate_islands, len(items), limits, source)
        for k, item in enumerate(items):
            if not isinstance(item, list) or len(item) != 3:
                raise FormatError(f'"islands" item {k + 1} must be [row, col, number], got '
                                  f'{_show(item)}', source)
            islands.append(tuple(_int(v, f'"islands" item {k + 1}', source) for v in item))
        ignore = []
        for k, item in enumerate(_list(obj.get("ignore", []), '"ignore"', source)):
            if not isinstance(item, list) or len(item) != 2:
                raise FormatError(f'"ignore" item {k + 1} must be [row, col], got {_show(item)}',
                                  source)
            ignore.append(tuple(_int(v, f'"ignore" item {k + 1}', source) for v in item))
        return Puzzle(rows, cols, islands, maxb, ignore=ignore, no_loops=no_loops)
    except PuzzleError as exc:
        raise FormatError(f"{where}: {exc.message}", source) from None


def solution_from_list(value, source: str, key: str) -> Solution:
    rows = _list(value, f'"{key}"', source)
    for k, row in enumerate(rows):
        if (not isinstance(row, list) or len(row) != 5
                or any(isinstance(v, bool) or not isinstance(v, int) for v in row)):
            raise FormatError(f'"{key}" item {k + 1} must be [r1, c1, r2, c2, count] of whole numbers, '
                              f'got {_show(row)}', source)
    try:
        return Solution.from_list(rows)
    except PuzzleError as exc:
        raise FormatError(f'"{key}": {exc.message}', source) from None


def read(text: str, source: str, limits: Limits = CLI) -> Document:
    try:
        return _read(text, source, limits)
    except FormatError as exc:
        if exc.line is None:  # point at the key the message names, where the text has it
            m = re.search(r'"(\w+)"', exc.message)
            at = text.find(f'"{m.group(1)}"') if m else -1
            if at >= 0:
                line = text.count("\n", 0, at) + 1
                exc.line, exc.column = line, at - (text.rfind("\n", 0, at) + 1) + 1
        raise


def _read(text: str, source: str, limits: Limits) -> Document:
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise FormatError(f"invalid JSON: {exc.msg}", source, exc.lineno, exc.colno) from None
    except RecursionError:
        raise FormatError("invalid JSON: nested too deeply", source) from None
    except ValueError as exc:  # an integer of more than 4,300 digits, which Python refuses to convert
        raise FormatError(f"invalid JSON: {str(exc).split(';')[0]}", source) from None
    if not isinstance(obj, dict):
        raise FormatError("the JSON must be an object ({...})", source, 1, 1)
    tag = obj.get("format")
    if tag is not None and tag not in (PUZZLE_TAG, SOLUTION_TAG):
        raise FormatError(f'"format" is {_show(tag)}; expected "{PUZZLE_TAG}" or "{SOLUTION_TAG}"',
                          source)
    bridges_key = next((k for k in ("bridges", "solution_bridges") if obj.get(k) is not None), None)
    if tag == SOLUTION_TAG:
        if bridges_key is None:
            raise FormatError('a solution has no "bridges"', source)
        puzzle = (puzzle_from_data(obj["puzzle"], source, '"puzzle"', limits)
                  if obj.get("puzzle") is not None else None)
        return Document(puzzle, solution_from_list(obj[bridges_key], source, bridges_key))
    if not any(k in obj for k in ("islands", "grid", "grid_text", "rows", "cols")):
        if "puzzle" in obj:
            puzzle = puzzle_from_data(obj["puzzle"], source, '"puzzle"', limits)
            solution = solution_from_list(obj[bridges_key], source, bridges_key) if bridges_key else None
            return Document(puzzle, solution)
        if bridges_key:
            return Document(None, solution_from_list(obj[bridges_key], source, bridges_key))
        raise FormatError('the JSON holds no puzzle: expected "islands" (with "rows" and "cols"), '
                          '"grid" or "grid_text"', source)
    puzzle = puzzle_from_data(obj, source, limits=limits)
    solution = solution_from_list(obj[bridges_key], source, bridges_key) if bridges_key else None
    return Document(puzzle, solution)


def puzzle_data(puzzle: Puzzle) -> dict:
    obj = {"format": PUZZLE_TAG, "rows": puzzle.rows, "cols": puzzle.cols,
           "maxbridges": puzzle.maxbridges,
           "islands": [list(i) for i in sorted(puzzle.islands + puzzle.ignored)]}
    if puzzle.ignored:
        obj["ignore"] = [[i.row, i.col] for i in puzzle.ignored]
    if puzzle.no_loops:
        obj["no_loops"] = True
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
    obj = puzzle_data(puzzle)
    if solution is not None:
        obj["bridges"] = solution.to_list()
    return _dump(obj) + "\n"


def write_solution(puzzle: Puzzle, solution: Solution | None = None) -> str:
    if solution is None:
        raise FormatError("the json-solution format holds a solution; there is none to write")
    return _dump({"format": SOLUTION_TAG, "puzzle": puzzle_data(puzzle),
                  "bridges": solution.to_list()}) + "\n"


register(Format("json", (".json",), "JSON puzzle (and solution); schema in the README",
                read, write, has_solution=True, holds_no_loops=True,
                readme="JSON puzzle (below); reads a solution too when it has `bridges`"))
register(Format("json-solution", (".sol.json",), "JSON solution with its puzzle",
                read, write_solution, needs_solution=True, has_solution=True, holds_no_loops=True))
