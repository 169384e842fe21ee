"""Where the easy and medium rules end, worked out island by island without taking steps.

The rules of :mod:`.easy` and :mod:`.medium` (``no-loop`` aside) read one island's links, or
one crossing, and only ever narrow intervals, and each fires again, to the same effect, on any
narrower state that still holds a solution (the room ``fill`` reads is the exact one: see
:mod:`.easy`).  So on a puzzle with a solution inside the state, every order of their steps ends
in the same state: the one a :class:`~hashikit.logic.engine.Deducer` run stuck at that level ends
in.  :func:`close` reaches it with a worklist of islands, a few times cheaper than the engine's
steps (no steps, no sentences, no waking table): what the generator needs when it asks only
whether a level finishes a puzzle, or where it gets stuck.  tests/test_logic.py compares it with
the engine's runs.
"""

from __future__ import annotations

from .state import LEVEL_RANK, State

#: the levels :func:`close` knows, and the rank of the medium one
CLOSED_LEVELS = ("easy", "medium")
_MEDIUM = LEVEL_RANK["medium"]


def close(st: State, level: str) -> bool:
    """Narrow ``st`` by the rules up to ``level`` (easy or medium) until none applies; True when
    every link is then decided.  For a puzzle without the no-loops rule (whose medium rule reads
    groups), on a state that holds a solution (the end state is then the engine's)."""
    if level not in CLOSED_LEVELS or st.puzzle.no_loops:
        raise ValueError(f"close() works out easy and medium in puzzles with loops, not {level!r}")
    geo = st.geo
    lo, hi = st.lo, st.hi
    num, inc, ends, partners = geo.num, geo.inc, geo.ends, geo.partners
    dlo = [0] * geo.n
    for k, (a, b) in enumerate(ends):
        c = lo[k]
        if c:
            dlo[a] += c
            dlo[b] += c
    todo = list(range(geo.n - 1, -1, -1))
    waiting = bytearray(b"\x01") * geo.n
    for k in range(geo.nlinks):
        if lo[k]:
            _block(k, lo, hi, ends, partners, todo, waiting)
    island = _island_rules(st, level, dlo, todo, waiting)
    while todo:
        i = todo.pop()
        waiting[i] = 0
        island(i)
    return lo == hi


def _block(k: int, lo: list[int], hi: list[int], ends, partners, todo: list[int], waiting: bytearray) -> None:
    """``blocked``: link ``k`` carries a bridge, so the links crossing it carry none."""
    for j in partners[k]:
        if hi[j] and not lo[j]:
            hi[j] = 0
            for e in ends[j]:
                if not waiting[e]:
                    waiting[e] = 1
                    todo.append(e)


def _island_rules(st: State, level: str, dlo: list[int], todo: list[int], waiting: bytearray):
    """The function that applies every island rule up to ``level`` at one island (``finished``,
    ``fill``, ``one-each``, and at medium ``at-least-one``), putting back on ``todo`` the ends of
    every link it narrows (the island itself among them)."""
    geo = st.geo
    lo, hi = st.lo, st.hi
    num, inc, ends, partners = geo.num, geo.inc, geo.ends, geo.partners
    most = st.puzzle.maxbridges
    medium = LEVEL_RANK[level] >= _MEDIUM

    def wake(k: int) -> None:
        for e in ends[k]:
            if not waiting[e]:
                waiting[e] = 1
                todo.append(e)

    def raise_to(k: int, new: int) -> None:
        old = lo[k]
        lo[k] = new
        a, b = ends[k]
        dlo[a] += new - old
        dlo[b] += new - old
        wake(k)
        if not old:
            _block(k, lo, hi, ends, partners, todo, waiting)

    def island(i: int) -> None:
        links = inc[i]
        need = num[i] - dlo[i]
        if need < 0:
            return  # overfilled: no solution inside the state, which the caller promises away
        if not need:  # finished: its open links take nothing more
            for k in links:
                if hi[k] > lo[k]:
                    hi[k] = lo[k]
                    wake(k)
            return
        total = 0
        for k in links:
            r = hi[k] - lo[k]
            if r > 0:
                total += r if r < need else need
        if total == need:  # fill: exactly as many missing as its links have room for
            for k in links:
                r = hi[k] - lo[k]
                if r > 0:
                    raise_to(k, lo[k] + (r if r < need else need))
            return
        usable = [k for k in links if hi[k] > 0]
        if num[i] > (len(usable) - 1) * most:  # one-each: a bridge in every usable direction
            for k in usable:
                if not lo[k]:
                    raise_to(k, 1)
        if medium:  # at-least-one: a link without which the others cannot carry the number
            avail = sum(hi[k] for k in links)
            for k in links:
                if not lo[k] and hi[k] and avail - hi[k] < num[i]:
                    raise_to(k, 1)

    return island
