"""Scaling: `hashikit solve` as a whole process on the paper's generator at 1k to 100k islands,
this revision beside an older one in the same sitting, with the fitted exponent of time against islands.

Boards: ``hashikit generate --islands N --size SxS --alpha 50 --beta 5 --seed 1``
(Coelho et al.'s generator; the sides keep the island density near 0.156), made once into
``benchmarks/.cache``.  Each run is one process, ``python -m hashikit solve FILE --format json -o OUT``,
timed from start to exit (reading, model, solving, the rule check every answer gets, writing):
wall time, CPU time (its own and its children's) and peak memory: of the largest one process
(``os.wait4``), and of the process and its children together (their proportional set sizes summed,
sampled every quarter second: a solve may fork a portfolio of solvers).  Sides alternate old/new; each answer is
checked again here by the rule checker.  ``--unique`` runs (prove uniqueness or find a second
solution) are timed on the new side at the sizes given.  The old side gets ``--base-timeout``
seconds a run: one that takes longer is ended and shown as "> T".

    python benchmarks/scale_sizes.py                       # writes benchmarks/results/scale_sizes.md
    python benchmarks/scale_sizes.py --sizes 1000 10000 --repeat 1 --out /tmp/s.md
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))
from _runinfo import extract_package  # noqa: E402

CACHE = HERE / ".cache"
#: islands -> board side (the sides of the issue's table: density about 0.156)
SIDES = {1000: 80, 5000: 178, 10000: 252, 30000: 437, 100000: 800}


def board(n: int) -> Path:
    """The board of ``n`` islands (made once with this checkout's generator, then reused)."""
    path = CACHE / f"scale-{n}.txt"
    if not path.exists():
        CACHE.mkdir(exist_ok=True)
        side = SIDES.get(n) or round(math.sqrt(n / 0.156))
        tmp = CACHE / f"scale-{n}.tmp.txt"
        subprocess.run([sys.executable, "-m", "hashikit", "generate", "--islands", str(n), "--size", f"{side}x{side}",
                        "--alpha", "50", "--beta", "5", "--seed", "1", "-o", str(tmp)],
                       cwd=ROOT, check=True, capture_output=True)
        tmp.rename(path)
    return path


def run(src: Path, puzzle: Path, out: Path, extra: list[str], timeout: float | None) -> dict:
    """One whole `hashikit solve` process from ``src``: wall and CPU seconds, peak memory, its stats."""
    cmd = [sys.executable, "-m", "hashikit", "solve", str(puzzle), "--format", "json", "-o", str(out), *extra]
    env = dict(os.environ, PYTHONPATH=str(src))
    out.unlink(missing_ok=True)
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=src, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    timed_out = False
    tree_mb, sampled = 0.0, 0.0
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if time.perf_counter() - sampled > 0.25:
            tree_mb, sampled = max(tree_mb, tree_pss(proc.pid)), time.perf_counter()
        if timeout is not None and time.perf_counter() - start > timeout:
            proc.kill()
            timed_out = True
            pid, status, usage = os.wait4(proc.pid, 0)
            break
        time.sleep(0.02)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    row = {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "mb": usage.ru_maxrss / 1024,
           "tree_mb": tree_mb, "timed_out": timed_out, "exit": proc.returncode}
    if timed_out:
        return row
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)} (from {src}): exit {proc.returncode}: {proc.stderr.read().decode()[-400:]}")
    report = json.loads(out.read_text())
    row["stats"] = report.get("stats", {})
    row["status"] = report["status"]
    row["unique"] = report.get("unique")
    row["valid"] = checked(puzzle, report)
    return row


def tree_pss(root: int) -> float:
    """MB: the proportional set sizes of ``root`` and its descendants, summed (0 where /proc lacks them)."""
    total, todo = 0.0, [root]
    while todo:
        pid = todo.pop()
        try:
            with open(f"/proc/{pid}/smaps_rollup") as f:
                total += next(int(line.split()[1]) for line in f if line.startswith("Pss:")) / 1024
            for task in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{task}/children") as f:
                    todo.extend(int(c) for c in f.read().split())
        except (OSError, StopIteration, ValueError):
            continue
    return total


