"""``hashikit bench``: solve many puzzles with one or more engines, verify every answer, tabulate.

Each (instance, engine) pair runs in a worker process (``--jobs``); the time
reported is the engine's own in-process ``stats["time"]`` (model building
included, process start-up and file reading excluded).  Every solution is
checked by :func:`hashikit.checker.check`; a solution that breaks a rule, or an
"infeasible" answer for a puzzle another engine solved (with a checked
solution), is a *wrong answer*: it is marked ``valid = False`` and makes the
exit code 1.

Files named like the Coelho et al. (2019) benchmark, ``Hs_<side>_<n>_<alpha>_<beta>_<idx>.has``,
are tabulated like the paper's Table 1 (rows n x alpha, columns beta) beside the
paper's published means; other files are grouped by island count.

Exit codes: 0 every answer verified; 1 a wrong answer or an engine crash; 2 bad
input (no puzzle files, unknown or missing engine, an option the engine does not declare,
unreadable files).

The command only: the work (finding files, running on :mod:`hashikit.run.batch`, tables) is
:mod:`hashikit.bench`.
"""

from __future__ import annotations

import argparse
import os
import sys

from ..bench import (PLOT_ENDINGS, PLOT_INSTALL, BenchError, BenchResult, can_plot, find_puzzles, parse_engine_options,
                     plot, problem_lines, progress_path, puzzle_extensions, render_markdown, render_text, run_bench,
                     sample_files, validate_engines)
from . import output
from .argtypes import positive_int, time_limit as time_limit_arg
from .common import EXIT_BAD, EXIT_NO, EXIT_OK  # bench: verified, a wrong answer or crash, bad input


def exit_code(result: BenchResult) -> int:
    """0 every answer verified; 1 a wrong answer or a crash; 2 unreadable input."""
    if result.wrong() or result.errors():
        return EXIT_NO
    if result.unreadable():
        return EXIT_BAD
    return EXIT_OK


# -- command ---------------------------------------------------------------------------
def add_parser(subparsers) -> argparse.ArgumentParser:
    """Add the ``bench`` command to ``hashikit``'s subparsers."""
    b = subparsers.add_parser(
        "bench", help="solve many puzzles with one or more engines, verify and tabulate",
        description="Solve every puzzle file (folders are searched recursively) with each engine in parallel "
                    "worker processes, check every solution with the rule checker, and print tables: "
                    "Table-1 style beside the published numbers of Coelho et al. (2019) for "
                    "Hs_<side>_<n>_<alpha>_<beta>_<idx> files, by island count otherwise.",
        epilog="examples:\n"
               "  hashikit bench easy/ hard/ --csv out.csv --md out.md\n"
               "  hashikit bench easy/ --engine sat,cpsat --time-limit 10\n"
               "  hashikit bench hard/ --engine milp --engine-option weak=False\n"
               "  hashikit bench ../shared/benchmarks/coelho2019 --sample 2 --seed 1 --plot times.png   (the "
               "paper's 1440 instances, 2 per group)\n\n"
               "times are the engines' in-process solve times (model building included).\n"
               "exit codes: 0 every answer verified, 1 a wrong answer or an engine crash, 2 bad input")
    output.reads(b.add_argument("paths", nargs="+", metavar="PATH", help="puzzle files or folders"))
    b.add_argument("--engine", default="sat", metavar="NAME[,NAME...]",
                   help="engines to compare, comma-separated: sat, milp, cpsat (default: sat)")
    b.add_argument("--jobs", "-j", type=positive_int, default=None, metavar="N",
                   help=f"worker processes (default: the number of cores, {os.cpu_count()}; 1 runs in this process)")
    limit = b.add_mutually_exclusive_group()
    limit.add_argument("--time-limit", type=time_limit_arg, default=60.0, metavar="S",
                       help="seconds per instance and engine (default: %(default)s); status 'unknown' past it")
    limit.add_argument("--no-time-limit", dest="time_limit", action="store_const", const=None,
                       help="no time limit (a limited solve runs in a child process ended at the deadline)")
    output.writes(b.add_argument("--csv", metavar="OUT.csv",
                                 help="one row per (instance, engine): the rows stream to OUT.csv.progress as "
                                      "each pair finishes, and OUT.csv is written whole at the end"),
                  "file", (".csv",), "the CSV table")
    b.add_argument("--resume", action="store_true",
                   help="with --csv: keep the rows already there (OUT.csv.progress of a stopped run, else "
                        "OUT.csv) and run only the missing pairs")
    output.writes(b.add_argument("--md", metavar="OUT.md", help="write the tables in Markdown"),
                  "file", (".md",), "the Markdown tables")
    output.writes(b.add_argument("--plot", metavar="OUT.png",
                                 help="plot time against island count, .png, .svg or .pdf (needs matplotlib: "
                                      f"{PLOT_INSTALL})"), "file", PLOT_ENDINGS, "the plot")
    b.add_argument("--sample", type=positive_int, metavar="K",
                   help="only K instances per Hs group (other files count as one group)")
    b.add_argument("--seed", type=int, default=None, metavar="S", help="random seed for --sample")
    b.add_argument("--engine-option", action="append", default=[], metavar="KEY=VALUE",
                   help="engine keyword option, e.g. weak=False; engine.key=value for one engine only; repeatable")
    b.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    b.set_defaults(func=run)
    return b


