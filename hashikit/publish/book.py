"""Printable puzzle books: a PDF a publisher can send to print (fpdf2), an answer book, and the
same pages as SVG or PNG for apps.

A book is a title page, a copyright page, a contents page (one line per section, continued on
a second page if needed), then the puzzles in *sections*: one per level and board size, easiest
level first, each puzzle numbered within its level (E001, E002, ... M001 ... H001 ... X001 for
expert) and ordered by score, each section starting on a right-hand page; then the solutions
(in the book, in a separate answer PDF, or none).  Pages are A4 or Letter; the inner margin is
wider by the binding allowance and alternates sides (odd pages are bound on the left); page
numbers sit on the outer corners.

Legibility is a rule, not a hope: every section has one cell size, chosen from its largest board
and the page grid; numbers print at least at :data:`MIN_PT` (7 pt on puzzles, 5 pt on solutions).
Without ``per_page`` a section takes the largest count up to 4 (12 for solutions) that keeps the
minimum; an explicit count or grid that would print smaller is refused, naming the largest count
that keeps it.  Boards are centred in their slots.

One drawing path: :func:`layout` places every text and board on every page once, in
millimetres; :func:`board_shapes` turns a board into a few kinds of shapes (frame, grid
lines, bridges, islands with their numbers) and the back ends write those shapes: the PDF back
end as vector paths straight into the page's content stream (no SVG per board; one circle path
reused for every island), the SVG back end as SVG elements, and PNG pages are that SVG
rasterised by resvg.  Two styles: ``classic`` (the look of ``hashikit render``: a tinted board,
a faint grid, blue-black bridges) and ``plain`` (black on white, no tint, no grid).

Before anything is drawn every puzzle is checked, in the batch runner's worker processes when
there are many: the SAT engine must prove it unique (``max_solutions=2``), the deducer
must grade it at its stated level, and the solution printed is the engine's, passed by the
independent rule checker (again in this process).  A puzzle that fails is refused by name.

About 950 lines on purpose: the sources and checks, the layout, the board's shapes and the two
back ends share one page model (millimetres, :class:`Page`, :class:`Board`, :class:`Label`); a
change to how a board is placed and to how it is drawn is one change, read in one place.

Fonts: DejaVu Sans, from the system (Debian ``fonts-dejavu-core``), from a folder named by
``HASHIKIT_FONT_DIR`` or ``font_dir``, or the copy shipped in matplotlib if that is installed.
It is embedded (subset) in the PDF.
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass, field
from typing import Iterable, NamedTuple
from xml.sax.saxutils import escape

from ..errors import HashikitError
from ..model import LEVELS, Puzzle, Solution

#: paper sizes, width x height in millimetres
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
#: margins in millimetres: outer, top, bottom (the page number sits in the bottom one)
MARGIN, TOP, BOTTOM = 15.0, 18.0, 20.0
#: nothing is printed closer than this to the paper's edge (mm): the printable area
SAFE = 8.0
#: default binding allowance added to the inner margin
BINDING = 10.0
#: smallest printed size of an island's number, in points
MIN_PT = {"puzzle": 7.0, "solution": 5.0}
#: per-page counts used when none is given: the largest count up to these that keeps MIN_PT
DEFAULT_PER_PAGE = {"puzzle": 4, "solution": 12}
#: the most boards on one page
MAX_PER_PAGE = 64
#: the largest cell printed (mm), so a small board one to a page does not fill it
MAX_CELL = 12.0
#: space between slots (mm), caption sizes (pt)
GAP = 7.0
CAPTION_PT = {"puzzle": 10.0, "solution": 8.0}
HEADING_PT, FOLIO_PT, CONTENTS_PT = 10.0, 10.0, 11.0
#: the letter that numbers a level's puzzles (E001 ...)
LETTERS = dict(zip(LEVELS, "EMHX", strict=True))
STYLES = ("classic", "plain")
SOLUTIONS = ("book", "separate", "none")
FONT_NAME = "DejaVu Sans"  # the family hashikit.render's SVG asks for first
_FONT_FILES = {"": "DejaVuSans.ttf", "B": "DejaVuSans-Bold.ttf"}
_FONT_DIRS = ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/dejavu", "/usr/share/fonts/TTF",
              "/usr/local/share/fonts", os.path.expanduser("~/.fonts"), "/Library/Fonts")
#: below this many puzzles the checks run in this process (a worker pool's start costs more)
PARALLEL_FROM = 24

_PT = 25.4 / 72  # millimetres per point
_PX = 96 / 25.4  # CSS pixels per millimetre


class BookError(HashikitError):
    """A book that cannot be made: a puzzle that fails its checks, a missing font, bad options."""


# -- the puzzles -------------------------------------------------------------------------------

@dataclass
class BookPuzzle:
    puzzle: Puzzle
    level: str | None = None
    score: int | None = None
    #: where it came from (file name or catalogue id), for error messages
    name: str = ""
    solution: Solution | None = None
    #: its place in the book (1, 2, ...) and its printed label (E001 ...), given by :func:`order`
    number: int = 0
    label: str = ""


def from_catalog(path: str, at_most: int | None = None, **filters) -> list[BookPuzzle]:
    """The catalogue's puzzles matching ``filters`` (as :meth:`Catalog.query`), easiest first."""
    from .catalog import Catalog

    with Catalog(path, create=False) as cat:
        return [BookPuzzle(e.puzzle, e.level, e.score, f"{path} entry {e.id}", e.solution)
                for e in cat.iter_query(at_most=at_most, **filters)]


def from_folder(folder: str, at_most: int | None = None) -> list[BookPuzzle]:
    """Every puzzle file in ``folder`` in name order (index files, batch logs and pictures skipped),
    with the levels the folder's index.csv states (checked by :func:`verify`)."""
    from .catalog import CatalogError, read_folder

    try:
        files = read_folder(folder)
    except CatalogError as exc:
        raise BookError(str(exc)) from None
    if not files:
        raise BookError(f"{folder}: no puzzle files in this folder")
    return [BookPuzzle(f.puzzle, f.level, name=f.path) for f in files[:at_most]]


