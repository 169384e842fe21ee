"""Everything of a large `hashikit solve` around the engine (reading, the model's geometry, the
solution, the rule check, the JSON answer, the garbage collector), this revision beside another in
the same sitting.

Two measures, sides alternating, on the boards of ``scale_sizes.py`` (the paper's generator):

1. **Stages** (CPU seconds, median of ``--repeat`` fresh processes a side): what ``hashikit solve
   FILE --format json -o OUT`` does around the engine, each stage timed alone in the order the
   command runs it (with the collector set as the command sets it): importing the command, reading the file, admitting the puzzle (links,
   incidence, capacities), the crossings and their partners (which the engine reads), the
   solution made from the engine's counts (the counts of the side's own answer), the rule check
   every answer gets, and the JSON report written.  A fresh process holds only the puzzle, so the
   collector costs here far less than beside the engine's formula: that is measure 2.
2. **Whole process** (median of ``--runs``): the command from start to exit, CPU seconds (its own
   and its children's), wall seconds, peak memory, and the CPU seconds the cyclic garbage
   collector took in it (timed by a ``gc.callbacks`` hook installed before the command starts).

    python benchmarks/scale_rest.py                              # writes benchmarks/results/scale_rest.md
    python benchmarks/scale_rest.py --sizes 10000 --runs 1 --out /tmp/r.md
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
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
from scale_sizes import board  # noqa: E402

STAGES = ("import", "read", "admit", "crossings", "solution", "check", "json")

#: one fresh process: the stages around the engine, timed alone (argv: puzzle, answer, out)
PROBE = r"""
import json, sys, time
clock = time.process_time
t = clock()
from hashikit import service
from hashikit.cli import commands
from hashikit.cli.common import print_json
from hashikit.model import Solution
from hashikit.service.shapes import SolveReport
from hashikit.service.solving import assert_checked
times = {"import": clock() - t}
from types import SimpleNamespace
from hashikit.cli import common
getattr(common, "collect_seldom", lambda args: None)(SimpleNamespace(whole_process=True))  # as the command does
path, answer, out = sys.argv[1:4]
counts = None
def stage(name, fn):
    t = clock()
    value = fn()
    times[name] = clock() - t
    return value
puzzle = stage("read", lambda: service.load_puzzle(path).puzzle)
stage("admit", lambda: service.admit_file(path, puzzle))
given = Solution.from_list(json.load(open(answer))["bridges"])
counts = given.counts(puzzle)
stage("crossings", lambda: (puzzle.crossings, puzzle.crossing_partners))
solution = stage("solution", lambda: Solution.from_counts(puzzle, counts))
assert solution == given
stage("check", lambda: assert_checked(puzzle, [solution]))
stage("json", lambda: print_json(SolveReport(status="solved", bridges=solution.to_list(), engine="sat"), out))
print(json.dumps(times))
"""

#: the whole command, with the collector's passes timed (argv: the command's arguments)
WHOLE = r"""
import gc, json, sys, time
spent = [0.0, 0.0]
def hook(phase, info):
    if phase == "start":
        spent[1] = time.process_time()
    else:
        spent[0] += time.process_time() - spent[1]
