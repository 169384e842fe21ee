"""Unique graded generation: time per puzzle, grades, island density and bridge length.

Runs ``hashikit.generate.generate_unique`` for each size and difficulty over a few
seeds and writes ``benchmarks/results/generate.md``: the median and 90th
percentile time, the grades (and mean score) of the puzzles made, the island
density (islands per cell) and mean bridge length (cells between the two islands
of a bridge, counting the far island) of the solutions, next to the same figures
for the published puzzles under ``shared/puzzles/real`` (read in place).

    python benchmarks/generate_bench.py                 # the full table
    python benchmarks/generate_bench.py --sizes 7 15 --levels hard --seeds 5
    python benchmarks/generate_bench.py --cells 15:hard 40:hard --tatham --before c89cf40

``--cells SIZE:LEVEL ...`` picks cells; ``--section TITLE`` adds the tables to the results file as a
section of that title (replacing an older one) instead of rewriting the file; ``--tatham`` adds the same cells at Tatham's preset
parameters (30% islands, 10% expansion, MAXBRIDGES 2) and times his C generator on them; ``--before REV`` also runs
every cell with the package of git revision REV (extracted to a temporary folder, run in a
subprocess, cell by cell alternating with this one, so that both see the same load) and reports
the ratio of medians; ``--instructions`` also counts the instructions a puzzle takes (valgrind's
callgrind: N puzzles less none, so start-up cancels out; the same for REV's package and for
Tatham's generator), which the machine's load does not move; ``--proof-split`` also times each
puzzle's proof (the rule checker's check, the SAT engine's search for a second solution) and gives the
times and ratios without the SAT proof and without both.  The load average is recorded at
the start and the end of the run.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from hashikit.generate import GenerateStats, generate_unique

from _runinfo import extract_package  # noqa: E402  (this folder is on sys.path when run as a script)

HERE = Path(__file__).resolve().parent
REAL = HERE.parents[1] / "shared" / "puzzles" / "real"
LEVELS = ("easy", "medium", "hard", "expert")


def bridge_lengths(bridges) -> list[int]:
    return [abs(p[0] - q[0]) + abs(p[1] - q[1]) for (p, q), _c in bridges]


def shape(islands: int, counts: list[int]) -> tuple[float, float]:
    """(share of the solution's bridges that are double or more, loops per island): the bridge
    graph's independent cycles, bridges - islands + 1 for a connected solution, per island."""
    if not counts:
        return 0.0, 0.0
    return sum(1 for c in counts if c >= 2) / len(counts), (len(counts) - islands + 1) / islands


def published() -> list[tuple[str, int, float, float, float, float]]:
    """(source, puzzles, mean density, mean bridge length, doubles, loops per island) per folder of
    published puzzles (the last two over the puzzles with a stored solution)."""
    out = []
    if not REAL.is_dir():
        return out
    for path in sorted(REAL.glob("*/*.jsonl")):
        dens, lens, doubles, loops = [], [], [], []
        for line in path.read_text().splitlines():
            d = json.loads(line)
            n = sum(1 for row in d["grid"] for v in row if v)
            dens.append(n / (d["width"] * d["height"]))
            sol = d.get("solution_bridges") or []
            lens.extend(abs(r1 - r2) + abs(c1 - c2) for r1, c1, r2, c2, _k in sol)
            if sol:
                dbl, lp = shape(n, [k for *_ends, k in sol])
                doubles.append(dbl)
                loops.append(lp)
        out.append((path.parent.name, len(dens), statistics.mean(dens), statistics.mean(lens) if lens else 0.0,
                    statistics.mean(doubles) if doubles else 0.0, statistics.mean(loops) if loops else 0.0))
    return out


def empty_border(puzzle) -> bool:
    """The puzzle leaves its first or last row or column without an island (issue 21: an R x C
    puzzle should fill its frame)."""
    rows = {isl.row for isl in puzzle.islands}
    cols = {isl.col for isl in puzzle.islands}
    return not ({0, puzzle.rows - 1} <= rows and {0, puzzle.cols - 1} <= cols)


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


#: Tatham's own generator (Debian's sgt-puzzles), run without a display
SGT_BRIDGES = "/usr/games/sgt-bridges"
#: his difficulty letters for our levels (his solver stages 1-3; he has no expert)
TATHAM_LEVEL = {"easy": 0, "medium": 1, "hard": 2}
#: puzzles per timed run of his generator, by board side (enough to dwarf his start-up)
TATHAM_COUNT = {15: 200, 25: 50, 40: 10, 60: 2}


def _child_cpu() -> float:
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    return use.ru_utime + use.ru_stime


def tatham_c(size: int, level: str, repeats: int = 5, cpu: bool = False) -> float | None:
    """Seconds per puzzle of Tatham's C generator at his preset (30% islands, 10% expansion,
    MAXBRIDGES 2), timed here and now: runs of N puzzles and of 1, alternately, whole process;
    (median N-run - median 1-run) / (N - 1), so his start-up is subtracted as ours is (ours is timed
    inside one process).  A mean per puzzle: his command does not time each one.  Wall seconds, or
    with ``cpu`` his process's CPU seconds (as ``--cpu`` times ours).  None without his generator
    or for a level he does not have."""
    if level not in TATHAM_LEVEL or not os.path.exists(SGT_BRIDGES):
        return None
    n = TATHAM_COUNT.get(size, 10)
    params = f"{size}x{size}i30e10m2d{TATHAM_LEVEL[level]}"
    clock = _child_cpu if cpu else time.perf_counter
    many, one = [], []
    for _ in range(repeats):
        for count, into in ((n, many), (1, one)):
            t0 = clock()
            subprocess.run([SGT_BRIDGES, "--generate", str(count), params], check=True,
                           stdout=subprocess.DEVNULL, timeout=600)
            into.append(clock() - t0)
    return max(0.0, (statistics.median(many) - statistics.median(one)) / (n - 1))

def _collected(cmd: list[str], env=None, cwd=None) -> int:
    """Instructions valgrind's callgrind counts for the whole command."""
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *cmd], env=env, cwd=cwd,
                         capture_output=True, text=True, timeout=3600)
    found = [line for line in out.stderr.splitlines() if "Collected :" in line]
    if out.returncode or not found:
        raise RuntimeError(out.stderr[-2000:])
    return int(found[-1].split(":")[-1])


