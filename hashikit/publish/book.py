"""Printable puzzle books: a PDF (fpdf2) and the same pages as SVG or PNG for apps.

A book is a title page, the puzzles numbered and ordered by difficulty (easiest
first; by score within a level), N to a page (1, 2, 4 or 6), then a solutions
section with small solved grids, every page but the title numbered on its
outer corner.  Pages are A4 or Letter; the inner margin is wider by the
binding allowance and alternates sides (odd pages are bound on the left).

One drawing path: :func:`layout` places every text and board on every page once,
in millimetres; the PDF back end draws the texts with an embedded TrueType font
and each board from :func:`hashikit.render.svg` as vector graphics, the SVG back
end nests the same board SVGs in one page SVG, and PNG pages are that SVG
rasterised by resvg.  Vector boards stay sharp at 300 dpi and beyond.

Before anything is drawn, every puzzle is checked: the SAT engine must prove it
unique (``max_solutions=2``), the deduction engine must grade it at its stated
level, and the solution printed at the back is the engine's, passed by the
independent rule checker.  A puzzle that fails is refused with its name.

Fonts: DejaVu Sans, from the system (Debian ``fonts-dejavu-core``), from a
folder named by ``HASHIKIT_FONT_DIR`` or ``font_dir``, or the copy shipped in
matplotlib if that is installed.  It is embedded (subset) in the PDF.
"""

from __future__ import annotations

import io
import os
import re
from dataclasses import dataclass, field
from typing import Iterable, NamedTuple
from xml.sax.saxutils import escape

from .catalog import LEVEL_ORDER
from ..errors import HashikitError
from ..model import Puzzle, Solution

#: paper sizes, width x height in millimetres
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
#: puzzles per page -> (columns, rows) of the page grid
PER_PAGE = {1: (1, 1), 2: (1, 2), 4: (2, 2), 6: (2, 3)}
#: the solutions section's grid of small solved boards
SOLUTION_GRID = (3, 4)
#: margins in millimetres: outer, top, bottom (the page number sits in the bottom one)
MARGIN, TOP, BOTTOM = 15.0, 18.0, 20.0
#: default binding allowance added to the inner margin
BINDING = 10.0
FONT_NAME = "DejaVu Sans"  # the family hashikit.render's SVG asks for first
_FONT_FILES = {"": "DejaVuSans.ttf", "B": "DejaVuSans-Bold.ttf"}
_FONT_DIRS = ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/dejavu", "/usr/share/fonts/TTF",
              "/usr/local/share/fonts", os.path.expanduser("~/.fonts"), "/Library/Fonts")


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
    #: its number in the book, given by :func:`order`
    number: int = 0


def from_catalog(path: str, **filters) -> list[BookPuzzle]:
    """The catalogue's puzzles matching ``filters`` (as :meth:`Catalog.query`)."""
    from .catalog import Catalog

    with Catalog(path, create=False) as cat:
        return [BookPuzzle(e.puzzle, e.level, e.score, f"{path} entry {e.id}", e.solution)
                for e in cat.iter_query(**filters)]


def from_folder(folder: str) -> list[BookPuzzle]:
    """Every puzzle file in ``folder`` (index files and pictures skipped), in name order."""
    from ..formats import read_file

    skip = re.compile(r"(^index\.(json|csv)$)|(\.(svg|png|pdf|db|md)$)", re.IGNORECASE)
    names = sorted(n for n in os.listdir(folder)
                   if not skip.search(n) and os.path.isfile(os.path.join(folder, n)))
    items = []
    for name in names:
        doc = read_file(os.path.join(folder, name))
        if doc.puzzle is None:
            raise BookError(f"{os.path.join(folder, name)}: holds a solution without its puzzle")
        items.append(BookPuzzle(doc.puzzle, name=os.path.join(folder, name)))
    if not items:
        raise BookError(f"{folder}: no puzzle files in this folder")
    return items


def load(source: str, **filters) -> list[BookPuzzle]:
    """A catalogue file (SQLite) or a folder of puzzle files."""
    if os.path.isdir(source):
        if any(v is not None for v in filters.values()):
            raise BookError("filters (size, level, score ...) select from a catalogue, not a folder")
        return from_folder(source)
    if not os.path.exists(source):
        raise BookError(f"{source}: no such catalogue or folder")
    return from_catalog(source, **filters)


