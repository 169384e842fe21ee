"""Where the easy and medium rules end, worked out island by island without taking steps.

The rules of :mod:`.easy` and :mod:`.medium` (``no-loop`` aside) read one island's links, or
one crossing, and only ever narrow intervals, and each fires again, to the same effect, on any
narrower state that still holds a solution (the room ``fill`` reads is the exact one: see
:mod:`.easy`).  So on a puzzle with a solution inside the state, every order of their steps ends
in the same state: the one a :class:`~hashikit.logic.deducer.Deducer` run stuck at that level ends
in.  :func:`close` reaches it with a worklist of islands, a few times cheaper than the deducer's
steps (no steps, no sentences, no waking table): what the generator needs when it asks only
whether a level finishes a puzzle, or where it gets stuck.  tests/test_logic.py compares it with
the deducer's runs.
"""

from __future__ import annotations

from heapq import heappop, heappush
from itertools import compress
from operator import ne
from typing import Iterable

from .state import LEVEL_RANK, State

#: the levels :func:`close` knows, and the rank of the medium one
CLOSED_LEVELS = ("easy", "medium")
_MEDIUM = LEVEL_RANK["medium"]


def degrees(st: State) -> list[int]:
    """The certain degree of each island of ``st`` (the sum of its links' ``lo``)."""
    lo, ends = st.lo, st.geo.ends
    dlo = [0] * st.geo.n
    for k in compress(range(len(lo)), lo):
        c = lo[k]
        a, b = ends[k]
        dlo[a] += c
        dlo[b] += c
    return dlo


def close(st: State, level: str, islands: Iterable[int] | None = None, dlo: list[int] | None = None) -> bool:
    """Narrow ``st`` by the rules up to ``level`` (easy or medium) until none applies; True when
    every link is then decided.  For a puzzle without the no-loops rule (whose medium rule reads
    groups), on a state that holds a solution (the end state is then the deducer's).

    ``islands``: the islands where an island rule may fire: the state was closed, and since then
    only links of these islands changed (so only those links may cross a built link without being
    blocked); every island by default.  ``dlo``: :func:`degrees` of ``st`` when the caller keeps
    them (kept up to date here)."""
    settle(st, level, islands, dlo)
    return st.lo == st.hi


def settle(st: State, level: str, islands: Iterable[int] | None = None, dlo: list[int] | None = None) -> int:
    """:func:`close`, answering how many links it decided (a caller that keeps the count of open
    links needs no pass over them)."""
    if level not in CLOSED_LEVELS or st.puzzle.no_loops:
        raise ValueError(f"close() works out easy and medium in puzzles with loops, not {level!r}")
    geo = st.geo
    lo, hi = st.lo, st.hi
    ends, partners, inc = geo.ends, geo.partners, geo.inc
    if dlo is None:
        dlo = degrees(st)
    decided = 0
    if islands is None:
        todo = list(range(geo.n - 1, -1, -1))
        waiting = bytearray(b"\x01") * geo.n
        for k in compress(range(geo.nlinks), lo):
            decided += _block(k, lo, hi, ends, partners, todo, waiting)
    else:
        todo = list(islands)
        waiting = bytearray(geo.n)
        for i in todo:
            waiting[i] = 1
        for i in islands:  # the changed links: blocked where a built link crosses them
            for k in inc[i]:
                if hi[k] and not lo[k]:
                    for j in partners[k]:
                        if lo[j]:
                            hi[k] = 0
                            decided += 1
                            break
    return decided + _close_islands(st, LEVEL_RANK[level] >= _MEDIUM, dlo, todo, waiting)


def _block(k: int, lo: list[int], hi: list[int], ends: list[tuple[int, int]], partners: list[list[int]], todo: list[int], waiting: bytearray) -> int:
    """``blocked``: link ``k`` carries a bridge, so the links crossing it carry none (how many it
    decided)."""
    decided = 0
    for j in partners[k]:
        if hi[j] and not lo[j]:
            hi[j] = 0
            decided += 1
            for e in ends[j]:
                if not waiting[e]:
                    waiting[e] = 1
                    todo.append(e)
    return decided