def _err(message: str) -> int:
    print(f"hashikit: error: {message}", file=sys.stderr)
    return EXIT_BAD


def _inputs(args) -> tuple[list[str], dict[str, dict], list[str]]:
    """Engines, their options and the files, checked before any work (BenchError: exit 2)."""
    engines = list(dict.fromkeys(e.strip() for e in (args.engine or "sat").split(",") if e.strip()))
    if not engines:
        raise BenchError("--engine: name at least one engine")
    validate_engines(engines)
    options = parse_engine_options(getattr(args, "engine_option", None), engines)
    if getattr(args, "resume", False) and not getattr(args, "csv", None):
        raise BenchError("--resume needs --csv OUT.csv (the rows to resume from)")
    if getattr(args, "plot", None) and not can_plot():
        raise BenchError(f"--plot needs matplotlib, which is not installed: {PLOT_INSTALL}")
    if getattr(args, "sample", None) is None and getattr(args, "seed", None) is not None:
        raise BenchError("--seed draws the --sample; give --sample K")
    files = find_puzzles(args.paths)
    if not files:
        raise BenchError(f"no puzzle files found in {', '.join(args.paths)} "
                         f"(looked for {' '.join(sorted(puzzle_extensions()))})")
    if getattr(args, "sample", None):
        files = sample_files(files, args.sample, getattr(args, "seed", None))
    return engines, options, files


def run(args) -> int:
    """The ``bench`` command; returns the exit code (KeyboardInterrupt goes to the CLI: exit 130)."""
    from ..run.batch import BatchError

    try:
        engines, options, files = _inputs(args)
    except BenchError as exc:
        return _err(str(exc))
    jobs = getattr(args, "jobs", None) or os.cpu_count() or 1
    workers = max(1, min(jobs, len(files) * len(engines)))
    if not getattr(args, "quiet", False):
        print(f"bench: {len(files)} file(s) x {len(engines)} engine(s) on {workers} worker(s), "
              + (f"time limit {args.time_limit:g} s" if args.time_limit else "no time limit"), file=sys.stderr)
    try:
        result = run_bench(files, engines, jobs=jobs, time_limit=args.time_limit, options=options,
                           progress=not getattr(args, "quiet", False), csv_path=getattr(args, "csv", None),
                           resume=getattr(args, "resume", False))
    except BatchError as exc:
        return _err(str(exc))
    except OSError as exc:
        return _err(f"cannot write: {exc}")
    except KeyboardInterrupt:
        if getattr(args, "csv", None) and os.path.exists(progress_path(args.csv)):
            print(f"hashikit bench: the rows so far are in {progress_path(args.csv)}; {args.csv} is as it was; "
                  "the same command with --resume goes on from them", file=sys.stderr)
        raise
    sys.stdout.write(render_text(result))
    print(f"wall time {result.wall:.1f} s on {workers} worker(s)")
    try:
        if args.md:
            output.write_output(render_markdown(result), args.md)
    except output.BadInput as exc:
        return _err(str(exc))
    if getattr(args, "plot", None):
        plot(result, args.plot)
    for line in problem_lines(result):
        print(f"hashikit bench: {line}", file=sys.stderr)
    if result.wrong():
        print(f"hashikit bench: {len(result.wrong())} WRONG ANSWER(S)", file=sys.stderr)
    return exit_code(result)
