"""The ``hashikit`` command: a thin printer of the use-cases in :mod:`hashikit.service`.

Exit codes: 0 solved / valid, 1 no solution / invalid / unknown (time limit), 2 bad input,
130 interrupted.  Errors go to standard error as one line naming the file, the line and the
problem; there is never a traceback for bad input.  Output paths and formats are checked
before the work starts; flags that make no sense together are refused.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from .. import service
from . import argtypes, output
from . import deadline as cli_deadline
from .common import (EXIT_BAD, EXIT_CODES, EXIT_INTERRUPTED, EXIT_NO, EXIT_OK, OneLineParser, engines_help,
                         formats_help, limits_help, print_json, refuse, say)
from .common import add_show, collect_seldom, load_shown
from ..service import BadInput

__all__ = ["main", "build_parser", "EXIT_OK", "EXIT_NO", "EXIT_BAD", "BadInput"]


def _fail(message: str) -> int:
    say(f"hashikit: error: {message}")
    return EXIT_BAD


# -- solve --------------------------------------------------------------------
def cmd_solve(args) -> int:
    from ..model import Solution

    refuse((args.limit is not None and not args.all, "--limit goes with --all (how many solutions to list)"),
           (args.unicode and (args.to or args.format == "json"),
            "--unicode draws the solved grid; it does not go with --to or --format json"),
           (args.unicode and args.output not in (None, "-") and not args.output.lower().endswith((".txt", ".usol")),
            f"--unicode draws the solved grid with ─ ═ │ ║; -o {args.output} is written in the format its ending "
            "names: give a .usol (or .txt) file name"),
           (args.quiet and args.format == "json", "-q leaves out the summary line of text output; --format json "
                                                  "prints none"))
    collect_seldom(args)
    max_solutions = args.limit or 100
    fmt = _solution_format(args)
    _refuse_numbered_over_input(args)
    deadline = cli_deadline.deadline_of(args)
    cli_deadline.arm(args, deadline, _out_of_time(args, deadline))
    doc = load_shown(args, args.file)
    puzzle = service.admit_file(args.file, doc.puzzle)
    report = service.solve(puzzle, engine=args.engine, time_limit=deadline, unique=args.unique,
                           enumerate_all=args.all, max_solutions=max_solutions)
    shown = _solutions_shown(report, args)
    # JSON carries a text only with --to: a 10,000-island grid costs 0.1 s to draw
    texts = ([_solution_text(puzzle, Solution.from_list(s), fmt, args.unicode) for s in shown]
             if args.format != "json" or args.to else [])
    picture = (service.drawing(args.svg, puzzle, Solution.from_list(report.bridges))
               if args.svg and report.status == "solved" else None)
    cli_deadline.commit()
    if args.format == "json":
        data = report.as_json()
        if args.to:
            data["text"] = texts[0] if texts else None
            if len(texts) > 1:
                data["texts"] = texts
        print_json(data, args.output)
    else:
        _write_solutions(texts, args.output)
    if picture is not None:
        output.write_output(picture, args.svg)
    if not args.quiet and args.format != "json":
        say(_summary(report, args, max_solutions))
    if report.status != "solved" or (args.unique and report.unique is False):
        return EXIT_NO
    return EXIT_OK


def _out_of_time(args, deadline) -> list[tuple[int | str, str]]:
    """What ``solve`` answers when the hard stop ends it (:mod:`hashikit.cli.deadline`): the
    report of an unknown status, as the command answers it when the engine runs out of time."""
    if deadline is None:
        return []
    message = f"no answer within the time limit of {deadline.seconds:g} s"
    if args.format == "json":
        data = {"status": "unknown", "bridges": [], "engine": args.engine, "message": message}
        import json  # here: a text answer does not load it

        return [(1 if args.output in (None, "-") else args.output, json.dumps(data))]
    return [] if args.quiet else [(2, f"unknown by {args.engine}: {message}")]


def _solutions_shown(report, args) -> list:
    """The solutions text mode prints: all listed with --all, both with --unique when not unique."""
    if report.status != "solved":
        return []
    if args.all:
        return report.solutions
    if args.unique and report.unique is False:
        return [report.bridges, report.second]
    return [report.bridges]


def _solution_format(args):
    """The format the solution is written in: ``--to``, else -o's ending when that format holds a
    solution, else None (the solved grid, also for a ``.txt`` file).  Checked before the work starts."""
    if args.to:
        return output.output_format(None if args.format == "json" else args.output, args.to)
    if args.output in (None, "-") or args.format == "json" or _grid_file(args.output):
        return None
    fmt = output.output_format(args.output, None)
    return fmt if fmt.needs_solution or fmt.has_solution else None


def _solve_output_problem(path: str, args) -> str | None:
    """What ``solve -o`` cannot write: a JSON report to a file not named .json; a solution to a file
    whose ending names a format that holds none, or no format at all."""
    from ..errors import FormatError
    from ..formats import format_for_path

    if args.format == "json":
        return None if path.lower().endswith(".json") else "--format json writes a JSON report; give a .json file name"
    if args.to or _grid_file(path):
        return None
    try:
        fmt = format_for_path(path, writing=True)
    except FormatError:
        fmt = None
    if fmt is None or not (fmt.needs_solution or fmt.has_solution):
        holds = output.puzzle_endings(lambda f: f.write is not None and (f.needs_solution or f.has_solution))
        what = f"the {fmt.name} format holds no solution" if fmt else "its ending names no format solve writes"
        return f"{what}; give a .txt (the solved grid) or {holds} file name, or name the format with --to"
    return None


def _grid_file(path: str) -> bool:
    """A ``.txt`` file, or one with no ending: the solved grid as text."""
    return path.lower().endswith(".txt") or not os.path.splitext(os.path.basename(path))[1]


def _refuse_numbered_over_input(args) -> None:
    """With several solutions ``-o out.sol`` also writes ``out-2.sol``, ``out-3.sol``, ...: none of
    them may be the input file."""
    import re

    if args.output in (None, "-") or not (args.all or args.unique) or args.file == "-":
        return
    stem, ext = _stem_and_ending(args.output)
    real = os.path.realpath(args.file)
    same_folder = os.path.dirname(real) == os.path.dirname(os.path.realpath(args.output))
    if same_folder and re.fullmatch(re.escape(os.path.basename(stem)) + r"-[0-9]+" + re.escape(ext),
                                    os.path.basename(real)):
        raise BadInput(f"-o {args.output}: further solutions go to {numbered(args.output, 2)}, "
                       f"{numbered(args.output, 3)}, ...: the input {args.file} would be written over; "
                       "give another name")


def _solution_text(puzzle, solution, fmt, unicode: bool) -> str:
    if fmt is None:
        return service.solution_text(puzzle, solution, unicode)
    return service.convert(puzzle, solution, fmt.name)


def numbered(path: str, n: int) -> str:
    """``out.sol`` -> ``out-2.sol``: where the n-th solution goes when several are written."""
    if n == 1:
        return path
    stem, ext = _stem_and_ending(path)
    return f"{stem}-{n}{ext}"


def _stem_and_ending(path: str) -> tuple[str, str]:
    """``out.sol.json`` -> (``out``, ``.sol.json``); ``out.sol`` -> (``out``, ``.sol``)."""
    for ext in (".sol.json",):
        if path.endswith(ext):
            return path[:-len(ext)], ext
    return os.path.splitext(path)


def _write_solutions(texts: list[str], out: str | None) -> None:
    """One solution as is; several under ``# solution N`` lines on stdout, or in numbered files."""
    if out in (None, "-"):
        for n, text in enumerate(texts, 1):
            if len(texts) > 1:
                sys.stdout.write(f"# solution {n}\n")
            output.write_output(text, None)
        return
    for n, text in enumerate(texts, 1):
        output.write_output(text, numbered(out, n))


