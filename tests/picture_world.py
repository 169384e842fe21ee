"""Pictures of boards that no one on this project drew, for testing the picture reader against
the world: Simon Tatham's own printouts of his Bridges puzzles (Debian's ``sgt-puzzles`` prints
PostScript; Ghostscript or Poppler turns it into pixels), boards written by hand as SVG and drawn by
Chromium in other fonts, the same program's other puzzles, and the effects a phone camera brings
(rotation, perspective, blur, a dark or patterned table around the board, tint, uneven light, noise,
JPEG), one at a time or stacked.

Everything here is made from a seed, so a picture can be made again; nothing is stored.  The
split between the part the reader is tuned on and the part held back is in :data:`TRAINING_FONTS`,
:data:`HELD_FONTS` and the seeds the benchmark (``benchmarks/pictures.py``) picks.

Debian packages: ``sgt-puzzles``, ``ghostscript``, ``poppler-utils`` (pdftoppm), ``chromium`` and
the font packages named in ``benchmarks/results/pictures.md``.  :func:`missing` says what is absent,
for a test to skip with.
"""

from __future__ import annotations

import io
import math
import os
import random
import shutil
import subprocess
import tempfile

SGT = "/usr/games"
CHROMIUM = os.environ.get("HASHIKIT_CHROMIUM", "/usr/bin/chromium")

