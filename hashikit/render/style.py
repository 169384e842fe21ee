"""The look of a board, in one table: every size of a drawing as a fraction of its cell, per medium,
and the colours.

Four media draw boards: ``screen`` (``hashikit render``'s SVG and PNG, in pixels), ``print`` (book
pages, in millimetres), ``page`` (the web page's interactive drawing, ``static/draw.js``, in SVG
units: it reads its column from ``GET /api/style``) and ``overlay`` (what the picture reader saw,
drawn over the picture: ``--show``).  A
size a medium does not draw is ``None`` in its column.  The screen snaps bridge lines to whole
pixels; print keeps its lines and gaps above the least sizes a press holds (:data:`LEAST`).
"""

from __future__ import annotations

from ..records import Record

#: name: (screen, print, page, overlay, what it is).  Fractions of a cell.
TABLE = {
    "island":       (0.4,   0.4,   0.37,  0.42,  "island radius"),
    "island_small": (0.42,  None,  None,  None,  "island radius on a screen cell under small_cell pixels"),
    "ring":         (0.06,  0.06,  0.05,  0.06,  "island outline width"),
    "bridge":       (0.07,  0.07,  0.06,  0.06,  "bridge line width"),
    "pair":         (0.15,  0.15,  0.12,  0.18,  "centre-to-centre gap of a bridge's parallel lines"),
    "span":         (0.7,   0.7,   None,  0.7,   "the most the lines of a bridge of 3 or 4 span, line widths counted"),
    "number":       (0.56,  0.6,   0.475, 0.4,   "font size of an island's number"),
    "number_small": (0.6,   None,  None,  None,  "font size of an island's number on a screen cell under small_cell pixels"),
    "number_wide":  (None,  None,  0.375, None,  "font size of a number of two digits or more (the page)"),
    "digits":       (0.98,  0.98,  None,  0.98,  "a number of n digits is at most this / n (it fits its disc)"),
    "offset":       (None,  None,  None,  0.45,  "the number drawn beside its island, up and right (the overlay)"),
    "border":       (0.3,   0.3,   None,  None,  "the board's margin around its cells"),
    "frame_round":  (0.5,   0.0,   None,  None,  "corner radius of the tinted board, as a fraction of the margin"),
    "count":        (0.36,  0.36,  None,  0.36,  "font size of the count on a bridge of more than 4 lines"),
    "label_ring":   (0.04,  0.04,  None,  0.04,  "outline of that count's label"),
    "hairline":     (None,  0.025, None,  None,  "grid and board edge width"),
    "link":         (0.04,  None,  None,  None,  "candidate link width (--show-links)"),
    "link_dash":    (0.12,  None,  None,  None,  "candidate link dash and gap"),
    "suggest_dash": (0.2,   None,  None,  None,  "dash of a suggested bridge (a hint's)"),
    "suggest_gap":  (0.14,  None,  None,  None,  "gap of a suggested bridge's dashes"),
    "ignored_dash": (0.1,   None,  None,  None,  "dash of an ignored island's outline"),
    "ignored_gap":  (0.08,  None,  None,  None,  "gap of an ignored island's outline"),
    "mark":         (0.8,   None,  None,  None,  "side of the square on a highlighted empty cell"),
    "mark_round":   (0.12,  None,  None,  None,  "corner radius of that square"),
    "halo":         (None,  None,  0.09,  None,  "the page's selection ring, outside the island"),
    "inner":        (None,  None,  0.1,   None,  "the page's inner ring of a finished island, inside the island"),
    "dot":          (None,  None,  0.045, None,  "radius of the page's dots on empty cells"),
    "lift":         (None,  None,  0.015, None,  "the page's numbers' baseline shift"),
}

MEDIA = ("screen", "print", "page", "overlay")


