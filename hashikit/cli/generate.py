"""The ``generate`` and ``generate-suite`` commands: thin printers of the service's generators.

``generate --difficulty`` asks for a unique graded puzzle: its options are those of the
generation rule book (:mod:`hashikit.spec`), their argument types and help made from it, and the
request it makes is checked by :meth:`~hashikit.spec.GenerateSpec.validate` before any work.
``generate --islands`` is the paper's generator.  ``--count`` and ``generate-suite`` run on the
batch runner (resumable output, ``--cluster``); their printers write the puzzles, the index and
the catalogue from its rows.

Same conventions as :mod:`hashikit.cli` (exit 0 success, 1 unknown or failed jobs, 2 bad input).
"""

from __future__ import annotations

import json
import os

from .. import service
from . import argtypes, output
from . import deadline as cli_deadline
from ..formats.jsonfmt import puzzle_from_data
from ..limits import CLI, GENERATE_MAX_SIDE, GENERATE_TIME_LIMIT, Deadline
from ..model import DEFAULT_MAXBRIDGES
from ..run.batch import Job, JsonLinesSink, base_seed, job_seed, run_batch
from ..service import BadInput, OutOfTime
from ..spec import OPTIONS, TATHAM, GenerateSpec
from .catalog import add_run_options
from .common import EXIT_NO, EXIT_OK, refuse, say

__all__ = ["add_parsers"]

#: the largest board side the command line generates
MAX_SIDE = min(GENERATE_MAX_SIDE, CLI.max_side)
#: the options of the unique-puzzle generator (--difficulty) that the paper's (--islands) has no use for
LAYOUT_FLAGS = {"allow_adjacent": "--allow-adjacent", "no_loops": "--no-loops",
                "islands_percent": "--islands-percent", "expansion": "--expansion", "density": "--density"}


def _layout(args) -> dict:
    """The layout options given, as keywords of :class:`hashikit.spec.GenerateSpec`."""
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
           (many and args.output is not None, "--count writes several files: give --out-dir, not -o"),
           (not many and (args.out_dir is not None or args.ext is not None or args.jobs is not None
                          or args.cluster is not None),
            "--out-dir, --ext, --jobs and --cluster go with --count K (K > 1)"),
           (args.cluster is not None and args.jobs is not None,
            "--jobs sizes the local pool; with --cluster the cluster's workers run the jobs"))
    spec = _spec(args, rows, cols)
    if many:
        _extension_format(args.ext)
        out_dir = args.out_dir or "puzzles"
        if args.out_dir is None:  # the default folder is checked as --out-dir is
            output.check_outputs([("--out-dir", out_dir, output.Role("folder"))], [])
        _make_folder(out_dir)
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
        say(f"hashikit: unknown: {exc}")
        return EXIT_NO
    puzzle = puzzle_from_data(record["puzzle"], "<record>")
    text = service.convert(puzzle, None, output.output_format(args.output, None, default="grid", option="").name)
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


def _puzzle_format_problem(path: str, args) -> str | None:
    """What ``generate -o`` cannot write: an ending that names no format, or a format that shows a
    solution (a generated puzzle is written as a puzzle)."""
    try:
        fmt = output.output_format(path, None, option="")
    except BadInput:
        return f"its ending names no puzzle format; give one of {_puzzle_endings()}"
    if fmt.needs_solution:
        return (f"the {fmt.name} format shows a solution, and generate writes the puzzle; give one of "
                f"{_puzzle_endings()}")
    return None


def _puzzle_endings() -> str:
    return output.puzzle_endings(lambda f: f.write is not None and not f.needs_solution)


def _extension_format(ext: str | None):
    """The format ``--ext`` names (default txt), checked before any work."""
    name = (ext or "txt").lstrip(".")
    problem = _puzzle_format_problem(f"puzzle.{name}", None) if name else "an empty ending"
    if problem:
        raise BadInput(f"--ext {ext}: names no puzzle format generate writes; give one of {_puzzle_endings()}")
    return name


def _make_folder(path: str) -> None:
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as exc:
        raise BadInput(f"{path}: cannot make the folder: {exc.strerror or exc}") from None


