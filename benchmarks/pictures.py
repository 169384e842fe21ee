"""How well hashikit reads puzzles from pictures (issue 17): exact boards per style, games in
progress, no-board pictures, and the whole-process time per picture.

    .venv/bin/python benchmarks/pictures.py [--per-style 20] [--part held|tune|both] [--no-web] [--no-book]

The pictures come from renderers the reader was not built from:

* ``hashikit-png``: hashikit's own renderer (render.png, the SVG through resvg) at 15-60 px a cell;
* ``web-light``, ``web-dark``, ``web-phone``: the web page in headless Chromium (Debian's, through
  Playwright), the board's section screenshotted with its toolbar and help text, 1280x900 light,
  dark mode, and a 390x844 phone (device scale 2; the board after Fit);
* ``book``: a page of ``hashikit book`` (one puzzle a page, A4) through pdftoppm at 60-150 dpi;
* ``clean``, ``paper``, ``dark``, ``plain``, ``photo``: tests/picture_styles.py, a separate drawer
  (PIL; 12 DejaVu and Liberation faces; circles or plain numbers; dots, grid lines or none; white,
  tinted and dark paper; titles; ``photo``: 15-80 px a cell, turned up to 3 degrees, blur, noise,
  JPEG quality 40-85).

Every other picture carries a game in progress (about half of the solution's bridges, some
doubles drawn single).  A board is exact when every island, number and relative position is
right and nothing is extra (the empty rows or columns at the board's edge are not counted: a
picture need not show them); a game in progress is exact when the board and every bridge are.
The reader's threshold and rules were tuned on the ``tune`` part (seeds 0..N-1); the table reports
the ``held`` part (seeds 1000..), which the tuning never saw.  No-board pictures (blank, noise,
text with numbers, a table of numbers, a calendar, shapes) must all be refused.  The time is the
whole process, ``python -m hashikit convert PICTURE - --to json``, on 15x15 boards.
"""

from __future__ import annotations

import argparse
import base64
import io
import json
import os
import random
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

import picture_styles as ps  # noqa: E402

from hashikit import render
from hashikit.formats import picture  # noqa: E402
from hashikit.errors import HashikitError  # noqa: E402
from hashikit.generate import random_solution  # noqa: E402
from hashikit.model import Solution  # noqa: E402

CHROMIUM = os.environ.get("HASHIKIT_CHROMIUM", "/usr/bin/chromium")


def norm(islands, bridges):
    r0 = min(r for r, c, n in islands)
    c0 = min(c for r, c, n in islands)
    isl = frozenset((r - r0, c - c0, n) for r, c, n in islands)
    br = frozenset(((a[0] - r0, a[1] - c0), (b[0] - r0, b[1] - c0), k) for (a, b), k in bridges.items())
    return isl, br


def case(seed: int, size_lo=7, size_hi=15):
    rng = random.Random(seed)
    rows, cols = rng.randint(size_lo, size_hi), rng.randint(size_lo, size_hi)
    pz, sol = random_solution(rows, cols, rng)
    bridges = ps.in_progress(sol, rng) if seed % 2 else Solution({})
    return rng, pz, bridges


# -- the renderers ---------------------------------------------------------------------------

def own_png(seed):
    rng, pz, br = case(seed)
    return render.png(pz, br if br.bridges else None, cell=rng.randint(15, 60)), pz, br


def synthetic(family):
    def make(seed):
        rng, pz, br = case(seed)
        return ps.draw(pz, br, ps.random_style(rng, family)), pz, br
    return make


class Web:
    """The web page served by the app in a thread, screenshotted by Chromium."""

    def __init__(self):
        import socket
        import threading

        import uvicorn
        from playwright.sync_api import sync_playwright

        from hashikit.web.app import create_app

        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}/"
        self.srv = uvicorn.Server(uvicorn.Config(create_app(allowed_hosts=["127.0.0.1"]), log_level="warning",
                                                 lifespan="off"))
        threading.Thread(target=self.srv.run, kwargs={"sockets": [self.sock]}, daemon=True).start()
        while not self.srv.started:
            time.sleep(0.05)
        self.pw = sync_playwright().start()
        self.browser = self.pw.chromium.launch(executable_path=CHROMIUM, headless=True,
                                               args=["--no-sandbox", "--disable-gpu"])

    def shot(self, pz, br, mode):
        from hashikit.formats.jsonfmt import puzzle_data

        obj = puzzle_data(pz)
        code = base64.urlsafe_b64encode(json.dumps(obj).encode()).decode().rstrip("=")
        counts = br.counts(pz) if br.bridges else []
        frag = f"#j={code}" + (f"&b={''.join(map(str, counts))}" if any(counts) else "")
        if mode == "phone":
            ctx = self.browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                                           is_mobile=True, has_touch=True)
        else:
            ctx = self.browser.new_context(viewport={"width": 1280, "height": 900},
                                           color_scheme="dark" if mode == "dark" else "light")
        page = ctx.new_page()
        page.goto(self.url + frag)
        page.wait_for_selector("#board .island")
        page.wait_for_timeout(300)
        if mode == "phone":  # the whole board in view (Fit), as a player would take it
            page.click("#zoom-fit")
            page.wait_for_timeout(300)
            page.locator("#board-wrap").scroll_into_view_if_needed()
            data = page.locator("#board-wrap").screenshot()
        else:
            data = page.locator("#play").screenshot()
        ctx.close()
        return data

    def close(self):
        self.browser.close()
        self.pw.stop()
        self.srv.should_exit = True


