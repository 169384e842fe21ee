"""Generate: unique graded puzzles (:mod:`hashikit.generate.unique`), the paper's
construction (:mod:`hashikit.generate.coelho`), and one generated record as stored by
batches and catalogues."""

from __future__ import annotations

from .. import limits as limits_mod
from ..limits import Deadline
from ..model import DEFAULT_MAXBRIDGES, Puzzle, Solution
from .admit import BadInput, OutOfTime, time_limit_for
from .shapes import GenerateReport, PuzzleModel
from .solving import assert_checked


def generate_unique(rows: int, cols: int, difficulty: str, seed: int, *, maxbridges: int = DEFAULT_MAXBRIDGES,
                    time_limit: float | Deadline | None = None, density: float | None = None,
                    allow_adjacent: bool = False, no_loops: bool = False,
                    islands_percent: int | None = None, expansion: int | None = None
                    ) -> tuple[Puzzle, GenerateReport]:
    """A unique puzzle graded exactly at ``difficulty``; :class:`OutOfTime` when none in time,
    :class:`BadInput` for options the generator refuses (see
    :func:`hashikit.generate.generate_unique`: ``density`` and ``allow_adjacent`` shape the
    default layout, ``islands_percent`` / ``expansion`` choose Tatham's)."""
    puzzle, _solution, report = _generate_solved(rows, cols, difficulty, seed, maxbridges=maxbridges,
                                                 time_limit=time_limit, density=density,
                                                 allow_adjacent=allow_adjacent, no_loops=no_loops,
                                                 islands_percent=islands_percent, expansion=expansion)
    return puzzle, report


def _generate_solved(rows: int, cols: int, difficulty: str, seed: int, *, maxbridges: int = DEFAULT_MAXBRIDGES,
                     time_limit: float | None = None, density: float | None = None, allow_adjacent: bool = False,
                     no_loops: bool = False, islands_percent: int | None = None,
                     expansion: int | None = None) -> tuple[Puzzle, Solution, GenerateReport]:
    """:func:`generate_unique` with the (checked) solution too."""
    from ..generate import generate_unique as make

    deadline = time_limit_for(time_limit, limits_mod.CLI)
    layout = _layout(density, allow_adjacent, no_loops, islands_percent, expansion)
    try:
        puzzle, solution, g = make(rows, cols, difficulty, seed, maxbridges=maxbridges,
                                   time_limit=deadline, **layout)
    except ValueError as exc:
        raise BadInput(str(exc)) from None
    except RuntimeError as exc:
        raise OutOfTime(f"no {difficulty} {rows}x{cols} puzzle found"
                        + (f" within {deadline.seconds:g} s" if deadline else "") + f" ({exc})") from None
    assert_checked(puzzle, [solution])
    return puzzle, solution, GenerateReport(puzzle=PuzzleModel.of(puzzle), grade=g.level, score=g.score, seed=seed)


def _layout(density: float | None, allow_adjacent: bool, no_loops: bool, islands_percent: int | None,
            expansion: int | None) -> dict[str, object]:
    """The generator's layout keywords; BadInput for a density given with Tatham's layout."""
    if density is not None and (islands_percent is not None or expansion is not None):
        raise BadInput("density shapes the default layout; Tatham's (islands percent, expansion) has its own")
    return dict(allow_adjacent=allow_adjacent, no_loops=no_loops, islands_percent=islands_percent,
                expansion=expansion, **({"density": density} if density is not None else {}))


def validate_generation(rows: int, cols: int, difficulty: str, *, maxbridges: int = DEFAULT_MAXBRIDGES,
                        time_limit: float | Deadline | None = None, density: float | None = None,
                        allow_adjacent: bool = False, no_loops: bool = False, islands_percent: int | None = None,
                        expansion: int | None = None) -> None:
    """What :func:`generate_unique` refuses (:class:`BadInput`), refused before any work: the
    generator's own checks (:func:`hashikit.generate.validate_request`), run alone."""
    from ..generate import validate_request

    time_limit_for(time_limit, limits_mod.CLI)
    try:
        validate_request(rows, cols, difficulty, maxbridges,
                         **_layout(density, allow_adjacent, no_loops, islands_percent, expansion))
    except ValueError as exc:
        raise BadInput(str(exc)) from None


def generate_paper(islands: int, rows: int, cols: int, alpha: float, beta: float, seed: int | None,
                   maxbridges: int = DEFAULT_MAXBRIDGES) -> Puzzle:
    """The generator of Coelho et al. (2019); BadInput when the board cannot hold it."""
    from ..generate import coelho

    if islands > rows * cols:
        raise BadInput(f"{islands} islands do not fit on a {rows}x{cols} board")
    try:
        return coelho(islands, rows, cols, alpha, beta, seed, maxbridges=maxbridges)
    except (RuntimeError, ValueError) as exc:
        raise BadInput(str(exc)) from None


def generate_record(rows: int, cols: int, seed: int, difficulty: str | None = None, *,
                    islands: int | None = None, alpha: float = 50.0, beta: float = 5.0, maxbridges: int = DEFAULT_MAXBRIDGES,
                    time_limit: float | Deadline | None = None, **layout) -> dict[str, object]:
    """One generated puzzle as JSON data, for a batch (``generate --count``, ``generate-suite``,
    a catalogue or a cluster): a module-level function of plain arguments answering plain data,
    so any executor can run it and any sink store it.

    With ``difficulty``: a unique puzzle graded at that level (:func:`generate_unique`; ``layout``
    its keywords ``density``, ``allow_adjacent``, ``no_loops``, ``islands_percent``, ``expansion``);
    with ``islands``: the paper's generator (:func:`generate_paper`, ``alpha``, ``beta``).
    Answers ``{"puzzle": {...}, "grade", "score", "seed", "islands"}`` (grade and score None for
    the paper's), and for a unique puzzle its checked solution as ``"bridges"`` (``[[r1, c1, r2, c2,
    count], ...]``, as a catalogue stores it); raises :class:`BadInput` or :class:`OutOfTime` (a
    batch's error row).
    """
    if (difficulty is None) == (islands is None):
        raise BadInput("give a difficulty (unique, graded) or a number of islands (the paper's), not both")
    if islands is not None:
        if layout:
            raise BadInput(f"{', '.join(sorted(layout))}: not options of the paper's generator")
        puzzle = generate_paper(islands, rows, cols, alpha, beta, seed, maxbridges)
        report = GenerateReport(puzzle=PuzzleModel.of(puzzle), seed=seed)
    else:
        puzzle, solution, report = _generate_solved(rows, cols, difficulty, seed, maxbridges=maxbridges,
                                                    time_limit=time_limit, **layout)
        return {**report.dump(), "islands": len(puzzle.islands), "bridges": solution.to_list()}
    return {**report.dump(), "islands": len(puzzle.islands)}
