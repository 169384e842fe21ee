"""A book's puzzles: where they come from (a catalogue, or a folder of puzzle files), their checks,
and their order.

Before anything is drawn every puzzle is checked through the service's use-cases, in the batch
runner's worker processes when there are many: :func:`hashikit.service.analyze` must find it unique
(the SAT engine, asked for two solutions; its solution passed by the rule checker) and grade it at
its stated level (the deducer), and the solution printed is that one, checked again here by
:func:`hashikit.service.check`.  A puzzle that fails is refused by name.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Iterable

from ..errors import HashikitError
from ..model import LEVELS, Puzzle, Solution

#: the letter that numbers a level's puzzles (E001 ...)
LETTERS = dict(zip(LEVELS, "EMHX", strict=True))
#: below this many puzzles the checks run in this process (a worker pool's start costs more)
PARALLEL_FROM = 24


class BookError(HashikitError):
    """A book that cannot be made: a puzzle that fails its checks, a missing font, bad options."""


@dataclass
class BookPuzzle:
    puzzle: Puzzle
    level: str | None = None
    score: int | None = None
    #: where it came from (file name or catalogue id), for error messages
    name: str = ""
    solution: Solution | None = None
    #: its place in the book (1, 2, ...) and its printed label (E001 ...), given by :func:`order`
    number: int = 0
    label: str = ""


def from_catalog(path: str, at_most: int | None = None, **filters) -> list[BookPuzzle]:
    """The catalogue's puzzles matching ``filters`` (as :meth:`Catalog.query`), easiest first."""
    from .catalog import Catalog

    with Catalog(path, create=False) as cat:
        return [BookPuzzle(e.puzzle, e.level, e.score, f"{path} entry {e.id}", e.solution)
                for e in cat.iter_query(at_most=at_most, **filters)]


def from_folder(folder: str, at_most: int | None = None) -> list[BookPuzzle]:
    """Every puzzle file in ``folder`` in name order (index files, batch logs and pictures skipped),
    with the levels the folder's index.csv states (checked by :func:`verify`)."""
    from .catalog import CatalogError, read_folder

    try:
        files = read_folder(folder)
    except CatalogError as exc:
        raise BookError(str(exc)) from None
    if not files:
        raise BookError(f"{folder}: no puzzle files in this folder")
    return [BookPuzzle(f.puzzle, f.level, name=f.path) for f in files[:at_most]]


def load(source: str, at_most: int | None = None, **filters) -> list[BookPuzzle]:
    """A catalogue file (SQLite) or a folder of puzzle files; at most ``at_most`` puzzles."""
    if os.path.isdir(source):
        if any(v is not None for v in filters.values()):
            raise BookError("filters (size, level, score ...) select from a catalogue, not a folder")
        return from_folder(source, at_most)
    if not os.path.exists(source):
        raise BookError(f"{source}: no such catalogue or folder")
    return from_catalog(source, at_most, **filters)


def _analyze(puzzle_json: str) -> dict:
    """One puzzle's checks (a batch job): :func:`hashikit.service.analyze` under the command line's
    limits, as plain data."""
    from .. import service
    from ..formats import read_text
    from ..limits import CLI

    report = service.analyze(read_text(puzzle_json, "json").puzzle, lim=CLI)
    return {"status": report.status, "level": report.grade, "score": report.score,
            "bridges": report.solutions[0] if report.status == "unique" else None}


def _problem(name: str, answer: dict, stated: str | None) -> str | None:
    """Why a puzzle cannot go in the book, from its checks (None: it can)."""
    status = answer["status"]
    if status == "several":
        return f"{name}: has more than one solution"
    if status == "infeasible":
        return f"{name}: has no solution"
    if status != "unique":
        return f"{name}: not proved unique ({status})"
    if answer["level"] is None:
        return f"{name}: the deduction rules do not finish it (it needs guessing)"
    if stated is not None and answer["level"] != stated:
        return f"{name}: stated {stated}, but it grades {answer['level']}"
    return None


def verify(items: Iterable[BookPuzzle], workers: int | None = None) -> list[BookPuzzle]:
    """Prove each puzzle unique, grade it (it must match a stated level) and attach the checked
    solution; raises BookError naming every puzzle that fails.  Many puzzles are checked in the
    batch runner's worker processes (``workers``, default the cores; 1: in this process)."""
    from .. import service
    from ..formats import write_text

    items = list(items)
    texts = [write_text(i.puzzle, "json") for i in items]
    workers = workers or os.cpu_count() or 1
    if workers == 1 or len(items) < PARALLEL_FROM:
        answers = [_analyze(t) for t in texts]
    else:
        from ..run.batch import Job, run_batch

        answers = [None] * len(items)
        jobs = [Job(str(k), _analyze, (t,)) for k, t in enumerate(texts)]
        for res in run_batch(jobs, workers=min(workers, len(items)), progress=False, label="book checks",
                             preload=("hashikit.service", "hashikit.solvers", "hashikit.logic", "hashikit.formats")):
            if not res.ok:
                raise BookError(f"{items[res.index].name}: the check failed: {res.error}")
            answers[res.index] = res.value
    problems = []
    for item, ans in zip(items, answers):
        problem = _problem(item.name, ans, item.level)
        if problem is None:
            solution = Solution.from_list(ans["bridges"])
            if not service.check(item.puzzle, solution).complete:  # pragma: no cover - an engine bug
                problem = f"{item.name}: the engine's solution fails the rule checker"
            else:
                item.solution, item.level, item.score = solution, ans["level"], ans["score"]
        if problem:
            problems.append(problem)
    if problems:
        more = f" (and {len(problems) - 5} more)" if len(problems) > 5 else ""
        raise BookError(f"{len(problems)} puzzle(s) cannot go in the book: " + "; ".join(problems[:5]) + more)
    return items


def order(items: list[BookPuzzle]) -> list[BookPuzzle]:
    """Easiest level first, then by board size, then by score; numbered from 1 and labelled
    within their level (E001 ...)."""
    ranked = sorted(items, key=lambda i: (LEVELS.index(i.level), i.puzzle.rows * i.puzzle.cols,
                                          i.puzzle.rows, i.score or 0))
    per_level = {lv: sum(1 for i in ranked if i.level == lv) for lv in LEVELS}
    seen = dict.fromkeys(LEVELS, 0)
    for k, item in enumerate(ranked, 1):
        seen[item.level] += 1
        item.number = k
        item.label = f"{LETTERS[item.level]}{seen[item.level]:0{max(3, len(str(per_level[item.level])))}d}"
    return ranked


__all__ = ["BookError", "BookPuzzle", "LETTERS", "PARALLEL_FROM", "from_catalog", "from_folder", "load", "verify",
           "order"]