def _summary(report, args, max_solutions: int) -> str:
    import time

    st = report.stats or {}
    detail = ", ".join(f"{k} {v}" for k, v in st.items() if k in ("rounds", "cuts", "nodes"))
    if report.status == "unknown" and args.time_limit is not None and getattr(args, "started", None) is not None:
        # the limit counts from the command's start: say that time, and the engine's own beside it
        waited = time.monotonic() - args.started
        line = (f"unknown after {waited:.3f} s by {report.engine} (the engine's own {st.get('time', 0.0):.3f} s"
                + (f", {detail}" if detail else "") + ")")
    else:
        line = f"{report.status} in {st.get('time', 0.0):.3f} s by {report.engine}" + (f" ({detail})" if detail else "")
    if report.reason:
        line += f": {report.reason}"
    if report.message:
        line += f": {report.message}"
    if args.unique and report.status == "solved":
        unknown = "; uniqueness unknown " + ("(time limit)" if args.time_limit else "(the engine did not prove it)")
        line += {True: "; the solution is unique", False: "; NOT unique: another solution exists",
                 None: unknown}[report.unique]
    if args.all and report.status == "solved":
        line += f"; {len(report.solutions)} solution(s)" + (
            ", all of them" if report.complete else {
                "limit": f", stopped at --limit {max_solutions}", "time limit": ", search stopped by the time limit",
                "engine": ", the engine did not search further"}[report.stopped])
    if args.output not in (None, "-") and args.format != "json" and len(_solutions_shown(report, args)) > 1:
        line += f"; written to {args.output} and numbered files beside it ({numbered(args.output, 2)}, ...)"
    return line


