"""Where a book's time goes, in CPU seconds of one process (which the shared machine's load hardly
changes, unlike wall times): import, load, check (in this process, one puzzle after another), lay
out, import fpdf2, draw and write the PDF; this tree's revision against an older one, the same
catalogue (benchmarks/.cache/book-N.db, made by book_speed.py).

    python benchmarks/book_phases.py [--base REV] [--new REV] [--puzzles 100]
                                     # writes benchmarks/results/book_phases.md
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from _runinfo import extract_package  # noqa: E402
from book_speed import catalogue  # noqa: E402

#: run in a fresh process with the revision's package first on sys.path; prints the phases as JSON
PHASES = r'''
import json, sys, time
c = [time.process_time()]
try:
    from hashikit.publish import book  # the package layout since the restructuring
except ImportError:
    from hashikit import book
c.append(time.process_time())
items = book.load(sys.argv[1])
c.append(time.process_time())
try:
    items = book.order(book.verify(items, workers=1))
except TypeError:  # the older revision checks in this process only
    items = book.order(book.verify(items))
c.append(time.process_time())
opts = book.Options(per_page=4)
laid = book.layout(items, opts)
pages = laid.pages if hasattr(laid, "pages") else laid
c.append(time.process_time())
import fpdf
c.append(time.process_time())
try:
    book.write_pdf(pages, sys.argv[2], opts)
except (TypeError, AttributeError):
    book.write_pdf(pages, sys.argv[2], opts.title)
c.append(time.process_time())
names = ["import hashikit.book", "load", "check (1 process)", "layout", "import fpdf2", "draw and write the PDF"]
print(json.dumps({"phases": dict(zip(names, [b - a for a, b in zip(c, c[1:])])), "pages": len(pages)}))
'''


def phases(src: Path, db: Path, out: Path) -> dict:
    env = dict(os.environ, PYTHONPATH=str(src))
    done = subprocess.run([sys.executable, "-c", PHASES, str(db), str(out)], cwd=src, env=env,
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"phases from {src}: {done.stderr.strip()[-600:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", default="main")
    ap.add_argument("--new", default="HEAD")
    ap.add_argument("--puzzles", type=int, default=100)
    ap.add_argument("--out", default=str(HERE / "results" / "book_phases.md"))
    args = ap.parse_args()
    revs = [subprocess.run(["git", "rev-parse", "--short", r], cwd=ROOT, capture_output=True, text=True,
                           check=True).stdout.strip() for r in (args.base, args.new)]
    db = catalogue(args.puzzles)
    with tempfile.TemporaryDirectory() as tmp:
        seen = {}
        for side, rev in zip(("old", "new"), revs):
            (Path(tmp) / side).mkdir()
            seen[side] = phases(extract_package(rev, Path(tmp) / side), db, Path(tmp) / f"{side}.pdf")
            print(side, seen[side], file=sys.stderr)
    names = list(seen["new"]["phases"])
    rows = [f"| {n} | {seen['old']['phases'][n]:.2f} | {seen['new']['phases'][n]:.2f} |" for n in names]
    total = {s: sum(seen[s]["phases"].values()) for s in seen}
    text = [
        f"# `hashikit book`: CPU seconds by phase, {args.puzzles} puzzles (issue 16.2)",
        "",
        f"One process each, the checks run one after another in it (the command runs them in the batch "
        f"runner's workers); A4, 4 a page; 15x15 puzzles, a quarter of each level. Old: `{revs[0]}` "
        f"({args.base}), {seen['old']['pages']} pages; new: `{revs[1]}` ({args.new}), {seen['new']['pages']} pages.",
        "",
        "| phase | old (CPU s) | new (CPU s) |",
        "|---|---|---|",
        *rows,
        f"| total | {total['old']:.2f} | {total['new']:.2f} |",
        "",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; load average "
        f"{os.getloadavg()[0]:.1f} (CPU seconds are little changed by load; wall times are in book.md).",
        "",
    ]
    Path(args.out).write_text("\n".join(text))
    print("\n".join(text))


if __name__ == "__main__":
    main()
