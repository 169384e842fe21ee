"""Deduction rules, grouped in levels, and the engine that applies them.

Levels (modelled on the solver stages of Simon Tatham's *Bridges*):

easy
    ``finished`` an island that has all its bridges takes no more;
    ``blocked`` a link crossed by a built bridge cannot be used;
    ``fill`` an island whose remaining need equals what its links can still take
    fills them all; ``at-least`` an island that cannot reach its number without
    a link must use it; ``room`` a link carries no more than either end can
    still take (MAXBRIDGES is already in the starting capacities).
medium
    ``isolation`` a count on a link that would complete both sides and leave
    them cut off is impossible (1-1, 2=2, and the same for built groups);
    ``single-exit`` a built group with only one way out must use it.
hard
    ``group-need`` a built group's remaining need against what can leave it;
    ``cut-link`` a link every route between two parts of the board runs over;
    ``lookahead`` not building (or filling) a link would force its ends to
    finish in a way that closes a group off.
expert
    ``contradiction`` assume a bound on one link, propagate with the lower
    levels, and exclude it when that leads to a contradiction (depth 1).

Every rule is sound for any puzzle that has a solution: a step never removes a
count that some solution uses.  No rule assumes the solution is unique.
"""

from __future__ import annotations

import heapq
from typing import Callable, Iterator

from ..model import Puzzle
from .state import (LEVEL_RANK, LEVELS, State, Step, apply, bridges, components, contradiction, number_groups,
                    group_words, word)

Rule = Callable[[State], Iterator[Step]]


# ----------------------------------------------------------------------------- easy
def _degrees(st: State) -> list[int]:
    lo = st.lo
    return [sum(lo[k] for k in inc) for inc in st.geo.inc]


def _finished_at(st: State, i: int) -> Step | None:
    geo, lo, hi = st.geo, st.lo, st.hi
    if st.degree_lo(i) != geo.num[i]:
        return None
    open_links = [k for k in geo.inc[i] if hi[k] > lo[k]]
    if not open_links:
        return None
    num = geo.num[i]
    others = " or ".join(st.island_name(st.puzzle.other_end(k, i)) for k in open_links)
    has = "its bridge" if num == 1 else f"all {word(num)} of its bridges"
    return Step("finished", "easy", (i,), tuple(open_links), tuple((k, lo[k], lo[k]) for k in open_links),
                f"{_cap(st.island_name(i))} already has {has}, so no more bridges can go to {others}.")


def _each(st: State, at, count: int) -> Iterator[Step]:
    """The steps of a rule that looks at one island (or link) at a time: ``at(st, index)``."""
    for index in range(count):
        step = at(st, index)
        if step is not None:
            yield step


def rule_finished(st: State) -> Iterator[Step]:
    return _each(st, _finished_at, st.geo.n)


def _blocked_at(st: State, h: int, v: int) -> Step | None:
    """The step of the crossing pair ``(h, v)`` (at most one: both cannot be built)."""
    lo, hi = st.lo, st.hi
    for built, other in ((h, v), (v, h)):
        if lo[built] >= 1 and hi[other] > 0 and lo[other] == 0:
            a, b = st.geo.ends[other]
            return Step("blocked", "easy", (a, b), (other, built), ((other, 0, 0),),
                        f"A bridge between {st.link_name(other)} would cross {st.bridge_name(built)}, "
                        f"so they cannot be joined.")
    return None


def rule_blocked(st: State) -> Iterator[Step]:
    for h, v in st.geo.crossings:
        step = _blocked_at(st, h, v)
        if step is not None:
            yield step


def _fill_at(st: State, i: int) -> Step | None:
    geo, lo, hi = st.geo, st.lo, st.hi
    need = geo.num[i] - st.degree_lo(i)
    if need <= 0:
        return None
    open_links = [k for k in geo.inc[i] if hi[k] > lo[k]]
    if not open_links:
        return None
    room = sum(hi[k] - lo[k] for k in open_links)
    if need != room:
        return None
    changes = tuple((k, hi[k], hi[k]) for k in open_links)
    reachable = [k for k in geo.inc[i] if hi[k] > 0]
    name = _cap(st.island_name(i))
    if all(lo[k] == 0 for k in reachable) and len({hi[k] for k in reachable}) == 1:
        n = len(reachable)
        what = "neighbour" if n == 1 else "neighbours"
        each = "it" if n == 1 else "each"
        sentence = (f"{name} has only {word(n)} {what} it can still reach, "
                    f"so it needs {bridges(hi[reachable[0]])} to {each}.")
    else:
        parts = [f"{bridges(hi[k])} to {st.island_name(st.puzzle.other_end(k, i))}" for k in open_links]
        sentence = (f"{name} still needs {bridges(need)}, exactly as many as its links can still take, "
                    f"so it needs {_join(parts)}.")
    return Step("fill", "easy", (i,), tuple(open_links), changes, sentence)


