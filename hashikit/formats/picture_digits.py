"""The picture reader's digits: which ink is an island's number, and which number.

A digit is found two ways: as an ink component of a digit's shape (:func:`free_digits`), or as the
ink inside an island's ring (:func:`ring_digits`; at a small scale a digit touches its ring and is
one component with it).  Each is classified by a small network (``hashikit/data/digits.npz``,
made by ``scripts/train_digits.py`` from digits rendered in many fonts, sizes and camera effects;
numpy only, no download) from :func:`features`: the digit brought to one canonical height whatever
the picture's scale, its aspect ratio and its share of ink.  The classes are "not a digit", the
digits 1 to 9, and 0: a 0 or a 9 on the grid is no Hashi island (MAXBRIDGES 2 allows 1 to 8), and
says that the picture is some other puzzle.  A digit with a neighbour of its own height close beside
it is part of a word or a longer number (a title, a date, a sum in a cage), not an island.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from ..errors import HashikitError

MODEL_PATH = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "digits.npz")
#: the side of the square a digit is brought to before it is classified (its height, whatever its scale)
FEATURE_SIDE = 20
#: the network's classes: index -> digit (0: not a digit; the digit 0 is the last class)
CLASS_DIGIT = (None, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0)
#: below this probability a digit is not taken for a digit at all
KEEP = 0.3


@dataclass
class Digit:
    """A digit found in the picture (pixels of the picture as worked on)."""

    x: int
    y: int
    w: int
    h: int
    #: the ink component's label (-1 for a digit found inside a ring)
    label: int
    #: the digit (0..9) and the network's probability for it
    digit: int = 0
    sure: float = 0.0
    #: the other digits 1..9 and 0 it could be, most probable first: [(digit, probability), ...]
    others: list = field(default_factory=list)
    #: the ring around it (centre x, centre y, inner radius), when it has one
    ring: tuple | None = None
    #: the network found it likelier no digit at all (kept only where the board's grid has an empty
    #: place for it, and then said)
    weak: bool = False
    #: the network's probability that it is no digit
    none: float = 0.0

    @property
    def cx(self) -> float:
        return self.ring[0] if self.ring else self.x + self.w / 2

    @property
    def cy(self) -> float:
        return self.ring[1] if self.ring else self.y + self.h / 2


def features(crop):
    """The network's input for one digit: its contrast crop brought to FEATURE_SIDE pixels high (a
    wide one to FEATURE_SIDE wide), centred in a FEATURE_SIDE square, its strokes to a peak of 1; then
    the crop's aspect ratio and its share of ink."""
    import cv2
    import numpy as np

    h, w = crop.shape
    S = FEATURE_SIDE
    if h >= w:
        nh, nw = S, max(1, min(S, round(w * S / h)))
    else:
        nw, nh = S, max(1, min(S, round(h * S / w)))
    how = cv2.INTER_AREA if h > S else cv2.INTER_LINEAR
    small = cv2.resize(np.ascontiguousarray(crop, np.float32), (nw, nh), interpolation=how)
    sq = np.zeros((S, S), np.float32)
    y0, x0 = (S - nh) // 2, (S - nw) // 2
    sq[y0:y0 + nh, x0:x0 + nw] = small
    on = sq[sq > 0.05]
    if on.size:
        k = int(0.9 * (on.size - 1))
        peak = float(np.partition(on, k)[k])
    else:
        peak = 1.0
    sq = np.clip(sq / max(peak, 1e-3), 0.0, 1.0)
    fill = float((crop > 0).mean())
    return np.concatenate([sq.ravel(), [w / h, fill]]).astype(np.float32)


_model = None


def load_model(path: str | None = None):
    """The network's weights (float32), read once."""
    global _model
    if _model is None or path is not None:
        import numpy as np

        where = path or MODEL_PATH
        try:
            with np.load(where) as data:
                model = {k: data[k].astype(np.float32) for k in data.files}
        except OSError as exc:
            raise HashikitError(f"the digit model {where} is missing ({exc}); rebuild it with "
                                f"scripts/train_digits.py") from None
        if path is not None:
            return model
        _model = model
    return _model


def classify(feats, model=None):
    """Class probabilities (columns: :data:`CLASS_DIGIT`) for rows of features."""
    import numpy as np

    m = model or load_model()
    x = (np.asarray(feats, np.float32) - m["mean"]) / m["std"]
    layer = 1
    while f"w{layer + 1}" in m:
        x = np.maximum(x @ m[f"w{layer}"] + m[f"b{layer}"], 0.0)
        layer += 1
    z = x @ m[f"w{layer}"] + m[f"b{layer}"]
    z -= z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def _name(cands, feats, model=None):
    """The candidates the network takes for digits, each given its digit, probability and others."""
    import numpy as np

    if not cands:
        return []
    probs = classify(np.stack(feats), model)
    out = []
    for d, p in zip(cands, probs):
        order = [int(k) for k in np.argsort(p)[::-1]]
        digits = [k for k in order if k != 0]
        best = digits[0]
        if p[best] < KEEP:
            continue
        d.weak, d.none = order[0] == 0, float(p[0])
        d.digit, d.sure = CLASS_DIGIT[best], float(p[best])
        d.others = [(CLASS_DIGIT[k], float(p[k])) for k in digits[1:4]]
        out.append(d)
    return out


