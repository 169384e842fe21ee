"""Easy rules: the deductions of stage 1 of Simon Tatham's *Bridges* solver.

His stage 1 looks at one island at a time, with what its links can still carry
(a link's possible count is the smaller number of its ends, capped by MAXBRIDGES
and any maximum found before; a link crossed by a built bridge, or ending at a
finished island, can carry nothing more):

``finished``  an island with all its bridges takes no more;
``blocked``   a link crossed by a built bridge cannot be used;
``fill``      an island whose missing bridges equal the room its links still have
              fills them all (the room of one link is capped by what the island misses);
``one-each``  an island whose number is above MAXBRIDGES times (its usable directions
              minus one) needs at least one bridge in every usable direction.

``blocked`` and ``finished`` are steps here where his solver does them without a stage (a
crossed link's possible count is 0; a full island is *marked*, and its links count only the
bridges they have), so they are easy steps, like all his stage-1 work.

One difference, kept on purpose: the room of a link that already carries bridges.  His
stage 1 counts it as the smaller of (the smaller number of the two islands, capped by the
link's maximum) and (the maximum minus the bridges drawn): the bridges drawn are not taken
from the islands' numbers.  With MAXBRIDGES 1 or 2 that never changes a conclusion (a link
with a bridge whose other island has number 1 or 2 ends full or at its maximum), but with 3
or 4 he can see room the other island no longer has (a 2 that has one bridge on the link
"has room for 2" there), miss a ``fill``, and need his stage 3 to put a maximum on the link
first.  ``fill`` counts the room that is really left, as a player does.  Measured with
tests/tatham_stages.py, which reads his room both ways: random boards grade the same with
MAXBRIDGES 1 and 2 (800 and 3000 boards), and one or two levels easier here in 6 of 3000
with MAXBRIDGES 3 and 4 of 3000 with 4.  hashikit's own puzzles sit at the edge of their
level, where it shows more: of 9x9 ones with MAXBRIDGES 3-4 (25 seeds per level, with and
without no-loops), 9 of 100 medium ones are hard for him and 1 of 100 easy ones medium (none
of the hard ones differ).
Copying his reading would not give his grades either: his room is not monotone (drawing a
bridge can make a link look roomier), so with MAXBRIDGES 3-4 his own grade depends on the
order his passes visit the islands in (one 7x7 board in tests/test_levels.py is hard in
reading order, his order for a loaded game, and easy in reverse; his generator grades in
the order it placed the islands, which a game ID does not record), and copying the room
into this deducer (tried: ``fill`` and ``must-exit`` with his room) made random boards
disagree more often, not less (15 of 3000 MAXBRIDGES-3 boards instead of 6).  The exact
room is monotone, so the grade here does not depend on the order of the steps.

Each rule reads one island's links (``blocked``: one crossing) and returns a
:class:`~hashikit.logic.state.Step` or None; the deducer
(:mod:`hashikit.logic.deducer`) decides where to look.
"""

from __future__ import annotations

from .state import Step, bridges, word
from .words import cap, join


def finished(d, i: int) -> Step | None:
    st, geo = d.st, d.st.geo
    if d.dlo[i] != geo.num[i]:
        return None
    lo, hi = st.lo, st.hi
    open_links = [k for k in geo.inc[i] if hi[k] > lo[k]]
    if not open_links:
        return None
    if not d.words:
        return Step("finished", "easy", (i,), tuple(open_links), tuple((k, lo[k], lo[k]) for k in open_links), "")
    num = geo.num[i]
    others = " or ".join(st.island_name(other(geo, k, i)) for k in open_links)
    has = "its bridge" if num == 1 else f"all {word(num)} of its bridges"
    return Step("finished", "easy", (i,), tuple(open_links), tuple((k, lo[k], lo[k]) for k in open_links),
                f"{cap(st.island_name(i))} already has {has}, so no more bridges can go to {others}.")


def blocked(d, c: int) -> Step | None:
    """The step of crossing pair ``c`` (at most one: both cannot be built)."""
    st = d.st
    h, v = st.geo.crossings[c]
    lo, hi = st.lo, st.hi
    for built, other_link in ((h, v), (v, h)):
        if lo[built] >= 1 and hi[other_link] > 0 and lo[other_link] == 0:
            a, b = st.geo.ends[other_link]
            return Step("blocked", "easy", (a, b), (other_link, built), ((other_link, 0, 0),),
                        "" if not d.words else f"A bridge between {st.link_name(other_link)} would cross {st.bridge_name(built)}, "
                        f"so they cannot be joined.")
    return None


def fill(d, i: int) -> Step | None:
    st, geo = d.st, d.st.geo
    lo, hi = st.lo, st.hi
    need = geo.num[i] - d.dlo[i]
    if need <= 0:
        return None
    inc = geo.inc[i]
    total = 0
    for k in inc:  # the room first, without lists: most islands have more room than they miss
        r = hi[k] - lo[k]
        if r > 0:
            total += r if r < need else need
    if total != need:
        return None
    room = [(k, min(hi[k] - lo[k], need)) for k in inc if hi[k] > lo[k]]
    changes = tuple((k, lo[k] + r, hi[k]) for k, r in room)
    if not d.words:
        return Step("fill", "easy", (i,), tuple(k for k, _r in room), changes, "")
    reachable = [k for k in geo.inc[i] if hi[k] > 0]
    name = cap(st.island_name(i))
    if all(lo[k] == 0 and hi[k] == r for k, r in room) and len(room) == len(reachable) \
            and len({hi[k] for k in reachable}) == 1:
        n = len(reachable)
        what = "neighbour" if n == 1 else "neighbours"
        each = "it" if n == 1 else "each"
        sentence = (f"{name} has only {word(n)} {what} it can still reach, "
                    f"so it needs {bridges(hi[reachable[0]])} to {each}.")
    else:
        parts = [f"{bridges(r)}{' more' if lo[k] else ''} to {st.island_name(other(geo, k, i))}"
                 for k, r in room]
        sentence = (f"{name} still needs {bridges(need)}, exactly as many as its links can still take, "
                    f"so it needs {join(parts)}.")
    return Step("fill", "easy", (i,), tuple(k for k, _r in room), changes, sentence)


def one_each(d, i: int) -> Step | None:
    st, geo = d.st, d.st.geo
    lo, hi = st.lo, st.hi
    num = geo.num[i]
    if d.dlo[i] >= num:
        return None
    usable = [k for k in geo.inc[i] if hi[k] > 0]
    most = st.puzzle.maxbridges
    if num <= (len(usable) - 1) * most:
        return None
    empty = [k for k in usable if lo[k] == 0]
    if not empty:
        return None
    if not d.words:
        return Step("one-each", "easy", (i,), tuple(empty), tuple((k, 1, hi[k]) for k in empty), "")
    n = len(usable)
    names = join([st.island_name(other(geo, k, i)) for k in empty])
    sentence = (f"{cap(st.island_name(i))} can use {word(n)} direction{'s' if n != 1 else ''}, "
                f"and {'one of them carries' if n == 2 else f'any {word(n - 1)} of them carry'} at most "
                f"{bridges((n - 1) * most)}, fewer than its "
                f"{num}, so it needs at least one bridge to {names}.")
    return Step("one-each", "easy", (i,), tuple(empty), tuple((k, 1, hi[k]) for k in empty), sentence)


def other(geo, k: int, i: int) -> int:
    a, b = geo.ends[k]
    return b if a == i else a
