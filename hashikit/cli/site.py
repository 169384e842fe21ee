"""The ``site`` command: the page that needs no server, written to a folder any static web host
serves (:mod:`hashikit.web.site` builds it; the files are written here, through the command
line's one way of writing, :mod:`hashikit.cli.output`)."""

from __future__ import annotations

import argparse
import os

from . import argtypes, output
from .common import EXIT_OK, say
from ..limits import SITE_GENERATE_MAX_SIDE, SITE_LEVEL_COUNT
from ..model import LEVELS
from ..service import BadInput
from ..spec import OPTIONS

__all__ = ["add_parser"]


def cmd_site(args) -> int:
    from ..web.cli import site_daily, site_files, site_refusal

    folder = args.out
    refused = site_refusal(folder)
    if refused:
        raise BadInput(f"{folder}: {refused}")
    given = [flag for flag, v in (("--daily-level", args.daily_level), ("--daily-size", args.daily_size),
                                  ("--daily-seed", args.daily_seed)) if v is not None]
    if args.no_daily and given:
        raise BadInput(f"--no-daily with {given[0]}: there is no daily puzzle to set; give one or the other")
    daily = None if args.no_daily else site_daily(args.daily_level, args.daily_size, args.daily_seed)
    files = site_files(args.pyodide, daily, say)
    for name, data in files.items():
        path = os.path.join(folder, *name.split("/"))
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
        except OSError as exc:
            raise BadInput(f"{os.path.dirname(path)}: cannot make the folder: {exc.strerror or exc}") from None
        output.write_output(data, path)
    total = sum(map(len, files.values()))
    say(f"hashikit: wrote the site to {folder} ({len(files)} files, {total / 1e6:.1f} MB); "
        f"try it: python -m http.server -d {folder}")
    return EXIT_OK


def add_parser(sub) -> None:
    levels = LEVELS[:SITE_LEVEL_COUNT]
    s = sub.add_parser(
        "site", help="write the page that needs no server: a folder any static web host serves",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Write the web page to a folder that any static web host serves (python -m http.server, "
                    "GitHub Pages, a CDN): it plays, checks, hints and generates with no hashikit server, by "
                    "running hashikit's own Python in the browser (Pyodide, a 12 MB first download, kept for "
                    f"visits without a network). It generates {', '.join(levels)} puzzles up to "
                    f"{SITE_GENERATE_MAX_SIDE}x{SITE_GENERATE_MAX_SIDE}, and shows a daily puzzle (the same for "
                    "every player of the site on a date). Reading pictures, larger boards and the hardest level "
                    "need a hashikit server: the page offers them when one answers it. Pyodide's files come from "
                    "the npm registry (checked, and kept in a cache folder) unless --pyodide names a copy.",
        epilog="examples:\n  hashikit site public/\n  python -m http.server -d public/   # then open http://localhost:8000/\n"
               "  hashikit site public/ --daily-level hard --daily-size 12x12 --daily-seed 7\n"
               "  hashikit site public/ --pyodide pyodide-0.29.5.tgz")
    output.writes(s.add_argument("out", metavar="OUT", help="the folder to write (new, empty, or a site written before)"),
                  "folder", what="the site")
    output.reads(s.add_argument("--pyodide", metavar="PATH", help="Pyodide's npm tarball (pyodide-VERSION.tgz) or "
                                                                 "its unpacked folder, instead of the registry"))
    s.add_argument("--daily-level", choices=levels, help=f"the daily puzzle's level (default: {levels[1]})")
    s.add_argument("--daily-size", type=argtypes.board_size(OPTIONS["rows"], OPTIONS["cols"], SITE_GENERATE_MAX_SIDE),
                   metavar="ROWSxCOLS", help="the daily puzzle's board (default: 10x10)")
    s.add_argument("--daily-seed", type=argtypes.between(0, 2 ** 31 - 1, whole=True), metavar="N",
                   help="the site's seed: the day's puzzle comes from it and the date (default: 1)")
    s.add_argument("--no-daily", action="store_true", help="no daily puzzle")
    s.set_defaults(func=cmd_site)