def load(source: str, at_most: int | None = None, **filters) -> list[BookPuzzle]:
    """A catalogue file (SQLite) or a folder of puzzle files; at most ``at_most`` puzzles."""
    if os.path.isdir(source):
        if any(v is not None for v in filters.values()):
            raise BookError("filters (size, level, score ...) select from a catalogue, not a folder")
        return from_folder(source, at_most)
    if not os.path.exists(source):
        raise BookError(f"{source}: no such catalogue or folder")
    return from_catalog(source, at_most, **filters)


def _verify_one(puzzle_json: str) -> dict:
    """One puzzle's checks (a batch job): unique by SAT, checked, graded.  Plain data back."""
    from ..checker import check
    from ..formats import read_text
    from ..logic import grade
    from ..solvers import solve

    puzzle = read_text(puzzle_json, "json").puzzle
    result = solve(puzzle, max_solutions=2)
    if result.unique is not True:
        return {"unique": result.unique, "status": result.status}
    if not check(puzzle, result.solution).ok:  # pragma: no cover - an engine bug
        return {"unique": True, "status": "solution fails the rule checker"}
    g = grade(puzzle)
    return {"unique": True, "status": "solved", "bridges": result.solution.to_list(),
            "level": g.level, "score": g.score}


def verify(items: Iterable[BookPuzzle], workers: int | None = None) -> list[BookPuzzle]:
    """Prove each puzzle unique, grade it (it must match a stated level) and attach the checked
    solution; raises BookError naming every puzzle that fails.  Many puzzles are checked in the
    batch runner's worker processes (``workers``, default the cores; 1: in this process)."""
    from ..checker import check
    from ..formats import write_text

    items = list(items)
    texts = [write_text(i.puzzle, "json") for i in items]
    workers = workers or os.cpu_count() or 1
    if workers == 1 or len(items) < PARALLEL_FROM:
        answers = [_verify_one(t) for t in texts]
    else:
        from ..run.batch import Job, run_batch

        answers = [None] * len(items)
        jobs = [Job(str(k), _verify_one, (t,)) for k, t in enumerate(texts)]
        for res in run_batch(jobs, workers=min(workers, len(items)), progress=False, label="book checks",
                             preload=("hashikit.solvers", "hashikit.logic", "hashikit.formats")):
            if not res.ok:
                raise BookError(f"{items[res.index].name}: the check failed: {res.error}")
            answers[res.index] = res.value
    problems = []
    for item, ans in zip(items, answers):
        if ans["unique"] is not True or "bridges" not in ans:
            problems.append(f"{item.name}: " + ("has more than one solution" if ans["unique"] is False
                                                else f"not proved unique ({ans['status']})"))
            continue
        solution = Solution.from_list(ans["bridges"])
        if not check(item.puzzle, solution).ok:  # pragma: no cover - an engine bug
            problems.append(f"{item.name}: the engine's solution fails the rule checker")
            continue
        item.solution = solution
        if ans["level"] is None:
            problems.append(f"{item.name}: the deduction rules do not finish it (it needs guessing)")
        elif item.level is not None and ans["level"] != item.level:
            problems.append(f"{item.name}: stated {item.level}, but it grades {ans['level']}")
        item.level, item.score = ans["level"], ans["score"]
    if problems:
        more = f" (and {len(problems) - 5} more)" if len(problems) > 5 else ""
        raise BookError(f"{len(problems)} puzzle(s) cannot go in the book: " + "; ".join(problems[:5]) + more)
    return items


def order(items: list[BookPuzzle]) -> list[BookPuzzle]:
    """Easiest level first, then by board size, then by score; numbered from 1 and labelled
    within their level (E001 ...)."""
    ranked = sorted(items, key=lambda i: (LEVELS.index(i.level), i.puzzle.rows * i.puzzle.cols,
                                          i.puzzle.rows, i.score or 0))
    per_level = {lv: sum(1 for i in ranked if i.level == lv) for lv in LEVELS}
    seen = dict.fromkeys(LEVELS, 0)
    for k, item in enumerate(ranked, 1):
        seen[item.level] += 1
        item.number = k
        item.label = f"{LETTERS[item.level]}{seen[item.level]:0{max(3, len(str(per_level[item.level])))}d}"
    return ranked


# -- options -------------------------------------------------------------------------------------

def parse_per_page(text: str | int | tuple | None) -> int | tuple[int, int] | None:
    """``4`` (a count, arranged to print the boards largest) or ``2x3`` (ROWSxCOLS of boards)."""
    if text is None or isinstance(text, tuple):
        value = text
    elif isinstance(text, int) and not isinstance(text, bool):
        value = text
    else:
        m = re.fullmatch(r"\s*(\d{1,3})\s*(?:[xX]\s*(\d{1,3}))?\s*", str(text))
        if not m:
            raise BookError(f"per page is a count (4) or ROWSxCOLS of boards (2x3), got {text!r}")
        value = int(m.group(1)) if m.group(2) is None else (int(m.group(1)), int(m.group(2)))
    count = value if isinstance(value, int) else (value[0] * value[1] if value else None)
    if count is not None and (not 1 <= count <= MAX_PER_PAGE or (isinstance(value, tuple) and min(value) < 1)):
        raise BookError(f"per page runs from 1 to {MAX_PER_PAGE} boards, got {text!r}")
    return value


