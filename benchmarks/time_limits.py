#!/usr/bin/env python3
"""Are ``--time-limit`` answers on time?  Whole-process wall times of solve, grade, hint, explain
and generate, against the promise of ``limits.TIME_MARGIN`` past the limit.

    python benchmarks/time_limits.py [--runs 5] [--limits 0.5,1,3] [--huge]   -> results/time_limits.md

What is timed is what the person waits for: the ``hashikit`` command (the console script beside
this interpreter) as a subprocess, from just before it is started until it has exited, start-up,
reading, building, solving, checking, writing and the exit included.  Each (command, board,
limit) runs ``--runs`` times, the rows of one repeat one after another (so a noisy spell of the
shared machine spreads over all rows); the table gives the median and the maximum, the
overshoot of the maximum past the limit, and the answers seen (exit 0 an answer, 1 unknown or
"no").

Boards (written to a temporary folder, never into the tree): ``small`` is
examples/prob-bridges.txt (14 islands); ``100`` and ``30000`` islands come from the paper's
generator (``service.generate_paper``, seed 1, alpha 50, beta 5, about 4 cells per island).
``generate`` makes a board of about that many islands: ``--size 7x7 --difficulty easy``,
``20x20 hard`` and ``350x350 hard``.  ``--huge`` adds the board ``largest``: the most the command
line reads (1,000,000 islands on 2000x2000, the ``limits.CLI`` caps; writing it takes minutes),
and for generate the largest ``--size``, 1000x1000 (about 250,000 islands).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _runinfo import git_state

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hashikit import service  # noqa: E402
from hashikit.formats import write_text  # noqa: E402
from hashikit.limits import TIME_MARGIN  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results"
COMMANDS = ("solve", "grade", "hint", "explain", "generate")
#: board label -> (islands, side) for the paper's generator
PAPER = {"100": (100, 16), "30000": (30_000, 350)}
HUGE = {"largest": (1_000_000, 2000)}
#: board label -> the generate command's size and level
GENERATE = {"small": ("7x7", "easy"), "100": ("20x20", "hard"), "30000": ("350x350", "hard"),
            "largest": ("1000x1000", "hard")}


def command() -> list[str]:
    """The ``hashikit`` console script beside this interpreter, else ``python -m hashikit``."""
    script = Path(sys.executable).with_name("hashikit")
    return [str(script)] if script.exists() else [sys.executable, "-m", "hashikit"]


def boards(folder: Path, huge: bool) -> dict[str, Path]:
    """The boards, written into ``folder`` unless already there (``--boards``)."""
    out = {"small": ROOT / "examples" / "prob-bridges.txt"}
    for label, (n, side) in {**PAPER, **(HUGE if huge else {})}.items():
        path = folder / f"paper-{label}-seed1.has"
        if not path.exists():
            puzzle = service.generate_paper(n, side, side, 50.0, 5.0, seed=1)
            path.write_text(write_text(puzzle, "has"))
        out[label] = path
    return out


def argv_for(cmd: str, board: str, path: Path, limit: float, folder: Path) -> list[str]:
    if cmd == "generate":
        size, level = GENERATE[board]
        return ["generate", "--size", size, "--difficulty", level, "--seed", "1", "--time-limit", f"{limit:g}",
                "-o", str(folder / "generated.txt")]
    return [cmd, str(path), "--time-limit", f"{limit:g}"]


def timed(argv: list[str]) -> tuple[float, float, int]:
    """Wall seconds from the start to the exit, CPU seconds (user + system, the process and the
    workers it reaped), and the exit code."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            cwd=ROOT)
    _, status, usage = os.wait4(proc.pid, 0)
    took = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    return took, usage.ru_utime + usage.ru_stime, proc.returncode


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--limits", default="0.5,1,3")
    ap.add_argument("--commands", default=",".join(COMMANDS))
    ap.add_argument("--huge", action="store_true", help="add the largest board the command line reads")
    ap.add_argument("--boards", metavar="DIR", help="keep the boards in DIR (and reuse them); default a temporary folder")
    ap.add_argument("--out", default=str(RESULTS / "time_limits.md"))
    args = ap.parse_args()
    limits = [float(x) for x in args.limits.split(",")]
    commands = args.commands.split(",")
    base = command()
    with tempfile.TemporaryDirectory(prefix="hashikit-time-limits-") as tmp:
        folder = Path(tmp)
        print("writing the boards ...", file=sys.stderr)
        paths = boards(Path(args.boards) if args.boards else folder, args.huge)
        load_before = os.getloadavg()
        startup = [timed([*base, "--version"]) for _ in range(args.runs)]
        cases = [(cmd, board, limit) for cmd in commands for board in paths for limit in limits]
        times: dict[tuple, list[float]] = {c: [] for c in cases}
        cpus: dict[tuple, list[float]] = {c: [] for c in cases}
        codes: dict[tuple, list[int]] = {c: [] for c in cases}
        for r in range(args.runs):
            for case in cases:
                cmd, board, limit = case
                took, cpu, code = timed([*base, *argv_for(cmd, board, paths[board], limit, folder)])
                times[case].append(took)
                cpus[case].append(cpu)
                codes[case].append(code)
                print(f"run {r + 1}/{args.runs} {cmd} {board} T={limit:g}: {took:.2f} s (CPU {cpu:.2f} s) "
                      f"exit {code} load {os.getloadavg()[0]:.1f}", file=sys.stderr)
        load_after = os.getloadavg()
    lines = ["# Time limits kept, whole process", "",
             f"`python benchmarks/time_limits.py --runs {args.runs} --limits {args.limits}"
             + (" --huge" if args.huge else "") + "`: "
             f"{git_state()}, {platform.python_implementation()} {platform.python_version()}, "
             f"{os.cpu_count()} cores, load average {load_before[0]:.1f} before and {load_after[0]:.1f} after "
             f"(the machine is shared).", "",
             f"Wall time of the whole `hashikit` process (console script; start-up, reading, building, solving, "
             f"checking, writing and the exit), {args.runs} runs each, seconds. The promise is "
             f"T + `limits.TIME_MARGIN` = T + {TIME_MARGIN:g} s. Start-up alone (`hashikit --version`): "
             f"wall median {statistics.median(s[0] for s in startup):.2f} s, max {max(s[0] for s in startup):.2f} s; "
             f"CPU median {statistics.median(s[1] for s in startup):.2f} s. CPU is user + system seconds of the "
             f"process and the workers it reaped (on a loaded machine the wall time is what the process waited "
             f"for a core, too). Answers: exit 0 an answer, exit 1 `unknown` (or a puzzle without one solution: "
             f"grade, hint and explain on the paper's boards).",
             "", "| command | board (islands) | T | wall median | wall max | max - T | within T + margin "
                 "| CPU median | exits |",
             "|---|---|---|---|---|---|---|---|---|"]
    worst = 0.0
    for case in cases:
        cmd, board, limit = case
        ts, cs = times[case], codes[case]
        over = max(ts) - limit
        worst = max(worst, over)
        exits = ", ".join(f"{cs.count(c)}x{c}" for c in sorted(set(cs)))
        lines.append(f"| {cmd} | {board} | {limit:g} | {statistics.median(ts):.2f} | {max(ts):.2f} | {over:+.2f} "
                     f"| {'yes' if over <= TIME_MARGIN else '**no**'} | {statistics.median(cpus[case]):.2f} "
                     f"| {exits} |")
    lines += ["", f"Largest overshoot past T: {worst:.2f} s (promise: {TIME_MARGIN:g} s)."]
    Path(args.out).write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
