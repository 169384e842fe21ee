"""The picture reader's grid: which row and column each digit sits on, as a camera sees the board.

The board may be turned (up to about 20 degrees) and seen at a slant (a perspective of 15% or more),
so rows of islands are straight lines that need not be parallel, and a cell's size changes across
the picture.  The grid is a homography from (column, row) to pixels, grown from the middle of the
board outwards (:func:`fit`):

1. the turn, from the directions between nearby digits (:func:`rotation`);
2. the cell's size where the growing starts, from the steps between neighbouring digits along the
   rows and columns: the largest step of which every short step is a whole multiple (:func:`pitch`);
3. from one digit with many neighbours, the digits within a few cells are placed on the grid by
   rounding; the homography is fitted to them (least squares; an affine map while there are too few
   to fit a slant); then the digits a little further out, and so on, so that the map is never
   stretched far beyond the digits it was fitted on;
4. a grid that places many digits half-way between its lines is twice too coarse: it is halved.

Digits that fit no grid point (a title's number, a stray mark, a pattern on the table) are left
out, and said to be off the grid when they lie among the islands.
"""

from __future__ import annotations

import math

#: the largest turn of the board read (degrees)
MAX_TURN = 20.0
#: a digit whose place is further than this (a share of a cell) from its grid point is off the grid
OFF = 0.3


def rotation(pts, size):
    """The board's turn (radians), from the directions between nearby digits."""
    import numpy as np

    if len(pts) < 3:
        return 0.0
    d = pts[None, :, :] - pts[:, None, :]
    dist = np.hypot(d[..., 0], d[..., 1])
    mask = (dist > 0.5 * size) & (dist < 10 * size)
    # nearer pairs count more: they are the rows' and columns' own steps
    weight = 1.0 / np.maximum(dist[mask], size)
    ang = np.arctan2(d[..., 1], d[..., 0])[mask]
    folded = (ang + np.pi / 4) % (np.pi / 2) - np.pi / 4
    lim = math.radians(MAX_TURN + 2)
    inside = np.abs(folded) < lim
    near, weight = folded[inside], weight[inside]
    if len(near) < 2:
        return 0.0
    hist, edges = np.histogram(near, bins=int(2 * (MAX_TURN + 2) * 2), range=(-lim, lim), weights=weight)
    k = int(np.argmax(np.convolve(hist, np.ones(3), "same")))
    mode = (edges[k] + edges[k + 1]) / 2
    close = np.abs(near - mode) < math.radians(1.5)
    if not close.any():
        return float(mode)
    return float(np.average(near[close], weights=weight[close]))


def steps(uv, size, slope=0.22):
    """The steps from each digit to its nearest neighbour to the right and below (board
    coordinates, turned straight): two arrays of lengths."""
    import numpy as np

    d = uv[None, :, :] - uv[:, None, :]
    out = []
    for axis in (0, 1):
        along, across = d[..., axis], d[..., 1 - axis]
        ok = (along > 0.7 * size) & (np.abs(across) < slope * along)
        cand = np.where(ok, along, np.inf)
        best = cand.min(axis=1)
        out.append(best[np.isfinite(best)])
    return out


def pitch(values, size, tol=0.2):
    """The cell's size: the largest step of which (nearly) every value is a whole multiple."""
    import numpy as np

    values = np.asarray([v for v in values if v > 0.9 * size], float)
    if len(values) == 0:
        return None
    values = np.sort(values)[: max(3, int(math.ceil(0.7 * len(values))))]  # the short steps: least slanted
    cands = sorted({v / k for v in values for k in (1, 2, 3, 4) if v / k > 1.05 * size}, reverse=True)
    for p in cands:
        n = np.maximum(1, np.round(values / p))
        err = np.abs(values / p - n)
        good = err < tol
        if good.mean() >= 0.8 and err[good].mean() < tol * 0.5:
            return float((values[good] * n[good]).sum() / (n[good] * n[good]).sum())
    return None


def apply(H, g):
    """Pixels of grid points ``g`` (n x 2: column, row) under the homography ``H``."""
    import numpy as np

    g = np.asarray(g, float)
    p = np.c_[g, np.ones(len(g))] @ H.T
    return p[:, :2] / p[:, 2:3]


