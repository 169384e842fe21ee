"""Whole-process times of plain commands, side by side with a throwaway script (issue "instant").

What a person waits for when hashikit is called once per puzzle: the process's start-up,
imports and reading count, not only the solve.  Each round runs every command once, in turn
(so a slow spell of the shared machine hits them all alike); the table gives the median and
the ratio to the baseline, a prototype-style script that imports python-sat, reads the .has
file, builds the degree, crossing and connectivity model and solves (it checks nothing and
draws nothing).

    python benchmarks/startup.py [--rounds 10]     # writes benchmarks/results/startup.md

Both sides run from a fresh virtual environment holding hashikit installed as the README installs
it (``pip install .``: a regular install, its bytecode compiled), the dependencies taken from this
interpreter's site-packages by a path file: what a user meets.  hashikit runs as the ``hashikit``
command pip writes (not ``python -m hashikit``).  An editable install (this
checkout's ``.venv``) loads a finder at every interpreter start, which costs both sides some
14 ms and flatters the ratio; ``--checkout`` times the checkout that way instead.

Targets (issue 16, median on a quiet machine): ``--version`` <= 0.08 s; ``solve`` on a
100-island instance <= the baseline; ``solve --format json`` <= 1.3x the baseline.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "benchmarks" / "coelho2019" / "100"
OUT = ROOT / "benchmarks" / "results" / "startup.md"
HASHIKIT = [sys.executable, "-m", "hashikit"]
PYTHON = [sys.executable]

BASELINE = r'''
import sys
from itertools import combinations
from pysat.card import CardEnc, EncType
from pysat.formula import IDPool
from pysat.solvers import Solver

lines = open(sys.argv[1]).read().split("\n")
rows, cols, _ = map(int, lines[0].split())
grid = [[int(t) for t in lines[1 + r].split()] for r in range(rows)]
isl = [(r, c, grid[r][c]) for r in range(rows) for c in range(cols) if grid[r][c]]
at = {(r, c): i for i, (r, c, _) in enumerate(isl)}
links = []
for i, (r, c, _) in enumerate(isl):
    for dr, dc in ((0, 1), (1, 0)):
        rr, cc = r + dr, c + dc
        while 0 <= rr < rows and 0 <= cc < cols and (rr, cc) not in at:
            rr, cc = rr + dr, cc + dc
        if (rr, cc) in at:
            links.append((i, at[(rr, cc)]))
pool = IDPool()
one = [pool.id(("one", k)) for k in range(len(links))]
two = [pool.id(("two", k)) for k in range(len(links))]
cnf = [[-two[k], one[k]] for k in range(len(links))]
for i, (r, c, n) in enumerate(isl):
    lits = [v for k, (a, b) in enumerate(links) if i in (a, b) for v in (one[k], two[k])]
    cnf += CardEnc.equals(lits=lits, bound=n, vpool=pool, encoding=EncType.seqcounter).clauses
def cells(k):
    (r1, c1, _), (r2, c2, _) = isl[links[k][0]], isl[links[k][1]]
    return {(r, c) for r in range(min(r1, r2), max(r1, r2) + 1) for c in range(min(c1, c2), max(c1, c2) + 1)} - {(r1, c1), (r2, c2)}
span = [cells(k) for k in range(len(links))]
for k, l in combinations(range(len(links)), 2):
    if span[k] & span[l]:
        cnf.append([-one[k], -one[l]])
with Solver(name="cadical153", bootstrap_with=cnf) as s:
    while s.solve():
        model = set(v for v in s.get_model() if v > 0)
        parent = list(range(len(isl)))
        def find(x):
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x
        for k, (a, b) in enumerate(links):
            if one[k] in model:
                parent[find(a)] = find(b)
        groups = {}
        for i in range(len(isl)):
            groups.setdefault(find(i), set()).add(i)
        if len(groups) == 1:
            print("solved", sum((one[k] in model) + (two[k] in model) for k in range(len(links))))
            break
        for g in groups.values():
            s.add_clause([one[k] for k, (a, b) in enumerate(links) if (a in g) != (b in g)])
    else:
        print("infeasible")
'''


def timed(argv: list[str], cwd: Path) -> float:
    start = time.perf_counter()
    proc = subprocess.run(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    took = time.perf_counter() - start
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(argv)}: exit {proc.returncode}: {proc.stderr[-500:]}")
    return took


def commands(small: Path, hundred: Path, tmp: Path, baseline: Path) -> dict[str, list[str]]:
    return {
        "baseline script, 100 islands": [*PYTHON, str(baseline), str(hundred)],
        "hashikit --version": [*HASHIKIT, "--version"],
        "solve, 14 islands": [*HASHIKIT, "solve", str(small), "-q"],
        "solve, 100 islands": [*HASHIKIT, "solve", str(hundred), "-q"],
        "solve --format json, 100 islands": [*HASHIKIT, "solve", str(hundred), "--format", "json"],
        "check, 100 islands": [*HASHIKIT, "check", str(tmp / "solved.sol")],
        "convert, 100 islands": [*HASHIKIT, "convert", str(hundred), str(tmp / "out.json")],
        "render, 100 islands": [*HASHIKIT, "render", str(hundred), str(tmp / "out.svg")],
    }


def install(tmp: Path) -> None:
    """A fresh virtual environment under ``tmp`` with hashikit installed (not editable) and this
    interpreter's packages on its path; the commands are pointed at it."""
    global HASHIKIT, PYTHON
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    site = subprocess.run([str(venv / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          check=True, capture_output=True, text=True).stdout.strip()
    Path(site, "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", site, str(ROOT)],
                   check=True)
    # the `hashikit` command pip wrote (into the target's bin/, for the interpreter that ran pip),
    # pointed at the new environment's interpreter: the command a user types
    script = Path(site, "bin", "hashikit")
    command = venv / "bin" / "hashikit"
    command.write_text(f"#!{venv / 'bin' / 'python'}\n" + script.read_text().split("\n", 1)[1])
    command.chmod(0o755)
    HASHIKIT, PYTHON = [str(command)], [str(venv / "bin" / "python")]
    where = subprocess.run([*PYTHON, "-c", "import hashikit; print(hashikit.__file__)"], cwd=tmp, check=True,
                           capture_output=True, text=True).stdout.strip()
    if not where.startswith(site):
        raise SystemExit(f"the timed package would be {where}, not the one installed in {site}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--checkout", action="store_true", help="time this checkout's interpreter and package instead")
    args = ap.parse_args()
    files = sorted(SHARED.glob("*.has"))
    if not files:
        raise SystemExit(f"no instances at {SHARED} (the coelho2019 set lives in ../shared beside the project)")
    hundred, small = files[0], ROOT / "examples" / "prob-bridges.txt"
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        baseline = tmp / "baseline.py"
        baseline.write_text(BASELINE)
        if args.checkout:
            subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "hashikit")], check=True)
        else:
            install(tmp)
        # run from the checkout, `python -m hashikit` (--checkout) imports the checkout's package: the
        # current folder comes first on the path
        where = ROOT if args.checkout else tmp
        subprocess.run([*HASHIKIT, "solve", str(hundred), "-o", str(tmp / "solved.sol"), "-q"], check=True, cwd=where)
        cmds = commands(small, hundred, tmp, baseline)
        times: dict[str, list[float]] = {name: [] for name in cmds}
        for name, argv in cmds.items():  # warm-up: the file cache and the bytecode
            timed(argv, where)
        for _ in range(args.rounds):
            for name, argv in cmds.items():
                times[name].append(timed(argv, where))
    base = statistics.median(times["baseline script, 100 islands"])
    load = os.getloadavg()[0]
    lines = ["# Start-up: whole-process times of plain commands", "",
             f"`python benchmarks/startup.py --rounds {args.rounds}`: each round runs every command once, in turn; "
             f"medians over {args.rounds} rounds, whole process (start-up, imports, reading, work, writing), "
             + ("this checkout's interpreter and package, bytecode compiled first. " if args.checkout else
                "hashikit installed as the README installs it (`pip install .`, not editable) in a fresh virtual "
                "environment, which runs the baseline script too. ") +
             f"1-minute load average at the end: {load:.1f} on {os.cpu_count()} CPUs. 100-island instance: "
             f"`{hundred.name}` of the coelho2019 set.", "",
             "| command | median (s) | min (s) | max (s) | / baseline |", "|---|---:|---:|---:|---:|"]
    for name, ts in times.items():
        med = statistics.median(ts)
        lines.append(f"| {name} | {med:.3f} | {min(ts):.3f} | {max(ts):.3f} | {med / base:.2f} |")
    lines += ["", "Targets (issue 16, on a quiet machine): `--version` <= 0.08 s; `solve` on 100 islands <= the "
              "baseline script; `solve --format json` <= 1.3x the baseline.", ""]
    OUT.write_text("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
