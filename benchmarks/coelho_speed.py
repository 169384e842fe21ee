#!/usr/bin/env python3
"""The paper's generator, old (quadratic) against new (hashikit/coelho.py), side by side in one run.

    python benchmarks/coelho_speed.py [--budget 200] [--repeat 3] [--out PATH]

For n = 400 (on the published 34x34 board), 2,000, 5,000, 20,000 and 100,000 islands
(on square boards of side ceil(2 sqrt(n)), about a quarter of the cells islands, where
one growth reaches n), plus two boards at the published density (side round(1.7 sqrt n),
about 0.35 islands per cell) where growths box themselves in and restart: each
(generator, size) runs alone in a fresh process, one after the other, with alpha 50,
beta 10, seed 1.  Both wall and CPU seconds are recorded: the machine is shared and
often loaded, and CPU time is the steadier of the two.

"old" is ``coelho_with_solution`` from hashikit/generate.py at commit c89cf40, read
from git (so the comparison survives generate.py being changed or re-pointed at the
new module); it runs under ``--budget`` CPU seconds and is not tried at a size once a
smaller size ran out of budget.  "new" runs ``--repeat`` times (median reported).
Every new construction is checked by the independent rule checker, and where the old
one finished, the two puzzles and solutions are compared (they must be identical:
same draws on the same random.Random).

Writes benchmarks/results/coelho_speed.md.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import math
import os
import platform
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(ROOT), str(HERE)]
from _runinfo import git_state  # noqa: E402

OUT = HERE / "results" / "coelho_speed.md"
OLD_COMMIT = "c89cf40"
ALPHA, BETA, SEED = 50, 10, 1


def roomy(n: int) -> int:
    return math.ceil(2 * math.sqrt(n))


def published_density(n: int) -> int:
    return round(1.7 * math.sqrt(n))


#: (n, side, what the board is)
SIZES = [(400, 34, "published (34x34)"), (2000, roomy(2000), "roomy"), (5000, roomy(5000), "roomy"),
         (20000, roomy(20000), "roomy"), (100000, roomy(100000), "roomy")]
TIGHT = [(2000, published_density(2000), "published density"), (20000, published_density(20000), "published density")]

def load_old_generator(commit: str = OLD_COMMIT):
    """``coelho_with_solution`` of hashikit/generate.py at ``commit``, read from git (not the working tree)."""
    import types

    import hashikit  # noqa: F401  (the package its relative imports resolve in)

    src = subprocess.run(["git", "show", f"{commit}:hashikit/generate.py"], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    mod = types.ModuleType(f"hashikit._generate_{commit}")
    mod.__package__ = "hashikit"
    sys.modules[mod.__name__] = mod  # dataclasses look their module up
    exec(compile(src, f"generate.py@{commit}", "exec"), mod.__dict__)
    return mod.coelho_with_solution


CHILD = r"""
import hashlib, json, resource, sys, time
root, here, which, n, side, alpha, beta, seed, old_commit = sys.argv[1:10]
sys.path[:0] = [root, here]
n, side, seed = int(n), int(side), int(seed)
alpha, beta = float(alpha), float(beta)
if which == "old":
    from coelho_speed import load_old_generator
    gen = load_old_generator(old_commit)
else:
    from hashikit.generate.coelho import coelho_with_solution as gen
w, c = time.perf_counter(), time.process_time()
puzzle, solution = gen(n, side, side, alpha, beta, seed)
wall, cpu = time.perf_counter() - w, time.process_time() - c
digest = hashlib.sha256(repr((puzzle.islands, sorted(solution.bridges.items()))).encode()).hexdigest()[:16]
ok = None
if which == "new":
    from hashikit import check
    ok = check(puzzle, solution).ok
