"""Hard rules: the deductions of stage 3 of Simon Tatham's *Bridges* solver.

His stage 3 tries things out on one unfinished island at a time:

``what-if``    for each link with room, suppose it carried one bridge more than it
               has, then two, ...: the first count that overfills the other end
               (step ``room``), completes both ends into a group cut off from the
               other islands (step ``isolation``), or leaves some island nearby
               unable to reach its number because the trial took its partner's
               room or crossed its link (step ``starve``) is impossible, so the link
               gets that count minus one as its maximum;
``must-exit``  suppose the island sent every bridge it can to its other neighbours:
               if that completes a group cut off from the other islands, it needs at
               least one bridge on this (still empty) link.

"Unable to reach its number" is his check: an island misses more bridges than
its open links can take, each link counting at most what the island at its other
end still misses.  The trials read the state only (nothing is propagated).  The
deducer keeps every island's supply (what its links can take so counted) and which
islands are at risk of being starved (:meth:`hashikit.logic.deducer.Deducer.risk`),
so a trial adds only what it changes, and an island with no island at risk in
reach is checked for room and isolation alone.
"""

from __future__ import annotations

from .easy import other
from .state import Step, bridges, word
from .words import cap, join


def what_if(d, x: int) -> Step | None:
    st, geo = d.st, d.st.geo
    lo, hi = st.lo, st.hi
    missing = geo.num[x] - d.dlo[x]
    if missing <= 0:
        return None
    if not d.risk()[x]:
        # no island at risk in reach: no trial can starve one, only room and isolation are left
        for k in geo.inc[x]:
            if hi[k] > lo[k]:
                first = _first_room_or_isolation(d, x, k, missing)
                if first is not None:
                    return _what_if_step(st, x, k, *first, words=d.words)
        return None
    for k in geo.inc[x]:
        if hi[k] <= lo[k]:
            continue
        for n in range(lo[k] + 1, lo[k] + min(hi[k] - lo[k], missing) + 1):
            found = _trial(d, x, k, n)
            if found is not None:
                return _what_if_step(st, x, k, n, *found, words=d.words)
    return None


def _first_room_or_isolation(d, x: int, k: int, missing: int) -> tuple[int, str, int] | None:
    """The first count on link ``k`` (of island ``x``, missing ``missing``) whose trial finds
    room or isolation, with what it finds: (count, step name, island), or None.

    With ``add`` bridges more, the other end ``o`` is overfilled once ``add`` passes what
    it misses, and both ends are complete when ``add`` equals what each misses, so the
    first count is worked out rather than tried one by one (as :func:`_trial` does)."""
    st, geo = d.st, d.st.geo
    lo = st.lo[k]
    o = other(geo, k, x)
    free_o = geo.num[o] - d.dlo[o]
    top = min(st.hi[k] - lo, missing)  # the most ``add`` tried
    if free_o == missing:  # isolation at add == missing; room only past it
        if missing <= top and _isolated(d, x, o):
            return lo + missing, "isolation", o
        return None
    if free_o < top:
        return lo + max(free_o, 0) + 1, "room", o
    return None


def _isolated(d, x: int, o: int) -> bool:
    """Completing ``x`` and ``o`` would complete their groups, joined, without every island."""
    rx, ro = d.find(x), d.find(o)
    incomplete = d.incomplete[rx] + (d.incomplete[ro] if ro != rx else 0)
    if incomplete != 2:
        return False
    size = len(d.members[rx]) + (len(d.members[ro]) if ro != rx else 0)
    return size < d.st.geo.n


def _trial(d, x: int, k: int, n: int) -> tuple[str, int] | None:
    """Why ``n`` bridges on link ``k`` of island ``x`` are impossible: (step name, island), or None.

    The starve check reads each island's *supply* (what its open links can still
    carry, each capped by what the island at the other end misses) in the state
    itself, kept by the deducer (:meth:`Deducer.supply`), and adds what the trial
    changes: link ``k`` (its bottom count, and the room of both ends), the links of
    ``x`` and ``o`` (their ends miss ``add`` fewer bridges) and the links crossing
    ``k`` that the first bridge blocks.  That is the whole of Tatham's check,
    without summing every nearby island's links again for every trial.
    """
    st, geo = d.st, d.st.geo
    lo, hi, num, dlo = st.lo, st.hi, geo.num, d.dlo
    o = other(geo, k, x)
    add = n - lo[k]
    deg_o = dlo[o] + add
    if deg_o > num[o]:
        return "room", o
    deg_x = dlo[x] + add
    if deg_x == num[x] and deg_o == num[o] and _isolated(d, x, o):
        return "isolation", o
    blocked = [c for c in geo.partners[k] if lo[c] == 0 and hi[c] > 0] if lo[k] == 0 else ()
    inc, ends = geo.inc, geo.ends
    if blocked and any(x in ends[c] or o in ends[c] for c in blocked):
        return _trial_reference(d, x, k, n)  # a crossing link at x or o: not on a grid
    free_x, free_o = num[x] - dlo[x], num[o] - dlo[o]
    new_fx, new_fo = free_x - add, free_o - add
    room, left = hi[k] - lo[k], hi[k] - n
    # per island, the trial's supply minus the state's
    delta = {x: (min(left, new_fo) if left > 0 and new_fo > 0 else 0) - (min(room, free_o) if free_o > 0 else 0),
             o: (min(left, new_fx) if left > 0 and new_fx > 0 else 0) - (min(room, free_x) if free_x > 0 else 0)}
    for end, free, new_free in ((x, free_x, new_fx), (o, free_o, new_fo)):
        if free <= 0:
            continue
        for j in inc[end]:
            r = hi[j] - lo[j]
            if j == k or r <= new_free:
                continue  # the term min(r, free) at the other end does not change
            a, b = ends[j]
            y = b if a == end else a
            delta[y] = delta.get(y, 0) + (min(r, new_free) if new_free > 0 else 0) - min(r, free)
    for c in blocked:
        r = hi[c]
        a, b = ends[c]
        for y, z in ((a, b), (b, a)):
            f = num[z] - dlo[z]
            if f > 0:
                delta[y] = delta.get(y, 0) - min(r, f)
    supply = d.supply
    near = geo.near
    near_x = near(x)
    for y in _in_order(near_x, near(o), blocked, ends):
        need = num[y] - (deg_x if y == x else deg_o if y == o else dlo[y])
        if need > 0 and supply(y) + delta.get(y, 0) < need:
            return "starve", y
    return None


