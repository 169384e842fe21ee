"""The certain groups of a deduction state, kept in the form the lookahead trials read.

Shared by the expert rules (which run the trials) and the deducer (which hands its own
union-find groups over), so neither imports the other.
"""

from __future__ import annotations

from .state import State, components


class LookaheadGroups:
    """The certain groups of a state, to tell fast whether a trial closes one off.

    Built once per :func:`rule_lookahead` call; a trial only raises ``lo`` on the
    links in its undo list, so its group of ``x`` is the union of base groups
    joined through those links, and an island is complete in the trial exactly
    when its degree (recomputed for the ends of changed links) equals its number.
    """

    def __init__(self, st: State | None, given: tuple[list[int], list, list[int]] | None = None):
        """The groups of ``st``, or ``given`` directly (see :meth:`of`)."""
        #: set when a trial completed every island (no closed group since it is the whole puzzle)
        self.whole = False
        if st is None:
            assert given is not None
            self.comp, self.members, self.incomplete = given
            return
        self.comp, self.members = components(st)
        geo = st.geo
        self.incomplete = [0] * len(self.members)
        for i in range(geo.n):
            if st.degree_lo(i) != geo.num[i]:
                self.incomplete[self.comp[i]] += 1

    @classmethod
    def of(cls, comp: list[int], members: list, incomplete: list[int]) -> "LookaheadGroups":
        """Groups given directly (group ids need not be consecutive: unused ids are never looked up)."""
        return cls(None, (comp, members, incomplete))

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
