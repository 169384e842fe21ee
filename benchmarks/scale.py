"""Scale runs: the default engine on random feasible puzzles of about 10,000 and 50,000 islands.

Puzzles come from the test suite's independent generator (tests/conftest.py:
a random tree of bridges grown on a square board at 25 % island density), so
they are feasible by construction; each answer is verified by the rule checker.
Each size runs in a fresh process so the reported peak memory is its own.

    python benchmarks/scale.py            # writes benchmarks/results/scale.md
"""

from __future__ import annotations

import json
import platform
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SIDES = {"~10,000 islands": 200, "~50,000 islands": 500}

CHILD = r"""
import json, resource, sys, time
sys.path.insert(0, sys.argv[1])
from conftest import random_puzzle
from hashikit import check, solve
side, seed = int(sys.argv[2]), int(sys.argv[3])
t = time.perf_counter(); puzzle, _ = random_puzzle(side, side, seed, density=0.25); gen = time.perf_counter() - t
result = solve(puzzle)
ok = result.solved and check(puzzle, result.solution).ok
print(json.dumps({"islands": len(puzzle.islands), "links": len(puzzle.links), "side": side, "seed": seed,
                  "status": result.status.value, "valid": ok, "time": result.stats["time"],
                  "rounds": result.stats["rounds"], "cuts": result.stats["cuts"], "generate": gen,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def main() -> int:
    rows = []
    for label, side in SIDES.items():
        for seed in (1, 2):
            out = subprocess.run([sys.executable, "-c", CHILD, str(ROOT / "tests"), str(side), str(seed)],
                                 capture_output=True, text=True, check=True)
            row = json.loads(out.stdout)
            row["label"] = label
            rows.append(row)
            print(f"{label} seed {seed}: {row['islands']} islands, {row['time']:.2f} s, "
                  f"{row['peak_mb']:.0f} MB, valid={row['valid']}", file=sys.stderr)
    lines = ["# Scale runs: default engine (sat) on large random feasible puzzles", "",
             f"Machine: {platform.machine()}, {platform.python_version()}, 2 cores shared (times are noisy). "
             "Time is in-process solve time (model building included); peak memory is the whole process "
             "(generation included). Every answer passed the rule checker.", "",
             "| size | board | islands | links | time (s) | rounds | cuts | peak memory (MB) | valid |",
             "|---|---|---:|---:|---:|---:|---:|---:|---|"]
    for r in rows:
        lines.append(f"| {r['label']} | {r['side']}x{r['side']} | {r['islands']} | {r['links']} | {r['time']:.2f} | "
                     f"{r['rounds']} | {r['cuts']} | {r['peak_mb']:.0f} | {r['valid']} |")
    lines += ["", "Targets (issue 3): 10,000 islands <= 10 s, 50,000 islands <= 60 s, each."]
    (HERE / "results").mkdir(exist_ok=True)
    (HERE / "results" / "scale.md").write_text("\n".join(lines) + "\n")
    return 0 if all(r["valid"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
