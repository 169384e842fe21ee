"""Deduction rules and engine speed: CPU seconds now against an older revision, side by side.

The machine is shared (2 cores, often loaded far beyond them), so wall-clock times of one
run say little: this benchmark measures CPU time (``time.process_time``) of the same work
done by the package of git revision ``--before`` and by the working tree, in alternating
subprocesses, and reports medians and ratios.  It also checks that both made the very same
puzzles and grades (the rules are a contract: a speed-up must not change a deduction).

Work measured, per ``--cells SIZE:LEVEL``: ``generate_unique(SIZE, SIZE, LEVEL, seed=s)``
for each seed (CPU seconds per puzzle; verification by the SAT engine left out, it is not
the rules' work); and, with ``--grade``, ``hashikit.logic.grade`` of every published puzzle
under ``shared/puzzles/real`` (CPU seconds for all of them).

    python benchmarks/rules_bench.py --cells 15:hard 40:hard 15:expert 40:expert --seeds 5 --grade
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from _runinfo import extract_package  # noqa: E402  (this folder is on sys.path when run as a script)

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

_CELL = """
import json, sys, time
from hashikit.generate import generate_unique
out = []
for seed in {seeds!r}:
    t = time.process_time()
    try:
        puzzle, _solution, grade = generate_unique({size}, {size}, {level!r}, seed=seed, time_limit={limit},
                                                   verify=False)
        made = [len(puzzle.islands), grade.score, str(puzzle.islands[:5])]
    except RuntimeError:
        made = None
    out.append([time.process_time() - t, made])
print(json.dumps(out))
"""

_GRADE = """
import json, sys, time
sys.path.insert(0, {bench!r})
from grade_guard import published
from hashikit.logic.grade import grade
puzzles = published()
t = time.process_time()
grades = [str(grade(p)) for _name, p in puzzles]
print(json.dumps([time.process_time() - t, grades]))
"""


def _run(code: str, src: Path):
    out = subprocess.run([sys.executable, "-c", code], cwd=src, capture_output=True, text=True,
                         env={"PYTHONPATH": str(src), "PATH": "/usr/bin:/bin"})
    if out.returncode:
        raise RuntimeError(out.stderr[-2000:])
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cells", nargs="*", default=["15:hard", "40:hard", "15:expert", "40:expert"])
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--before", default="c86730d", help="git revision to compare with (default c86730d)")
    ap.add_argument("--time-limit", type=float, default=120.0)
    ap.add_argument("--grade", action="store_true", help="also grade every published puzzle")
    ap.add_argument("--rounds", type=int, default=3, help="grading rounds (median taken)")
    ap.add_argument("--out", type=Path, default=HERE / "results" / "rules_speed.md")
    args = ap.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        before = extract_package(args.before, Path(tmp))
        for cell in args.cells:
            size, level = int(cell.split(":")[0]), cell.split(":")[1]
            times = {"before": [], "now": []}
            same = True
            for seed in range(args.seeds):  # alternate puzzle by puzzle: both see the same load
                made = {}
                for name, src in (("before", before), ("now", ROOT)):
                    code = _CELL.format(seeds=[seed], size=size, level=level, limit=args.time_limit)
                    (t, m), = _run(code, src)
                    times[name].append(t)
                    made[name] = m
                same = same and made["before"] == made["now"]
            b, n = statistics.median(times["before"]), statistics.median(times["now"])
            rows.append((f"{size}x{size}", level, len(times["now"]), b, n, n / b, sum(times["before"]),
                         sum(times["now"]), same))
            print(f"{size}x{size} {level}: before {b:.3f} s now {n:.3f} s ratio {n / b:.2f} same={same}",
                  flush=True)
        graded = None
        if args.grade:
            times = {"before": [], "now": []}
            grades = {}
            for _round in range(args.rounds):
                for name, src in (("before", before), ("now", ROOT)):
                    t, g = _run(_GRADE.format(bench=str(HERE)), src)
                    times[name].append(t)
                    grades[name] = g
            b, n = statistics.median(times["before"]), statistics.median(times["now"])
            graded = (len(grades["now"]), b, n, grades["before"] == grades["now"])
            print(f"grade published: before {b:.3f} s now {n:.3f} s same={graded[3]}", flush=True)
    cmd = " ".join(argv if argv is not None else sys.argv[1:])
    lines = ["# Deduction rules and engine: CPU time against an older revision", "",
             f"`python benchmarks/rules_bench.py {cmd}`".replace(" `", "`"), "",
             f"CPU seconds (`time.process_time`), revision {args.before} and the working tree run "
             "alternately in subprocesses, puzzle by puzzle (the machine is shared: CPU time is "
             "steadier than wall time, and alternating shares the load). `generate_unique` "
             "without the final SAT check; seeds 0.."
             f"{args.seeds - 1}. Same: both made the same puzzles with the same scores.", "",
             "| size | level | puzzles | median CPU s before | median CPU s now | ratio now/before | "
             "total before | total now | same |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
    for size, level, count, b, n, ratio, tb, tn, same in rows:
        lines.append(f"| {size} | {level} | {count} | {b:.3f} | {n:.3f} | {ratio:.2f} | {tb:.2f} | {tn:.2f} | "
                     f"{'yes' if same else 'NO'} |")
    if graded:
        count, b, n, same = graded
        lines += ["", f"Grading the {count} published puzzles (`hashikit.logic.grade`, every rule up to "
                      f"expert with the contradiction rule), CPU seconds for all, median of {args.rounds}: "
                      f"before {b:.3f}, now {n:.3f}, ratio {n / b:.2f}; same grades: "
                      f"{'yes' if same else 'NO'}."]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
