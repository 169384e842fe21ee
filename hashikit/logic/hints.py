"""Hints: the next deduction a player can act on, and what it puts on the board.

A hint is a :class:`~hashikit.logic.state.Step` of the deducer (:mod:`.deducer`) taken on a
player's board (:meth:`State.from_board`).  It puts two things on the board: *bridges* (a link
whose lowest count rose) and *marks* (a link whose highest count fell: ``(link, most)``, at most
``most`` bridges there; 0 is a "no bridge here" mark).  "Mark" is the one word for a hint's upper
bound on a link (the service's answers say ``marks`` too); :meth:`State.from_board` reads them back.
"""

from __future__ import annotations

from .deducer import Deducer, level_rank
from .state import State, Step


def next_step(state: State, max_level: str = "expert") -> Step | None:
    """The first deduction of the lowest level that has one, or None when stuck (``state`` unchanged)."""
    return Deducer(state.copy()).next_step(level_rank(max_level))


def hint(state: State, max_level: str = "expert") -> Step | None:
    """A step a player can act on: of the steps at the lowest level that has one, the first that
    places a bridge, else the first (its ruled-out counts are marks the board can hold:
    see :func:`hint_marks`).  None when stuck.  ``state`` is unchanged."""
    deducer = Deducer(state.copy())
    first = deducer.next_step(level_rank(max_level))
    if first is None or any(new_lo > state.lo[k] for k, new_lo, _hi in first.changes):
        return first
    for step in deducer.all_steps(first.level):
        if any(new_lo > state.lo[k] for k, new_lo, _hi in step.changes):
            return step
    return first


def hint_bridges(state: State, step: Step) -> list[tuple[int, int]]:
    """The bridges ``step`` places on ``state``'s board: ``(link, count)`` for each raised count."""
    return [(k, new_lo) for k, new_lo, _hi in step.changes if new_lo > state.lo[k]]


def hint_marks(state: State, step: Step) -> list[tuple[int, int]]:
    """The marks ``step`` puts on ``state``'s board: ``(link, most)`` for each lowered maximum
    (0: a "no bridge here" mark); :meth:`State.from_board` reads them back."""
    return [(k, new_hi) for k, _lo, new_hi in step.changes if new_hi < state.hi[k]]
