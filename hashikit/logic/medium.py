"""Medium rules: the deductions of stage 2 of Simon Tatham's *Bridges* solver.

His stage 2 looks at an unfinished island's links one at a time:

``no-loop``       (no-loops puzzles only) an empty link between two islands already
                  joined by bridges would close a loop, so it stays empty;
``at-least-one``  an empty link without which the island's other links could not
                  carry its number gets a first bridge (his rule adds one bridge,
                  never more: the next rounds of stage 1 go on from there).
"""

from __future__ import annotations

from .easy import other
from .state import Step, bridges
from .words import cap, join


def no_loop(d, i: int) -> Step | None:
    st, geo = d.st, d.st.geo
    if not st.puzzle.no_loops:
        return None
    lo, hi = st.lo, st.hi
    find = d.find
    root = find(i)
    closing = [k for k in geo.inc[i] if lo[k] == 0 and hi[k] > 0 and find(other(geo, k, i)) == root]
    if not closing:
        return None
    if not d.words:
        return Step("no-loop", "medium", (i,), tuple(closing), tuple((k, 0, 0) for k in closing), "")
    names = join([st.island_name(other(geo, k, i)) for k in closing])
    return Step("no-loop", "medium", (i,), tuple(closing), tuple((k, 0, 0) for k in closing),
                f"{cap(st.island_name(i))} is already joined to {names} by other bridges, so a bridge "
                f"between them would close a loop, which this puzzle forbids.")


def at_least_one(d, i: int) -> Step | None:
    st, geo = d.st, d.st.geo
    lo, hi = st.lo, st.hi
    num = geo.num[i]
    if d.dlo[i] >= num:
        return None
    avail = sum(hi[k] for k in geo.inc[i])
    forced = [k for k in geo.inc[i] if lo[k] == 0 and hi[k] > 0 and avail - hi[k] < num]
    if not forced:
        return None
    if not d.words:
        return Step("at-least-one", "medium", (i,), tuple(forced), tuple((j, 1, hi[j]) for j in forced), "")
    name = st.island_name(i)
    clauses = [f"without {st.island_name(other(geo, j, i))}, {name} could get at most "
               f"{bridges(avail - hi[j])} from its other links, fewer than its {num}" for j in forced]
    names = join([st.island_name(other(geo, j, i)) for j in forced])
    return Step("at-least-one", "medium", (i,), tuple(forced), tuple((j, 1, hi[j]) for j in forced),
                f"{cap('; '.join(clauses))}; so it needs at least one bridge to {names}.")
