"""Supplies and islands at risk: what the deducer keeps for Tatham's stage-3 trials.

A trial at an island reads the supply of the islands near it (what their open links can still
carry); it can starve only an island *at risk* (see :meth:`RiskKeeping.risk`).  The
:class:`~hashikit.logic.deducer.Deducer` keeps both from its first trial on and brings them up to
date as its steps change links; a deducer carried over from a parent on the same links starts from
the parent's.
"""

from __future__ import annotations

from itertools import compress
from operator import ne
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .state import State

#: a stage-3 trial at an island reads the islands up to this many links away (and the ends of
#: links crossing links there): see :meth:`RiskKeeping.risk`
RISK_RADIUS = 2


class RiskKeeping:
    """The deducer's supplies and risks (a part of :class:`~hashikit.logic.deducer.Deducer`: it
    reads the deducer's ``st``, ``dlo``, ``_risk``, ``_supply`` and ``_risky``)."""

    st: State
    dlo: list[int]
    _supply: list[int]
    _risky: bytearray | None
    _risk: list[int] | None

    def supply(self, y: int) -> int:
        """What island ``y``'s open links can still carry, each link counting at most what the
        island at its other end still misses (Tatham's stage-3 check, read by every trial near
        ``y``: kept until a link at ``y`` or at a neighbour changes)."""
        if self._risk is None:
            return self._count_supply(y)[0]
        return self._supply[y]  # kept for every unfinished island (see :meth:`_update_supply`)

    def _count_supply(self, y: int) -> tuple[int, int]:
        """(supply of island ``y``, the largest part of it one link carries)."""
        geo = self.st.geo
        lo, hi, num, dlo, ends = self.st.lo, self.st.hi, geo.num, self.dlo, geo.ends
        s = top = 0
        for j in geo.inc[y]:
            r = hi[j] - lo[j]
            if r > 0:
                a, b = ends[j]
                f = num[b if a == y else a] - dlo[b if a == y else a]
                if f > 0:
                    t = r if r < f else f
                    s += t
                    if t > top:
                        top = t
        return s, top

    def risk(self) -> list[int]:
        """Per island ``x``, how many islands at risk a trial at ``x`` may read.

        A trial (one link ``k`` of ``x`` given ``add`` more bridges) leaves the supply minus
        the need of ``x`` and of the other end of ``k`` as they were; of any other island
        it changes one link's part of the supply at most (its link to ``x`` or to the other
        end, or its one link that the trial's first bridge crosses: never two, on a grid),
        by at most ``add`` (at most MAXBRIDGES) and at most that part.  So an island can be
        starved by a trial only if it is *at risk*: it misses bridges and its supply exceeds
        what it misses by less than MAXBRIDGES and less than its largest part.  The trials
        reading an island run at the islands up to :data:`RISK_RADIUS` links away from it and
        at the ends of links crossing its own; with no island at risk there, no trial at ``x``
        can starve anything.  Kept from the first call on, as steps change supplies."""
        if self._risk is None:
            self._start_risk()
        return self._risk  # type: ignore[return-value]

    def _at_risk(self, y: int) -> int:
        s, top = self._count_supply(y)
        self._supply[y] = s
        need = self.st.geo.num[y] - self.dlo[y]
        return 1 if need > 0 and s - need < min(top, self.st.puzzle.maxbridges) else 0

    def _mark_risk(self, y: int, step: int) -> None:
        """Count island ``y`` (``step`` 1) or stop counting it (-1) where trials read it."""
        geo, risk = self.st.geo, self._risk
        for x in geo.reach(y, RISK_RADIUS, False):
            risk[x] += step  # type: ignore[index]
        partners, ends = geo.partners, geo.ends
        for c in geo.inc[y]:
            for k in partners[c]:
                a, b = ends[k]
                risk[a] += step  # type: ignore[index]
                risk[b] += step  # type: ignore[index]

    def _start_risk(self) -> None:
        n = self.st.geo.n
        self._risky = risky = bytearray(n)
        self._risk = [0] * n
        at_risk, mark = self._at_risk, self._mark_risk
        for y in range(n):
            if at_risk(y):
                risky[y] = 1
                mark(y, 1)

    def _inherit_risk(self, parent: "RiskKeeping") -> None:
        """Start :meth:`risk` from ``parent``'s (a deducer on the same links, whose supplies and
        risks are kept): its supplies and risks copied, then brought up to date at the islands
        whose number or links differ here and at their neighbours, as :meth:`apply` does."""
        geo, pst = self.st.geo, parent.st
        self._supply = list(parent._supply)
        self._risky = bytearray(parent._risky)  # type: ignore[arg-type]
        self._risk = list(parent._risk)  # type: ignore[arg-type]
        ends, near, nl = geo.ends, geo.near, geo.nlinks
        touched = set(compress(range(geo.n), map(ne, geo.num, pst.geo.num)))
        for k in compress(range(nl), map(ne, self.st.lo, pst.lo)):
            touched.update(ends[k])
        for k in compress(range(nl), map(ne, self.st.hi, pst.hi)):
            touched.update(ends[k])
        around = set(touched)
        for i in touched:
            around.update(near(i))
        self._update_supply(around)

    def _update_supply(self, islands) -> None:
        """The links at ``islands`` or their neighbours changed: their supplies and risks
        (once :meth:`risk` has started keeping them)."""
        risky, at_risk = self._risky, self._at_risk
        num, dlo = self.st.geo.num, self.dlo
        for y in islands:
            # a finished island stays so (``lo`` only rises): no trial reads its supply again
            now = at_risk(y) if num[y] > dlo[y] else 0
            if now != risky[y]:  # type: ignore[index]
                risky[y] = now  # type: ignore[index]
                self._mark_risk(y, 1 if now else -1)
