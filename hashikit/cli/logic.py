"""Commands built on the deducer and the generators: ``hint``, ``explain``, ``grade``,
``generate`` and ``generate-suite``, thin printers of :mod:`hashikit.service`.

Same conventions as :mod:`hashikit.cli` (exit 0 success, 1 "no" or unknown, 2 bad input, 130
Ctrl-C).  ``--time-limit`` work that cannot stop itself (the deducer, a generator's
layout) runs in a child process ended at the limit (:func:`hashikit.service.within`).

About 540 lines: five commands, each a parser and a printer; ``generate`` carries its batch
(``--count``, ``--cluster``, resumable output) and ``generate-suite`` the paper's, both printers
of the batch runner's rows.
"""

from __future__ import annotations

import argparse
import json
import os

from .. import service
from . import argtypes, output
from . import deadline as cli_deadline
from ..errors import PuzzleError
from ..formats.jsonfmt import puzzle_from_data
from ..run.batch import Job, JsonLinesSink, base_seed, job_seed, run_batch
from .catalog import add_run_options
from .common import EXIT_BAD, EXIT_NO, EXIT_OK, add_show, levels, load_shown, print_json, refuse, say
from ..limits import (GENERATE_DENSITY, GENERATE_EXPANSION, GENERATE_ISLANDS_PERCENT, GENERATE_MAX_DENSITY,
                      GENERATE_MAX_SIDE, GENERATE_MAXBRIDGES, GENERATE_MIN_SIDE, GENERATE_TIME_LIMIT, CLI, Deadline)
from ..model import DEFAULT_MAXBRIDGES
from ..service import BadInput, OutOfTime

__all__ = ["add_parsers", "EXIT_BAD"]


def _unknown(args, exc: OutOfTime) -> int:
    """The answer when the time limit ran out: status unknown, exit 1."""
    cli_deadline.commit()
    print(_unknown_text(args, str(exc)))
    return EXIT_NO


def _unknown_text(args, message: str) -> str:
    return json.dumps({"status": "unknown", "message": message}) if args.format == "json" else f"unknown: {message}"


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
    if args.svg:
        output.validate_picture(args.svg)
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


# -- generate -----------------------------------------------------------------
def _size(text: str) -> tuple[int, int]:
    """``ROWSxCOLS`` (as every other command, and the README's board notation) or a single number
    for a square board."""
    try:
        if "x" in text.lower():
            r, c = text.lower().split("x", 1)
            rows, cols = int(r), int(c)
        else:
            cols = rows = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a board size: {text!r} (use ROWSxCOLS, e.g. 10x15 for 10 rows "
                                         "of 15 columns)") from None
    top = min(GENERATE_MAX_SIDE, CLI.max_side)
    if not (GENERATE_MIN_SIDE <= cols <= top and GENERATE_MIN_SIDE <= rows <= top):
        raise argparse.ArgumentTypeError(f"board sides run from {GENERATE_MIN_SIDE} to {top}")
    return rows, cols


def _density(text: str) -> float:
    """Islands per cell of the default layout: above 0, at most ``limits.GENERATE_MAX_DENSITY``."""
    v = argtypes.positive_float(text)
    if v > GENERATE_MAX_DENSITY:
        raise argparse.ArgumentTypeError(f"islands per cell: above 0 and at most {GENERATE_MAX_DENSITY}")
    return v


#: the options of the unique-puzzle generator (--difficulty) that the paper's (--islands) has no use for
LAYOUT_FLAGS = {"allow_adjacent": "--allow-adjacent", "no_loops": "--no-loops",
                "islands_percent": "--islands-percent", "expansion": "--expansion", "density": "--density"}


def _layout(args) -> dict:
    """The layout options given, as keywords of :func:`hashikit.service.generate_unique`."""
    return {k: getattr(args, k) for k in LAYOUT_FLAGS if getattr(args, k) not in (None, False)}


