"""Printable puzzle books: a PDF a publisher can send to print, an answer book, and the same pages
as SVG or PNG for apps.  :func:`make_book` takes a book from its sources to its files:

1. :mod:`.sources`: load the puzzles (a catalogue or a folder), check each through the service's
   use-cases (unique, graded at its stated level, its solution passed by the rule checker), order
   and number them;
2. :mod:`.layout`: place every label and board on every page once, in millimetres;
3. :mod:`.output`: draw the pages through the render back ends (PDF, SVG, PNG), each board from the
   one scene every drawing of a board is made from (:mod:`hashikit.render.scene`).

Two styles: ``classic`` (the look of ``hashikit render``: a tinted board, a faint grid,
blue-black bridges) and ``plain`` (black on white, no tint, no grid, grey levels only).
This module also gives the names of the three under one roof (``book.layout``, ``book.verify``,
``book.write_pdf`` ...).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from ..model import LEVELS
from ..render.fonts import FontError, find_fonts, text_width
from .layout import (BINDING, CAPTION_PT, FOLIO_PT, HEADING_PT, MARGIN, MIN_PT, PAPERS, SAFE, TOP, BOTTOM, Board,
                     Book, Options, Page, Plan, Section, layout, margins, parse_per_page, plan_section, sections,
                     sheets, wrap)
from .output import page_scene, page_svg, write_pages, write_pdf
from .sources import LETTERS, PARALLEL_FROM, BookError, BookPuzzle, from_catalog, from_folder, load, order, verify


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

    text_width("0", 10, True, font_dir)
    text_width("0", 10, False, font_dir)


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
    try:
        find_fonts(opts.font_dir)  # a missing font is bad input before the work
    except FontError as exc:
        raise BookError(str(exc)) from None
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


__all__ = ["Board", "Book", "BookError", "BookPuzzle", "BookReport", "Options", "Page", "Plan", "Section", "PAPERS",
           "MIN_PT", "SAFE", "MARGIN", "TOP", "BOTTOM", "BINDING", "CAPTION_PT", "HEADING_PT", "FOLIO_PT",
           "LETTERS", "PARALLEL_FROM", "answers_path", "find_fonts", "from_catalog", "from_folder", "layout",
           "load", "make_book", "margins", "order", "page_scene", "page_svg", "parse_per_page", "plan_section",
           "sections", "sheets", "text_width", "verify", "wrap", "write_pages", "write_pdf"]
