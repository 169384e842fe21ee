"""The ``hashikit`` command.

Exit codes: 0 solved / valid, 1 no solution / invalid / unknown, 2 bad input.
Errors go to standard error as one line naming the file, the line and the
problem; there is never a traceback for bad input.
"""

from __future__ import annotations

import argparse
import json
import sys

EXIT_OK, EXIT_NO, EXIT_BAD = 0, 1, 2

EPILOG_FORMATS = """\
formats (chosen by file extension, by content for .txt and stdin, or named with --from/--to):
  grid           .txt   plain grid: 1-9 and A-G (10-16) islands, '.' or '0' empty, '#' comments
  csv            .csv   comma-separated grid rows, 0 = empty
  has            .has   Coelho et al. benchmark format: 'rows cols n' then rows of integers
  tatham         .tatham  Simon Tatham's Bridges game ID, e.g. 7x7m2:4d2b1b4a26b3m1c3c3c2d3
  puzzlink       .url   puzz.link URL, https://puzz.link/p?hashikake/<cols>/<rows>/<body>
  json           .json  JSON puzzle (and solution); schema in the README
  json-solution  .sol.json  JSON solution with its puzzle
  solved         .sol   solved grid text: - = horizontal, | " vertical bridges
  solved-unicode .usol  the same with ─ ═ │ ║
  prob           .mch   ProB B machine of the 'Bridges' model (write only)
  dot            .dot   Graphviz DOT with grid positions, render with 'neato -n' (write only)
  ohmec          .ohmec ohmec hashi.js descriptor WxH:rows (the Nikoli collection)
  pzprv3         .pzprv3  pzprjs file text with its answer
"""


class BadInput(Exception):
    """Raised inside commands for input problems: printed as one line, exit 2."""


def _fail(message: str) -> int:
    print(f"hashikit: error: {message}", file=sys.stderr)
    return EXIT_BAD


def _read(path: str, fmt: str | None):
    from .formats import read_file

    return read_file(path, fmt)


def _load_puzzle(path: str, fmt: str | None):
    doc = _read(path, fmt)
    if doc.puzzle is None:
        raise BadInput(f"{path}: holds a solution without its puzzle; give the puzzle file")
    return doc


def _write_output(text: str | bytes, out: str | None) -> None:
    if out in (None, "-"):
        if isinstance(text, bytes):
            sys.stdout.buffer.write(text)
        else:
            sys.stdout.write(text if text.endswith("\n") else text + "\n")
        return
    mode = "wb" if isinstance(text, bytes) else "w"
    try:
        with open(out, mode, **({} if isinstance(text, bytes) else {"encoding": "utf-8"})) as fh:
            fh.write(text)
    except OSError as exc:
        raise BadInput(f"{out}: cannot write: {exc.strerror or exc}") from None


def _solution_text(puzzle, solution, unicode: bool = False) -> str:
    """The solved grid; for boards the text cannot draw (MAXBRIDGES > 2), the bridge list."""
    from .errors import FormatError
    from .formats import write_text

    try:
        return write_text(puzzle, "solved-unicode" if unicode else "solved", solution)
    except FormatError:
        return "\n".join(" ".join(map(str, b)) for b in solution.to_list()) + "\n"


