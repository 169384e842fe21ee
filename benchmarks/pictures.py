"""How well hashikit reads puzzles from pictures: pictures no one here made (Simon Tatham's own
printouts, boards written as SVG and drawn by Chromium in other fonts, camera effects), hashikit's
own renderers, other puzzles and pictures without a board; exact boards, bridges, wrong readings
that name no place, refusals, and the whole-process time.

    .venv/bin/python benchmarks/pictures.py [--part held|tune|both] [--scale 1.0] [--sets NAME,...]
                                            [--keep-failures DIR] [--no-time]

Every picture is read the way every front end reads it: ``hashikit.read_picture`` (the reader, then
the rules settle what they can, ``hashikit/service/settling.py``).  A board is exact when every
island, number and relative position is right and nothing is extra (empty rows or columns at the
board's edge are not counted: a picture need not show them); its bridges are exact when, besides,
every bridge is.  A wrong reading "names no place" when it says nothing is unsure (no unsure line):
the target is none.  "Every error named" counts the wrong readings whose unsure lines name every
wrong island (its row and column) and every wrong link.

The sets and what makes them (``tests/picture_world.py``, ``tests/picture_styles.py``):

* ``tatham-print``: Debian's ``sgt-bridges --generate`` games (7x7 to 15x15, and 20x20), printed by
  ``sgt-bridges --print 1x1`` as PostScript, rasterised by Ghostscript (anti-aliased or not) or by
  Poppler through ps2pdf, at 72 to 300 dpi, the whole A4 page or cut to the board;
* ``tatham-solution``: the same program's printed solutions (``--with-solutions``, page 2);
* ``fx-EFFECT``: a Tatham print (puzzle or solution, 100-200 dpi, cut to the board) with one camera
  effect: rotation of 3-10 degrees, perspective (the far side 6-15% shorter), Gaussian blur of sigma
  1.5, the board on a dark table or on a busy one (checks, stripes, a page of text; the board 35-65%
  of the frame), a tint, a gradient of light (down to 45-65%), noise (sigma 12 of 255), JPEG 40;
* ``stacked``: three to five of those at once, as from a phone (a table, then some of rotation,
  perspective, tint, gradient, blur and noise at 50-100% of the strength above, then JPEG 40);
* ``svg-styles``: random boards written as SVG here and drawn by Chromium: fonts, italic, bold,
  circles or bare numbers, grid lines through the islands (as newspapers print), between the cells
  or dots, a frame, dark and tinted paper, half of them games in progress;
* ``hashikit-png``, ``clean``, ``paper``, ``dark``, ``plain``, ``photo``: hashikit's own PNGs and the
  PIL drawer of tests/picture_styles.py (the material the reader was first built on);
* ``other-puzzles``: Tatham's other puzzles, printed: each must be refused;
* ``no-board``: blank, noise, text, tables, a calendar, shapes, a chart: each must be refused.

The tuning part and the held-back part use different seeds (and, for Tatham, different game seeds);
the held-back part also draws its SVG boards in fonts never trained on nor tuned with (Noto, Roboto,
Open Sans; the tuning part uses DejaVu, Liberation, FreeFont, URW and TeX Gyre faces), and its other
puzzles include kinds the tuning part never saw.  The time is the whole process, ``hashikit convert
PICTURE - --to json`` (start-up, decoding, reading, the rules' settling, JSON), on 15x15 boards.
"""

from __future__ import annotations

import argparse
import io
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(HERE, "..", "tests"))
sys.path.insert(0, HERE)

import picture_styles as ps  # noqa: E402
import picture_world as pw  # noqa: E402
from _runinfo import git_state  # noqa: E402

from hashikit import read_picture, render  # noqa: E402
from hashikit.errors import HashikitError  # noqa: E402
from hashikit.generate import random_solution  # noqa: E402
from hashikit.model import Solution  # noqa: E402

