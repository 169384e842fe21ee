"""`hashikit book` whole-process times, this tree against an older revision, side by side (issue 16.2).

The same catalogues and the same command line (`hashikit book DB -o OUT.pdf --per-page 4 --paper
a4`) for both, run alternately (old, new, old, new, ...) so the shared machine's load falls on
both alike; medians of the wall times and their ratio, and the page counts each printed.  The
catalogues hold 15x15 puzzles, a quarter of each level, made once by `hashikit generate --count
--catalog` (seed 11) and kept under benchmarks/.cache/.

    python benchmarks/book_speed.py [--base REV] [--new REV] [--repeat N] [--sizes 100 500]
                                     # writes benchmarks/results/book.md

Both sides are the ``hashikit`` package of a git revision (``--new`` default HEAD), extracted once,
so editing the tree while it runs changes nothing.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from _runinfo import extract_package  # noqa: E402

LEVELS = ("easy", "medium", "hard", "expert")
CACHE = HERE / ".cache"


def catalogue(n: int) -> Path:
    """A catalogue of ``n`` 15x15 puzzles, n/4 of each level (made once, then reused)."""
    path = CACHE / f"book-{n}.db"
    if path.exists():
        return path
    CACHE.mkdir(exist_ok=True)
    tmp = CACHE / f"book-{n}.tmp.db"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{tmp}{suffix}").unlink(missing_ok=True)
    for level in LEVELS:
        for _ in range(3):  # on a busy machine a puzzle can miss its time limit: a re-run resumes and retries it
            done = subprocess.run([sys.executable, "-m", "hashikit", "generate", "--size", "15x15", "--difficulty",
                                   level, "--count", str(n // 4), "--seed", "11",
                                   "--out-dir", str(CACHE / f"gen-{n}-{level}"), "--catalog", str(tmp)],
                                  cwd=ROOT, env=_env(ROOT))
            if done.returncode == 0:
                break
        else:
            raise SystemExit(f"could not generate the {level} puzzles of the {n}-puzzle catalogue")
    with sqlite3.connect(tmp) as db:
        assert db.execute("SELECT count(*) FROM puzzles").fetchone()[0] == n
    tmp.rename(path)
    return path


def _env(src: Path) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(src)
    return env


def run(src: Path, db: Path, out: Path) -> tuple[float, int]:
    """One whole `hashikit book` process: its wall time and the pages of the PDF."""
    cmd = [sys.executable, "-m", "hashikit", "book", str(db), "-o", str(out), "--per-page", "4", "--paper", "a4"]
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=src, env=_env(src), capture_output=True, text=True)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} (from {src}): exit {done.returncode}: {done.stderr.strip()[-400:]}")
    info = subprocess.run(["pdfinfo", str(out)], capture_output=True, text=True, check=True).stdout
    return wall, int(re.search(r"Pages:\s+(\d+)", info).group(1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", default="main", help="the older revision (default main)")
    ap.add_argument("--new", default="HEAD", help="the newer revision (default HEAD)")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each side per size")
    ap.add_argument("--sizes", type=int, nargs="+", default=[100, 500])
    ap.add_argument("--out", default=str(HERE / "results" / "book.md"))
    args = ap.parse_args()
    base, new_rev = (subprocess.run(["git", "rev-parse", "--short", rev], cwd=ROOT, capture_output=True, text=True,
                                check=True).stdout.strip() for rev in (args.base, args.new))
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for side in ("old", "new"):
            (Path(tmp) / side).mkdir()
        old_src = extract_package(base, Path(tmp) / "old")
        new_src = extract_package(new_rev, Path(tmp) / "new")
        for n in args.sizes:
            db = catalogue(n)
            times = {"old": [], "new": []}
            pages = {}
            for k in range(args.repeat):
                for side, src in (("old", old_src), ("new", new_src)):
                    wall, pages[side] = run(src, db, Path(tmp) / f"{side}-{n}.pdf")
                    times[side].append(wall)
                    print(f"{n} puzzles, {side} run {k + 1}: {wall:.2f} s, {pages[side]} pages", file=sys.stderr)
            old, new = statistics.median(times["old"]), statistics.median(times["new"])
            rows.append(f"| {n} | {old:.2f} | {new:.2f} | {old / new:.1f}x | {pages['old']} | {pages['new']} | "
                        f"{', '.join(f'{t:.1f}' for t in times['old'])} | {', '.join(f'{t:.1f}' for t in times['new'])} |")
            write(args, base, new_rev, rows)  # after each size: a long run that stops keeps what it measured


def write(args, base: str, new: str, rows: list[str]) -> None:
    load = os.getloadavg()
    text = [
        "# `hashikit book`: whole-process times (issue 16.2)",
        "",
        f"`{' '.join(['hashikit', 'book', 'DB', '-o', 'OUT.pdf', '--per-page', '4', '--paper', 'a4'])}` on catalogues "
        "of 15x15 puzzles (a quarter of each level), run alternately old/new; medians of "
        f"{args.repeat} runs each. Old: `{base}` ({args.base}), every board an SVG read back by fpdf2. New: "
        f"`{new}` ({args.new}), boards drawn straight into the page as vector paths, puzzles checked in the batch "
        "runner's workers. The new book has more pages for the same puzzles: a copyright and a contents page, "
        "sections by level starting on right-hand pages, solutions by section.",
        "",
        "| puzzles | old median (s) | new median (s) | speed-up | old pages | new pages | old runs (s) | new runs (s) |",
        "|---|---|---|---|---|---|---|---|",
        *rows,
        "",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; load average "
        f"at the end {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} (the machine is shared: compare the ratio, "
        "not the seconds).",
        "",
    ]
    Path(args.out).write_text("\n".join(text))
    print("\n".join(text))


if __name__ == "__main__":
    main()
