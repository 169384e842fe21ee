"""A model of the formula without connectivity, built instead of searched: bridge counts that meet
every island's number, every link's capacity, the crossing rule and the implied rule (two islands with
the same number c not joined by c bridges), found by augmenting walks as in a b-matching.

Start from no bridges.  An island off its number (a *defect*) is mended by a shortest *alternating
walk* from it (a bridge added on its first link, one taken off the next, and so on), ending where the
last change meets another defect of the matching sign; each island inside the walk keeps its count.
A walk is searched breadth-first over states (link, end entered, sign of the change) within
``WALK_STATES`` states, and applied only when its net change per link keeps capacities and crossings.
A bridge is added on an empty link only when no link crossing it carries one.  Islands are taken in
the board's row order, so that the defects ahead are near.  Those with no walk are then tried with
*kicks*: a walk may add a bridge on a link that a carrying link crosses, which loses its bridges
(their ends become defects); a link raised by a kick is not dropped by another for ``TABU`` moves;
``ROUNDS`` passes over the islands still off.

:func:`mend` then tries the defects left by small SAT solves around them, the rest of the board held.
An experiment (``benchmarks/first_construct.py``), measured in ``benchmarks/results/scale_first.md``.
"""

from __future__ import annotations

#: a walk from a defect is searched through at most this many states
WALK_STATES = 1500
#: what the last :func:`construct` and :func:`mend` did (for the experiment's printout)
STATS: dict = {}
#: moves during which a link raised by a kick is not dropped by another
TABU = 10
#: passes of kicks over the islands still off
ROUNDS = 3
#: kick at once, during the row-order pass (True), instead of after it
EAGER = False
#: refuse, while searching, a step that takes a link out of its range given the walk so far
CAREFUL = False
#: passes of kicks without the tabu over what is left, and the states each walk there may search
RESIDUE = 0
RESIDUE_STATES = 50000
#: mend along chains from one defect to all the others (True), or from each to its nearest
STAR = True
#: the first passes raise only links crossed by at most this many links, then any
SWEEPS = (10 ** 9,)


def effective_capacities(puzzle, capacities: list[int], implied: bool) -> list[int]:
    """Each link's capacity, less one where the implied rule forbids its top count (both ends
    numbered c and c bridges would join them: then c is the capacity)."""
    caps = list(capacities)
    isl = puzzle.islands
    if implied and len(isl) > 2:
        for k, (a, b, _h) in enumerate(puzzle.links):
            c = isl[a].number
            if c == isl[b].number and c <= caps[k]:
                caps[k] = c - 1
    return caps


