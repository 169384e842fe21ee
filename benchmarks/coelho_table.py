#!/usr/bin/env python3
"""Reproduce the tables of Coelho, Laporte, Lindbeck & Vidal (2019) with hashikit's engines.

    python benchmarks/coelho_table.py                       # sat on all 1440 -> results/coelho_sat.{md,csv}
    python benchmarks/coelho_table.py --engines milp --sample 2
        # milp with the weak inequality   -> results/coelho_milp_weak.{md,csv}
        # milp without it (weak=False)    -> results/coelho_milp_noweak.{md,csv}
        # cpsat on the same sample        -> results/coelho_cpsat.{md,csv}

The data are read in place from ../shared/benchmarks/coelho2019 (beside the
project folder; --data to change); nothing is copied.  Every run goes through
the ``hashikit bench`` machinery (hashikit.bench): worker processes, the engine's
in-process solve time, every solution checked by the rule checker.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import os
import platform
import sys
from pathlib import Path
from _runinfo import git_state as _git  # noqa: E402  (this folder is on sys.path when run as a script)

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hashikit import bench  # noqa: E402
from hashikit.cli.bench import exit_code  # noqa: E402

DATA = ROOT.parent / "shared" / "benchmarks" / "coelho2019"
RESULTS = Path(__file__).resolve().parent / "results"


def _versions() -> str:
    from importlib import metadata

    out = []
    for pkg in ("python-sat", "pyscipopt", "ortools"):
        try:
            out.append(f"{pkg} {metadata.version(pkg)}")
        except metadata.PackageNotFoundError:
            pass
    return ", ".join(out)


def _cpu() -> str:
    try:
        for line in open("/proc/cpuinfo", encoding="utf-8"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def preamble(command: str, files: int, args, what: str) -> str:
    tl = f"{args.time_limit:g} s per instance" if args.time_limit else "none"
    return "\n".join([
        what,
        "",
        f"- command: `{command}`",
        f"- instances: {files} of the 1440 in `coelho2019/` (read in place from `../shared`)"
        + (f", {args.sample} per group, seed {args.seed}" if args.sample else ""),
        f"- time limit: {tl}; {args.jobs} worker processes",
        f"- machine: {os.cpu_count()} cores ({_cpu()}), shared with other work, so times are noisy; "
        f"Python {platform.python_version()}, {_versions()}",
        f"- run: {_dt.datetime.now().strftime('%Y-%m-%d %H:%M')}, hashikit {_git()}",
        "- time = the engine's in-process solve time (model building included, file reading and process "
        "start-up excluded); every solution was checked by `hashikit.checker`",
    ])


def run_one(name: str, engine: str, options: dict, files: list[str], args, what: str) -> int:
    print(f"== {name}: {engine} {options or ''} on {len(files)} instances", file=sys.stderr)
    res = bench.run_bench(files, [engine], jobs=args.jobs, time_limit=args.time_limit,
                          options={engine: options}, progress=True)
    RESULTS.mkdir(parents=True, exist_ok=True)
    csv_path, md_path = RESULTS / f"{name}.csv", RESULTS / f"{name}.md"
    # paths in the CSV relative to the benchmark folder, so the file does not name this machine
    for r in res.rows:
        r["file"] = os.path.relpath(r["file"], args.data)
    bench.write_csv(res.rows, str(csv_path))
    command = "python benchmarks/coelho_table.py " + " ".join(sys.argv[1:])
    md = bench.render_markdown(res, title=f"Coelho et al. (2019) benchmark: {name}",
                               preamble=preamble(command.strip(), len(files), args, what)
                               + f"\n- wall time of the whole run: {res.wall:.1f} s; load average at the end "
                               f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    md_path.write_text(md, encoding="utf-8")
    sys.stdout.write(bench.render_text(res))
    print(f"wrote {csv_path.relative_to(ROOT)} and {md_path.relative_to(ROOT)} (wall {res.wall:.1f} s)",
          file=sys.stderr)
    return exit_code(res)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--data", type=Path, default=DATA, help="the coelho2019 folder (default: %(default)s)")
    p.add_argument("--engines", choices=("sat", "milp"), default="sat",
                   help="sat: the sat engine (default all 1440); milp: milp with and without the weak "
                        "inequality, and cpsat, on a sample")
    p.add_argument("--sample", type=int, default=None, metavar="K", help="K instances per group (48 groups)")
    p.add_argument("--seed", type=int, default=2019, help="seed for --sample (default %(default)s)")
    p.add_argument("--jobs", type=int, default=2, help="worker processes (default %(default)s)")
    p.add_argument("--time-limit", type=float, default=None,
                   help="seconds per instance (default: none for sat, so it runs CaDiCaL as users do; "
                        "60 for milp and cpsat)")
    p.add_argument("--only", help="with --engines milp: run only these, comma-separated: "
                                  "milp_weak, milp_noweak, cpsat")
    args = p.parse_args()
    if args.time_limit is None and args.engines == "milp":
        args.time_limit = 60.0
    if not args.data.is_dir():
        print(f"coelho_table: {args.data}: not found (expected ../shared/benchmarks/coelho2019 beside "
              f"the project folder; give --data)", file=sys.stderr)
        return 2
    files = [f for f in bench.find_puzzles([str(args.data)]) if bench.hs_group(f)]
    if args.engines == "milp" and not args.sample:
        args.sample = 2
    if args.sample:
        files = bench.sample_files(files, args.sample, args.seed)
    if args.engines == "sat":
        return run_one("coelho_sat", "sat", {}, files, args,
                       "hashikit's `sat` engine (CaDiCaL through python-sat, in a child process ended at the deadline under a time limit; "
                       "lazy connectivity clauses) against the paper's Table 1 (Gurobi branch-and-cut).")
    runs = [
        ("milp_weak", "coelho_milp_weak", "milp", {"weak": True},
         "hashikit's `milp` engine (the paper's branch-and-cut model on SCIP) WITH the weak connectivity "
         "inequality, against the paper's Table 1."),
        ("milp_noweak", "coelho_milp_noweak", "milp", {"weak": False},
         "hashikit's `milp` engine WITHOUT the weak connectivity inequality (engine option weak=False), "
         "against the paper's Table 2 (overall means only)."),
        ("cpsat", "coelho_cpsat", "cpsat", {},
         "hashikit's `cpsat` engine (OR-Tools CP-SAT, one worker, lazy connectivity) on the same sample, "
         "against the paper's Table 1."),
    ]
    only = set(args.only.split(",")) if args.only else None
    code = 0
    for key, name, engine, options, what in runs:
        if only and key not in only:
            continue
        try:
            bench.validate_engines([engine])
        except bench.BenchError as exc:
            print(f"coelho_table: skipping {name}: {exc}", file=sys.stderr)
            continue
        code = max(code, run_one(name, engine, options, files, args, what))
    return code


if __name__ == "__main__":
    sys.exit(main())