class Style(Record, frozen=True, kw_only=True):
    """One medium's column of :data:`TABLE` (fractions of a cell; ``None``: not drawn there)."""

    medium: str
    island: float | None = None
    island_small: float | None = None
    ring: float | None = None
    bridge: float | None = None
    pair: float | None = None
    span: float | None = None
    number: float | None = None
    number_small: float | None = None
    number_wide: float | None = None
    digits: float | None = None
    offset: float | None = None
    border: float | None = None
    frame_round: float | None = None
    count: float | None = None
    label_ring: float | None = None
    hairline: float | None = None
    link: float | None = None
    link_dash: float | None = None
    suggest_dash: float | None = None
    suggest_gap: float | None = None
    ignored_dash: float | None = None
    ignored_gap: float | None = None
    mark: float | None = None
    mark_round: float | None = None
    halo: float | None = None
    inner: float | None = None
    dot: float | None = None
    lift: float | None = None

    def sizes(self) -> dict[str, float | None]:
        return {name: getattr(self, name) for name in TABLE}


def _column(k: int) -> Style:
    return Style(medium=MEDIA[k], **{name: row[k] for name, row in TABLE.items()})


SCREEN, PRINT, PAGE, OVERLAY_STYLE = (_column(k) for k in range(4))

#: least sizes, in the medium's unit: the screen's in pixels, print's in millimetres
LEAST = {
    "screen": {"bridge": 1, "ring": 1.0, "clear": 2, "margin": 4, "link": 1.0, "dash": 2.0, "ignored_gap": 1.5,
               "count": 6.0, "label_ring": 1.0, "edge": 1.0, "grid": 1.0, "grid_small": 0.75},
    "print": {"bridge": 0.15, "ring": 0.12, "hairline": 0.08, "clear": 0.4},
    "overlay": {"bridge": 1, "ring": 1.0, "clear": 1, "count": 6.0},
}
#: a screen cell under this many pixels draws its islands and numbers a little larger
SMALL_CELL = 20

#: the palette of the classic look (screen, book classic); ``plain`` is black on white
COLORS = {
    "background": "#ffffff",
    "board": "#f6f8fb",
    "board_edge": "#dbe2ea",
    "grid": "#e3e8ef",
    "link": "#9fb0c3",
    "bridge": "#24466b",
    "island_fill": "#ffffff",
    "island_ring": "#1d2733",
    "number": "#1d2733",
    "ignored": "#aab4c0",
    "accent": "#e0560b",
    "accent_fill": "#e0560b",
    "accent_dark": "#a83c02",
    "accent_text": "#ffffff",
    "accent_cell": "#fde3d3",
    "label_fill": "#ffffff",
}
PLAIN = dict(COLORS, board=None, board_edge=None, grid=None, bridge="#000000", island_ring="#000000",
             number="#000000", label_fill="#ffffff")
#: what a picture reader saw, drawn over the picture: green where sure, red where not, amber where
#: the rules of the puzzle corrected it
OVERLAY = dict(COLORS, bridge="#009619", island_fill=None, island_ring="#009619", number="#009619",
               accent="#e60000", accent_fill=None, accent_dark="#e60000",
               accent_text="#e60000", corrected="#e08a00")
PALETTES = {"classic": COLORS, "plain": PLAIN, "overlay": OVERLAY}

FONT_FAMILY = "DejaVu Sans, Verdana, Helvetica, Arial, sans-serif"
#: the family embedded in PDFs (the first the SVG asks for)
FONT_NAME = "DejaVu Sans"


STYLES = {s.medium: s for s in (SCREEN, PRINT, PAGE, OVERLAY_STYLE)}


def table() -> dict[str, dict[str, float | None]]:
    """The table by medium: ``{"screen": {...}, "print": {...}, "page": {...}}`` (the web serves it)."""
    return {s.medium: s.sizes() for s in STYLES.values()}


def described() -> dict[str, str]:
    """What each size is, by name."""
    return {name: row[-1] for name, row in TABLE.items()}


__all__ = ["TABLE", "MEDIA", "Style", "SCREEN", "PRINT", "PAGE", "LEAST", "SMALL_CELL", "COLORS", "PLAIN",
           "OVERLAY", "PALETTES", "FONT_FAMILY", "FONT_NAME", "table", "described", "STYLES", "OVERLAY_STYLE"]
