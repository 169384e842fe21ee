"""The SAT engine's settings for large boards, on small ones: the 1440 instances of Coelho et al.
(up to 400 islands) solved in one process with each setting in turn, instance by instance.

Settings: CaDiCaL's options (``sat.CADICAL_OPTIONS``: stable mode only, or CaDiCaL's defaults) and
local rounds (``local=True``, or every round global).  Times are CPU seconds of ``sat.solve`` per
instance (the SAT model included; the puzzle's links and crossings are built before), summed; each answer is checked by the rule checker.

    python benchmarks/scale_small.py            # writes benchmarks/results/scale_small.md
"""

from __future__ import annotations

import os
import platform
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from hashikit.checker import check  # noqa: E402
from hashikit.formats import read_file  # noqa: E402
from hashikit.solvers import sat  # noqa: E402

COELHO = ROOT.parent / "shared" / "benchmarks" / "coelho2019"
SETTINGS = {
    "stable mode, local rounds (default)": ({"stabilizeonly": 1}, True),
    "stable mode, global rounds": ({"stabilizeonly": 1}, False),
    "CaDiCaL defaults, global rounds (before)": ({}, False),
}


def main() -> int:
    files = sorted(COELHO.glob("*/*.has"))
    if not files:
        print(f"no instances under {COELHO}", file=sys.stderr)
        return 2
    puzzles = [read_file(str(f)).puzzle for f in files]
    total = {name: 0.0 for name in SETTINGS}
    rounds = {name: 0 for name in SETTINGS}
    bad = 0
    load = [os.getloadavg()[0]]
    for puzzle in puzzles:
        puzzle.links, puzzle.incident, puzzle.crossings, puzzle.link_capacities  # built once, before any timing
        for name, (options, local) in SETTINGS.items():
            sat.CADICAL_OPTIONS = options
            start = time.process_time()
            result = sat.solve(puzzle, local=local)
            total[name] += time.process_time() - start
            rounds[name] += result.stats["rounds"]
            bad += not (result.solved and check(puzzle, result.solution).ok)
    load.append(os.getloadavg()[0])
    base = total["CaDiCaL defaults, global rounds (before)"]
    lines = ["# The SAT engine's large-board settings on the 1440 Coelho instances", "",
             "`python benchmarks/scale_small.py`: every instance solved with each setting in turn (in one process, "
             "so the settings share the machine's state), CPU seconds of `sat.solve` (the SAT model included; the puzzle's links and crossings built before). "
             f"Answers failing the rule checker: {bad}.", "",
             "| setting | CPU total (s) | per instance (ms) | vs before | rounds in all |", "|---|---:|---:|---:|---:|"]
    for name in SETTINGS:
        lines.append(f"| {name} | {total[name]:.2f} | {1000 * total[name] / len(puzzles):.2f} | "
                     f"{total[name] / base:.2f}x | {rounds[name]} |")
    lines += ["", f"Machine: {platform.machine()}, {os.cpu_count()} cores shared, Python {platform.python_version()}; "
              f"load average (1 min) {load[0]:.1f} at the start, {load[1]:.1f} at the end."]
    (HERE / "results").mkdir(exist_ok=True)
    (HERE / "results" / "scale_small.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0 if not bad else 1


if __name__ == "__main__":
    sys.exit(main())