def web(mode, w: Web):
    def make(seed):
        rng, pz, br = case(seed, 7, 12)
        return w.shot(pz, br, mode), pz, br
    return make


def book(seed):
    from hashikit.generate import generate_unique

    rng = random.Random(seed)
    size = rng.randint(7, 12)
    pz, sol, _grade = generate_unique(size, size, "easy", seed=seed)
    tmp = tempfile.mkdtemp()
    try:
        src = os.path.join(tmp, "p")
        os.mkdir(src)
        from hashikit.formats import write_text

        with open(os.path.join(src, "p.txt"), "w") as fh:
            fh.write(write_text(pz, "grid"))
        pdf = os.path.join(tmp, "b.pdf")
        subprocess.run([sys.executable, "-m", "hashikit", "book", src, "-o", pdf, "--per-page", "1"], check=True,
                       capture_output=True)
        dpi = rng.choice([60, 80, 100, 150])
        subprocess.run(["pdftoppm", "-r", str(dpi), "-f", "2", "-l", "2", "-png", pdf, os.path.join(tmp, "pg")],
                       check=True)
        page = [f for f in os.listdir(tmp) if f.startswith("pg")][0]
        with open(os.path.join(tmp, page), "rb") as fh:
            return fh.read(), pz, Solution({})
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


# -- pictures without a board ------------------------------------------------------------------

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
    im = Image.new("RGB", (500, 400), "white")
    d = ImageDraw.Draw(im)
    for r in range(8):
        for c in range(6):
            d.text((20 + 80 * c, 20 + 45 * r), f"{(r * 37 + c * 11) % 90 + 10}", font=font, fill="black")
    out.append(("table of numbers", png(im)))
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
    for q in (30, 60):
        buf = io.BytesIO()
        Image.fromarray(rs.integers(100, 160, (300, 400), dtype=np.uint8)).save(buf, "JPEG", quality=q)
        out.append((f"grey JPEG q{q}", buf.getvalue()))
    return out


# -- running ----------------------------------------------------------------------------------

def judge(data, pz, br):
    t0 = time.perf_counter()
    try:
        r = picture.read_picture(data)
        got = norm([(i.row, i.col, i.number) for i in r.puzzle.islands], r.bridges.bridges)
        unsure = len(r.unsure)
    except HashikitError:
        got, unsure = (None, None), 0
    dt = time.perf_counter() - t0
    want = norm([(i.row, i.col, i.number) for i in pz.islands], br.bridges)
    board = got[0] == want[0]
    return board, board and got[1] == want[1], bool(br.bridges), unsure, dt, (not board and unsure > 0)