@dataclass
class Options:
    per_page: int | tuple[int, int] | str | None = None
    solutions_per_page: int | tuple[int, int] | str | None = None
    paper: str = "a4"
    binding: float = BINDING
    title: str = "Hashiwokakero"
    subtitle: str | None = None
    author: str | None = None
    copyright: str | None = None
    solutions: str = "book"
    style: str = "classic"
    #: each section starts on a right-hand (odd) page, a blank page before it when needed
    recto: bool = True
    #: where DejaVu Sans is (else the system's, HASHIKIT_FONT_DIR, matplotlib's)
    font_dir: str | None = None

    def __post_init__(self) -> None:
        self.per_page = parse_per_page(self.per_page)
        self.solutions_per_page = parse_per_page(self.solutions_per_page)
        if self.paper not in PAPERS:
            raise BookError(f"paper must be one of {', '.join(PAPERS)}, got {self.paper!r}")
        for name, text, most in (("title", self.title, 100), ("subtitle", self.subtitle, 160),
                                 ("author", self.author, 100), ("copyright", self.copyright, 400)):
            if text is not None and (not text.strip() or len(text) > most or not text.isprintable()):
                raise BookError(f"a book {name} is 1 to {most} printable characters on one line")
        if not 0 <= self.binding <= 40:
            raise BookError(f"the binding allowance is 0 to 40 mm, got {self.binding}")
        if self.solutions not in SOLUTIONS:
            raise BookError(f"solutions go in the {' / '.join(SOLUTIONS)}, got {self.solutions!r}")
        if self.style not in STYLES:
            raise BookError(f"style must be one of {', '.join(STYLES)}, got {self.style!r}")
        if self.solutions == "none" and self.solutions_per_page is not None:
            raise BookError("solutions per page: there are no solutions in this book (solutions none)")


# -- the layout ----------------------------------------------------------------------------------

class Label(NamedTuple):
    """A line of text; ``x`` is its left edge, centre or right edge by ``align`` (L, C, R)."""
    x: float
    y: float  # baseline
    text: str
    size: float  # points
    bold: bool = False
    align: str = "L"


class Board(NamedTuple):
    x: float  # top-left corner of the board's box (mm)
    y: float
    cell: float  # mm
    puzzle: Puzzle
    solution: Solution | None

    @property
    def w(self) -> float:
        return (self.puzzle.cols + 2 * _BORDER) * self.cell

    @property
    def h(self) -> float:
        return (self.puzzle.rows + 2 * _BORDER) * self.cell


@dataclass
class Page:
    number: int
    width: float
    height: float
    labels: list[Label] = field(default_factory=list)
    boards: list[Board] = field(default_factory=list)
    #: what the page is: title, copyright, contents, blank, puzzles, solutions
    kind: str = "puzzles"


@dataclass
class Section:
    level: str
    rows: int
    cols: int
    items: list[BookPuzzle]

    @property
    def name(self) -> str:
        return f"{self.level.capitalize()} {self.rows}x{self.cols}"

    @property
    def widest(self) -> int:
        """Digits in the section's longest island number."""
        return len(str(max(i.number for item in self.items for i in item.puzzle.islands)))

    @property
    def span(self) -> str:
        first, last = self.items[0].label, self.items[-1].label
        return first if first == last else f"{first}-{last}"


def sections(items: list[BookPuzzle]) -> list[Section]:
    """Ordered items grouped by level and board size, in order."""
    out: list[Section] = []
    for item in items:
        key = (item.level, item.puzzle.rows, item.puzzle.cols)
        if not out or (out[-1].level, out[-1].rows, out[-1].cols) != key:
            out.append(Section(*key, []))
        out[-1].items.append(item)
    return out


#: board picture geometry, in cells: border around the board, island radius, ring, bridge line,
#: the gap between parallel bridge lines, the number's size (as hashikit.render draws at 40 px)
_BORDER, _RADIUS, _RING, _LINE, _PAIR = 0.3, 0.4, 0.06, 0.07, 0.15


def number_size(cell: float, text: str) -> float:
    """A number's font size (same unit as ``cell``): bold sans that fits the island's disc."""
    return min(0.6 * cell, 0.98 * cell / max(1, len(text)))


def _content(page: int, opts: Options) -> tuple[float, float, float, float]:
    """The area inside the margins of page ``page`` (odd pages bound on the left)."""
    pw, ph = PAPERS[opts.paper]
    inner = MARGIN + opts.binding
    left = inner if page % 2 == 1 else MARGIN
    return left, TOP, pw - MARGIN - inner, ph - TOP - BOTTOM