# -- solve --------------------------------------------------------------------
def cmd_solve(args) -> int:
    from .model import describe_cell
    from .solvers import solve

    doc = _load_puzzle(args.file, args.from_format)
    puzzle = doc.puzzle
    for i, isl in enumerate(puzzle.islands):
        nbrs = len(puzzle.incident[i])
        if isl.number > puzzle.maxbridges * nbrs:
            raise BadInput(
                f"{args.file}: island {isl.number} at {describe_cell(isl.row, isl.col)} has {nbrs} "
                f"neighbour{'s' if nbrs != 1 else ''}, so at most {puzzle.maxbridges * nbrs} bridges "
                f"(MAXBRIDGES {puzzle.maxbridges})")
    if args.all:
        want = args.limit
    elif args.unique:
        want = 2
    else:
        want = 1
    result = solve(puzzle, engine=args.engine, time_limit=args.time_limit, max_solutions=want)
    status = result.status.value
    if args.format == "json":
        out = {"status": status, "bridges": result.solution.to_list() if result.solution else [],
               "stats": _json_stats(result.stats), "engine": result.engine}
        if result.reason:
            out["reason"] = result.reason
        if args.unique and result.solution is not None:
            out["unique"] = result.unique
            if result.unique is False:
                out["second"] = result.solutions[1].to_list()
        if args.all:
            out["solutions"] = [s.to_list() for s in result.solutions]
            out["complete"] = result.complete
        print(json.dumps(out))
    elif result.solution is not None:
        if args.to:
            from .formats import write_text

            _write_output(write_text(puzzle, args.to, result.solution), args.output)
        elif args.all:
            for n, sol in enumerate(result.solutions, 1):
                print(f"# solution {n}")
                sys.stdout.write(_solution_text(puzzle, sol, args.unicode))
        else:
            _write_output(_solution_text(puzzle, result.solution, args.unicode), args.output)
    if not args.quiet and args.format != "json":
        print(_summary(result, args), file=sys.stderr)
    if args.svg and result.solution is not None:
        from . import render

        render.write(args.svg, puzzle, result.solution)
    return EXIT_OK if result.solution is not None else EXIT_NO


def _json_stats(stats: dict) -> dict:
    return {k: (round(v, 6) if isinstance(v, float) else v) for k, v in stats.items()}


def _summary(result, args) -> str:
    st = result.stats
    t = st.get("time", 0.0)
    detail = ", ".join(f"{k} {v}" for k, v in st.items() if k in ("rounds", "cuts", "nodes"))
    line = f"{result.status.value} in {t:.3f} s by {result.engine}" + (f" ({detail})" if detail else "")
    if result.reason:
        line += f": {result.reason}"
    if args.unique and result.solution is not None:
        line += {True: "; the solution is unique", False: "; NOT unique: another solution exists",
                 None: "; uniqueness unknown (time limit)"}[result.unique]
    if args.all:
        line += f"; {len(result.solutions)} solution(s)" + (
            ", all of them" if result.complete else f", stopped at --limit {args.limit}"
            if len(result.solutions) >= args.limit else ", search stopped by the time limit")
    return line


# -- check --------------------------------------------------------------------
def cmd_check(args) -> int:
    from .checker import check

    if args.solution is None:
        doc = _read(args.puzzle, args.from_format)
        if doc.puzzle is None or doc.solution is None:
            raise BadInput(f"{args.puzzle}: give a puzzle and a solution, or one solved grid")
        puzzle, solution = doc.puzzle, doc.solution
    else:
        puzzle = _load_puzzle(args.puzzle, args.from_format).puzzle
        sdoc = _read(args.solution, args.solution_format)
        if sdoc.solution is None:
            raise BadInput(f"{args.solution}: holds no solution (bridges)")
        solution = sdoc.solution
        if sdoc.puzzle is not None and sdoc.puzzle.islands != puzzle.islands:
            mine = {i.pos: i.number for i in puzzle.islands}
            theirs = {i.pos: i.number for i in sdoc.puzzle.islands}
            diff = sorted(set(mine.items()) ^ set(theirs.items()))
            r, c = diff[0][0]
            msg = (f"the solution's islands differ from the puzzle's (first at row {r + 1}, "
                   f"column {c + 1}: puzzle {mine.get((r, c), 'empty')}, solution {theirs.get((r, c), 'empty')})")
            if args.format == "json":
                print(json.dumps({"valid": False, "violations": [{"rule": "islands-differ", "message": msg}]}))
            else:
                print(f"invalid: {msg}")
            return EXIT_NO
    report = check(puzzle, solution)
    if args.format == "json":
        print(json.dumps({"valid": report.ok, "violations": [
            {"rule": v.rule, "message": v.message, "cells": [list(c) for c in v.cells]}
            for v in report.violations]}))
    else:
        print(report)
    return EXIT_OK if report.ok else EXIT_NO


def _solve_for_output(puzzle, path: str):
    """Solve for a command that draws or writes the solution; None (and a message) if there is none."""
    from .solvers import solve

    result = solve(puzzle)
    if result.solution is None:
        print(f"hashikit: {path}: {result.status.value}" + (f": {result.reason}" if result.reason else ""),
              file=sys.stderr)
    return result.solution