def _in_order(near_x: list[int], near_o: list[int], blocked, ends):
    """The islands a trial checks, in the order Tatham's solver (and so the steps) takes them."""
    yield from near_x
    for y in near_o:
        if y not in near_x:
            yield y
    if blocked:
        seen = set(near_x) | set(near_o)
        for c in blocked:
            for y in ends[c]:
                if y not in seen:
                    seen.add(y)
                    yield y


def _trial_reference(d, x: int, k: int, n: int) -> tuple[str, int] | None:
    """:func:`_trial` summing every checked island's links for this trial (the plain reading of
    Tatham's check; used where a crossing link touches the trial's ends)."""
    st, geo = d.st, d.st.geo
    lo, hi, num, dlo = st.lo, st.hi, geo.num, d.dlo
    o = other(geo, k, x)
    add = n - lo[k]
    deg_o = dlo[o] + add
    if deg_o > num[o]:
        return "room", o
    deg_x = dlo[x] + add
    if deg_x == num[x] and deg_o == num[o] and _isolated(d, x, o):
        return "isolation", o
    blocked = [c for c in geo.partners[k] if lo[c] == 0 and hi[c] > 0] if lo[k] == 0 else []
    degree = {x: deg_x, o: deg_o}
    check = dict.fromkeys(geo.near(x))
    check.update(dict.fromkeys(geo.near(o)))
    for c in blocked:
        check.update(dict.fromkeys(geo.ends[c]))
    inc, ends = geo.inc, geo.ends
    for y in check:
        need = num[y] - degree.get(y, dlo[y])
        if need <= 0:
            continue
        supply = 0
        for j in inc[y]:
            if j == k:
                top, bottom = hi[j], n
            else:
                top, bottom = (0 if j in blocked else hi[j]), lo[j]
            if top <= bottom:
                continue
            a, b = ends[j]
            z = b if a == y else a
            free = num[z] - degree.get(z, dlo[z])
            if free > 0:
                supply += min(top - bottom, free)
                if supply >= need:
                    break
        if supply < need:
            return "starve", y
    return None


def _what_if_step(st, x: int, k: int, n: int, name: str, y: int, words: bool = True) -> Step:
    lo = st.lo[k]
    o = other(st.geo, k, x)
    if not words:
        return Step(name, "hard", (x, o), (k,), ((k, lo, n - 1),), "")
    between = f"{bridges(n)} between {st.link_name(k)}" if lo == 0 else \
        f"{bridges(n)} (one more than drawn) between {st.link_name(k)}"
    if name == "room":
        free = st.geo.num[o] - sum(st.lo[j] for j in st.geo.inc[o])
        why = (f"{cap(st.island_name(o))} can take only {bridges(free)} more, so {between} "
               f"would be too many")
    elif name == "isolation":
        why = (f"{cap(between)} would complete both of them and leave their group cut off "
               f"from the other islands")
    else:
        why = (f"With {between}, {st.island_name(y)} could no longer get all {word(st.geo.num[y])} of "
               f"its bridges from the links it has left")
    if n - 1 == 0:
        end = "so there is no bridge between them"
    else:
        end = f"so they share at most {bridges(n - 1)}"
    return Step(name, "hard", (x, o), (k,), ((k, lo, n - 1),), f"{why}; {end}.")


def must_exit(d, x: int) -> Step | None:
    st, geo = d.st, d.st.geo
    lo, hi, num, dlo = st.lo, st.hi, geo.num, d.dlo
    missing = num[x] - dlo[x]
    if missing <= 0:
        return None
    room = {k: min(hi[k] - lo[k], missing) for k in geo.inc[x] if hi[k] > lo[k]}
    total = sum(room.values())
    find = d.find
    for k in geo.inc[x]:
        if k not in room or lo[k] != 0:
            continue
        others = [(j, r) for j, r in room.items() if j != k]
        if not others or total - room[k] != missing:
            continue
        ends = [other(geo, j, x) for j, _r in others]
        if any(dlo[o] + r != num[o] for o, (_j, r) in zip(ends, others)):
            continue
        roots = {find(x)} | {find(o) for o in ends}
        if sum(d.incomplete[r] for r in roots) != 1 + len(ends):
            continue
        size = sum(len(d.members[r]) for r in roots)
        if size >= geo.n:
            continue
        if not d.words:
            return Step("must-exit", "hard", (x,), (k,), ((k, 1, hi[k]),), "")
        names = join([st.island_name(o) for o in ends])
        return Step("must-exit", "hard", (x,), (k,), ((k, 1, hi[k]),),
                    f"If {st.island_name(x)} sent all the bridges it can to {names}, they would all be "
                    f"complete and cut off from the other islands, so it needs at least one bridge to "
                    f"{st.island_name(other(geo, k, x))}.")
    return None