def _training_script():
    """scripts/train_digits.py, where the fonts trained on and held back are named."""
    import importlib.util

    path = os.path.join(os.path.dirname(__file__), "..", "scripts", "train_digits.py")
    spec = importlib.util.spec_from_file_location("train_digits", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_script = _training_script()
#: fonts the digit model is trained on and the reader tuned with (file name patterns)
TRAINING_FONTS = _script.TRAINING_FONTS
#: fonts held back: never trained on, never tuned with, used only to measure
HELD_FONTS = _script.HELD_FONTS
font_files = _script.font_files


def missing(*needs: str) -> str | None:
    """What is missing for ``needs`` ("sgt", "gs", "pdftoppm", "chromium", "held-fonts"), in words; None
    when all is there."""
    for need in needs:
        if need == "sgt" and not os.path.exists(os.path.join(SGT, "sgt-bridges")):
            return "Debian's sgt-puzzles is not installed (apt-get install sgt-puzzles)"
        if need == "gs" and not shutil.which("gs"):
            return "Ghostscript is not installed (apt-get install ghostscript)"
        if need == "pdftoppm" and not (shutil.which("pdftoppm") and shutil.which("ps2pdf")):
            return "poppler-utils and ghostscript's ps2pdf are needed (apt-get install poppler-utils ghostscript)"
        if need == "chromium" and not os.path.exists(CHROMIUM):
            return f"Chromium is not at {CHROMIUM} (apt-get install chromium, or set HASHIKIT_CHROMIUM)"
        if need == "held-fonts" and not font_files(HELD_FONTS):
            return "the held-back fonts are not installed (apt-get install fonts-noto-core fonts-roboto fonts-open-sans)"
    return None


# -- Simon Tatham's Bridges, printed --------------------------------------------------------------

def game_ids(game: str, params: str, seed, n: int = 1) -> list[str]:
    """``n`` game IDs from ``sgt-GAME --generate`` (``params`` as the game takes them, "" for its
    default), made from ``seed``: the same seed gives the same IDs."""
    spec = f"{params}#{seed}" if params else f"#{seed}"
    if not params:  # the game's default parameters, read from a first ID
        first = subprocess.run([os.path.join(SGT, f"sgt-{game}"), "--generate", "1"], capture_output=True,
                               text=True, check=True).stdout.split()[0]
        spec = f"{first.split(':', 1)[0]}#{seed}"
    out = subprocess.run([os.path.join(SGT, f"sgt-{game}"), "--generate", str(n), spec], capture_output=True,
                         text=True, check=True).stdout.split()
    return out[:n]


def postscript(game: str, game_id: str, solutions: bool = False) -> bytes:
    """The PostScript ``sgt-GAME --print 1x1`` writes for one game ID (page 2: its solution)."""
    args = [os.path.join(SGT, f"sgt-{game}"), "--print", "1x1"] + (["--with-solutions"] if solutions else [])
    out = subprocess.run(args, input=(game_id + "\n").encode(), capture_output=True, check=True).stdout
    if not out.startswith(b"%!PS"):
        raise RuntimeError(f"sgt-{game} printed no PostScript for {game_id}")
    return out


def with_font(ps: bytes, font: str) -> bytes:
    """The PostScript with its Helvetica replaced by ``font`` (a name Ghostscript finds)."""
    return ps.replace(b"/Helvetica findfont", b"/" + font.encode() + b" findfont")


def rasterise(ps: bytes, dpi: int, page: int = 1, renderer: str = "gs", antialias: bool = True,
              grey: bool = False) -> bytes:
    """One page of PostScript as PNG bytes at ``dpi``: Ghostscript (``gs``) or, through a PDF,
    Poppler (``poppler``)."""
    if renderer == "gs":
        args = ["gs", "-q", "-dSAFER", "-dNOPAUSE", "-dBATCH", f"-sDEVICE={'pnggray' if grey else 'png16m'}",
                f"-r{dpi}", f"-dFirstPage={page}", f"-dLastPage={page}", "-sOutputFile=-"]
        if antialias:
            args += ["-dTextAlphaBits=4", "-dGraphicsAlphaBits=4"]
        return subprocess.run(args + ["-"], input=ps, capture_output=True, check=True).stdout
    tmp = tempfile.mkdtemp()
    try:
        src, pdf = os.path.join(tmp, "p.ps"), os.path.join(tmp, "p.pdf")
        with open(src, "wb") as fh:
            fh.write(ps)
        subprocess.run(["ps2pdf", src, pdf], check=True, capture_output=True)
        args = ["pdftoppm", "-r", str(dpi), "-f", str(page), "-l", str(page), "-png", "-singlefile"]
        if not antialias:
            args += ["-aa", "no", "-aaVector", "no"]
        subprocess.run(args + ([] if not grey else ["-gray"]) + [pdf, os.path.join(tmp, "out")], check=True,
                       capture_output=True)
        with open(os.path.join(tmp, "out.png"), "rb") as fh:
            return fh.read()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def crop(png: bytes, margin: float = 0.05) -> bytes:
    """The picture cut to its ink, with ``margin`` (a share of the ink's size) of paper around."""
    from PIL import Image, ImageOps

    im = Image.open(io.BytesIO(png)).convert("RGB")
    box = ImageOps.invert(im.convert("L")).point(lambda v: 255 if v > 40 else 0).getbbox()
    if box is None:
        return png
    m = round(margin * max(box[2] - box[0], box[3] - box[1]))
    box = (max(0, box[0] - m), max(0, box[1] - m), min(im.width, box[2] + m), min(im.height, box[3] + m))
    return _png(im.crop(box))


def tatham_case(seed: int, params: str, dpi: int, solution: bool = False, renderer: str = "gs",
                cropped: bool = True, font: str | None = None):
    """A Tatham print: (PNG bytes, puzzle, bridges shown) for the game made from ``seed``."""
    from hashikit.formats import read_text
    from hashikit.model import Solution

    gid = game_ids("bridges", params, seed)[0]
    puzzle = read_text(gid, "tatham").puzzle
    ps = postscript("bridges", gid, solutions=solution)
    if font:
        ps = with_font(ps, font)
    png = rasterise(ps, dpi, page=2 if solution else 1, renderer=renderer)
    if cropped:
        png = crop(png, 0.04)
    return png, puzzle, (solve_unique(puzzle) if solution else Solution({})), gid


def solve_unique(puzzle):
    """The one solution of a Tatham puzzle (checked by the rule checker; Tatham's are unique)."""
    from hashikit import check, solve

    res = solve(puzzle, max_solutions=2)
    assert len(res.solutions) == 1, "a Tatham puzzle with other than one solution"
    assert check(puzzle, res.solutions[0]).ok
    return res.solutions[0]


def other_puzzle(game: str, seed: int, dpi: int = 100, solution: bool = False) -> bytes:
    """Another of Tatham's puzzles (towers, slant, dominosa, ...), printed and cut to its ink (its
    puzzle page where printing the solution fails: Debian's sgt-pattern crashes on some)."""
    gid = game_ids(game, "", seed)[0]
    try:
        ps = postscript(game, gid, solutions=solution)
    except subprocess.CalledProcessError:
        if not solution:
            raise
        ps, solution = postscript(game, gid), False
    return crop(rasterise(ps, dpi, page=2 if solution else 1), 0.04)


# -- boards written by hand as SVG, drawn by Chromium ----------------------------------------------

def svg_board(puzzle, bridges, st: dict) -> str:
    """A board as SVG text, written here (not by hashikit's renderer), in the style ``st``."""
    c = st["cell"]
    m = st["margin"] * c
    W, H = puzzle.cols * c + 2 * m, puzzle.rows * c + 2 * m
    ink, paper = st["ink"], st["paper"]
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W:.0f}" height="{H:.0f}" '
           f'viewBox="0 0 {W:.1f} {H:.1f}">', f'<rect width="100%" height="100%" fill="{paper}"/>']

    def xy(r, col):
        return m + (col + 0.5) * c, m + (r + 0.5) * c

    lw = max(0.6, st["grid_width"] * c)
    if st["grid"] == "crossings":  # islands on the crossings of the lines, as many newspapers print
        for r in range(puzzle.rows):
            out.append(f'<line x1="{xy(r, 0)[0]:.1f}" y1="{xy(r, 0)[1]:.1f}" x2="{xy(r, puzzle.cols - 1)[0]:.1f}" '
                       f'y2="{xy(r, 0)[1]:.1f}" stroke="{st["grid_ink"]}" stroke-width="{lw:.2f}"/>')
        for col in range(puzzle.cols):
            out.append(f'<line x1="{xy(0, col)[0]:.1f}" y1="{xy(0, col)[1]:.1f}" x2="{xy(0, col)[0]:.1f}" '
                       f'y2="{xy(puzzle.rows - 1, col)[1]:.1f}" stroke="{st["grid_ink"]}" stroke-width="{lw:.2f}"/>')
    elif st["grid"] == "cells":
        for r in range(puzzle.rows + 1):
            out.append(f'<line x1="{m:.1f}" y1="{m + r * c:.1f}" x2="{W - m:.1f}" y2="{m + r * c:.1f}" '
                       f'stroke="{st["grid_ink"]}" stroke-width="{lw:.2f}"/>')
        for col in range(puzzle.cols + 1):
            out.append(f'<line x1="{m + col * c:.1f}" y1="{m:.1f}" x2="{m + col * c:.1f}" y2="{H - m:.1f}" '
                       f'stroke="{st["grid_ink"]}" stroke-width="{lw:.2f}"/>')
    elif st["grid"] == "dots":
        for r in range(puzzle.rows):
            for col in range(puzzle.cols):
                x, y = xy(r, col)
                out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{max(0.8, 0.05 * c):.1f}" fill="{st["grid_ink"]}"/>')
    if st["frame"]:
        out.append(f'<rect x="{m * 0.5:.1f}" y="{m * 0.5:.1f}" width="{W - m:.1f}" height="{H - m:.1f}" fill="none" '
                   f'stroke="{ink}" stroke-width="{max(1.0, 0.06 * c):.1f}"/>')
    bw = max(0.8, st["bridge_width"] * c)
    for ((r1, c1), (r2, c2)), n in sorted((bridges.bridges if bridges else {}).items()):
        (xa, ya), (xb, yb) = xy(r1, c1), xy(r2, c2)
        for k in range(n):
            off = (k - (n - 1) / 2) * st["bridge_gap"] * c
            dx, dy = (0, off) if r1 == r2 else (off, 0)
            out.append(f'<line x1="{xa + dx:.1f}" y1="{ya + dy:.1f}" x2="{xb + dx:.1f}" y2="{yb + dy:.1f}" '
                       f'stroke="{st["bridge_ink"]}" stroke-width="{bw:.2f}" stroke-linecap="butt"/>')
    size = st["digit"] * c
    style = ' font-style="italic"' if st["italic"] else ""
    for isl in puzzle.islands:
        x, y = xy(isl.row, isl.col)
        if st["circles"]:
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{st["radius"] * c:.1f}" fill="{st["island"]}" '
                       f'stroke="{ink}" stroke-width="{max(0.8, st["ring"] * c):.2f}"/>')
        else:
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{0.32 * c:.1f}" fill="{paper}"/>')
        out.append(f'<text x="{x:.1f}" y="{y:.1f}" font-family="{st["font"]}" font-size="{size:.1f}" '
                   f'font-weight="{st["weight"]}"{style} fill="{ink}" text-anchor="middle" '
                   f'dominant-baseline="central">{isl.number}</text>')
    out.append("</svg>")
    return "\n".join(out)