def _fit(g, pts, slant: bool, H0):
    """The map from grid points to pixels: a homography when ``slant`` and the points show one (it
    fits them clearly better than an affine map), else affine when the points span both axes, else
    ``H0`` moved onto them."""
    import numpy as np

    n = len(g)
    A = np.c_[g, np.ones(n)]
    if np.linalg.matrix_rank(A) < 3:  # on one line: keep the cell, move the grid
        H = H0.copy()
        shift = (pts - apply(H0, g)).mean(axis=0)
        H[:2, :] += np.outer(shift, H0[2, :])
        return H
    sol, *_ = np.linalg.lstsq(A, pts, rcond=None)
    H = np.eye(3)
    H[:2, :2] = sol[:2].T
    H[:2, 2] = sol[2]
    if not slant or n < 8 or len(set(g[:, 0])) < 3 or len(set(g[:, 1])) < 3:
        return H
    import cv2

    P, _ = cv2.findHomography(g.astype(np.float64), pts.astype(np.float64), 0)
    if P is None or not np.all(np.isfinite(P)) or abs(P[2, 2]) < 1e-12:
        return H
    P = P / P[2, 2]
    span = max(1.0, float(np.ptp(g[:, 0])), float(np.ptp(g[:, 1])))
    if abs(P[2, 0]) * span > 0.4 or abs(P[2, 1]) * span > 0.4:
        return H
    cell = math.sqrt(abs(np.linalg.det(H[:2, :2])))
    flat = float(np.sqrt(((apply(H, g) - pts) ** 2).sum(axis=1).mean())) / cell
    slanted = float(np.sqrt(((apply(P, g) - pts) ** 2).sum(axis=1).mean())) / cell
    return P if flat > 0.03 and slanted < 0.7 * flat else H


class GridFit:
    """Where each digit sits: ``cells`` (column, row) per digit (integers), ``resid`` (the distance
    to its grid point, a share of a cell), ``on`` (within :data:`OFF`), and the homography ``H``
    from (column, row) to the picture's pixels."""

    def __init__(self, cells, resid, on, H):
        self.cells, self.resid, self.on, self.H = cells, resid, on, H


def _grow(pts, H, start, reach):
    """Place the digits on the grid outwards from ``start``, refitting the map as they come."""
    import numpy as np

    n = len(pts)
    placed = np.zeros(n, bool)
    placed[start] = True
    radius = reach
    for _ in range(40):
        g = apply(np.linalg.inv(H), pts)
        r = np.round(g)
        res = np.abs(g - r).max(axis=1)
        dist = np.hypot(*(pts[:, None, :] - pts[placed][None, :, :]).transpose(2, 0, 1)).min(axis=1)
        near = dist <= radius
        ok = near & (res < OFF)
        ok[start] = True
        if ok.sum() >= 2:
            H = _fit(r[ok], pts[ok], True, H)
        done = near.all() and (ok == placed).all()
        placed = ok
        if done:
            break
        radius *= 1.5
    return H, placed


def _candidates(uv, size, near, most=12):
    """Cell sizes worth trying: the shortest steps between the digits ``near`` the start, each as
    one to four cells, largest first (sizes within 6% of each other count once)."""
    import numpy as np

    sx, sy = steps(uv[near], size)
    short = np.sort(np.concatenate([sx, sy]))[:6]
    cands = sorted((v / k for v in short for k in (1, 2, 3, 4) if v / k > 1.05 * size), reverse=True)
    out = []
    for p in cands:
        if all(abs(p - q) > 0.06 * q for q in out):
            out.append(p)
    return out[:most]


def _aspect(H, at) -> float:
    """A cell's width over its height where the grid maps near the pixel ``at``."""
    import numpy as np

    g = apply(np.linalg.inv(H), np.array([at]))[0]
    a, b, c = apply(H, np.array([g, g + [1, 0], g + [0, 1]]))
    return float(np.hypot(*(b - a)) / max(1e-9, np.hypot(*(c - a))))


def _placed(pts, H):
    import numpy as np

    g = apply(np.linalg.inv(H), pts)
    return np.abs(g - np.round(g)).max(axis=1) < OFF