def verify(items: Iterable[BookPuzzle]) -> list[BookPuzzle]:
    """Prove each puzzle unique, grade it (it must match a stated level) and attach the checked
    solution; raises BookError naming every puzzle that fails."""
    from ..checker import check
    from ..logic import grade
    from ..solvers import solve

    items = list(items)
    problems = []
    for item in items:
        result = solve(item.puzzle, max_solutions=2)
        if result.unique is not True:
            problems.append(f"{item.name}: " + ("has more than one solution" if result.unique is False
                                                else f"not proved unique ({result.status})"))
            continue
        if not check(item.puzzle, result.solution).ok:  # pragma: no cover - an engine bug
            problems.append(f"{item.name}: the engine's solution fails the rule checker")
            continue
        item.solution = result.solution
        g = grade(item.puzzle)
        if g.level is None:
            problems.append(f"{item.name}: the deduction rules do not finish it (it needs guessing)")
        elif item.level is not None and g.level != item.level:
            problems.append(f"{item.name}: stated {item.level}, but it grades {g.level}")
        item.level, item.score = g.level, g.score
    if problems:
        more = f" (and {len(problems) - 5} more)" if len(problems) > 5 else ""
        raise BookError(f"{len(problems)} puzzle(s) cannot go in the book: " + "; ".join(problems[:5]) + more)
    return items


def order(items: list[BookPuzzle]) -> list[BookPuzzle]:
    """Easiest first: by level, then score; numbered from 1."""
    ranked = sorted(items, key=lambda i: (LEVEL_ORDER.index(i.level), i.score or 0))
    for k, item in enumerate(ranked, 1):
        item.number = k
    return ranked


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
    x: float
    y: float
    w: float
    h: float
    puzzle: Puzzle
    solution: Solution | None


@dataclass
class Page:
    number: int
    width: float
    height: float
    labels: list[Label] = field(default_factory=list)
    boards: list[Board] = field(default_factory=list)


@dataclass
class Options:
    per_page: int = 4
    paper: str = "a4"
    binding: float = BINDING
    title: str = "Hashiwokakero"
    subtitle: str | None = None

    def __post_init__(self) -> None:
        if self.per_page not in PER_PAGE:
            raise BookError(f"puzzles per page must be one of {', '.join(map(str, PER_PAGE))}, "
                            f"got {self.per_page}")
        if self.paper not in PAPERS:
            raise BookError(f"paper must be one of {', '.join(PAPERS)}, got {self.paper!r}")
        if not self.title.strip() or len(self.title) > 100 or not self.title.isprintable():
            raise BookError("a book title is 1 to 100 printable characters")
        if not 0 <= self.binding <= 40:
            raise BookError(f"the binding allowance is 0 to 40 mm, got {self.binding}")


_PT = 25.4 / 72  # millimetres per point
_PX = 96 / 25.4  # CSS pixels per millimetre


def _board_aspect(puzzle: Puzzle) -> float:
    """Height over width of the board picture (from the SVG's size, margins included)."""
    from ..render import svg

    m = re.search(r'width="([\d.]+)" height="([\d.]+)"', svg(puzzle, cell=20))
    return float(m.group(2)) / float(m.group(1))


def _fit(x: float, y: float, w: float, h: float, aspect: float) -> tuple[float, float, float, float]:
    """The largest box of ``aspect`` centred horizontally at the top of (x, y, w, h)."""
    bw = min(w, h / aspect)
    bh = bw * aspect
    return x + (w - bw) / 2, y, bw, bh


def _content(page: int, opts: Options) -> tuple[float, float, float, float]:
    """The area inside the margins of page ``page`` (odd pages bound on the left)."""
    pw, ph = PAPERS[opts.paper]
    inner = MARGIN + opts.binding
    left = inner if page % 2 == 1 else MARGIN
    return left, TOP, pw - MARGIN - inner, ph - TOP - BOTTOM


def _page(number: int, opts: Options, heading: str | None) -> Page:
    pw, ph = PAPERS[opts.paper]
    page = Page(number, pw, ph)
    x, y, w, _ = _content(number, opts)
    if heading:
        page.labels.append(Label(x, y - 6, heading, 10, bold=True))
    if number > 1:  # page numbers on the outer corner
        right = number % 2 == 1
        page.labels.append(Label(x + w if right else x, ph - BOTTOM / 2, str(number), 10,
                                 align="R" if right else "L"))
    return page