#: font families Chromium finds through fontconfig: tuning ones (trained on) and held-back ones
SVG_FONTS_TUNE = ("DejaVu Sans", "Liberation Serif", "FreeSans", "TeX Gyre Heros", "Nimbus Roman", "URW Gothic",
                  "FreeMono", "TeX Gyre Schola")
SVG_FONTS_HELD = ("Noto Sans", "Noto Serif", "Roboto", "Roboto Condensed", "Open Sans", "Noto Mono")


def svg_style(rng: random.Random, fonts) -> dict:
    dark = rng.random() < 0.2
    st = {
        "cell": rng.randint(20, 70), "margin": rng.uniform(0.3, 1.2), "font": rng.choice(fonts),
        "weight": rng.choice(["normal", "normal", "bold"]), "italic": rng.random() < 0.25,
        "circles": rng.random() < 0.75, "radius": rng.uniform(0.32, 0.48), "ring": rng.uniform(0.03, 0.09),
        "digit": rng.uniform(0.42, 0.62), "bridge_width": rng.uniform(0.04, 0.1), "bridge_gap": rng.uniform(0.15, 0.28),
        "grid": rng.choice(["none", "none", "crossings", "cells", "dots"]), "grid_width": rng.uniform(0.01, 0.04),
        "frame": rng.random() < 0.3,
        "paper": "#fff", "ink": "#111", "island": "#fff", "bridge_ink": "#111", "grid_ink": "#999",
    }
    if dark:
        st.update(paper=rng.choice(["#1e1e24", "#10141c", "#000"]), ink="#eee", bridge_ink=rng.choice(["#eee", "#9cf"]),
                  grid_ink="#555")
        st["island"] = st["paper"]
    elif rng.random() < 0.3:
        st["paper"] = rng.choice(["#f4ecd8", "#eef4fa", "#fdf6e3"])
        st["island"] = st["paper"]
        st["grid_ink"] = rng.choice(["#aaa", "#777"])
    if st["grid"] == "crossings":
        st["grid_ink"] = rng.choice(["#888", "#444", "#111"]) if not dark else "#777"
    return st