TATHAM_SIZES = ("7x7", "10x10", "10x10", "12x12", "15x15", "15x15", "10x7", "9x12", "20x20")
DPIS = (72, 90, 100, 120, 150, 200, 250, 300)
#: Tatham's kinds the tuning part sees, and the ones only the held-back part has
OTHERS_TUNE = ("towers", "dominosa", "slant", "keen", "tents", "filling", "solo")
#: (not Pattern: Debian's sgt-pattern crashes when it prints, SIGSEGV)
OTHERS_HELD = OTHERS_TUNE + ("lightup", "net", "unequal", "magnets", "range", "singles", "galaxies")
#: pictures per set in each part, at --scale 1
COUNTS = {"tatham-print": 40, "tatham-solution": 20, "stacked": 40, "svg-styles": 60, "other-puzzles": 30}
FX_COUNT = 11
OWN_COUNT = 8


def norm(islands, bridges):
    r0 = min(r for r, c, n in islands)
    c0 = min(c for r, c, n in islands)
    isl = frozenset((r - r0, c - c0, n) for r, c, n in islands)
    br = frozenset(((a[0] - r0, a[1] - c0), (b[0] - r0, b[1] - c0), k) for (a, b), k in bridges.items() if k)
    return isl, br


# -- the sets ---------------------------------------------------------------------------------

def tatham(part, seed, solution=False):
    rng = random.Random(f"{part}-print-{seed}-{solution}")
    size = rng.choice(TATHAM_SIZES)
    dpi = rng.choice(DPIS)
    renderer = rng.choice(["gs", "gs", "poppler"])
    cropped = rng.random() < 0.5
    png, pz, br, gid = pw.tatham_case(f"{part}{seed}", size + "m2", dpi, solution=solution, renderer=renderer,
                                      cropped=cropped)
    return png, pz, br, f"{gid} {dpi} dpi {renderer}{' cut' if cropped else ' page'}"


def fx(effect):
    def make(part, seed):
        rng = random.Random(f"{part}-fx-{effect}-{seed}")
        size = rng.choice(TATHAM_SIZES[:-1])
        dpi = rng.choice((100, 120, 150, 200))
        png, pz, br, gid = pw.tatham_case(f"{part}fx{seed}", size + "m2", dpi, solution=rng.random() < 0.3)
        return pw.effect(png, effect, rng), pz, br, f"{gid} {dpi} dpi"
    return make


def stacked(part, seed):
    rng = random.Random(f"{part}-stacked-{seed}")
    size = rng.choice(TATHAM_SIZES[:-1])
    dpi = rng.choice((100, 120, 150, 200))
    png, pz, br, gid = pw.tatham_case(f"{part}st{seed}", size + "m2", dpi, solution=rng.random() < 0.3)
    out, names = pw.stacked(png, rng)
    return out, pz, br, f"{gid} {dpi} dpi {'+'.join(names)}"


class Svg:
    def __init__(self):
        self.chrome = None

    def __call__(self, part, seed):
        if self.chrome is None:
            self.chrome = pw.Chromium()
        rng = random.Random(f"{part}-svg-{seed}")
        pz, sol = random_solution(rng.randint(6, 13), rng.randint(6, 13), rng)
        br = ps.in_progress(sol, rng) if rng.random() < 0.5 else Solution({})
        st = pw.svg_style(rng, pw.SVG_FONTS_TUNE if part == "tune" else pw.SVG_FONTS_HELD)
        traits = [st["font"], f"{st['cell']} px"] + [k for k, on in (
            ("italic", st["italic"]), ("bold", st["weight"] == "bold"), ("no circles", not st["circles"]),
            (f"grid {st['grid']}", st["grid"] != "none"), ("frame", st["frame"]),
            ("dark", st["paper"] in ("#1e1e24", "#10141c", "#000"))) if on]
        return self.chrome.png(pw.svg_board(pz, br, st)), pz, br, ", ".join(traits)

    def close(self):
        if self.chrome is not None:
            self.chrome.close()


