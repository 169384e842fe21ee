"""Pictures of puzzles and solutions: SVG (text, no dependencies) and PNG.

There is one drawing path: :func:`_scene` lays out simple shapes (rectangles,
lines, circles, text), :func:`svg` writes them, and :func:`png` rasterises that
SVG with resvg (resvg-py), so the PNG is the SVG, colour for colour.

* Islands are white discs with a dark ring and their number, drawn above the
  bridges; numbers of any width are sized to fit their disc.
* A bridge of count 1 is one line, 2 two parallel lines, 3 and 4 (MAXBRIDGES > 2)
  that many; a count above 4 is drawn as four lines with a small count label.
* ``highlight`` names island positions ``(row, col)`` or bridge keys
  ``((r1, c1), (r2, c2))`` to draw in the accent colour (the deducer and the
  web page use it).  A highlighted bridge that the solution lacks is drawn as a
  dashed accent line: "a bridge goes here".  A highlighted empty cell gets an
  accent square.
* ``show_links=True`` adds the candidate links as faint dashed lines.
* Ignored islands (``Puzzle.ignored``) are drawn faintly with a dashed ring.

The cell size is picked from the board size when not given: 40 px for small
boards down to 12 px for 100x100 and larger, so a 100x100 board is about
1200 px wide.  The SVG has a ``viewBox`` plus ``width``/``height`` so it scales.

Bridges and highlights are checked to lie on the board first (a FormatError
otherwise): a hostile coordinate never reaches the arithmetic.

``import hashikit.render`` is cheap: resvg is imported inside :func:`png`.
"""

from __future__ import annotations

import html
import math
import os
from typing import Iterable, NamedTuple

from .errors import FormatError, HashikitError
from .model import Puzzle, Solution

__all__ = ["svg", "png", "write", "auto_cell", "COLORS"]

#: The palette shared by SVG and PNG.
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
    "accent_dark": "#a83c02",
    "accent_text": "#ffffff",
    "accent_cell": "#fde3d3",
    "label_fill": "#ffffff",
}

FONT_FAMILY = "DejaVu Sans, Verdana, Helvetica, Arial, sans-serif"

#: Most parallel lines drawn for one bridge; larger counts get a label.
MAX_LINES = 4
#: Largest picture png() draws, in pixels (width x height).
MAX_PNG_PIXELS = 80_000_000
MIN_CELL, MAX_CELL = 12, 40


def auto_cell(rows: int, cols: int) -> int:
    """Cell size in px: 40 for boards up to 22 cells a side, then shrinking to 12 at ~75+."""
    side = max(rows, cols)
    return max(MIN_CELL, min(MAX_CELL, round(900 / side)))


# -- the scene ---------------------------------------------------------------------------

class Rect(NamedTuple):
    x: float
    y: float
    w: float
    h: float
    fill: str
    stroke: str | None = None
    width: float = 0.0
    radius: float = 0.0
    cls: str = ""


class Line(NamedTuple):
    x1: float
    y1: float
    x2: float
    y2: float
    stroke: str
    width: float
    dash: tuple[float, float] | None = None
    cls: str = ""
    key: str = ""


class Circle(NamedTuple):
    cx: float
    cy: float
    r: float
    fill: str
    stroke: str
    width: float
    dash: tuple[float, float] | None = None
    cls: str = ""
    row: int = -1
    col: int = -1


class Text(NamedTuple):
    x: float
    y: float
    text: str
    size: float
    fill: str
    cls: str = ""


class Grid(NamedTuple):
    """Faint lines through the cell centres (one SVG path)."""
    segments: tuple[tuple[float, float, float, float], ...]
    stroke: str
    width: float


class Scene(NamedTuple):
    width: int
    height: int
    cell: int
    layers: tuple[tuple[str, tuple], ...]  # (group name, shapes)


def _validate_cell(cell) -> int:
    if isinstance(cell, bool) or not isinstance(cell, int):
        raise ValueError(f"cell must be a whole number of pixels, got {cell!r}")
    if not 4 <= cell <= 400:
        raise ValueError(f"cell must be between 4 and 400 pixels, got {cell}")
    return cell