def cmd_generate(args) -> int:
    rows, cols = args.size
    many = args.count > 1
    refuse((args.islands is not None and args.difficulty is not None,
            "--islands (the paper's generator) and --difficulty (unique graded puzzles) are different modes; "
            "give one"),
           (args.islands is None and args.difficulty is None,
            "say what to generate: --difficulty LEVEL (unique, graded) or --islands N (the paper's)"),
           (args.difficulty is not None and (args.alpha is not None or args.beta is not None),
            "--alpha and --beta belong to the paper's generator (--islands), not to --difficulty"),
           (args.islands is not None and args.time_limit is not None,
            "--time-limit belongs to --difficulty (the paper's generator is immediate)"),
           (args.islands is not None and bool(_layout(args)),
            f"{', '.join(LAYOUT_FLAGS[k] for k in _layout(args))}: only for --difficulty (unique graded puzzles); "
            "the paper's generator (--islands) lays islands out its own way"),
           (args.density is not None and (args.islands_percent is not None or args.expansion is not None),
            "--density shapes the default layout; Tatham's (--islands-percent, --expansion) has its own"),
           (args.allow_adjacent and (args.islands_percent is not None or args.expansion is not None),
            "Tatham's layout (--islands-percent, --expansion) never puts islands side by side: "
            "--allow-adjacent does not apply"),
           (args.difficulty is not None and not GENERATE_MAXBRIDGES[0] <= args.max_bridges <= GENERATE_MAXBRIDGES[1],
            f"--maxbridges runs from {GENERATE_MAXBRIDGES[0]} to {GENERATE_MAXBRIDGES[1]} with --difficulty"),
           (many and args.output is not None, "--count writes several files: give --out-dir, not -o"),
           (not many and (args.out_dir is not None or args.ext is not None or args.jobs is not None
                          or args.cluster is not None),
            "--out-dir, --ext, --jobs and --cluster go with --count K (K > 1)"),
           (args.cluster is not None and args.jobs is not None,
            "--jobs sizes the local pool; with --cluster the cluster's workers run the jobs"))
    if many:
        output.output_format(f"x.{(args.ext or 'txt').lstrip('.')}", None)
        output.validate_folder(args.out_dir or "puzzles")
    else:
        output.output_format(args.output, None, default="grid")
        output.validate_writable(args.output)
    spec = _spec(args, rows, cols)
    if args.difficulty is not None:
        service.validate_generation(**spec)
    if many:
        return _generate_many(args, spec)
    seed = base_seed(args.seed)
    deadline = None
    if "time_limit" in spec:  # one puzzle: its time limit is the whole command's
        deadline = Deadline.after(spec["time_limit"], start=getattr(args, "started", None))
        cli_deadline.arm(args, deadline, [(2, f"hashikit: unknown: no {args.difficulty} puzzle found: no answer "
                                              f"within the time limit of {deadline.seconds:g} s")])
        spec["time_limit"] = deadline
    try:
        record = service.within(deadline, service.generate_record, seed=seed, **spec)
    except OutOfTime as exc:
        cli_deadline.commit()
        say(f"hashikit: unknown: no {args.difficulty} puzzle found: {exc}")
        return EXIT_NO
    puzzle = puzzle_from_data(record["puzzle"], "<record>")
    text = service.convert(puzzle, None, output.output_format(args.output, None, default="grid").name)
    cli_deadline.commit()
    output.write_output(text, args.output)
    if args.catalog:
        with _open_catalog(args.catalog) as cat:
            added = cat.add(puzzle, _catalog_solution(puzzle, record), **_catalog_meta(record))
        say(f"{args.catalog}: {'added' if added else 'already there (or a mirror or rotation of it)'}")
    what = f"{args.difficulty} {rows}x{cols}" if args.difficulty is not None else f"paper's {rows}x{cols}"
    say(f"{what}, {len(puzzle.islands)} islands" + (f", grade {record['grade']}" if record["grade"] else "")
        + f", seed {seed}")
    return EXIT_OK