def own_png(part, seed):
    rng = random.Random(f"{part}-own-{seed}")
    pz, sol = random_solution(rng.randint(7, 15), rng.randint(7, 15), rng)
    br = ps.in_progress(sol, rng) if seed % 2 else Solution({})
    return render.png(pz, br if br.bridges else None, cell=rng.randint(15, 60)), pz, br, "hashikit render.png"


def drawn(family):
    def make(part, seed):
        rng = random.Random(f"{part}-{family}-{seed}")
        pz, sol = random_solution(rng.randint(7, 15), rng.randint(7, 15), rng)
        br = ps.in_progress(sol, rng) if seed % 2 else Solution({})
        st = ps.random_style(rng, family)
        return ps.draw(pz, br, st), pz, br, f"{st['font']} {st['cell']} px"
    return make


def others(part, seed):
    kinds = OTHERS_TUNE if part == "tune" else OTHERS_HELD
    rng = random.Random(f"{part}-other-{seed}")
    kind = kinds[seed % len(kinds)]
    data = pw.other_puzzle(kind, f"{part}{seed}", dpi=rng.choice((72, 100, 150, 200)), solution=rng.random() < 0.3)
    return data, None, None, kind


def no_boards():
    import numpy as np
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.truetype(ps.font_path("dejavu-sans"), 18)
    out = []

    def png(im):
        buf = io.BytesIO()
        im.save(buf, "PNG")
        return buf.getvalue()

    out.append(("blank", png(Image.new("RGB", (400, 300), "white"))))
    out.append(("dark blank", png(Image.new("RGB", (400, 300), (20, 20, 20)))))
    rs = np.random.default_rng(0)
    out.append(("noise", png(Image.fromarray(rs.integers(0, 255, (300, 400, 3), dtype=np.uint8)))))
    im = Image.new("RGB", (600, 400), "white")
    d = ImageDraw.Draw(im)
    for i in range(12):
        d.text((10, 10 + 30 * i), f"Line {i + 1}: the 3 bridges of 2024 cost 17 coins, page {i % 9}.", font=font,
               fill="black")
    out.append(("text with numbers", png(im)))
    for name, step, number in (("table of numbers", 80, lambda r, c: (r * 37 + c * 11) % 90 + 10),
                               ("table of single digits", 70, lambda r, c: (r * 5 + c * 3) % 8 + 1)):
        im = Image.new("RGB", (500, 400), "white")
        d = ImageDraw.Draw(im)
        for r in range(8):
            for c in range(6):
                d.text((20 + step * c, 20 + 45 * r), str(number(r, c)), font=font, fill="black")
        out.append((name, png(im)))
    im = Image.new("RGB", (420, 320), "white")
    d = ImageDraw.Draw(im)
    d.text((10, 5), "November 2026", font=font, fill="black")
    for day in range(1, 31):
        r, c = divmod(day + 6, 7)
        d.text((20 + 56 * c, 40 + 45 * r), str(day), font=font, fill="black")
    out.append(("calendar", png(im)))
    im = Image.new("RGB", (400, 400), "white")
    d = ImageDraw.Draw(im)
    for i in range(15):
        x, y = rs.integers(0, 360, 2)
        d.ellipse((x, y, x + 30, y + 30), outline="black", width=2)
        d.line((x, y, x + 60, y + 5), fill="black", width=2)
    out.append(("circles and lines", png(im)))
    im = Image.new("RGB", (500, 360), "white")
    d = ImageDraw.Draw(im)
    d.line((50, 20, 50, 320), fill="black", width=2)
    d.line((50, 320, 480, 320), fill="black", width=2)
    for k, v in enumerate((3, 7, 5, 8, 2, 6)):
        d.rectangle((80 + 65 * k, 320 - 35 * v, 120 + 65 * k, 320), fill=(70, 110, 170))
        d.text((92 + 65 * k, 328), str(k + 1), font=font, fill="black")
    for v in range(1, 9):
        d.text((28, 310 - 35 * v), str(v), font=font, fill="black")
    out.append(("bar chart", png(im)))
    im = Image.new("RGB", (460, 460), "white")
    d = ImageDraw.Draw(im)
    for r in range(6):
        for c in range(6):
            x, y = 30 + 70 * c, 30 + 70 * r
            if (r * 7 + c * 3) % 5 == 0:
                d.rectangle((x, y, x + 70, y + 70), fill="black")
            else:
                d.rectangle((x, y, x + 70, y + 70), outline="black", width=2)
                if (r + c) % 3 == 0:
                    d.text((x + 4, y + 2), str((r * 6 + c) % 9 + 1), font=ImageFont.truetype(
                        ps.font_path("dejavu-sans"), 14), fill="black")
    out.append(("crossword", png(im)))
    for q in (30, 60):
        buf = io.BytesIO()
        Image.fromarray(rs.integers(100, 160, (300, 400), dtype=np.uint8)).save(buf, "JPEG", quality=q)
        out.append((f"grey JPEG q{q}", buf.getvalue()))
    return out


