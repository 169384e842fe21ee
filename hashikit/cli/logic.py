"""Commands built on the deducer: ``hint``, ``explain`` and ``grade``, thin printers of
:mod:`hashikit.service`.

Same conventions as :mod:`hashikit.cli` (exit 0 success, 1 "no" or unknown, 2 bad input, 130
Ctrl-C).  ``--time-limit`` work that cannot stop itself (the deducer) runs in a child process
ended at the limit (:func:`hashikit.service.within`).
"""

from __future__ import annotations

import json

from .. import service
from . import argtypes, output
from . import deadline as cli_deadline
from ..errors import PuzzleError
from .common import EXIT_BAD, EXIT_NO, EXIT_OK, add_show, levels, load_shown, print_json, refuse
from ..limits import Deadline
from ..service import BadInput, OutOfTime

__all__ = ["add_parsers", "EXIT_BAD"]


def _unknown(args, exc: OutOfTime) -> int:
    """The answer when the time limit ran out: status unknown, exit 1."""
    cli_deadline.commit()
    print(_unknown_text(args, str(exc)))
    return EXIT_NO


def _unknown_text(args, message: str) -> str:
    """The answer when the time ran out, in the command's own JSON shape (the grade or the
    explanation nobody could give: null, with the reason as its verdict, and ``"status": "unknown"``
    as every command answers it; hint's report of status ``unknown``), or as a line of text."""
    if args.format != "json":
        return f"unknown: {message}"
    if args.command == "grade":
        data = {"grade": None, "score": None, "steps": {}, "undecided": None, "verdict": f"unknown: {message}",
                "status": "unknown"}
    elif args.command == "explain":
        data = {"solved": False, "steps": [], "undecided": None, "verdict": f"unknown: {message}",
                "status": "unknown"}
    else:
        data = service.HintReport(status="unknown", sentence=message).as_json()
    return json.dumps(data)


def _limited(args) -> Deadline | None:
    """The command's deadline (:mod:`hashikit.cli.deadline`), its hard stop armed to answer "unknown"."""
    deadline = cli_deadline.deadline_of(args)
    if deadline is not None:
        cli_deadline.arm(args, deadline, [(1, _unknown_text(
            args, f"no answer within the time limit of {deadline.seconds:g} s"))])
    return deadline


def _puzzle(args):
    doc = service.load_puzzle(args.file, args.from_format)
    return service.admit_file(args.file, doc.puzzle)


# -- grade / explain ----------------------------------------------------------
def _rules_report(args, use):
    """``use`` (``service.grade`` or ``service.explain``) on the file's puzzle within the command's
    deadline; None when the time ran out (the unknown answer is printed)."""
    deadline = _limited(args)
    puzzle = _puzzle(args)
    try:
        report = service.within(deadline, use, puzzle, args.max_level, deadline)
    except OutOfTime as exc:
        _unknown(args, exc)
        return None
    cli_deadline.commit()
    return report


def cmd_grade(args) -> int:
    g = _rules_report(args, service.grade)
    if g is None:
        return EXIT_NO
    if args.format == "json":
        print_json(g)
    else:
        steps = ", ".join(f"{lvl} {n}" for lvl, n in g.steps.items() if n)
        head = (f"{g.grade} (score {g.score})" if g.grade is not None else
                f"ungraded (rules up to '{args.max_level}' stuck with {g.undecided} links open; "
                f"score {g.score}): {g.verdict}")
        print(head + (f"; steps: {steps}" if steps else ""))
    return EXIT_OK if g.grade is not None else EXIT_NO


def cmd_explain(args) -> int:
    report = _rules_report(args, service.explain)
    if report is None:
        return EXIT_NO
    if args.format == "json":
        print_json(report)
        return EXIT_OK if report.solved else EXIT_NO
    for n, step in enumerate(report.steps, 1):
        print(f"{n:3d}. [{step.level}] {step.sentence}")
    if not report.solved:
        print(f"stuck after {len(report.steps)} steps: no rule up to '{args.max_level}' applies; "
              f"{report.undecided} links are still open: {report.verdict}")
        return EXIT_NO
    print(f"solved by logic in {len(report.steps)} steps")
    return EXIT_OK


