"""Read a Hashiwokakero puzzle, and the bridges drawn so far, from a picture (PNG, JPEG, WebP).

One more input format, recognised by its bytes (:func:`kind_of`), so every command and
:func:`hashikit.formats.read_file` reads a screenshot or a photo of a board.  The steps:

1. decode within the caps (:data:`MAX_PIXELS`, and the input-byte cap of :mod:`hashikit.limits`,
   checked from the header before any pixel is decoded), dark pictures turned light;
2. ink: what is darker than its neighbourhood's background (a grey closing), so tinted or
   uneven backgrounds, faint grid lines and JPEG noise fall below the threshold;
3. digits: ink components of a digit's shape, classified by a small network
   (``hashikit/data/digits.npz``, made by ``scripts/train_digits.py`` from digits rendered in
   DejaVu and Liberation fonts; numpy only, no download); a digit with a neighbour of its own
   height beside it is part of a word or a longer number (a title), not an island;
4. the lattice: the picture's small rotation from the directions between islands, the cell
   pitch from the gaps between the islands' rows and columns (empty rows and columns inside
   the board count), each island's row and column from that;
5. bridges: for each pair of neighbouring islands in a row or column, the ink across the gap
   between them, counted as lines (one line: 1 bridge, two: 2).

What it is unsure of is said (:attr:`Reading.unsure`), never guessed silently: a digit the
network is not sure of, an island off the lattice, a bridge drawn over part of its gap.  A
picture with no board is a :class:`~hashikit.errors.FormatError` (exit 2, HTTP 400).

OpenCV (``pip install ".[photo]"``) does the image work; without it reading a picture
says how to install it, in one line.

About 700 lines, one reader: the five steps above hand each other the same measurements (the
ink, the digits' boxes, the cell pitch), and their thresholds are tuned together on the pictures
of ``benchmarks/pictures.py``.
"""

from __future__ import annotations

import io
import logging
import math
import os
from dataclasses import dataclass, field

from .. import limits as _limits
from ..errors import FormatError, HashikitError
from ..limits import Limits
from ..model import Puzzle, Solution
from ._common import kind_of

__all__ = ["kind_of", "read_picture", "Reading", "Island", "MAX_PIXELS", "INSTALL", "features", "MODEL_PATH"]

#: the largest picture read, in pixels (a PNG "bomb" announces billions in a few bytes: refused
#: from its header, before decoding)
MAX_PIXELS = 40_000_000
#: pictures are worked on with their longest side at most this (larger ones are scaled down)
WORK_SIDE = 2400
#: pictures whose digits are smaller than this (pixels high) are read at twice the size
UPSCALE_BELOW = 11
#: below this probability a digit is reported as unsure
SURE = 0.8
INSTALL = 'reading pictures needs OpenCV: pip install ".[photo]"'
MODEL_PATH = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "digits.npz")
#: the side of the square a digit is scaled to before it is classified
FEATURE_SIDE = 16

def _cv2(source: str | None = None):
    try:
        import cv2  # noqa: F401
        import numpy  # noqa: F401
    except ImportError:
        raise FormatError(INSTALL, source) from None
    return cv2


class _Say(logging.Handler):
    """One line on the standard error of the moment (pytest and callers swap it)."""

    def emit(self, record):
        import sys

        try:
            print("hashikit: " + self.format(record), file=sys.stderr)
        except Exception:  # pragma: no cover - a closed stderr
            self.handleError(record)


def cli_logging() -> None:
    """Let the command line print what a picture showed and where the reading is unsure."""
    log = logging.getLogger("hashikit.picture")
    if not any(isinstance(h, _Say) for h in log.handlers):
        log.addHandler(_Say())
    log.setLevel(logging.INFO)
    log.propagate = False


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


