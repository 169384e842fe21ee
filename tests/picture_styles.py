"""Boards drawn the way other puzzle sites, apps and printed pages draw them, for testing
:mod:`hashikit.formats.picture` on pictures it was not built from.

This drawer shares no code with hashikit's renderer: PIL, fonts picked per picture (DejaVu and
Liberation, sans, serif, mono, bold, condensed), island circles or plain numbers, lattice
dots, grid lines through the cells or between them or nothing, light, tinted or dark
backgrounds, line widths, cell sizes from 15 to 80 px, small rotations, blur, noise, JPEG
quality, and margins with a title.  ``draw(puzzle, bridges, style)`` returns the picture's
bytes; ``random_style(rng, family)`` draws a style of one family.
"""

from __future__ import annotations

import glob
import io
import math
import random

from PIL import Image, ImageDraw, ImageFilter, ImageFont

FONTS = {
    "dejavu-sans-bold": "DejaVuSans-Bold.ttf",
    "dejavu-sans": "DejaVuSans.ttf",
    "dejavu-serif": "DejaVuSerif.ttf",
    "dejavu-serif-bold": "DejaVuSerif-Bold.ttf",
    "dejavu-condensed": "DejaVuSansCondensed-Bold.ttf",
    "dejavu-mono": "DejaVuSansMono.ttf",
    "liberation-sans": "LiberationSans-Regular.ttf",
    "liberation-sans-bold": "LiberationSans-Bold.ttf",
    "liberation-serif": "LiberationSerif-Regular.ttf",
    "liberation-serif-bold": "LiberationSerif-Bold.ttf",
    "liberation-mono": "LiberationMono-Regular.ttf",
    "liberation-narrow": "LiberationSansNarrow-Bold.ttf",
}

FAMILIES = ("clean", "paper", "dark", "plain", "photo")


def font_path(name: str) -> str | None:
    hits = glob.glob(f"/usr/share/fonts/truetype/*/{FONTS[name]}")
    return hits[0] if hits else None


def available_fonts() -> list[str]:
    return [k for k in FONTS if font_path(k)]


def random_style(rng: random.Random, family: str) -> dict:
    fonts = available_fonts()
    st = {
        "family": family,
        "font": rng.choice(fonts),
        "cell": rng.randint(18, 60),
        "circles": True,
        "ring": rng.uniform(0.04, 0.09),
        "radius": rng.uniform(0.36, 0.46),
        "digit": rng.uniform(0.48, 0.62),
        "line": rng.uniform(0.05, 0.1),
        "gap": rng.uniform(0.16, 0.26),
        "paper": (255, 255, 255),
        "ink": (20, 20, 20),
        "bridge": (20, 20, 20),
        "island": (255, 255, 255),
        "lattice": rng.choice(["none", "dots", "centre-lines", "cell-lines"]),
        "lattice_ink": (200, 200, 200),
        "margin": rng.uniform(0.3, 1.5),
        "title": rng.random() < 0.5,
        "angle": 0.0,
        "blur": 0.0,
        "noise": 0.0,
        "jpeg": None,
    }
    if family == "clean":
        st["bridge"] = rng.choice([(20, 20, 20), (36, 70, 107), (150, 30, 30)])
    elif family == "paper":
        st["paper"] = rng.choice([(244, 236, 216), (230, 240, 250), (236, 246, 230), (250, 243, 224)])
        st["island"] = st["paper"] if rng.random() < 0.5 else (255, 255, 255)
        st["lattice_ink"] = tuple(max(0, v - 45) for v in st["paper"])
        st["jpeg"] = rng.choice([None, 85, 95])
    elif family == "dark":
        st["paper"] = rng.choice([(24, 24, 28), (30, 34, 48), (12, 12, 12)])
        st["ink"] = (235, 235, 235)
        st["bridge"] = rng.choice([(235, 235, 235), (150, 200, 255), (255, 210, 120)])
        st["island"] = st["paper"] if rng.random() < 0.6 else (60, 64, 80)
        st["lattice_ink"] = (70, 70, 80)
    elif family == "plain":
        st["circles"] = False
        st["digit"] = rng.uniform(0.5, 0.7)
        st["lattice"] = rng.choice(["dots", "cell-lines", "none"])
    elif family == "photo":
        st["cell"] = rng.randint(15, 80)
        st["angle"] = rng.uniform(-3.0, 3.0)
        st["blur"] = rng.uniform(0.0, 1.0)
        st["noise"] = rng.uniform(0.0, 8.0)
        st["jpeg"] = rng.randint(40, 85)
        st["paper"] = rng.choice([(255, 255, 255), (240, 238, 230), (225, 228, 232)])
    return st