# -- hint ---------------------------------------------------------------------
def cmd_hint(args) -> int:
    refuse((args.state_format is not None and args.state is None, "--state-format goes with --state"),
           (not args.validate_solution and args.state is None, "--no-solution-check goes with --state"))
    deadline = _limited(args)
    doc = load_shown(args, args.file)
    puzzle = service.admit_file(args.file, doc.puzzle)
    partial = doc.solution if doc.in_play and args.state is None else None  # a picture: the game so far
    refuse((args.state is not None and doc.in_play and doc.solution is not None,
            f"{args.file} shows bridges drawn (the board so far) and --state gives another board; give one"))
    if args.state:
        sdoc = service.load(args.state, args.state_format)
        if sdoc.solution is None:
            raise BadInput(f"{args.state}: holds no bridges")
        partial = sdoc.solution
        service.bridges_on_board(puzzle, partial, args.state)
        try:
            partial.counts(puzzle)
        except PuzzleError as exc:  # a bridge on no link: the board does not fit this puzzle
            raise BadInput(f"{args.state}: {exc.message}") from None
    try:
        report = service.within(deadline, service.hint, puzzle, partial, max_level=args.max_level,
                                validate_solution=args.validate_solution, time_limit=deadline)
    except OutOfTime as exc:
        return _unknown(args, exc)
    picture = (service.drawing(args.svg, puzzle, partial, highlight=service.step_highlight(puzzle, report))
               if args.svg and report.status == "hint" else None)
    cli_deadline.commit()
    if args.format == "json":
        print_json(report)
    elif report.status == "conflict":
        print("Your board has a problem:")
        for p in report.problems:
            print(f"  - {p}")
    elif report.status == "hint":
        print(f"[{report.level}] {report.sentence}")
    else:
        print(report.sentence)
    if picture is not None:
        output.write_output(picture, args.svg)
    return EXIT_OK if report.status in ("hint", "complete") else EXIT_NO


# -- parsers ------------------------------------------------------------------
def add_parsers(sub) -> None:
    g = sub.add_parser("grade", help="grade a puzzle's difficulty by the rules a person needs",
                       description="Grade = the lowest level of human-style rules (easy, medium, hard, expert) that "
                                   "finishes the puzzle with no guessing; 'ungraded' when the rules get stuck. "
                                   "The score weighs each step by its level (1, 3, 9, 27).",
                       epilog="examples:\n  hashikit grade puzzle.txt\n  hashikit grade puzzle.txt --format json")
    output.reads(g.add_argument("file", help="puzzle file"))
    g.add_argument("--from", dest="from_format", metavar="FORMAT", type=argtypes.format_read,
                   help="input format")
    g.add_argument("--max-level", choices=levels(), default=levels()[-1], help="strongest rules to try")
    g.add_argument("--format", choices=("text", "json"), default="text",
                   help='json: {"grade": ..., "score": ..., "steps": {level: count}, "undecided", "verdict"?}')
    g.add_argument("--time-limit", type=argtypes.time_limit, metavar="SECONDS",
                   help="give up after this long with status 'unknown' (exit 1)")
    g.set_defaults(func=cmd_grade)

    e = sub.add_parser("explain", help="print the whole logical solve path, step by step",
                       description="Solve as a person would, one named deduction at a time, each with a sentence.",
                       epilog="example:\n  hashikit explain puzzle.txt --max-level medium")
    output.reads(e.add_argument("file", help="puzzle file"))
    e.add_argument("--from", dest="from_format", metavar="FORMAT", type=argtypes.format_read,
                   help="input format")
    e.add_argument("--max-level", choices=levels(), default=levels()[-1], help="strongest rules to use")
    e.add_argument("--format", choices=("text", "json"), default="text", help="text or json")
    e.add_argument("--time-limit", type=argtypes.time_limit, metavar="SECONDS",
                   help="give up after this long with status 'unknown' (exit 1)")
    e.set_defaults(func=cmd_explain)

    h = sub.add_parser("hint", help="the next logical step, with its reason",
                       description="Print the next deduction a person can make, and why. With --state, start "
                                   "from the bridges you have drawn so far (a solved-grid text or JSON solution); "
                                   "a board that already breaks a rule, or has a bridge the (unique) solution "
                                   "lacks, is reported with the offending bridges. A picture (PNG, JPEG, WebP) is "
                                   "read with the bridges drawn on it as your board so far.",
                       epilog="examples:\n  hashikit hint puzzle.txt\n"
                              "  hashikit hint puzzle.txt --state my-board.json --svg hint.svg\n"
                              "  hashikit hint screenshot.png --show read.png   (the game in the picture; "
                              "read.png shows what was read)")
    output.reads(h.add_argument("file", help="puzzle file"))
    output.reads(h.add_argument("--state", metavar="SOLUTION", help="your board so far (bridges drawn)"))
    h.add_argument("--from", dest="from_format", metavar="FORMAT", type=argtypes.format_read,
                   help="format of the puzzle file")
    h.add_argument("--state-format", metavar="FORMAT", type=argtypes.format_read,
                   help="format of the state file")
    h.add_argument("--max-level", choices=levels(), default=levels()[-1], help="strongest rules to use")
    h.add_argument("--no-solution-check", dest="validate_solution", action="store_false",
                   help="do not compare your bridges with the solution (only the rules)")
    output.writes(h.add_argument("--svg", metavar="OUT", help="draw the board with the hint highlighted (.svg or .png)"),
                  "file", output.PICTURES, "the drawing")
    add_show(h)
    h.add_argument("--format", choices=("text", "json"), default="text", help="text or json")
    h.add_argument("--time-limit", type=argtypes.time_limit, metavar="SECONDS",
                   help="give up after this long with status 'unknown' (exit 1)")
    h.set_defaults(func=cmd_hint)