def _grids(count: int) -> list[tuple[int, int]]:
    """The ROWSxCOLS page grids for ``count`` boards with no empty row or column."""
    return [(r, -(-count // r)) for r in range(1, count + 1) if (r - 1) * -(-count // r) < count]


@dataclass
class Plan:
    """How a section's boards go on its pages: grid, count, cell size and the numbers' size."""
    rows: int
    cols: int
    count: int
    cell: float
    pt: float


def _plan(section: Section, per: int | tuple[int, int], opts: Options, kind: str, widest: int) -> Plan:
    """The cell size a page grid gives the section's boards (centred slots, a caption line above
    each board), and the printed size of its widest number (``widest`` digits)."""
    _, _, w, h = _content(1, opts)
    caption = CAPTION_PT[kind] * _PT * 1.6
    grids = [per] if isinstance(per, tuple) else _grids(per)
    best = None
    for r, c in grids:
        slot_w = (w - GAP * (c - 1)) / c
        slot_h = (h - GAP * (r - 1)) / r - caption
        cell = min(MAX_CELL, slot_w / (section.cols + 2 * _BORDER), slot_h / (section.rows + 2 * _BORDER))
        if best is None or cell > best.cell:
            best = Plan(r, c, per if isinstance(per, int) else r * c, cell, 0.0)
    best.pt = number_size(best.cell, "8" * widest) / _PT
    return best


def plan_section(section: Section, opts: Options, kind: str) -> Plan:
    """The plan for the section's puzzles (``kind`` puzzle) or solutions: the count asked, or the
    largest up to the default that keeps the minimum size; BookError when it cannot be kept."""
    widest = section.widest
    asked = opts.per_page if kind == "puzzle" else opts.solutions_per_page
    least = MIN_PT[kind]
    flag = "--per-page" if kind == "puzzle" else "--solutions-per-page"
    top = DEFAULT_PER_PAGE[kind] if asked is None else (asked if isinstance(asked, int) else asked[0] * asked[1])
    if asked is not None:
        plan = _plan(section, asked, opts, kind, widest)
        if plan.pt >= least:
            return plan
    for count in range(top if asked is None else top - 1, 0, -1):
        plan = _plan(section, count, opts, kind, widest)
        if plan.pt >= least:
            if asked is None:
                return plan
            shown = f"{asked[0]}x{asked[1]}" if isinstance(asked, tuple) else str(asked)
            raise BookError(f"{section.name} {kind}s at {shown} a page print their numbers at "
                            f"{_plan(section, asked, opts, kind, widest).pt:.1f} pt, below the {least:g} pt minimum; "
                            f"the largest count per page that keeps {least:g} pt is {count} ({flag} {count})")
    one = _plan(section, 1, opts, kind, widest)
    raise BookError(f"{section.name} boards are too large for {opts.paper} paper: their numbers print at "
                    f"{one.pt:.1f} pt even one to a page, below the {least:g} pt minimum")


def _new_page(pages: list[Page], opts: Options, kind: str, heading: str | None = None,
              recto: bool = False) -> Page:
    """Append a page (after a blank one if it must be a right-hand page and would not be)."""
    pw, ph = PAPERS[opts.paper]
    if recto and opts.recto and (len(pages) + 1) % 2 == 0:
        pages.append(Page(len(pages) + 1, pw, ph, kind="blank"))
    page = Page(len(pages) + 1, pw, ph, kind=kind)
    x, y, w, _ = _content(page.number, opts)
    if heading:
        page.labels.append(Label(x, y - 6, heading, HEADING_PT, bold=True))
    if kind not in ("title", "copyright", "blank"):  # page numbers on the outer corner
        right = page.number % 2 == 1
        page.labels.append(Label(x + w if right else x, ph - BOTTOM / 2, str(page.number), FOLIO_PT,
                                 align="R" if right else "L"))
    pages.append(page)
    return page


def _board_pages(pages: list[Page], section: Section, plan: Plan, opts: Options, kind: str,
                 heading: str, recto: bool) -> int:
    """The section's boards ``plan.count`` to a page, each centred in its slot with its caption
    just above it, every board at the section's one cell size; the number of its first page."""
    solved = kind == "solution"
    caption_pt = CAPTION_PT[kind]
    line = caption_pt * _PT * 1.6
    for start in range(0, len(section.items), plan.count):
        page = _new_page(pages, opts, "solutions" if solved else "puzzles", heading, recto and start == 0)
        x0, y0, w, h = _content(page.number, opts)
        sw, sh = (w - GAP * (plan.cols - 1)) / plan.cols, (h - GAP * (plan.rows - 1)) / plan.rows
        for k, item in enumerate(section.items[start:start + plan.count]):
            sx, sy = x0 + (k % plan.cols) * (sw + GAP), y0 + (k // plan.cols) * (sh + GAP)
            board = Board(0, 0, plan.cell, item.puzzle, item.solution if solved else None)
            bx, by = sx + (sw - board.w) / 2, sy + line + (sh - line - board.h) / 2
            page.labels.append(Label(bx + _BORDER * plan.cell / 2, by - 0.5 * caption_pt * _PT, item.label,
                                     caption_pt, bold=True))
            page.boards.append(board._replace(x=bx, y=by))
    return next(p.number for p in reversed(pages) if p.kind != "blank") - (len(section.items) - 1) // plan.count


def text_width(text: str, size: float, bold: bool = False, font_dir: str | None = None) -> float:
    """Width in mm of ``text`` in DejaVu Sans at ``size`` pt (from the font's own advance widths)."""
    widths = _advances(bold, font_dir)
    return sum(widths.get(ch, 0.6) for ch in text) * size * _PT


_ADVANCES: dict[str, dict[str, float]] = {}


def _advances(bold: bool, font_dir: str | None = None) -> dict[str, float]:
    """Advance widths (in em) of the font's characters up to U+20FF, read once per font file."""
    path = find_fonts(font_dir)["B" if bold else ""]
    if path not in _ADVANCES:
        from fontTools.ttLib import TTFont

        font = TTFont(path, lazy=True)
        cmap, hmtx, em = font.getBestCmap(), font["hmtx"], font["head"].unitsPerEm
        _ADVANCES[path] = {chr(u): hmtx[g][0] / em for u, g in cmap.items() if u < 0x2100}
    return _ADVANCES[path]


def wrap(text: str, width: float, size: float, bold: bool = False, font_dir: str | None = None) -> list[str]:
    """``text`` broken at spaces into lines no wider than ``width`` mm (a word longer than the
    line is cut)."""
    lines: list[str] = []
    for word in text.split():
        while text_width(word, size, bold, font_dir) > width:  # a word wider than the line: cut it
            cut = max(1, max(k for k in range(1, len(word) + 1) if text_width(word[:k], size, bold, font_dir) <= width
                             or k == 1))
            if lines and not lines[-1]:
                lines.pop()
            lines.append(word[:cut])
            word = word[cut:]
        if lines and text_width(f"{lines[-1]} {word}", size, bold, font_dir) <= width:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    return lines


def _block(page: Page, x: float, y: float, w: float, text: str, size: float, bold: bool,
           most_lines: int, least: float, font_dir: str | None) -> float:
    """``text`` centred at ``x`` in lines of at most ``w`` mm from baseline ``y``, at ``size`` pt,
    smaller (not below ``least``) if it would take more than ``most_lines``; the next free y."""
    lines = wrap(text, w, size, bold, font_dir)
    while len(lines) > most_lines and size > least:
        size = max(least, size - 2)
        lines = wrap(text, w, size, bold, font_dir)
    for line in lines:
        page.labels.append(Label(x, y, line, size, bold, "C"))
        y += size * _PT * 1.3
    return y


def _front(pages: list[Page], opts: Options, title: str, counts: str) -> None:
    """Title page and copyright page."""
    page = _new_page(pages, opts, "title")
    x, _, w, _ = _content(1, opts)
    mid = x + w / 2
    y = _block(page, mid, page.height * 0.3, w, title, 30, True, 4, 16, opts.font_dir)
    if opts.subtitle:
        y = _block(page, mid, y + 6, w, opts.subtitle, 15, False, 4, 10, opts.font_dir)
    if opts.author:
        _block(page, mid, y + 14, w, opts.author, 14, False, 3, 10, opts.font_dir)
    _block(page, mid, page.height - BOTTOM - 10, w, counts, 10, False, 3, 8, opts.font_dir)
    page = _new_page(pages, opts, "copyright")
    x, _, w, _ = _content(page.number, opts)
    notes = [opts.copyright] if opts.copyright else []
    notes += ["Every puzzle in this book has exactly one solution, and it can be reached by logic alone: "
              "each was proved unique by an exact solver and graded by a deducer.",
              "Rules: join the islands with horizontal and vertical bridges; bridges do not cross; at most two "
              "bridges join a pair of islands; each island has as many bridges as its number; all islands "
              "form one connected group."]
    blocks = [wrap(note, w, 9, font_dir=opts.font_dir) for note in notes]
    step = 9 * _PT * 1.4
    y = page.height - BOTTOM - sum(len(b) * step + 3 for b in blocks)  # the notes end at the bottom margin
    for block in blocks:
        for line in block:
            y += step
            page.labels.append(Label(x, y, line, 9))
        y += 3


#: contents lines on one page
CONTENTS_LINES = 28


def _contents(pages: list[Page], opts: Options, entries: list[tuple[str, int]]) -> None:
    """Contents: one line per entry, leader dots to the page number; continued on more pages."""
    for start in range(0, len(entries), CONTENTS_LINES):
        page = _new_page(pages, opts, "contents", None, recto=start == 0 and opts.recto)
        x, y, w, _ = _content(page.number, opts)
        page.labels.append(Label(x, y + 8, "Contents" + (" (continued)" if start else ""), 16, bold=True))
        y += 24
        dot = text_width(" .", CONTENTS_PT, font_dir=opts.font_dir)
        for name, number in entries[start:start + CONTENTS_LINES]:
            room = (w - text_width(name, CONTENTS_PT, font_dir=opts.font_dir)
                    - text_width(str(number), CONTENTS_PT, font_dir=opts.font_dir) - 2 * dot)
            page.labels.append(Label(x, y, name + " ." * max(0, int(room / dot)), CONTENTS_PT))
            page.labels.append(Label(x + w, y, str(number), CONTENTS_PT, align="R"))
            y += CONTENTS_PT * _PT * 2


def _counts(items: list[BookPuzzle]) -> str:
    counts = {lv: sum(1 for i in items if i.level == lv) for lv in LEVELS}
    return f"{len(items)} puzzles: " + ", ".join(f"{n} {lv}" for lv, n in counts.items() if n)


class Book(NamedTuple):
    """A laid-out book: its pages, the answer book's (empty unless solutions are separate), and per
    section its name, puzzles, per-page counts and the printed size of its numbers."""
    pages: list[Page]
    answers: list[Page]
    sections: list[dict]


#: the front matter: title page, copyright page
_FRONT = 2


def layout(items: list[BookPuzzle], opts: Options) -> Book:
    """Every page of the book (and of the answer book).  ``items`` verified and ordered."""
    if not items:
        raise BookError("no puzzles to put in the book")
    if any(i.solution is None or i.number < 1 or not i.label for i in items):
        raise BookError("puzzles must be verified and ordered (book.verify, book.order) before layout")
    parts = sections(items)
    plans = [plan_section(s, opts, "puzzle") for s in parts]
    sol_plans = [plan_section(s, opts, "solution") for s in parts] if opts.solutions != "none" else []
    # the contents' length is known from the number of sections, so the body's page numbers are
    # known before the contents is written: the body is laid out after placeholders for the front
    n_contents = -(-(len(parts) + (opts.solutions == "book")) // CONTENTS_LINES)
    pw, ph = PAPERS[opts.paper]
    pages = [Page(k + 1, pw, ph, kind="front") for k in range(_FRONT + n_contents)]
    toc = []
    for section, plan in zip(parts, plans):
        toc.append((f"{section.name} puzzles  {section.span}",
                    _board_pages(pages, section, plan, opts, "puzzle", f"{section.name} puzzles", True)))
    answers: list[Page] = []
    if opts.solutions == "separate":
        _front(answers, opts, f"{opts.title}: solutions", _counts(items))
    into = pages if opts.solutions == "book" else answers
    for k, (section, plan) in enumerate(zip(parts, sol_plans)):
        first = _board_pages(into, section, plan, opts, "solution", f"Solutions: {section.name}", k == 0)
        if k == 0 and into is pages:
            toc.append(("Solutions", first))
    front: list[Page] = []
    _front(front, opts, opts.title, _counts(items))
    _contents(front, opts, toc)
    assert len(front) == _FRONT + n_contents, "the contents took another number of pages than planned"
    info = []
    for k, (section, plan) in enumerate(zip(parts, plans)):
        row = {"section": section.name, "puzzles": len(section.items), "per_page": plan.count,
               "pt": round(plan.pt, 1)}
        if sol_plans:
            row.update(solutions_per_page=sol_plans[k].count, solution_pt=round(sol_plans[k].pt, 1))
        info.append(row)
    return Book(front + pages[len(front):], answers, info)


# -- fonts -----------------------------------------------------------------------------------------

def find_fonts(font_dir: str | None = None) -> dict[str, str]:
    """Paths of DejaVu Sans regular and bold, or BookError saying how to get them."""
    dirs = [d for d in (font_dir, os.environ.get("HASHIKIT_FONT_DIR")) if d]
    dirs += list(_FONT_DIRS)
    import importlib.util

    spec = importlib.util.find_spec("matplotlib")
    if spec is not None and spec.origin:
        dirs.append(os.path.join(os.path.dirname(spec.origin), "mpl-data", "fonts", "ttf"))
    for d in dirs:
        paths = {style: os.path.join(d, name) for style, name in _FONT_FILES.items()}
        if all(os.path.isfile(p) for p in paths.values()):
            return paths
    raise BookError("no DejaVu Sans font found to embed; install it (Debian/Ubuntu: apt install "
                    "fonts-dejavu-core) or name a folder holding DejaVuSans.ttf and DejaVuSans-Bold.ttf "
                    "with --font-dir or HASHIKIT_FONT_DIR")


# -- the board's shapes ------------------------------------------------------------------------------

#: colours (r, g, b from 0 to 1) of the two styles; classic is hashikit.render's palette
def _rgb(hex_colour: str) -> tuple[float, float, float]:
    return tuple(int(hex_colour[k:k + 2], 16) / 255 for k in (1, 3, 5))


def _palette(style: str) -> dict[str, tuple[float, float, float] | None]:
    from ..render import COLORS

    if style == "plain":
        black, white = (0.0, 0.0, 0.0), (1.0, 1.0, 1.0)
        return {"board": None, "board_edge": None, "grid": None, "bridge": black, "island_fill": white,
                "island_ring": black, "number": black}
    return {k: _rgb(COLORS[k]) for k in ("board", "board_edge", "grid", "bridge", "island_fill",
                                         "island_ring", "number")}


class Shapes(NamedTuple):
    """A board as the few kinds of shapes a back end writes (millimetres on the page)."""
    frame: tuple[float, float, float, float] | None  # x, y, w, h of the tinted board
    grid: list[tuple[float, float, float, float]]  # faint lines through the cell centres
    bridges: list[tuple[float, float, float, float]]  # one segment per bridge line
    counts: list[tuple[float, float, str, float]]  # x, y (centre), text, size: counts above 4 lines
    islands: list[tuple[float, float, str, float]]  # centre x, y, number, font size (mm)
    radius: float
    ring: float
    line: float
    thin: float


def board_shapes(board: Board, style: str) -> Shapes:
    c = board.cell
    ox, oy = board.x + (_BORDER + 0.5) * c, board.y + (_BORDER + 0.5) * c  # centre of cell (0, 0)
    frame, grid = None, []
    if style == "classic":
        inset = _BORDER * c / 2
        frame = (board.x + inset, board.y + inset, board.w - 2 * inset, board.h - 2 * inset)
        p = board.puzzle
        x1, y1 = ox + (p.cols - 1) * c, oy + (p.rows - 1) * c
        grid = [(ox, oy + r * c, x1, oy + r * c) for r in range(p.rows)]
        grid += [(ox + k * c, oy, ox + k * c, y1) for k in range(p.cols)]
    bridges, counts = [], []
    if board.solution is not None:
        for ((r1, c1), (r2, c2)), n in board.solution.bridges.items():
            xa, ya, xb, yb = ox + c1 * c, oy + r1 * c, ox + c2 * c, oy + r2 * c
            lines = max(1, min(n, 4))
            for k in range(lines):
                off = (k - (lines - 1) / 2) * _PAIR * c * (1 if lines <= 2 else 0.8)
                if r1 == r2:
                    bridges.append((xa, ya + off, xb, yb + off))
                else:
                    bridges.append((xa + off, ya, xb + off, yb))
            if n > 4:
                counts.append(((xa + xb) / 2, (ya + yb) / 2, str(n), 0.36 * c))
    islands = [(ox + i.col * c, oy + i.row * c, str(i.number), number_size(c, str(i.number)))
               for i in board.puzzle.islands]
    return Shapes(frame, grid, bridges, counts, islands, _RADIUS * c, max(0.12, _RING * c),
                  max(0.15, _LINE * c), max(0.08, 0.025 * c))


# -- the PDF back end ---------------------------------------------------------------------------------

_K = 72 / 25.4  # points per millimetre
_BEZ = 4 / 3 * (math.sqrt(2) - 1)


def _circle_path(r: float) -> str:
    """A circle of radius ``r`` around (0, 0) as four Bezier curves (PDF path operators)."""
    k = _BEZ * r
    return (f"{r:.3f} 0 m {r:.3f} {k:.3f} {k:.3f} {r:.3f} 0 {r:.3f} c "
            f"{-k:.3f} {r:.3f} {-r:.3f} {k:.3f} {-r:.3f} 0 c "
            f"{-r:.3f} {-k:.3f} {-k:.3f} {-r:.3f} 0 {-r:.3f} c "
            f"{k:.3f} {-r:.3f} {r:.3f} {-k:.3f} {r:.3f} 0 c h")


def _colour(rgb, op: str) -> str:
    return f"{rgb[0]:.3f} {rgb[1]:.3f} {rgb[2]:.3f} {op}"


class _Glyphs:
    """Island numbers in the PDF's embedded bold font: each text's encoded string and width (mm per mm
    of font size), asked of fpdf2 once per distinct text."""

    def __init__(self, pdf, font_dir: str | None) -> None:
        self.pdf, self.font_dir = pdf, font_dir
        self.cache: dict[str, tuple[str, float]] = {}

    def __call__(self, text: str) -> tuple[str, float]:
        hit = self.cache.get(text)
        if hit is None:
            font = self.pdf.current_font
            hit = self.cache[text] = (font.encode_text(text), text_width(text, 1 / _PT, True, self.font_dir))
        return hit


def board_ops(board: Board, style: str, glyphs: _Glyphs, font_id: int) -> str:
    """The PDF content-stream operators drawing ``board``, in millimetres with y down (the page's
    content is wrapped in a matrix that maps millimetres to points)."""
    pal = _palette(style)
    s = board_shapes(board, style)
    ops = ["q 0 J 0 j"]
    if s.frame is not None:
        x, y, w, h = s.frame
        ops.append(f"{_colour(pal['board'], 'rg')} {_colour(pal['board_edge'], 'RG')} {s.thin:.3f} w "
                   f"{x:.3f} {y:.3f} {w:.3f} {h:.3f} re B")
    if s.grid:
        ops.append(f"{_colour(pal['grid'], 'RG')} {s.thin:.3f} w "
                   + " ".join(f"{a:.2f} {b:.2f} m {c:.2f} {d:.2f} l" for a, b, c, d in s.grid) + " S")
    if s.bridges:
        ops.append(f"{_colour(pal['bridge'], 'RG')} {s.line:.3f} w "
                   + " ".join(f"{a:.3f} {b:.3f} m {c:.3f} {d:.3f} l" for a, b, c, d in s.bridges) + " S")
    circle = _circle_path(s.radius)
    ops.append(f"{_colour(pal['island_fill'], 'rg')} {_colour(pal['island_ring'], 'RG')} {s.ring:.3f} w")
    ops.append(" ".join(f"q 1 0 0 1 {x:.3f} {y:.3f} cm {circle} B Q" for x, y, _, _ in s.islands))
    if s.counts:
        small = _circle_path(s.counts[0][3] * 0.8)
        ops.append(" ".join(f"q 1 0 0 1 {x:.3f} {y:.3f} cm {small} B Q" for x, y, _, _ in s.counts))
    text = [f"BT /F{font_id} 1 Tf {_colour(pal['number'], 'rg')}"]
    for x, y, t, size in s.islands + s.counts:
        enc, width = glyphs(t)
        text.append(f"{size:.3f} 0 0 {-size:.3f} {x - width * size / 2:.3f} {y + 0.36 * size:.3f} Tm {enc}")
    text.append("ET Q")
    ops.append(" ".join(text))
    return "\n".join(ops)


def write_pdf(pages: list[Page], path: str, opts: Options | None = None) -> None:
    """The pages as one PDF, fonts embedded, boards as vector paths."""
    from fpdf import FPDF

    opts = opts or Options()
    font_dir = opts.font_dir
    fonts = find_fonts(font_dir)
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise BookError(f"{path}: the folder {folder} does not exist")
    pdf = FPDF(unit="mm", format=(pages[0].width, pages[0].height))
    pdf.set_auto_page_break(False)
    pdf.set_title(opts.title)
    if opts.author:
        pdf.set_author(opts.author)
    pdf.set_creator("hashikit")
    for style, font in fonts.items():
        pdf.add_font(FONT_NAME, style, font)
    pdf.set_font(FONT_NAME, "B", 10)
    glyphs, bold_id = _Glyphs(pdf, font_dir), pdf.current_font.i
    for page in pages:
        pdf.add_page()
        for lab in page.labels:
            pdf.set_font(FONT_NAME, "B" if lab.bold else "", lab.size)
            width = pdf.get_string_width(lab.text)
            x = lab.x - (width / 2 if lab.align == "C" else width if lab.align == "R" else 0)
            pdf.text(x, lab.y, lab.text)
        if page.boards:
            # the board numbers use the bold font, which this page's captions (drawn above) have put
            # on the page's resources; fpdf2 has no public call for a block of content operators
            pdf.set_font(FONT_NAME, "B", 10)
            body = "\n".join(board_ops(b, opts.style, glyphs, bold_id) for b in page.boards)
            pdf._out(f"q {_K:.5f} 0 0 {-_K:.5f} 0 {page.height * _K:.3f} cm\n{body}\nQ")
    pdf.output(path)


# -- the SVG back end ---------------------------------------------------------------------------------

def _svg_colour(rgb) -> str:
    return "#" + "".join(f"{round(v * 255):02x}" for v in rgb)


def board_svg(board: Board, style: str) -> str:
    """``board`` as SVG elements in the page's millimetres."""
    pal = _palette(style)
    s = board_shapes(board, style)
    out = [f'<g class="hashikit board" data-rows="{board.puzzle.rows}" data-cols="{board.puzzle.cols}">']
    if s.frame is not None:
        x, y, w, h = s.frame
        out.append(f'<rect x="{x:.3f}" y="{y:.3f}" width="{w:.3f}" height="{h:.3f}" '
                   f'fill="{_svg_colour(pal["board"])}" stroke="{_svg_colour(pal["board_edge"])}" '
                   f'stroke-width="{s.thin:.3f}"/>')
    if s.grid:
        d = "".join(f"M{a:.2f} {b:.2f}L{c:.2f} {d:.2f}" for a, b, c, d in s.grid)
        out.append(f'<path d="{d}" fill="none" stroke="{_svg_colour(pal["grid"])}" stroke-width="{s.thin:.3f}"/>')
    if s.bridges:
        d = "".join(f"M{a:.3f} {b:.3f}L{c:.3f} {d:.3f}" for a, b, c, d in s.bridges)
        out.append(f'<path class="bridges" d="{d}" fill="none" stroke="{_svg_colour(pal["bridge"])}" '
                   f'stroke-width="{s.line:.3f}"/>')
    ring = (f'fill="{_svg_colour(pal["island_fill"])}" stroke="{_svg_colour(pal["island_ring"])}" '
            f'stroke-width="{s.ring:.3f}"')
    out += [f'<circle cx="{x:.3f}" cy="{y:.3f}" r="{s.radius:.3f}" {ring}/>' for x, y, _, _ in s.islands]
    out += [f'<circle cx="{x:.3f}" cy="{y:.3f}" r="{size * 0.8:.3f}" {ring}/>' for x, y, _, size in s.counts]
    out.append(f'<g font-family="{FONT_NAME}" font-weight="bold" text-anchor="middle" '
               f'fill="{_svg_colour(pal["number"])}">')
    out += [f'<text x="{x:.3f}" y="{y + 0.36 * size:.3f}" font-size="{size:.3f}">{t}</text>'
            for x, y, t, size in s.islands + s.counts]
    out.append("</g></g>")
    return "\n".join(out)


def page_svg(page: Page, style: str = "classic") -> str:
    """One page as SVG, drawn in millimetres (the viewBox) and sized in CSS pixels (resvg reads
    no ``mm`` sizes)."""
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<svg xmlns="http://www.w3.org/2000/svg" width="{page.width * _PX:.2f}" height="{page.height * _PX:.2f}"'
           f' viewBox="0 0 {page.width} {page.height}">',
           f'<rect width="{page.width}" height="{page.height}" fill="#ffffff"/>']
    anchor = {"L": "start", "C": "middle", "R": "end"}
    for lab in page.labels:
        out.append(f'<text x="{lab.x:.2f}" y="{lab.y:.2f}" font-family="{FONT_NAME}" '
                   f'font-size="{lab.size * _PT:.3f}" font-weight="{"bold" if lab.bold else "normal"}" '
                   f'text-anchor="{anchor[lab.align]}" fill="#000000">{escape(lab.text)}</text>')
    out += [board_svg(board, style) for board in page.boards]
    out.append("</svg>")
    return "\n".join(out) + "\n"


def write_pages(pages: list[Page], folder: str, fmt: str = "svg", dpi: int = 150,
                font_dir: str | None = None, style: str = "classic") -> list[str]:
    """Each page as ``page-001.svg`` (or ``.png`` at ``dpi``) in ``folder``."""
    if fmt not in ("svg", "png"):
        raise BookError(f"pages are written as svg or png, not {fmt!r}")
    os.makedirs(folder, exist_ok=True)
    paths = []
    fonts = find_fonts(font_dir) if fmt == "png" else {}
    for page in pages:
        text = page_svg(page, style)
        path = os.path.join(folder, f"page-{page.number:03d}.{fmt}")
        if fmt == "svg":
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(text)
        else:
            import resvg_py

            width = round(page.width / 25.4 * dpi)
            data = resvg_py.svg_to_bytes(svg_string=text, width=width, background="#ffffff",
                                         font_files=list(fonts.values()))
            with open(path, "wb") as fh:
                fh.write(bytes(data))
        paths.append(path)
    return paths


# -- all together -------------------------------------------------------------------------------------

@dataclass
class BookReport:
    pages: int
    puzzles: int
    levels: dict[str, int]
    #: the first solutions page (in the book, or in the answer book), None without solutions
    solutions_page: int | None
    answers: str | None = None
    answer_pages: int = 0
    #: per section: name, puzzles per page, solutions per page, numbers' size (pt) on puzzles and solutions
    sections: list[dict] = field(default_factory=list)


def _warm_up(font_dir: str | None) -> None:
    import fpdf  # noqa: F401

    _advances(True, font_dir)
    _advances(False, font_dir)


def answers_path(out: str) -> str:
    """Where a separate answer book goes by default: ``book.pdf`` -> ``book-solutions.pdf``."""
    stem, ext = os.path.splitext(out)
    return f"{stem}-solutions{ext or '.pdf'}"


def make_book(source: str | list[BookPuzzle], out: str, opts: Options | None = None, *,
              pages_dir: str | None = None, pages_format: str = "svg", dpi: int = 150,
              answers: str | None = None, at_most: int | None = None, workers: int | None = None,
              **filters) -> BookReport:
    """Load, verify, order, lay out and write a book (PDF at ``out``, the answer book at ``answers``
    when solutions are separate, default :func:`answers_path`; pages too if asked)."""
    opts = opts or Options()
    if answers is not None and opts.solutions != "separate":
        raise BookError("an answer book file goes with separate solutions (--solutions separate)")
    if opts.solutions == "separate" and out:
        answers = answers or answers_path(out)
    find_fonts(opts.font_dir)  # a missing font is bad input before the work
    for path in (out, answers):
        folder = os.path.dirname(os.path.abspath(path)) if path else None
        if folder and not os.path.isdir(folder):
            raise BookError(f"{path}: the folder {folder} does not exist")
    items = load(source, at_most, **filters) if isinstance(source, str) else list(source)[:at_most]
    warm = None
    if out and len(items) >= PARALLEL_FROM and workers != 1:
        # while the workers check the puzzles this process only waits: load the PDF library and the
        # fonts' widths meanwhile (about half a second of a book's drawing time)
        import threading

        warm = threading.Thread(target=_warm_up, args=(opts.font_dir,), daemon=True)
        warm.start()
    items = order(verify(items, workers))
    if warm is not None:
        warm.join()
    book = layout(items, opts)
    if out:
        write_pdf(book.pages, out, opts)
        if book.answers:
            write_pdf(book.answers, answers, opts)
    if pages_dir:
        write_pages(book.pages, pages_dir, pages_format, dpi, opts.font_dir, opts.style)
    levels = {lv: sum(1 for i in items if i.level == lv) for lv in LEVELS}
    sols = next((p.number for p in (book.answers or book.pages) if p.kind == "solutions"), None)
    return BookReport(len(book.pages), len(items), {k: v for k, v in levels.items() if v}, sols,
                      answers if book.answers else None, len(book.answers), book.sections)


__all__ = ["Book", "BookError", "BookPuzzle", "BookReport", "Options", "Page", "PAPERS", "MIN_PT", "Shapes",
           "answers_path", "board_shapes", "find_fonts", "from_catalog", "from_folder", "layout", "load",
           "make_book", "order", "page_svg", "parse_per_page", "plan_section", "sections", "text_width",
           "verify", "wrap", "write_pages", "write_pdf"]