# -- check --------------------------------------------------------------------
def cmd_check(args) -> int:
    refuse((args.solution_format is not None and args.solution is None,
            "--solution-format names the format of a second file; give the solution file"))
    if args.solution is None:
        doc = service.load(args.puzzle, args.from_format)
        if doc.puzzle is None or doc.solution is None:
            raise BadInput(f"{args.puzzle}: give a puzzle and a solution, or one solved grid")
        puzzle, solution, own = doc.puzzle, doc.solution, None
    else:
        puzzle = service.load_puzzle(args.puzzle, args.from_format).puzzle
        sdoc = service.load(args.solution, args.solution_format)
        if sdoc.solution is None:
            raise BadInput(f"{args.solution}: holds no bridges (no solution)")
        solution, own = sdoc.solution, sdoc.puzzle
    report = service.islands_differ(puzzle, own) if own is not None else None  # a solution of another puzzle
    if report is None:
        service.bridges_on_board(puzzle, solution, args.solution or args.puzzle)
        report = service.check(puzzle, solution)
    if args.format == "json":
        print_json(report)
    else:
        print(_check_text(report))
    return EXIT_OK if report.complete else EXIT_NO


def _check_text(report) -> str:
    if report.complete:
        return "valid: every rule holds"
    n = len(report.violations)
    return "\n".join([f"invalid: {n} violation{'s' if n != 1 else ''}"]
                     + [f"  [{v.rule}] {v.message}" for v in report.violations])


# -- convert ------------------------------------------------------------------
def cmd_convert(args) -> int:
    fmt = output.output_format(args.output, args.to)
    doc = load_shown(args, args.input)
    solution = doc.solution
    refuse((args.solve and solution is not None,
            f"--solve solves a puzzle without a solution; {args.input} holds one, which is written as it is"))
    if fmt.needs_solution and solution is None and not args.solve:
        raise BadInput(f"format {fmt.name!r} shows a solution and {args.input} has none; "
                       f"add --solve to solve it first")
    if args.solve and solution is None:
        solution = _solve_for_output(doc.puzzle, args.input)
        if solution is None:
            return EXIT_NO
    output.write_output(service.convert(doc.puzzle, solution, fmt.name), args.output)
    return EXIT_OK


def _solve_for_output(puzzle, path: str):
    """Solve for a command that writes or draws the solution; None (and the verdict) if none."""
    service.admit_file(path, puzzle)
    solution, report = service.solve_for_output(puzzle)
    if solution is None:
        say(f"hashikit: {path}: {report.status}" + (f": {report.reason}" if report.reason else ""))
    return solution


def _convert_output_problem(path: str, args) -> str | None:
    """What ``convert`` cannot write: an ending that names no writable format (without ``--to``), or
    one that names another format than ``--to``."""
    try:
        output.output_format(path, args.to)
    except BadInput as exc:
        return str(exc).removeprefix(f"{path}: ")
    return None


# -- render -------------------------------------------------------------------
def cmd_render(args) -> int:
    refuse((args.blank and args.solve, "--blank draws the puzzle only and --solve draws its solution; give one"))
    doc = service.load_puzzle(args.file, args.from_format)
    refuse((args.solve and doc.solution is not None,
            f"--solve solves a puzzle without a solution; {args.file} holds one, which is drawn as it is"),
           (args.blank and doc.solution is None,
            f"--blank leaves out the solution a file holds; {args.file} holds none (the puzzle is drawn as it is)"))
    solution = doc.solution if not args.blank else None
    if args.solve and solution is None:
        solution = _solve_for_output(doc.puzzle, args.file)
        if solution is None:
            return EXIT_NO
    kwargs = {"show_links": True} if args.show_links else {}
    output.write_output(service.drawing(args.output, doc.puzzle, solution, **kwargs), args.output)
    return EXIT_OK


# -- parser -------------------------------------------------------------------
#: each group module (its parser adder) and the commands it adds, so a command imports only its own group
GROUPS = {(".logic", "add_parsers"): ("grade", "explain", "hint"),
          (".generate", "add_parsers"): ("generate", "generate-suite"),
          (".bench", "add_parser"): ("bench",),
          (".catalog", "add_parsers"): ("catalog", "book"),
          ("..web.cli", "add_parser"): ("serve",),
          (".site", "add_parser"): ("site",)}