def rule_fill(st: State) -> Iterator[Step]:
    return _each(st, _fill_at, st.geo.n)


def _at_least_at(st: State, i: int) -> Step | None:
    geo, lo, hi = st.geo, st.lo, st.hi
    num = geo.num[i]
    total_hi = st.degree_hi(i)
    changes, parts = [], []
    for k in geo.inc[i]:
        others = total_hi - hi[k]
        new_lo = num - others
        if new_lo > lo[k] and new_lo <= hi[k]:
            changes.append((k, new_lo, hi[k]))
            parts.append((k, others, new_lo))
    if not changes:
        return None
    name = _cap(st.island_name(i))
    clauses = []
    for k, others, new_lo in parts:
        other = st.island_name(st.puzzle.other_end(k, i))
        if others == 0:
            clauses.append(f"{name} can reach no other neighbour than {other}, "
                           f"so it needs {bridges(new_lo)} to it")
        else:
            clauses.append(f"{name} can get at most {bridges(others)} from its other neighbours, "
                           f"so it needs at least {bridges(new_lo)} to {other}")
    return Step("at-least", "easy", (i,), tuple(c[0] for c in changes), tuple(changes),
                "; ".join(clauses) + ".")


def rule_at_least(st: State) -> Iterator[Step]:
    return _each(st, _at_least_at, st.geo.n)


def _room_at(st: State, k: int) -> Step | None:
    geo, lo, hi = st.geo, st.lo, st.hi
    if hi[k] <= lo[k]:
        return None
    a, b = geo.ends[k]
    for i in (a, b):
        elsewhere = st.degree_lo(i) - lo[k]
        room = geo.num[i] - elsewhere
        if lo[k] <= room < hi[k]:
            other = st.island_name(b if i == a else a)
            return Step("room", "easy", (i,), (k,), ((k, lo[k], room),),
                        f"{_cap(st.island_name(i))} already has {bridges(elsewhere)} elsewhere, "
                        f"so at most {bridges(room)} can go to {other}.")
    return None


def rule_room(st: State) -> Iterator[Step]:
    return _each(st, _room_at, st.geo.nlinks)


# ----------------------------------------------------------------------------- medium
def _deficits(st: State, members: list[list[int]], dlo: list[int] | None = None) -> list[int]:
    num = st.geo.num
    if dlo is None:
        dlo = _degrees(st)
    return [sum(num[i] - dlo[i] for i in group) for group in members]


def rule_isolation(st: State, groups=None) -> Iterator[Step]:
    """``groups``: ``(components(st), island degrees)`` when the caller has them."""
    geo, lo, hi = st.geo, st.lo, st.hi
    if geo.n < 3:
        return
    (comp, members), dlo = groups if groups is not None else (components(st), None)
    deficit = _deficits(st, members, dlo)
    for k, (a, b) in enumerate(geo.ends):
        if hi[k] <= lo[k]:
            continue
        ca, cb = comp[a], comp[b]
        if ca != cb:
            size, total = len(members[ca]) + len(members[cb]), deficit[ca] + deficit[cb]
        else:
            size, total = len(members[ca]), deficit[ca]
        add = hi[k] - lo[k]
        if size >= geo.n or total != 2 * add:
            continue
        if size == 2:
            what = "complete both of them and leave the pair cut off from the other islands"
        else:
            what = f"complete a group of {size} islands and leave it cut off from the other islands"
        if ca == cb and lo[k] > 0:
            how = f"{bridges(hi[k])} between {st.link_name(k)} would {what}"
        elif ca == cb:
            how = f"joining {st.link_name(k)} would {what}"
        else:
            how = (f"{'joining' if hi[k] == 1 else bridges(hi[k]) + ' between'} {st.link_name(k)} "
                   f"would {what}")
        if hi[k] - 1 == 0:
            end = "so there is no bridge between them"
        else:
            end = f"so they share at most {bridges(hi[k] - 1)}"
        yield Step("isolation", "medium", (a, b), (k,), ((k, lo[k], hi[k] - 1),), f"{_cap(how)}, {end}.")


def _exits(st: State, comp: list[int], ngroups: int) -> list[list[int]]:
    exits: list[list[int]] = [[] for _ in range(ngroups)]
    for k, (a, b) in enumerate(st.geo.ends):
        if st.hi[k] >= 1 and comp[a] != comp[b]:
            exits[comp[a]].append(k)
            exits[comp[b]].append(k)
    return exits


