"""Admission and reading: the limits a puzzle must keep (:class:`~hashikit.limits.Limits`),
the one verdict for numbers that alone make a puzzle impossible, what a request will cost before
it runs (:class:`Cost`: its board's cells and islands, or its picture's pixels, read without
building the board or decoding the picture), reading files and text, and the conversions between
a puzzle and its JSON shapes.  :class:`BadInput` is exit 2 / HTTP 400."""

from __future__ import annotations

from .. import limits as limits_mod
from ..errors import BadArgument, FormatError, HashikitError, PuzzleError
from ..limits import Deadline, Limits
from ..model import Puzzle, Solution, describe_cell
from ..records import Record
from .shapes import LinkEnds, Mark, ParseReport, PuzzleModel


class BadInput(HashikitError, ValueError):
    """Input a use-case refuses before any work: one line, exit 2 on the CLI, 400 on the web."""


class OutOfTime(HashikitError):
    """Work that ran past its time limit and was stopped (the answer is status ``unknown``)."""


def admit(puzzle: Puzzle, lim: Limits = limits_mod.CLI, numbers: bool = True) -> Puzzle:
    """Refuse a puzzle above ``lim`` and, with ``numbers``, one whose numbers alone make it
    impossible (an island needing more bridges than its links can carry): the same verdict,
    bad input, from every use-case."""
    refused = lim.problem(puzzle.rows, puzzle.cols, islands=len(puzzle.islands), maxbridges=puzzle.maxbridges)
    if refused:
        raise BadInput(refused)
    if numbers:
        problems = puzzle.capacity_problems()
        if problems:
            raise BadInput(problems[0] + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""))
    return puzzle


class Cost(Record, frozen=True):
    """What a piece of work will cost, declared before it runs: the cells and islands of its board
    (text declares no islands before it is read, and where its format declares no size either,
    its length stands for its cells), or the pixels of its picture (0 when its header gives no
    size: the reader refuses it)."""

    cells: int = 0
    islands: int = 0
    pixels: int = 0
    picture: bool = False

    def light(self, cells: int, islands: int) -> bool:
        """A board of at most ``cells`` cells and ``islands`` islands (never a picture)."""
        return not self.picture and self.cells <= cells and self.islands <= islands


def _int(value) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def puzzle_cost(data: dict, lim: Limits) -> Cost:
    """The cost of a puzzle in the JSON format's shape (``rows``, ``cols`` and ``islands``, or
    ``grid``), read from its sizes without building it; a board over ``lim`` is :class:`BadInput`
    in the board spec's words.  Sizes that are missing or malformed cost nothing here: the
    reader names what is wrong."""
    grid = data.get("grid")
    if isinstance(grid, list):
        rows = len(grid)
        cols = max((len(row) for row in grid if isinstance(row, list)), default=0)
        islands = sum(1 for row in grid if isinstance(row, list) for v in row if v)
    else:
        rows, cols = _int(data.get("rows")), _int(data.get("cols"))
        listed = data.get("islands")
        islands = len(listed) if isinstance(listed, list) else 0
    refused = lim.problem(rows if rows else None, cols if cols else None, islands=islands,
                          maxbridges=_int(data.get("maxbridges")))
    if refused:
        raise BadInput(refused)
    return Cost(cells=(rows or 0) * (cols or 0), islands=islands)


def text_cost(text: str, fmt: str | None = None, lim: Limits = limits_mod.WEB, source: str = "<request>") -> Cost:
    """The cost of reading ``text``: its bytes and the board its format declares (the format's own
    cheap size check, which reads the whole header), each refused over ``lim`` (:class:`BadInput`)
    before anything is parsed.  A format that declares no size costs its length in cells."""
    from ..formats import declared_size

    refused = lim.problem(input_bytes=len(text.encode("utf-8", "surrogatepass")))
    if refused:
        raise BadInput(refused)
    try:
        size = declared_size(text, fmt, source)
    except FormatError as exc:
        raise BadInput(f"cannot read the puzzle: {_where(exc)}") from None
    except (ValueError, IndexError, KeyError, TypeError, OverflowError, RecursionError) as exc:
        raise BadInput(f"cannot read the puzzle: {exc}") from None
    if size is None:
        return Cost(cells=len(text))
    refused = lim.problem(*size)
    if refused:
        raise BadInput(refused)
    return Cost(cells=size[0] * size[1])


def picture_cost(raw: bytes, max_pixels: int) -> Cost:
    """The cost of reading a picture: its pixels, from its header (nothing is decoded); over
    ``max_pixels`` is :class:`BadInput`.  A picture whose header gives no size costs 0 pixels
    and is left to the reader to refuse."""
    import io

    try:
        from PIL import Image

        with Image.open(io.BytesIO(raw)) as im:
            width, height = im.size
    except ImportError:
        return Cost(picture=True)
    except Image.DecompressionBombError:
        raise BadInput(f"the picture has far too many pixels; this server reads pictures of at most "
                       f"{max_pixels / 1e6:g} megapixels") from None
    except Exception:  # noqa: BLE001 - not a picture PIL knows: the reader says what it is
        return Cost(picture=True)
    if width * height > max_pixels:
        raise BadInput(f"the picture is {width}x{height} pixels ({width * height / 1e6:.1f} megapixels); this "
                       f"server reads pictures of at most {max_pixels / 1e6:g} megapixels: send a smaller one")
    return Cost(pixels=width * height, picture=True)


def validate_dimensions(rows: int, cols: int, lim: Limits) -> None:
    """Refuse a board side or cell count outside ``lim`` (cheap: before a board is built)."""
    refused = lim.problem(rows, cols)
    if refused:
        raise BadInput(refused)