def _spec(args, rows: int, cols: int) -> dict:
    """The keywords of :func:`hashikit.service.generate_record` the flags ask for (all but the seed);
    for --difficulty, the request checked first by the rule book (exit 2 before any work)."""
    if args.islands is not None:
        return dict(rows=rows, cols=cols, maxbridges=args.max_bridges, islands=args.islands,
                    alpha=50.0 if args.alpha is None else args.alpha, beta=5.0 if args.beta is None else args.beta)
    limit = args.time_limit if args.time_limit is not None else GENERATE_TIME_LIMIT
    asked = GenerateSpec(rows=rows, cols=cols, difficulty=args.difficulty, maxbridges=args.max_bridges,
                         time_limit=limit, **_layout(args)).validate(MAX_SIDE)
    return {"cols": cols, **asked.options()}


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
    for n in sizes:
        _make_folder(os.path.join(args.out_dir, str(n)))
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
    n = sub.add_parser("generate", help="make puzzles: unique and graded, or the paper's benchmark kind",
                       description="Two modes. --difficulty: puzzles with exactly one solution (proved by the exact "
                                   "solver) that grade exactly at that level. --islands: the generator of Coelho et al. "
                                   "(2019): a random tree grown along free lines, extra links (alpha), doubled "
                                   "bridges (beta); solvable, not necessarily unique.",
                       epilog="examples:\n  hashikit generate --size 15x15 --difficulty hard -o hard.txt\n"
                              "  hashikit generate --size 10x10 --difficulty easy --count 20 --out-dir easy/\n"
                              "  hashikit generate --islands 100 --size 16x16 --alpha 50 --beta 5 --seed 1 -o p.has")
    n.add_argument("--size", type=argtypes.board_size(OPTIONS["rows"], OPTIONS["cols"], MAX_SIDE), required=True,
                   metavar="ROWSxCOLS",
                   help="board size, rows x columns as everywhere in hashikit (10x15: 10 rows of 15 columns; "
                        f"before this version it meant columns x rows); one number for a square board; sides "
                        f"{OPTIONS['rows'].range_words(MAX_SIDE)}")
    n.add_argument("--difficulty", choices=OPTIONS["difficulty"].choices, help="unique puzzle graded at this level")
    n.add_argument("--islands", type=argtypes.positive_int, metavar="N", help="the paper's generator with N islands")
    n.add_argument("--alpha", type=argtypes.percent, default=None,
                   help="paper's cycles parameter, percent (default 50; --islands only)")
    n.add_argument("--beta", type=argtypes.percent, default=None,
                   help="paper's double-bridge parameter, percent (default 5; --islands only)")
    n.add_argument("--maxbridges", "--max-bridges", dest="max_bridges", type=argtypes.positive_int,
                   default=DEFAULT_MAXBRIDGES, metavar="M",
                   help=f"MAXBRIDGES (default {DEFAULT_MAXBRIDGES}; {OPTIONS['maxbridges'].range_words()} "
                        "with --difficulty)")
    n.add_argument("--no-loops", action="store_true", help=f"with --difficulty: {OPTIONS['no_loops'].help}")
    n.add_argument("--allow-adjacent", action="store_true",
                   help=f"with --difficulty: {OPTIONS['allow_adjacent'].help} (published puzzles rarely do)")
    for name, metavar in (("density", "D"), *zip(TATHAM, "PE")):
        option = OPTIONS[name]
        n.add_argument("--" + name.replace("_", "-"), type=argtypes.option(option), metavar=metavar,
                       help=f"with --difficulty: {option.help} ({option.range_words()}; default {option.implied})")
    n.add_argument("--seed", type=argtypes.option(OPTIONS["seed"]),
                   help=f"random seed (same seed, same puzzle; {OPTIONS['seed'].range_words()})")
    n.add_argument("--count", type=argtypes.positive_int, default=1, metavar="K", help="make K puzzles (into --out-dir, with index.csv/json)")
    n.add_argument("--jobs", type=argtypes.positive_int, metavar="N", help="worker processes for --count (default: cores)")
    n.add_argument("--time-limit", type=argtypes.time_limit, metavar="S",
                   help=f"with --difficulty: give up on one puzzle after S s (default {GENERATE_TIME_LIMIT:g}; "
                        "exit 1, 'unknown')")
    output.writes(n.add_argument("-o", "--output", metavar="FILE",
                                 help="write the puzzle here (the format from the file's ending)"),
                  "file", _puzzle_format_problem)
    output.writes(n.add_argument("--out-dir", metavar="DIR",
                                 help="with --count: folder for the puzzles and index.csv/json (default puzzles)"),
                  "folder")
    n.add_argument("--ext", help="with --count: file extension, i.e. format (default txt)")
    add_run_options(n)
    n.set_defaults(func=cmd_generate)

    s = sub.add_parser("generate-suite", help="write a benchmark set laid out like Coelho et al.'s",
                       description="Folders 100/ 200/ 300/ 400/ of Hs_<side>_<n>_<alpha>_<beta>_<idx>.has files, "
                                   "alpha in 25, 50, 75 and beta in 0, 5, 10, 15, as the published set.",
                       epilog="example:\n  hashikit generate-suite --out-dir mysuite --per-group 5 --seed 7")
    output.writes(s.add_argument("--out-dir", required=True, metavar="DIR", help="where to write the suite"),
                  "folder")
    s.add_argument("--per-group", type=argtypes.positive_int, default=30, metavar="K", help="instances per group (30)")
    s.add_argument("--islands", type=int, nargs="+", metavar="N", help="only these sizes (100 200 300 400)")
    s.add_argument("--seed", type=argtypes.option(OPTIONS["seed"]),
                   help="base seed: the same seed writes the same suite (and resumes it)")
    s.add_argument("--jobs", type=argtypes.positive_int, metavar="N", help="worker processes (default: cores)")
    add_run_options(s)
    s.set_defaults(func=cmd_generate_suite)