def rule_single_exit(st: State, groups=None) -> Iterator[Step]:
    geo = st.geo
    comp, members = groups[0] if groups is not None else components(st)
    if len(members) < 2:
        return
    exits = _exits(st, comp, len(members))
    for c, group in enumerate(members):
        if len(group) < 2 or len(exits[c]) != 1:
            continue
        k = exits[c][0]
        if st.lo[k] >= 1:
            continue
        a, b = geo.ends[k]
        yield Step("single-exit", "medium", tuple(group), (k,), ((k, 1, st.hi[k]),),
                   f"The group of {len(group)} islands joined to {st.island_name(group[0])} must reach "
                   f"the other islands, and its only way out left is between {st.link_name(k)}, "
                   f"so there must be a bridge there.")


# ----------------------------------------------------------------------------- hard
def rule_group_need(st: State, groups=None) -> Iterator[Step]:
    geo, lo, hi = st.geo, st.lo, st.hi
    (comp, members), dlo = groups if groups is not None else (components(st), None)
    deficit = _deficits(st, members, dlo)
    internal = [0] * len(members)
    for k, (a, b) in enumerate(geo.ends):
        if comp[a] == comp[b] and hi[k] > lo[k]:
            internal[comp[a]] += hi[k] - lo[k]
    exits = _exits(st, comp, len(members))
    for c, group in enumerate(members):
        if len(group) < 2 or deficit[c] <= 0:
            continue
        out_room = sum(hi[k] - lo[k] for k in exits[c])
        for k in exits[c]:
            # every bridge inside the group uses two of its missing bridges, one leaving it uses one
            others = 2 * internal[c] + out_room - (hi[k] - lo[k])
            new_lo = lo[k] + deficit[c] - others
            if lo[k] < new_lo <= hi[k]:
                yield Step("group-need", "hard", tuple(group), (k,), ((k, new_lo, hi[k]),),
                           f"The group of {len(group)} islands joined to {st.island_name(group[0])} still needs "
                           f"{bridges(deficit[c])}, and without the link between {st.link_name(k)} it can "
                           f"get at most {bridges(others)}, so that link needs at least {bridges(new_lo)}.")


def rule_cut_link(st: State) -> Iterator[Step]:
    """Links that are bridges (cut edges) of the graph of links still possible."""
    geo, lo, hi = st.geo, st.lo, st.hi
    n = geo.n
    if n < 2:
        return
    adj: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for k, (a, b) in enumerate(geo.ends):
        if hi[k] >= 1:
            adj[a].append((b, k))
            adj[b].append((a, k))
    order = [-1] * n
    low = [0] * n
    size = [1] * n
    counter = 0
    cuts: list[tuple[int, int]] = []  # (link, child island whose subtree is cut off)
    for root in range(n):
        if order[root] != -1:
            continue
        if root != 0:
            return  # already disconnected: that is a contradiction, not a deduction
        order[root] = low[root] = counter
        counter += 1
        stack = [(root, -1, iter(adj[root]))]
        while stack:
            v, via, it = stack[-1]
            advanced = False
            for w, k in it:
                if k == via:
                    continue
                if order[w] == -1:
                    order[w] = low[w] = counter
                    counter += 1
                    stack.append((w, k, iter(adj[w])))
                    advanced = True
                    break
                low[v] = min(low[v], order[w])
            if advanced:
                continue
            stack.pop()
            if stack:
                p = stack[-1][0]
                low[p] = min(low[p], low[v])
                size[p] += size[v]
                if low[v] > order[p]:
                    cuts.append((via, v))
    for k, child in cuts:
        if lo[k] >= 1:
            continue
        a, b = geo.ends[k]
        part = size[child]
        rest = n - part
        yield Step("cut-link", "hard", (a, b), (k,), ((k, 1, hi[k]),),
                   f"Every route between {word(min(part, rest)) if min(part, rest) < 9 else min(part, rest)} "
                   f"island{'s' if min(part, rest) != 1 else ''} on one side and the other "
                   f"{max(part, rest)} runs between {st.link_name(k)}, so there must be a bridge there.")


def _local_force(st: State, islands, undo: list) -> None:
    """Fill or close the links of ``islands`` where their numbers force it (one round)."""
    geo, lo, hi = st.geo, st.lo, st.hi
    for i in islands:
        need = geo.num[i] - st.degree_lo(i)
        room = sum(hi[k] - lo[k] for k in geo.inc[i])
        if need == 0:
            for k in geo.inc[i]:
                if hi[k] != lo[k]:
                    undo.append((k, lo[k], hi[k]))
                    hi[k] = lo[k]
        elif need == room:
            for k in geo.inc[i]:
                if hi[k] != lo[k]:
                    undo.append((k, lo[k], hi[k]))
                    lo[k] = hi[k]


