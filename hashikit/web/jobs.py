"""The web API's work, as jobs for the server's worker processes.

Each job takes a request's JSON data, never a built board: the board is read and built here, in
the worker, under ``limits.WEB``, so the server's own process parses no board and holds no
large one.  A job answers the JSON of its use-case's shape, or raises :class:`BadInput` (a 400).
The jobs are module-level functions that import no web framework: a worker imports this module
by name.  A job with a deadline gets it as a :class:`~hashikit.limits.Deadline` made when its
work started, and hands it down whole.
"""

from __future__ import annotations

from .. import service
from ..errors import FormatError, PuzzleError
from ..limits import WEB, Deadline
from ..service import BadInput, OutOfTime

SOURCE = "<request>"


def request_puzzle(data: dict):
    """The request's puzzle, read as the JSON format reads one under ``limits.WEB`` (its size
    checked before a board is built), or :class:`BadInput`."""
    from ..formats.jsonfmt import puzzle_from_data

    try:
        puzzle = puzzle_from_data(data, SOURCE, '"puzzle"', WEB)
    except FormatError as exc:
        raise BadInput(exc.message) from None
    except (PuzzleError, TypeError, ValueError) as exc:
        raise BadInput(f'"puzzle": {exc}') from None
    return service.admit(puzzle, WEB, numbers=False)


def request_bridges(bridges, puzzle, key: str = "bridges"):
    """The request's ``[[r1, c1, r2, c2, k], ...]`` as a Solution on the board, or :class:`BadInput`."""
    from ..formats.jsonfmt import solution_from_list

    try:
        solution = solution_from_list(bridges or [], SOURCE, key)
    except FormatError as exc:
        raise BadInput(exc.message) from None
    return service.bridges_on_board(puzzle, solution, f'"{key}"')


def solve(data: dict, deadline: Deadline) -> dict:
    puzzle = request_puzzle(data)
    report = service.solve(puzzle, unique=True, time_limit=deadline, lim=WEB, stats=False)
    if report.status == "unknown":
        report.message = f"no answer within the time limit of {deadline.seconds:g} s"
    return report.as_json()


def check(data: dict, bridges, marks) -> dict:
    puzzle = request_puzzle(data)
    return service.check(puzzle, request_bridges(bridges, puzzle), in_play=True, marks=marks).as_json()


def hint(data: dict, bridges, marks, deadline: Deadline) -> dict:
    puzzle = request_puzzle(data)
    partial = request_bridges(bridges, puzzle)
    service.board_marks(puzzle, marks)
    try:
        report = service.hint(puzzle, partial, marks=marks, lim=WEB, time_limit=deadline)
    except OutOfTime as exc:
        report = service.HintReport(status="unknown", sentence=str(exc))
    return report.as_json()


def analyze(data: dict, deadline: Deadline) -> dict:
    puzzle = request_puzzle(data)
    try:
        report = service.analyze(puzzle, time_limit=deadline, lim=WEB)
    except OutOfTime as exc:
        report = service.AnalyzeReport(status="unknown", reason=str(exc))
    return report.as_json()


def convert(data: dict, bridges, fmt: str) -> dict:
    puzzle = request_puzzle(data)
    solution = request_bridges(bridges, puzzle) if bridges else None
    return service.convert_report(puzzle, solution, fmt).as_json()


def parse(text: str, fmt: str | None) -> dict:
    return service.parse(text, fmt, WEB).as_json()


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
