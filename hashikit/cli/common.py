"""What every ``hashikit`` command shares: exit codes, printing an answer, the help tables
built from the registries (formats, engines, levels, limits), and checks of flags that make
no sense together.  Imported by :mod:`hashikit.cli` and the command groups' modules
(:mod:`hashikit.cli.logic`, :mod:`hashikit.cli.generate`, ...); imports none of them (no cycle).
"""

from __future__ import annotations

import argparse
import os
import sys

EXIT_OK, EXIT_NO, EXIT_BAD = 0, 1, 2
#: a command stopped by Ctrl-C (128 + SIGINT), as shells report it
EXIT_INTERRUPTED = 130
EXIT_CODES = "exit codes: 0 solved/valid, 1 no solution/invalid/unknown (time limit), 2 bad input, 130 interrupted"


def print_json(answer, out: str | None = None) -> None:
    """A use-case's answer (a pydantic model or a dict) as one JSON line, to ``out`` or stdout."""
    from .output import write_output

    data = answer.as_json() if hasattr(answer, "as_json") else answer
    import json  # here: a text answer does not load it

    write_output(json.dumps(data), out)


#: the collector's thresholds for a command that is the whole process and ends once it has written
#: its one answer (``solve``): a young generation of 1,000,000 containers instead of 700, the older
#: ones about never walked again (see :func:`collect_seldom`)
ONE_ANSWER_THRESHOLDS = (1_000_000, 50, 1_000)


def collect_seldom(args) -> None:
    """Run the cyclic garbage collector seldom for the rest of a command that is the whole process
    (a command run in a caller's process, as the tests do, keeps the caller's collector as it is).

    A large solve makes millions of containers (the formula's clauses, the links, the bridges) and
    almost no cycles (95 unreachable objects at the end of a 100,000-island solve run without the
    collector); with the default thresholds the collector walks the growing heap again and again,
    0.85 s of CPU there, 0.19 s with these, the peak memory the same
    (``benchmarks/results/scale_rest.md``).  The young generation is still walked, so a cycle
    dropped before its next pass is freed then; one that outlives a pass waits for the middle
    generation's (every 50) or the end of the process."""
    if getattr(args, "whole_process", False):
        import gc

        gc.set_threshold(*ONE_ANSWER_THRESHOLDS)


def refuse(*pairs: tuple[bool, str]) -> None:
    """Raise BadInput for the first ``(condition, message)`` that holds: flags that make no sense
    together are refused, never ignored."""
    from ..service import BadInput

    for condition, message in pairs:
        if condition:
            raise BadInput(message)


def formats_help() -> str:
    """The formats table for ``--help``, from the formats registry (one place)."""
    from ..formats import help_table

    return help_table()


def engines_help() -> str:
    """The engines table for ``--help``, from ``solvers.ENGINES``."""
    from ..solvers import ENGINES

    return "engines:\n" + "".join(f"  {name:6s} {entry[1]}\n" for name, entry in ENGINES.items())


def levels() -> tuple[str, ...]:
    """The difficulty levels, from ``model.LEVELS`` (the deduction rules need not load for a parser)."""
    from ..model import LEVELS

    return LEVELS


def limits_help() -> str:
    """The command line's caps, from ``limits.CLI``."""
    from ..limits import CLI

    return (f"limits: boards up to {CLI.max_side}x{CLI.max_side} and {CLI.max_cells} cells, "
            f"{CLI.max_islands} islands, MAXBRIDGES up to {CLI.max_maxbridges}, "
            f"input files up to {CLI.max_input_bytes} bytes\n")


def say(message: str) -> None:
    """A line for the person at the terminal (standard error)."""
    print(message, file=sys.stderr)


def _columns() -> int:
    """The terminal's width as ``shutil.get_terminal_size`` finds it: ``COLUMNS``, else the
    terminal of standard output, else 80."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """argparse's formatter (descriptions and epilogs kept as written), told the terminal's width.
    Left to find it, argparse imports ``shutil`` (and with it ``bz2``, ``lzma``, ``zlib`` and
    ``fnmatch``, some 3.5 ms) whenever an option is added, in every command, help or not."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        super().__init__(prog, indent_increment, max_help_position, _columns() - 2 if width is None else width)


class OneLineParser(argparse.ArgumentParser):
    """argparse with usage errors as one line (exit 2), pointing at ``--help`` instead of
    printing the whole usage block, epilogs joined when shown, and :class:`HelpFormatter`;
    sub-command parsers inherit the class."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)

    def format_help(self) -> str:
        # an epilog given as a tuple of texts and functions (tables built from registries) is
        # joined only when help is shown, so a command that runs never builds it
        if isinstance(self.epilog, tuple):
            self.epilog = "".join(part() if callable(part) else part for part in self.epilog)
        return super().format_help()

    def error(self, message: str):
        self.exit(EXIT_BAD, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def add_show(parser) -> None:
    """``--show OUT.png``: the picture read, with what was read drawn over it."""
    from .output import writes

    writes(parser.add_argument("--show", metavar="OUT.png",
                               help="when FILE is a picture: write OUT.png, the picture with what was read drawn "
                                    "over it (islands, numbers, bridges; an unsure place in red, a number the rules "
                                    "corrected in amber) to spot a misread at a glance"),
           "file", (".png",), "the picture read")


def load_shown(args, path: str):
    """The puzzle file's document (``service.load_puzzle``), ``--show`` written after reading (its
    path was checked with every output's, before the work; for the commands that take ``--show``)."""
    from ..service import load_puzzle

    doc = load_puzzle(path, args.from_format)
    show(args, doc, path)
    return doc


def show(args, doc, path: str) -> None:
    """Write ``--show``'s picture for a document read from a picture (refused for other files)."""
    from ..service import BadInput

    if not getattr(args, "show", None):
        return
    if doc.picture is None:
        raise BadInput(f"--show draws what was read from a picture; {path} is not a picture")
    from ..service.overlay import reading_picture
    from .output import write_output

    write_output(reading_picture(doc.picture), args.show)