def _split_highlight(highlight: Iterable) -> tuple[set, set]:
    """Positions and (ordered) bridge keys named by ``highlight``."""
    cells: set = set()
    bridges: set = set()
    for item in highlight or ():
        try:
            a, b = item
        except (TypeError, ValueError):
            raise ValueError(f"highlight items are (row, col) or ((r1, c1), (r2, c2)); got {item!r}") from None
        if isinstance(a, int) and isinstance(b, int):
            cells.add((a, b))
            continue
        try:
            p, q = tuple(a), tuple(b)
            if len(p) != 2 or len(q) != 2 or not all(isinstance(v, int) for v in p + q):
                raise TypeError
        except TypeError:
            raise ValueError(f"highlight items are (row, col) or ((r1, c1), (r2, c2)); got {item!r}") from None
        bridges.add((p, q) if p <= q else (q, p))
    return cells, bridges


def _validate_on_board(puzzle: Puzzle, solution: Solution | None, hl_bridges: set) -> None:
    """Refuse bridges (drawn or highlighted) with an end off the board or an absurd count."""
    def on_board(pos) -> bool:
        return (isinstance(pos, tuple) and len(pos) == 2
                and all(isinstance(v, int) and not isinstance(v, bool) for v in pos)
                and 0 <= pos[0] < puzzle.rows and 0 <= pos[1] < puzzle.cols)

    items = list(solution.bridges.items()) if solution is not None else []
    for (p, q), count in items + [(key, 1) for key in hl_bridges]:
        if not (on_board(p) and on_board(q)):
            raise FormatError(f"cannot draw a bridge with an end outside the {puzzle.rows}x{puzzle.cols} board")
        if isinstance(count, bool) or not isinstance(count, int) or abs(count) >= 10 ** 9:
            raise FormatError("cannot draw a bridge whose count is not a whole number below 10**9")


def _font_size(cell: int, text: str) -> float:
    """A bold sans number that fits a disc of radius 0.4*cell."""
    return min(0.56 * cell if cell >= 20 else 0.6 * cell, 0.98 * cell / max(1, len(text)))


def _even_up(v: float) -> int:
    return 2 * math.ceil(v / 2)