def _command_in(argv: list[str]) -> str | None:
    """The command word of ``argv`` (the first word not an option), None when there is none."""
    return next((a for a in argv if not a.startswith("-")), None)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The whole parser, or with ``command`` (one of :data:`CORE` or of :data:`GROUPS`) only that
    command's: a plain ``solve`` builds no other command's options and does not import the
    generator, the batch runner, the catalogue or the web server."""
    from .. import __version__

    p = OneLineParser(
        prog="hashikit",
        description="Solve, check, convert and draw Hashiwokakero (Bridges) puzzles.",
        epilog="examples (each command's help shows more; they run in the project's examples/ folder):\n"
               "  hashikit solve prob-bridges.txt\n"
               "  hashikit solve puzzle.txt --format json --unique\n"
               "  hashikit check puzzle.txt my-solution.sol\n"
               "  hashikit convert puzzle.txt puzzle.json\n"
               "  hashikit render puzzle.txt board.svg --solve\n\n"
               + EXIT_CODES + "\n" + limits_help() +
               "run 'hashikit COMMAND --help' for each command's options")
    p.add_argument("--version", action="version", version=f"hashikit {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    for add in _adders(command):
        add(sub)
    return p


def _add_solve(sub) -> None:
    from ..solvers import DEFAULT_ENGINE, ENGINES

    s = sub.add_parser("solve", help="solve a puzzle and print the solved grid",
                       description="Solve a puzzle exactly. Prints the solved grid (- = horizontal, | \" vertical "
                                   "bridges) and a one-line summary on standard error.",
                       epilog=("examples:\n  hashikit solve puzzle.txt --unique\n"
                               "  hashikit solve puzzle.txt --all --limit 10 -o sols.sol   (sols.sol, sols-2.sol, ...)\n"
                               "  hashikit solve puzzle.txt --format json -o report.json\n\n",
                               engines_help, "\n", formats_help))
    output.reads(s.add_argument("file", help="puzzle file ('-' for standard input)"))
    s.add_argument("--from", dest="from_format", metavar="FORMAT", type=argtypes.format_read,
                   help="input format (default: from the name)")
    s.add_argument("--to", metavar="FORMAT", type=argtypes.format_written,
                   help="write the solution in this format instead of the solved grid")
    output.writes(s.add_argument("-o", "--output", metavar="FILE",
                                 help="write there instead of standard output (several solutions: FILE, FILE-2, "
                                      "...); a .txt file gets the solved grid, another ending names the format"),
                  "file", _solve_output_problem)
    s.add_argument("--format", choices=("text", "json"), default="text",
                   help="text (default) or json: {\"status\", \"bridges\": [[r1,c1,r2,c2,k],...], \"stats\"}")
    s.add_argument("--engine", choices=sorted(ENGINES), default=DEFAULT_ENGINE,
                   help="solver engine (default: %(default)s)")
    s.add_argument("--time-limit", type=argtypes.time_limit, metavar="SECONDS",
                   help="give up after this long with status 'unknown' (exit 1)")
    s.add_argument("--unique", action="store_true",
                   help="also prove the solution unique or show a second one (NOT unique: exit 1)")
    s.add_argument("--all", action="store_true", help="enumerate distinct solutions (see --limit)")
    s.add_argument("--limit", type=argtypes.positive_int, metavar="N", help="with --all: at most N (default 100)")
    output.writes(s.add_argument("--svg", metavar="OUT", help="also draw the solution to OUT (.svg or .png)"),
                  "file", output.PICTURES, "the drawing")
    s.add_argument("--unicode", action="store_true", help="draw bridges with ─ ═ │ ║")
    s.add_argument("-q", "--quiet", action="store_true", help="no summary line on standard error")
    add_show(s)
    s.set_defaults(func=cmd_solve)


def _add_check(sub) -> None:
    c = sub.add_parser("check", help="check a solution against the rules",
                       description="Check a solution against every rule and name each violation: bridges not on a "
                                   "link, too many bridges, crossings, island counts, disconnected groups.",
                       epilog=("examples:\n  hashikit check puzzle.txt my-solution.sol\n"
                               "  hashikit check my-solution.sol     (a solved grid carries its puzzle)\n\n",
                               formats_help))
    output.reads(c.add_argument("puzzle", help="puzzle file, or a solved grid alone"))
    output.reads(c.add_argument("solution", nargs="?", help="solution file (solved grid text or JSON solution)"))
    c.add_argument("--from", dest="from_format", metavar="FORMAT", type=argtypes.format_read,
                   help="format of the puzzle file")
    c.add_argument("--solution-format", metavar="FORMAT", type=argtypes.format_read,
                   help="format of the solution file")
    c.add_argument("--format", choices=("text", "json"), default="text",
                   help='report as text or json: {"complete", "valid", "violations": [{"rule", "message", "cells"}]}')
    c.set_defaults(func=cmd_check)


def _add_convert(sub) -> None:
    v = sub.add_parser("convert", help="convert a puzzle (or solution) between formats",
                       description="Convert between formats; the output format comes from OUT's extension or --to.",
                       epilog=("examples:\n  hashikit convert puzzle.txt puzzle.has\n"
                               "  hashikit convert puzzle.txt - --to tatham\n"
                               "  hashikit convert puzzle.txt model.mch          (ProB B machine)\n"
                               "  hashikit convert puzzle.txt solved.dot --solve  (then: neato -n -Tpng solved.dot)\n"
                               "  hashikit convert screenshot.png - --to json --show read.png   (a picture: the board and the "
                               "bridges drawn)\n\n", formats_help))
    output.reads(v.add_argument("input", help="input file ('-' for standard input)"))
    output.writes(v.add_argument("output", help="output file ('-' for standard output, with --to)"),
                  "file", _convert_output_problem)
    v.add_argument("--from", dest="from_format", metavar="FORMAT", type=argtypes.format_read,
                   help="input format")
    v.add_argument("--to", metavar="FORMAT", type=argtypes.format_written,
                   help="output format")
    v.add_argument("--solve", action="store_true", help="solve first when the output shows a solution")
    add_show(v)
    v.set_defaults(func=cmd_convert)


def _add_render(sub) -> None:
    r = sub.add_parser("render", help="draw a puzzle or solution as SVG or PNG",
                       description="Draw a puzzle (and its solution, if the file has one or --solve is given) "
                                   "as SVG or PNG, chosen by OUT's extension.",
                       epilog="examples:\n  hashikit render puzzle.txt puzzle.svg\n"
                              "  hashikit render puzzle.txt solved.png --solve\n")
    output.reads(r.add_argument("file", help="puzzle or solution file"))
    output.writes(r.add_argument("output", help="picture to write: .svg or .png"), "file", output.PICTURES,
                  "the drawing")
    r.add_argument("--from", dest="from_format", metavar="FORMAT", type=argtypes.format_read,
                   help="input format")
    r.add_argument("--solve", action="store_true", help="solve the puzzle and draw the solution")
    r.add_argument("--blank", action="store_true", help="draw the puzzle only, even if the file has a solution")
    r.add_argument("--show-links", action="store_true", help="draw the candidate links faintly")
    r.set_defaults(func=cmd_render)


#: the commands this module adds itself, each with its parser adder
CORE = {"solve": _add_solve, "check": _add_check, "convert": _add_convert, "render": _add_render}


def _adders(command: str | None):
    """The parser adders to run: the one command's, or every command's (for ``--help``, no command,
    or a misspelt one, so that argparse can list every command)."""
    if command in CORE:
        yield CORE[command]
        return
    wanted = [g for g, names in GROUPS.items() if command in names]
    if not wanted:
        yield from CORE.values()
    for module, adder in wanted or GROUPS:
        yield getattr(importlib.import_module(module, __package__), adder)


def _picture_notes() -> None:
    """A picture's reading (what it saw, where unsure) goes to stderr."""
    from .picture_notes import cli_logging

    cli_logging()


