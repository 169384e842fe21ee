"""The picture reader's bridges: how many lines run between two neighbouring islands.

A bridge is a straight stroke across the whole gap between two islands' bodies (their rings, or the
digits when there are none).  For each link the gap is measured on the picture: each island's body
is probed along the link (:func:`body`), and where the rings overlap or nearly touch (a board printed
with large circles) the gap is hidden and the link is said to be unsure, not guessed.  Across the
gap, profiles at right angles to the link count the strokes (:func:`count`).

Lines that are not bridges:

* grid lines through the islands (islands on the crossings, as many newspapers print): measured
  where no bridge can be (between two empty grid points, :func:`grid_lines`), and a stroke no
  heavier than them is not a bridge;
* grid lines between the cells, and any line crossing the gap: a run across the whole profile;
* dotted lattices and stray marks: a stroke along only part of the gap is no bridge (and, over more
  than half of it, a doubt).
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass
class Lines:
    """What the ink across one gap shows."""

    #: strokes counted (0, 1, 2, ...)
    count: int
    #: the share of the gap with a stroke on it
    covered: float
    #: the gap is hidden under the islands (rings that touch or overlap)
    hidden: bool = False
    #: the strokes' width (pixels), for telling a merged double from a single
    width: float = 0.0


def _runs(row, thr):
    """Runs of ink along one profile: [(start, end)] indices."""
    import numpy as np

    inside = np.concatenate([[False], row > thr, [False]])
    edges = np.flatnonzero(inside[1:] != inside[:-1])
    return list(zip(edges[::2], edges[1::2]))


def sample(contrast, a, b, t0, t1, half, steps=None):
    """Profiles at right angles to the segment a->b, at distances t0..t1 from a: (ts, offsets, values)."""
    import cv2
    import numpy as np

    ax, ay = a
    bx, by = b
    length = math.hypot(bx - ax, by - ay) or 1.0
    dx, dy = (bx - ax) / length, (by - ay) / length
    nx, ny = -dy, dx
    steps = steps or max(3, min(40, int(t1 - t0)))
    ts = np.linspace(t0, t1, steps)
    m = max(9, int(4 * half) | 1)
    ss = np.linspace(-half, half, m)
    px = (ax + dx * ts[:, None] + nx * ss[None, :]).astype(np.float32)
    py = (ay + dy * ts[:, None] + ny * ss[None, :]).astype(np.float32)
    return ts, ss, cv2.remap(contrast, px, py, cv2.INTER_LINEAR, borderValue=0.0)


def body(contrast, thr, centre, toward, digit_h, ring=None):
    """How far from an island's centre its body (ring, or digit) reaches toward ``toward``.

    A ring is found on two rays beside the line to ``toward`` (a bridge leaving the ring runs on the
    line itself, and would seem to be part of the ring there): the first ink both cross, its outer
    edge brought back to the line (the ring is round).  ``ring``: the ring's inner radius when known."""
    import cv2
    import numpy as np

    cx, cy = centre
    length = math.hypot(toward[0] - cx, toward[1] - cy) or 1.0
    dx, dy = (toward[0] - cx) / length, (toward[1] - cy) / length
    nx, ny = -dy, dx
    inner = ring if ring else 0.5 * digit_h
    off = 0.6 * (ring if ring else digit_h)
    reach = (1.35 * ring) if ring else 1.7 * digit_h
    step = 0.5
    ts = np.arange(0.0, min(reach, 0.95 * length), step)
    if len(ts) < 3:
        return 0.5 * digit_h
    offs = np.array([-off, off])
    px = (cx + dx * ts[None, :] + nx * offs[:, None]).astype(np.float32)
    py = (cy + dy * ts[None, :] + ny * offs[:, None]).astype(np.float32)
    prof = cv2.remap(contrast, px, py, cv2.INTER_LINEAR, borderValue=0.0)
    both = np.minimum(prof[0], prof[1]) > thr
    start = np.searchsorted(ts, math.sqrt(max(0.0, (0.8 * inner) ** 2 - off * off)))
    hits = np.flatnonzero(both[start:])
    if len(hits) == 0:
        return (inner * 1.1) if ring else 0.55 * digit_h
    i = start + hits[0]
    j = i
    while j < len(ts) and both[j]:
        j += 1
    t_end = ts[j - 1] + step
    return float(math.hypot(t_end, off))