def _spec(args, rows: int, cols: int) -> dict:
    """The keywords of :func:`hashikit.service.generate_record` the flags ask for (all but the seed)."""
    spec = dict(rows=rows, cols=cols, maxbridges=args.max_bridges)
    if args.islands is not None:
        return {**spec, "islands": args.islands, "alpha": 50.0 if args.alpha is None else args.alpha,
                "beta": 5.0 if args.beta is None else args.beta}
    limit = args.time_limit if args.time_limit is not None else GENERATE_TIME_LIMIT
    return {**spec, "difficulty": args.difficulty, "time_limit": limit, **_layout(args)}


def _generate_many(args, spec: dict) -> int:
    """``--count K``: puzzle ``i`` has seed ``job_seed(base, i)``; the runner streams results to
    ``generate.jsonl`` in the folder (a re-run with the same --seed resumes), files and the index
    are written from them."""
    out_dir, ext = args.out_dir or "puzzles", (args.ext or "txt").lstrip(".")
    base = base_seed(args.seed)
    stem = (f"{spec['difficulty']}-{spec['rows']}x{spec['cols']}" if "difficulty" in spec
            else f"paper-{spec['rows']}x{spec['cols']}-{spec['islands']}")
    tag = json.dumps(spec, sort_keys=True, separators=(",", ":"))
    jobs = []
    for i in range(args.count):
        seed = job_seed(base, i)
        jobs.append(Job(f"{tag}#{base}#{i}", service.generate_record, kwargs={**spec, "seed": seed},
                        time_limit=spec.get("time_limit")))
    say(f"generating {args.count} puzzles into {out_dir}, base seed {base}")

    def file_of(record: dict) -> str:
        return f"{stem}-{record['seed']}.{ext}"
    return _run_and_index(args, jobs, out_dir, file_of, "generate", index=True)


def _run_and_index(args, jobs: list, out_dir: str, file_of, label: str, index: bool) -> int:
    """Run ``jobs`` (each a :func:`hashikit.service.generate_record`) on the batch runner with
    ``<out_dir>/<label>.jsonl`` as the sink (resumed on a re-run), write each puzzle to
    ``file_of(record)`` as it comes (and into the ``--catalog``, from this process only), report
    error rows (exit 1) and, with ``index``, write index.csv/index.json from the results.
    ``--cluster`` runs the same jobs (same seeds, same puzzles) on Dask instead of the local pool."""
    catalog = _open_catalog(args.catalog) if args.catalog else None
    try:
        if args.cluster:
            from ..run.cluster import ClusterLost, executor

            try:
                with executor(args.cluster, note=lambda text: say(f"hashikit: {label}: {text}")) as pool:
                    say(f"{label}: running on the Dask cluster {args.cluster}")
                    return _collect(args, run_batch(jobs, executor=pool, sink=_sink(out_dir, label), resume=True,
                                                    retry_failed=True, label=label),
                                    out_dir, file_of, label, index, catalog)
            except ClusterLost as exc:  # the rows stored so far stay: the same command resumes
                sink = _sink(out_dir, label)
                kept = sum(r.ok for r in sink.load().values())
                say(f"hashikit: {label}: {exc}; {kept} of {len(jobs)} puzzles are kept in {sink.path}: "
                    f"run the same command again to resume")
                return EXIT_NO
        workers = max(1, min(args.jobs or os.cpu_count() or 1, len(jobs)))
        results = run_batch(jobs, workers=workers, inline=workers == 1, sink=_sink(out_dir, label), resume=True,
                            retry_failed=True, label=label,
                            preload=("hashikit.service", "hashikit.generate", "hashikit.generate.coelho"))
        return _collect(args, results, out_dir, file_of, label, index, catalog)
    finally:
        if catalog is not None:
            catalog.close()


def _sink(out_dir: str, label: str) -> JsonLinesSink:
    return JsonLinesSink(os.path.join(out_dir, f"{label}.jsonl"))


def _open_catalog(path: str):
    from ..publish.catalog import Catalog

    return Catalog(path)


def _catalog_solution(puzzle, record: dict):
    """The solution a catalogue stores with a generated puzzle: the generator's (checked again by
    the catalogue), or for the paper's puzzles (and rows of an older run) one the solver finds."""
    from ..model import Solution

    if record.get("bridges"):
        return Solution.from_list(record["bridges"])
    solution, report = service.solve_for_output(puzzle)
    if solution is None:
        raise service.BadInput(f"the generated puzzle of seed {record['seed']} has no solution ({report.status})")
    return solution


