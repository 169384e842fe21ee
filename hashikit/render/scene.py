"""A board as a scene: the one place where a puzzle, its bridges, highlights and ignored islands
become drawing primitives (rectangles, lines, circles, centred numbers, grid lines), sized from the
style table (:mod:`.style`).  The back ends draw scenes and compute no geometry of their own:
:mod:`.to_svg` (SVG text), :mod:`.to_png` (that SVG rasterised), :mod:`.to_pdf` (PDF pages),
:mod:`.to_photo` (over a picture).

Three placements, one drawing (:func:`_draw`):

* :func:`screen`: a picture of its own in pixels, with a white background and a tinted board;
  bridge lines are whole pixels wide, their spacing an even number of pixels, and the cell centres
  sit on whole or half pixels to match, so at 1:1 each line of a double bridge covers exact pixel
  columns and small boards stay crisp;
* :func:`paper`: a board placed on a page at a point, in millimetres, ``classic`` (tinted, a faint
  grid) or ``plain`` (black on white, grey levels only);
* :func:`overlay`: the board on a picture's lattice (a cell turned and scaled as the picture
  shows it), rings and lines only, what is unsure in the accent colour.

A scene can hold other scenes (a page holds its boards) and :class:`Label` lines of text.
Bridges and highlights are checked to lie on the board first (a :class:`FormatError`
otherwise): a hostile coordinate never reaches the arithmetic.
"""

from __future__ import annotations

import math
from typing import Iterable, NamedTuple

from ..errors import FormatError
from ..model import Puzzle, Solution
from .style import LEAST, PALETTES, PRINT, SCREEN, SMALL_CELL, STYLES, Style

#: Most parallel lines drawn for one bridge; larger counts get a label.
MAX_LINES = 4
MIN_CELL, MAX_CELL = 12, 40


def auto_cell(rows: int, cols: int) -> int:
    """Cell size in px: 40 for boards up to 22 cells a side, then shrinking to 12 at ~75+."""
    side = max(rows, cols)
    return max(MIN_CELL, min(MAX_CELL, round(900 / side)))


# -- the primitives ----------------------------------------------------------------------------------

class Rect(NamedTuple):
    x: float
    y: float
    w: float
    h: float
    fill: str | None
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
    fill: str | None
    stroke: str
    width: float
    dash: tuple[float, float] | None = None
    cls: str = ""
    row: int = -1
    col: int = -1


class Text(NamedTuple):
    """A number centred on (x, y), bold."""
    x: float
    y: float
    text: str
    size: float
    fill: str
    cls: str = ""


class Grid(NamedTuple):
    """Faint lines through the cell centres (one path)."""
    segments: tuple[tuple[float, float, float, float], ...]
    stroke: str
    width: float


class Label(NamedTuple):
    """A line of text on its baseline ``y``; ``x`` is its left edge, centre or right edge by ``align``
    (L, C, R); ``size`` in points."""
    x: float
    y: float
    text: str
    size: float
    bold: bool = False
    align: str = "L"


class Lattice(NamedTuple):
    """Where the cells are: the centre of cell (0, 0), and the steps to the next column and row; for
    a board a camera saw at a slant, ``gx`` and ``gy`` make it a homography (each point divided by
    ``1 + gx * column + gy * row``)."""
    ox: float
    oy: float
    exx: float
    exy: float
    eyx: float
    eyy: float
    gx: float = 0.0
    gy: float = 0.0

    def at(self, pos: tuple[int, int]) -> tuple[float, float]:
        """The centre of cell ``pos`` (row, column)."""
        r, c = pos
        w = 1.0 + c * self.gx + r * self.gy
        return (self.ox + c * self.exx + r * self.eyx) / w, (self.oy + c * self.exy + r * self.eyy) / w


class Scene(NamedTuple):
    width: float
    height: float
    cell: float
    #: (name, shapes) in drawing order; a shape may be a Scene (a board on a page)
    layers: tuple[tuple[str, tuple], ...]
    rows: int = 0
    cols: int = 0
    #: what a unit is: "px" or "mm"
    unit: str = "px"


