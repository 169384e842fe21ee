"""A book's layout: every page of a book placed once, in millimetres, from its puzzles and options.

A book is a title page, a copyright page, a contents page (one line per section, continued on
more pages if needed), then the puzzles in *sections*: one per level and board size, easiest
level first, each section starting on a right-hand page; then the solutions (in the book, in a
separate answer book, or none).  Pages are A4 or Letter; the inner margin is wider by the binding
allowance and alternates sides (odd pages are bound on the left); page numbers sit on the outer
corners; nothing is printed within the safe margin of the trim (:data:`SAFE`, ``safe_margin``):
the margins, the headings and the page numbers move inward when it is wider.

Legibility is a rule, not a hope: every section has one cell size, chosen from its largest board
and the page grid; numbers print at least at :data:`MIN_PT` (7 pt on puzzles, 5 pt on solutions).
Without ``per_page`` a section takes the largest count up to 4 (12 for solutions) that keeps the
minimum; an explicit count or grid that would print smaller is refused, naming the largest count
that keeps it.  Boards are centred in their slots, their caption just above them.

:func:`layout` lays out a book; :func:`sheets` lays out any list of puzzles N a page (print
sheets) with the same engine.  A :class:`Page` holds :class:`~hashikit.render.scene.Label` lines
and :class:`Board` placements; :mod:`.output` draws it through the render back ends.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

from ..model import LEVELS, Puzzle, Solution
from ..render.fonts import PT as _PT
from ..render.fonts import reach, text_width
from ..render.scene import Label, number_size, paper_size
from ..render.style import PRINT
from .sources import BookError, BookPuzzle

#: paper sizes, width x height in millimetres
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
#: margins in millimetres: outer, top, bottom (the page number sits in the bottom one)
MARGIN, TOP, BOTTOM = 15.0, 18.0, 20.0
#: nothing is printed closer than this to the paper's edge (mm), unless ``safe_margin`` says more
SAFE = 8.0
#: the widest safe margin asked for (mm)
MAX_SAFE = 30.0
#: the heading's baseline above the content, and the room below the content for the page number (mm)
HEAD_GAP, FOLIO_ROOM = 6.0, 10.0
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
STYLES = ("classic", "plain")
SOLUTIONS = ("book", "separate", "none")
_BORDER = PRINT.border


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
    #: nothing is printed closer than this to the trim (mm): marks, headings, page numbers
    safe_margin: float = SAFE

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
        if not 0 <= self.safe_margin <= MAX_SAFE:
            raise BookError(f"the safe margin is 0 to {MAX_SAFE:g} mm, got {self.safe_margin:g}")
        if self.solutions not in SOLUTIONS:
            raise BookError(f"solutions go in the {' / '.join(SOLUTIONS)}, got {self.solutions!r}")
        if self.style not in STYLES:
            raise BookError(f"style must be one of {', '.join(STYLES)}, got {self.style!r}")
        if self.solutions == "none" and self.solutions_per_page is not None:
            raise BookError("solutions per page: there are no solutions in this book (solutions none)")


# -- the layout ----------------------------------------------------------------------------------

class Board(NamedTuple):
    x: float  # top-left corner of the board's box (mm)
    y: float
    cell: float  # mm
    puzzle: Puzzle
    solution: Solution | None

    @property
    def w(self) -> float:
        return paper_size(self.puzzle, self.cell)[0]

    @property
    def h(self) -> float:
        return paper_size(self.puzzle, self.cell)[1]


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


class Margins(NamedTuple):
    """Where things go (mm): the heading's baseline and the content's top (from the page's top), the
    bottom margin, the page number's baseline (from the top), the outer margin."""
    heading: float
    top: float
    foot: float
    folio: float
    outer: float


def margins(opts: Options) -> Margins:
    """The margins, the heading and the page number kept ``opts.safe_margin`` from the trim: the
    heading's box (one em above its foot, as PDF readers box it) below it, the page number's foot
    above it, the outer margin at least it."""
    return _margins(opts.paper, opts.safe_margin, opts.font_dir)


@lru_cache(maxsize=16)
def _margins(paper: str, safe: float, font_dir: str | None) -> Margins:
    _, ph = PAPERS[paper]
    up, _ = reach(HEADING_PT, True, font_dir)
    _, down = reach(FOLIO_PT, False, font_dir)
    heading = max(TOP - HEAD_GAP, safe + up)
    bottom = max(BOTTOM, safe + FOLIO_ROOM)
    folio = min(ph - BOTTOM / 2, ph - safe - down)
    return Margins(heading, heading + HEAD_GAP, bottom, folio, max(MARGIN, safe))


def _content(page: int, opts: Options) -> tuple[float, float, float, float]:
    """The area inside the margins of page ``page`` (odd pages bound on the left)."""
    pw, ph = PAPERS[opts.paper]
    m = margins(opts)
    inner = m.outer + opts.binding
    left = inner if page % 2 == 1 else m.outer
    return left, m.top, pw - m.outer - inner, ph - m.top - m.foot


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
    best.pt = number_size(PRINT, best.cell, "8" * widest) / _PT
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
    x, _, w, _ = _content(page.number, opts)
    m = margins(opts)
    if heading:
        page.labels.append(Label(x, m.heading, heading, HEADING_PT, bold=True))
    if kind not in ("title", "copyright", "blank"):  # page numbers on the outer corner
        right = page.number % 2 == 1
        page.labels.append(Label(x + w if right else x, m.folio, str(page.number), FOLIO_PT,
                                 align="R" if right else "L"))
    pages.append(page)
    return page


def _board_pages(pages: list[Page], section: Section, plan: Plan, opts: Options, kind: str,
                 heading: str | None, recto: bool) -> int:
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
            if item.label:
                page.labels.append(Label(bx + _BORDER * plan.cell / 2, by - 0.5 * caption_pt * _PT, item.label,
                                         caption_pt, bold=True))
            page.boards.append(board._replace(x=bx, y=by))
    return next(p.number for p in reversed(pages) if p.kind != "blank") - (len(section.items) - 1) // plan.count


def sheets(items: list[BookPuzzle], opts: Options, kind: str = "puzzle", heading: str | None = None,
           first: int = 1) -> list[Page]:
    """Any list of puzzles laid out ``opts.per_page`` a page (``opts.solutions_per_page`` for
    solutions), or the most up to the default that keeps :data:`MIN_PT`: print sheets, with no
    front matter, numbered from page ``first``.  One cell size, from the largest board; each board
    captioned with its ``label`` (none when empty); solutions drawn when ``kind`` is ``"solution"``."""
    items = list(items)
    if not items:
        raise BookError("no puzzles to put on the sheets")
    if kind == "solution" and any(i.solution is None for i in items):
        raise BookError("solution sheets need each puzzle's solution")
    section = Section("sheet", max(i.puzzle.rows for i in items), max(i.puzzle.cols for i in items), items)
    pw, ph = PAPERS[opts.paper]
    pages = [Page(k + 1, pw, ph, kind="blank") for k in range(first - 1)]     # the pages before, not laid out
    _board_pages(pages, section, plan_section(section, opts, kind), opts, kind, heading, False)
    return pages[first - 1:]


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
    _block(page, mid, page.height - margins(opts).foot - 10, w, counts, 10, False, 3, 8, opts.font_dir)
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
    y = page.height - margins(opts).foot - sum(len(b) * step + 3 for b in blocks)  # the notes end at the bottom margin
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