def time_limit_for(asked: float | Deadline | None, lim: Limits) -> Deadline | None:
    """The deadline to keep: the caller's (seconds from now, or a :class:`~hashikit.limits.Deadline`
    shared with the caller's other stages), capped by ``lim``, else ``lim``'s default (None: no
    limit).  A time limit that is not a finite number of seconds above 0 is :class:`BadInput`
    (a ``ValueError``) naming the value."""
    try:
        deadline = Deadline.of(lim.default_time_limit if asked is None else asked)
    except BadArgument as exc:
        raise BadInput(str(exc)) from None
    return None if deadline is None else deadline.capped(lim.max_time_limit)


def load(path: str, fmt: str | None = None):
    """A file's :class:`~hashikit.formats.Document` (``-``: standard input); a picture's reading is
    settled by the rules (:func:`hashikit.service.settling.read_document`)."""
    from ..formats import read_file

    doc = read_file(path, fmt)
    if doc.picture is not None:
        from .settling import read_document

        doc = read_document(doc, "<stdin>" if path == "-" else path)
    return doc


def load_puzzle(path: str, fmt: str | None = None, lim: Limits = limits_mod.CLI):
    """A document that holds a puzzle within ``lim`` (its solution too, when it has one)."""
    doc = load(path, fmt)
    if doc.puzzle is None:
        raise BadInput(f"{path}: holds a solution without its puzzle; give the puzzle file")
    try:
        admit(doc.puzzle, lim, numbers=False)
    except BadInput as exc:
        raise BadInput(f"{path}: {exc}") from None
    return doc


def admit_file(path: str, puzzle: Puzzle, lim: Limits = limits_mod.CLI) -> Puzzle:
    """:func:`admit` with the file's name in the message."""
    try:
        return admit(puzzle, lim)
    except BadInput as exc:
        raise BadInput(f"{path}: {exc}") from None


def parse(text: str, fmt: str | None = None, lim: Limits = limits_mod.WEB, source: str = "<request>") -> ParseReport:
    """Read puzzle text (never a path) within ``lim`` and describe its geometry: links and crossing
    pairs.  More bytes than ``lim`` takes, and a board the text declares larger than ``lim`` (the
    format's own size check, before the board is read), are refused first."""
    from ..formats import read_text

    text_cost(text, fmt, lim, source)
    try:
        doc = read_text(text, fmt, source, lim)
    except FormatError as exc:
        raise BadInput(f"cannot read the puzzle: {_where(exc)}") from None
    except (PuzzleError, ValueError, IndexError, KeyError, TypeError, OverflowError) as exc:
        raise BadInput(f"cannot read the puzzle: {exc}") from None
    except RecursionError:
        raise BadInput("cannot read the puzzle: it is nested too deeply") from None
    if doc.puzzle is None:
        raise BadInput("the text holds bridges but no puzzle")
    admit(doc.puzzle, lim, numbers=False)
    report = ParseReport(puzzle=PuzzleModel.of(doc.puzzle), links=link_ends(doc.puzzle),
                         crossings=[list(pair) for pair in doc.puzzle.crossings])
    if doc.solution is not None:
        report.bridges = doc.solution.to_list()
    return report


def _where(exc: FormatError) -> str:
    if exc.line is not None:
        where = f"line {exc.line}" + (f", column {exc.column}" if exc.column is not None else "")
        return f"{where}: {exc.message}"
    return exc.message


def link_ends(puzzle: Puzzle) -> list[LinkEnds]:
    isl = puzzle.islands
    return [[*isl[ln.a].pos, *isl[ln.b].pos] for ln in puzzle.links]


def bridges_on_board(puzzle: Puzzle, solution: Solution, what: str = "bridges") -> Solution:
    """Refuse bridges with an end off the board or an absurd count before anything walks them."""
    for (p, q), k in solution.bridges.items():
        for r, c in (p, q):
            if not (0 <= r < puzzle.rows and 0 <= c < puzzle.cols):
                raise BadInput(f"{what}: the bridge {[*p, *q, k]} has an end outside the "
                               f"{puzzle.rows}x{puzzle.cols} board")
        if not -4 * puzzle.maxbridges <= k <= 4 * puzzle.maxbridges:
            raise BadInput(f"{what}: the bridge {[*p, *q, k]} has a count far above MAXBRIDGES")
    return solution


def board_marks(puzzle: Puzzle, marks: list[Mark] | None) -> list[tuple[int, int]]:
    """A player's marks as ``(link, most)`` pairs (:meth:`hashikit.logic.State.from_board` reads
    them); BadInput for a mark on no link or a ``most`` outside 0..MAXBRIDGES."""
    out = []
    for m in marks or []:
        if len(m) not in (4, 5):
            raise BadInput(f"marks: a mark is [r1, c1, r2, c2] or [r1, c1, r2, c2, most], got {m!r}")
        p, q = tuple(m[:2]), tuple(m[2:4])
        a, b = puzzle.index.get(p), puzzle.index.get(q)
        k = puzzle.link_index.get((min(a, b), max(a, b))) if a is not None and b is not None else None
        if k is None:
            raise BadInput(f"marks: no link joins {describe_cell(*p)} and {describe_cell(*q)}")
        most = m[4] if len(m) == 5 else 0
        if not 0 <= most <= puzzle.maxbridges:
            raise BadInput(f"marks: the mark {m!r} allows {most} bridges; give 0 to {puzzle.maxbridges}")
        out.append((k, most))
    return out


def mark_list(puzzle: Puzzle, marks) -> list[Mark]:
    """``(link, most)`` pairs as ``[r1, c1, r2, c2, most]``."""
    isl, links = puzzle.islands, puzzle.links
    return [[*isl[links[k].a].pos, *isl[links[k].b].pos, most] for k, most in marks]