# -- checks ------------------------------------------------------------------------------------------

def validate_cell(cell) -> int:
    if isinstance(cell, bool) or not isinstance(cell, int):
        raise ValueError(f"cell must be a whole number of pixels, got {cell!r}")
    if not 4 <= cell <= 400:
        raise ValueError(f"cell must be between 4 and 400 pixels, got {cell}")
    return cell


def split_highlight(highlight: Iterable) -> tuple[set, set]:
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


def validate_types(puzzle: Puzzle, solution: Solution | None) -> None:
    if not isinstance(puzzle, Puzzle):
        raise TypeError(f"expected a Puzzle, got {type(puzzle).__name__}")
    if solution is not None and not isinstance(solution, Solution):
        raise TypeError(f"expected a Solution or None, got {type(solution).__name__}")


def validate_board(puzzle: Puzzle, solution: Solution | None, hl_bridges: set = frozenset()) -> None:
    """Refuse a puzzle or solution of the wrong type, and bridges (drawn or highlighted) with an end
    off the board or an absurd count."""
    validate_types(puzzle, solution)

    rows, cols = puzzle.rows, puzzle.cols

    def on_board(pos) -> bool:
        if type(pos) is not tuple or len(pos) != 2:
            return False
        r, c = pos
        return type(r) is int and type(c) is int and 0 <= r < rows and 0 <= c < cols

    items = list(solution.bridges.items()) if solution is not None else []
    for (p, q), count in items + [(key, 1) for key in hl_bridges]:
        if not (on_board(p) and on_board(q)):
            raise FormatError(f"cannot draw a bridge with an end outside the {rows}x{cols} board")
        if type(count) is not int or abs(count) >= 10 ** 9:
            raise FormatError("cannot draw a bridge whose count is not a whole number below 10**9")


# -- sizes -------------------------------------------------------------------------------------------

def number_size(style: Style, cell: float, text: str) -> float:
    """The font size of a number that fits its island's disc (same unit as ``cell``)."""
    small = style.number_small is not None and cell < SMALL_CELL
    return min(cell * (style.number_small if small else style.number), style.digits * cell / max(1, len(text)))


def island_radius(style: Style, cell: float) -> float:
    return cell * (style.island_small if style.island_small is not None and cell < SMALL_CELL else style.island)


def _even_up(v: float) -> int:
    return 2 * math.ceil(v / 2)