def _close_islands(st: State, medium: bool, dlo: list[int], todo: list[int], waiting: bytearray) -> int:
    """Apply every island rule (``finished``, ``fill``, ``one-each``, and with ``medium``
    ``at-least-one``) at the islands on ``todo`` until none fires, putting back on ``todo`` the
    islands at the other end of every link narrowed (and the island itself when it gained bridges:
    it may be finished or filled now), and blocking the links that cross a link's first bridge.
    Answers how many links it decided."""
    geo = st.geo
    lo, hi = st.lo, st.hi
    num, inc, ends, partners = geo.num, geo.inc, geo.ends, geo.partners
    most = st.puzzle.maxbridges
    pop, push = todo.pop, todo.append
    decided = 0
    while todo:
        i = pop()
        waiting[i] = 0
        links = inc[i]
        need = num[i] - dlo[i]
        if need <= 0:
            if need == 0:  # finished: its open links take nothing more
                for k in links:
                    if hi[k] > lo[k]:
                        hi[k] = lo[k]
                        decided += 1
                        a, b = ends[k]
                        o = b if a == i else a
                        if not waiting[o]:
                            waiting[o] = 1
                            push(o)
            continue  # (overfilled: no solution inside the state, which the caller promises away)
        # one pass over the links: the room to fill, the usable links, the sum of their ``hi``, and
        # the largest ``hi`` of a usable link without a bridge yet (no rule below fires without one)
        total = usable = room = top = 0
        for k in links:
            h = hi[k]
            if h:
                usable += 1
                room += h
                c = lo[k]
                if not c and h > top:
                    top = h
                r = h - c
                if r > 0:
                    total += r if r < need else need
        raised: list[tuple[int, int]] | None
        if total == need:  # fill: exactly as many missing as its links have room for
            raised = [(k, lo[k] + (hi[k] - lo[k] if hi[k] - lo[k] < need else need)) for k in links if hi[k] > lo[k]]
        else:
            if not top:
                continue
            if num[i] > (usable - 1) * most:  # one-each: a bridge in every usable direction
                raised = [(k, 1) for k in links if hi[k] > 0 and not lo[k]]
            else:
                raised = None
            avail = room - num[i]  # (one-each leaves every hi as it was)
            if medium and top > avail:  # at-least-one: a link without which the others cannot carry the number
                more = [(k, 1) for k in links if not lo[k] and hi[k] > avail and hi[k]]
                raised = more if raised is None else list({**dict(raised), **dict(more)}.items())
            if not raised:
                continue
        for k, new in raised:
            old = lo[k]
            lo[k] = new
            if new == hi[k]:
                decided += 1
            a, b = ends[k]
            dlo[a] += new - old
            dlo[b] += new - old
            o = b if a == i else a
            if not waiting[o]:
                waiting[o] = 1
                push(o)
            if not old:  # blocked: the links crossing a first bridge carry none
                decided += _block(k, lo, hi, ends, partners, todo, waiting)
        if not waiting[i]:
            waiting[i] = 1
            push(i)
    return decided