def construct(puzzle, capacities: list[int], implied: bool = True, states: int = WALK_STATES,
              kicks: int | None = None, seed: int = 0):
    """``(counts, short)``: bridge counts per link meeting capacities, crossings and the implied
    rule, and the islands whose count still differs from their number (empty: ``counts`` meet every
    number)."""
    import random

    rng = random.Random(seed)
    caps = effective_capacities(puzzle, capacities, implied)
    links = puzzle.links
    la = [ln[0] for ln in links]
    lb = [ln[1] for ln in links]
    partners = puzzle.crossing_partners
    incident = [sorted(inc, key=lambda k: len(partners[k])) for inc in puzzle.incident]
    n = len(puzzle.islands)
    lack = [isl.number for isl in puzzle.islands]  # number less bridges: > 0 short, < 0 over
    cnt = [0] * len(links)
    blocked = [0] * len(links)  # links crossing this one that carry a bridge
    top = 4 * len(links)  # a state: 4 * link + 2 * (entered at its second end) + (1: a bridge added)
    seen = [0] * (top + 2)  # stamp per state; top + parity: the start
    prev = [0] * (top + 2)  # the state a state was reached from
    stamp = 0
    if kicks is None:
        kicks = 4 * n

    tabu = [0] * len(links)
    clock = [0]

    def _free(k):
        t = clock[0]
        for p in partners[k]:
            if cnt[p] and tabu[p] > t:
                return False
        return True

    def room(st: int, k: int, d: int) -> bool:
        """Whether the walk to state ``st`` can change link ``k`` by ``d`` more."""
        c = cnt[k] + d
        while st < top:
            if st >> 2 == k:
                c += 1 if st & 1 else -1
            st = prev[st]
        return 0 <= c <= caps[k]

    def walk(s: int, kick: bool, careful: bool = CAREFUL, limit: int = 0):
        """A shortest valid walk mending ``s`` (:func:`check`'s answer), or None within ``states``."""
        nonlocal stamp
        stamp += 1
        start = top + (lack[s] < 0)
        seen[start] = stamp
        queue = [start]
        head = 0
        limit = limit or states
        while head < len(queue) and head < limit:
            st = queue[head]
            head += 1
            if st >= top:
                u = s
            else:
                k = st >> 2
                u = lb[k] if st & 2 else la[k]
            inc = incident[u]
            if kick and len(inc) > 1:
                o = (stamp + head) % len(inc)
                inc = inc[o:] + inc[:o]
            if st & 1:  # reached by an added bridge: take one off a link
                for k in inc:
                    if cnt[k]:
                        w = la[k] + lb[k] - u
                        nxt = 4 * k + (2 if w == lb[k] else 0)
                        if seen[nxt] != stamp and (not careful or room(st, k, -1)):
                            seen[nxt] = stamp
                            prev[nxt] = st
                            if lack[w] < -(w == s):
                                found = check(nxt, start)
                                if found is not None:
                                    return found
                            queue.append(nxt)
            else:  # add a bridge on a link
                for k in inc:
                    c = cnt[k]
                    if c < caps[k] and (c or (not blocked[k] or kick and _free(k)) and npart[k] <= reach[0]):
                        w = la[k] + lb[k] - u
                        nxt = 4 * k + (3 if w == lb[k] else 1)
                        if seen[nxt] != stamp and (not careful or room(st, k, 1)):
                            seen[nxt] = stamp
                            prev[nxt] = st
                            if lack[w] > (w == s):
                                found = check(nxt, start)
                                if found is not None:
                                    return found
                            queue.append(nxt)
        return None

    def check(end: int, start: int):
        """The walk to ``end`` as ``(end, delta, drop)``: its change per link and the links
        crossing a link it raises from none that must lose their bridges; None when not valid."""
        delta: dict[int, int] = {}
        st = end
        while st != start:
            k = st >> 2
            delta[k] = delta.get(k, 0) + (1 if st & 1 else -1)
            st = prev[st]
        drop = set()
        for k, d in delta.items():
            c = cnt[k] + d
            if c < 0 or c > caps[k]:
                STATS["rejected"] = STATS.get("rejected", 0) + 1
                return None
            if c and not cnt[k]:
                for p in partners[k]:
                    if p in delta:
                        if cnt[p] + delta[p]:
                            STATS["rejected_x"] = STATS.get("rejected_x", 0) + 1
                            return None
                    elif cnt[p]:
                        drop.add(p)
        return end, delta, drop

    def apply(s: int, end: int, delta, drop) -> list[int]:
        """Apply a walk from ``s`` (:func:`check`'s answer): the islands whose count the drops put off."""
        off = []
        clock[0] += 1
        if drop:
            for k, d in delta.items():
                if d > 0 and not cnt[k]:
                    tabu[k] = clock[0] + TABU
        for p in drop:
            c = cnt[p]
            cnt[p] = 0
            for q in partners[p]:
                blocked[q] -= 1
            lack[la[p]] += c
            lack[lb[p]] += c
            off.append(la[p])
            off.append(lb[p])
        for k, d in delta.items():
            old = cnt[k]
            new = old + d
            cnt[k] = new
            lack[la[k]] -= d
            lack[lb[k]] -= d
            if bool(old) != bool(new):
                step = 1 if new else -1
                for p in partners[k]:
                    blocked[p] += step
        return off

    npart = [len(p) for p in partners]
    reach = [0]
    for reach[0] in SWEEPS[:-1]:
        for s in range(n):
            while lack[s]:
                found = walk(s, False)
                if found is None:
                    break
                apply(s, *found)
    reach[0] = SWEEPS[-1]
    stuck = []
    budget = kicks
    for i in range(n):
        here = [i]
        while here:
            s = here.pop()
            while lack[s]:
                found = walk(s, False)
                if found is None and EAGER and budget > 0:
                    budget -= 1
                    found = walk(s, True)
                if found is None:
                    stuck.append(s)
                    break
                here.extend(apply(s, *found))
    STATS["eager"] = kicks - budget
    todo = stuck
    failed = []
    rounds = 0
    STATS["stuck"] = len(stuck)
    STATS["kicks"] = kicks
    while (todo or failed) and kicks > 0:
        if not todo:
            todo, failed = failed, []
            rounds += 1
            if rounds > ROUNDS:
                break
        s = todo.pop(rng.randrange(len(todo))) if len(todo) > 1 else todo.pop()
        if not lack[s]:
            continue
        found = walk(s, False)
        if found is None:
            found = walk(s, True)
            kicks -= 1
        if found is None:
            failed.append(s)
            continue
        off = apply(s, *found)
        todo.extend(off)
        if lack[s]:
            todo.append(s)
    STATS["residue0"] = sum(1 for i in range(n) if lack[i])
    clock[0] += 10 ** 9
    for rep in range(RESIDUE):
        left = [i for i in range(n) if lack[i]]
        if not left:
            break
        for s in left:
            if lack[s]:
                found = walk(s, True, True, RESIDUE_STATES)
                if found is not None:
                    apply(s, *found)
    short = [i for i in range(n) if lack[i]]
    STATS["kicks"] -= kicks
    STATS["rounds"] = rounds
    return cnt, short