def tatham_instructions(size: int, level: str, count: int) -> float | None:
    """Instructions a puzzle of Tatham's generator at his preset: ``count`` + 1 puzzles less one."""
    if level not in TATHAM_LEVEL or not os.path.exists(SGT_BRIDGES):
        return None
    params = f"{size}x{size}i30e10m2d{TATHAM_LEVEL[level]}"
    many = _collected([SGT_BRIDGES, "--generate", str(count + 1), params])
    return (many - _collected([SGT_BRIDGES, "--generate", "1", params])) / count


def count_run(size: int, level: str, seeds: int, options=None) -> None:
    """One puzzle to load what a first puzzle loads, then seeds 0..``seeds`` - 1: what
    :func:`instructions` counts."""
    options = options or {}
    generate_unique(size, size, level, seed=10**6, **options)
    for seed in range(seeds):
        generate_unique(size, size, level, seed=seed, **options)


def instructions(size: int, level: str, seeds: int, options=None, src: Path | None = None) -> float:
    """Instructions a puzzle of :func:`count_run` (the package in ``src``, else this one)."""
    env = dict(os.environ, PYTHONPATH=str(src)) if src is not None else None
    code = ("import sys; sys.path.insert(0, %r); import generate_bench as b; b.count_run(%d, %r, %%d, %r)"
            % (str(HERE), size, level, options))
    run = [sys.executable, "-c"]
    many = _collected(run + [code % seeds], env=env, cwd=src)
    return (many - _collected(run + [code % 0], env=env, cwd=src)) / seeds


#: the targets of issue 10, median (p90) seconds
TARGET = {(15, "easy"): "0.05", (15, "medium"): "0.05", (15, "hard"): "0.05", (25, "hard"): "0.1",
          (40, "hard"): "0.3", (60, "hard"): "1 (p90 3)", (15, "expert"): "0.5", (40, "expert"): "3"}
PRESET = {"islands_percent": 30, "expansion": 10, "maxbridges": 2}


def clock() -> float:
    """Seconds for the times: wall time, or the process's CPU time with HASHIKIT_BENCH_CPU=1 (a
    machine shared with other work; the run against an older revision inherits the setting)."""
    return time.process_time() if os.environ.get("HASHIKIT_BENCH_CPU") == "1" else time.perf_counter()