# -- convert ------------------------------------------------------------------
def cmd_convert(args) -> int:
    from .formats import format_for_path, get, write_text

    doc = _load_puzzle(args.input, args.from_format)
    if args.to:
        fmt = get(args.to)
    elif args.output == "-":
        raise BadInput("writing to standard output: name the format with --to")
    else:
        fmt = format_for_path(args.output, writing=True)
    if fmt.write is None:
        raise BadInput(f"format {fmt.name!r} cannot be written")
    solution = doc.solution
    if fmt.needs_solution and solution is None:
        if not args.solve:
            raise BadInput(f"format {fmt.name!r} shows a solution and {args.input} has none; "
                           f"add --solve to solve it first")
    if args.solve and solution is None:
        solution = _solve_for_output(doc.puzzle, args.input)
        if solution is None:
            return EXIT_NO
    _write_output(write_text(doc.puzzle, fmt.name, solution), args.output)
    return EXIT_OK


# -- render -------------------------------------------------------------------
def cmd_render(args) -> int:
    from . import render

    doc = _load_puzzle(args.file, args.from_format)
    solution = doc.solution if not args.blank else None
    if args.solve and solution is None:
        solution = _solve_for_output(doc.puzzle, args.file)
        if solution is None:
            return EXIT_NO
    kwargs = {"show_links": True} if args.show_links else {}
    render.write(args.output, doc.puzzle, solution, **kwargs)
    return EXIT_OK