def fit(pts, size, rings=None):
    """The grid the digits at ``pts`` (n x 2 pixels) sit on, or None when they sit on none.
    ``size`` is the digits' height; ``rings`` their ring diameters (for a sparse board's cell)."""
    import numpy as np

    n = len(pts)
    if n < 2:
        return None
    theta = rotation(pts, size)
    c, s = math.cos(theta), math.sin(theta)
    uv = np.c_[pts[:, 0] * c + pts[:, 1] * s, -pts[:, 0] * s + pts[:, 1] * c]
    d = np.hypot(*(pts[:, None, :] - pts[None, :, :]).transpose(2, 0, 1))
    # start where digits are densest, near the middle
    nearest = np.sort(d + np.eye(n) * 1e9, axis=1)[:, 0]
    unit = float(np.median(nearest))
    crowd = (d < 3.5 * unit).sum(axis=1) - 0.02 * np.hypot(*(pts - np.median(pts, 0)).T) / unit
    start = int(np.argmax(crowd))
    # the cell: each size the steps near the start suggest is grown into a grid; the largest that
    # places (nearly) as many digits as the best is kept (a slanted photo's cell changes across the
    # board, so the steps far from the start say little)
    near = np.argsort(d[start])[: min(n, 12)]
    tried = []
    for p in _candidates(uv, size, near) or _candidates(uv, size, np.arange(n)):
        H = np.array([[c * p, -s * p, pts[start, 0]], [s * p, c * p, pts[start, 1]], [0, 0, 1.0]])
        H, placed = _grow(pts, H, start, 2.6 * p)
        g = apply(np.linalg.inv(H), pts)
        res = np.abs(g - np.round(g)).max(axis=1)[placed]
        # each digit placed counts, less its distance from its grid point: a wrong cell places
        # digits only loosely
        tried.append((p, H, float(placed.sum() - 3 * res.sum())))
    if not tried:
        return None
    best = max(k for _, _, k in tried)
    good = [t for t in tried if t[2] >= best - 0.25 - 0.02 * best]
    # of the grids that place the digits as well, the one with the squarest cells (two columns of
    # islands five cells apart fit a grid of cells 5/4 as wide just as well), then the largest
    p, H, _ = min(good, key=lambda t: (round(abs(math.log(_aspect(t[1], pts[start]))) / 0.08), -t[0]))
    if rings is not None and len(rings) * 2 >= n:  # islands only every few cells: the cell from their rings
        ratio = float(np.median(rings)) / p
        if ratio < 0.5:
            k = max(1, round(0.8 / ratio))
            H = H @ np.diag([1 / k, 1 / k, 1.0])
            H, _ = _grow(pts, H, start, 2.6 * p / k)
    for _ in range(2):
        # a grid twice too coarse along one axis only puts the digits that do not fit half-way
        # between its lines on that axis
        placed = _placed(pts, H)
        g = apply(np.linalg.inv(H), pts)
        frac = np.abs(g - np.round(g))
        misfit = ~placed
        if not misfit.any():
            break
        lo, hi = np.round(g[placed]).min(axis=0), np.round(g[placed]).max(axis=0)
        inside = np.all((g >= lo - 0.5) & (g <= hi + 0.5), axis=1)
        coarse = []
        for a in (0, 1):
            half = misfit & (np.abs(frac[:, a] - 0.5) < 0.15) & (frac[:, 1 - a] < OFF)
            coarse.append((half.sum() >= 2 or (half & inside).sum() >= 1) and half.sum() >= 0.45 * misfit.sum())
        if not any(coarse):
            break
        S = np.diag([0.5 if coarse[0] else 1.0, 0.5 if coarse[1] else 1.0, 1.0])
        H, _ = _grow(pts, H @ S, start, 2.6 * p)
    g = apply(np.linalg.inv(H), pts)
    r = np.round(g)
    res = np.abs(g - r).max(axis=1)
    on = res <= OFF
    if on.sum() < 2:
        return None
    # a grid finer than the digits need (every digit on an even line, say): the coarsest that holds
    # them, as long as its cells stay square (a board whose islands all stand in even columns is
    # just that) and the islands' rings do not say that the cells are that small
    ks = [int(np.gcd.reduce((r[on, a] - r[on, a].min()).astype(int))) for a in (0, 1)]
    both = math.gcd(*ks)
    aspect = _aspect(H, pts[on].mean(axis=0))
    for a in (0, 1):
        k = both if both > 1 else ks[a]
        if k <= 1:
            continue
        if both <= 1:  # one axis only: only when it brings a stretched grid back to square cells
            after = aspect * k if a == 0 else aspect / k
            if abs(math.log(after)) >= abs(math.log(aspect)) - 0.1:
                continue
        step = math.hypot(*(apply(H, np.array([[0, 0], [1, 0] if a == 0 else [0, 1]]))[1]
                            - apply(H, np.array([[0, 0]]))[0]))
        if rings is not None and len(rings) * 2 >= n and float(np.median(rings)) / (k * step) < 0.5:
            continue
        S = np.eye(3)
        S[a, a] = k
        S[a, 2] = r[on, a].min()
        H = H @ S
        g = apply(np.linalg.inv(H), pts)
        r = np.round(g)
        res = np.abs(g - r).max(axis=1)
        on = res <= OFF
    return GridFit(r.astype(int), res, on, H)


def local_pitch(H, col: float, row: float) -> float:
    """The size of a cell (pixels) at grid point (col, row)."""
    import numpy as np

    a, b, c = apply(H, np.array([[col, row], [col + 1, row], [col, row + 1]]))
    return float((np.hypot(*(b - a)) + np.hypot(*(c - a))) / 2)
