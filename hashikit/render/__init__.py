"""Drawing: a board becomes a scene in one place, and back ends draw scenes.

* :mod:`.style`: the style table (every size as a fraction of a cell, per medium) and the palettes;
* :mod:`.scene`: the scene (rectangles, lines, circles, numbers, labels) of a board on a screen, on
  paper or over a picture;
* back ends: :mod:`.to_svg`, :mod:`.to_png` (the SVG rasterised by resvg), :mod:`.to_pdf` (pages
  with embedded fonts, fpdf2), :mod:`.to_photo` (a scene over a picture);
* :mod:`.fonts`: the font every back end names and the PDF embeds (DejaVu Sans), and its widths.

This module is the library's face: :func:`svg`, :func:`png`, :func:`picture` and :func:`write`
draw a puzzle (and a solution) as ``hashikit render`` does.

* Islands are white discs with a dark ring and their number, drawn above the bridges; numbers of
  any width are sized to fit their disc.
* A bridge of count 1 is one line, 2 two parallel lines, 3 and 4 (MAXBRIDGES > 2) that many; a
  count above 4 is drawn as four lines with a small count label.
* ``highlight`` names island positions ``(row, col)`` or bridge keys ``((r1, c1), (r2, c2))`` to
  draw in the accent colour (the deducer and the web page use it).  A highlighted bridge that the
  solution lacks is drawn as a dashed accent line: "a bridge goes here".  A highlighted empty cell
  gets an accent square.
* ``show_links=True`` adds the candidate links as faint dashed lines.
* Ignored islands (``Puzzle.ignored``) are drawn faintly with a dashed ring.

The cell size is picked from the board size when not given: 40 px for small boards down to 12 px
for 100x100 and larger, so a 100x100 board is about 1200 px wide.  The SVG has a ``viewBox`` plus
``width``/``height`` so it scales.  ``import hashikit.render`` is cheap: resvg, fpdf2 and Pillow
load only in the back end that needs them.

May import: the model, errors and records (never the formats, the service or anything above).
"""

from __future__ import annotations

import os
from typing import Iterable

from ..errors import FormatError
from ..model import Puzzle, Solution
from .scene import MAX_CELL, MAX_LINES, MIN_CELL, Circle, Grid, Line, Rect, Scene, Text, auto_cell, screen
from .style import COLORS, FONT_FAMILY
from .to_png import MAX_PNG_PIXELS
from .to_png import png as _png
from .to_svg import document

__all__ = ["svg", "png", "write", "picture", "auto_cell", "COLORS", "FONT_FAMILY", "MAX_LINES", "MAX_PNG_PIXELS",
           "MIN_CELL", "MAX_CELL", "Scene", "Rect", "Line", "Circle", "Text", "Grid"]


def svg(puzzle: Puzzle, solution: Solution | None = None, *, cell: int | None = None,
        show_links: bool = False, highlight: Iterable = (), title: str | None = None) -> str:
    """An SVG document of ``puzzle`` (and ``solution``, if given) as a string."""
    return document(screen(puzzle, solution, cell=cell, show_links=show_links, highlight=highlight), title)


def png(puzzle: Puzzle, solution: Solution | None = None, *, cell: int | None = None,
        highlight: Iterable = (), show_links: bool = False) -> bytes:
    """The picture :func:`svg` draws, as PNG bytes: the SVG itself rasterised by resvg, so the
    two are the same drawing (fonts are the system's, as a browser's)."""
    return _png(screen(puzzle, solution, cell=cell, show_links=show_links, highlight=highlight),
                background=COLORS["background"])


def picture(path, puzzle: Puzzle, solution: Solution | None = None, **kw) -> bytes:
    """The bytes :func:`write` writes to ``path``: SVG or PNG, by its extension."""
    ext = os.path.splitext(os.fspath(path))[1].lower()
    if ext == ".svg":
        return svg(puzzle, solution, **kw).encode("utf-8")
    if ext == ".png":
        kw.pop("title", None)  # a PNG carries no title
        return png(puzzle, solution, **kw)
    raise FormatError(f"cannot draw to a {ext or 'extensionless'} file; "
                      f"use a .svg or .png file name", source=os.fspath(path))


def write(path, puzzle: Puzzle, solution: Solution | None = None, **kw) -> None:
    """Write ``puzzle`` (and ``solution``) to ``path`` as SVG or PNG, by its extension."""
    data = picture(path, puzzle, solution, **kw)
    try:
        with open(path, "wb") as fh:
            fh.write(data)
    except OSError as exc:
        raise FormatError(f"cannot write the picture: {exc.strerror or exc}", source=os.fspath(path)) from None