class Chromium:
    """Headless Chromium (through Playwright) drawing SVG text to PNG bytes."""

    def __init__(self):
        from playwright.sync_api import sync_playwright

        self.pw = sync_playwright().start()
        self.browser = self.pw.chromium.launch(executable_path=CHROMIUM, headless=True,
                                               args=["--no-sandbox", "--disable-gpu"])
        self.page = self.browser.new_page(device_scale_factor=1)

    def png(self, svg: str) -> bytes:
        self.page.set_content(f'<html><body style="margin:0;background:#fff">{svg}</body></html>')
        return self.page.locator("svg").screenshot()

    def close(self):
        self.browser.close()
        self.pw.stop()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


# -- a phone camera's effects ------------------------------------------------------------------------

EFFECTS = ("rotate", "perspective", "blur", "dark-table", "pattern-table", "tint", "gradient", "noise", "jpeg40")


def _png(im) -> bytes:
    buf = io.BytesIO()
    im.save(buf, "PNG")
    return buf.getvalue()


def _rgb(data: bytes):
    import numpy as np
    from PIL import Image

    return np.asarray(Image.open(io.BytesIO(data)).convert("RGB"), np.float32)


def _paper(a):
    import numpy as np

    edge = np.concatenate([a[0], a[-1], a[:, 0], a[:, -1]])
    return np.median(edge, axis=0)