# -- judging --------------------------------------------------------------------------------------

def _named(unsure, cell) -> bool:
    return any(f"row {cell[0] + 1}, column {cell[1] + 1}" in u for u in unsure)


def judge(data, pz, br):
    """(outcome, every error named, CPU seconds, unsure lines): outcome one of exact, board (islands
    right, bridges not), wrong, refused; for a picture without a Hashi board: read or refused."""
    t0 = time.process_time()
    try:
        r = read_picture(data)
    except HashikitError as exc:
        return "refused", True, time.process_time() - t0, [str(exc)]
    dt = time.process_time() - t0
    unsure = r.unsure
    if pz is None:
        return "read", False, dt, unsure
    got = norm([(i.row, i.col, i.number) for i in r.puzzle.islands], r.bridges.bridges)
    want = norm([(i.row, i.col, i.number) for i in pz.islands], br.bridges)
    if got == want:
        return "exact", True, dt, unsure
    named = True
    if got[0] == want[0]:  # the board is right: the wrong links must be named, by both ends
        r0 = min(i.row for i in r.puzzle.islands)
        c0 = min(i.col for i in r.puzzle.islands)
        for a, b, _k in got[1] ^ want[1]:
            ends = ((a[0] + r0, a[1] + c0), (b[0] + r0, b[1] + c0))
            named &= any(_named([u], ends[0]) and _named([u], ends[1]) for u in unsure)
        return "board", named, dt, unsure
    r0 = min(i.row for i in r.puzzle.islands)
    c0 = min(i.col for i in r.puzzle.islands)
    for row, col, _n in got[0] - want[0]:
        named &= _named(unsure, (row + r0, col + c0))
    if len(got[0]) != len(want[0]):
        named = False  # a lost or extra island: the grid itself may be off
    return "wrong", named, dt, unsure


class Tally:
    def __init__(self):
        self.n = self.exact = self.board = self.with_bridges = self.bridges_exact = 0
        self.silent = self.all_named = self.wrong = self.refused = 0
        self.times = []
        #: (traits, outcome, has bridges) per picture, for the breakdown by style
        self.items = []

    def add(self, outcome, named, dt, has_bridges, unsure):
        self.n += 1
        self.times.append(dt)
        if outcome == "refused":
            self.refused += 1
            return
        board = outcome in ("exact", "board")
        self.board += board
        self.exact += outcome == "exact"
        if has_bridges:
            self.with_bridges += 1
            self.bridges_exact += outcome == "exact"
        if outcome != "exact":
            self.wrong += 1
            self.silent += not unsure
            self.all_named += named