def mend(puzzle, capacities, counts: list[int], short: list[int], radius: int = 2, tries: int = 5,
         most: float = 0.5) -> bool:
    """Mend the islands in ``short`` (their count off their number) by small SAT solves, every other
    link held (:func:`region.build`): the links near the shortest chain of possible links joining
    each one to its nearest other (a part's counts change by an even total, so defects are mended
    in pairs), the radius widened while a part has no model; True when ``counts`` now meet every
    number (changed in place)."""
    from .cadical import CADICAL, open_solver
    from . import region

    links, incident = puzzle.links, puzzle.incident
    limit = len(puzzle.islands) * most
    left = set(short)
    for _ in range(tries):
        if not left:
            return True
        seeds = set(left)
        odd = {i for i in left if _lack(puzzle, counts, i) % 2}
        if STAR and odd:
            seeds |= _star(puzzle, min(odd), odd)
        else:
            for s in sorted(odd):
                seeds |= _chain(puzzle, s, odd)
        free = _ring(puzzle, seeds, radius)
        STATS.setdefault("mend", []).append((len(left), len(seeds), len(free)))
        if len(free) > limit:
            return False
        open_links = {k for i in free for k in incident[i]}
        part = region.build(puzzle, capacities, counts, open_links)
        if part is None:
            STATS["mend"].append("none")
            return False
        failed = set()
        if part.clauses is None:
            STATS["mend"].append("clauses none")
            failed = left
        else:
            for piece in region.split(part):
                ends = {e for k in piece.links for e in links[k][:2]}
                mine = ends & left
                if not mine:
                    continue
                with open_solver(CADICAL, piece.clauses, {}) as small:
                    base, caps = piece.base, piece.capacities
                    small.set_phases([b + j if j <= counts[k] else -(b + j)
                                      for k in piece.links for b in (base[k],) for j in range(1, caps[k] + 1)])
                    if not small.solve():
                        STATS["mend"].append(("fail", len(piece.links), [(i, _lack(puzzle, counts, i)) for i in mine]))
                        failed |= mine
                        continue
                    for k, c in piece.counts(small.get_model()).items():
                        counts[k] = c
        left = failed
        radius += 1 + radius // 2
    return not left


def _lack(puzzle, counts, i: int) -> int:
    return puzzle.islands[i].number - sum(counts[k] for k in puzzle.incident[i])


def _star(puzzle, s: int, targets: set[int]) -> set[int]:
    """The islands on shortest chains of possible links from ``s`` to every island of ``targets``."""
    links, incident = puzzle.links, puzzle.incident
    prev = {s: -1}
    queue = [s]
    for u in queue:
        for k in incident[u]:
            a, b, _h = links[k]
            w = a + b - u
            if w not in prev:
                prev[w] = u
                queue.append(w)
    out = set()
    for t in targets:
        while t >= 0 and t not in out:
            out.add(t)
            t = prev.get(t, -1)
    return out


def _chain(puzzle, s: int, targets: set[int]) -> set[int]:
    """The islands on a shortest chain of possible links from ``s`` to another island of
    ``targets`` (just ``s`` when there is none)."""
    links, incident = puzzle.links, puzzle.incident
    prev = {s: -1}
    queue = [s]
    for u in queue:
        if u != s and u in targets:
            out = set()
            while u >= 0:
                out.add(u)
                u = prev[u]
            return out
        for k in incident[u]:
            a, b, _h = links[k]
            w = a + b - u
            if w not in prev:
                prev[w] = u
                queue.append(w)
    return {s}


def _ring(puzzle, seeds, radius: int) -> set[int]:
    """The islands at most ``radius`` possible links from ``seeds``."""
    links, incident = puzzle.links, puzzle.incident
    seen = set(seeds)
    frontier = list(seen)
    for _ in range(radius):
        nxt = []
        for i in frontier:
            for k in incident[i]:
                a, b, _h = links[k]
                other = b if a == i else a
                if other not in seen:
                    seen.add(other)
                    nxt.append(other)
        frontier = nxt
    return seen