def _scene(puzzle: Puzzle, solution: Solution | None, cell: int | None,
           show_links: bool, highlight: Iterable) -> Scene:
    if not isinstance(puzzle, Puzzle):
        raise TypeError(f"expected a Puzzle, got {type(puzzle).__name__}")
    if solution is not None and not isinstance(solution, Solution):
        raise TypeError(f"expected a Solution or None, got {type(solution).__name__}")
    c = auto_cell(puzzle.rows, puzzle.cols) if cell is None else _validate_cell(cell)
    hl_cells, hl_bridges = _split_highlight(highlight)
    _validate_on_board(puzzle, solution, hl_bridges)
    C = COLORS
    # Bridge lines are whole pixels wide and their spacing an even number of pixels,
    # and the cell centres sit on whole or half pixels to match: so at 1:1 each
    # line of a double bridge covers exact pixel columns and small boards stay crisp.
    line_w = max(1, round(c * 0.07))
    gap2 = _even_up(max(line_w + 2, c * 0.15))
    margin = max(4, round(c * 0.3)) + ((line_w % 2) / 2 - (c / 2) % 1) % 1
    width = round(puzzle.cols * c + 2 * margin)
    height = round(puzzle.rows * c + 2 * margin)

    def centre(pos):
        return margin + pos[1] * c + c / 2, margin + pos[0] * c + c / 2

    radius = c * 0.4 if c >= 20 else c * 0.42
    ring_w = max(1.0, round(c * 0.06, 2))

    # board and grid
    board = [Rect(0, 0, width, height, C["background"], cls="background"),
             Rect(margin / 2, margin / 2, width - margin, height - margin, C["board"],
                  C["board_edge"], 1.0, radius=margin / 2, cls="board")]
    segs = []
    x0, x1 = margin + c / 2, margin + (puzzle.cols - 0.5) * c
    y0, y1 = margin + c / 2, margin + (puzzle.rows - 0.5) * c
    for r in range(puzzle.rows):
        y = margin + r * c + c / 2
        segs.append((x0, y, x1, y))
    for col in range(puzzle.cols):
        x = margin + col * c + c / 2
        segs.append((x, y0, x, y1))
    grid_w = 1.0 if c >= 20 else 0.75
    grid = Grid(tuple(segs), C["grid"], grid_w)
    board.append(grid)

    # highlighted empty cells
    island_pos = {isl.pos for isl in puzzle.islands} | {isl.pos for isl in puzzle.ignored}
    for pos in sorted(hl_cells - island_pos):
        if 0 <= pos[0] < puzzle.rows and 0 <= pos[1] < puzzle.cols:
            x, y = centre(pos)
            s = c * 0.8
            board.append(Rect(x - s / 2, y - s / 2, s, s, C["accent_cell"], C["accent"], ring_w,
                              radius=c * 0.12, cls="cell hl"))

    # candidate links
    links = []
    drawn = set(solution.bridges) | hl_bridges if solution is not None else hl_bridges
    if show_links:
        isl = puzzle.islands
        dash = (max(2.0, c * 0.12), max(2.0, c * 0.12))
        for ln in puzzle.links:
            if (isl[ln.a].pos, isl[ln.b].pos) in drawn:  # a bridge covers it
                continue
            (xa, ya), (xb, yb) = centre(isl[ln.a].pos), centre(isl[ln.b].pos)
            links.append(Line(xa, ya, xb, yb, C["link"], max(1.0, c * 0.04), dash, cls="link"))

    # bridges
    bridges = []
    labels = []
    bridge_items = list(solution.bridges.items()) if solution is not None else []
    present = {key for key, _ in bridge_items}
    for key in sorted(hl_bridges - present):  # suggested bridges the solution lacks
        bridge_items.append((key, None))
    for (p, q), count in bridge_items:
        (xa, ya), (xb, yb) = centre(p), centre(q)
        dx, dy = xb - xa, yb - ya
        length = math.hypot(dx, dy) or 1.0
        nx, ny = -dy / length, dx / length  # unit normal
        hl = (p, q) in hl_bridges
        colour = C["accent"] if hl else C["bridge"]
        key = f"{p[0]},{p[1]}-{q[0]},{q[1]}"
        if count is None:
            bridges.append(Line(xa, ya, xb, yb, colour, line_w, (c * 0.2, c * 0.14),
                                cls="bridge hl suggested", key=key))
            continue
        n = count if isinstance(count, int) and not isinstance(count, bool) and count > 0 else 1
        lines = min(n, MAX_LINES)
        gap = gap2 if lines <= 2 else min(gap2, max(2, 2 * ((0.7 * c - line_w) / (lines - 1) // 2)))
        for i in range(lines):
            off = (i - (lines - 1) / 2) * gap
            bridges.append(Line(xa + nx * off, ya + ny * off, xb + nx * off, yb + ny * off,
                                colour, line_w, None, cls="bridge hl" if hl else "bridge", key=key))
        if n > MAX_LINES or n != count:
            text = str(count)
            size = max(6.0, c * 0.36)
            w = max(size * 1.3, size * 0.62 * len(text) + size * 0.6)
            h = size * 1.35
            mx, my = (xa + xb) / 2, (ya + yb) / 2
            labels.append(Rect(mx - w / 2, my - h / 2, w, h, C["label_fill"], colour, max(1.0, c * 0.04),
                               radius=h / 2, cls="count"))
            labels.append(Text(mx, my, text, size, colour, cls="count"))

    # islands
    islands = []
    faint_dash = (max(2.0, c * 0.1), max(1.5, c * 0.08))
    for isl in puzzle.ignored:
        x, y = centre(isl.pos)
        islands.append(Circle(x, y, radius, C["island_fill"], C["ignored"], ring_w, faint_dash,
                              cls="island ignored", row=isl.row, col=isl.col))
        islands.append(Text(x, y, str(isl.number), _font_size(c, str(isl.number)), C["ignored"],
                            cls="number ignored"))
    for isl in puzzle.islands:
        x, y = centre(isl.pos)
        hl = isl.pos in hl_cells
        islands.append(Circle(x, y, radius, C["accent"] if hl else C["island_fill"],
                              C["accent_dark"] if hl else C["island_ring"], ring_w,
                              cls="island hl" if hl else "island", row=isl.row, col=isl.col))
        islands.append(Text(x, y, str(isl.number), _font_size(c, str(isl.number)),
                            C["accent_text"] if hl else C["number"], cls="number"))

    layers = (("board", tuple(board)), ("links", tuple(links)), ("bridges", tuple(bridges)),
              ("labels", tuple(labels)), ("islands", tuple(islands)))
    return Scene(width, height, c, layers)


# -- SVG ---------------------------------------------------------------------------------

def _n(v: float) -> str:
    """A compact, deterministic number for SVG attributes."""
    s = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def _svg_shape(shape) -> str:
    if isinstance(shape, Rect):
        attrs = (f'x="{_n(shape.x)}" y="{_n(shape.y)}" width="{_n(shape.w)}" height="{_n(shape.h)}"'
                 f' fill="{shape.fill}"')
        if shape.radius:
            attrs += f' rx="{_n(shape.radius)}"'
        if shape.stroke:
            attrs += f' stroke="{shape.stroke}" stroke-width="{_n(shape.width)}"'
        if shape.cls:
            attrs = f'class="{shape.cls}" ' + attrs
        return f"<rect {attrs}/>"
    if isinstance(shape, Line):
        attrs = (f'class="{shape.cls}" x1="{_n(shape.x1)}" y1="{_n(shape.y1)}" x2="{_n(shape.x2)}"'
                 f' y2="{_n(shape.y2)}" stroke="{shape.stroke}" stroke-width="{_n(shape.width)}"')
        if shape.dash:
            attrs += f' stroke-dasharray="{_n(shape.dash[0])} {_n(shape.dash[1])}"'
        if shape.key:
            attrs += f' data-bridge="{shape.key}"'
        return f"<line {attrs}/>"
    if isinstance(shape, Circle):
        attrs = (f'class="{shape.cls}" data-row="{shape.row}" data-col="{shape.col}"'
                 f' cx="{_n(shape.cx)}" cy="{_n(shape.cy)}" r="{_n(shape.r)}" fill="{shape.fill}"'
                 f' stroke="{shape.stroke}" stroke-width="{_n(shape.width)}"')
        if shape.dash:
            attrs += f' stroke-dasharray="{_n(shape.dash[0])} {_n(shape.dash[1])}"'
        return f"<circle {attrs}/>"
    if isinstance(shape, Text):
        return (f'<text class="{shape.cls}" x="{_n(shape.x)}" y="{_n(shape.y)}" dy="0.36em"'
                f' font-size="{_n(shape.size)}" fill="{shape.fill}">{html.escape(shape.text, quote=False)}</text>')
    if isinstance(shape, Grid):
        d = "".join(f"M{_n(a)} {_n(b)}H{_n(x)}" if b == y else f"M{_n(a)} {_n(b)}V{_n(y)}"
                    for a, b, x, y in shape.segments)
        return (f'<path class="grid" d="{d}" fill="none" stroke="{shape.stroke}"'
                f' stroke-width="{_n(shape.width)}"/>')
    raise TypeError(shape)  # pragma: no cover


def svg(puzzle: Puzzle, solution: Solution | None = None, *, cell: int | None = None,
        show_links: bool = False, highlight: Iterable = (), title: str | None = None) -> str:
    """An SVG document of ``puzzle`` (and ``solution``, if given) as a string."""
    return _svg_text(puzzle, _scene(puzzle, solution, cell, show_links, highlight), title)


def _svg_text(puzzle: Puzzle, scene: Scene, title: str | None) -> str:
    w, h = scene.width, scene.height
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}"'
           f' role="img" class="hashikit" data-rows="{puzzle.rows}" data-cols="{puzzle.cols}">']
    if title is not None:
        out.append(f"<title>{html.escape(str(title), quote=False)}</title>")
    for name, shapes in scene.layers:
        if not shapes:
            continue
        extra = ""
        if name == "bridges" or name == "links":
            extra = ' stroke-linecap="butt"'
        elif name in ("islands", "labels"):
            extra = (f' font-family="{html.escape(FONT_FAMILY)}" font-weight="bold"'
                     ' text-anchor="middle"')
        out.append(f'<g id="{name}"{extra}>')
        out.extend(_svg_shape(s) for s in shapes)
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


# -- PNG ---------------------------------------------------------------------------------

def png(puzzle: Puzzle, solution: Solution | None = None, *, cell: int | None = None,
        highlight: Iterable = (), show_links: bool = False) -> bytes:
    """The picture :func:`svg` draws, as PNG bytes: the SVG itself rasterised by resvg, so the
    two are the same drawing (one drawing path; fonts are the system's, as a browser's)."""
    scene = _scene(puzzle, solution, cell, show_links, highlight)
    if scene.width * scene.height > MAX_PNG_PIXELS:
        raise HashikitError(f"a {scene.width}x{scene.height} px picture is too large for PNG (at most "
                            f"{MAX_PNG_PIXELS} pixels); pass a smaller cell size or draw SVG")
    import resvg_py

    data = resvg_py.svg_to_bytes(svg_string=_svg_text(puzzle, scene, None), background=COLORS["background"])
    return bytes(data)


# -- files -------------------------------------------------------------------------------

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