def effect(data: bytes, name: str, rng: random.Random, strength: float = 1.0) -> bytes:
    """One camera effect on a picture (PNG bytes in, PNG or JPEG bytes out); ``strength`` 1 is the
    issue's size of it (rotation up to 10 degrees, perspective up to 15%, blur sigma 1.5, ...)."""
    import cv2
    import numpy as np
    from PIL import Image

    a = _rgb(data)
    h, w = a.shape[:2]
    paper = _paper(a)
    if name == "rotate":
        ang = rng.choice([-1, 1]) * rng.uniform(3, 10) * strength
        M = cv2.getRotationMatrix2D((w / 2, h / 2), ang, 1.0)
        cos, sin = abs(M[0, 0]), abs(M[0, 1])
        nw, nh = int(h * sin + w * cos), int(h * cos + w * sin)
        M[0, 2] += nw / 2 - w / 2
        M[1, 2] += nh / 2 - h / 2
        a = cv2.warpAffine(a, M, (nw, nh), flags=cv2.INTER_CUBIC, borderValue=tuple(float(v) for v in paper))
    elif name == "perspective":
        f = rng.uniform(0.06, 0.15) * strength
        src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
        dst = src.copy()
        side = rng.randrange(4)  # one side shrunk, as a page seen from below, above or aside
        i, j = side, (side + 1) % 4
        along = (src[j] - src[i]) / np.linalg.norm(src[j] - src[i])
        span = w if side % 2 == 0 else h
        dst[i] += along * f * span / 2  # the far side shorter than the near one by f
        dst[j] -= along * f * span / 2
        for k in range(4):
            dst[k] += np.float32([rng.uniform(-0.02, 0.02) * w, rng.uniform(-0.02, 0.02) * h])
        pad = int(0.05 * max(w, h))
        dst += pad
        M = cv2.getPerspectiveTransform(src, dst)
        a = cv2.warpPerspective(a, M, (w + 2 * pad, h + 2 * pad), flags=cv2.INTER_CUBIC,
                                borderValue=tuple(float(v) for v in paper))
    elif name == "blur":
        a = cv2.GaussianBlur(a, (0, 0), 1.5 * strength)
    elif name in ("dark-table", "pattern-table"):
        share = rng.uniform(0.35, 0.65)  # of the frame the board covers
        side = math.sqrt(w * h / share)
        H, W = int(side * rng.uniform(0.9, 1.1)), int(side * rng.uniform(0.9, 1.1))
        H, W = max(H, h + 8), max(W, w + 8)
        if name == "dark-table":
            base = np.array([rng.uniform(20, 70), rng.uniform(20, 55), rng.uniform(15, 45)], np.float32)
            grain = cv2.GaussianBlur(np.random.default_rng(rng.randrange(10**6)).normal(0, 12, (H, W)).astype(
                np.float32), (0, 0), 3)
            bg = base[None, None, :] + grain[:, :, None] * np.array([1, 0.8, 0.6], np.float32)
        else:
            bg = _pattern(H, W, rng)
        y0, x0 = rng.randint(0, H - h), rng.randint(0, W - w)
        bg[y0:y0 + h, x0:x0 + w] = a
        a = bg
    elif name == "tint":
        a = a * np.array(rng.choice([(1.0, 0.93, 0.75), (0.85, 0.92, 1.0), (1.0, 0.85, 0.85), (0.9, 1.0, 0.85)]),
                         np.float32)
    elif name == "gradient":
        yy, xx = np.mgrid[0:a.shape[0], 0:a.shape[1]].astype(np.float32)
        t = rng.uniform(0, 2 * math.pi)
        g = (xx * math.cos(t) + yy * math.sin(t))
        g = (g - g.min()) / max(1.0, float(g.max() - g.min()))
        low = 1 - rng.uniform(0.35, 0.55) * strength
        a = a * (low + (1 - low) * g)[:, :, None]
    elif name == "noise":
        a = a + np.random.default_rng(rng.randrange(10**6)).normal(0, 12 * strength, a.shape).astype(np.float32)
    elif name == "jpeg40":
        buf = io.BytesIO()
        Image.fromarray(np.clip(a, 0, 255).astype(np.uint8)).save(buf, "JPEG", quality=40)
        return buf.getvalue()
    else:
        raise ValueError(name)
    return _png(Image.fromarray(np.clip(a, 0, 255).astype(np.uint8)))


