"""Unique graded generation: time per puzzle, grades, island density and bridge length.

Runs ``hashikit.generate.generate_unique`` for each size and difficulty over a few
seeds and writes ``benchmarks/results/generate.md``: the median and 90th
percentile time, the grades (and mean score) of the puzzles made, the island
density (islands per cell) and mean bridge length (cells between the two islands
of a bridge, counting the far island) of the solutions, next to the same figures
for the published puzzles under ``shared/puzzles/real`` (read in place).

    python benchmarks/generate_bench.py                 # the full table
    python benchmarks/generate_bench.py --sizes 7 15 --levels hard --seeds 5
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from hashikit.generate import GenerateStats, generate_unique

HERE = Path(__file__).resolve().parent
REAL = HERE.parents[1] / "shared" / "puzzles" / "real"
LEVELS = ("easy", "medium", "hard", "expert")


def bridge_lengths(bridges) -> list[int]:
    return [abs(p[0] - q[0]) + abs(p[1] - q[1]) for (p, q), _c in bridges]


def published() -> list[tuple[str, int, float, float]]:
    """(source, puzzles, mean density, mean bridge length) per folder of published puzzles."""
    out = []
    if not REAL.is_dir():
        return out
    for path in sorted(REAL.glob("*/*.jsonl")):
        dens, lens = [], []
        for line in path.read_text().splitlines():
            d = json.loads(line)
            dens.append(sum(1 for row in d["grid"] for v in row if v) / (d["width"] * d["height"]))
            lens.extend(abs(r1 - r2) + abs(c1 - c2) for r1, c1, r2, c2, _k in d.get("solution_bridges") or [])
        out.append((path.parent.name, len(dens), statistics.mean(dens), statistics.mean(lens) if lens else 0.0))
    return out


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def run_cell(size: int, level: str, seeds: int, time_limit: float, budget: float) -> dict:
    times, grades, scores, dens, lens, fails, attempts = [], {}, [], [], [], 0, []
    start = time.perf_counter()
    for seed in range(seeds):
        if time.perf_counter() - start > budget:
            break
        stats = GenerateStats()
        t = time.perf_counter()
        try:
            puzzle, solution, g = generate_unique(size, size, level, seed=seed, time_limit=time_limit, stats=stats)
        except RuntimeError:
            fails += 1
            times.append(time.perf_counter() - t)
            continue
        times.append(time.perf_counter() - t)
        attempts.append(stats.attempts)
        grades[g.level] = grades.get(g.level, 0) + 1
        scores.append(g.score)
        dens.append(len(puzzle.islands) / (size * size))
        lens.extend(bridge_lengths(solution))
    return {"size": size, "level": level, "runs": len(times), "fails": fails,
            "median": statistics.median(times) if times else float("nan"),
            "p90": pct(times, 0.9) if times else float("nan"),
            "grades": grades, "score": statistics.mean(scores) if scores else 0,
            "attempts": statistics.mean(attempts) if attempts else 0,
            "density": statistics.mean(dens) if dens else 0, "length": statistics.mean(lens) if lens else 0}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", type=int, nargs="+", default=[7, 10, 15, 25, 40, 60])
    ap.add_argument("--levels", nargs="+", default=list(LEVELS), choices=LEVELS)
    ap.add_argument("--seeds", type=int, default=10, help="puzzles per size and level (default 10)")
    ap.add_argument("--time-limit", type=float, default=60.0, help="generate_unique's time_limit per puzzle")
    ap.add_argument("--budget", type=float, default=120.0,
                    help="seconds per size and level: later seeds are skipped once it is spent")
    ap.add_argument("--skip", nargs="*", default=["expert:40", "expert:60"],
                    help="LEVEL:SIZE cells left out (too slow); default expert at 40 and 60")
    ap.add_argument("--out", type=Path, default=HERE / "results" / "generate.md")
    args = ap.parse_args(argv)
    rows = []
    for size in args.sizes:
        for level in args.levels:
            if f"{level}:{size}" in args.skip:
                continue
            r = run_cell(size, level, args.seeds, args.time_limit, args.budget)
            rows.append(r)
            print(f"{size}x{size} {level}: median {r['median']:.2f}s p90 {r['p90']:.2f}s "
                  f"{r['runs'] - r['fails']}/{r['runs']} made, density {r['density']:.3f}, "
                  f"bridge length {r['length']:.2f}", flush=True)
    lines = ["# Unique graded generation (`generate_unique`)", "",
             f"`python benchmarks/generate_bench.py {' '.join(argv if argv is not None else sys.argv[1:])}`".replace(" `", "`"),
             "", f"Seeds 0..{args.seeds - 1} per cell (fewer where the cell's {args.budget:.0f} s budget ran out), "
             f"time limit {args.time_limit:.0f} s per puzzle, one process on this machine "
             "(2 cores). Every puzzle made is proved unique by the SAT engine and graded at exactly the "
             "requested level (`grade(p).level == difficulty`). Time: wall seconds per puzzle, failures "
             "(time limit reached) included. Density: islands per cell. Bridge length: cells from island "
             "to island along each bridge of the solution (2 = one empty cell between).", "",
             "| size | level | puzzles | failed | median s | p90 s | grades | mean score | layouts tried | density | bridge length |",
             "| --- | --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: |"]
    for r in rows:
        grades = ", ".join(f"{k} {v}" for k, v in r["grades"].items()) or "-"
        lines.append(f"| {r['size']}x{r['size']} | {r['level']} | {r['runs']} | {r['fails']} | {r['median']:.2f} | "
                     f"{r['p90']:.2f} | {grades} | {r['score']:.0f} | {r['attempts']:.1f} | {r['density']:.3f} | "
                     f"{r['length']:.2f} |")
    pub = published()
    if pub:
        lines += ["", "Published puzzles (`shared/puzzles/real`), for comparison:", "",
                  "| source | puzzles | density | bridge length |", "| --- | ---: | ---: | ---: |"]
        lines += [f"| {name} | {n} | {d:.3f} | {ln:.2f} |" for name, n, d, ln in pub]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
