"""What every engine returns: a ``SolveResult`` with an explicit status."""

from __future__ import annotations

from enum import Enum

from ..model import Solution
from ..records import Fresh, Record


class Capabilities(Record, frozen=True):
    """What an engine declares it does; ``solvers.solve`` refuses anything else
    (``UnsupportedOption``) before the engine runs.  Declared in the registry, so an engine
    whose package is missing can still be described and refused."""

    #: ``max_solutions > 1``: uniqueness proofs and enumeration
    enumerate: bool = True
    #: a time limit that is kept (the answer comes within it plus ``limits.TIME_MARGIN``)
    time_limit: bool = True
    #: up to this many links the engine keeps a deadline by itself (its model builds in a small
    #: part of ``limits.TIME_MARGIN`` and its solver takes the time left as its own limit, checked
    #: between rounds too), so a limited solve runs in the caller: no process to start
    deadline_in_process: int = 0
    #: the no-loops variant (``Puzzle.no_loops``)
    no_loops: bool = False
    #: engine-specific keyword options it accepts, with their types
    options: tuple[tuple[str, type], ...] = ()


class Status(str, Enum):
    SOLVED = "solved"          # a solution was found (and is in ``solution``)
    INFEASIBLE = "infeasible"  # the engine proved that no solution exists
    UNKNOWN = "unknown"        # stopped (time limit) before either was shown

    def __str__(self) -> str:
        return self.value


class SolveResult(Record):
    status: Status
    solution: Solution | None = None
    engine: str = ""
    #: every distinct solution found, ``solution`` first (more than one only when
    #: the caller asked for ``max_solutions > 1``)
    solutions: list[Solution] = Fresh(list)
    #: with ``max_solutions``: True when the engine proved there are no others
    complete: bool = False
    #: why the search stopped early, when it did: ``"time limit"`` only when the limit was
    #: actually reached (then ``complete`` is False and ``unique`` says None unless two were found)
    stopped: str | None = None
    #: Why the puzzle is infeasible, in words, when the reason is simple.
    reason: str | None = None
    #: Engine statistics: ``time`` (seconds, model building included) always;
    #: others per engine, e.g. ``rounds`` and ``cuts`` for lazy connectivity.
    stats: dict[str, object] = Fresh(dict)

    def __post_init__(self) -> None:
        if self.solution is not None and not self.solutions:
            self.solutions = [self.solution]

    @property
    def unique(self) -> bool | None:
        """True when proved unique, False when two were found, None when not known."""
        if len(self.solutions) > 1:
            return False
        if self.solutions and self.complete:
            return True
        return None

    @property
    def solved(self) -> bool:
        return self.status is Status.SOLVED
