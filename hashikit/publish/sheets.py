"""Print sheets: any list of puzzles N a page, their solutions on the pages after, laid out by the
book's engine (:func:`.layout.sheets`) and drawn by its back ends (:mod:`.output`): a PDF, or each
page as SVG (for a browser's own print).  Every puzzle is checked as a book's are
(:func:`.sources.verify`: proved unique, finished by the deduction rules, its printed solution the
engine's passed by the rule checker), numbered as a book numbers them (E001 ... by level), and a
count a page that would print the numbers too small is refused with the count that would not."""

from __future__ import annotations

import os
import tempfile

from ..model import Puzzle
from .layout import Options, Page, sheets
from .output import page_svg, write_pdf
from .sources import BookError, BookPuzzle, order, verify

#: puzzles a page the sheets offer
PER_PAGE = (1, 2, 4, 6)
#: the most puzzles on one set of sheets
MAX_PUZZLES = 24
#: what a set of sheets is written as
FORMATS = ("pdf", "svg")


def sheet_pages(puzzles: list[Puzzle], per_page: int = 4, solutions: bool = True, paper: str = "a4",
                style: str = "classic") -> tuple[list[Page], Options]:
    """The puzzles ``per_page`` a page, then (``solutions``) the solutions as many a page on the pages
    after, numbered on from the puzzles'; and the options they were laid out with."""
    if per_page not in PER_PAGE:
        raise BookError(f"sheets take {', '.join(map(str, PER_PAGE))} puzzles a page, not {per_page}")
    if not 1 <= len(puzzles) <= MAX_PUZZLES:
        raise BookError(f"a set of sheets holds 1 to {MAX_PUZZLES} puzzles, not {len(puzzles)}")
    opts = Options(per_page=per_page, solutions_per_page=per_page if solutions else None, paper=paper, style=style,
                   binding=0, title="Hashi", solutions="book" if solutions else "none")
    try:
        items = order(verify([BookPuzzle(p, name=f"puzzle {k + 1}") for k, p in enumerate(puzzles)], workers=1))
    except BookError as exc:
        raise BookError(str(exc).replace("cannot go in the book", "cannot go on the sheets")) from None
    pages = sheets(items, opts, "puzzle", heading="Hashi")
    if solutions:
        pages += sheets(items, opts, "solution", heading="Solutions", first=len(pages) + 1)
    return pages, opts


def make_sheets(puzzles: list[Puzzle], per_page: int = 4, solutions: bool = True, paper: str = "a4",
                fmt: str = "pdf", style: str = "classic") -> bytes | dict:
    """The sheets as PDF bytes (``fmt`` pdf) or as ``{"pages": [svg, ...], "solutions_from": k}``
    (``fmt`` svg: k the index of the first solutions page, the page count without solutions)."""
    if fmt not in FORMATS:
        raise BookError(f"sheets are written as {' or '.join(FORMATS)}, not {fmt!r}")
    pages, opts = sheet_pages(puzzles, per_page, solutions, paper, style)
    if fmt == "svg":
        return {"pages": [page_svg(p, style) for p in pages],
                "solutions_from": next((k for k, p in enumerate(pages) if p.kind == "solutions"), len(pages))}
    with tempfile.TemporaryDirectory(prefix="hashikit-sheets-") as folder:
        path = os.path.join(folder, "sheets.pdf")
        write_pdf(pages, path, opts)
        with open(path, "rb") as fh:
            return fh.read()


__all__ = ["FORMATS", "MAX_PUZZLES", "PER_PAGE", "make_sheets", "sheet_pages"]
