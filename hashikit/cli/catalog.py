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

from .argtypes import between, positive_int
from ..publish.catalog import LEVEL_ORDER, Catalog, CatalogError, parse_size
from .common import EXIT_OK
#: files that ``catalog add`` takes from a folder: not these
_SKIP = {"index.json", "index.csv"}
_PICTURES = (".svg", ".png", ".pdf", ".db", ".md")


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
    g.add_argument("--size", type=_size, metavar="ROWSxCOLS", help="board size, e.g. 15x15")
    g.add_argument("--level", choices=LEVEL_ORDER, help="difficulty grade")
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
                        'command resumes (needs: pip install "hashikit[cluster]")')
    p.add_argument("--catalog", metavar="FILE.db",
                   help="also store every puzzle in this SQLite catalogue (a puzzle, or its mirror or "
                        "rotation, already there is skipped)")


# -- catalog add ---------------------------------------------------------------------------------------

def _expand(paths: list[str]) -> list[str]:
    """Files as given; a folder stands for the puzzle files in it (index files and pictures skipped)."""
    out = []
    for path in paths:
        if os.path.isdir(path):
            names = sorted(n for n in os.listdir(path) if n not in _SKIP and not n.lower().endswith(_PICTURES))
            out += [os.path.join(path, n) for n in names if os.path.isfile(os.path.join(path, n))]
        else:
            out.append(path)
    return out


def _prepare(path: str, fmt: str | None):
    """Read, solve (when the file has no solution) and grade one file: (puzzle, solution, meta, note)."""
    from ..checker import check
    from ..formats import read_file
    from ..logic import grade
    from ..solvers import solve

    doc = read_file(path, fmt)
    if doc.puzzle is None:
        raise CatalogError(f"{path}: holds a solution without its puzzle")
    note = None
    solution = doc.solution
    if solution is not None:
        report = check(doc.puzzle, solution)
        if not report.ok:
            raise CatalogError(f"{path}: its solution breaks the rules: {report.violations[0].message}")
    else:
        result = solve(doc.puzzle, max_solutions=2)
        if not result.solved:
            raise CatalogError(f"{path}: the puzzle has no solution ({result.reason or result.status})")
        solution = result.solution
        if result.unique is False:
            note = "has more than one solution"
    g = grade(doc.puzzle)
    return doc.puzzle, solution, {"level": g.level, "score": g.score, "source": os.path.basename(path)}, note


def cmd_catalog_add(args) -> int:
    files = _expand(args.files)
    if not files:
        raise CatalogError("no puzzle files given (the folders given hold none)")
    prepared = [(path,) + _prepare(path, args.from_format) for path in files]  # all read before any add
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
        entries = cat.query(**filters_from(args), limit=args.limit)
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
    with _open_existing(args.db) as cat:
        paths = cat.export(args.to, args.out, with_solution=args.solutions, **filters_from(args))
    print(f"wrote {len(paths)} file(s) to {args.out}", file=sys.stderr)
    return EXIT_OK


# -- book -------------------------------------------------------------------------------------------------

def cmd_book(args) -> int:
    from ..publish.book import Options, make_book

    opts = Options(per_page=args.per_page, paper=args.paper, binding=args.binding, title=args.title)
    filters = filters_from(args)
    if os.path.isdir(args.source):
        filters = {k: v for k, v in filters.items() if v is not None}
    report = make_book(args.source, args.output, opts, pages_dir=args.pages, pages_format=args.pages_format,
                       dpi=args.dpi, font_dir=args.font_dir, **filters)
    levels = ", ".join(f"{n} {lv}" for lv, n in report.levels.items())
    print(f"{args.output}: {report.pages} pages, {report.puzzles} puzzles ({levels}), solutions from page "
          f"{report.solutions_page}" + (f"; pages also in {args.pages}" if args.pages else ""), file=sys.stderr)
    return EXIT_OK