def main(argv: list[str] | None = None) -> int:
    """Run one command; every failure ends as one line and an exit code, never a traceback."""
    from ..errors import HashikitError

    started = cli_deadline.begin(whole_process=argv is None)
    try:
        try:
            from ..formats import before_picture

            before_picture(_picture_notes)
            words = sys.argv[1:] if argv is None else argv
            parser = build_parser(_command_in(words))
            args = parser.parse_args(argv)
            if not getattr(args, "command", None):
                parser.print_help()
                return EXIT_BAD
            args.started, args.whole_process = started, argv is None
            output.guard(parser, args)
            return args.func(args)
        finally:  # an error answers as itself, not as "unknown"
            cli_deadline.commit()
    except HashikitError as exc:  # BadInput, FormatError, UnsupportedOption, BadArgument, ...
        return _fail(str(exc))
    except KeyboardInterrupt:
        say("hashikit: interrupted")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        try:  # the reader went away (e.g. | head): quietly, and without a second error at exit
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return EXIT_OK
    except MemoryError:
        return _fail("out of memory: the puzzle is too large for this machine")
    except Exception as exc:  # a bug: say so in one line rather than a traceback
        say(f"hashikit: internal error: {type(exc).__name__}: {exc} (please report this with the input file)")
        return 3


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