class ProofClock:
    """Times the two halves of the generator's proof of each puzzle while it runs (``--proof-split``):
    the rule checker's check of the solution and the SAT engine's search for a second solution
    (``_verify`` less the check), wrapped where ``hashikit.generate.unique`` calls them."""

    def __init__(self) -> None:
        import hashikit.checker as checker
        import hashikit.generate.unique as unique

        self.checker, self.unique = checker, unique
        self.check_s = self.verify_s = 0.0

    def __enter__(self) -> "ProofClock":
        self._check, self._verify = self.checker.check, self.unique._verify
        self.checker.check = self._timed(self._check, "check_s")
        self.unique._verify = self._timed(self._verify, "verify_s")
        return self

    def _timed(self, fn, total: str):
        def timed(*a, **k):
            t = clock()
            try:
                return fn(*a, **k)
            finally:
                setattr(self, total, getattr(self, total) + clock() - t)

        return timed

    def __exit__(self, *exc) -> None:
        self.checker.check, self.unique._verify = self._check, self._verify

    def take(self) -> tuple[float, float]:
        """(checker seconds, SAT proof seconds) since the last call."""
        out = (self.check_s, self.verify_s - self.check_s)
        self.check_s = self.verify_s = 0.0
        return out


def _split(times: list[float], checks: list[float], sats: list[float]) -> dict:
    """The made puzzles' times without the SAT proof, and without both halves of the proof."""
    no_sat = [t - v for t, v in zip(times, sats)]
    neither = [t - v - c for t, c, v in zip(times, checks, sats)]
    return {"check_mean": statistics.mean(checks), "sat_mean": statistics.mean(sats),
            "no_sat_median": statistics.median(no_sat), "no_sat_mean": statistics.mean(no_sat),
            "neither_median": statistics.median(neither), "neither_mean": statistics.mean(neither),
            "made_median": statistics.median(times), "made_mean": statistics.mean(times)}


def run_cell(size: int, level: str, seeds: int, time_limit: float, budget: float, options=None,
             split: bool = False) -> dict:
    options = options or {}
    times, grades, scores, dens, lens, fails, attempts, islands = [], {}, [], [], [], 0, [], []
    doubles, loops, empty = [], [], 0
    checks, sats, made_times = [], [], []
    generate_unique(size, size, level, seed=10**6, **options)  # (what a first puzzle loads, untimed)
    proof = ProofClock() if split else None
    if proof is not None:
        proof.__enter__()
    start = time.perf_counter()
    for seed in range(seeds):
        if time.perf_counter() - start > budget:
            break
        stats = GenerateStats()
        t = clock()
        try:
            puzzle, solution, g = generate_unique(size, size, level, seed=seed, time_limit=time_limit, stats=stats,
                                                  **options)
        except RuntimeError:
            fails += 1
            times.append(clock() - t)
            if proof is not None:
                proof.take()
            continue
        times.append(clock() - t)
        if proof is not None:
            c, v = proof.take()
            made_times.append(times[-1])
            checks.append(c)
            sats.append(v)
        attempts.append(stats.attempts)
        grades[g.level] = grades.get(g.level, 0) + 1
        scores.append(g.score)
        dens.append(len(puzzle.islands) / (size * size))
        islands.append(len(puzzle.islands))
        empty += empty_border(puzzle)
        lens.extend(bridge_lengths(solution))
        dbl, lp = shape(len(puzzle.islands), list(solution.bridges.values()))
        doubles.append(dbl)
        loops.append(lp)
    if proof is not None:
        proof.__exit__()
    split_out = _split(made_times, checks, sats) if checks else {}
    return {**split_out, "size": size, "level": level, "runs": len(times), "fails": fails,
            "median": statistics.median(times) if times else float("nan"),
            "mean": statistics.mean(times) if times else float("nan"),
            "p90": pct(times, 0.9) if times else float("nan"),
            "grades": grades, "score": statistics.mean(scores) if scores else 0,
            "attempts": statistics.mean(attempts) if attempts else 0,
            "density": statistics.mean(dens) if dens else 0, "length": statistics.mean(lens) if lens else 0,
            "islands": statistics.mean(islands) if islands else 0, "layout": "tatham" if options else "default",
            "doubles": statistics.mean(doubles) if doubles else 0, "loops": statistics.mean(loops) if loops else 0,
            "empty_border": empty, "made": len(islands)}