class Pen(NamedTuple):
    """A medium's bridge lines at one cell size: line width, and the centre-to-centre gap of a pair."""
    line: float
    gap: float
    snap: bool

    def spacing(self, style: Style, cell: float, lines: int) -> float:
        """The gap between the lines of a bridge of ``lines`` lines (3 and 4 keep within the span)."""
        if lines <= 2:
            return self.gap
        room = (style.span * cell - self.line) / (lines - 1)
        return min(self.gap, max(2, 2 * (room // 2))) if self.snap else min(self.gap, room)


def pen(style: Style, cell: float) -> Pen:
    least = LEAST[style.medium]
    if style.medium == "screen":
        line = max(least["bridge"], round(cell * style.bridge))
        return Pen(line, _even_up(max(line + least["clear"], cell * style.pair)), True)
    line = max(least["bridge"], cell * style.bridge)
    return Pen(line, max(cell * style.pair, line + least["clear"]), False)


# -- the drawing -------------------------------------------------------------------------------------

#: makes a primitive from all its fields in order, without the keyword handling of its class's
#: constructor (a third of the time of a book's boards goes to making their primitives)
_new = tuple.__new__


def _draw(puzzle: Puzzle, solution: Solution | None, c: float, lattice: Lattice, style: Style, colours: dict,
          hl_cells: set, hl_bridges: set, show_links: bool, board: list) -> tuple:
    """The layers of a board: ``board`` (given: background, frame, grid), highlighted empty cells,
    candidate links, bridges, count labels, islands."""
    C = colours
    centre = lattice.at
    ox, oy, exx, exy, eyx, eyy = lattice[:6]
    flat = not (lattice.gx or lattice.gy)
    least = LEAST[style.medium]
    p = pen(style, c)
    radius = island_radius(style, c)
    ring_w = max(least["ring"], c * style.ring)

    island_pos = {isl.pos for isl in puzzle.islands} | {isl.pos for isl in puzzle.ignored}
    for pos in sorted(hl_cells - island_pos):
        if 0 <= pos[0] < puzzle.rows and 0 <= pos[1] < puzzle.cols:
            x, y = centre(pos)
            s = c * style.mark
            board.append(Rect(x - s / 2, y - s / 2, s, s, C["accent_cell"], C["accent"], ring_w,
                              radius=c * style.mark_round, cls="cell hl"))

    links = []
    drawn = set(solution.bridges) | hl_bridges if solution is not None else hl_bridges
    if show_links:
        isl = puzzle.islands
        dash = (max(least["dash"], c * style.link_dash), max(least["dash"], c * style.link_dash))
        for ln in puzzle.links:
            if (isl[ln.a].pos, isl[ln.b].pos) in drawn:  # a bridge covers it
                continue
            (xa, ya), (xb, yb) = centre(isl[ln.a].pos), centre(isl[ln.b].pos)
            links.append(Line(xa, ya, xb, yb, C["link"], max(least["link"], c * style.link), dash, cls="link"))

    bridges = []
    labels = []
    bridge_items = list(solution.bridges.items()) if solution is not None else []
    present = {key for key, _ in bridge_items}
    for key in sorted(hl_bridges - present):  # suggested bridges the solution lacks
        bridge_items.append((key, None))
    gaps = {lines: p.spacing(style, c, lines) for lines in range(1, MAX_LINES + 1)}
    add, line_w = bridges.append, p.line
    for (a, b), count in bridge_items:
        if flat:
            xa, ya = ox + a[1] * exx + a[0] * eyx, oy + a[1] * exy + a[0] * eyy
            xb, yb = ox + b[1] * exx + b[0] * eyx, oy + b[1] * exy + b[0] * eyy
        else:
            (xa, ya), (xb, yb) = centre(a), centre(b)
        dx, dy = xb - xa, yb - ya
        length = math.hypot(dx, dy) or 1.0
        nx, ny = -dy / length, dx / length  # unit normal
        hl = bool(hl_bridges) and (a, b) in hl_bridges
        colour = C["accent"] if hl else C["bridge"]
        key = f"{a[0]},{a[1]}-{b[0]},{b[1]}"
        if count is None:
            add(Line(xa, ya, xb, yb, colour, p.line, (c * style.suggest_dash, c * style.suggest_gap),
                     "bridge hl suggested", key))
            continue
        n = count if type(count) is int and count > 0 else 1
        lines = min(n, MAX_LINES)
        gap, cls = gaps[lines], "bridge hl" if hl else "bridge"
        for i in range(lines):
            off = (i - (lines - 1) / 2) * gap
            add(_new(Line, (xa + nx * off, ya + ny * off, xb + nx * off, yb + ny * off, colour, line_w, None, cls, key)))
        if n > MAX_LINES or n != count:
            text = str(count)
            size = max(least.get("count", 0.0), c * style.count)
            w = max(size * 1.3, size * 0.62 * len(text) + size * 0.6)
            h = size * 1.35
            mx, my = (xa + xb) / 2, (ya + yb) / 2
            labels.append(Rect(mx - w / 2, my - h / 2, w, h, C["label_fill"], colour,
                               max(least.get("label_ring", 0.0), c * style.label_ring), radius=h / 2, cls="count"))
            labels.append(Text(mx, my, text, size, colour, cls="count"))

    islands = []
    ignored = puzzle.ignored if style.ignored_dash is not None else ()  # print leaves them out
    if ignored:
        faint_dash = (max(least["dash"], c * style.ignored_dash), max(least["ignored_gap"], c * style.ignored_gap))
    for isl in ignored:
        x, y = centre(isl.pos)
        islands.append(Circle(x, y, radius, C["island_fill"], C["ignored"], ring_w, faint_dash,
                              cls="island ignored", row=isl.row, col=isl.col))
        islands.append(Text(x, y, str(isl.number), number_size(style, c, str(isl.number)), C["ignored"],
                            cls="number ignored"))
    lift = c * style.offset if style.offset else 0.0
    sizes = {n: number_size(style, c, "8" * n) for n in range(1, 4)}
    add = islands.append
    fill, ring, ink = C["island_fill"], C["island_ring"], C["number"]
    for isl in puzzle.islands:
        row, col = isl.row, isl.col
        x, y = (ox + col * exx + row * eyx, oy + col * exy + row * eyy) if flat else centre((row, col))
        text = str(isl.number)
        size = sizes.get(len(text)) or number_size(style, c, text)
        if hl_cells and (row, col) in hl_cells:
            add(Circle(x, y, radius, C["accent_fill"], C["accent_dark"], ring_w, None, "island hl", row, col))
            add(Text(x + lift, y - lift, text, size, C["accent_text"], "number"))
        else:
            add(_new(Circle, (x, y, radius, fill, ring, ring_w, None, "island", row, col)))
            add(_new(Text, (x + lift, y - lift, text, size, ink, "number")))

    return (("board", tuple(board)), ("links", tuple(links)), ("bridges", tuple(bridges)),
            ("labels", tuple(labels)), ("islands", tuple(islands)))


def screen(puzzle: Puzzle, solution: Solution | None = None, *, cell: int | None = None,
           show_links: bool = False, highlight: Iterable = ()) -> Scene:
    """The board as a picture of its own, in pixels (``hashikit render``'s SVG and PNG)."""
    validate_types(puzzle, solution)
    c = auto_cell(puzzle.rows, puzzle.cols) if cell is None else validate_cell(cell)
    hl_cells, hl_bridges = split_highlight(highlight)
    validate_board(puzzle, solution, hl_bridges)
    style, least, C = SCREEN, LEAST["screen"], PALETTES["classic"]
    line_w = pen(style, c).line
    margin = max(least["margin"], round(c * style.border)) + ((line_w % 2) / 2 - (c / 2) % 1) % 1
    width = round(puzzle.cols * c + 2 * margin)
    height = round(puzzle.rows * c + 2 * margin)

    lattice = Lattice(margin + c / 2, margin + c / 2, c, 0, 0, c)
    board = [Rect(0, 0, width, height, C["background"], cls="background"),
             Rect(margin / 2, margin / 2, width - margin, height - margin, C["board"],
                  C["board_edge"], least["edge"], radius=margin * style.frame_round, cls="board"),
             _grid(puzzle, lattice, C["grid"], least["grid"] if c >= SMALL_CELL else least["grid_small"])]
    layers = _draw(puzzle, solution, c, lattice, style, C, hl_cells, hl_bridges, show_links, board)
    return Scene(width, height, c, layers, puzzle.rows, puzzle.cols)


def _grid(puzzle: Puzzle, lattice: Lattice, colour: str, width: float) -> Grid:
    """Lines through the cell centres of an upright board (rows, then columns)."""
    centre = lattice.at
    (x0, y0), (x1, y1) = centre((0, 0)), centre((puzzle.rows - 1, puzzle.cols - 1))
    segs = [(x0, y, x1, y) for y in [centre((r, 0))[1] for r in range(puzzle.rows)]]
    segs += [(x, y0, x, y1) for x in [centre((0, k))[0] for k in range(puzzle.cols)]]
    return Grid(tuple(segs), colour, width)


def paper_size(puzzle: Puzzle, cell: float) -> tuple[float, float]:
    """The width and height of a board on paper, its margin counted (same unit as ``cell``)."""
    return (puzzle.cols + 2 * PRINT.border) * cell, (puzzle.rows + 2 * PRINT.border) * cell


def paper(puzzle: Puzzle, solution: Solution | None, x: float, y: float, cell: float,
          palette: str = "classic") -> Scene:
    """The board with its top-left corner (margin counted) at (x, y) on a page, in millimetres:
    ``classic`` (a tinted board, a faint grid) or ``plain`` (black on white, no tint, no grid)."""
    validate_board(puzzle, solution)
    style, least, C = PRINT, LEAST["print"], PALETTES[palette]
    c = cell
    lattice = Lattice(x + (style.border + 0.5) * c, y + (style.border + 0.5) * c, c, 0.0, 0.0, c)

    w, h = paper_size(puzzle, c)
    board = []
    if C["board"] is not None:
        inset = style.border * c / 2
        thin = max(least["hairline"], style.hairline * c)
        board.append(Rect(x + inset, y + inset, w - 2 * inset, h - 2 * inset, C["board"], C["board_edge"], thin,
                          radius=inset * 2 * style.frame_round, cls="board"))
        board.append(_grid(puzzle, lattice, C["grid"], thin))
    layers = _draw(puzzle, solution, c, lattice, style, C, set(), set(), False, board)
    return Scene(w, h, c, layers, puzzle.rows, puzzle.cols, unit="mm")


def sheet(width: float, height: float, labels: Iterable[Label], boards: Iterable[Scene]) -> Scene:
    """A page in millimetres: a white sheet, its lines of text, its boards (scenes from :func:`paper`)."""
    return Scene(width, height, 0.0, (("paper", (Rect(0, 0, width, height, "#ffffff", cls="background"),)),
                                      ("text", tuple(labels)), ("boards", tuple(boards))), unit="mm")


def overlay(puzzle: Puzzle, solution: Solution | None, *, origin: tuple[float, float], ex: tuple[float, float],
            ey: tuple[float, float], width: int, height: int, unsure: Iterable = (), homography=None,
            doubted: Iterable = (), corrected: Iterable = ()) -> Scene:
    """The board drawn on a picture's lattice: cell (r, c) at ``origin + c * ex + r * ey`` (pixels of
    a ``width`` x ``height`` picture), or through ``homography`` ((column, row, 1) to pixels, 3 x 3)
    when the camera saw the board at a slant; islands at ``unsure`` positions and the ``doubted``
    links (pairs of cells) in the accent colour, islands at ``corrected`` positions (the rules of the
    puzzle changed their number) in the corrected colour."""
    validate_board(puzzle, solution)
    style = STYLES["overlay"]
    c = math.hypot(*ex)
    if not c > 0:
        raise ValueError("the lattice's cell has no size")
    if homography is not None:
        (a, b, t), (d, e, f), (g, h, w) = homography
        lattice = Lattice(t / w, f / w, a / w, d / w, b / w, e / w, g / w, h / w)
    else:
        lattice = Lattice(origin[0], origin[1], ex[0], ex[1], ey[0], ey[1])
    colours = PALETTES["overlay"]
    doubted = {tuple(map(tuple, k)) for k in doubted}
    present = set(solution.bridges) if solution is not None else set()
    layers = _draw(puzzle, solution, c, lattice, style, colours, set(map(tuple, unsure)), doubted & present, False, [])
    fixed = set(map(tuple, corrected))
    if fixed:  # each island is its circle, then its number
        mark, shapes = colours["corrected"], []
        for shape in dict(layers)["islands"]:
            if isinstance(shape, Circle) and (shape.row, shape.col) in fixed:
                shape = shape._replace(stroke=mark, cls=shape.cls + " corrected")
            elif isinstance(shape, Text) and shapes and "corrected" in shapes[-1].cls:
                shape = shape._replace(fill=mark)
            shapes.append(shape)
        layers = tuple((name, tuple(shapes) if name == "islands" else layer) for name, layer in layers)
    return Scene(width, height, c, layers, puzzle.rows, puzzle.cols)


__all__ = ["Rect", "Line", "Circle", "Text", "Grid", "Label", "Scene", "Lattice", "Pen", "auto_cell", "screen", "paper",
           "overlay", "sheet", "paper_size", "number_size", "island_radius", "pen", "validate_cell", "split_highlight",
           "validate_board", "validate_types", "MAX_LINES", "MIN_CELL", "MAX_CELL"]
