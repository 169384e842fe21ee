"""Read a Hashiwokakero puzzle, and the bridges drawn so far, from a picture (PNG, JPEG, WebP).

One more input format, recognised by its bytes (:func:`kind_of`), so every command and
:func:`hashikit.formats.read_file` reads a screenshot, a scan or a photo of a board.  The steps,
each in a module of its own:

1. pixels (:mod:`.picture_image`): decoding within the caps (:data:`MAX_PIXELS`, and the input-byte
   cap of :mod:`hashikit.limits`, checked from the header before any pixel is decoded); the ink, as
   a share of the paper's own brightness around it, so that shadows and a gradient of light change
   nothing, in both polarities (dark ink on light paper, light ink on a dark theme): the one that
   shows more digits is read;
2. digits (:mod:`.picture_digits`): ink of a digit's shape, or inside a ring, brought to one size
   and classified by a small network; text (a digit with neighbours of its height) left out;
3. the grid (:mod:`.picture_lattice`): a homography from (column, row) to pixels, grown from the
   middle of the board, so a turned or slanted photo is read; each digit's row and column from it;
4. bridges (:mod:`.picture_bridges`): for each pair of neighbouring islands, the strokes across the
   whole gap between their bodies; grid lines, dots and circles that nearly touch are not bridges.

What it is unsure of is said (:attr:`Reading.doubts`, in words :attr:`Reading.unsure`), never
guessed silently: a digit the network is not sure of (with the digits it could be), a digit off the
grid, a link drawn over part of its gap or hidden under the islands.  The service
(:mod:`hashikit.service.picture`) settles what the rules of the puzzle can settle.  A picture with
no board, or with another puzzle's grid, is a :class:`~hashikit.errors.FormatError` (exit 2, HTTP
400).

OpenCV (``pip install ".[photo]"``) does the image work; without it reading a picture says
how to install it, in one line.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from .. import limits as _limits
from ..errors import FormatError, HashikitError
from ..limits import Limits
from ..model import Puzzle, Solution
from ._common import kind_of
from .picture_digits import FEATURE_SIDE, MODEL_PATH, features
from .picture_image import INSTALL, MAX_PIXELS, WORK_SIDE, shown
from .picture_image import cv2_or_refuse as _cv2

__all__ = ["kind_of", "read_picture", "Reading", "Island", "Doubt", "Correction", "MAX_PIXELS", "INSTALL", "features",
           "MODEL_PATH", "FEATURE_SIDE", "WORK_SIDE", "shown"]

#: pictures whose digits are smaller than this (pixels high) are read at twice the size
UPSCALE_BELOW = 11
#: below this probability a digit is reported as unsure
SURE = 0.8
#: a large picture is first looked at with its longest side this long (pixels) ...
PREVIEW = 1100
#: ... and read at that size when its digits are this high there (pixels)
LARGE_ENOUGH = 18
#: how every refusal of a picture without a board begins
NONE = "no Hashi board found in the picture"
#: rings this share of a cell across (least, most) may be on a board twice as fine
SPACED = (0.5, 0.6)
#: a board with more of its area inked by what is neither islands, bridges nor grid lines is suspect
STRAY = 0.02
#: the grid is looked for among this many digits at most (the surest): its work grows as their square
MOST_DIGITS = 1500


def _where(cell) -> str:
    return f"row {cell[0] + 1}, column {cell[1] + 1}"


@dataclass
class Island:
    row: int
    col: int
    number: int
    #: the network's probability for ``number``
    sure: float
    #: the digit's centre in the picture (pixels of the picture as given)
    x: float
    y: float
    #: the other numbers it could be, most probable first: [(number, probability), ...]
    others: list = field(default_factory=list)


@dataclass
class Doubt:
    """A place the reading is unsure of, with what it could be instead."""

    #: "number" (an island's number), "place" (a digit off the grid), "bridge" (a link's count)
    kind: str
    #: in words, naming the place ("row 3, column 5: read as 4, could be 1")
    text: str
    #: the island's cell (row, col), for a number
    cell: tuple | None = None
    #: the link's two cells, for a bridge
    link: tuple | None = None
    #: the readings it could have, most probable first, the one read first: [(value, probability), ...]
    choices: list = field(default_factory=list)


@dataclass
class Correction:
    """What the rules of the puzzle settled where the picture was unsure."""

    #: in words: where, what was read, what it is now, and why
    text: str
    #: the island's cell (row, col), for a number
    cell: tuple | None = None
    #: the link's two cells, for a bridge
    link: tuple | None = None
    #: the number or bridge count read, and the one kept (equal when the rules confirmed the reading)
    was: int = 0
    now: int = 0


@dataclass
class Reading:
    """What a picture shows: the puzzle, the bridges drawn, and where the reading is unsure."""

    puzzle: Puzzle
    bridges: Solution
    islands: list[Island]
    doubts: list[Doubt] = field(default_factory=list)
    #: the lattice in picture pixels, as an affine map at the board's middle: cell (r, c) is near
    #: origin + c * ex + r * ey (exactly at :meth:`centre`, which follows the perspective)
    origin: tuple[float, float] = (0.0, 0.0)
    ex: tuple[float, float] = (1.0, 0.0)
    ey: tuple[float, float] = (0.0, 1.0)
    #: degrees the board is turned clockwise in the picture
    angle: float = 0.0
    #: the picture's bytes (for ``--show``: :func:`hashikit.service.overlay.draw_reading`)
    raw: bytes = field(default=b"", repr=False)
    #: the homography from (column, row, 1) to picture pixels (3 x 3, rows), None for an affine grid
    homography: list | None = None
    #: what the rules of the puzzle corrected (filled in by :mod:`hashikit.service.picture`)
    corrections: list[Correction] = field(default_factory=list)
    #: links whose gap is hidden under the islands: the count read there is a guess the rules may settle
    hidden: list = field(default_factory=list)
    #: what suggests that the picture shows another puzzle, in words (numbers 0 or 9, numbers only
    #: around an empty grid, ink that is neither islands nor bridges); the rules decide
    #: (:mod:`hashikit.service.picture` refuses such a picture when the puzzle read has no solution)
    foreign: list[str] = field(default_factory=list)
    #: the share of the board's area inked by what is neither an island, a bridge nor a grid line
    stray: float = 0.0

    @property
    def unsure(self) -> list[str]:
        """One sentence per doubtful place ("row 3, column 5: read as 3, could be 8")."""
        return [d.text for d in self.doubts]

    @property
    def pitch(self) -> float:
        return math.hypot(*self.ex)

    def centre(self, row: float, col: float) -> tuple[float, float]:
        if self.homography is not None:
            (a, b, c), (d, e, f), (g, h, i) = self.homography
            w = g * col + h * row + i
            return ((a * col + b * row + c) / w, (d * col + e * row + f) / w)
        return (self.origin[0] + col * self.ex[0] + row * self.ey[0],
                self.origin[1] + col * self.ex[1] + row * self.ey[1])

    def summary(self) -> str:
        n = len(self.bridges.bridges)
        drawn = f", {n} bridge{'s' if n != 1 else ''} drawn" if n else ", no bridges drawn"
        return (f"read a {self.puzzle.rows}x{self.puzzle.cols} board (rows x columns, from the first to the "
                f"last row and column with an island) with {len(self.islands)} islands{drawn}"
                + (f"; unsure: {'; '.join(self.unsure)}" if self.unsure else ""))


# -- finding the digits -------------------------------------------------------------------------

@dataclass
class _Look:
    """The digits one polarity of the picture shows."""

    contrast: object
    thr: float
    digits: list
    size: float
    light: bool
    #: how many digits look like a board's (sure, of the common size)
    score: float = 0.0


def _threshold(contrast):
    """The ink: what stands out well above the paper (None when the picture is nearly blank)."""
    import numpy as np

    step = max(1, int(math.sqrt(contrast.size / 250_000)))
    top = float(np.percentile(contrast[::step, ::step], 99.7))
    if top < 0.12:
        return None, top
    return max(0.1, 0.42 * top), top


def _size(digits) -> float:
    """The board's digit height: the median of the sure ones (ringed ones when there are several)."""
    import numpy as np

    ringed = [d.h for d in digits if d.ring and d.sure >= SURE and not d.weak]
    sure = [d.h for d in digits if d.sure >= SURE and not d.weak]
    pool = ringed if len(ringed) >= 3 else (sure if len(sure) >= 3 else [d.h for d in digits])
    return float(np.median(pool))