def step_levels(st: State, level: str) -> list[str]:
    """Narrow ``st`` as a :class:`~hashikit.logic.deducer.Deducer` run at ``level`` (easy or
    medium) does, and give the level of each of its steps (what a grade reads), without making them.

    The deducer's order, kept: the first rule in table order (``finished``, ``blocked``, ``fill``,
    ``one-each``, and at medium ``at-least-one``) that fires somewhere, at its lowest island or
    crossing, until every link is decided or none fires.  Each rule keeps its candidates in a
    heap, all at first, and an element that does not fire waits until one of its links changes,
    as the deducer's waking does (these rules read their island's own links, or the crossing's
    two).  For a puzzle without the no-loops rule, on a state that holds a solution.
    tests/test_logic.py compares the levels and the end state with the deducer's runs."""
    if level not in CLOSED_LEVELS or st.puzzle.no_loops:
        raise ValueError(f"step_levels() follows easy and medium in puzzles with loops, not {level!r}")
    geo = st.geo
    lo, hi = st.lo, st.hi
    num, inc, ends, crossings = geo.num, geo.inc, geo.ends, geo.crossings
    cross_of = geo.cross_of()
    most = st.puzzle.maxbridges
    medium = LEVEL_RANK[level] >= _MEDIUM
    dlo = degrees(st)
    n = geo.n
    # per rule, its candidates in a heap (at first every element where it may fire, in order) and a
    # flag per element in it
    missing = [i for i in range(n) if dlo[i] < num[i]]
    fin = [i for i in range(n) if dlo[i] == num[i]]
    fil, one, alo = missing, list(missing), list(missing) if medium else []
    blk = [c for c, (h, v) in enumerate(crossings) if lo[h] or lo[v]]
    fin_f, blk_f = bytearray(n), bytearray(len(crossings))
    for x in fin:
        fin_f[x] = 1
    for x in blk:
        blk_f[x] = 1
    fil_f = bytearray(n)
    for x in missing:
        fil_f[x] = 1
    one_f, alo_f = bytearray(fil_f), bytearray(fil_f)
    woken = [(fil, fil_f), (one, one_f)] + ([(alo, alo_f)] if medium else [])  # (an island missing bridges)
    open_links = sum(map(ne, lo, hi))
    levels: list[str] = []
    while open_links:
        # the first rule in table order that fires, at its lowest candidate (the candidates that
        # do not fire leave its heap): its changes, as the deducer's step would make them
        taken = "easy"
        changes = None
        while fin:
            i = fin[0]
            if dlo[i] == num[i]:
                changes = [(k, lo[k], lo[k]) for k in inc[i] if hi[k] > lo[k]] or None
                if changes:
                    break
            heappop(fin)
            fin_f[i] = 0
        while changes is None and blk:
            c = blk[0]
            h, v = crossings[c]
            if lo[h] and hi[v] and not lo[v]:
                changes = [(v, 0, 0)]
            elif lo[v] and hi[h] and not lo[h]:
                changes = [(h, 0, 0)]
            else:
                heappop(blk)
                blk_f[c] = 0
        while changes is None and fil:
            i = fil[0]
            need = num[i] - dlo[i]
            if need > 0:
                total = 0
                for k in inc[i]:
                    r = hi[k] - lo[k]
                    if r > 0:
                        total += r if r < need else need
                if total == need:
                    changes = [(k, lo[k] + (hi[k] - lo[k] if hi[k] - lo[k] < need else need), hi[k])
                               for k in inc[i] if hi[k] > lo[k]]
                    break
            heappop(fil)
            fil_f[i] = 0
        while changes is None and one:
            i = one[0]
            if dlo[i] < num[i]:
                usable = [k for k in inc[i] if hi[k] > 0]
                if num[i] > (len(usable) - 1) * most:
                    changes = [(k, 1, hi[k]) for k in usable if not lo[k]] or None
                    if changes:
                        break
            heappop(one)
            one_f[i] = 0
        while changes is None and alo:
            i = alo[0]
            if dlo[i] < num[i]:
                avail = sum(hi[k] for k in inc[i]) - num[i]
                changes = [(k, 1, hi[k]) for k in inc[i] if not lo[k] and hi[k] > avail and hi[k]] or None
                if changes:
                    taken = "medium"
                    break
            heappop(alo)
            alo_f[i] = 0
        if changes is None:
            break
        levels.append(taken)
        for k, new_lo, new_hi in changes:
            was_open = lo[k] != hi[k]
            a, b = ends[k]
            if new_lo > lo[k]:
                dlo[a] += new_lo - lo[k]
                dlo[b] += new_lo - lo[k]
                lo[k] = new_lo
            if new_hi < hi[k]:
                hi[k] = new_hi
            open_links -= was_open and lo[k] >= hi[k]
            # the ends wake where a rule may fire now (each rule reads only its island's links, so
            # what it needs that no change gives it stays so: a finished island, one that misses
            # bridges, a crossing with a built link)
            for e in (a, b):
                if dlo[e] == num[e]:
                    if not fin_f[e]:
                        fin_f[e] = 1
                        heappush(fin, e)
                elif dlo[e] < num[e]:
                    for heap, flag in woken:
                        if not flag[e]:
                            flag[e] = 1
                            heappush(heap, e)
            if lo[k]:
                for c in cross_of[k]:
                    if not blk_f[c]:
                        blk_f[c] = 1
                        heappush(blk, c)
    return levels
