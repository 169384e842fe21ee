"""Commands for the catalogue and books: ``catalog add/list/export`` and ``book``; and the
``--cluster``/``--catalog`` options that the batch commands (``generate``, ``bench``) take.

The main command wires these in with ``add_parsers(subparsers)``.  Bad input raises a
:class:`~hashikit.errors.HashikitError` (one line, exit 2); nothing is added to a catalogue
until every file given has been read.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from . import argtypes, output
from .argtypes import between, positive_int
from ..model import LEVELS
from ..publish.catalog import Catalog, CatalogError, parse_size
from .common import EXIT_NO, EXIT_OK, refuse, say


# -- shared options --------------------------------------------------------------------------------

def _size(text: str) -> tuple[int, int]:
    try:
        return parse_size(text)
    except CatalogError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _score(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a score is a whole number, got {text!r}") from None


def add_filter_options(p: argparse.ArgumentParser) -> None:
    """The filters that select puzzles from a catalogue."""
    g = p.add_argument_group("filters")
    g.add_argument("--size", type=_size, metavar="ROWSxCOLS", help="board size, rows x columns (10x15: 10 rows of 15 columns), as generate --size")
    g.add_argument("--level", choices=LEVELS, help="difficulty grade")
    g.add_argument("--min-score", type=_score, metavar="N", help="lowest score")
    g.add_argument("--max-score", type=_score, metavar="N", help="highest score")
    g.add_argument("--maxbridges", type=positive_int, metavar="M", help="MAXBRIDGES")
    loops = g.add_mutually_exclusive_group()
    loops.add_argument("--no-loops", dest="no_loops", action="store_const", const=True,
                       help="only the no-loops variant")
    loops.add_argument("--loops", dest="no_loops", action="store_const", const=False,
                       help="only the usual rules (loops allowed)")


def filters_from(args) -> dict:
    """The filter options as keyword arguments of :meth:`Catalog.query`."""
    if args.min_score is not None and args.max_score is not None and args.min_score > args.max_score:
        raise CatalogError(f"--min-score {args.min_score} is above --max-score {args.max_score}")
    score = None if args.min_score is None and args.max_score is None else (args.min_score, args.max_score)
    return {"size": args.size, "level": args.level, "score": score, "maxbridges": args.maxbridges,
            "no_loops": args.no_loops}


def add_run_options(p: argparse.ArgumentParser) -> None:
    """``--cluster`` and ``--catalog`` for a batch command (generate, bench)."""
    from ..run.cluster import CONNECT_TIMEOUT, cluster_spec

    p.add_argument("--cluster", type=cluster_spec, metavar="SPEC",
                   help="run the jobs on Dask: local[:WORKERS] starts a local cluster, tcp://HOST:PORT "
                        "uses a running scheduler (8786 is dask's default port); every worker thread is kept "
                        f"busy, and a scheduler lost for {CONNECT_TIMEOUT:g} s ends the run (exit 1): the same "
                        'command resumes (needs: pip install ".[cluster]")')
    output.writes(p.add_argument("--catalog", metavar="FILE.db",
                                 help="also store every puzzle in this SQLite catalogue (a puzzle, or its mirror "
                                      "or rotation, already there is skipped)"), "catalogue")


# -- catalog add ---------------------------------------------------------------------------------------

def _read_all(paths: list[str], fmt: str | None) -> list:
    """Every file given read (a folder: its puzzle files, with the seeds and levels of its index)."""
    from ..publish.catalog import FolderFile, read_folder
    from ..formats import read_file

    out = []
    for path in paths:
        if os.path.isdir(path):
            out += read_folder(path, fmt)
            continue
        doc = read_file(path, fmt)
        if doc.puzzle is None:
            raise CatalogError(f"{path}: holds a solution without its puzzle")
        out.append(FolderFile(path, doc.puzzle, doc.solution))
    return out


def _prepare(item):
    """Solve (when the file has no solution) and grade one file: (puzzle, solution, meta, note)."""
    from ..checker import check
    from ..logic import grade
    from ..solvers import solve

    note = None
    solution = item.solution
    if solution is not None:
        report = check(item.puzzle, solution)
        if not report.ok:
            raise CatalogError(f"{item.path}: its solution breaks the rules: {report.violations[0].message}")
    else:
        result = solve(item.puzzle, max_solutions=2)
        if not result.solved:
            raise CatalogError(f"{item.path}: the puzzle has no solution ({result.reason or result.status})")
        solution = result.solution
        if result.unique is False:
            note = "has more than one solution"
    g = grade(item.puzzle)
    if item.level is not None and g.level != item.level:
        raise CatalogError(f"{item.path}: its folder's index says {item.level}, but it grades {g.level}")
    meta = {"level": g.level, "score": g.score, "source": os.path.basename(item.path)}
    if item.seed is not None:
        meta["seed"] = item.seed
    return item.puzzle, solution, meta, note


def cmd_catalog_add(args) -> int:
    files = _read_all(args.files, args.from_format)
    if not files:
        raise CatalogError("no puzzle files given (the folders given hold none)")
    prepared = [(item.path,) + _prepare(item) for item in files]  # all read before any add
    with Catalog(args.db) as cat:
        for path, puzzle, solution, meta, note in prepared:
            if not cat.add(puzzle, solution, **meta):
                print(f"{path}: already in the catalogue (the same puzzle, a mirror or a rotation)",
                      file=sys.stderr)
            elif note:
                print(f"{path}: added, but it {note}", file=sys.stderr)
        print(f"added {cat.added}, rejected {cat.rejected} duplicate(s); {len(cat)} puzzles in {args.db}")
    return EXIT_OK


# -- catalog list / export ------------------------------------------------------------------------------

def _open_existing(path: str) -> Catalog:
    return Catalog(path, create=False)


def cmd_catalog_list(args) -> int:
    with _open_existing(args.db) as cat:
        entries = cat.query(**filters_from(args), at_most=args.limit)
    if args.format == "json":
        print(json.dumps([e.to_json() for e in entries], indent=1))
        return EXIT_OK
    print(f"{'id':>6}  {'size':>7}  {'level':<7} {'score':>5}  {'islands':>7}  {'seed':>8}  fingerprint")
    for e in entries:
        print(f"{e.id:>6}  {e.rows}x{e.cols:<4}  {e.level or '-':<7} {e.score if e.score is not None else '-':>5}"
              f"  {e.islands:>7}  {e.seed if e.seed is not None else '-':>8}  {e.fingerprint[:16]}")
    print(f"{len(entries)} puzzle(s)", file=sys.stderr)
    return EXIT_OK


def cmd_catalog_export(args) -> int:
    from ..formats import get

    get(args.to)  # an unknown format is bad input before anything is written
    with Catalog(args.db, create=False, check=True) as cat:
        paths = cat.export(args.to, args.out, with_solution=args.solutions, **filters_from(args))
    print(f"wrote {len(paths)} file(s) to {args.out}", file=sys.stderr)
    return EXIT_OK


def _export_problem(path: str, args) -> str | None:
    """``catalog export`` writes a folder, or a ``.jsonl`` file: an ending that names a file format
    is refused rather than made a folder of that name."""
    if path.endswith(".jsonl"):
        return None
    ext = os.path.splitext(path.rstrip(os.sep))[1].lower()
    if ext and not os.path.isdir(path) and (ext in (".db", ".pdf", ".csv", ".md", ".png", ".svg")
                                            or ext in output.puzzle_endings().split()):
        return f"export writes a folder (a name with no {ext} ending) or a .jsonl file"
    return None


def cmd_catalog_check(args) -> int:
    with Catalog(args.db, create=False) as cat:
        damage = cat.damage(full=True)
        problems = [] if damage else cat.problems()
        count = None if damage else len(cat)
    for line in damage:
        print(f"{args.db}: damaged: {line}")
    for line in problems:
        print(f"{args.db}: {line}")
    if damage or problems:
        say(f"{args.db}: {len(damage) + len(problems)} problem(s) found")
        return EXIT_NO
    print(f"{args.db}: sound: {count} puzzles, each read back, its fingerprint and solution checked")
    return EXIT_OK


# -- book -------------------------------------------------------------------------------------------------

def cmd_book(args) -> int:
    from ..files import Staging
    from ..publish.book import Options, answers_path, make_book

    refuse((args.answers is not None and args.solutions != "separate",
            "--answers names the answer book of --solutions separate"),
           (args.solutions == "none" and args.solutions_per_page is not None,
            "--solutions-per-page: there are no solutions with --solutions none"),
           (args.pages is None and (args.pages_format is not None or args.dpi is not None),
            f"{'--pages-format' if args.pages_format is not None else '--dpi'} goes with --pages DIR "
            "(the book's pages as pictures)"),
           (args.dpi is not None and args.pages_format != "png", "--dpi sizes PNG pages: add --pages-format png"),
           (args.exactly and args.limit is None, "--exactly goes with --limit (how many puzzles the book must have)"),
           (isinstance(args.limit, dict) and args.level is not None,
            "--limit LEVEL=N picks puzzles per level; it does not go with --level"))
    answers = args.answers or (answers_path(args.output) if args.solutions == "separate" else None)
    if args.answers is None and answers is not None:  # the default answer book is an output too
        output.check_outputs([("-o", args.output, output.Role("file", (".pdf",))),
                              (f"--answers (by default {answers})", answers, output.Role("file", (".pdf",)))],
                             [("the source", args.source, output.Role("reads"))])
    opts = Options(per_page=args.per_page, solutions_per_page=args.solutions_per_page, paper=args.paper,
                   binding=args.binding, title=args.title, subtitle=args.subtitle, author=args.author,
                   copyright=args.copyright, solutions=args.solutions, style=args.style,
                   recto=not args.no_blank_pages, font_dir=args.font_dir, safe_margin=args.safe_margin)
    items = _book_puzzles(args)
    with Staging() as stage:
        report = make_book(items, stage.file(args.output), opts,
                           pages_dir=stage.folder(args.pages) if args.pages else None,
                           pages_format=args.pages_format or "svg", dpi=args.dpi or 150,
                           answers=stage.file(answers) if answers else None, workers=args.jobs)
    levels = ", ".join(f"{n} {lv}" for lv, n in report.levels.items())
    where = ("no solutions" if report.solutions_page is None
             else f"solutions in {answers} ({report.answer_pages} pages)" if report.answers
             else f"solutions from page {report.solutions_page}")
    print(f"{args.output}: {report.pages} pages, {report.puzzles} puzzles ({levels}), {where}"
          + (f"; pages also in {args.pages}" if args.pages else ""), file=sys.stderr)
    for row in report.sections:
        sols = (f", solutions {row['solutions_per_page']} a page at {row['solution_pt']} pt"
                if "solutions_per_page" in row else "")
        print(f"  {row['section']}: {row['puzzles']} puzzles, {row['per_page']} a page, numbers at {row['pt']} pt"
              + sols, file=sys.stderr)
    return EXIT_OK


def _book_puzzles(args) -> list:
    """The book's puzzles, loaded (a catalogue read-only, after SQLite's quick_check), before any
    check or drawing; fewer than ``--limit`` asks for is said (by level with ``--limit LEVEL=N``),
    or refused with ``--exactly``."""
    from ..publish.book import BookError, load

    filters = filters_from(args)
    folder = os.path.isdir(args.source)
    if folder:
        filters = {k: v for k, v in filters.items() if v is not None}
    elif os.path.exists(args.source):
        Catalog(args.source, create=False, check=True).close()
    if isinstance(args.limit, dict):
        items, short = [], []
        if folder:
            every = load(args.source, None, **filters)
            unstated = [i.name for i in every if i.level is None]
            if unstated:
                raise BookError(f"--limit LEVEL=N picks by the levels a folder's index.csv states; "
                                f"{unstated[0]} has none")
        for level, asked in args.limit.items():
            got = ([i for i in every if i.level == level][:asked] if folder
                   else load(args.source, asked, **{**filters, "level": level}))
            items += got
            if len(got) < asked:
                short.append(f"{level}: {len(got)} of the {asked} asked for match")
    else:
        items = load(args.source, args.limit, **filters)
        short = ([f"{len(items)} of the {args.limit} asked for match"]
                 if args.limit is not None and len(items) < args.limit else [])
    if not items:
        raise BookError(f"{args.source}: no puzzle matches" + (" the filters given" if any(
            v is not None for v in filters_from(args).values()) else ""))
    if short and args.exactly:
        raise BookError(f"{args.source}: a short book: " + "; ".join(short) + " (--exactly)")
    for line in short:
        say(f"hashikit: book: {line}")
    return items


def _book_limit(text: str):
    """``N``, or ``LEVEL=N[,LEVEL=N...]``: at most N puzzles, in all or of each level."""
    if "=" not in text:
        return positive_int(text)
    out = {}
    for part in text.split(","):
        level, _, count = part.partition("=")
        level = level.strip()
        if level not in LEVELS:
            raise argparse.ArgumentTypeError(f"unknown level {level!r} in {text!r}; levels: {', '.join(LEVELS)}")
        if level in out:
            raise argparse.ArgumentTypeError(f"{level} is given twice in {text!r}")
        try:
            out[level] = positive_int(count.strip())
        except argparse.ArgumentTypeError as exc:
            raise argparse.ArgumentTypeError(f"{level}={count}: {exc}") from None
    return out


def _per_page(text: str):
    from ..publish.book import BookError, parse_per_page

    try:
        return parse_per_page(text)
    except BookError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _line(what: str, most: int):
    def parse(text: str) -> str:
        if not text.strip() or len(text) > most or not text.isprintable():
            raise argparse.ArgumentTypeError(f"a {what} is 1 to {most} printable characters on one line")
        return text
    return parse


def _para(text: str) -> str:
    """A help description wrapped for a terminal (the raw formatter keeps the epilog's lines)."""
    import textwrap

    return textwrap.fill(text, 88)


def _dpi(text: str) -> int:
    v = positive_int(text)
    if v > 1200:
        raise argparse.ArgumentTypeError("at most 1200 dpi")
    return v


def add_parsers(sub) -> None:
    from ..publish.layout import MAX_SAFE, SAFE

    c = sub.add_parser("catalog", help="a SQLite catalogue of puzzles: add, list, export",
                       description="A catalogue keeps every puzzle once: a puzzle whose mirror image or "
                                   "rotation is already there is rejected as a duplicate.",
                       epilog="examples:\n  hashikit catalog add puzzles.db easy/ hard/*.txt\n"
                              "  hashikit catalog list puzzles.db --size 15x15 --level hard\n"
                              "  hashikit catalog export puzzles.db out/ --to tatham --min-score 100\n"
                              "  hashikit catalog export puzzles.db hard.jsonl --level hard --solutions\n"
                              "  hashikit catalog check puzzles.db")
    csub = c.add_subparsers(dest="catalog_command", metavar="{add,list,export,check}", required=True)

    a = csub.add_parser("add", help="add puzzle files (solved and graded on the way)")
    output.writes(a.add_argument("db", help="catalogue file (created if missing: FILE.db)"), "catalogue",
                  label="the catalogue")
    output.reads(a.add_argument("files", nargs="+", help="puzzle files or folders of them"))
    a.add_argument("--from", dest="from_format", metavar="FORMAT", type=argtypes.format_read,
                   help="input format of every file")
    a.set_defaults(func=cmd_catalog_add)

    ls = csub.add_parser("list", help="list puzzles, easiest first")
    output.reads(ls.add_argument("db", help="catalogue file (opened read-only)"), "the catalogue")
    add_filter_options(ls)
    ls.add_argument("--limit", type=positive_int, help="at most this many")
    ls.add_argument("--format", choices=("text", "json"), default="text", help="text table or JSON list")
    ls.set_defaults(func=cmd_catalog_list)

    ex = csub.add_parser("export", help="write puzzles to a folder (one file each, plus index.json) "
                                        "or to a .jsonl file")
    output.reads(ex.add_argument("db", help="catalogue file (opened read-only, checked by SQLite's quick_check)"),
                 "the catalogue")
    output.writes(ex.add_argument("out", help="folder to write (created), or FILE.jsonl"), "file-or-folder",
                  _export_problem)
    ex.add_argument("--to", default="json", metavar="FORMAT", type=argtypes.format_written,
                    help="format of the files (default json; tatham, has, grid, solved, ...: any format hashikit "
                         "reads back); a .jsonl OUT is always JSON, one puzzle a line")
    ex.add_argument("--solutions", action="store_true",
                    help="write each solution too (json, json-solution, solved, solved-unicode, ohmec, pzprv3; "
                         "other formats refuse it; solved formats always include it)")
    add_filter_options(ex)
    ex.set_defaults(func=cmd_catalog_export)

    ck = csub.add_parser("check", help="check a catalogue: SQLite's integrity check, then every puzzle and "
                                       "solution read back and checked",
                         description="Report what is damaged in a catalogue: what SQLite's integrity_check "
                                     "finds, then every entry whose puzzle cannot be read back, whose fingerprint "
                                     "or counts are not its puzzle's, or whose solution breaks the rules. "
                                     "Exit 0 sound, 1 damaged, 2 not a hashikit catalogue. The file is opened "
                                     "read-only.",
                         epilog="example:\n  hashikit catalog check puzzles.db")
    output.reads(ck.add_argument("db", help="catalogue file"), "the catalogue")
    ck.set_defaults(func=cmd_catalog_check)

    b = sub.add_parser("book", help="a printable PDF book of puzzles, with its solutions",
                       description=_para("A book a printer takes: title page, copyright page, contents (one line per "
                                   "section), the puzzles in sections by level and board size (each from a "
                                   "right-hand page, numbered E001 ... M001 ... H001 ... X001 for expert, by score), "
                                   "then the solutions: in the book, in a separate answer PDF, or none. Every "
                                   "section has one cell size, and numbers print at 7 pt at least (5 pt on "
                                   "solutions): without --per-page a section takes the largest count up to 4 "
                                   "(12 for solutions) that keeps it; a count that cannot is refused, naming the "
                                   "largest that can. Every puzzle is proved unique and graded at its stated "
                                   "level first (in worker processes). Fonts are embedded."),
                       epilog="examples:\n  hashikit book puzzles.db -o book.pdf --level hard --per-page 2\n"
                              "  hashikit book puzzles.db -o book.pdf --title \"Bridges\" --author \"A. Setter\" "
                              "--copyright \"(c) 2026 A. Setter\" --solutions separate\n"
                              "  hashikit book easy/ -o easy.pdf --per-page 3x2 --style plain --paper letter\n"
                              "  hashikit book puzzles.db -o book.pdf --pages pages/ --pages-format png")
    output.reads(b.add_argument("source", help="a catalogue file (opened read-only, checked by SQLite's "
                                               "quick_check first), or a folder of puzzle files (as generate "
                                               "--count writes: its index.csv gives the levels, its batch log "
                                               "is skipped)"), "the source")
    output.writes(b.add_argument("-o", "--output", required=True, metavar="FILE.pdf", help="PDF file to write"),
                  "file", (".pdf",), "the book")
    b.add_argument("--per-page", type=_per_page, metavar="N|ROWSxCOLS",
                   help="puzzles per page: a count (arranged to print boards largest) or a grid, e.g. 3x2 "
                        "(3 rows of 2); default: up to 4, fewer where 4 would print numbers under 7 pt")
    b.add_argument("--solutions-per-page", type=_per_page, metavar="N|ROWSxCOLS",
                   help="solutions per page, likewise (default: up to 12, numbers at 5 pt at least)")
    b.add_argument("--solutions", choices=("book", "separate", "none"), default="book",
                   help="where the solutions go: at the back of the book (default), in a separate answer "
                        "PDF (see --answers), or nowhere")
    output.writes(b.add_argument("--answers", metavar="FILE.pdf",
                                 help="the answer book's file with --solutions separate (default: "
                                      "OUTPUT-solutions.pdf)"), "file", (".pdf",), "the answer book")
    b.add_argument("--style", choices=("classic", "plain"), default="classic",
                   help="classic: tinted boards with a faint grid (as hashikit render); plain: black on white, "
                        "no tint, no grid")
    b.add_argument("--paper", choices=("a4", "letter"), default="a4", help="paper size")
    b.add_argument("--binding", type=between(0, 40, "the binding allowance runs from 0 to 40 mm"), default=10.0,
                   metavar="MM", help="extra inner margin for binding, in mm (default 10)")
    b.add_argument("--safe-margin", type=between(0, MAX_SAFE, f"the safe margin runs from 0 to {MAX_SAFE:g} mm"),
                   default=SAFE, metavar="MM",
                   help=f"keep every mark, heading and page number at least MM from the trim (default {SAFE:g}); "
                        "the margins move inward when it is wider")
    b.add_argument("--no-blank-pages", action="store_true",
                   help="start sections on the next page, not on the next right-hand page (no blank pages)")
    b.add_argument("--title", type=_line("title", 100), default="Hashiwokakero",
                   help="the title (wraps onto more lines when long)")
    b.add_argument("--subtitle", type=_line("subtitle", 160), help="a line under the title")
    b.add_argument("--author", type=_line("author", 100), help="the author or publisher, on the title page")
    b.add_argument("--copyright", type=_line("copyright line", 400),
                   help="the copyright line, on the copyright page (page 2)")
    b.add_argument("--limit", type=_book_limit, metavar="N|LEVEL=N,...",
                   help="at most N puzzles (the easiest first), or N of each level named (easy=20,hard=10: a "
                        "section per level); fewer matching is said on standard error")
    b.add_argument("--exactly", action="store_true",
                   help="refuse (exit 2, before any work) when fewer puzzles match than --limit asks for")
    b.add_argument("--jobs", type=positive_int, metavar="N",
                   help="worker processes that check the puzzles (default: the cores)")
    output.writes(b.add_argument("--pages", metavar="DIR",
                                 help="also write each page of the book as SVG (or PNG) into DIR"), "folder")
    b.add_argument("--pages-format", choices=("svg", "png"), help="with --pages: svg (default) or png")
    b.add_argument("--dpi", type=_dpi, help="with --pages-format png: the pages' resolution (default 150)")
    output.reads(b.add_argument("--font-dir", metavar="DIR",
                                help="folder holding DejaVuSans.ttf and DejaVuSans-Bold.ttf"))
    add_filter_options(b)
    b.set_defaults(func=cmd_book)


__all__ = ["add_filter_options", "add_parsers", "add_run_options", "filters_from"]