def _look(gray, light: bool, k: int | None = None) -> _Look | None:
    from . import picture_digits, picture_image

    contrast = picture_image.ink_contrast(gray, light, k)
    thr, top = _threshold(contrast)
    if thr is None:
        return None
    digits, _ = picture_digits.find(contrast, picture_image.ink_mask(contrast, thr))
    if len(digits) < 2:
        return None
    size = _size(digits)
    digits = [d for d in digits if 0.65 * size <= d.h <= 1.5 * size]
    if sum(not d.weak for d in digits) < 2:
        return None
    score = sum(d.sure for d in digits if d.sure >= 0.5 and not d.weak)
    return _Look(contrast, thr, digits, size, light, score)


def _polarity(gray):
    """The digits of the polarity that shows more of them (dark ink first on a light picture)."""
    from . import picture_image

    share = picture_image.dark_share(gray)
    best = None
    for light in ((False, True) if share < 0.5 else (True, False)):
        look = _look(gray, light)
        if look is not None and (best is None or look.score > best.score):
            best = look
        if best is not None and best.score >= 8 and not 0.25 < share < 0.75:
            break
    return best


def _find(gray, source):
    """The polarity and scale that show the board's digits best: (look, gray, extra scale).

    A large picture is looked at a quarter of its size first; when its digits are large enough
    there, it is read at that size (a page scanned at 300 dpi reads as well at 150, four times faster)."""
    cv2 = _cv2()
    from . import picture_image

    extra = 1.0
    best = None
    side = max(gray.shape)
    if side > 2 * PREVIEW:
        f = PREVIEW / side
        small = cv2.resize(gray, (max(1, round(gray.shape[1] * f)), max(1, round(gray.shape[0] * f))),
                           interpolation=cv2.INTER_AREA)
        best = _polarity(small)
        if best is not None and best.size >= LARGE_ENOUGH:
            gray, extra = small, f
        else:
            best = None
    if best is None:
        best = _polarity(gray)
    if best is None:
        return None, gray, 1.0
    if best.size < UPSCALE_BELOW and max(gray.shape) * 2 <= WORK_SIDE:  # small digits: read twice as large
        gray = cv2.resize(gray, (gray.shape[1] * 2, gray.shape[0] * 2), interpolation=cv2.INTER_CUBIC)
        extra *= 2.0
        best = _look(gray, best.light) or best
    k, k0 = picture_image.kernel_side(gray, best.size), picture_image.kernel_side(gray)
    if (k > 1.5 * k0 or k < k0 / 2.5) and best.size >= UPSCALE_BELOW / 2:
        again = _look(gray, best.light, k)  # the paper taken around each digit at the digits' own scale
        if again is not None and again.score >= best.score:
            best = again
    return best, gray, extra