def run_set(name, make, part, count, keep, log):
    tally = Tally()
    for seed in range(count):
        data, pz, br, info = make(part, seed)
        outcome, named, dt, unsure = judge(data, pz, br)
        if pz is None:
            tally.n += 1
            tally.times.append(dt)
            tally.refused += outcome == "refused"
            tally.silent += outcome == "read" and not unsure
            tally.wrong += outcome == "read"
        else:
            tally.add(outcome, named, dt, bool(br.bridges) or name == "tatham-solution", unsure)
            tally.items.append((info.split(", ")[2:] + ["game in progress" if br.bridges else "no bridges drawn"]
                                + [f"font {info.split(', ')[0]}"], outcome, bool(br.bridges)))
        ok = outcome in ("exact", "refused") if pz is None else outcome == "exact"
        if pz is None:
            ok = outcome == "refused"
        log(f"{part} {name} {seed}: {outcome}{'' if ok else ' (' + '; '.join(unsure)[:300] + ')'} [{info}]")
        if keep and not ok:
            os.makedirs(keep, exist_ok=True)
            with open(os.path.join(keep, f"{part}-{name}-{seed}.img"), "wb") as fh:
                fh.write(data)
    return tally


def smudged(data, k=8, seed=0):
    """The picture with ``k`` of its digits half rubbed out (a white patch over a part of each), so
    the reader is unsure there and the rules have work: (PNG bytes, the places smudged)."""
    import numpy as np
    from PIL import Image, ImageDraw

    r = read_picture(data)
    rng = random.Random(seed)
    picks = rng.sample(r.islands, min(k, len(r.islands)))
    im = Image.open(io.BytesIO(data)).convert("RGB")
    d = ImageDraw.Draw(im)
    paper = tuple(int(v) for v in np.median(np.asarray(im).reshape(-1, 3), axis=0))
    h = 0.22 * r.pitch
    for i in picks:
        side = rng.choice(["top", "bottom", "left", "right"])
        x0, y0, x1, y1 = i.x - h, i.y - h * 1.1, i.x + h, i.y + h * 1.1
        box = {"top": (x0, y0, x1, i.y - 0.1 * h), "bottom": (x0, i.y + 0.1 * h, x1, y1),
               "left": (x0, y0, i.x - 0.15 * h, y1), "right": (i.x + 0.15 * h, y0, x1, y1)}[side]
        d.rectangle(box, fill=paper)
    buf = io.BytesIO()
    im.save(buf, "PNG")
    return buf.getvalue(), [(i.row, i.col) for i in picks]