def _grid_pages(items: list[BookPuzzle], first: int, cols: int, rows: int, opts: Options,
                heading: str, solved: bool, caption_pt: float) -> list[Page]:
    pages = []
    per = cols * rows
    gap = 8.0
    for start in range(0, len(items), per):
        page = _page(first + len(pages), opts, heading)
        x0, y0, w, h = _content(page.number, opts)
        cw, ch = (w - gap * (cols - 1)) / cols, (h - gap * (rows - 1)) / rows
        for k, item in enumerate(items[start:start + per]):
            cx, cy = x0 + (k % cols) * (cw + gap), y0 + (k // cols) * (ch + gap)
            line = caption_pt * _PT * 1.5
            caption = f"#{item.number}" if solved else f"#{item.number}  {item.level}"
            page.labels.append(Label(cx, cy + caption_pt * _PT, caption, caption_pt, bold=True))
            bx, by, bw, bh = _fit(cx, cy + line, cw, ch - line, _board_aspect(item.puzzle))
            page.boards.append(Board(bx, by, bw, bh, item.puzzle, item.solution if solved else None))
        pages.append(page)
    return pages


def _fitting(text: str, width: float, size: float) -> float:
    """A font size no larger than ``size`` at which ``text`` fits ``width`` mm (DejaVu Sans Bold's
    widest common glyphs are about 0.75 em), so a long title shrinks instead of running off the page."""
    return max(4.0, min(size, width / (max(1, len(text)) * 0.75 * _PT)))


def layout(items: list[BookPuzzle], opts: Options) -> list[Page]:
    """Every page of the book: title, puzzles, solutions.  ``items`` verified and ordered."""
    if not items:
        raise BookError("no puzzles to put in the book")
    if any(i.solution is None or i.number < 1 for i in items):
        raise BookError("puzzles must be verified and ordered (book.verify, book.order) before layout")
    cols, rows = PER_PAGE[opts.per_page]
    puzzle_pages = []
    for level in LEVEL_ORDER:  # a level starts on a fresh page, its name in the heading
        group = [i for i in items if i.level == level]
        if group:
            puzzle_pages += _grid_pages(group, 2 + len(puzzle_pages), cols, rows, opts,
                                        f"{level.capitalize()} puzzles", False,
                                        14 if opts.per_page <= 2 else 11)
    sols = _grid_pages(items, 2 + len(puzzle_pages), *SOLUTION_GRID, opts, "Solutions", True, 8)
    title = _page(1, opts, None)
    pw, ph = PAPERS[opts.paper]
    x, _, w, _ = _content(1, opts)
    mid = x + w / 2
    title.labels.append(Label(mid, ph * 0.33, opts.title, _fitting(opts.title, w, 32), bold=True, align="C"))
    counts = {lv: sum(1 for i in items if i.level == lv) for lv in LEVEL_ORDER}
    levels = ", ".join(f"{n} {lv}" for lv, n in counts.items() if n)
    sub = opts.subtitle or f"{len(items)} puzzles: {levels}"
    title.labels.append(Label(mid, ph * 0.33 + 14, sub, _fitting(sub, w, 13), align="C"))
    y = ph * 0.33 + 40
    for page in puzzle_pages:
        heading = page.labels[0].text
        if not any(lab.text == heading for lab in title.labels):
            title.labels.append(Label(mid, y, f"{heading} . . . page {page.number}", 11, align="C"))
            y += 7
    title.labels.append(Label(mid, y, f"Solutions . . . page {sols[0].number}", 11, align="C"))
    title.labels.append(Label(mid, ph - BOTTOM - 10,
                              "Every puzzle has exactly one solution, reached by logic alone.", 9, align="C"))
    return [title] + puzzle_pages + sols


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


# -- back ends -----------------------------------------------------------------------------------------

def _board_svg(board: Board) -> str:
    from ..render import svg

    return svg(board.puzzle, board.solution, cell=40 if board.solution is None else 20)


def write_pdf(pages: list[Page], path: str, title: str = "Hashiwokakero", font_dir: str | None = None) -> None:
    """The book as one PDF, fonts embedded, boards as vector drawings."""
    import warnings

    from fpdf import FPDF

    fonts = find_fonts(font_dir)
    pdf = FPDF(unit="mm", format=(pages[0].width, pages[0].height))
    pdf.set_auto_page_break(False)
    pdf.set_title(title)
    pdf.set_creator("hashikit")
    for style, font in fonts.items():
        pdf.add_font(FONT_NAME, style, font)
    for page in pages:
        pdf.add_page()
        for lab in page.labels:
            pdf.set_font(FONT_NAME, "B" if lab.bold else "", lab.size)
            width = pdf.get_string_width(lab.text)
            x = lab.x - (width / 2 if lab.align == "C" else width if lab.align == "R" else 0)
            pdf.text(x, lab.y, lab.text)
        for board in page.boards:
            with warnings.catch_warnings():  # fpdf2 notes SVG features it skips (none used here)
                warnings.simplefilter("ignore")
                pdf.image(io.BytesIO(_board_svg(board).encode("utf-8")), x=board.x, y=board.y,
                          w=board.w, h=board.h)
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise BookError(f"{path}: the folder {folder} does not exist")
    pdf.output(path)


def page_svg(page: Page) -> str:
    """One page as SVG, drawn in millimetres (the viewBox) and sized in CSS pixels (resvg reads
    no ``mm`` sizes): the labels as text, each board's SVG nested in its box."""
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<svg xmlns="http://www.w3.org/2000/svg" width="{page.width * _PX:.2f}" height="{page.height * _PX:.2f}"'
           f' viewBox="0 0 {page.width} {page.height}">',
           f'<rect width="{page.width}" height="{page.height}" fill="#ffffff"/>']
    anchor = {"L": "start", "C": "middle", "R": "end"}
    for lab in page.labels:
        out.append(f'<text x="{lab.x:.2f}" y="{lab.y:.2f}" font-family="{FONT_NAME}" '
                   f'font-size="{lab.size * _PT:.3f}" font-weight="{"bold" if lab.bold else "normal"}" '
                   f'text-anchor="{anchor[lab.align]}" fill="#1d2733">{escape(lab.text)}</text>')
    for board in page.boards:
        inner = _board_svg(board).split("\n", 1)[1]  # drop the XML declaration
        inner = re.sub(r'width="[\d.]+" height="[\d.]+"',
                       f'x="{board.x:.2f}" y="{board.y:.2f}" width="{board.w:.2f}" height="{board.h:.2f}"',
                       inner, count=1)
        out.append(inner)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def write_pages(pages: list[Page], folder: str, fmt: str = "svg", dpi: int = 150,
                font_dir: str | None = None) -> list[str]:
    """Each page as ``page-001.svg`` (or ``.png`` at ``dpi``) in ``folder``."""
    if fmt not in ("svg", "png"):
        raise BookError(f"pages are written as svg or png, not {fmt!r}")
    os.makedirs(folder, exist_ok=True)
    paths = []
    fonts = find_fonts(font_dir) if fmt == "png" else {}
    for page in pages:
        text = page_svg(page)
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
    solutions_page: int


def make_book(source: str | list[BookPuzzle], out: str, opts: Options | None = None, *,
              pages_dir: str | None = None, pages_format: str = "svg", dpi: int = 150,
              font_dir: str | None = None, **filters) -> BookReport:
    """Load, verify, order, lay out and write a book (PDF at ``out``, pages too if asked)."""
    opts = opts or Options()
    items = load(source, **filters) if isinstance(source, str) else list(source)
    items = order(verify(items))
    pages = layout(items, opts)
    if out:
        write_pdf(pages, out, opts.title, font_dir)
    if pages_dir:
        write_pages(pages, pages_dir, pages_format, dpi, font_dir)
    levels = {lv: sum(1 for i in items if i.level == lv) for lv in LEVEL_ORDER}
    sols = next(p.number for p in pages if p.labels and p.labels[0].text == "Solutions")
    return BookReport(len(pages), len(items), {k: v for k, v in levels.items() if v}, sols)


__all__ = ["BookError", "BookPuzzle", "BookReport", "Options", "Page", "PAPERS", "PER_PAGE",
           "find_fonts", "from_catalog", "from_folder", "layout", "load", "make_book", "order",
           "page_svg", "verify", "write_pages", "write_pdf"]