@dataclass
class Reading:
    """What a picture shows: the puzzle, the bridges drawn, and where the reading is unsure."""

    puzzle: Puzzle
    bridges: Solution
    islands: list[Island]
    #: one sentence per doubtful place ("row 3, column 5: a 3 or an 8?")
    unsure: list[str] = field(default_factory=list)
    #: the lattice in picture pixels: cell (r, c) is at origin + c * ex + r * ey
    origin: tuple[float, float] = (0.0, 0.0)
    ex: tuple[float, float] = (1.0, 0.0)
    ey: tuple[float, float] = (0.0, 1.0)
    #: degrees the board is turned clockwise in the picture
    angle: float = 0.0
    #: the picture's bytes (for ``--show``: :func:`hashikit.service.overlay.draw_reading`)
    raw: bytes = field(default=b"", repr=False)

    @property
    def pitch(self) -> float:
        return math.hypot(*self.ex)

    def centre(self, row: float, col: float) -> tuple[float, float]:
        return (self.origin[0] + col * self.ex[0] + row * self.ey[0],
                self.origin[1] + col * self.ex[1] + row * self.ey[1])

    def summary(self) -> str:
        n = len(self.bridges.bridges)
        drawn = f", {n} bridge{'s' if n != 1 else ''} drawn" if n else ", no bridges drawn"
        return (f"read a {self.puzzle.rows}x{self.puzzle.cols} board (rows x columns, from the first to the "
                f"last row and column with an island) with {len(self.islands)} islands{drawn}"
                + (f"; unsure: {'; '.join(self.unsure)}" if self.unsure else ""))


# -- decoding ------------------------------------------------------------------------------