def _catalog_meta(record: dict) -> dict:
    meta = {"seed": record["seed"], "source": "hashikit generate"}
    if record.get("grade"):
        meta.update(level=record["grade"], score=record.get("score"))
    return meta


def _collect(args, results, out_dir: str, file_of, label: str, index: bool, catalog) -> int:
    rows, failed, resumed, added = [], [], 0, 0
    for result in results:
        if not result.ok:
            failed.append(result)
            say(f"hashikit: {label}: seed {result.job.kwargs['seed']}: {result.error}")
            continue
        resumed += result.resumed
        record = result.value
        name = file_of(record)
        path = os.path.join(out_dir, name)
        puzzle = None
        if not (result.resumed and os.path.exists(path)):
            puzzle = puzzle_from_data(record["puzzle"], "<record>")
            fmt = output.output_format(path, None)
            output.write_output(service.convert(puzzle, None, fmt.name), path)
        if catalog is not None:
            puzzle = puzzle or puzzle_from_data(record["puzzle"], "<record>")
            added += catalog.add(puzzle, _catalog_solution(puzzle, record), **_catalog_meta(record))
        rows.append((result.index, {"file": name, "grade": record.get("grade") or "",
                                    "score": "" if record.get("score") is None else record["score"],
                                    "islands": record["islands"], "rows": record["puzzle"]["rows"],
                                    "cols": record["puzzle"]["cols"], "seed": record["seed"]}))
    if index:
        _write_index(out_dir, [row for _, row in sorted(rows, key=lambda ir: ir[0])])
    say(f"wrote {len(rows)} puzzles" + (" and index.csv/index.json" if index else "") + f" to {out_dir}"
        + (f" ({resumed} from an earlier run)" if resumed else "")
        + (f"; {len(failed)} failed (see above; a re-run retries only them)" if failed else ""))
    if catalog is not None:
        say(f"{args.catalog}: {added} added, {len(rows) - added} already there (or a mirror or rotation)")
    return EXIT_OK if not failed else EXIT_NO


def _write_index(out_dir: str, index: list[dict]) -> None:
    """index.json and index.csv: one row per puzzle, in job order."""
    output.write_output(json.dumps(index, indent=1), os.path.join(out_dir, "index.json"))
    lines = ["file,grade,score,islands,rows,cols,seed"]
    lines += [f"{r['file']},{r['grade']},{r['score']},{r['islands']},{r['rows']},{r['cols']},{r['seed']}"
              for r in index]
    output.write_output("\n".join(lines) + "\n", os.path.join(out_dir, "index.csv"))


#: the published set's layout: islands -> board side
SUITE_SIDES = {100: 16, 200: 24, 300: 29, 400: 34}
SUITE_ALPHAS = (25, 50, 75)
SUITE_BETAS = (0, 5, 10, 15)


def cmd_generate_suite(args) -> int:
    sizes = args.islands or sorted(SUITE_SIDES)
    for n in sizes:
        if n not in SUITE_SIDES:
            raise BadInput(f"--islands {n}: the suite has 100, 200, 300 and 400 islands")
    output.validate_folder(args.out_dir)
    for n in sizes:
        output.validate_folder(os.path.join(args.out_dir, str(n)))
    base = base_seed(args.seed)
    jobs, names = [], {}
    for n in sizes:
        side = SUITE_SIDES[n]
        for alpha in SUITE_ALPHAS:
            for beta in SUITE_BETAS:
                for idx in range(1, args.per_group + 1):
                    name = f"{n}/Hs_{side}_{n}_{alpha:02d}_{beta:02d}_{idx:03d}.has"
                    seed = job_seed(base, n, alpha, beta, idx)
                    names[seed] = name
                    jobs.append(Job(f"{name}#{base}", service.generate_record,
                                    kwargs=dict(rows=side, cols=side, seed=seed, islands=n, alpha=float(alpha),
                                                beta=float(beta))))
    say(f"generating {len(jobs)} instances under {args.out_dir}, base seed {base}")
    return _run_and_index(args, jobs, args.out_dir, lambda record: names[record["seed"]], "generate-suite",
                          index=False)