def count(contrast, thr, a, b, clear_a, clear_b, pitch, grid=None) -> Lines:
    """The strokes across the gap between island centres ``a`` and ``b`` whose bodies reach
    ``clear_a`` and ``clear_b`` from them; ``grid``: the grid lines' (width, peak, offset from the line
    a-b), when the board has them through its islands."""
    import numpy as np

    length = math.hypot(b[0] - a[0], b[1] - a[1])
    margin = max(1.0, 0.05 * pitch)
    t0, t1 = clear_a + margin, length - clear_b - margin
    if t1 - t0 < max(2.5, 0.12 * pitch):
        return Lines(0, 0.0, hidden=True)
    half = 0.34 * pitch
    ts, ss, prof = sample(contrast, a, b, t0, t1, half)
    ds = ss[1] - ss[0]
    counts, widths, used = [], [], 0
    for row in prof:
        runs = _runs(row, thr)
        if any((e - s) * ds > 1.4 * half for s, e in runs):  # a line across the gap (a cell's side, a frame)
            continue
        used += 1
        n = 0
        for s, e in runs:
            w = (e - s) * ds
            if grid is not None:
                gw, gpeak, goff = grid
                peak = float(row[s:e].max())
                centre = abs((s + e - 1) / 2 * ds - half - goff)
                if centre < max(1.5, gw) and w <= 1.5 * gw + 1 and peak <= 1.25 * gpeak + 0.05:
                    continue  # the grid line under the link, not a bridge
            n += 1
            widths.append(w)
        counts.append(n)
    if used < max(2, 0.3 * len(ts)):
        return Lines(0, 0.0)
    counts = np.asarray(counts)
    covered = float((counts > 0).mean())
    if covered < 0.4:
        return Lines(0, covered)
    vals, freq = np.unique(counts[counts > 0], return_counts=True)
    return Lines(int(vals[np.argmax(freq)]), covered, width=float(np.median(widths)) if widths else 0.0)


def grid_lines(contrast, thr, controls, pitch):
    """The lines of a grid drawn through the islands, measured on ``controls`` (pairs of neighbouring
    grid points where no bridge can run, each with its direction, "h" or "v"): {direction: (width,
    peak, offset from the line between the grid points)} when most of them show one, else {}."""
    import numpy as np

    out = {}
    half = 0.34 * pitch
    for way in ("h", "v"):
        mine = [(a, b) for a, b, w in controls if w == way]
        if len(mine) < 3:
            continue
        widths, peaks, offs, lined = [], [], [], 0
        for a, b in mine:
            length = math.hypot(b[0] - a[0], b[1] - a[1])
            ts, ss, prof = sample(contrast, a, b, 0.3 * length, 0.7 * length, half, steps=8)
            ds = ss[1] - ss[0]
            hit = 0
            for row in prof:
                runs = [(s, e) for s, e in _runs(row, thr) if (e - s) * ds < 0.5 * half]
                if runs:
                    s, e = min(runs, key=lambda r: abs((r[0] + r[1] - 1) / 2 * ds - half))
                    hit += 1
                    widths.append((e - s) * ds)
                    peaks.append(float(row[s:e].max()))
                    offs.append((s + e - 1) / 2 * ds - half)
            lined += hit >= 6
        if lined >= 0.5 * len(mine):
            out[way] = (float(np.median(widths)), float(np.percentile(peaks, 90)), float(np.median(offs)))
    return out
