"""Generate: unique graded puzzles (:mod:`hashikit.generate.unique`), the paper's
construction (:mod:`hashikit.generate.coelho`), and one generated record as stored by
batches and catalogues."""

from __future__ import annotations

import os

from .. import limits as limits_mod
from ..errors import BadArgument
from ..limits import Deadline
from ..model import DEFAULT_MAXBRIDGES, Puzzle, Solution
from .admit import BadInput, OutOfTime, time_limit_for
from .shapes import GenerateReport, PuzzleModel
from .solving import assert_checked

TYPE_CHECKING = False  # typing stays out of a plain solve
if TYPE_CHECKING:  # the rule book loads where a generation is asked for, not for every command
    from ..spec import GenerateSpec


def generate_unique(spec: GenerateSpec, time_limit: float | Deadline | None = None) -> tuple[Puzzle, GenerateReport]:
    """A unique puzzle graded exactly at the spec's difficulty, from its seed (left out: one drawn
    at random, which the report gives); :class:`OutOfTime`
    when none is found in time (``time_limit``: seconds, or a :class:`~hashikit.limits.Deadline`
    already running; None: the spec's own).  The spec was checked where its request entered
    (:meth:`~hashikit.spec.GenerateSpec.validate`, under that entry's limits: the web's, the
    command line's), and is not checked again."""
    puzzle, _solution, report = _generate_solved(spec, time_limit)
    return puzzle, report


def _generate_solved(spec: GenerateSpec, time_limit: float | Deadline | None = None
                     ) -> tuple[Puzzle, Solution, GenerateReport]:
    """:func:`generate_unique` with the (checked) solution too."""
    from ..generate import generate_from

    deadline = time_limit_for(spec.time_limit if time_limit is None else time_limit, limits_mod.CLI)
    rows, cols = spec.size
    seed = spec.seed if spec.seed is not None else int.from_bytes(os.urandom(4), "big")
    try:
        puzzle, solution, g = generate_from(spec, seed, time_limit=deadline)
    except ValueError as exc:
        raise BadInput(str(exc)) from None
    except RuntimeError as exc:  # the generator says what was not found, and within what
        raise OutOfTime(str(exc)) from None
    assert_checked(puzzle, [solution])
    return puzzle, solution, GenerateReport(puzzle=PuzzleModel.of(puzzle), grade=g.level, score=g.score, seed=seed)


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
    the other keywords of :class:`~hashikit.spec.GenerateSpec`: ``density``, ``allow_adjacent``,
    ``no_loops``, ``islands_percent``, ``expansion``; all checked by its ``validate``);
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
        from ..spec import GenerateSpec

        try:
            spec = GenerateSpec(rows=rows, cols=cols, difficulty=difficulty, maxbridges=maxbridges, seed=seed,
                                **layout).validate()
        except BadArgument as exc:
            raise BadInput(str(exc)) from None
        except TypeError as exc:  # a keyword the spec does not have
            raise BadInput(f"not an option of the generator: {exc}") from None
        puzzle, solution, report = _generate_solved(spec, time_limit)
        return {**report.dump(), "islands": len(puzzle.islands), "bridges": solution.to_list()}
    return {**report.dump(), "islands": len(puzzle.islands)}