print(json.dumps({"wall": wall, "cpu": cpu, "islands": len(puzzle.islands), "digest": digest, "valid": ok,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def run_one(which: str, n: int, side: int, budget: float | None) -> dict | None:
    """One generation in a fresh process; None when it ran out of ``budget`` CPU seconds.

    The budget is on CPU time (RLIMIT_CPU), so a loaded machine does not stop a run early;
    the wall-clock timeout (10x) only guards against a hang.
    """
    cmd = [sys.executable, "-c", CHILD, str(ROOT), str(HERE), which, str(n), str(side), str(ALPHA), str(BETA),
           str(SEED), OLD_COMMIT]

    def limit_cpu():
        if budget is not None:
            import resource

            resource.setrlimit(resource.RLIMIT_CPU, (math.ceil(budget), math.ceil(budget) + 5))

    try:
        out = subprocess.run(cmd, capture_output=True, text=True, check=True, preexec_fn=limit_cpu,
                             timeout=None if budget is None else 10 * budget)
    except subprocess.TimeoutExpired:
        return None
    except subprocess.CalledProcessError as exc:
        if budget is not None and exc.returncode in (-24, -9):  # SIGXCPU / SIGKILL: out of CPU budget
            return None
        sys.exit(f"coelho_speed: the {which} generator failed at n={n}:\n{exc.stderr}")
    return json.loads(out.stdout)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--budget", type=float, default=200.0, help="CPU seconds for one run of the old generator")
    ap.add_argument("--repeat", type=int, default=3, help="runs of the new generator per size (median)")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()

    rows = []
    old_gave_up = False
    for n, side, board in SIZES + TIGHT:
        tight = (n, side, board) in TIGHT
        new_runs = [run_one("new", n, side, None) for _ in range(args.repeat)]
        new = dict(new_runs[len(new_runs) // 2])
        new["wall"] = statistics.median(r["wall"] for r in new_runs)
        new["cpu"] = statistics.median(r["cpu"] for r in new_runs)
        new["valid"] = all(r["valid"] for r in new_runs)
        if tight:
            old, old_note = None, "not run"
        elif old_gave_up:
            old, old_note = None, "not run (a smaller size ran out of budget)"
        else:
            old = run_one("old", n, side, args.budget)
            old_note = "" if old else f"> {args.budget:.0f} CPU s (stopped)"
            old_gave_up = old is None
        rows.append((n, side, board, new, old, old_note))
        print(f"n={n} {side}x{side}: new {new['wall']:.2f} s wall / {new['cpu']:.2f} s cpu, old "
              + (f"{old['wall']:.2f} s" if old else old_note), file=sys.stderr, flush=True)

    def ratio(old, new, key):
        return f"{old[key] / new[key]:.0f}x" if old and new[key] > 0 else "-"

    lines = ["# Speed of the paper's generator: old (generate.py at c89cf40) vs new (hashikit/coelho.py)", "",
             f"- command: `python benchmarks/coelho_speed.py --budget {args.budget:.0f} --repeat {args.repeat}`",
             f"- alpha {ALPHA}, beta {BETA}, seed {SEED}, MAXBRIDGES 2; each run alone in a fresh process, one after "
             f"the other; new: median of {args.repeat} runs; old: one run, stopped after {args.budget:.0f} CPU seconds",
             f"- machine: {platform.machine()}, {os.cpu_count()} cores shared with other work (load average "
             f"{', '.join(f'{x:.1f}' for x in os.getloadavg())} at the end), Python {platform.python_version()}; "
             f"{_dt.date.today().isoformat()}; {git_state()}",
             "- every new construction passed `hashikit.checker.check`; `same` says whether old and new gave "
             "the identical puzzle and solution (sha256 of islands and bridges)", "",
             "| islands asked | board | kind | islands made | old wall (s) | old CPU (s) | new wall (s) | "
             "new CPU (s) | old/new (CPU) | same | checker | new peak MB |",
             "|---:|---|---|---:|---:|---:|---:|---:|---:|---|---|---:|"]
    for n, side, board, new, old, note in rows:
        same = "-" if not old else ("yes" if old["digest"] == new["digest"] else "**NO**")
        old_wall = f"{old['wall']:.2f}" if old else note
        old_cpu = f"{old['cpu']:.2f}" if old else "-"
        lines.append(
            f"| {n:,} | {side}x{side} | {board} | {new['islands']:,} | {old_wall} | {old_cpu} | "
            f"{new['wall']:.2f} | {new['cpu']:.2f} | {ratio(old, new, 'cpu')} | {same} | "
            f"{'ok' if new['valid'] else '**FAILED**'} | {new['peak_mb']:.0f} |")
    lines += ["", "Targets (issue 10, item 4): 20,000 islands <= 10 s, 100,000 islands <= 60 s.", ""]
    text = "\n".join(lines)
    args.out.parent.mkdir(exist_ok=True)
    args.out.write_text(text)
    print(text)
    return 0 if all(r[3]["valid"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
