"""Drawing outputs of two revisions, compared: SVG bytes, PNG pixels, book pages as text and as images.

Every drawing the README shows, made by each revision's ``hashikit`` package on the same inputs:

* ``hashikit render`` of the example, of published puzzles (a 5x5 to a 17x17), of a MAXBRIDGES 4
  board with triple and quadruple bridges, of a 60x60 board; SVG and PNG; ``--solve``,
  ``--show-links``;
* ``solve --svg`` and ``hint --svg`` (a highlighted step);
* the library's ``render.svg``/``render.png`` with highlights, suggested bridges, ignored islands,
  counts above four lines and cell sizes from 12 to 40 px;
* the README's four ``hashikit book`` examples on one catalogue and one folder: every PDF page as
  text (``pdftotext -layout``) and as a picture (``pdftoppm``, 50 dpi), and ``--pages`` as SVG and PNG.

PDFs carry their creation time, so they are compared by their pages, not their bytes.

    python benchmarks/render_outputs.py [--base main] [--new HEAD]
                                       # writes benchmarks/results/render_outputs.md

Both sides are the ``hashikit`` package of a git revision (``--new WORKTREE`` takes the tree as it
is), each run in its own processes on the same inputs, which are made once (by ``--new``).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import platform
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SHARED = ROOT.parent / "shared" / "puzzles" / "real" / "hcmus_csc14003" / "input"
sys.path.insert(0, str(HERE))

from _runinfo import extract_package  # noqa: E402

#: published puzzles drawn (under ../shared), when present
REAL = ("5x5/input-01.txt", "9x9/input-01.txt", "11x11/input-02.txt", "17x17/input-03.txt")

#: the library's calls, run by each side (``render`` is that side's hashikit.render)
LIBRARY = r'''
import sys
from pathlib import Path
from hashikit import render
from hashikit.model import Puzzle, Solution
out = Path(sys.argv[1])
p = Puzzle.from_grid([[3, 0, 4, 0, 1], [0, 0, 0, 0, 0], [2, 0, 2, 0, 0]])
s = Solution({((0, 0), (0, 2)): 2, ((0, 2), (0, 4)): 1, ((0, 0), (2, 0)): 1, ((2, 0), (2, 2)): 1,
              ((0, 2), (2, 2)): 1})
ign = Puzzle(4, 4, [(0, 0, 2), (0, 3, 2), (3, 0, 1), (3, 3, 3), (1, 1, 5)], ignore=[(1, 1)])
big = Puzzle(3, 5, [(0, 0, 12), (0, 4, 12), (2, 0, 1), (2, 4, 1)], maxbridges=8)
bigs = Solution({((0, 0), (0, 4)): 7, ((0, 0), (2, 0)): 1})
cases = {
    "plain": (p, s, {}),
    "hl": (p, s, {"highlight": [(0, 0), ((0, 2), (0, 0)), (1, 1), ((2, 2), (0, 2))], "show_links": True,
                  "title": "a <title> & more"}),
    "suggest": (p, Solution({((0, 0), (0, 2)): 1}), {"highlight": [((0, 0), (2, 0))]}),
    "ignored": (ign, None, {"show_links": True}),
    "counts": (big, bigs, {}),
}
for name, (pz, sol, kw) in cases.items():
    for cell in (None, 12, 19, 20, 27, 40):
        k = dict(kw, cell=cell) if cell else dict(kw)
        (out / f"lib-{name}-{cell}.svg").write_text(render.svg(pz, sol, **k))
        k.pop("title", None)
        (out / f"lib-{name}-{cell}.png").write_bytes(render.png(pz, sol, **k))
'''


def run(src: Path, *argv: str, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(src))
    return subprocess.run([sys.executable, *argv], cwd=cwd, env=env, capture_output=True, text=True)


def hashikit(src: Path, cwd: Path, *argv: str) -> None:
    done = run(src, "-m", "hashikit", *argv, cwd=cwd)
    if done.returncode not in (0, 1):
        raise SystemExit(f"hashikit {' '.join(argv)} (from {src}): exit {done.returncode}: {done.stderr[-600:]}")


def inputs(src: Path, folder: Path) -> None:
    """The puzzles every side draws: made once."""
    folder.mkdir(parents=True)
    shutil.copy(ROOT / "examples" / "prob-bridges.txt", folder / "puzzle.txt")
    for rel in REAL:
        if (SHARED / rel).exists():
            shutil.copy(SHARED / rel, folder / ("real-" + rel.replace("/", "-")))
    hashikit(src, folder, "generate", "--size", "9x9", "--difficulty", "easy", "--maxbridges", "4", "--seed", "5",
             "-o", "mb4.has")
    hashikit(src, folder, "generate", "--size", "60x60", "--islands", "700", "--seed", "3", "-o", "big.has")
    (folder / "state.json").write_text('{"bridges": []}')
    for level, n in (("easy", 5), ("medium", 3), ("hard", 3), ("expert", 2)):
        hashikit(src, folder, "generate", "--size", "8x8", "--difficulty", level, "--count", str(n), "--seed", "7",
                 "--jobs", "1", "--out-dir", f"gen-{level}", "--catalog", "puzzles.db")
    hashikit(src, folder, "generate", "--size", "7x9", "--difficulty", "easy", "--count", "7", "--seed", "9",
             "--jobs", "1", "--out-dir", "easy")


def draw(src: Path, data: Path, out: Path) -> None:
    """Every drawing, by the package at ``src``, into ``out``."""
    work = out / "work"
    shutil.copytree(data, work)
    boards = ["puzzle.txt", "mb4.has", "big.has"] + sorted(p.name for p in work.glob("real-*"))
    for name in boards:
        stem = Path(name).stem
        for ext in ("svg", "png"):
            hashikit(src, work, "render", name, str(out / f"render-{stem}.{ext}"))
            hashikit(src, work, "render", name, str(out / f"render-{stem}-solved.{ext}"), "--solve")
        hashikit(src, work, "render", name, str(out / f"render-{stem}-links.svg"), "--show-links")
    hashikit(src, work, "solve", "puzzle.txt", "--svg", str(out / "solve.svg"))
    hashikit(src, work, "hint", "puzzle.txt", "--state", "state.json", "--svg", str(out / "hint.svg"))
    hashikit(src, work, "hint", "puzzle.txt", "--state", "state.json", "--svg", str(out / "hint.png"))
    done = run(src, "-c", LIBRARY, str(out), cwd=work)
    if done.returncode:
        raise SystemExit(f"the library's calls (from {src}): {done.stderr[-600:]}")
    books = {
        "book1": ["puzzles.db", "-o", "book1.pdf", "--level", "hard", "--per-page", "2"],
        "book2": ["puzzles.db", "-o", "book2.pdf", "--title", "Bridges", "--subtitle", "200 puzzles", "--author",
                  "A. Setter", "--copyright", "Copyright (c) 2026 A. Setter", "--solutions", "separate"],
        "book3": ["easy/", "-o", "book3.pdf", "--paper", "letter", "--binding", "12", "--per-page", "3x2",
                  "--style", "plain", "--limit", "60"],
        "book4": ["puzzles.db", "-o", "book4.pdf", "--pages", "pages/", "--pages-format", "png", "--dpi", "150"],
        "book5": ["puzzles.db", "-o", "book5.pdf", "--pages", "svgpages/", "--style", "plain"],
    }
    for name, argv in books.items():
        hashikit(src, work, "book", *argv, "--jobs", "1")
    for pdf in sorted(work.glob("*.pdf")):
        text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True,
                              check=True).stdout
        (out / f"{pdf.stem}.txt").write_text(text)
        subprocess.run(["pdftoppm", "-r", "50", "-png", str(pdf), str(out / pdf.stem)], check=True)
    for folder in ("pages", "svgpages"):
        for page in sorted((work / folder).iterdir()):
            shutil.copy(page, out / f"{folder}-{page.name}")
    shutil.rmtree(work)


def pixels(path: Path) -> bytes:
    from PIL import Image

    with Image.open(path) as im:
        return im.convert("RGBA").tobytes() + repr(im.size).encode()


def compare(old: Path, new: Path) -> list[tuple[str, str]]:
    """Per output: ``same bytes``, ``same pixels`` (PNG whose bytes differ), ``same text`` or ``differs``."""
    names = sorted({p.name for p in old.iterdir()} | {p.name for p in new.iterdir()})
    rows = []
    for name in names:
        a, b = old / name, new / name
        if not a.exists() or not b.exists():
            rows.append((name, "only in " + ("new" if b.exists() else "old")))
        elif a.read_bytes() == b.read_bytes():
            rows.append((name, "same bytes"))
        elif name.endswith(".png") and pixels(a) == pixels(b):
            rows.append((name, "same pixels"))
        elif name.endswith(".png"):
            rows.append((name, f"differs: {diff_pixels(a, b)}"))
        else:
            rows.append((name, "differs"))
    return rows


def diff_pixels(a: Path, b: Path) -> str:
    from PIL import Image, ImageChops

    with Image.open(a) as x, Image.open(b) as y:
        if x.size != y.size:
            return f"size {x.size} against {y.size}"
        d = ImageChops.difference(x.convert("L"), y.convert("L"))
        hist = d.histogram()
        changed = sum(hist[1:])
        most = max(k for k, n in enumerate(hist) if n)
        return f"{changed} of {x.size[0] * x.size[1]} pixels, grey levels by at most {most}"


def digest(folder: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(folder.iterdir()):
        h.update(p.name.encode() + p.read_bytes())
    return h.hexdigest()[:12]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", default="main", help="the older revision (default main)")
    ap.add_argument("--new", default="WORKTREE", help="the newer revision (default: the tree as it is)")
    ap.add_argument("--keep", metavar="DIR", help="keep both sides' outputs in DIR/old and DIR/new")
    ap.add_argument("--out", default=str(HERE / "results" / "render_outputs.md"))
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        sides = {}
        for side, rev in (("old", args.base), ("new", args.new)):
            (tmp / side).mkdir()
            sides[side] = ROOT if rev == "WORKTREE" else extract_package(rev, tmp / side)
        data = tmp / "inputs"
        inputs(sides["new"], data)
        keep = Path(args.keep) if args.keep else tmp / "outputs"
        for side, src in sides.items():
            (keep / side).mkdir(parents=True, exist_ok=True)
            draw(src, data, keep / side)
            print(f"{side}: {len(list((keep / side).iterdir()))} outputs", file=sys.stderr)
        rows = compare(keep / "old", keep / "new")
    base = subprocess.run(["git", "rev-parse", "--short", args.base], cwd=ROOT, capture_output=True, text=True).stdout
    new = args.new if args.new == "WORKTREE" else subprocess.run(
        ["git", "rev-parse", "--short", args.new], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    tally: dict[str, int] = {}
    for _, verdict in rows:
        tally[verdict.split(":")[0]] = tally.get(verdict.split(":")[0], 0) + 1
    text = [f"# Drawing outputs: `{base.strip()}` ({args.base}) against `{new}`", "",
            f"`python benchmarks/render_outputs.py --base {args.base} --new {args.new}`; Python "
            f"{platform.python_version()}. {len(rows)} outputs: "
            + ", ".join(f"{n} {k}" for k, n in sorted(tally.items())) + ".", "",
            "| output | verdict |", "|---|---|",
            *[f"| {name} | {verdict} |" for name, verdict in rows if verdict != "same bytes"], ""]
    Path(args.out).write_text("\n".join(text))
    print("\n".join(text))


if __name__ == "__main__":
    main()