def _dpi(text: str) -> int:
    v = positive_int(text)
    if v > 1200:
        raise argparse.ArgumentTypeError("at most 1200 dpi")
    return v


def add_parsers(sub) -> None:
    fmt = argparse.RawDescriptionHelpFormatter
    c = sub.add_parser("catalog", help="a SQLite catalogue of puzzles: add, list, export", formatter_class=fmt,
                       description="A catalogue keeps every puzzle once: a puzzle whose mirror image or "
                                   "rotation is already there is rejected as a duplicate.",
                       epilog="examples:\n  hashikit catalog add puzzles.db easy/ hard/*.txt\n"
                              "  hashikit catalog list puzzles.db --size 15x15 --level hard\n"
                              "  hashikit catalog export puzzles.db out/ --to tatham --min-score 100")
    csub = c.add_subparsers(dest="catalog_command", metavar="{add,list,export}", required=True)

    a = csub.add_parser("add", help="add puzzle files (solved and graded on the way)")
    a.add_argument("db", help="catalogue file (created if missing)")
    a.add_argument("files", nargs="+", help="puzzle files or folders of them")
    a.add_argument("--from", dest="from_format", metavar="FORMAT", help="input format of every file")
    a.set_defaults(func=cmd_catalog_add)

    ls = csub.add_parser("list", help="list puzzles, easiest first")
    ls.add_argument("db", help="catalogue file")
    add_filter_options(ls)
    ls.add_argument("--limit", type=positive_int, help="at most this many")
    ls.add_argument("--format", choices=("text", "json"), default="text", help="text table or JSON list")
    ls.set_defaults(func=cmd_catalog_list)

    ex = csub.add_parser("export", help="write puzzles to a folder (one file each, plus index.json) "
                                        "or to a .jsonl file")
    ex.add_argument("db", help="catalogue file")
    ex.add_argument("out", help="folder to write (created), or FILE.jsonl")
    ex.add_argument("--to", required=True, metavar="FORMAT", help="format of the files (json, tatham, has, ...)")
    ex.add_argument("--solutions", action="store_true", help="write each solution too (formats that hold one)")
    add_filter_options(ex)
    ex.set_defaults(func=cmd_catalog_export)

    b = sub.add_parser("book", help="a printable PDF book of puzzles with solutions", formatter_class=fmt,
                       description="Title page, puzzles numbered and ordered by difficulty, N per page, a "
                                   "solutions section, page numbers; fonts embedded. Every puzzle is proved "
                                   "unique and graded at its stated level first.",
                       epilog="examples:\n  hashikit book puzzles.db -o book.pdf --per-page 2 --level hard\n"
                              "  hashikit book folder/ -o book.pdf --paper letter --pages pages/ "
                              "--pages-format png")
    b.add_argument("source", help="a catalogue file or a folder of puzzle files")
    b.add_argument("-o", "--output", required=True, help="PDF file to write")
    b.add_argument("--per-page", type=int, choices=(1, 2, 4, 6), default=4, help="puzzles per page")
    b.add_argument("--paper", choices=("a4", "letter"), default="a4", help="paper size")
    b.add_argument("--binding", type=between(0, 40, "the binding allowance runs from 0 to 40 mm"), default=10.0, metavar="MM",
                   help="extra inner margin for binding, in mm (default 10)")
    b.add_argument("--title", default="Hashiwokakero", help="the title page's title")
    b.add_argument("--pages", metavar="DIR", help="also write each page as SVG (or PNG) into DIR")
    b.add_argument("--pages-format", choices=("svg", "png"), default="svg", help="with --pages")
    b.add_argument("--dpi", type=_dpi, default=150, help="PNG pages' resolution")
    b.add_argument("--font-dir", metavar="DIR", help="folder holding DejaVuSans.ttf and DejaVuSans-Bold.ttf")
    add_filter_options(b)
    b.set_defaults(func=cmd_book)


__all__ = ["add_filter_options", "add_parsers", "add_run_options", "filters_from"]
