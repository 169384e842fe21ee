"""Difficulty grades: the lowest rule level that finishes a puzzle."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..model import Puzzle
from .deducer import solve_logically
from .state import LEVELS

#: weight of one step of each level in the score
WEIGHTS = {"easy": 1, "medium": 3, "hard": 9, "expert": 27}


@dataclass
class Grade:
    #: "easy" | "medium" | "hard" | "expert", or None when the rules get stuck (needs search)
    level: str | None
    score: int
    steps_per_level: dict[str, int] = field(default_factory=dict)
    #: links still undecided where the rules got stuck (0 when graded)
    undecided: int = 0

    def __str__(self) -> str:
        if self.level is None:
            return f"ungraded (rules stuck with {self.undecided} links open; score {self.score})"
        return f"{self.level} (score {self.score})"


def grade(puzzle: Puzzle, max_level: str = "expert") -> Grade:
    """Grade ``puzzle`` by the hardest level the deducer needed to finish it.

    The deducer always uses the lowest level that has a step, so a run with every
    level follows a lower-level run exactly until that one gets stuck: the hardest
    level used is the lowest level that finishes the puzzle.
    """
    state, steps, stuck = solve_logically(puzzle, max_level)
    per = {level: 0 for level in LEVELS}
    for step in steps:
        per[step.level] += 1
    score = sum(WEIGHTS[s.level] for s in steps)
    if stuck:
        return Grade(None, score, per, len(state.undecided()))
    used = [level for level in LEVELS if per[level]]
    return Grade(used[-1] if used else "easy", score, per, 0)