def checked(puzzle_file: Path, report: dict) -> bool:
    """The answer (and a second solution, if any) passes the rule checker of this checkout."""
    from hashikit.checker import check
    from hashikit.model import Solution
    from hashikit.service import load_puzzle

    puzzle = load_puzzle(str(puzzle_file)).puzzle
    sols = [report["bridges"]] + ([report["second"]] if report.get("second") else [])
    return report["status"] == "solved" and all(check(puzzle, Solution.from_list(s)).ok for s in sols)


def fit(points: list[tuple[int, float]]) -> float | None:
    """The exponent b of time = a * islands^b, least squares in log-log."""
    if len(points) < 2:
        return None
    xs = [math.log(n) for n, _ in points]
    ys = [math.log(t) for _, t in points]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", default="main", help="the older revision (default main)")
    ap.add_argument("--new", default="HEAD", help="the newer revision (default HEAD)")
    ap.add_argument("--sizes", type=int, nargs="+", default=sorted(SIDES))
    ap.add_argument("--repeat", type=int, default=3, help="runs of each side per size up to 10,000 islands (1 above)")
    ap.add_argument("--unique-sizes", type=int, nargs="*", default=[1000, 5000, 10000])
    ap.add_argument("--base-timeout", type=float, default=300.0, help="seconds an old-side run may take")
    ap.add_argument("--out", default=str(HERE / "results" / "scale_sizes.md"))
    args = ap.parse_args()
    revs = {side: subprocess.run(["git", "rev-parse", "--short", rev], cwd=ROOT, capture_output=True, text=True,
                                 check=True).stdout.strip() for side, rev in (("old", args.base), ("new", args.new))}
    rows: list[dict] = []
    with tempfile.TemporaryDirectory() as tmp:
        srcs = {}
        for side in ("old", "new"):
            (Path(tmp) / side).mkdir()
            srcs[side] = extract_package(revs[side], Path(tmp) / side)
        for n in args.sizes:
            puzzle = board(n)
            repeat = args.repeat if n <= 10000 else 1
            row = {"n": n, "old": [], "new": [], "unique": [], "load": [os.getloadavg()[0]]}
            for k in range(repeat):
                for side in ("old", "new"):
                    if side == "old" and row["old"] and row["old"][-1]["timed_out"]:
                        continue  # the old side was ended once at this size: not again
                    r = run(srcs[side], puzzle, Path(tmp) / f"{side}.json", [],
                            args.base_timeout if side == "old" else None)
                    row[side].append(r)
                    print(f"{n} islands, {side} run {k + 1}: {r['wall']:.2f} s, {r['mb']:.0f} MB"
                          + (" (ended)" if r["timed_out"] else f", valid={r['valid']}"), file=sys.stderr)
            if n in args.unique_sizes:
                for _ in range(repeat):
                    r = run(srcs["new"], puzzle, Path(tmp) / "unique.json", ["--unique"], None)
                    row["unique"].append(r)
                    print(f"{n} islands, new --unique: {r['wall']:.2f} s, unique={r['unique']}", file=sys.stderr)
            row["load"].append(os.getloadavg()[0])
            rows.append(row)
            write(args, revs, rows)  # after each size: a long run that stops keeps what it measured
    ok = all(r["valid"] for row in rows for side in ("new", "unique") for r in row[side])
    ok = ok and all(r["valid"] for row in rows for r in row["old"] if not r["timed_out"])
    return 0 if ok else 1


def med(runs: list[dict], key: str) -> float:
    return statistics.median(r[key] for r in runs)