# -- parser -------------------------------------------------------------------
def _positive_float(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if v <= 0:
        raise argparse.ArgumentTypeError("must be positive")
    return v


def _positive_int(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if v < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return v


def build_parser() -> argparse.ArgumentParser:
    from . import __version__
    from .solvers import DEFAULT_ENGINE, ENGINES

    fmt = argparse.RawDescriptionHelpFormatter
    p = argparse.ArgumentParser(
        prog="hashikit", formatter_class=fmt,
        description="Solve, check, convert and draw Hashiwokakero (Bridges) puzzles.",
        epilog="examples:\n"
               "  hashikit solve examples/prob-bridges.txt\n"
               "  hashikit solve puzzle.has --format json --unique\n"
               "  hashikit check puzzle.txt my-solution.sol\n"
               "  hashikit convert puzzle.txt puzzle.json\n"
               "  hashikit render puzzle.txt board.svg --solve\n\n"
               "exit codes: 0 solved/valid, 1 no solution/invalid, 2 bad input\n"
               "run 'hashikit COMMAND --help' for each command's options")
    p.add_argument("--version", action="version", version=f"hashikit {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    s = sub.add_parser("solve", help="solve a puzzle and print the solved grid", formatter_class=fmt,
                       description="Solve a puzzle exactly. Prints the solved grid (- = horizontal, | \" vertical "
                                   "bridges) and a one-line summary on standard error.",
                       epilog="engines:\n" + "".join(f"  {n:6s} {d}\n" for n, (_, d, _) in ENGINES.items())
                       + "\n" + EPILOG_FORMATS)
    s.add_argument("file", help="puzzle file ('-' for standard input)")
    s.add_argument("--from", dest="from_format", metavar="FORMAT", help="input format (default: from the name)")
    s.add_argument("--to", metavar="FORMAT", help="write the solution in this format instead of the solved grid")
    s.add_argument("-o", "--output", metavar="FILE", help="write the solution to FILE instead of standard output")
    s.add_argument("--format", choices=("text", "json"), default="text",
                   help="text (default) or json: {\"status\", \"bridges\": [[r1,c1,r2,c2,k],...], \"stats\"}")
    s.add_argument("--engine", choices=sorted(ENGINES), default=DEFAULT_ENGINE, help="solver engine (default: %(default)s)")
    s.add_argument("--time-limit", type=_positive_float, metavar="SECONDS",
                   help="give up after this long with status 'unknown' (exit 1)")
    s.add_argument("--unique", action="store_true", help="also prove the solution unique or show a second one")
    s.add_argument("--all", action="store_true", help="enumerate distinct solutions (see --limit)")
    s.add_argument("--limit", type=_positive_int, default=100, metavar="N", help="with --all: at most N (default 100)")
    s.add_argument("--svg", metavar="OUT", help="also draw the solution to OUT (.svg or .png)")
    s.add_argument("--unicode", action="store_true", help="draw bridges with ─ ═ │ ║")
    s.add_argument("-q", "--quiet", action="store_true", help="no summary line on standard error")
    s.set_defaults(func=cmd_solve)

    c = sub.add_parser("check", help="check a solution against the rules", formatter_class=fmt,
                       description="Check a solution against every rule and name each violation: bridges not on a "
                                   "link, too many bridges, crossings, island counts, disconnected groups.",
                       epilog="examples:\n  hashikit check puzzle.txt solution.sol.json\n"
                              "  hashikit check my-solved-grid.sol     (a solved grid carries its puzzle)\n\n"
                              + EPILOG_FORMATS)
    c.add_argument("puzzle", help="puzzle file, or a solved grid alone")
    c.add_argument("solution", nargs="?", help="solution file (solved grid text or JSON solution)")
    c.add_argument("--from", dest="from_format", metavar="FORMAT", help="format of the puzzle file")
    c.add_argument("--solution-format", metavar="FORMAT", help="format of the solution file")
    c.add_argument("--format", choices=("text", "json"), default="text", help="report as text or json")
    c.set_defaults(func=cmd_check)

    v = sub.add_parser("convert", help="convert a puzzle (or solution) between formats", formatter_class=fmt,
                       description="Convert between formats; the output format comes from OUT's extension or --to.",
                       epilog="examples:\n  hashikit convert puzzle.txt puzzle.has\n"
                              "  hashikit convert puzzle.txt - --to tatham\n"
                              "  hashikit convert puzzle.txt model.mch          (ProB B machine)\n"
                              "  hashikit convert puzzle.txt solved.dot --solve  (then: neato -n -Tpng solved.dot)\n\n"
                              + EPILOG_FORMATS)
    v.add_argument("input", help="input file ('-' for standard input)")
    v.add_argument("output", help="output file ('-' for standard output, with --to)")
    v.add_argument("--from", dest="from_format", metavar="FORMAT", help="input format")
    v.add_argument("--to", metavar="FORMAT", help="output format")
    v.add_argument("--solve", action="store_true", help="solve first when the output shows a solution")
    v.set_defaults(func=cmd_convert)

    r = sub.add_parser("render", help="draw a puzzle or solution as SVG or PNG", formatter_class=fmt,
                       description="Draw a puzzle (and its solution, if the file has one or --solve is given) "
                                   "as SVG or PNG, chosen by OUT's extension.",
                       epilog="examples:\n  hashikit render puzzle.txt puzzle.svg\n"
                              "  hashikit render puzzle.txt solved.png --solve\n")
    r.add_argument("file", help="puzzle or solution file")
    r.add_argument("output", help="picture to write: .svg or .png")
    r.add_argument("--from", dest="from_format", metavar="FORMAT", help="input format")
    r.add_argument("--solve", action="store_true", help="solve the puzzle and draw the solution")
    r.add_argument("--blank", action="store_true", help="draw the puzzle only, even if the file has a solution")
    r.add_argument("--show-links", action="store_true", help="draw the candidate links faintly")
    r.set_defaults(func=cmd_render)

    from .cli_logic import add_parsers as add_logic_parsers

    add_logic_parsers(sub)

    from .bench import add_parser as add_bench_parser

    add_bench_parser(sub)
    from .web.cli import add_parser as add_web_parser
    add_web_parser(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return EXIT_BAD
    from .errors import HashikitError

    try:
        return args.func(args)
    except BadInput as exc:
        return _fail(str(exc))
    except HashikitError as exc:
        return _fail(str(exc))
    except KeyboardInterrupt:
        print("hashikit: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except MemoryError:
        return _fail("out of memory: the puzzle is too large for this machine")
    except Exception as exc:  # a bug: say so in one line rather than a traceback
        print(f"hashikit: internal error: {type(exc).__name__}: {exc} "
              f"(please report this with the input file)", file=sys.stderr)
        return 3


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