def _decode(raw: bytes, source: str, lim: Limits):
    """The picture as light-background grey (float32, 0..1), and the scale applied to it."""
    cv2 = _cv2(source)
    import numpy as np
    from PIL import Image, ImageFile, UnidentifiedImageError

    ImageFile.LOAD_TRUNCATED_IMAGES = False
    kind = kind_of(raw)
    if kind is None:
        raise FormatError("not a PNG, JPEG or WebP picture", source)
    cap = min(lim.max_input_bytes, _limits.CLI.max_input_bytes)
    if len(raw) > cap:
        raise FormatError(f"the picture is {len(raw)} bytes; hashikit reads at most {cap}", source)
    too_large = f"hashikit reads pictures of at most {MAX_PIXELS:,} pixels"
    if kind == "PNG" and len(raw) >= 24 and raw[12:16] == b"IHDR":  # the size, before PIL sees it
        w, h = int.from_bytes(raw[16:20], "big"), int.from_bytes(raw[20:24], "big")
        if w * h > MAX_PIXELS:
            raise FormatError(f"the picture is {w}x{h} pixels; {too_large}", source)
    try:
        im = Image.open(io.BytesIO(raw))
        w, h = im.size
    except Image.DecompressionBombError:
        raise FormatError(f"the picture has far too many pixels; {too_large}", source) from None
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError) as exc:
        raise FormatError(f"cannot read the {kind} picture: {exc}", source) from None
    if w <= 0 or h <= 0:
        raise FormatError(f"the {kind} picture has no pixels ({w}x{h})", source)
    if w * h > MAX_PIXELS:
        raise FormatError(f"the picture is {w}x{h} pixels; {too_large}", source)
    if w < 16 or h < 16:
        raise FormatError(f"the picture is {w}x{h} pixels, too small to hold a board", source)
    try:
        orient = _orientation(im)
        if kind == "JPEG" and max(w, h) > 2 * WORK_SIDE:
            im.draft("RGB", (w // 2, h // 2))
        im.load()
        if orient != 1:  # a phone photo turned by its EXIF tag: the pixels as the picture is shown
            from PIL import ImageOps

            im = ImageOps.exif_transpose(im)
        if im.mode in ("RGBA", "LA", "PA") or (im.mode == "P" and "transparency" in im.info):
            im = im.convert("RGBA")
            back = Image.new("RGBA", im.size, (255, 255, 255, 255))
            im = Image.alpha_composite(back, im)
        gray = np.asarray(im.convert("L"), dtype=np.float32) / 255.0
    except (OSError, ValueError, SyntaxError, Image.DecompressionBombError, MemoryError) as exc:
        raise FormatError(f"the {kind} picture is damaged or cut short ({exc})", source) from None
    scale = gray.shape[1] / (h if orient in (5, 6, 7, 8) else w)
    side = max(gray.shape)
    if side > WORK_SIDE:
        f = WORK_SIDE / side
        gray = cv2.resize(gray, (max(1, round(gray.shape[1] * f)), max(1, round(gray.shape[0] * f))),
                          interpolation=cv2.INTER_AREA)
        scale *= f
    if float(np.median(gray)) < 0.45:  # a dark theme: ink is light
        gray = 1.0 - gray
    return gray, scale


def _orientation(im) -> int:
    """The EXIF orientation tag (1: as stored; 2-8: mirrored and/or turned), 1 when there is none."""
    try:
        value = im.getexif().get(0x0112, 1)
    except Exception:  # a damaged EXIF block: the pixels as stored
        return 1
    return value if isinstance(value, int) and 1 <= value <= 8 else 1


def shown(raw: bytes):
    """The picture as a viewer shows it (EXIF orientation applied), loaded, as a PIL image."""
    from PIL import Image, ImageOps

    im = Image.open(io.BytesIO(raw))
    im.load()
    return ImageOps.exif_transpose(im) if _orientation(im) != 1 else im


def _contrast(gray):
    """How much darker each pixel is than the background around it (0 = background)."""
    cv2 = _cv2()
    import numpy as np

    k = max(15, min(61, (min(gray.shape) // 40) | 1))
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))
    back = cv2.morphologyEx(gray, cv2.MORPH_CLOSE, kernel)
    return np.clip(back - gray, 0.0, 1.0)


# -- digits --------------------------------------------------------------------------------

def features(crop):
    """The network's input for one digit: its contrast crop, centred in a square, scaled to
    FEATURE_SIDE x FEATURE_SIDE and to a peak of 1, plus the crop's aspect ratio."""
    cv2 = _cv2()
    import numpy as np

    h, w = crop.shape
    side = max(h, w)
    sq = np.zeros((side, side), np.float32)
    y0, x0 = (side - h) // 2, (side - w) // 2
    sq[y0:y0 + h, x0:x0 + w] = crop
    small = cv2.resize(sq, (FEATURE_SIDE, FEATURE_SIDE), interpolation=cv2.INTER_AREA)
    peak = float(small.max()) or 1.0
    return np.concatenate([(small / peak).ravel(), [w / h]]).astype(np.float32)


_model = None


def _load_model():
    global _model
    if _model is None:
        import numpy as np

        try:
            with np.load(MODEL_PATH) as data:
                _model = {k: data[k] for k in data.files}
        except OSError as exc:
            raise HashikitError(f"the digit model {MODEL_PATH} is missing ({exc}); rebuild it with "
                                f"scripts/train_digits.py") from None
    return _model


def classify(feats):
    """Class probabilities (columns: 0 = not an island's digit, then 1..8) for rows of features."""
    import numpy as np

    m = _load_model()
    x = (np.asarray(feats, np.float32) - m["mean"]) / m["std"]
    h = np.maximum(x @ m["w1"] + m["b1"], 0.0)
    h = np.maximum(h @ m["w2"] + m["b2"], 0.0)
    z = h @ m["w3"] + m["b3"]
    z -= z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


@dataclass
class _Blob:
    x: int
    y: int
    w: int
    h: int
    label: int
    digit: int = 0
    sure: float = 0.0
    second: int = 0
    #: the circle around the digit (centre x, centre y, inner radius), when it has one
    ring: tuple | None = None

    @property
    def cx(self) -> float:
        return self.ring[0] if self.ring else self.x + self.w / 2

    @property
    def cy(self) -> float:
        return self.ring[1] if self.ring else self.y + self.h / 2


def _ink(contrast):
    import numpy as np

    step = max(1, int(math.sqrt(contrast.size / 250_000)))
    top = float(np.percentile(contrast[::step, ::step], 99.7))
    if top < 0.12:
        return None, top
    return contrast > max(0.1, 0.42 * top), top


def _digits(contrast, ink, labels, stats):
    """The ink components that are digits 1..8, classified."""
    import numpy as np

    H, W = contrast.shape
    cands = []
    for i in range(1, len(stats)):
        x, y, w, h, area = (int(v) for v in stats[i])
        if h < 6 or h > H * 0.25 or w > 1.1 * h or w < 0.1 * h or area < 0.08 * w * h or area > 0.95 * w * h:
            continue
        cands.append(_Blob(x, y, w, h, i))
    if not cands:
        return []
    feats = []
    for b in cands:
        crop = np.where(labels[b.y:b.y + b.h, b.x:b.x + b.w] == b.label,
                        contrast[b.y:b.y + b.h, b.x:b.x + b.w], 0.0)
        feats.append(features(crop))
    probs = classify(np.stack(feats))
    out = []
    for b, p in zip(cands, probs):
        order = np.argsort(p)[::-1]
        if order[0] == 0 and p[0] > 0.5:
            continue
        best = int(order[0]) if order[0] != 0 else int(order[1])
        b.digit, b.sure = best, float(p[best])
        b.second = int(order[1]) if order[0] != 0 else int(order[2])
        if b.sure < 0.3:
            continue
        out.append(b)
    return out


def _ring_digits(contrast, ink):
    """Digits inside island circles, found from the circles' insides (a digit that touches its ring
    at a small scale is one ink component with the ring, and _digits cannot see it)."""
    cv2 = _cv2()
    import numpy as np

    H, W = ink.shape
    n, labels, stats, _ = cv2.connectedComponentsWithStats((~ink).astype(np.uint8), connectivity=4)
    cands, feats = [], []
    for i in range(1, n):
        x, y, w, h, area = (int(v) for v in stats[i])
        if w < 7 or h < 7 or x == 0 or y == 0 or x + w >= W or y + h >= H or h > 0.25 * min(H, W):
            continue
        if not 0.8 <= w / h <= 1.25 or not 0.3 * w * h <= area <= 0.9 * w * h:
            continue
        box = labels[y:y + h, x:x + w] == i
        if box[0, 0] or box[0, -1] or box[-1, 0] or box[-1, -1]:  # a square cell, not a disc
            continue
        yy, xx = np.mgrid[0:h, 0:w]
        r = min(w, h) / 2
        inner = np.hypot(xx + 0.5 - w / 2, yy + 0.5 - h / 2) < r - max(0.8, 0.1 * r)
        digit = inner & ink[y:y + h, x:x + w]
        if digit.sum() < 6 or not (box | digit)[inner].mean() > 0.88:
            continue
        ys, xs = np.nonzero(digit)
        y0, y1, x0, x1 = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
        if y1 - y0 < 0.3 * h:
            continue
        crop = np.where(digit[y0:y1, x0:x1], contrast[y + y0:y + y1, x + x0:x + x1], 0.0)
        cands.append(_Blob(x + x0, y + y0, x1 - x0, y1 - y0, -1))
        cands[-1].ring = (x + w / 2, y + h / 2, r)
        feats.append(features(crop))
    if not cands:
        return []
    out = []
    for b, p in zip(cands, classify(np.stack(feats))):
        order = np.argsort(p)[::-1]
        if order[0] == 0:
            continue
        b.digit, b.sure, b.second = int(order[0]), float(p[order[0]]), int(order[1]) or int(order[2])
        if b.sure >= 0.3:
            out.append(b)
    return out


def _merge(free, ringed):
    """Digits found both free and inside a ring count once: the free component's box (the whole
    digit), the ring's centre, and the surer of the two readings."""
    out = list(free)
    for r in ringed:
        same = [d for d in free if abs(d.cx - r.ring[0]) < r.ring[2] and abs(d.cy - r.ring[1]) < r.ring[2]]
        if not same:
            out.append(r)
            continue
        d = same[0]
        d.ring = r.ring
        if r.sure > d.sure:
            d.digit, d.sure, d.second = r.digit, r.sure, r.second
    return out


def _words(digits, stats, labels_count):
    """Digits that stand alone: one with a neighbour of its height close beside it is text."""
    import numpy as np

    boxes = stats[1:labels_count]
    keep = []
    for d in digits:
        x, y, w, h = d.x, d.y, d.w, d.h
        bx, by, bw, bh = boxes[:, 0], boxes[:, 1], boxes[:, 2], boxes[:, 3]
        same_height = (bh > 0.55 * h) & (bh < 1.6 * h)
        overlap = (np.minimum(by + bh, y + h) - np.maximum(by, y)) > 0.5 * h
        gap_right = bx - (x + w)
        gap_left = x - (bx + bw)
        near = ((gap_right >= -1) & (gap_right < 0.9 * h)) | ((gap_left >= -1) & (gap_left < 0.9 * h))
        near &= bw < 2.5 * h
        near[d.label - 1] = False
        if np.any(same_height & overlap & near):
            continue
        keep.append(d)
    return keep


# -- the lattice ---------------------------------------------------------------------------

def _rotation(pts, size):
    """The board's small rotation (radians), from directions between nearby islands."""
    import numpy as np

    if len(pts) < 3:
        return 0.0
    d = pts[None, :, :] - pts[:, None, :]
    dist = np.hypot(d[..., 0], d[..., 1])
    mask = (dist > 0.5 * size) & (dist < 12 * size)
    ang = np.arctan2(d[..., 1], d[..., 0])[mask]
    folded = (ang + np.pi / 4) % (np.pi / 2) - np.pi / 4
    near = folded[np.abs(folded) < math.radians(8)]
    if len(near) < 2:
        return 0.0
    hist, edges = np.histogram(near, bins=64, range=(-math.radians(8), math.radians(8)))
    k = int(np.argmax(np.convolve(hist, np.ones(3), "same")))
    mode = (edges[k] + edges[k + 1]) / 2
    close = near[np.abs(near - mode) < math.radians(1.0)]
    return float(np.median(close)) if len(close) else float(mode)


def _clusters(values, tol):
    import numpy as np

    order = np.argsort(values)
    groups, cur = [], [order[0]]
    for a, b in zip(order, order[1:]):
        if values[b] - values[a] > tol:
            groups.append(cur)
            cur = []
        cur.append(b)
    groups.append(cur)
    return [(float(np.mean(values[g])), g) for g in groups]


def _pitch(gaps, size):
    """The cell pitch: the largest step of which every gap is a whole multiple."""
    import numpy as np

    gaps = np.asarray([g for g in gaps if g > 0.9 * size])
    if len(gaps) == 0:
        return None
    cands = sorted({g / k for g in gaps for k in (1, 2, 3, 4) if g / k > 1.05 * size}, reverse=True)
    for p in cands:
        n = np.maximum(1, np.round(gaps / p))
        err = np.abs(gaps / p - n)
        good = err < 0.2
        if good.mean() >= 0.85 and err[good].mean() < 0.08:  # a stray island spoils a gap or two
            return float((gaps[good] * n[good]).sum() / (n[good] * n[good]).sum())
    return None


def _lattice(values, tol):
    """The values grouped into rows (or columns) of the grid, and the gaps between the groups."""
    import numpy as np

    groups = _clusters(values, tol)
    centres = [c for c, _ in groups]
    return groups, np.diff(centres) if len(centres) > 1 else np.array([])


# -- bridges -------------------------------------------------------------------------------

def _runs(profile, thr):
    """Runs of ink along a profile: their count and total width."""
    inside = profile > thr
    n = 0
    prev = False
    for v in inside:
        if v and not prev:
            n += 1
        prev = v
    return n, int(inside.sum())


def _bridge_count(contrast, thr, a, b, pitch, clear):
    """Lines drawn across the gap between island centres ``a`` and ``b``: (count, share of the gap
    with ink on it)."""
    cv2 = _cv2()
    import numpy as np

    ax, ay = a
    bx, by = b
    length = math.hypot(bx - ax, by - ay)
    dx, dy = (bx - ax) / length, (by - ay) / length
    nx, ny = -dy, dx
    start, end = clear, length - clear
    if end - start < 2:
        start, end = length / 2 - 1, length / 2 + 1
    steps = max(3, min(40, int(end - start)))
    ts = np.linspace(start, end, steps)
    half = 0.34 * pitch
    m = max(9, int(2 * half * 2))
    ss = np.linspace(-half, half, m)
    px = (ax + dx * ts[:, None] + nx * ss[None, :]).astype(np.float32)
    py = (ay + dy * ts[:, None] + ny * ss[None, :]).astype(np.float32)
    prof = cv2.remap(contrast, px, py, cv2.INTER_LINEAR, borderValue=0.0)
    counts = []
    for row in prof:
        n, _ = _runs(row, thr)
        counts.append(n)
    counts = np.asarray(counts)
    covered = float((counts > 0).mean())
    if covered < 0.5:
        return 0, covered
    vals, freq = np.unique(counts[counts > 0], return_counts=True)
    return int(vals[np.argmax(freq)]), covered


# -- the whole reading -----------------------------------------------------------------------

def read_picture(raw: bytes, source: str = "<picture>", lim: Limits = _limits.CLI) -> Reading:
    """Read the board (and the bridges drawn) from a picture's bytes, or raise FormatError."""
    cv2 = _cv2()
    import numpy as np

    gray, scale = _decode(raw, source, lim)
    none = "no Hashi board found in the picture"

    def find(gray):
        contrast = _contrast(gray)
        ink, top = _ink(contrast)
        if ink is None:
            raise FormatError(f"{none} (it is nearly blank)", source)
        count, labels, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), connectivity=8)
        digits = _digits(contrast, ink, labels, stats)
        digits = _merge(_words(digits, stats, count), _ring_digits(contrast, ink))
        if len(digits) < 2:
            raise FormatError(f"{none} (no numbered islands)", source)
        return contrast, top, digits, float(np.median([d.h for d in digits]))

    contrast, top, digits, size = find(gray)
    if size < UPSCALE_BELOW and max(gray.shape) * 2 <= WORK_SIDE:  # small digits: read them twice as large
        gray = cv2.resize(gray, (gray.shape[1] * 2, gray.shape[0] * 2), interpolation=cv2.INTER_CUBIC)
        scale *= 2
        contrast, top, digits, size = find(gray)
    digits = [d for d in digits if 0.65 * size <= d.h <= 1.5 * size]
    if len(digits) < 2:
        raise FormatError(f"{none} (no numbered islands)", source)
    pts = np.array([[d.cx, d.cy] for d in digits], np.float64)
    theta = _rotation(pts, size)
    c, s = math.cos(theta), math.sin(theta)
    # board coordinates: the picture turned back by theta
    u = pts[:, 0] * c + pts[:, 1] * s
    v = -pts[:, 0] * s + pts[:, 1] * c
    tol = 0.45 * size
    gx, gapx = _lattice(u, tol)
    gy, gapy = _lattice(v, tol)
    p = _pitch(np.concatenate([gapx, gapy]), size)
    if p is None:
        raise FormatError(f"{none} (the numbers do not sit on a grid)", source)
    # islands only every few cells (a small sparse board): the cell from the islands' size
    rings = [d.ring[2] for d in digits if d.ring]
    cell = 2 * float(np.median(rings)) / 0.8 if len(rings) * 2 >= len(digits) else 2.4 * size
    if p / cell >= 1.6:
        p /= round(p / cell)
    unsure: list[str] = []

    def axis(groups, values):
        first = groups[0][0]
        idx = np.zeros(len(values), int)
        for centre, members in groups:
            idx[members] = int(round((centre - first) / p))
        n = idx.max()
        # refine the pitch and origin on this axis by least squares over the islands
        if n > 0:
            A = np.stack([np.ones(len(values)), idx], 1)
            (o, q), *_ = np.linalg.lstsq(A, values, rcond=None)
            o = np.median(values - idx * q)  # a stray island does not pull the others off
        else:
            o, q = first, p
        return idx, float(o), float(q)

    cols, ou, qu = axis(gx, u)
    rows, ov, qv = axis(gy, v)
    # islands off the lattice: a little off is said, far off (a digit of a title, a stray mark) is left out
    resid = np.maximum(np.abs(u - (ou + cols * qu)), np.abs(v - (ov + rows * qv)))
    keep = resid <= 0.3 * p
    for i in np.nonzero(~keep)[0]:
        d = digits[i]
        unsure.append(f"a {d.digit} off the grid at pixel ({d.cx / scale:.0f}, {d.cy / scale:.0f}) was left out")
    if keep.sum() < 2:
        raise FormatError(f"{none} (the numbers do not sit on a grid)", source)
    digits = [d for d, k in zip(digits, keep) if k]
    rows, cols, resid = rows[keep], cols[keep], resid[keep]
    r0, c0 = int(rows.min()), int(cols.min())
    rows, cols = rows - r0, cols - c0
    ov, ou = ov + r0 * qv, ou + c0 * qu
    R, C = int(rows.max()) + 1, int(cols.max()) + 1
    from ._common import validate_board

    validate_board(R, C, lim, source)
    where = {}
    for i, d in enumerate(digits):
        key = (int(rows[i]), int(cols[i]))
        if resid[i] > 0.2 * p:
            unsure.append(f"row {key[0] + 1}, column {key[1] + 1}: the {d.digit} there is off the grid")
        if key in where:
            j = where[key]
            unsure.append(f"row {key[0] + 1}, column {key[1] + 1}: two numbers read in one cell")
            if digits[j].sure >= d.sure:
                continue
        where[key] = i
    # the lattice in picture coordinates (before decoding scale)
    ex = (qu * c / scale, qu * s / scale)
    ey = (-qv * s / scale, qv * c / scale)
    origin = ((ou * c - ov * s) / scale, (ou * s + ov * c) / scale)
    isl = []
    for (r, col), i in sorted(where.items()):
        d = digits[i]
        isl.append(Island(r, col, d.digit, round(d.sure, 3), d.cx / scale, d.cy / scale))
        if d.sure < SURE:
            unsure.append(f"row {r + 1}, column {col + 1}: read as {d.digit}, could be {d.second}")
    try:
        puzzle = Puzzle(R, C, [(i.row, i.col, i.number) for i in isl])
    except HashikitError as exc:
        raise FormatError(f"{none} ({exc})", source) from None
    problems = puzzle.capacity_problems()
    if problems and len(problems) * 4 > len(isl):
        raise FormatError(f"{none} (numbers on a grid, but they cannot be a Hashi puzzle: {problems[0]})",
                          source)
    # bridges between neighbouring islands
    thr = max(0.1, 0.42 * top)
    centre_of = {}
    for key, i in where.items():
        centre_of[key] = (ou + key[1] * qu, ov + key[0] * qv)
    counts = []
    partial = 0
    rot = np.array([[c, -s], [s, c]])
    for ln in puzzle.links:
        pa, pb = puzzle.islands[ln.a].pos, puzzle.islands[ln.b].pos
        a = rot @ np.array(centre_of[pa])
        b = rot @ np.array(centre_of[pb])
        n, covered = _bridge_count(contrast, thr, a, b, p, 0.45 * p)
        if 0.5 <= covered < 0.8 or (n and covered < 0.8):
            partial += 1
            unsure.append(f"the link from row {pa[0] + 1}, column {pa[1] + 1} to row {pb[0] + 1}, "
                          f"column {pb[1] + 1} is drawn over only part of its length")
        counts.append(min(n, puzzle.maxbridges))
        if n > puzzle.maxbridges:
            unsure.append(f"the link from row {pa[0] + 1}, column {pa[1] + 1} to row {pb[0] + 1}, "
                          f"column {pb[1] + 1} shows {n} lines")
    if partial > max(2, len(puzzle.links) // 4):
        raise FormatError(f"{none} (numbers on a grid, but the ink between them is no bridges: {partial} of "
                          f"{len(puzzle.links)} gaps are partly covered)", source)
    bridges = Solution.from_counts(puzzle, counts)
    return Reading(puzzle, bridges, isl, unsure, origin, ex, ey, math.degrees(theta), raw)