def _closed_group(st: State, start: int) -> list[int] | None:
    """The certain group containing ``start`` if it is complete and not every island."""
    geo, lo = st.geo, st.lo
    seen = {start}
    stack = [start]
    while stack:
        x = stack.pop()
        if st.degree_lo(x) != geo.num[x]:
            return None
        for k in geo.inc[x]:
            if lo[k] >= 1:
                y = geo.ends[k][0] if geo.ends[k][1] == x else geo.ends[k][1]
                if y not in seen:
                    seen.add(y)
                    stack.append(y)
    if len(seen) >= geo.n:
        return None
    return sorted(seen)


class _Groups:
    """The certain groups of a state, to tell fast whether a trial closes one off.

    Built once per :func:`rule_lookahead` call; a trial only raises ``lo`` on the
    links in its undo list, so its group of ``x`` is the union of base groups
    joined through those links, and an island is complete in the trial exactly
    when its degree (recomputed for the ends of changed links) equals its number.
    """

    def __init__(self, st: State):
        self.comp, self.members = components(st)
        geo = st.geo
        self.incomplete = [0] * len(self.members)
        for i in range(geo.n):
            if st.degree_lo(i) != geo.num[i]:
                self.incomplete[self.comp[i]] += 1
        #: set when a trial completed every island (no closed group since it is the whole puzzle)
        self.whole = False

    @classmethod
    def of(cls, comp: list[int], members: list, incomplete: list[int]) -> "_Groups":
        """Groups given directly (group ids need not be consecutive: unused ids are never looked up)."""
        self = cls.__new__(cls)
        self.comp, self.members, self.incomplete, self.whole = comp, members, incomplete, False
        return self

    def closed(self, st: State, start: int, undo: list, trial: list | None = None) -> list[int] | None:
        """As :func:`_closed_group` on the trial state (``undo`` lists its changed links).

        ``trial``: a list the caller keeps for one trial (empty at first), where what
        depends only on ``undo`` is kept between calls.
        """
        geo = st.geo
        comp = self.comp
        if st.degree_lo(start) != geo.num[start]:
            return None
        if trial:
            new_edges, delta = trial
        else:
            new_edges, delta = self._trial(st, undo)
            if trial is not None:
                trial += [new_edges, delta]
        seen = {comp[start]}
        stack = [comp[start]]
        while stack:
            c = stack.pop()
            for d in new_edges.get(c, ()):
                if d not in seen:
                    seen.add(d)
                    stack.append(d)
        incomplete = self.incomplete
        missing = 0
        for c in seen:
            missing += incomplete[c] + delta.get(c, 0)
        if missing:
            return None
        size = sum(len(self.members[c]) for c in seen)
        if size >= geo.n:
            self.whole = True
            return None
        return sorted(i for c in seen for i in self.members[c])

    def _trial(self, st: State, undo: list) -> tuple[dict, dict]:
        """The trial's new joins between groups, and per group the change in incomplete islands."""
        geo, lo, num, inc = st.geo, st.lo, st.geo.num, st.geo.inc
        comp = self.comp
        ends = set()
        old: dict[int, int] = {}
        new_edges: dict[int, list[int]] = {}
        for j, old_lo, _old_hi in undo:
            if j not in old:
                old[j] = old_lo
            a, b = geo.ends[j]
            ends.add(a)
            ends.add(b)
            if lo[j] >= 1 and old_lo == 0 and comp[a] != comp[b]:
                new_edges.setdefault(comp[a], []).append(comp[b])
                new_edges.setdefault(comp[b], []).append(comp[a])
        delta: dict[int, int] = {}
        for x in ends:  # the islands whose degree the trial changed
            now = 0
            was = 0
            for k in inc[x]:
                now += lo[k]
                was += old.get(k, lo[k])
            change = (was == num[x]) - (now == num[x])
            if change:
                c = comp[x]
                delta[c] = delta.get(c, 0) + change
        return new_edges, delta

    @staticmethod
    def base_complete(st: State, x: int, undo: list) -> int:
        """1 when ``x`` is complete in the base state (before the trial's changes)."""
        geo, lo = st.geo, st.lo
        old = {}
        for j, old_lo, _old_hi in undo:
            if j not in old:
                old[j] = old_lo
        return int(sum(old.get(k, lo[k]) for k in geo.inc[x]) == geo.num[x])