gc.callbacks.append(hook)
sys.argv = ["hashikit", *sys.argv[1:]]
from hashikit.cli import main
code = main()
sys.stderr.write("\nGC " + json.dumps(spent[0]) + "\n")
sys.exit(code)
"""


def probe(src: Path, puzzle: Path, answer: Path, out: Path) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=str(src))
    done = subprocess.run([sys.executable, "-c", PROBE, str(puzzle), str(answer), str(out)], cwd=src, env=env,
                          capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"the stages from {src}: {done.stderr[-600:]}")
    return json.loads(done.stdout.splitlines()[-1])


def whole(src: Path, puzzle: Path, out: Path) -> dict:
    env = dict(os.environ, PYTHONPATH=str(src))
    cmd = [sys.executable, "-c", WHOLE, "solve", str(puzzle), "--format", "json", "-o", str(out)]
    out.unlink(missing_ok=True)
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=src, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    _pid, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    err = proc.stderr.read()
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        raise SystemExit(f"{' '.join(cmd[3:])} from {src}: exit {code}: {err[-400:]}")
    gc_line = [ln for ln in err.splitlines() if ln.startswith("GC ")]
    report = json.loads(out.read_text())
    return {"cpu": usage.ru_utime + usage.ru_stime, "wall": wall, "mb": usage.ru_maxrss / 1024,
            "gc": float(gc_line[-1][3:]) if gc_line else float("nan"), "status": report["status"],
            "bridges": report["bridges"]}


def load() -> float:
    return os.getloadavg()[0]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", default="main", help="the revision to compare with (default: main)")
    ap.add_argument("--sizes", type=int, nargs="+", default=[10000, 100000])
    ap.add_argument("--repeat", type=int, default=5, help="fresh processes a side for the stages")
    ap.add_argument("--runs", type=int, nargs="+", default=[5, 2],
                    help="whole-process runs a side, for each size in turn (the last repeats)")
    ap.add_argument("--out", type=Path, default=HERE / "results" / "scale_rest.md")
    args = ap.parse_args()

    base_rev = subprocess.run(["git", "rev-parse", "--short", args.base], cwd=ROOT, capture_output=True,
                              text=True, check=True).stdout.strip()
    head_rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                              text=True, check=True).stdout.strip()
    tmp = Path(tempfile.mkdtemp(prefix="scale-rest-"))
    sides = {"old": extract_package(args.base, tmp), "new": ROOT}
    rows = []
    started = time.strftime("%d %b %Y, %H:%M UTC", time.gmtime())
    for i, n in enumerate(args.sizes):
        puzzle = board(n)
        runs = args.runs[min(i, len(args.runs) - 1)]
        load_start = load()
        wholes: dict[str, list[dict]] = {"old": [], "new": []}
        for _ in range(runs):
            for side, src in sides.items():
                wholes[side].append(whole(src, puzzle, tmp / f"{side}-{n}.json"))
                print(n, side, {k: v for k, v in wholes[side][-1].items() if k != "bridges"}, file=sys.stderr)
        same = all(w["bridges"] == wholes["old"][0]["bridges"] for side in wholes for w in wholes[side])
        stages: dict[str, list[dict[str, float]]] = {"old": [], "new": []}
        for _ in range(args.repeat):
            for side, src in sides.items():
                stages[side].append(probe(src, puzzle, tmp / f"{side}-{n}.json", tmp / f"{side}-{n}-probe.json"))
        rows.append({"n": n, "whole": wholes, "stages": stages, "same": same, "load": (load_start, load())})

    lines = [
        "# Around the engine: reading, geometry, the solution, the check and the answer of a large solve",
        "",
        f"`python benchmarks/scale_rest.py` ({started}): old `{base_rev}` ({args.base}), new `{head_rev}` (HEAD), "
        "sides alternating in one sitting, both run from their source trees. Boards: `scale_sizes.py`'s (the paper's "
        "generator, seed 1). CPU seconds; medians.",
        "",
        "## Stages around the engine (fresh process each, median of "
        f"{args.repeat})",
        "",
        "| islands | side | " + " | ".join(STAGES) + " | sum |",
        "|---:|---|" + "---:|" * (len(STAGES) + 1),
    ]
    for row in rows:
        for side in ("old", "new"):
            med = {s: statistics.median(t[s] for t in row["stages"][side]) for s in STAGES}
            lines.append(f"| {row['n']:,} | {side} | " + " | ".join(f"{med[s]:.3f}" for s in STAGES)
                         + f" | {sum(med.values()):.2f} |")
    lines += ["", "## The whole command (`hashikit solve FILE --format json -o OUT`)", "",
              "| islands | runs a side | old CPU (s) | new CPU (s) | old/new | old GC (s) | new GC (s) | old wall (s) | "
              "new wall (s) | old peak MB | new peak MB | same bridges | load (start, end) |",
              "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|"]
    for row in rows:
        w = {side: {k: statistics.median(r[k] for r in row["whole"][side]) for k in ("cpu", "wall", "mb", "gc")}
             for side in ("old", "new")}
        lines.append(f"| {row['n']:,} | {len(row['whole']['new'])} | {w['old']['cpu']:.2f} | {w['new']['cpu']:.2f} | "
                     f"{w['old']['cpu'] / w['new']['cpu']:.2f}x | {w['old']['gc']:.2f} | {w['new']['gc']:.2f} | "
                     f"{w['old']['wall']:.2f} | {w['new']['wall']:.2f} | {w['old']['mb']:.0f} | {w['new']['mb']:.0f} | "
                     f"{row['same']} | {row['load'][0]:.1f}, {row['load'][1]:.1f} |")
    lines += ["", f"Machine: {platform.machine()}, {os.cpu_count()} cores shared with other work, Python "
              f"{platform.python_version()}; the 1-minute load average at the start and end of each size is in the "
              "table. Whole-process CPU is dominated by the engine, whose time varies run to run by more than "
              "everything measured above: compare the stages, and the collector's seconds, side by side.", ""]
    args.out.write_text("\n".join(lines))
    shutil.rmtree(tmp, ignore_errors=True)
    print(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