def draw(puzzle, bridges, st: dict) -> bytes:
    """The picture (PNG, or JPEG when the style says so) of ``puzzle`` with ``bridges`` drawn."""
    c = st["cell"]
    margin = round(st["margin"] * c) + 4
    top = margin + (round(c * 1.2) if st["title"] else 0)
    W = puzzle.cols * c + 2 * margin
    H = puzzle.rows * c + top + margin
    im = Image.new("RGB", (W, H), st["paper"])
    d = ImageDraw.Draw(im)
    fpath = font_path(st["font"])

    def centre(r, col):
        return margin + col * c + c / 2, top + r * c + c / 2

    lat = st["lattice"]
    lw = max(1, round(c * 0.03))
    if lat == "dots":
        rr = max(1.0, c * 0.05)
        for r in range(puzzle.rows):
            for col in range(puzzle.cols):
                x, y = centre(r, col)
                d.ellipse((x - rr, y - rr, x + rr, y + rr), fill=st["lattice_ink"])
    elif lat == "centre-lines":
        for r in range(puzzle.rows):
            y = centre(r, 0)[1]
            d.line((centre(0, 0)[0], y, centre(0, puzzle.cols - 1)[0], y), fill=st["lattice_ink"], width=lw)
        for col in range(puzzle.cols):
            x = centre(0, col)[0]
            d.line((x, centre(0, 0)[1], x, centre(puzzle.rows - 1, 0)[1]), fill=st["lattice_ink"], width=lw)
    elif lat == "cell-lines":
        for r in range(puzzle.rows + 1):
            y = top + r * c
            d.line((margin, y, margin + puzzle.cols * c, y), fill=st["lattice_ink"], width=lw)
        for col in range(puzzle.cols + 1):
            x = margin + col * c
            d.line((x, top, x, top + puzzle.rows * c), fill=st["lattice_ink"], width=lw)
    if st["title"]:
        tf = ImageFont.truetype(fpath, max(10, round(c * 0.6)))
        d.text((margin, margin * 0.5 + 2), f"Bridges No. {puzzle.rows * 7 + puzzle.cols} - hard", font=tf,
               fill=st["ink"])
    bw = max(1, round(c * st["line"]))
    gap = max(bw + 2, c * st["gap"])
    for ((r1, c1), (r2, c2)), n in sorted(bridges.bridges.items()) if bridges is not None else ():
        (xa, ya), (xb, yb) = centre(r1, c1), centre(r2, c2)
        dx, dy = xb - xa, yb - ya
        ln = math.hypot(dx, dy)
        nx, ny = -dy / ln, dx / ln
        for k in range(n):
            off = (k - (n - 1) / 2) * gap
            d.line((xa + nx * off, ya + ny * off, xb + nx * off, yb + ny * off), fill=st["bridge"], width=bw)
    font = ImageFont.truetype(fpath, max(7, round(c * st["digit"])))
    for isl in puzzle.islands:
        x, y = centre(isl.row, isl.col)
        if st["circles"]:
            rad = c * st["radius"]
            d.ellipse((x - rad, y - rad, x + rad, y + rad), fill=st["island"], outline=st["ink"],
                      width=max(1, round(c * st["ring"])))
        else:
            rad = c * 0.3
            d.ellipse((x - rad, y - rad, x + rad, y + rad), fill=st["paper"])
        d.text((x, y), str(isl.number), font=font, fill=st["ink"], anchor="mm")
    if st["angle"]:
        im = im.rotate(st["angle"], resample=Image.BICUBIC, expand=True, fillcolor=st["paper"])
    if st["blur"]:
        im = im.filter(ImageFilter.GaussianBlur(st["blur"]))
    if st["noise"]:
        import numpy as np

        a = np.asarray(im, np.float32)
        rs = np.random.default_rng(int(st["noise"] * 1000))
        a = np.clip(a + rs.normal(0, st["noise"], a.shape), 0, 255).astype(np.uint8)
        im = Image.fromarray(a)
    buf = io.BytesIO()
    if st["jpeg"]:
        im.save(buf, "JPEG", quality=st["jpeg"])
    else:
        im.save(buf, "PNG")
    return buf.getvalue()


def in_progress(solution, rng: random.Random):
    """A game in progress: some of the solution's bridges, some doubles drawn single."""
    from hashikit.model import Solution

    keep = {}
    for key, n in solution.bridges.items():
        if rng.random() < 0.5:
            keep[key] = n if rng.random() < 0.7 else 1
    return Solution(keep)