def _before_cell(src: Path, size: int, level: str, args, options=None) -> dict:
    """The cell run by the package in ``src`` (an older revision), in a subprocess."""
    env = dict(os.environ, PYTHONPATH=str(src))
    code = ("import json, sys; sys.path.insert(0, %r); import generate_bench as b; "
            "print(json.dumps(b.run_cell(%d, %r, %d, %r, %r, %r)))" % (str(HERE), size, level, args.seeds,
                                                                      args.time_limit, args.budget, options))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=src)
    if out.returncode:
        raise RuntimeError(out.stderr[-2000:])
    return json.loads(out.stdout.strip().splitlines()[-1])


def _c(r: dict) -> str:
    return "-" if r.get("tatham_c") is None else f"{r['tatham_c']:.4f}"


def _ratio(r: dict, key: str = "median") -> str:
    c = r.get("tatham_c")
    return "-" if not c else f"{r[key] / c:.1f}x"


def _mega(x) -> str:
    return "-" if x is None else f"{x / 1e6:.1f}"


def _num(x) -> str:
    return "-" if x is None else f"{x:.4f}"


def _over(x, y) -> str:
    return "-" if not y else f"{x / y:.2f}"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", type=int, nargs="+", default=[7, 10, 15, 25, 40, 60])
    ap.add_argument("--levels", nargs="+", default=list(LEVELS), choices=LEVELS)
    ap.add_argument("--cells", nargs="*", help="SIZE:LEVEL cells to run instead of sizes x levels")
    ap.add_argument("--tatham", action="store_true", help="also run the cells at Tatham's preset parameters")
    ap.add_argument("--before", metavar="REV", help="also run the default cells with git revision REV")
    ap.add_argument("--instructions", action="store_true",
                    help="also count instructions a puzzle under valgrind's callgrind (ours, --before's, Tatham's)")
    ap.add_argument("--before-skip", nargs="*", default=["expert:40"],
                    help="LEVEL:SIZE cells not run with --before (default expert:40: the old package does "
                         "not keep the time limit there and took 584 s for one puzzle)")
    ap.add_argument("--seeds", type=int, default=10, help="puzzles per size and level (default 10)")
    ap.add_argument("--time-limit", type=float, default=60.0, help="generate_unique's time_limit per puzzle")
    ap.add_argument("--budget", type=float, default=120.0,
                    help="seconds per size and level: later seeds are skipped once it is spent")
    ap.add_argument("--skip", nargs="*", default=["expert:40", "expert:60"],
                    help="LEVEL:SIZE cells left out (too slow); default expert at 40 and 60")
    ap.add_argument("--proof-split", action="store_true",
                    help="also time the proof of each puzzle (the rule checker, the SAT engine) and give the "
                         "times and ratios to Tatham's without the SAT proof and without both")
    ap.add_argument("--out", type=Path, default=HERE / "results" / "generate.md")
    ap.add_argument("--cpu", action="store_true", help="times in CPU seconds of the process, not wall seconds")
    ap.add_argument("--section", metavar="TITLE",
                    help="append the tables to --out as a section '## TITLE' (replacing one of that title) "
                         "instead of writing the whole file")
    args = ap.parse_args(argv)
    if args.proof_split:
        import hashikit._build as build
        import hashikit.generate.unique as unique

        if build.compiled(unique):  # compiled callers would not see the clock's wrappers: all zeros
            ap.error("--proof-split times the proof by wrapping module functions, which a compiled build "
                     "calls directly: run it with HASHIKIT_PURE=1")
    if args.cpu:
        os.environ["HASHIKIT_BENCH_CPU"] = "1"
    if args.cells:
        cells = [(int(c.split(":")[0]), c.split(":")[1]) for c in args.cells]
    else:
        cells = [(size, level) for size in args.sizes for level in args.levels
                 if f"{level}:{size}" not in args.skip]
    rows, before = [], {}
    load_start = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        src = extract_package(args.before, Path(tmp)) if args.before else None
        for size, level in cells:
            for options in ([None, PRESET] if args.tatham else [None]):
                if options and level == "expert":
                    continue
                r = run_cell(size, level, args.seeds, args.time_limit, args.budget, options, args.proof_split)
                r["tatham_c"] = tatham_c(size, level, cpu=args.cpu) if args.tatham else None
                rows.append(r)
                print(f"{size}x{size} {level} {r['layout']}: median {r['median']:.3f}s p90 {r['p90']:.3f}s "
                      f"{r['runs'] - r['fails']}/{r['runs']} made, {r['islands']:.0f} islands", flush=True)
                key = (size, level, r["layout"])
                if src is not None and f"{level}:{size}" not in args.before_skip:
                    b = before[key] = _before_cell(src, size, level, args, options)
                    print(f"   before ({args.before}): median {b['median']:.3f}s p90 {b['p90']:.3f}s", flush=True)
                if args.instructions:
                    r["instructions"] = instructions(size, level, args.seeds, options)
                    if key in before:
                        before[key]["instructions"] = instructions(size, level, args.seeds, options, src)
                    if options:
                        r["tatham_instructions"] = tatham_instructions(size, level, 100)
                    print(f"   instructions a puzzle: {_mega(r['instructions'])}M", flush=True)
    load_end = os.getloadavg()
    cmd = shlex.join(argv if argv is not None else sys.argv[1:])
    lines = ["# Unique graded generation (`generate_unique`)", "",
             f"`python benchmarks/generate_bench.py {cmd}`".replace(" `", "`"),
             "", f"Seeds 0..{args.seeds - 1} per cell (fewer where the cell's {args.budget:.0f} s budget ran out; "
             "after one untimed puzzle of another seed, which loads what a first puzzle loads), "
             f"time limit {args.time_limit:.0f} s per puzzle, one process on this machine "
             "(2 cores, shared: read times as ratios within one run). Every puzzle made is proved unique "
             "(deductions, then the SAT engine) and graded at exactly the requested level. Levels easy, medium "
             "and hard are Tatham's solver stages 1-3. Layout `default`: published-looking (no neighbouring "
             "islands, density 0.25, half the links doubled, 0.1 extra links per island; medium and "
             "expert 0.35 and 0.25); `tatham`: his preset parameters (30% islands, 10% expansion, "
             "MAXBRIDGES 2). "
             f"Time: {'CPU' if args.cpu else 'wall'} seconds per puzzle, failures (time limit reached) included. "
             "Density: islands per cell. "
             "Bridge length: cells from island to island along each bridge of the solution. Doubles: share of "
             "the solution's bridges that are double. Loops: independent cycles of the solution's bridges per "
             "island (0 for a tree). Empty border: puzzles made whose first or last row or column has no "
             "island. Tatham's C: his generator at his preset, mean seconds per puzzle (CPU seconds with `--cpu`) timed in "
             "this run right after the row's own cell, his start-up subtracted (`--tatham`; the same C figure on both layouts' "
             "rows); ours / his: our median (and our mean) over his mean. "
             f"Load average (1, 5, 15 min) at the start {', '.join(f'{x:.1f}' for x in load_start)}, at the end "
             f"{', '.join(f'{x:.1f}' for x in load_end)} (2 cores).", "",
             "| size | level | layout | puzzles | failed | median s | mean s | p90 s | target s | Tatham's C s | "
             "ours / his | mean / his | islands | density | bridge length | doubles | loops | mean score | empty border |",
             "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
             "| ---: | ---: | ---: |"]
    for r in rows:
        key = (r["size"], r["level"])
        lines.append(f"| {r['size']}x{r['size']} | {r['level']} | {r['layout']} | {r['runs']} | {r['fails']} | "
                     f"{r['median']:.4f} | {r['mean']:.4f} | {r['p90']:.3f} | {TARGET.get(key, '-')} | {_c(r)} | "
                     f"{_ratio(r)} | {_ratio(r, 'mean')} | "
                     f"{r['islands']:.0f} | {r['density']:.3f} | {r['length']:.2f} | {r['doubles']:.2f} | "
                     f"{r['loops']:.3f} | {r['score']:.0f} | {r['empty_border']} of {r['made']} |")
    if args.instructions:
        lines += ["", "Instructions a puzzle (millions; callgrind, seeds 0.."
                      f"{args.seeds - 1} less a run of none, each after one warm-up puzzle; Tatham's: 101 puzzles "
                      "less one):", "",
                  "| size | level | layout | ours | " + (f"{args.before} | ours / {args.before} | " if args.before else "")
                  + "Tatham's C | ours / his |",
                  "| --- | --- | --- | ---: | " + ("---: | ---: | " if args.before else "") + "---: | ---: |"]
        for r in rows:
            b = before.get((r["size"], r["level"], r["layout"]), {}).get("instructions")
            his = r.get("tatham_instructions")
            lines.append(f"| {r['size']}x{r['size']} | {r['level']} | {r['layout']} | {_mega(r['instructions'])} | "
                         + (f"{_mega(b)} | {_over(r['instructions'], b)} | " if args.before else "")
                         + f"{_mega(his)} | {_over(r['instructions'], his)} |")
    if args.proof_split:
        lines += ["", "The proof's share (`--proof-split`): of each puzzle made, the seconds in the rule checker's "
                      "check and in the SAT engine's search for a second solution (timed inside the runs above), "
                      "and the puzzle's time less the SAT proof, and less both (the deductions' proof of "
                      "uniqueness alone, as his generator's); ratios over his mean:", "",
                  "| size | level | layout | median s | mean s | checker s (mean) | SAT proof s (mean) | "
                  "median s without SAT | ours / his | mean s without SAT | mean / his | "
                  "median s without both | ours / his | mean s without both | mean / his |",
                  "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
        for r in rows:
            if "sat_mean" not in r:
                continue
            lines.append(f"| {r['size']}x{r['size']} | {r['level']} | {r['layout']} | {r['made_median']:.4f} | "
                         f"{r['made_mean']:.4f} | {r['check_mean']:.4f} | {r['sat_mean']:.4f} | "
                         f"{r['no_sat_median']:.4f} | {_ratio(r, 'no_sat_median')} | "
                         f"{r['no_sat_mean']:.4f} | {_ratio(r, 'no_sat_mean')} | "
                         f"{r['neither_median']:.4f} | {_ratio(r, 'neither_median')} | "
                         f"{r['neither_mean']:.4f} | {_ratio(r, 'neither_mean')} |")
    if before:
        lines += ["", f"Before (git revision {args.before}), same cells, run alternately with the ones above "
                      "(doubles and loops: of its puzzles):", "",
                  "| size | level | layout | puzzles before | median s before | mean s before | p90 s before | "
                  "median s now | mean s now | p90 s now | ratio now/before (medians) | (means) | doubles before "
                  "| loops before | empty border before | now |",
                  "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
                  "| ---: | ---: |"]
        for r in rows:
            b = before.get((r["size"], r["level"], r["layout"]))
            if b is None:
                continue
            mean_b = b.get("mean")
            lines.append(f"| {r['size']}x{r['size']} | {r['level']} | {r['layout']} | {b['runs']} | {b['median']:.4f} | "
                         f"{_num(mean_b)} | {b['p90']:.3f} | "
                         f"{r['median']:.4f} | {r['mean']:.4f} | {r['p90']:.3f} | {r['median'] / b['median']:.2f} | "
                         f"{_over(r['mean'], mean_b)} | "
                         f"{b.get('doubles', 0):.2f} | {b.get('loops', 0):.3f} | "
                         f"{b['empty_border']} of {b['made']} | {r['empty_border']} of {r['made']} |")
    pub = published()
    if pub:
        lines += ["", "Published puzzles (`shared/puzzles/real`), for comparison:", "",
                  "| source | puzzles | density | bridge length | doubles | loops |",
                  "| --- | ---: | ---: | ---: | ---: | ---: |"]
        lines += [f"| {name} | {n} | {d:.3f} | {ln:.2f} | {dbl:.2f} | {lp:.3f} |" for name, n, d, ln, dbl, lp in pub]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    if args.section:
        lines = [f"## {args.section}", ""] + lines[2:]
        old = args.out.read_text() if args.out.exists() else ""
        head, found, rest = old.partition(f"\n## {args.section}\n")
        tail = rest[rest.find("\n## ") + 1:] if found and "\n## " in rest else ""
        args.out.write_text(head.rstrip("\n") + "\n\n" + "\n".join(lines) + "\n" + ("\n" + tail if tail else ""))
    else:
        args.out.write_text("\n".join(lines) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