def _pattern(H, W, rng):
    """A busy table: checks, stripes, or a page of text."""
    import numpy as np
    from PIL import Image, ImageDraw, ImageFont

    kind = rng.choice(["checks", "stripes", "text"])
    if kind == "text":
        im = Image.new("RGB", (W, H), (235, 232, 225))
        d = ImageDraw.Draw(im)
        fonts = font_files(TRAINING_FONTS)
        font = ImageFont.truetype(rng.choice(fonts), rng.randint(11, 20))
        words = "the bridges of the island puzzle page 12 weather sport 1998 news 3 market 45 vote".split()
        y = 2
        while y < H:
            d.text((2, y), " ".join(rng.choice(words) for _ in range(40)), font=font, fill=(30, 30, 30))
            y += font.size + 6
        return np.asarray(im, np.float32)
    yy, xx = np.mgrid[0:H, 0:W]
    step = rng.randint(12, 40)
    c1 = np.array([rng.uniform(40, 200) for _ in range(3)], np.float32)
    c2 = np.array([rng.uniform(40, 200) for _ in range(3)], np.float32)
    if kind == "checks":
        mask = ((xx // step + yy // step) % 2).astype(bool)
    else:
        mask = (((xx + yy) // step) % 2).astype(bool)
    return np.where(mask[:, :, None], c1, c2).astype(np.float32)


def stacked(data: bytes, rng: random.Random, k: int | None = None) -> tuple[bytes, list[str]]:
    """Several effects, as from a phone: a table around the board, then a few of the others, and
    the JPEG last.  Returns the picture and the effects' names in order."""
    k = k or rng.randint(3, 5)
    names = [rng.choice(["dark-table", "pattern-table", "none"])]
    rest = ["rotate", "perspective", "blur", "tint", "gradient", "noise"]
    rng.shuffle(rest)
    names += sorted(rest[:k - 1], key=["rotate", "perspective", "tint", "gradient", "blur", "noise"].index)
    names.append("jpeg40")
    names = [n for n in names if n != "none"]
    out = data
    for n in names:
        out = effect(out, n, rng, strength=rng.uniform(0.5, 1.0))
    return out, names


def misreading(read, k: int, wrong: int = 4, right: int = 1):
    """A reader (``read``, as :func:`hashikit.formats.picture.read_picture`) made to misread the
    ``k``-th island's number as ``wrong``, unsure, ``right`` the runner-up: as if the picture were
    smudged there (for testing what the rules make of it)."""
    from hashikit.formats.picture import Doubt

    def misread(raw, source="<picture>", lim=None):
        r = read(raw, source, lim) if lim is not None else read(raw, source)
        isl = r.puzzle.islands[k]
        r.puzzle = r.puzzle.with_numbers({isl.pos: wrong})
        for i in r.islands:
            if (i.row, i.col) == isl.pos:
                i.number, i.sure, i.others = wrong, 0.6, [(right, 0.35)]
        r.doubts.append(Doubt("number", f"row {isl.row + 1}, column {isl.col + 1}: read as {wrong}, could be {right}",
                              cell=isl.pos, choices=[(wrong, 0.6), (right, 0.35)]))
        return r

    return misread