# -- the whole reading ------------------------------------------------------------------------

def read_picture(raw: bytes, source: str = "<picture>", lim: Limits = _limits.CLI) -> Reading:
    """Read the board (and the bridges drawn) from a picture's bytes, or raise FormatError."""
    import numpy as np

    from . import picture_lattice
    from .picture_image import decode

    gray, scale = decode(raw, source, lim)
    look, gray, extra = _find(gray, source)
    if look is None:
        from .picture_image import ink_contrast

        thr, _ = _threshold(ink_contrast(gray))
        raise FormatError(f"{NONE} ({'it is nearly blank' if thr is None else 'no numbered islands'})", source)
    scale *= extra
    digits = [d for d in look.digits if not d.weak]
    if len(digits) < 2:
        raise FormatError(f"{NONE} (no numbered islands)", source)
    if len(digits) > MOST_DIGITS:  # a page of text: the grid is looked for among the surest
        digits = sorted(digits, key=lambda d: -d.sure)[:MOST_DIGITS]
    rings = [2 * d.ring[2] for d in digits if d.ring]
    grid = picture_lattice.fit(np.array([[d.cx, d.cy] for d in digits], np.float64), look.size, rings or None)
    if grid is None:
        raise FormatError(f"{NONE} (the numbers do not sit on a grid)", source)
    grid, digits = _with_faint(grid, digits, [d for d in look.digits if d.weak])
    doubts: list[Doubt] = []
    _spacing(grid, digits, rings, doubts)
    where, corner, (R, C) = _cells(grid, digits, scale, doubts)
    from ._common import validate_board

    validate_board(R, C, lim, source)
    foreign = _another_puzzle(where, digits, R, C, source)
    isl = _islands(where, digits, grid, scale, doubts)
    if len(isl) < 2:
        raise FormatError(f"{NONE} (no numbered islands)", source)
    try:
        puzzle = Puzzle(R, C, [(i.row, i.col, i.number) for i in isl])
    except HashikitError as exc:
        raise FormatError(f"{NONE} ({exc})", source) from None
    problems = puzzle.capacity_problems()
    if problems and len(problems) * 4 > len(isl):
        raise FormatError(f"{NONE} (numbers on a grid, but they cannot be a Hashi puzzle: {problems[0]})", source)
    counts, hidden, partial, bodies = _bridges(puzzle, where, digits, grid, corner, look.contrast, look.thr,
                                               look.size, doubts)
    if partial > max(2, len(puzzle.links) // 4):
        raise FormatError(f"{NONE} (numbers on a grid, but the ink between them is no bridges: {partial} of "
                          f"{len(puzzle.links)} gaps are partly covered)", source)
    stray = _stray(puzzle, counts, bodies, grid.H, corner, look.contrast, look.thr)
    if stray > STRAY:
        foreign.append(f"{100 * stray:.0f}% of the board is inked by what is neither islands, bridges nor grid lines")
    # the grid in picture pixels: (column, row) of the board read -> pixels of the picture as given
    r0, c0 = corner
    H = np.diag([1 / scale, 1 / scale, 1.0]) @ grid.H @ np.array([[1, 0, c0], [0, 1, r0], [0, 0, 1.0]])
    mid = ((C - 1) / 2, (R - 1) / 2)
    pts_mid = picture_lattice.apply(H, np.array([mid, (mid[0] + 1, mid[1]), (mid[0], mid[1] + 1)]))
    ex, ey = pts_mid[1] - pts_mid[0], pts_mid[2] - pts_mid[0]
    origin = pts_mid[0] - mid[0] * ex - mid[1] * ey
    return Reading(puzzle, Solution.from_counts(puzzle, counts), isl, doubts, tuple(map(float, origin)),
                   tuple(map(float, ex)), tuple(map(float, ey)), math.degrees(math.atan2(ex[1], ex[0])), raw,
                   homography=[[float(v) for v in row] for row in H], hidden=hidden, foreign=foreign,
                   stray=round(stray, 4))


def _spacing(grid, digits, rings, doubts) -> None:
    """Rings about half a cell across fit two boards alike: this one, and one with an empty row and
    column between every two (Tatham's rings are 1.1 cells across): said, as the picture cannot tell."""
    import numpy as np

    from . import picture_lattice

    if len(rings) * 2 < len(digits):
        return
    placed = grid.cells[grid.on]
    mid = placed.mean(axis=0) if len(placed) else np.zeros(2)
    ratio = float(np.median(rings)) / picture_lattice.local_pitch(grid.H, float(mid[0]), float(mid[1]))
    if SPACED[0] <= ratio <= SPACED[1]:
        doubts.append(Doubt("puzzle", f"the islands' rings are {ratio:.2f} of a cell across: the board may have "
                                      f"an empty row and column between every two (the puzzle is the same)"))


def _cells(grid, digits, scale, doubts):
    """Each digit's cell on the board: ({(row, col): digit index}, the grid's (row, col) of the board's
    first cell, (rows, columns)); a digit off the grid among the islands, and two in one cell, said."""
    import numpy as np

    cols, rows = grid.cells[:, 0], grid.cells[:, 1]
    on = grid.on
    c0, c1 = int(cols[on].min()), int(cols[on].max())
    r0, r1 = int(rows[on].min()), int(rows[on].max())
    for i in np.flatnonzero(~on):  # off the grid: said when among the islands, else no part of the board
        if c0 - 1 <= cols[i] <= c1 + 1 and r0 - 1 <= rows[i] <= r1 + 1 and digits[i].sure >= 0.5:
            d = digits[i]
            doubts.append(Doubt("place", f"a {d.digit} off the grid at pixel ({d.cx / scale:.0f}, "
                                         f"{d.cy / scale:.0f}) was left out"))
    where: dict[tuple[int, int], int] = {}
    for i in np.flatnonzero(on):
        key = (int(rows[i]) - r0, int(cols[i]) - c0)
        if key in where:
            doubts.append(Doubt("place", f"{_where(key)}: two numbers read in one cell", cell=key))
            if grid.resid[where[key]] <= grid.resid[i]:
                continue
        where[key] = int(i)
    return where, (r0, c0), (r1 - r0 + 1, c1 - c0 + 1)


def _another_puzzle(where, digits, R, C, source) -> list[str]:
    """What suggests another puzzle's grid, in words; refused outright when it is plain (several 0s
    or 9s, numbers in nearly every cell)."""
    odd = [k for k, i in where.items() if digits[i].digit in (0, 9) and digits[i].sure >= 0.6]
    if len(odd) >= 3 or (len(odd) >= 2 and len(odd) * 5 >= len(where)):
        raise FormatError(f"{NONE} (numbers on a grid, but {len(odd)} of them are 0 or 9, which no Hashi "
                          f"island holds: another puzzle?)", source)
    if len(where) >= 16 and len(where) >= 0.75 * R * C:
        raise FormatError(f"{NONE} (numbers in {len(where)} of the {R * C} cells: another puzzle?)", source)
    foreign = []
    if odd:
        foreign.append(f"{_where(odd[0])} holds a {digits[where[odd[0]]].digit}")
    edge = [k for k in where if k[0] in (0, R - 1) or k[1] in (0, C - 1)]
    corners = [k for k in where if k[0] in (0, R - 1) and k[1] in (0, C - 1)]
    if R >= 4 and C >= 4 and len(edge) == len(where) and not corners:
        foreign.append("the numbers lie only around the edge of the board, none in it or at its corners")
    close = [k for k in where if any((k[0] + dr, k[1] + dc) in where for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)))]
    if len(where) >= 8 and len(close) >= 0.3 * len(where):  # Hashi islands seldom stand side by side
        foreign.append(f"{len(close)} of the {len(where)} numbers stand in the cell next to another")
    if len(where) > 0.5 * R * C:
        foreign.append(f"numbers in {len(where)} of the {R * C} cells")
    else:  # a table: every other (or third...) row and column, nearly full
        a = math.gcd(*(k[0] - r for k in where for r in (min(k[0] for k in where),)))
        b = math.gcd(*(k[1] - c for k in where for c in (min(k[1] for k in where),)))
        places = ((R - 1) // max(a, 1) + 1) * ((C - 1) // max(b, 1) + 1)
        if max(a, b) > 1 and len(where) >= 9 and len(where) > 0.5 * places:
            foreign.append(f"numbers in {len(where)} of the {places} places of a table")
    return foreign


def _islands(where, digits, grid, scale, doubts) -> list[Island]:
    """The islands read, with a doubt for each number the network is not sure of (a 0 or a 9, which
    no island holds, read as the likeliest digit one can hold)."""
    isl: list[Island] = []
    for (r, c), i in sorted(where.items()):
        d = digits[i]
        number, sure = d.digit, d.sure
        others = [(n, round(p, 3)) for n, p in d.others if 1 <= n <= 8]
        if number in (0, 9):
            doubts.append(Doubt("number", f"{_where((r, c))}: read as {number}, which no island holds", cell=(r, c),
                                choices=others))
            if not others:
                continue
            number, sure = others[0]
            others = others[1:]
        isl.append(Island(r, c, number, round(sure, 3), d.cx / scale, d.cy / scale, others))
        if grid.resid[i] > 0.2:
            doubts.append(Doubt("place", f"{_where((r, c))}: the {number} there is off the grid", cell=(r, c)))
        if d.weak:  # faint: perhaps no island at all
            doubts.append(Doubt("number", f"{_where((r, c))}: a faint {number}, or no island?", cell=(r, c),
                                choices=[(number, round(sure, 3)), (0, round(d.none, 3))] + others[:1]))
        elif sure < SURE and number == d.digit:
            doubts.append(Doubt("number", f"{_where((r, c))}: read as {number}, could be "
                                          f"{others[0][0] if others else '?'}", cell=(r, c),
                                choices=[(number, round(sure, 3))] + others))
    return isl


def _with_faint(grid, digits, faint):
    """The grid with the faint digits (the network found them likelier no digit) that sit exactly on
    an empty place of it, inside the board: (grid, digits), the faint ones after the others."""
    import numpy as np

    from . import picture_lattice

    if not faint:
        return grid, digits
    on = grid.on
    lo, hi = grid.cells[on].min(axis=0), grid.cells[on].max(axis=0)
    taken = {tuple(c) for c in grid.cells[on]}
    g = picture_lattice.apply(np.linalg.inv(grid.H), np.array([[d.cx, d.cy] for d in faint], np.float64))
    r = np.round(g).astype(int)
    res = np.abs(g - r).max(axis=1)
    add = []
    for d, cell, e in zip(faint, r, res):
        if e <= 0.2 and np.all(cell >= lo) and np.all(cell <= hi) and tuple(cell) not in taken:
            taken.add(tuple(cell))
            add.append((d, cell, e))
    if not add:
        return grid, digits
    cells = np.concatenate([grid.cells, np.array([c for _, c, _ in add])])
    resid = np.concatenate([grid.resid, np.array([e for _, _, e in add])])
    return (picture_lattice.GridFit(cells, resid, np.concatenate([on, np.ones(len(add), bool)]), grid.H),
            digits + [d for d, _, _ in add])


def _bridges(puzzle, where, digits, grid, corner, contrast, thr, size, doubts):
    """The bridges on each link (counts in link order), the links hidden under the islands, and how
    many gaps are only partly covered; doubts added."""
    import numpy as np

    from . import picture_bridges, picture_lattice

    r0, c0 = corner
    H = grid.H

    def point(r, c):
        return picture_lattice.apply(H, np.array([[c + c0, r + r0]], float))[0]

    # the link between grid points, not between the digits' boxes (a bare digit's box need not be
    # centred on its island: the grid is fitted to them all)
    centre = {key: point(*key) for key in where}
    covered = set()
    for ln in puzzle.links:
        (ra, ca), (rb, cb) = puzzle.islands[ln.a].pos, puzzle.islands[ln.b].pos
        if ra == rb:
            covered.update(((ra, c), (ra, c + 1)) for c in range(ca, cb))
        else:
            covered.update(((r, ca), (r + 1, ca)) for r in range(ra, rb))
    controls = []
    for r in range(puzzle.rows):
        for c in range(puzzle.cols):
            for (rr, cc) in ((r, c + 1), (r + 1, c)):
                if rr >= puzzle.rows or cc >= puzzle.cols or ((r, c), (rr, cc)) in covered:
                    continue
                if (r, c) in where or (rr, cc) in where:
                    continue
                controls.append((point(r, c), point(rr, cc), "h" if rr == r else "v"))
    if len(controls) > 40:
        controls = controls[:: len(controls) // 40 + 1]
    pitch = picture_lattice.local_pitch(H, c0 + (puzzle.cols - 1) / 2, r0 + (puzzle.rows - 1) / 2)
    lines_of_grid = picture_bridges.grid_lines(contrast, thr, controls, pitch)
    counts, hidden, partial, seen = [], [], 0, []
    bodies: dict[tuple[int, int], float] = {}  # how far each island's body reaches, in cells
    for ln in puzzle.links:
        pa, pb = puzzle.islands[ln.a].pos, puzzle.islands[ln.b].pos
        a, b = centre[pa], centre[pb]
        da, db = digits[where[pa]], digits[where[pb]]
        p = picture_lattice.local_pitch(H, c0 + (pa[1] + pb[1]) / 2, r0 + (pa[0] + pb[0]) / 2)
        clear_a = picture_bridges.body(contrast, thr, a, b, size, da.ring[2] if da.ring else None)
        clear_b = picture_bridges.body(contrast, thr, b, a, size, db.ring[2] if db.ring else None)
        bodies[pa] = max(bodies.get(pa, 0.0), clear_a / p)
        bodies[pb] = max(bodies.get(pb, 0.0), clear_b / p)
        lines = picture_bridges.count(contrast, thr, a, b, clear_a, clear_b, p,
                                      lines_of_grid.get("h" if pa[0] == pb[0] else "v"))
        link = f"the link from {_where(pa)} to {_where(pb)}"
        n = min(lines.count, puzzle.maxbridges)
        if lines.hidden:
            hidden.append((pa, pb))
            doubts.append(Doubt("bridge", f"{link} is hidden under the islands' circles", link=(pa, pb),
                                choices=[(k, 0.0) for k in range(puzzle.maxbridges + 1)]))
        elif 0.4 <= lines.covered < 0.8 or (lines.count and lines.covered < 0.8):
            # a stroke along part of the gap is no bridge (a bridge runs from island to island)
            partial += 1
            seen_n, n = max(1, n), 0
            doubts.append(Doubt("bridge", f"{link} is drawn over only part of its length", link=(pa, pb),
                                choices=[(0, 0.5), (seen_n, 0.3)] + [(k, 0.2) for k in range(1, puzzle.maxbridges + 1)
                                                                     if k != seen_n]))
        elif lines.count > puzzle.maxbridges:
            doubts.append(Doubt("bridge", f"{link} shows {lines.count} lines", link=(pa, pb),
                                choices=[(n, 0.5)] + [(k, 0.25) for k in range(puzzle.maxbridges + 1) if k != n]))
        counts.append(n if not lines.hidden else 0)
        seen.append((lines, p, link, (pa, pb)))
    # two lines drawn close together run into one wide stroke at a small scale: a single stroke far
    # wider than the board's other single strokes is read as two, and said
    singles = [ln.width / p for ln, p, _, _ in seen if ln.count == 1 and ln.width]
    if len(singles) >= 3 and puzzle.maxbridges >= 2:
        w1 = float(np.median(singles))
        for k, (ln, p, link, ends) in enumerate(seen):
            if ln.count == 1 and not ln.hidden and ln.width / p > 2.4 * w1 and ln.covered >= 0.8:
                counts[k] = 2
                doubts.append(Doubt("bridge", f"{link}: a stroke as wide as two lines run together, read as 2",
                                    link=ends, choices=[(2, 0.6), (1, 0.4)]))
    return counts, hidden, partial, bodies


def _stray(puzzle, counts, bodies, H, corner, contrast, thr) -> float:
    """The share of the board's area (its cells, in the grid's own coordinates) inked by what is
    neither an island's body, a bridge read, nor a line or dot of a grid (through the islands or
    between the cells)."""
    import cv2
    import numpy as np

    from . import picture_lattice

    r0, c0 = corner
    k = 8  # samples a cell, each way
    cs = np.arange(-0.5, puzzle.cols - 0.5, 1 / k) + 0.5 / k
    rs = np.arange(-0.5, puzzle.rows - 0.5, 1 / k) + 0.5 / k
    gc, gr = np.meshgrid(cs, rs)
    px = picture_lattice.apply(H, np.c_[gc.ravel() + c0, gr.ravel() + r0])
    ink = cv2.remap(contrast, px[:, 0].reshape(gc.shape).astype(np.float32),
                    px[:, 1].reshape(gc.shape).astype(np.float32), cv2.INTER_LINEAR, borderValue=0.0) > thr
    explained = np.zeros(gc.shape, bool)
    for dist in (np.abs(gc - np.round(gc)), np.abs(gr - np.round(gr))):
        explained |= dist < 0.12  # a grid line through the islands, or a dot
        explained |= np.abs(dist - 0.5) < 0.1  # a line between the cells
    for isl in puzzle.islands:
        reach = max(0.62, bodies.get(isl.pos, 0.0) + 0.1)
        explained |= np.hypot(gc - isl.col, gr - isl.row) < reach
    for ln, n in zip(puzzle.links, counts):
        if not n:
            continue
        (ra, ca), (rb, cb) = puzzle.islands[ln.a].pos, puzzle.islands[ln.b].pos
        if ra == rb:
            explained |= (np.abs(gr - ra) < 0.4) & (gc >= ca) & (gc <= cb)
        else:
            explained |= (np.abs(gc - ca) < 0.4) & (gr >= ra) & (gr <= rb)
    return float((ink & ~explained).mean())
