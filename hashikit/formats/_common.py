"""Helpers shared by the readers and writers: cell symbols, whole numbers read safely,
the limits of :mod:`hashikit.limits` checked before anything is allocated, error positions,
and the check that a solution's bridges lie on its board before a writer walks them."""

from __future__ import annotations

from ..errors import FormatError, PuzzleError
from ..limits import CLI, Limits
from ..model import DEFAULT_MAXBRIDGES, Puzzle, Solution, describe_cell

#: island number -> symbol in grid-like text: 1-9, then A-G for 10-16
SYMBOLS = "123456789ABCDEFG"
EMPTY = ".0"
#: digits of the longest whole number any reader accepts: every cap is far below 10**12, and
#: a bound here keeps Python's int() (4,300 digits at most, and slow near it) out of reach
MAX_DIGITS = 12
ASCII_DIGITS = frozenset("0123456789")


def number_of(ch: str) -> int | None:
    """The island number a symbol stands for, 0 for empty, None if it is no cell symbol."""
    if len(ch) != 1 or not ch.isascii():
        return None
    if ch in EMPTY:
        return 0
    i = SYMBOLS.find(ch.upper())
    return i + 1 if i >= 0 else None


def symbol_of(number: int, fmt: str) -> str:
    if not 1 <= number <= len(SYMBOLS):
        raise FormatError(f"the {fmt} format holds island numbers 1 to {len(SYMBOLS)}; this puzzle has {number}")
    return SYMBOLS[number - 1]


def is_whole(token: str) -> bool:
    """True for a non-empty run of ASCII digits ('²' and '٣' are digits to Python, not here)."""
    return bool(token) and all(ch in ASCII_DIGITS for ch in token)


def whole_number(token: str, what: str, source: str, line: int | None = None,
                 column: int | None = None) -> int:
    """``token`` as a non-negative int: ASCII digits only, at most MAX_DIGITS of them."""
    if not is_whole(token):
        raise FormatError(f"{what} must be a whole number, got {token[:20]!r}", source, line, column)
    if len(token.lstrip("0")) > MAX_DIGITS:
        raise FormatError(f"{what} has {len(token)} digits; hashikit reads numbers of at most "
                          f"{MAX_DIGITS} digits", source, line, column)
    return int(token)


# -- the limits, checked before allocating ----------------------------------------------
# Each is the board spec's one check (:meth:`hashikit.limits.Limits.problem`), refused as a
# FormatError at the place in the text that shows it.

def validate_board(rows: int, cols: int, limits: Limits, source: str, line: int | None = None,
                   column: int | None = None) -> None:
    """Refuse a board outside ``limits``, before anything of that size is built."""
    _refuse(limits.problem(rows, cols), source, line, column)


def validate_side(count: int, what: str, limits: Limits, source: str, line: int | None = None,
                  column: int | None = None) -> None:
    """Refuse a row (``what="rows"``) or column count outside ``limits`` as soon as the text shows it."""
    _refuse(limits.problem(**{"rows" if what == "rows" else "cols": count}), source, line, column)


def validate_islands(count: int, limits: Limits, source: str, line: int | None = None,
                     column: int | None = None) -> None:
    _refuse(limits.problem(islands=count), source, line, column)


def validate_maxbridges(value: int, limits: Limits, source: str, line: int | None = None,
                        column: int | None = None) -> int:
    _refuse(limits.problem(maxbridges=value), source, line, column)
    return value


def _refuse(problem: str | None, source: str, line: int | None, column: int | None) -> None:
    if problem:
        raise FormatError(problem, source, line, column)


def build_puzzle(rows: int, cols: int, islands, maxbridges: int, source: str,
                 where=None, no_loops: bool = False, limits: Limits = CLI) -> Puzzle:
    """Make a Puzzle within ``limits``, turning a model error into a FormatError at the offending cell.

    ``where(row, col)`` maps a 0-based cell to a 1-based ``(line, column)`` of the text.
    """
    validate_board(rows, cols, limits, source)
    validate_islands(len(islands), limits, source)
    validate_maxbridges(maxbridges, limits, source)
    try:
        return Puzzle(rows, cols, islands, maxbridges, no_loops=no_loops)
    except PuzzleError as exc:
        line = column = None
        if where is not None and exc.row is not None:
            line, column = where(exc.row, exc.col if exc.col is not None else 0)
        raise FormatError(exc.message, source, line, column) from None


# -- the size a text declares (a format's cheap size check) ------------------------------

def header_line(text: str) -> tuple[str, int, int] | None:
    """The first line that is neither blank nor a ``#`` comment: its text stripped, its line
    number and the column of its first character (None: there is none)."""
    for lineno, line in enumerate(text.splitlines(), 1):
        if line.strip() and not line.lstrip().startswith("#"):
            return line.strip(), lineno, len(line) - len(line.lstrip()) + 1
    return None


def drawn_size(text: str, cells, per_cell: int = 1) -> tuple[int, int] | None:
    """The rows and columns a format that draws the board line by line spans: its lines from the
    first to the last that is neither blank nor a ``#`` comment, and the most cells ``cells(line)``
    counts in one of them, ``per_cell`` lines and characters to a cell (the spaced layout: 2)."""
    seen = last = cols = 0  # lines since the first board line; that count at the last one
    for line in text.splitlines():
        if line.lstrip().startswith("#"):
            continue
        if line.strip():
            seen += 1
            last = seen
            cols = max(cols, cells(line))
        elif seen:
            seen += 1
    if not last:
        return None
    return (last + per_cell - 1) // per_cell, (cols + per_cell - 1) // per_cell


# -- '#' comment lines of the grid-like formats -----------------------------------------