def whole_process(n=6):
    """CPU and wall seconds of ``hashikit convert PICTURE - --to json`` on 15x15 pictures: Tatham
    prints at 150 dpi and hashikit PNGs at 40 px a cell; then Tatham prints with eight digits
    smudged (with the unsure places and corrections they gave)."""
    runs = {"clean": ([], []), "smudged": ([], [])}
    notes = []
    tmp = tempfile.mkdtemp()
    try:
        for seed in range(2 * n):
            kind = "clean" if seed < n else "smudged"
            if kind == "clean" and seed % 2:
                rng = random.Random(5000 + seed)
                pz, sol = random_solution(15, 15, rng)
                data = render.png(pz, ps.in_progress(sol, rng), cell=40)
            else:
                data = pw.tatham_case(f"time{seed}", "15x15m2", 150)[0]
                if kind == "smudged":
                    data, _places = smudged(data, 8, seed)
            path = os.path.join(tmp, f"p{seed}.png")
            with open(path, "wb") as fh:
                fh.write(data)
            r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            proc = subprocess.run([sys.executable, "-m", "hashikit", "convert", path, "-", "--to", "json"],
                                  capture_output=True, text=True)
            runs[kind][1].append(time.perf_counter() - t0)
            r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            runs[kind][0].append(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
            if proc.returncode != 0:
                raise RuntimeError(proc.stderr)
            if kind == "smudged":
                notes.append((proc.stderr.count(": unsure:"), proc.stderr.count(": corrected:")))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return runs, notes


def sets(scale):
    out = {"tatham-print": (tatham, COUNTS["tatham-print"]),
           "tatham-solution": (lambda part, seed: tatham(part, seed, True), COUNTS["tatham-solution"])}
    for e in pw.EFFECTS:
        out[f"fx-{e}"] = (fx(e), FX_COUNT)
    out["stacked"] = (stacked, COUNTS["stacked"])
    out["svg-styles"] = (Svg(), COUNTS["svg-styles"])
    out["hashikit-png"] = (own_png, OWN_COUNT)
    for fam in ps.FAMILIES:
        out[fam] = (drawn(fam), OWN_COUNT)
    out["other-puzzles"] = (others, COUNTS["other-puzzles"])
    return {k: (m, max(1, round(n * scale))) for k, (m, n) in out.items()}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--part", choices=("held", "tune", "both"), default="both")
    ap.add_argument("--scale", type=float, default=1.0, help="pictures per set, as a share of the full run")
    ap.add_argument("--sets", help="comma-separated set names (default: all)")
    ap.add_argument("--out", default=os.path.join(HERE, "results", "pictures.md"))
    ap.add_argument("--keep-failures", metavar="DIR")
    ap.add_argument("--no-time", action="store_true")
    args = ap.parse_args(argv)
    missing = pw.missing("sgt", "gs", "pdftoppm", "chromium", "held-fonts")
    if missing:
        print(missing, file=sys.stderr)
        return 2
    chosen = ["tune", "held"] if args.part == "both" else [args.part]
    all_sets = sets(args.scale)
    names = args.sets.split(",") if args.sets else list(all_sets)
    rows = defaultdict(dict)
    started = time.time()
    load0 = os.getloadavg()
    try:
        for part in chosen:
            for name in names:
                make, count = all_sets[name]
                rows[part][name] = run_set(name, make, part, count, args.keep_failures, lambda s: print(s, flush=True))
    finally:
        for make, _ in all_sets.values():
            if hasattr(make, "close"):
                make.close()
    nob = []
    for name, data in no_boards():
        outcome, _named_, _dt, unsure = judge(data, None, None)
        nob.append((name, outcome, unsure))
    timing = None if args.no_time else whole_process()
    write(args.out, rows, chosen, nob, timing, load0, os.getloadavg(), time.time() - started)
    print(open(args.out).read())
    return 0


def _pct(a, b):
    return f"{a} of {b} ({100 * a / b:.0f}%)" if b else "-"


def write(out, rows, chosen, nob, timing, load0, load1, seconds):
    import platform

    lines = ["# Reading puzzles from pictures", "",
             "Made by `benchmarks/pictures.py` (its docstring says how each set is made and judged). "
             f"Run on {time.strftime('%Y-%m-%d')}, Python {platform.python_version()}, {git_state()}, "
             f"{os.cpu_count()} cores shared with other work (load average {load0[0]:.1f} at the start, "
             f"{load1[0]:.1f} at the end; {seconds / 60:.0f} minutes).", "",
             "## What is tuned on and what is held back", "",
             "- **Digit model** (`scripts/train_digits.py`): trained on islands drawn in the font files of "
             "DejaVu, Liberation, FreeFont, URW base35 (Nimbus Sans, the Helvetica clone Tatham's PostScript "
             "asks for, Nimbus Roman, URW Gothic, ...) and TeX Gyre; never on Noto, Roboto or Open Sans.",
             "- **Tuning part**: the reader's steps and thresholds were adjusted looking at it: Tatham prints of "
             "the games `sgt-bridges` makes from the seeds `tune0`, `tune1`, ... (Ghostscript and Poppler), "
             "camera effects with seeds `tune-...`, SVG boards in training fonts drawn by Chromium, hashikit's "
             "own PNGs and the PIL drawer, and the other puzzles " + ", ".join(OTHERS_TUNE) + ".",
             "- **Held-back part**: never looked at while tuning: Tatham games from the seeds `held0`, `held1`, "
             "..., other camera-effect seeds, SVG boards in the held-back fonts (Noto Sans, Noto Serif, Noto "
             "Mono, Roboto, Roboto Condensed, Open Sans), and other puzzles including kinds the tuning part "
             "never saw (" + ", ".join(k for k in OTHERS_HELD if k not in OTHERS_TUNE) + ").", ""]
    for part in chosen:
        title = {"held": "Held-back part (never used for training or tuning)",
                 "tune": "Tuning part (the reader and the digit model were adjusted on this part)"}[part]
        lines += [f"## {title}", "",
                  "| set | pictures | boards exact | bridges exact | wrong, naming no place | wrong, every error named "
                  "| refused | CPU per picture (median) |", "|---|---|---|---|---|---|---|---|"]
        for name, t in rows[part].items():
            if name == "other-puzzles":
                continue
            lines.append(f"| {name} | {t.n} | {_pct(t.exact if name == 'tatham-solution' else t.board, t.n)} | "
                         f"{_pct(t.bridges_exact, t.with_bridges)} | {t.silent} | {t.all_named} of {t.wrong} | "
                         f"{t.refused} | {statistics.median(t.times):.2f} s |")
        svg = rows[part].get("svg-styles")
        if svg and svg.items:
            by = defaultdict(lambda: [0, 0, 0, 0])
            for traits, outcome, has in svg.items:
                for tr in traits:
                    row = by[tr]
                    row[0] += 1
                    row[1] += outcome in ("exact", "board")
                    row[2] += has
                    row[3] += has and outcome == "exact"
            lines += ["", "The SVG boards by style (a board counts under each of its traits):", "",
                      "| style | pictures | boards exact | games in progress exact |", "|---|---|---|---|"]
            for tr in sorted(by, key=lambda t: (t.startswith("font"), t)):
                n, b, g, ge = by[tr]
                lines.append(f"| {tr} | {n} | {_pct(b, n)} | {_pct(ge, g)} |")
        t = rows[part].get("other-puzzles")
        if t:
            lines += ["", f"Other puzzles' grids ({', '.join(OTHERS_TUNE if part == 'tune' else OTHERS_HELD)}): "
                          f"refused {_pct(t.refused, t.n)}; read as a board {t.wrong} "
                          f"({t.silent} of them with no unsure line)."]
        lines.append("")
    lines += ["## Pictures without a board", "", "| picture | answer |", "|---|---|"]
    for name, outcome, unsure in nob:
        lines.append(f"| {name} | {'refused: ' + unsure[0] if outcome == 'refused' else '**read as a board**'} |")
    lines.append("")
    if timing:
        (cpu, wall), (scpu, swall) = timing[0]["clean"], timing[0]["smudged"]
        notes = timing[1]
        lines += ["## Whole-process time, 15x15 boards", "",
                  f"`python -m hashikit convert PICTURE - --to json` (start-up, decoding, reading, the rules' settling, "
                  f"JSON) on {len(cpu)} pictures (Tatham prints at 150 dpi, hashikit PNGs at 40 px a cell): CPU time of "
                  f"the process (user + system) median {statistics.median(cpu):.2f} s, max {max(cpu):.2f} s; wall time "
                  f"median {statistics.median(wall):.2f} s.", "",
                  f"The same on {len(scpu)} Tatham prints with eight digits half rubbed out (a patch of paper over a "
                  f"part of each): the reader was unsure at {', '.join(str(u + c) for u, c in notes)} places, of which "
                  f"the rules settled {', '.join(str(c) for u, c in notes)}; CPU median {statistics.median(scpu):.2f} s, "
                  f"max {max(scpu):.2f} s; wall median {statistics.median(swall):.2f} s. The wall times follow the "
                  "machine's load; the CPU time is what a picture costs.", ""]
    with open(out, "w") as fh:
        fh.write("\n".join(lines))


if __name__ == "__main__":
    sys.exit(main())
