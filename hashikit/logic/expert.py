"""Expert rules: hashikit's techniques beyond Tatham's three stages.

``at-least``       an island that cannot reach its number without some bridges on a link
                   needs them (his medium rule adds only a first bridge to an empty link);
``single-exit``    a built group with only one way out left must use it;
``group-need``     a built group's missing bridges against what can still leave it;
``cut-link``       a link every route between two parts of the board runs over;
``lookahead``      not building (or filling) a link would force its ends to finish in a way
                   that closes a group off;
``contradiction``  suppose a bound on one link, follow the rules up to hard, and exclude
                   it when that leads to a contradiction (one supposition deep).

Every rule is sound for any puzzle that has a solution; none assumes uniqueness.
"""

from __future__ import annotations

from typing import Iterator

from .state import State, Step, bridges, components, group_words, word
from .groups import LookaheadGroups
from .words import cap as _cap


def at_least(d, i: int) -> Step | None:
    st = d.st
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
    return Step("at-least", "expert", (i,), tuple(c[0] for c in changes), tuple(changes),
                "; ".join(clauses) + ".")



def _deficits(st: State, members: list[list[int]], dlo: list[int] | None = None) -> list[int]:
    num = st.geo.num
    if dlo is None:
        dlo = [st.degree_lo(i) for i in range(st.geo.n)]
    return [sum(num[i] - dlo[i] for i in group) for group in members]



def _exits(st: State, comp: list[int], ngroups: int) -> list[list[int]]:
    exits: list[list[int]] = [[] for _ in range(ngroups)]
    for k, (a, b) in enumerate(st.geo.ends):
        if st.hi[k] >= 1 and comp[a] != comp[b]:
            exits[comp[a]].append(k)
            exits[comp[b]].append(k)
    return exits


def _links_of_groups(st: State, comp: list[int], ngroups: int) -> tuple[list[list[int]], list[int]]:
    """Per group: its usable links out (:func:`_exits`), and the room left on links inside it."""
    exits: list[list[int]] = [[] for _ in range(ngroups)]
    internal = [0] * ngroups
    lo, hi = st.lo, st.hi
    for k, (a, b) in enumerate(st.geo.ends):
        ca, cb = comp[a], comp[b]
        if ca != cb:
            if hi[k] >= 1:
                exits[ca].append(k)
                exits[cb].append(k)
        elif hi[k] > lo[k]:
            internal[ca] += hi[k] - lo[k]
    return exits, internal


def rule_single_exit(st: State, groups=None, links=None) -> Iterator[Step]:
    """``links``: :func:`_links_of_groups` of ``groups`` when the caller has it."""
    geo = st.geo
    comp, members = groups[0] if groups is not None else components(st)
    if len(members) < 2:
        return
    exits = links[0] if links is not None else _exits(st, comp, len(members))
    for c, group in enumerate(members):
        if len(group) < 2 or len(exits[c]) != 1:
            continue
        k = exits[c][0]
        if st.lo[k] >= 1:
            continue
        a, b = geo.ends[k]
        yield Step("single-exit", "expert", tuple(group), (k,), ((k, 1, st.hi[k]),),
                   f"The group of {len(group)} islands joined to {st.island_name(group[0])} must reach "
                   f"the other islands, and its only way out left is between {st.link_name(k)}, "
                   f"so there must be a bridge there.")



def rule_group_need(st: State, groups=None, links=None) -> Iterator[Step]:
    """``links``: :func:`_links_of_groups` of ``groups`` when the caller has it."""
    geo, lo, hi = st.geo, st.lo, st.hi
    (comp, members), dlo = groups if groups is not None else (components(st), None)
    deficit = _deficits(st, members, dlo)
    if links is not None:
        exits, internal = links
    else:
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
                yield Step("group-need", "expert", tuple(group), (k,), ((k, new_lo, hi[k]),),
                           f"The group of {len(group)} islands joined to {st.island_name(group[0])} still needs "
                           f"{bridges(deficit[c])}, and without the link between {st.link_name(k)} it can "
                           f"get at most {bridges(others)}, so that link needs at least {bridges(new_lo)}.")