def comment_setting(line: str, source: str, lineno: int, limits: Limits):
    """``("maxbridges", n)`` for ``# maxbridges: 3``, ``("no_loops", True)`` for ``# no-loops``, else None."""
    import re

    body = line.strip()[1:].strip()
    m = re.fullmatch(r"max[-_ ]?bridges\s*[:=]\s*(\S+)", body, re.IGNORECASE)
    if m:
        value = whole_number(m.group(1), "MAXBRIDGES", source, lineno, line.index(m.group(1)) + 1)
        return "maxbridges", validate_maxbridges(value, limits, source, lineno)
    if re.fullmatch(r"no[-_ ]?loops", body, re.IGNORECASE):
        return "no_loops", True
    return None


def board_lines(text: str, source: str, kind: str, limits: Limits = CLI,
                keep_inner_blank: bool = False, max_lines: int | None = None):
    """The board's lines as ``(line number, text)``, MAXBRIDGES and the no-loops flag.

    ``#`` comment lines are skipped (``# maxbridges: 3`` sets MAXBRIDGES, ``# no-loops``
    the variant); blank lines around the board are skipped, a blank line inside it is an
    error unless ``keep_inner_blank`` (the spaced solved layout, whose bridge lines may be empty).
    At most ``max_lines`` board lines (default: the cap on board sides).
    """
    top = limits.max_side if max_lines is None else max_lines
    maxb, no_loops = DEFAULT_MAXBRIDGES, False
    lines: list[tuple[int, str]] = []
    blanks: list[tuple[int, str]] = []
    for lineno, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("#"):
            setting = comment_setting(line, source, lineno, limits)
            if setting and setting[0] == "maxbridges":
                maxb = setting[1]
            elif setting:
                no_loops = True
            continue
        if not line.strip():
            if lines:
                blanks.append((lineno, ""))
            continue
        if blanks:
            if not keep_inner_blank:
                raise FormatError(f"a blank line (line {blanks[0][0]}) inside the {kind}", source, lineno)
            lines.extend(blanks)
            blanks = []
        lines.append((lineno, line))
        if len(lines) > top:  # more lines than the longest side's board has
            validate_side(limits.max_side + 1, "rows", limits, source, lineno)
    return lines, maxb, no_loops


def grid_header(puzzle: Puzzle) -> str:
    """The comment lines that carry MAXBRIDGES (when not 2) and the no-loops rule in grid-like text."""
    out = f"# maxbridges: {puzzle.maxbridges}\n" if puzzle.maxbridges != DEFAULT_MAXBRIDGES else ""
    return out + ("# no-loops\n" if puzzle.no_loops else "")


def refuse_no_loops(puzzle: Puzzle, fmt: str) -> None:
    """A format with no place for the no-loops rule refuses such a puzzle rather than drop the rule."""
    if puzzle.no_loops:
        raise FormatError(f"the {fmt} format cannot say that bridges may form no loop (the no-loops "
                          f"variant); use the tatham, json or grid format")


# -- solutions --------------------------------------------------------------------------

def validate_solution(puzzle: Puzzle, solution: Solution, source: str | None = None,
                   limits: Limits = CLI) -> Solution:
    """Refuse bridges that no writer, renderer or checker should walk: an end off the board,
    a count that is not a whole number from 1 to the MAXBRIDGES cap, or too many of them.

    Rule breaking within the board (a bridge over an island, a crossing, a count above this
    puzzle's MAXBRIDGES) is left to the checker, which names it.
    """
    if len(solution.bridges) > 2 * limits.max_cells:
        raise FormatError(f"{len(solution.bridges)} bridges: a board of at most {limits.max_cells} "
                          f"cells has fewer places for them", source)
    for (p, q), count in solution.bridges.items():
        for r, c in (p, q):
            if not (isinstance(r, int) and isinstance(c, int) and 0 <= r < puzzle.rows
                    and 0 <= c < puzzle.cols):
                raise FormatError(f"the bridge {_name(p, q)} has an end outside the "
                                  f"{puzzle.rows}x{puzzle.cols} board", source)
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= limits.max_maxbridges:
            raise FormatError(f"the bridge {_name(p, q)} has count {short_number(count)}; counts run from 1 to "
                              f"{limits.max_maxbridges}", source)
    return solution


def short_number(v) -> str:
    """A number for a message: huge ones (which str() may even refuse) are abbreviated."""
    if isinstance(v, int) and not isinstance(v, bool) and abs(v) >= 10 ** 12:
        return f"{'-' if v < 0 else ''}(a number of about {v.bit_length() * 30103 // 100000 + 1} digits)"
    return repr(v)


def _name(p, q) -> str:
    try:
        (r1, c1), (r2, c2) = p, q
    except (TypeError, ValueError):
        return "with malformed ends"
    if all(isinstance(v, int) and abs(v) < 10 ** 12 for v in (r1, c1, r2, c2)):
        return f"from {describe_cell(r1, c1)} to {describe_cell(r2, c2)}"
    return "[" + ", ".join(short_number(v) for v in (r1, c1, r2, c2)) + "]"


#: how picture files begin (the picture reader itself loads only for pictures)
_MAGIC = ((b"\x89PNG\r\n\x1a\n", "PNG"), (b"\xff\xd8\xff", "JPEG"))


def kind_of(raw: bytes) -> str | None:
    """``"PNG"``, ``"JPEG"`` or ``"WebP"`` when the bytes start like one, else None."""
    for magic, name in _MAGIC:
        if raw.startswith(magic):
            return name
    if raw[:4] == b"RIFF" and raw[8:12] == b"WEBP":
        return "WebP"
    return None
