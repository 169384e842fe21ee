"""Every deduction rule, declared once with its level, in one table (:data:`RULES`).

The levels follow the solver stages of Simon Tatham's *Bridges* (easy = his stage 1,
medium = stage 2, hard = stage 3; see :mod:`.easy`, :mod:`.medium`, :mod:`.hard`), so a
puzzle his generator makes at a level grades at that level here; ``expert``
(:mod:`.expert`) holds hashikit's techniques beyond his.

A rule looks at one *element* (an island, a link or a crossing pair) and returns a
:class:`~hashikit.logic.state.Step` or None, or (``BOARD`` rules) at the whole board
and yields steps.  Its entry says what it reads, so that the deducer
(:mod:`hashikit.logic.deducer`) re-examines only the elements a change can affect:

``reach``     an island rule reads links up to this many links away from its island
              (0: its own links and the numbers at their ends);
``crossing``  it also reads the islands at the ends of links that cross links near it;
``groups``    it reads the groups of islands joined by certain bridges, so a group that
              changes (two merge, an island in it completes) wakes it near the group's
              unfinished islands;
``merge``     it must look at every island of the smaller group when two groups merge;
``open_only`` it never fires at an island that has all its bridges or on a decided link;
``full_only`` (island rules) it fires only at an island that has all its bridges;
``risk``      beyond its island's neighbours it reads only islands *at risk* (see
              :meth:`hashikit.logic.deducer.Deducer.risk`): a change farther away wakes it
              only where such an island is within its reach.

Adding a rule is one line here and one function in its level's module.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from . import easy, expert, hard, medium
from .state import LEVELS

ISLAND, LINK, CROSSING, BOARD = "island", "link", "crossing", "board"


@dataclass(frozen=True)
class Rule:
    name: str
    level: str
    scope: str
    #: ``test(deducer, index) -> Step | None`` (``BOARD``: ``test(deducer) -> iterator of steps``)
    test: Callable
    #: one human sentence: what the rule says
    summary: str
    reach: int = 0
    crossing: bool = False
    groups: bool = False
    merge: bool = False
    risk: bool = False
    #: it can fire only in no-loops puzzles (the deducer leaves it out of the others)
    no_loops: bool = False
    #: it never fires at a finished island (island rules) or a decided link (link rules): a change
    #: does not wake it there (both stay so)
    open_only: bool = False
    #: it fires only at an island with all its bridges: a change does not wake it at an island that
    #: misses some (when that island is finished later, a change of its own links wakes it)
    full_only: bool = False


RULES: tuple[Rule, ...] = (
    # easy: Tatham's stage 1
    Rule("finished", "easy", ISLAND, easy.finished, "An island with all its bridges takes no more.",
         full_only=True),
    Rule("blocked", "easy", CROSSING, easy.blocked, "A link crossed by a built bridge cannot be used."),
    Rule("fill", "easy", ISLAND, easy.fill,
         "An island that misses exactly as many bridges as its links still have room for fills them.",
         open_only=True),
    Rule("one-each", "easy", ISLAND, easy.one_each,
         "An island whose number is more than MAXBRIDGES times its usable directions minus one needs "
         "a bridge in every direction.", open_only=True),
    # medium: Tatham's stage 2
    Rule("no-loop", "medium", ISLAND, medium.no_loop,
         "(no-loops puzzles) An empty link between two islands already joined would close a loop.",
         merge=True, no_loops=True),
    Rule("at-least-one", "medium", ISLAND, medium.at_least_one,
         "An empty link without which an island's other links cannot carry its number gets a bridge.",
         open_only=True),
    # hard: Tatham's stage 3
    Rule("what-if", "hard", ISLAND, hard.what_if,
         "One more bridge on a link that would overfill an island, cut off a finished group, or leave "
         "an island nearby unable to reach its number is impossible.",
         reach=3, crossing=True, groups=True, risk=True, open_only=True),
    Rule("must-exit", "hard", ISLAND, hard.must_exit,
         "If an island sending all it can to its other neighbours would close a finished group off, it "
         "needs a bridge on the remaining link.", reach=1, groups=True, open_only=True),
    # expert: beyond Tatham
    Rule("at-least", "expert", ISLAND, expert.at_least,
         "An island that cannot reach its number without several bridges on a link needs them all."),
    Rule("single-exit", "expert", BOARD, expert.single_exit,
         "A built group with only one way out left must use it."),
    Rule("group-need", "expert", BOARD, expert.group_need,
         "A built group needs as many bridges out as it misses."),
    Rule("cut-link", "expert", BOARD, expert.cut_link,
         "A link that every route between two parts of the board runs over needs a bridge."),
    Rule("lookahead", "expert", LINK, expert.lookahead,
         "A count on a link that would force its ends to close a group off is impossible.",
         groups=True, open_only=True),
    Rule("contradiction", "expert", BOARD, expert.contradiction,
         "A count on a link that leads to a contradiction by the other rules is impossible."),
)

assert [r.level for r in RULES] == sorted((r.level for r in RULES), key=LEVELS.index), "rules in level order"