def whole_process(n=8):
    """Seconds for ``python -m hashikit convert PICTURE - --to json`` on 15x15 pictures."""
    import resource

    times, cpu = [], []
    tmp = tempfile.mkdtemp()
    try:
        for seed in range(n):
            rng = random.Random(5000 + seed)
            pz, sol = random_solution(15, 15, rng)
            data = (render.png(pz, sol, cell=40) if seed % 2 else
                    ps.draw(pz, ps.in_progress(sol, rng), ps.random_style(rng, "clean")))
            path = os.path.join(tmp, f"p{seed}.png")
            with open(path, "wb") as fh:
                fh.write(data)
            t0 = time.perf_counter()
            r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            proc = subprocess.run([sys.executable, "-m", "hashikit", "convert", path, "-", "--to", "json"],
                                  capture_output=True, text=True)
            times.append(time.perf_counter() - t0)
            r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu.append(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
            assert proc.returncode == 0, proc.stderr
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return times, cpu


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--per-style", type=int, default=20)
    ap.add_argument("--part", choices=("held", "tune", "both"), default="both")
    ap.add_argument("--no-web", action="store_true")
    ap.add_argument("--no-book", action="store_true")
    ap.add_argument("--out", default=os.path.join(HERE, "results", "pictures.md"))
    ap.add_argument("--keep-failures", metavar="DIR")
    args = ap.parse_args(argv)

    styles = {"hashikit-png": own_png}
    for fam in ps.FAMILIES:
        styles[fam] = synthetic(fam)
    w = None
    if not args.no_web and os.path.exists(CHROMIUM):
        w = Web()
        for mode in ("light", "dark", "phone"):
            styles[f"web-{mode}"] = web(mode, w)
    if not args.no_book and shutil.which("pdftoppm"):
        styles["book"] = book
    parts = {"tune": range(args.per_style), "held": range(1000, 1000 + args.per_style)}
    chosen = ["tune", "held"] if args.part == "both" else [args.part]
    rows = defaultdict(lambda: defaultdict(lambda: [0, 0, 0, 0, 0, [], 0]))
    try:
        for part in chosen:
            for name, make in styles.items():
                n = args.per_style if name not in ("book",) else max(4, args.per_style // 3)
                for seed in list(parts[part])[:n]:
                    data, pz, br = make(seed)
                    board, game, has, unsure, dt, flagged = judge(data, pz, br)
                    row = rows[part][name]
                    row[0] += 1
                    row[1] += board
                    row[2] += has
                    row[3] += game if has else 0
                    row[4] += flagged
                    row[5].append(dt)
                    if not game and args.keep_failures:
                        os.makedirs(args.keep_failures, exist_ok=True)
                        with open(os.path.join(args.keep_failures, f"{part}-{name}-{seed}.img"), "wb") as fh:
                            fh.write(data)
                    print(part, name, seed, "board" if board else "MISREAD", "game" if game else "", flush=True)
    finally:
        if w is not None:
            w.close()
    nob = [(name, picture_refused(data)) for name, data in no_boards()]
    times = whole_process()
    write_table(args.out, rows, chosen, nob, times)
    print(open(args.out).read())
    return 0


def picture_refused(data):
    try:
        picture.read_picture(data)
    except HashikitError as exc:
        return str(exc)
    return None


def write_table(out, rows, chosen, nob, timing):
    import platform

    lines = ["# Reading puzzles from pictures", "",
             "Made by `benchmarks/pictures.py` (its docstring says how the pictures are made and judged). "
             f"Run on {time.strftime('%Y-%m-%d')}, Python {platform.python_version()}, "
             f"{os.cpu_count()} cores shared with other work.", ""]
    for part in chosen:
        title = {"held": "Held-back part (seeds 1000 and up; never used for tuning)",
                 "tune": "Tuning part (seeds from 0; the reader was adjusted on these)"}[part]
        lines += [f"## {title}", "",
                  "| style | pictures | boards exact | games in progress | bridges exact | misread but flagged unsure "
                  "| reading time per picture (median, in-process) |", "|---|---|---|---|---|---|---|"]
        tot = [0, 0, 0, 0, 0]
        for name, r in rows[part].items():
            lines.append(f"| {name} | {r[0]} | {r[1]} ({100 * r[1] / r[0]:.0f}%) | {r[2]} | "
                         f"{r[3]} ({100 * r[3] / max(1, r[2]):.0f}%) | {r[4]} | {statistics.median(r[5]):.3f} s |")
            for i in range(5):
                tot[i] += r[i]
        lines.append(f"| **all** | {tot[0]} | **{tot[1]} ({100 * tot[1] / tot[0]:.1f}%)** | {tot[2]} | "
                     f"**{tot[3]} ({100 * tot[3] / max(1, tot[2]):.1f}%)** | {tot[4]} | |")
        lines.append("")
    lines += ["## Pictures without a board", "", "| picture | answer |", "|---|---|"]
    for name, refused in nob:
        lines.append(f"| {name} | {'refused: ' + refused if refused else '**read as a board (silent misread)**'} |")
    silent = sum(1 for _, r in nob if not r)
    lines += ["", f"Silent misreads: {silent} of {len(nob)}.", "",
              "## Whole-process time, 15x15 boards", "",
              "`python -m hashikit convert PICTURE - --to json` (start-up, imports, decoding, reading, JSON), "
              f"{len(timing[0])} pictures (40 px a cell, about 620x620 px): wall time median "
              f"{statistics.median(timing[0]):.2f} s (max {max(timing[0]):.2f} s); CPU time of the process (user + "
              f"system) median {statistics.median(timing[1]):.2f} s (max {max(timing[1]):.2f} s). The wall time "
              "depends on the load of the shared machine; the CPU time is what one picture costs.", ""]
    with open(out, "w") as fh:
        fh.write("\n".join(lines))


if __name__ == "__main__":
    sys.exit(main())