def write(args, revs: dict, rows: list[dict]) -> None:
    lines = [
        "# Scaling: `hashikit solve` from 1,000 to 100,000 islands, whole process",
        "",
        "`python benchmarks/scale_sizes.py`: boards from the paper's generator (`hashikit generate --islands N "
        "--size SxS --alpha 50 --beta 5 --seed 1`), each run one process "
        "`python -m hashikit solve FILE --format json -o OUT` from start to exit (reading, model, solving, the "
        "rule check every answer gets, writing). Old and new alternate in the same sitting; medians of "
        f"{args.repeat} runs each up to 10,000 islands, one run above. Old: `{revs['old']}` ({args.base}); "
        f"new: `{revs['new']}` ({args.new}). Every answer shown was checked again here by the rule checker. "
        f"An old run longer than {args.base_timeout:g} s was ended (\"> T\").",
        "",
        "| islands | board | old wall (s) | new wall (s) | old/new | old CPU (s) | new CPU (s) | new rounds | new held / small / global "
        "solves | old peak MB | new peak MB | old / new tree MB | new `--unique` (s) | unique / solve | unique? | valid | load (start, end) |",
        "|---:|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---|---:|---:|---|---|---|",
    ]
    for row in rows:
        n, old, new, uniq = row["n"], row["old"], row["new"], row["unique"]
        side = SIDES.get(n, "?")
        done_old = [r for r in old if not r["timed_out"]]
        old_wall = f"{med(done_old, 'wall'):.2f}" if done_old else f"> {args.base_timeout:g}"
        new_wall = med(new, "wall")
        old_cpu = f"{med(done_old, 'cpu'):.2f}" if done_old else ""
        ratio = (f"{med(done_old, 'wall') / new_wall:.1f}x" if done_old
                 else f"> {args.base_timeout / new_wall:.1f}x" if new_wall < args.base_timeout else "?")
        st = new[0]["stats"]
        u = (f"{med(uniq, 'wall'):.2f}", f"{med(uniq, 'wall') / new_wall:.2f}x", str(uniq[0]["unique"])) if uniq else ("", "", "")
        valid = all(r["valid"] for r in new + uniq + done_old)
        lines.append(
            f"| {n:,} | {side}x{side} | {old_wall} | {new_wall:.2f} | {ratio} | {old_cpu} | {med(new, 'cpu'):.2f} | "
            f"{st.get('rounds', '')} | {st.get('local_solves', 0)} / {st.get('small_solves', 0)} / {st.get('global_solves', '')} | "
            f"{max(r['mb'] for r in old):.0f} | {max(r['mb'] for r in new):.0f} | "
            f"{max(r['tree_mb'] for r in old):.0f} / {max(r['tree_mb'] for r in new):.0f} | {u[0]} | {u[1]} | {u[2]} | {valid} | "
            f"{row['load'][0]:.1f}, {row['load'][1]:.1f} |")
    big = [(row["n"], med(row["new"], "wall")) for row in rows if row["n"] >= 10000]
    big_cpu = [(row["n"], med(row["new"], "cpu")) for row in rows if row["n"] >= 10000]
    every = [(row["n"], med(row["new"], "wall")) for row in rows]
    lines += ["", "Fitted exponent b of time = a * islands^b (least squares, log-log), new side:"]
    for label, pts in (("from 10k, wall", big), ("from 10k, CPU", big_cpu), ("all sizes, wall", every)):
        b = fit(pts)
        span = f" ({pts[0][0]:,} to {pts[-1][0]:,} islands)" if pts else ""
        lines.append(f"- {label}{span}: " + (f"{b:.2f}" if b is not None else "(too few sizes)"))
    lines += ["", f"Machine: {platform.machine()}, {os.cpu_count()} cores shared with other work, Python "
              f"{platform.python_version()}; the load average (1 min) at the start and end of each size is in the "
              "table: on this shared machine wall times grow with it, so compare old and new within a row."]
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    sys.exit(main())