def _lookahead_reason(st: State, k: int, full: bool, groups: _Groups | None = None) -> str | None:
    geo = st.geo
    a, b = geo.ends[k]
    undo = [(k, st.lo[k], st.hi[k])]
    if full:
        st.lo[k] = st.hi[k]
    else:
        st.hi[k] = st.lo[k]
    try:
        _local_force(st, (a, b), undo)
        touched = {a, b}
        for j, _lo, _hi in undo:
            touched.update(geo.ends[j])
        trial: list = []
        num, inc, lo, hi = geo.num, geo.inc, st.lo, st.hi
        for x in sorted(touched):
            dlo = dhi = 0
            for j in inc[x]:
                dlo += lo[j]
                dhi += hi[j]
            if dlo > num[x] or dhi < num[x]:
                return f"{st.island_name(x)} could not get exactly {bridges(geo.num[x])}"
            if dlo != num[x]:
                continue  # an incomplete island is in no closed group
            group = _closed_group(st, x) if groups is None else groups.closed(st, x, undo, trial)
            if group:
                return f"the group of {group_words(st, group)} would be complete and cut off from the other islands"
        return None
    finally:
        for j, old_lo, old_hi in reversed(undo):
            st.lo[j], st.hi[j] = old_lo, old_hi


def _hypothesis(st: State, k: int, full: bool) -> tuple[str, tuple[int, int, int], str]:
    """Trying link ``k`` at its top (``full``) or bottom count: the supposition in words, the
    interval change that follows when it fails, and that conclusion in words."""
    lo, hi = st.lo[k], st.hi[k]
    if full:
        return (f"{bridges(hi)} joined {st.link_name(k)}", (k, lo, hi - 1), f"at most {bridges(hi - 1)}")
    hyp = f"no bridge joined {st.link_name(k)}" if lo == 0 else f"only {bridges(lo)} joined {st.link_name(k)}"
    return hyp, (k, lo + 1, hi), f"at least {bridges(lo + 1)}"


def _lookahead_step(st: State, k: int, full: bool, reason: str) -> Step:
    hyp, change, concl = _hypothesis(st, k, full)
    return Step("lookahead", "hard", st.geo.ends[k], (k,), (change,),
                f"If {hyp}, both ends would be forced and {reason}; so they share {concl}.")


def rule_lookahead(st: State) -> Iterator[Step]:
    geo = st.geo
    if geo.n < 3:
        return
    groups = _Groups(st)
    for k in range(geo.nlinks):
        if st.lo[k] >= st.hi[k]:
            continue
        for full in (False, True):
            reason = _lookahead_reason(st, k, full, groups)
            if reason is not None:
                yield _lookahead_step(st, k, full, reason)
                break


# ----------------------------------------------------------------------------- expert
def rule_contradiction(st: State, depth: int = 1) -> Iterator[Step]:
    geo = st.geo
    # try links near decided ones first: they are the ones a player would look at
    order = sorted(st.undecided(), key=lambda k: -(st.degree_lo(geo.ends[k][0]) + st.degree_lo(geo.ends[k][1])))
    for k in order:
        lo, hi = st.lo[k], st.hi[k]
        if lo >= hi:
            continue
        for full in (False, True):
            trial = st.copy()
            if full:
                trial.lo[k] = hi
            else:
                trial.hi[k] = lo
            nsteps, reason = _propagate(trial, "hard")
            if reason is None:
                continue
            hyp, change, concl = _hypothesis(st, k, full)
            a, b = geo.ends[k]
            yield Step("contradiction", "expert", (a, b), (k,), (change,),
                       f"Suppose {hyp}: following the simpler rules for {nsteps} more round"
                       f"{'s' if nsteps != 1 else ''} leads to a contradiction ({reason}). "
                       f"So they share {concl}.")
            break


RULES: dict[str, tuple[Rule, ...]] = {
    "easy": (rule_finished, rule_blocked, rule_fill, rule_at_least, rule_room),
    "medium": (rule_isolation, rule_single_exit),
    "hard": (rule_group_need, rule_cut_link, rule_lookahead),
    "expert": (rule_contradiction,),
}


#: rules that accept the groups and degrees the caller already has
_GROUP_RULES = (rule_isolation, rule_single_exit, rule_group_need)


def _level_rank(max_level: str) -> int:
    if max_level not in LEVEL_RANK:
        raise ValueError(f"unknown level {max_level!r}; choose from {', '.join(LEVELS)}")
    return LEVEL_RANK[max_level]


def _quick_bad(st: State) -> str | None:
    for k in range(st.geo.nlinks):
        if st.lo[k] > st.hi[k]:
            return f"no bridge count is left between {st.link_name(k)}"
    return None