def rule_cut_link(st: State) -> Iterator[Step]:
    """Links that are bridges (cut edges) of the graph of links still possible.

    One depth-first search from island 0 over each island's links in link order (the
    links with ``hi >= 1``), the cut links found as the search leaves their far end."""
    geo, lo, hi = st.geo, st.lo, st.hi
    n = geo.n
    if n < 2:
        return
    inc, ends = geo.inc, geo.ends
    order = [-1] * n
    low = [0] * n
    size = [1] * n
    via = [-1] * n  # the link the search came in by
    pos = [0] * n  # how far the search has gone through each island's links
    cuts: list[tuple[int, int]] = []  # (link, child island whose subtree is cut off)
    order[0] = low[0] = 0
    counter = 1
    stack = [0]
    while stack:
        v = stack[-1]
        links, i, came = inc[v], pos[v], via[v]
        while i < len(links):
            k = links[i]
            i += 1
            if hi[k] < 1 or k == came:
                continue
            a, b = ends[k]
            w = b if a == v else a
            if order[w] == -1:
                order[w] = low[w] = counter
                counter += 1
                via[w] = k
                stack.append(w)
                break
            if order[w] < low[v]:
                low[v] = order[w]
        else:
            stack.pop()
            if stack:
                p = stack[-1]
                if low[v] < low[p]:
                    low[p] = low[v]
                size[p] += size[v]
                if low[v] > order[p]:
                    cuts.append((came, v))
        pos[v] = i
    if counter < n:
        return  # already disconnected: that is a contradiction, not a deduction
    for k, child in cuts:
        if lo[k] >= 1:
            continue
        a, b = geo.ends[k]
        part = size[child]
        rest = n - part
        yield Step("cut-link", "expert", (a, b), (k,), ((k, 1, hi[k]),),
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




def _lookahead_reason(st: State, k: int, full: bool, groups: LookaheadGroups | None = None) -> str | None:
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
    return Step("lookahead", "expert", st.geo.ends[k], (k,), (change,),
                f"If {hyp}, both ends would be forced and {reason}; so they share {concl}.")


def contradiction(d) -> Iterator[Step]:
    """Suppose each undecided link at its bottom (then top) count and follow every other rule;
    a supposition that ends in a contradiction is excluded."""
    st = d.st
    geo = st.geo
    # try links near decided ones first: they are the ones a player would look at
    order = sorted(st.undecided(), key=lambda k: -(d.dlo[geo.ends[k][0]] + d.dlo[geo.ends[k][1]]))
    identity, links = list(range(geo.n)), list(range(geo.nlinks))
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
            # the rules before this one are stuck on ``st``: only what link k wakes needs a look
            deducer = type(d)(trial, d, identity, links, list(geo.ends[k]), suppose=False)  # a Deducer
            steps: list[Step] = []
            deducer.run("expert", steps=steps)
            reason = deducer.contradiction()
            if reason is None:
                continue
            hyp, change, concl = _hypothesis(st, k, full)
            a, b = geo.ends[k]
            n = len(steps)
            yield Step("contradiction", "expert", (a, b), (k,), (change,),
                       f"Suppose {hyp}: following the other rules for {n} more step"
                       f"{'s' if n != 1 else ''} leads to a contradiction ({reason}). "
                       f"So they share {concl}.")
            break


def _unless_quiet(d, name: str, groups: bool, steps) -> Iterator[Step]:
    """``steps`` of a board rule that reads only the graph of usable links (``hi >= 1``), the
    certain groups if ``groups``, and which links are built: none while those have not
    changed since it last found none (``d.epoch``; built links only get more, which takes
    steps away).  ``steps``: a function making them (not called when quiet)."""
    epoch = tuple(d.epoch) if groups else d.epoch[0]
    if d.quiet.get(name) == epoch:
        return
    found = False
    for step in steps():
        found = True
        yield step
    if not found:
        d.quiet[name] = epoch


def single_exit(d) -> Iterator[Step]:
    return _unless_quiet(d, "single-exit", True,
                         lambda: rule_single_exit(d.st, (d.components(), d.dlo), _group_links(d)))


def _group_links(d) -> tuple[list[list[int]], list[int]]:
    """:func:`_links_of_groups` of the deducer's groups, worked out once per state."""
    out = d._cache.get("group links")
    if out is None:
        comp, members = d.components()
        out = d._cache["group links"] = _links_of_groups(d.st, comp, len(members))
    return out


def group_need(d) -> Iterator[Step]:
    return rule_group_need(d.st, (d.components(), d.dlo), _group_links(d))


def cut_link(d) -> Iterator[Step]:
    return _unless_quiet(d, "cut-link", False, lambda: rule_cut_link(d.st))


def _calm(d, k: int) -> bool:
    """True when neither trial on link ``k`` can force anything or overfill an end.

    Either trial changes only link ``k``'s room (``r``) at its ends.  At the bottom count,
    an end still missing more than ``r`` bridges with more than ``r`` room to spare is not
    forced and can still get its number; at the top count it gets ``r`` more bridges,
    still misses some (more than ``r`` missing), and its room stays above what it misses
    (more than ``r`` to spare).  Then the trial touches its two ends only, and neither is
    complete or wrong: :func:`_lookahead_reason` finds nothing.
    """
    st = d.st
    geo, lo, hi = st.geo, st.lo, st.hi
    r = hi[k] - lo[k]
    num, dlo, inc = geo.num, d.dlo, geo.inc
    for e in geo.ends[k]:
        need = num[e] - dlo[e]
        if need <= r:
            return False
        dhi = 0
        for j in inc[e]:
            dhi += hi[j]
        if dhi - num[e] <= r:
            return False
    return True


def _trial_quiet(d, k: int, full: bool) -> bool:
    """True when :func:`_lookahead_reason` finds nothing for this trial, worked out without
    changing the state: which ends the trial forces (close or fill their other links), what
    that does to their neighbours (too many or too few bridges), and whether an island it
    leaves complete closes its group off (the deducer's groups, joined along the new bridges,
    with no island left incomplete).  Where a neighbour would be touched twice (never on a
    grid) it answers False, and the trial is run."""
    st = d.st
    geo, lo, hi = st.geo, st.lo, st.hi
    num, dlo, inc, ends = geo.num, d.dlo, geo.inc, geo.ends
    r = hi[k] - lo[k]
    ends_k = ends[k]
    complete: list[int] = []  # islands the trial leaves complete among those it touches
    completed: list[int] = []  # ... of them, those that were not complete before
    joins = [ends_k] if full and lo[k] == 0 else []  # new certain bridges
    seen: set[int] = set()
    for e in ends_k:
        need = num[e] - dlo[e]
        dhi = 0
        for j in inc[e]:
            dhi += hi[j]
        spare = dhi - num[e]
        if full:  # ``r`` more bridges at ``e``
            if need < r or spare < 0:
                return False
            close, fill = need == r, need != r and spare == 0
        else:  # ``r`` less room at ``e``
            if need < 0 or spare < r:
                return False
            close, fill = need == 0, need != 0 and spare == r
        if not (close or fill):
            continue
        complete.append(e)
        if need > 0:
            completed.append(e)
        for j in inc[e]:
            if j == k or hi[j] == lo[j]:
                continue
            a, b = ends[j]
            z = b if a == e else a
            if z in seen or z in ends_k:
                return False
            seen.add(z)
            rj = hi[j] - lo[j]
            need_z = num[z] - dlo[z]
            spare_z = -num[z]
            for i in inc[z]:
                spare_z += hi[i]
            if close:  # ``z`` loses ``rj`` of room
                if need_z < 0 or spare_z < rj:
                    return False
                if need_z == 0:
                    complete.append(z)
            else:  # ``z`` gets ``rj`` more bridges
                if need_z < rj or spare_z < 0:
                    return False
                if need_z == rj:
                    complete.append(z)
                    completed.append(z)
                if lo[j] == 0:
                    joins.append((e, z))
    if not complete:
        return True
    find, incomplete, members = d.find, d.incomplete, d.members
    done: dict[int, int] = {}
    for c in completed:
        root = find(c)
        done[root] = done.get(root, 0) + 1
    linked: dict[int, list[int]] = {}
    for u, v in joins:
        ru, rv = find(u), find(v)
        if ru != rv:
            linked.setdefault(ru, []).append(rv)
            linked.setdefault(rv, []).append(ru)
    for x in complete:
        start = find(x)
        group, stack = {start}, [start]
        while stack:
            for c in linked.get(stack.pop(), ()):
                if c not in group:
                    group.add(c)
                    stack.append(c)
        if sum(incomplete[c] - done.get(c, 0) for c in group) == 0 and \
                sum(len(members[c]) for c in group) < geo.n:
            return False
    return True


def lookahead(d, k: int) -> Step | None:
    """:func:`rule_lookahead` on one link, with the deducer's certain groups."""
    st = d.st
    if st.geo.n < 3 or st.lo[k] >= st.hi[k]:
        return None
    if _calm(d, k) or (_trial_quiet(d, k, False) and _trial_quiet(d, k, True)):
        return None
    groups = d.lookahead_groups()
    for full in (False, True):
        reason = _lookahead_reason(st, k, full, groups)
        if reason is not None:
            return _lookahead_step(st, k, full, reason)
    return None
