"""PNG drawing and rule checking, before and after the formats/checker/render work (issue 8, 9).

Side by side in one run, as ratios (the machine is shared and noisy):

* PNG: the old hand-written Pillow painter (``hashikit/render.py`` at ``BASE``, loaded from
  git) against today's path, the SVG rasterised by resvg;
* the checker at ``BASE`` (walks every cell a bridge spans) against today's (bisection);

on random solved boards from the tests' independent generator (tests/conftest.py).

    python benchmarks/render_check.py [BASE]     # writes benchmarks/results/render_check.md
"""

from __future__ import annotations

import platform
import statistics
import subprocess
import sys
import time
import types
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(HERE))

from _runinfo import git_state  # noqa: E402
from conftest import random_puzzle  # noqa: E402

from hashikit import checker, render# noqa: E402

BASE = sys.argv[1] if len(sys.argv) > 1 else "c89cf40"


def old_module(path: str, name: str) -> types.ModuleType:
    """``path`` as it was at BASE, imported as a module of the hashikit package."""
    source = subprocess.run(["git", "show", f"{BASE}:{path}"], cwd=ROOT, capture_output=True, text=True,
                            check=True).stdout
    module = types.ModuleType(f"hashikit.{name}")
    module.__package__ = "hashikit"
    sys.modules[module.__name__] = module  # dataclasses look their module up
    exec(compile(source, f"{BASE}:{path}", "exec"), module.__dict__)
    return module


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    old_render = old_module("hashikit/render.py", "render_old")
    old_checker = old_module("hashikit/checker.py", "checker_old")
    rows = ["| board | islands | PNG Pillow (old) | PNG resvg (now) | ratio | check old | check now | ratio |",
            "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for side, repeat in ((15, 7), (40, 5), (100, 3), (400, 3)):
        puzzle, solution = random_puzzle(side, side, seed=side)
        assert checker.check(puzzle, solution).ok and old_checker.check(puzzle, solution).ok
        if side <= 100:
            p_old = best(lambda: old_render.png(puzzle, solution), repeat)
            p_new = best(lambda: render.png(puzzle, solution), repeat)
            png = f"{p_old:.3f} s | {p_new:.3f} s | {p_new / p_old:.2f}"
        else:
            png = "| | "
        c_old = best(lambda: old_checker.check(puzzle, solution), repeat)
        c_new = best(lambda: checker.check(puzzle, solution), repeat)
        rows.append(f"| {side}x{side} | {len(puzzle.islands)} | {png} | {c_old:.4f} s | {c_new:.4f} s "
                    f"| {c_new / c_old:.2f} |")
    out = ["# PNG drawing and rule checking: before and after", "",
           f"`python benchmarks/render_check.py {BASE}`: {git_state()}, base {BASE}; "
           f"Python {platform.python_version()}, {platform.machine()}, 2 shared cores. Median of "
           "several runs per cell, both versions in the same process; ratio = now / old.", "", *rows, "",
           "The resvg path draws the SVG itself (one drawing path, so PNG and SVG are the same picture); "
           "the checker's work is now bounded by bridges and islands rather than by the cells the "
           "bridges span, which matters for hostile input (an end at column 30,000,000) more than for "
           "these valid boards.", ""]
    target = HERE / "results" / "render_check.md"
    target.write_text("\n".join(out))
    print("\n".join(out))


if __name__ == "__main__":
    main()