def _propagate(st: State, max_level: str) -> tuple[int, str | None]:
    """Apply every rule up to ``max_level`` in rounds until nothing changes.

    Returns ``(rounds of changes, contradiction or None)``.  Steps found in one
    round are applied together (intersecting intervals is sound: a deduction made
    on a wider state still holds on a narrower one).
    """
    top = _level_rank(max_level)
    levels = LEVELS[:top + 1]
    count = 0
    while True:
        changed = False
        for level in levels:
            for rule in RULES[level]:
                for step in list(rule(st)):
                    if apply(st, step):
                        changed = True
                bad = _quick_bad(st)
                if bad:
                    return count + 1, bad
            if changed:
                break
        if not changed:
            return count, contradiction(st)
        count += 1


class Deducer:
    """The step-by-step engine of :func:`solve_logically`, incremental for the easy rules and lookahead.

    ``next_step`` on a state rescans every island for every easy rule; the deducer
    keeps, per easy rule, a heap of the islands (crossings, links) whose rule may
    fire, and re-examines only what a step touched.  It takes the same step
    :func:`next_step` would take (the lowest level, then the first rule, then the
    lowest index), so its runs, grades and sentences are exactly the same.

    ``lookahead`` is incremental too: a link whose trials found nothing stays
    clean until something its trials read changes.  A trial on link ``a - b``
    reads the intervals of the links of ``a``, ``b`` and their neighbours, and the
    certain groups of those islands; a closed group it finds has all its
    incomplete islands among them.  So a changed interval dirties the links near
    its ends, and a changed group (a merge, an island completed) the links near
    one of its incomplete islands (near all its islands when it has none).  The
    groups are kept in a union-find (certain bridges only ever get added).

    A deducer for a slightly changed puzzle can start from the one of the
    original (``parent``, with ``island_map`` / ``link_map`` from the new islands
    and links to the old ones, -1 for new ones): what the parent found nothing
    for and nothing near it changed stays clean.  ``changed`` may list the
    islands outside which the numbers, links and intervals are the parent's
    (else they are found by comparing).
    """

    def __init__(self, state: State, parent: "Deducer | None" = None,
                 island_map: list[int] | None = None, link_map: list[int] | None = None,
                 changed: list[int] | None = None):
        self.st = st = state
        geo = st.geo
        n, nl = geo.n, geo.nlinks
        lo, hi, num, inc = st.lo, st.hi, geo.num, geo.inc
        self.cross_of = geo.cross_of()
        sizes = (n, len(geo.crossings), n, n, nl)
        crossings = geo.crossings
        self.tests = (lambda i: _finished_at(st, i), lambda c: _blocked_at(st, *crossings[c]),
                      lambda i: _fill_at(st, i), lambda i: _at_least_at(st, i), lambda k: _room_at(st, k))
        self.open = sum(1 for k in range(nl) if lo[k] != hi[k])
        self.bad = any(lo[k] > hi[k] for k in range(nl))
        #: the index of the hardest level used
        self.hardest = -1
        # certain groups: degrees, union-find, members and incomplete members per root
        self.dlo = dlo = [sum(lo[k] for k in inc[i]) for i in range(n)]
        self.uf = list(range(n))
        self.gm: list = [[i] for i in range(n)]
        #: incomplete islands per group (read at roots only)
        self.gn = [int(dlo[i] != num[i]) for i in range(n)]
        for k, (a, b) in enumerate(geo.ends):
            if lo[k] >= 1:
                self._union(a, b)
        carry = parent is not None and not parent.bad and all(not h for h in parent.heaps)
        if carry:
            self.heaps = [[] for _ in sizes]
            self.flags = [bytearray(size) for size in sizes]
            self.la_heap: list[int] = []
            self.la_flag = bytearray(nl)
            self.la_whole: set[int] = set()
            self._inherit(parent, island_map, link_map, changed)
        else:
            self.heaps = [list(range(size)) for size in sizes]  # sorted lists are heaps
            self.flags = [bytearray(b"\x01" * size) for size in sizes]
            self.la_heap = list(range(nl))
            self.la_flag = bytearray(b"\x01" * nl)
            #: clean links whose trials completed every island (see _Groups.whole)
            self.la_whole = set()

    # -- certain groups ------------------------------------------------------------
    def _find(self, x: int) -> int:
        uf = self.uf
        while uf[x] != x:
            uf[x] = uf[uf[x]]
            x = uf[x]
        return x

    def _union(self, a: int, b: int) -> None:
        ra, rb = self._find(a), self._find(b)
        if ra == rb:
            return
        gm = self.gm
        if len(gm[ra]) < len(gm[rb]):
            ra, rb = rb, ra
        self.uf[rb] = ra
        gm[ra].extend(gm[rb])
        gm[rb] = None
        self.gn[ra] += self.gn[rb]

    def _dirty_group(self, r: int) -> None:
        """Group ``r`` changed: lookahead may change near one of its incomplete islands (near
        every island when it has none; see the class notes)."""
        num, dlo, members = self.st.geo.num, self.dlo, self.gm[r]
        if self.gn[r]:
            for z in members:
                if dlo[z] != num[z]:
                    self._dirty_near(z)
                    return
        for z in members:
            self._dirty_near(z)

    def _groups(self) -> _Groups:
        find = self._find
        comp = [find(i) for i in range(self.st.geo.n)]
        return _Groups.of(comp, self.gm, self.gn)

    # -- dirty marks ------------------------------------------------------------------
    def _dirty_near(self, i: int) -> None:
        """Lookahead may change on the links near island ``i``."""
        flag, heap = self.la_flag, self.la_heap
        for k in self.st.geo.region(i):
            if not flag[k]:
                flag[k] = 1
                heapq.heappush(heap, k)

    def _inherit(self, parent: "Deducer", island_map: list[int], link_map: list[int],
                 changed: list[int] | None) -> None:
        st, pst = self.st, parent.st
        geo, pgeo = st.geo, pst.geo
        inc = geo.inc
        if changed is None:
            lo, hi, plo, phi = st.lo, st.hi, pst.lo, pst.hi
            num, pnum, pinc = geo.num, pgeo.num, pgeo.inc
            changed = []  # islands whose number or links differ from the parent's
            for x in range(geo.n):
                px = island_map[x]
                if px < 0 or pnum[px] != num[x] or len(pinc[px]) != len(inc[x]):
                    changed.append(x)
                    continue
                for k in inc[x]:
                    pk = link_map[k]
                    if pk < 0 or plo[pk] != lo[k] or phi[pk] != hi[k]:
                        changed.append(x)
                        break
        # lookahead: the parent's clean links stay clean unless something near them changed
        flag, pflag, pwhole = self.la_flag, parent.la_flag, parent.la_whole
        dirty_whole = geo.n != pgeo.n
        heap, whole = self.la_heap, self.la_whole
        for k, pk in enumerate(link_map):
            if pk < 0 or pflag[pk]:
                flag[k] = 1
                heap.append(k)
            elif pwhole and pk in pwhole:
                if dirty_whole:
                    flag[k] = 1
                    heap.append(k)
                else:
                    whole.add(k)
        for x in changed:
            for k in geo.region(x):
                if not flag[k]:
                    flag[k] = 1
                    heap.append(k)
        heapq.heapify(heap)
        # a group without a changed island is one of the parent's, with the same incomplete islands
        find = self._find
        for r in {find(x) for x in changed}:
            self._dirty_group(r)
        # easy rules: the parent was stuck, so only what changed can fire
        self.touch([k for x in changed for k in inc[x]])

    def complete(self) -> bool:
        return self.open == 0

    def touch(self, links) -> None:
        """Links whose intervals changed: re-examine everything they affect."""
        geo = self.st.geo
        h_fin, h_cross, h_fill, h_atl, h_room = self.heaps
        f_fin, f_cross, f_fill, f_atl, f_room = self.flags
        la_flag, la_heap = self.la_flag, self.la_heap
        push = heapq.heappush
        for k in links:
            for c in self.cross_of[k]:
                if not f_cross[c]:
                    f_cross[c] = 1
                    push(h_cross, c)
            for i in geo.ends[k]:
                if not f_fin[i]:
                    f_fin[i] = 1
                    push(h_fin, i)
                if not f_fill[i]:
                    f_fill[i] = 1
                    push(h_fill, i)
                if not f_atl[i]:
                    f_atl[i] = 1
                    push(h_atl, i)
                for j in geo.inc[i]:
                    if not f_room[j]:
                        f_room[j] = 1
                        push(h_room, j)
                for j in geo.region(i):
                    if not la_flag[j]:
                        la_flag[j] = 1
                        push(la_heap, j)

    def easy_step(self) -> Step | None:
        pop = heapq.heappop
        for heap, flag, test in zip(self.heaps, self.flags, self.tests):
            while heap:
                x = heap[0]
                step = test(x)
                if step is not None:
                    return step
                pop(heap)
                flag[x] = 0
        return None

    def lookahead_step(self) -> Step | None:
        """:func:`rule_lookahead`'s first step, trying only the links not known to give nothing."""
        st = self.st
        if st.geo.n < 3:
            return None
        heap, flag, whole = self.la_heap, self.la_flag, self.la_whole
        lo, hi = st.lo, st.hi
        groups = None
        pop = heapq.heappop
        while heap:
            k = heap[0]
            if lo[k] < hi[k]:
                if groups is None:
                    groups = self._groups()
                groups.whole = False
                for full in (False, True):
                    reason = _lookahead_reason(st, k, full, groups)
                    if reason is not None:
                        return _lookahead_step(st, k, full, reason)
                if groups.whole:
                    whole.add(k)
                else:
                    whole.discard(k)
            pop(heap)
            flag[k] = 0
        return None

    def next_step(self, top: int) -> Step | None:
        step = self.easy_step()
        if step is not None or top == 0:
            return step
        groups = None
        for level in LEVELS[1:top + 1]:
            for rule in RULES[level]:
                if rule is rule_lookahead:
                    step = self.lookahead_step()
                    if step is not None:
                        return step
                    continue
                if rule in _GROUP_RULES:
                    if groups is None:
                        groups = (self.components(), self.dlo)
                    steps = rule(self.st, groups)
                else:
                    steps = rule(self.st)
                for step in steps:
                    return step
        return None

    def components(self) -> tuple[list[int], list[list[int]]]:
        """:func:`components` of the state, from the union-find."""
        return number_groups(self.st.geo.n, self._find)

    def apply(self, step: Step) -> bool:
        st = self.st
        lo, hi = st.lo, st.hi
        changed = []
        raised = []
        for k, new_lo, new_hi in step.changes:
            was_open = lo[k] != hi[k]
            moved = False
            if new_lo > lo[k]:
                raised.append((k, lo[k], new_lo))
                lo[k] = new_lo
                moved = True
            if new_hi < hi[k]:
                hi[k] = new_hi
                moved = True
            if moved:
                changed.append(k)
                if was_open and lo[k] >= hi[k]:
                    self.open -= 1
                if lo[k] > hi[k]:
                    self.bad = True
        if raised:
            geo = st.geo
            num, dlo, gn, find = geo.num, self.dlo, self.gn, self._find
            for k, old, new in raised:
                a, b = geo.ends[k]
                for e in (a, b):
                    before = dlo[e] != num[e]
                    dlo[e] += new - old
                    after = dlo[e] != num[e]
                    if before != after:
                        gn[find(e)] += 1 if after else -1
                if old == 0:
                    self._union(a, b)
            for k, _old, _new in raised:
                # a changed group: its incomplete islands are near the ends, or elsewhere
                a, b = geo.ends[k]
                if dlo[a] != num[a] or dlo[b] != num[b]:
                    continue  # touch() below covers the links near the ends
                self._dirty_group(find(a))
        if changed:
            self.touch(changed)
            self.hardest = max(self.hardest, LEVEL_RANK[step.level])
        return bool(changed)

    def run(self, max_level: str = "expert", max_steps: int | None = None,
            steps: list[Step] | None = None) -> bool:
        """Take steps until complete or stuck; True when stuck (as :func:`solve_logically`)."""
        top = _level_rank(max_level)
        taken = 0
        while self.open:
            if max_steps is not None and taken >= max_steps:
                break
            if self.bad:
                break
            step = self.next_step(top)
            if step is None:
                break
            if not self.apply(step):  # a rule must narrow the state; guard against loops
                raise RuntimeError(f"rule {step.rule} made no progress: {step.sentence}")
            taken += 1
            if steps is not None:
                steps.append(step)
        return bool(self.open) or contradiction(self.st) is not None


