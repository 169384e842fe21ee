"""Convert and draw: a puzzle (and its solution) written in a format, the formats that can
be written, a solution as text, and pictures."""

from __future__ import annotations

from ..errors import FormatError
from ..model import Puzzle, Solution
from .admit import BadInput
from .shapes import ConvertReport


def convert(puzzle: Puzzle, solution: Solution | None, fmt_name: str) -> str:
    """The puzzle (and solution) as text in format ``fmt_name``."""
    from ..formats import write_text

    return write_text(puzzle, fmt_name, solution)


def writable_formats() -> list[str]:
    """The formats that can be written, from the formats registry."""
    from ..formats import formats

    return sorted(name for name, f in formats().items() if f.write)


def convert_report(puzzle: Puzzle, solution: Solution | None, fmt_name: str) -> ConvertReport:
    """:func:`convert` as an answer; a format that shows a solution when none is given is bad input."""
    from ..formats import get

    fmt = get(fmt_name)
    if fmt.needs_solution and solution is None:
        raise BadInput(f"format {fmt_name!r} shows a solution: send the bridges too")
    return ConvertReport(format=fmt_name, text=convert(puzzle, solution, fmt_name))


def solution_text(puzzle: Puzzle, solution: Solution, unicode: bool = False) -> str:
    """The solved grid; for a solution the grid cannot draw (three or more bridges on a link), the
    bridge list under a header that says what its columns are."""
    from ..formats import write_text

    try:
        return write_text(puzzle, "solved-unicode" if unicode else "solved", solution)
    except FormatError:
        head = (f"# MAXBRIDGES {puzzle.maxbridges}: the solved grid draws at most 2 bridges on a link, so the "
                "bridges are listed\n# row1 col1 row2 col2 count (rows and columns from 0); "
                "--to json-solution writes a solution file\n")
        return head + "\n".join(" ".join(map(str, b)) for b in solution.to_list()) + "\n"


def render(path: str, puzzle: Puzzle, solution: Solution | None = None, **kw) -> None:
    """Draw to ``path`` (.svg or .png); BadInput on an OS error."""
    from .. import render as draw

    try:
        draw.write(path, puzzle, solution, **kw)
    except OSError as exc:
        raise BadInput(f"{path}: cannot write: {exc.strerror or exc}") from None


def drawing(path: str, puzzle: Puzzle, solution: Solution | None = None, **kw) -> bytes:
    """The picture :func:`render` writes to ``path``, as bytes (made before an answer is written)."""
    from .. import render as draw

    return draw.picture(path, puzzle, solution, **kw)
