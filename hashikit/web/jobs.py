"""The web API's work, as jobs for the server's worker processes.

Each job takes a request's JSON data, never a built board: the board is read and built here, in
the worker, under ``limits.WEB``, so the server's own process parses no board and holds no
large one.  A job answers the JSON of its use-case's shape, or raises :class:`BadInput` (a 400).
The jobs are module-level functions that import no web framework: a worker imports this module
by name.  A job with a deadline gets it as a :class:`~hashikit.limits.Deadline` made when its
work started, and hands it down whole.

The same jobs answer the page that needs no server (:mod:`.local`, Python in the browser): there
each runs under that page's smaller limits (``lim``, :data:`hashikit.limits.SITE`), and a board
those refuse but the server's (:data:`hashikit.limits.WEB`) take is :class:`NeedsServer`.
"""

from __future__ import annotations

from .. import service
from ..errors import FormatError, HashikitError, PuzzleError
from ..limits import WEB, Deadline, Limits
from ..service import BadInput, OutOfTime

SOURCE = "<request>"


class NeedsServer(BadInput):
    """A board above the limits a job runs under but within the server's (``limits.WEB``): a
    hashikit server would take it."""


def fits(lim: Limits, rows, cols, islands=None, maxbridges=None) -> None:
    """Refuse a board above ``lim``: :class:`NeedsServer` when the server's limits take it, else
    :class:`BadInput`, in the limits' own words."""
    here = lim.problem(rows, cols, islands=islands, maxbridges=maxbridges)
    if here:
        beyond = lim is not WEB and not WEB.problem(rows, cols, islands=islands, maxbridges=maxbridges)
        raise (NeedsServer if beyond else BadInput)(here)


def request_puzzle(data: dict, lim: Limits = WEB):
    """The request's puzzle, read as the JSON format reads one under ``limits.WEB`` (its size
    checked before a board is built) and held to ``lim``, or :class:`BadInput`."""
    from ..formats.jsonfmt import puzzle_from_data

    if not isinstance(data, dict):
        raise BadInput('"puzzle" must be a JSON object')
    try:
        puzzle = puzzle_from_data(data, SOURCE, '"puzzle"', WEB)
    except FormatError as exc:
        raise BadInput(exc.message) from None
    except (PuzzleError, TypeError, ValueError) as exc:
        raise BadInput(f'"puzzle": {exc}') from None
    fits(lim, puzzle.rows, puzzle.cols, len(puzzle.islands), puzzle.maxbridges)
    return service.admit(puzzle, lim, numbers=False)


def request_bridges(bridges, puzzle, key: str = "bridges"):
    """The request's ``[[r1, c1, r2, c2, k], ...]`` as a Solution on the board, or :class:`BadInput`."""
    from ..formats.jsonfmt import solution_from_list

    try:
        solution = solution_from_list(bridges or [], SOURCE, key)
    except FormatError as exc:
        raise BadInput(exc.message) from None
    return service.bridges_on_board(puzzle, solution, f'"{key}"')


def solve(data: dict, deadline: Deadline, lim: Limits = WEB) -> dict:
    puzzle = request_puzzle(data, lim)
    report = service.solve(puzzle, unique=True, time_limit=deadline, lim=lim, stats=False)
    if report.status == "unknown":
        report.message = f"no answer within the time limit of {deadline.seconds:g} s"
    return report.as_json()


def check(data: dict, bridges, marks, lim: Limits = WEB) -> dict:
    puzzle = request_puzzle(data, lim)
    return service.check(puzzle, request_bridges(bridges, puzzle), in_play=True, marks=marks).as_json()


def hint(data: dict, bridges, marks, deadline: Deadline, lim: Limits = WEB) -> dict:
    puzzle = request_puzzle(data, lim)
    partial = request_bridges(bridges, puzzle)
    service.board_marks(puzzle, marks)
    try:
        report = service.hint(puzzle, partial, marks=marks, lim=lim, time_limit=deadline)
    except OutOfTime as exc:
        report = service.HintReport(status="unknown", sentence=str(exc))
    return report.as_json()


def analyze(data: dict, deadline: Deadline, lim: Limits = WEB) -> dict:
    puzzle = request_puzzle(data, lim)
    try:
        report = service.analyze(puzzle, time_limit=deadline, lim=lim)
    except OutOfTime as exc:
        report = service.AnalyzeReport(status="unknown", reason=str(exc))
    return report.as_json()


def convert(data: dict, bridges, fmt: str, lim: Limits = WEB) -> dict:
    puzzle = request_puzzle(data, lim)
    solution = request_bridges(bridges, puzzle) if bridges else None
    return service.convert_report(puzzle, solution, fmt).as_json()


def parse(text: str, fmt: str | None, lim: Limits = WEB) -> dict:
    try:
        return service.parse(text, fmt, lim).as_json()
    except BadInput:
        if lim is not WEB:  # a board the text declares above ``lim``: the server may take it
            size = _declared(text, fmt)
            if size is not None:
                fits(lim, *size)
        raise


def _declared(text: str, fmt: str | None):
    from ..formats import declared_size

    try:
        return declared_size(text, fmt, SOURCE)
    except (HashikitError, ValueError):
        return None


def read_picture(raw: bytes) -> dict:
    from ..service.picture import read_picture_report

    return read_picture_report(raw, WEB).as_json()


def generate(spec, deadline: Deadline) -> dict:
    """A generated puzzle's report; :class:`OutOfTime` when none is found by the deadline."""
    _puzzle, report = service.generate_unique(spec, time_limit=deadline)
    return report.as_json()


#: the modules a worker imports before its first job
PRELOAD = ("hashikit.web.jobs", "hashikit.service", "hashikit.solvers.sat", "hashikit.logic", "hashikit.generate",
           "hashikit.checker")


def sheets(puzzles: list[dict], per_page: int, solutions: bool, paper: str, fmt: str):
    """Print sheets of the request's puzzles (:func:`hashikit.publish.sheets.make_sheets`): the PDF's
    bytes, or its pages as SVG."""
    from ..publish.sheets import make_sheets

    return make_sheets([request_puzzle(data) for data in puzzles], per_page, solutions, paper, fmt)