def shaped(x: int, y: int, w: int, h: int, area: int, H: int) -> bool:
    """An ink component of a digit's size and shape (not a line, a frame or a blot), in a picture
    ``H`` pixels high."""
    return (6 <= h <= H * 0.25 and w <= 1.3 * h and w >= max(1, 0.05 * h)
            and 0.06 * w * h <= area <= 0.95 * w * h)


def free_candidates(contrast, labels, stats, frame: int | None = None):
    """The ink components of a digit's shape, with their features: (digits, features).  ``frame``:
    the picture's smaller side (a digit is at most a quarter of it), when not the contrast's own."""
    import numpy as np

    H = frame or min(contrast.shape)
    cands, feats = [], []
    for i in range(1, len(stats)):
        x, y, w, h, area = (int(v) for v in stats[i])
        if not shaped(x, y, w, h, area, H):
            continue
        crop = np.where(labels[y:y + h, x:x + w] == i, contrast[y:y + h, x:x + w], 0.0)
        cands.append(Digit(x=x, y=y, w=w, h=h, label=i))
        feats.append(features(crop))
    return cands, feats


def free_digits(contrast, labels, stats, model=None):
    """The ink components that are digits, classified."""
    return _name(*free_candidates(contrast, labels, stats), model)


def ring_candidates(contrast, ink, frame: int | None = None):
    """Digits inside island rings, found from the rings' insides (a digit that touches its ring at
    a small scale is one ink component with the ring, and :func:`free_digits` cannot see it), with
    their features: (digits, features)."""
    import cv2
    import numpy as np

    H, W = ink.shape
    frame = frame or min(H, W)
    n, labels, stats, _ = cv2.connectedComponentsWithStats((~ink).astype(np.uint8), connectivity=4)
    cands, feats = [], []
    for i in range(1, n):
        x, y, w, h, area = (int(v) for v in stats[i])
        if w < 7 or h < 7 or x == 0 or y == 0 or x + w >= W or y + h >= H or h > 0.25 * frame:
            continue
        if not 0.75 <= w / h <= 1.33 or not 0.3 * w * h <= area <= 0.9 * w * h:
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
        d = Digit(x=int(x + x0), y=int(y + y0), w=int(x1 - x0), h=int(y1 - y0), label=-1,
                  ring=(x + w / 2, y + h / 2, r))
        cands.append(d)
        feats.append(features(crop))
    return cands, feats


def ring_digits(contrast, ink, model=None):
    """The digits inside island rings, classified."""
    return _name(*ring_candidates(contrast, ink), model)


def merge(free, ringed):
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
            d.digit, d.sure, d.others, d.weak, d.none = r.digit, r.sure, r.others, r.weak, r.none
    return out


def alone(digits, stats):
    """Digits that stand alone: one with a neighbour of its height close beside it is text."""
    import numpy as np

    boxes = stats[1:]
    bx, by, bw, bh, area = boxes[:, 0], boxes[:, 1], boxes[:, 2], boxes[:, 3], boxes[:, 4]
    glyph = (bw >= np.maximum(2, 0.1 * bh)) & (area >= 0.2 * bw * bh)  # not a sliver or an arc of a ring
    keep = []
    for d in digits:
        if d.label < 0:
            keep.append(d)
            continue
        x, y, w, h = d.x, d.y, d.w, d.h
        same_height = (bh > 0.55 * h) & (bh < 1.6 * h)
        overlap = (np.minimum(by + bh, y + h) - np.maximum(by, y)) > 0.5 * h
        gap_right = bx - (x + w)
        gap_left = x - (bx + bw)
        near = ((gap_right >= -1) & (gap_right < 0.9 * h)) | ((gap_left >= -1) & (gap_left < 0.9 * h))
        near &= (bw < 2.5 * h) & glyph
        near[d.label - 1] = False
        if np.any(same_height & overlap & near):
            continue
        keep.append(d)
    return keep


def find(contrast, ink, model=None):
    """Every digit in the picture: free components and ring insides, text left out."""
    import cv2
    import numpy as np

    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), connectivity=8)
    free = alone(free_digits(contrast, labels, stats, model), stats)
    return merge(free, ring_digits(contrast, ink, model)), stats