# -- parsers ------------------------------------------------------------------
def add_parsers(sub) -> None:
    g = sub.add_parser("grade", help="grade a puzzle's difficulty by the rules a person needs",
                       description="Grade = the lowest level of human-style rules (easy, medium, hard, expert) that "
                                   "finishes the puzzle with no guessing; 'ungraded' when the rules get stuck. "
                                   "The score weighs each step by its level (1, 3, 9, 27).",
                       epilog="examples:\n  hashikit grade puzzle.txt\n  hashikit grade puzzle.txt --format json")
    g.add_argument("file", help="puzzle file")
    g.add_argument("--from", dest="from_format", metavar="FORMAT", help="input format")
    g.add_argument("--max-level", choices=levels(), default="expert", help="strongest rules to try")
    g.add_argument("--format", choices=("text", "json"), default="text",
                   help='json: {"grade": ..., "score": ..., "steps": {level: count}, "undecided", "verdict"?}')
    g.add_argument("--time-limit", type=argtypes.time_limit, metavar="SECONDS",
                   help="give up after this long with status 'unknown' (exit 1)")
    g.set_defaults(func=cmd_grade)

    e = sub.add_parser("explain", help="print the whole logical solve path, step by step",
                       description="Solve as a person would, one named deduction at a time, each with a sentence.",
                       epilog="example:\n  hashikit explain puzzle.txt --max-level medium")
    e.add_argument("file", help="puzzle file")
    e.add_argument("--from", dest="from_format", metavar="FORMAT", help="input format")
    e.add_argument("--max-level", choices=levels(), default="expert", help="strongest rules to use")
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
                              "  hashikit hint puzzle.txt --state my-board.sol --svg hint.svg\n"
                              "  hashikit hint screenshot.png --show read.png   (the game in the picture; "
                              "read.png shows what was read)")
    h.add_argument("file", help="puzzle file")
    h.add_argument("--state", metavar="SOLUTION", help="your board so far (bridges drawn)")
    h.add_argument("--from", dest="from_format", metavar="FORMAT", help="format of the puzzle file")
    h.add_argument("--state-format", metavar="FORMAT", help="format of the state file")
    h.add_argument("--max-level", choices=levels(), default="expert", help="strongest rules to use")
    h.add_argument("--no-solution-check", dest="validate_solution", action="store_false",
                   help="do not compare your bridges with the solution (only the rules)")
    h.add_argument("--svg", metavar="OUT", help="draw the board with the hint highlighted (.svg or .png)")
    add_show(h)
    h.add_argument("--format", choices=("text", "json"), default="text", help="text or json")
    h.add_argument("--time-limit", type=argtypes.time_limit, metavar="SECONDS",
                   help="give up after this long with status 'unknown' (exit 1)")
    h.set_defaults(func=cmd_hint)

    n = sub.add_parser("generate", help="make puzzles: unique and graded, or the paper's benchmark kind",
                       description="Two modes. --difficulty: puzzles with exactly one solution (proved by the exact "
                                   "solver) that grade exactly at that level. --islands: the generator of Coelho et al. "
                                   "(2019): a random tree grown along free lines, extra links (alpha), doubled "
                                   "bridges (beta); solvable, not necessarily unique.",
                       epilog="examples:\n  hashikit generate --size 15x15 --difficulty hard -o hard.txt\n"
                              "  hashikit generate --size 10x10 --difficulty easy --count 50 --out-dir easy/\n"
                              "  hashikit generate --islands 100 --size 16x16 --alpha 50 --beta 5 --seed 1 -o p.has")
    n.add_argument("--size", type=_size, required=True, metavar="ROWSxCOLS",
                   help="board size, rows x columns as everywhere in hashikit (10x15: 10 rows of 15 columns; "
                        "before this version it meant columns x rows); one number for a square board")
    n.add_argument("--difficulty", choices=levels(), help="unique puzzle graded at this level")
    n.add_argument("--islands", type=argtypes.positive_int, metavar="N", help="the paper's generator with N islands")
    n.add_argument("--alpha", type=argtypes.percent, default=None,
                   help="paper's cycles parameter, percent (default 50; --islands only)")
    n.add_argument("--beta", type=argtypes.percent, default=None,
                   help="paper's double-bridge parameter, percent (default 5; --islands only)")
    n.add_argument("--maxbridges", "--max-bridges", dest="max_bridges", type=argtypes.positive_int,
                   default=DEFAULT_MAXBRIDGES, metavar="M",
                   help=f"MAXBRIDGES (default {DEFAULT_MAXBRIDGES}; {GENERATE_MAXBRIDGES[0]} to {GENERATE_MAXBRIDGES[1]} "
                        "with --difficulty)")
    n.add_argument("--no-loops", action="store_true",
                   help="with --difficulty: the variant whose bridges may form no cycle")
    n.add_argument("--allow-adjacent", action="store_true",
                   help="with --difficulty: islands may sit in neighbouring cells (published puzzles rarely do)")
    n.add_argument("--density", type=_density, metavar="D",
                   help=f"with --difficulty: islands per cell of the default layout (default {GENERATE_DENSITY}, "
                        f"at most {GENERATE_MAX_DENSITY})")
    n.add_argument("--islands-percent", type=argtypes.between(*GENERATE_ISLANDS_PERCENT, whole=True), metavar="P",
                   help="with --difficulty: Tatham's layout, islands on P%% of the cells "
                        f"({GENERATE_ISLANDS_PERCENT[0]}-{GENERATE_ISLANDS_PERCENT[1]}; default 30)")
    n.add_argument("--expansion", type=argtypes.between(*GENERATE_EXPANSION, whole=True), metavar="E",
                   help="with --difficulty: Tatham's layout, his expansion factor in percent "
                        f"({GENERATE_EXPANSION[0]}-{GENERATE_EXPANSION[1]}; default 10)")
    n.add_argument("--seed", type=int, help="random seed (same seed, same puzzle)")
    n.add_argument("--count", type=argtypes.positive_int, default=1, metavar="K", help="make K puzzles (into --out-dir, with index.csv/json)")
    n.add_argument("--jobs", type=argtypes.positive_int, metavar="N", help="worker processes for --count (default: cores)")
    n.add_argument("--time-limit", type=argtypes.time_limit, metavar="S",
                   help=f"with --difficulty: give up on one puzzle after S s (default {GENERATE_TIME_LIMIT:g}; "
                        "exit 1, 'unknown')")
    n.add_argument("-o", "--output", metavar="FILE", help="write the puzzle here (format from the extension)")
    n.add_argument("--out-dir", metavar="DIR", help="with --count: folder for the puzzles and index.csv/json")
    n.add_argument("--ext", help="with --count: file extension, i.e. format (default txt)")
    add_run_options(n)
    n.set_defaults(func=cmd_generate)

    s = sub.add_parser("generate-suite", help="write a benchmark set laid out like Coelho et al.'s",
                       description="Folders 100/ 200/ 300/ 400/ of Hs_<side>_<n>_<alpha>_<beta>_<idx>.has files, "
                                   "alpha in 25, 50, 75 and beta in 0, 5, 10, 15, as the published set.",
                       epilog="example:\n  hashikit generate-suite --out-dir mysuite --per-group 5 --seed 7")
    s.add_argument("--out-dir", required=True, metavar="DIR", help="where to write the suite")
    s.add_argument("--per-group", type=argtypes.positive_int, default=30, metavar="K", help="instances per group (30)")
    s.add_argument("--islands", type=int, nargs="+", metavar="N", help="only these sizes (100 200 300 400)")
    s.add_argument("--seed", type=int, help="base seed: the same seed writes the same suite (and resumes it)")
    s.add_argument("--jobs", type=argtypes.positive_int, metavar="N", help="worker processes (default: cores)")
    add_run_options(s)
    s.set_defaults(func=cmd_generate_suite)