def fast_level(puzzle: Puzzle, max_level: str = "expert") -> tuple[State, int, bool]:
    """Solve with the rules up to ``max_level`` (the steps of :func:`solve_logically`).

    Returns ``(state, index of the hardest level used, stuck)``.  When not stuck
    the hardest level is the grade (see :func:`hashikit.logic.grade`).
    """
    engine = Deducer(State(puzzle))
    stuck = engine.run(max_level)
    return engine.st, max(engine.hardest, 0), stuck


# ----------------------------------------------------------------------------- engine
def next_step(state: State, max_level: str = "expert") -> Step | None:
    """The first deduction of the lowest level that has one, or None when stuck."""
    top = _level_rank(max_level)
    for level in LEVELS[:top + 1]:
        for rule in RULES[level]:
            for step in rule(state):
                return step
    return None


def initial_state(puzzle: Puzzle) -> State:
    return State(puzzle)


def solve_logically(puzzle: Puzzle | State, max_level: str = "expert",
                    max_steps: int | None = None) -> tuple[State, list[Step], bool]:
    """Apply steps until the puzzle is complete or no rule up to ``max_level`` applies.

    Returns ``(state, steps, stuck)``; ``stuck`` is False only when every link is
    decided and no contradiction is seen.  Accepts a puzzle or a state to continue.
    """
    state = puzzle.copy() if isinstance(puzzle, State) else State(puzzle)
    _level_rank(max_level)
    steps: list[Step] = []
    stuck = Deducer(state).run(max_level, max_steps, steps)
    return state, steps, stuck


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _join(parts: list[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]
