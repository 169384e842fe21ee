"""The SAT engine's first model of a large board, found by a sweep instead of one global solve.

One CaDiCaL solver takes the clauses of the unary encoding (:class:`~.sat.Encoding`, grouped by
island in row-major order) a band of islands at a time.  After each band it is solved with every
link whose two ends lie more than ``LOOK`` bands behind held at its count from the last model, as
assumptions: the solver's work stays near the front, where the clauses are new.  When the held
counts leave no model, the links of the failed assumptions (and those near them) are released and
the band is tried again; after ``TRIES`` such tries it is solved with nothing held.

Sound by construction: every clause added is a clause of the whole formula, assumptions only narrow
it, and once the last band is in, the solver holds the whole formula, so the last model is a model
of it.  "Infeasible" is said only when a solve *without* assumptions fails: a part of the formula
that has no model proves the whole has none.
"""

from __future__ import annotations

from .base import Status

#: islands per band (row-major order)
BAND = 1500
#: bands behind the newest one whose links stay free
LOOK = 1
#: tries of a band (each releasing the links the solver failed on) before one with nothing held
TRIES = 8
#: how far (in possible links) around a failed link the links are released too
RELEASE_RADIUS = 2


def sweep(enc, sat, link_of: list[int], stats: dict, band: int | None = None, look: int | None = None,
          tries: int | None = None) -> tuple[Status, list[int] | None]:
    """Solve ``enc``'s formula on ``sat`` (a solver holding none of it yet) band by band:
    ``(SOLVED, counts)`` with every clause added, or ``(INFEASIBLE, None)``."""
    band = BAND if band is None else band
    look = LOOK if look is None else look
    tries = TRIES if tries is None else tries
    puzzle = enc.puzzle
    links, incident, capacities = puzzle.links, puzzle.incident, enc.capacities
    n = len(puzzle.islands)
    starts, clauses = enc.starts, enc.clauses
    nbands = max(1, -(-n // band))
    # the links that become held after band t: those whose later end is in band t - look - 1
    settle: list[list[int]] = [[] for _ in range(nbands)]
    for k, (_a, b, _h) in enumerate(links):
        if capacities[k]:
            settle[b // band].append(k)
    counts = [0] * len(links)
    held: list[int] = []  # links held, in the order they were settled
    live: set[int] = set()  # links with clauses, not held
    is_held = [False] * len(links)
    add = sat.add_clause
    for t in range(nbands):
        first, last = t * band, min(n, (t + 1) * band)
        for clause in clauses[starts[first]:starts[last]]:
            add(clause)
        live.update(k for i in range(first, last) for k in incident[i] if links[k].a == i and capacities[k])
        if t - look - 1 >= 0:
            for k in settle[t - look - 1]:
                is_held[k] = True
                held.append(k)
                live.discard(k)
        released: set[int] = set()
        for attempt in range(tries + 1):
            if attempt == tries:
                released = None  # nothing held
                assume = []
            else:
                assume = [lit for k in held if k not in released for lit in enc.hold(k, counts[k])]
            stats["sweep_solves"] = stats.get("sweep_solves", 0) + 1
            if sat.solve(assume):
                break
            if not assume:
                return Status.INFEASIBLE, None
            core = sat.get_core()
            if not core:
                return Status.INFEASIBLE, None
            stats["sweep_releases"] = stats.get("sweep_releases", 0) + 1
            ends = set()
            for lit in core:
                k = link_of[abs(lit)]
                ends.add(links[k].a)
                ends.add(links[k].b)
            for _ in range(RELEASE_RADIUS):
                ends |= {o for i in ends for k in incident[i] for o in (links[k].a, links[k].b)}
            released |= {k for i in ends for k in incident[i] if is_held[k]}
        model = sat.get_model()
        count = enc.count
        for k in live:
            counts[k] = count(model, k)
        for k in held if released is None else released:
            counts[k] = count(model, k)
    stats["sweep_bands"] = nbands
    return Status.SOLVED, counts
