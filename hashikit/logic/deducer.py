"""The deducer: applies the rules of :data:`hashikit.logic.rules.RULES` step by step.

It always takes the step of the lowest level that has one, then the first rule of
the table, then the lowest island (link, crossing) index, so a run with more
levels follows a run with fewer exactly until that one gets stuck: the hardest
level used is the puzzle's grade.

The deducer is incremental: each element rule sweeps its elements once in index
order, and an element whose rule found nothing is dropped until a change it can
read (the rule's ``reach``, ``crossing``, ``groups`` and ``merge`` entries in the
table) wakes it again (into a heap, so the lowest index still comes first); a rule
marked ``open_only`` is not woken at finished islands or decided links (one marked
``full_only`` only at finished islands), and the
``risk`` rule (Tatham's stage-3 trials) beyond a changed island's neighbours only
where an island it could starve is in reach (:meth:`Deducer.risk`).  Board rules
run whenever every rule before them is stuck.  None of this changes which step is
taken: tests/test_logic.py compares every run with a plain deducer that looks at
every element of every rule afresh.
"""

from __future__ import annotations

import heapq
from itertools import compress
from operator import gt, ne
from typing import TYPE_CHECKING, Any, Iterator

from ..model import Puzzle
from .closure import degrees
from .groups import LookaheadGroups
from .risk import RiskKeeping
from .rules import BOARD, CROSSING, ISLAND, LINK, RULES, Rule
from .state import LEVEL_RANK, LEVELS, State, Step, contradiction as state_contradiction, number_groups

if TYPE_CHECKING:
    from ..limits import Deadline

#: a changed group wakes group rules near its unfinished islands when it has at most this many
#: (a trial's closed group has all its unfinished islands next to the trial's link)
_GROUP_WAKE = 8


#: (suppose, no_loops) -> (RULES, then what :func:`_rule_table` returns)
_TABLES: dict = {}


def _rule_table(suppose: bool, no_loops: bool) -> tuple:
    """The rules a deducer uses and what it keeps about them (see :class:`Deducer`)."""
    # ``contradiction`` unless ``suppose`` is False; the no-loops rules only in no-loops puzzles
    # (elsewhere they never fire: leaving them out takes the same steps)
    rules: list[Rule] = [r for r in RULES if (suppose or r.name != "contradiction") and (no_loops or not r.no_loops)]
    # the element rules and what a changed link wakes in each: its crossing pairs, its ends,
    # the links near its ends, or (None) its ends noted for a wider wake (see :meth:`Deducer._flush`)
    readers = [(r, None if rule.scope == ISLAND and (rule.reach or rule.crossing)
                else (rule.scope, rule.open_only, rule.full_only and rule.scope == ISLAND))
               for r, rule in enumerate(rules) if rule.scope != BOARD]
    ranks = [LEVEL_RANK[r.level] for r in rules]
    # the rules that read the certain groups (woken when a group changes)
    group_rules = [r for r, rule in enumerate(rules) if rule.groups]
    # the rules woken at every island of a group that merges into another (none outside no-loops puzzles)
    merge_rules = [r for r, rule in enumerate(rules) if rule.merge]
    names = {rule.name: r for r, rule in enumerate(rules)}
    # what :meth:`Deducer.next_step` reads per rule, in table order
    plan = [(r, ranks[r], rule.scope == BOARD, rule.test, rule) for r, rule in enumerate(rules)]
    return rules, readers, ranks, group_rules, merge_rules, names, plan


def level_rank(max_level: str) -> int:
    if max_level not in LEVEL_RANK:
        raise ValueError(f"unknown level {max_level!r}; choose from {', '.join(LEVELS)}")
    return LEVEL_RANK[max_level]


class Deducer(RiskKeeping):
    """A state and what the rules still have to look at.

    ``parent``: the deducer of a slightly changed puzzle that got stuck, with
    ``island_map`` / ``link_map`` from this puzzle's islands and links to the
    parent's (-1 for new ones) and ``changed``, the islands outside which numbers,
    links and intervals are the parent's: what the parent's rules found nothing
    for stays asleep unless a change near it wakes it.
    ``suppose``: False leaves out the ``contradiction`` rule (used inside it).
    ``words``: False leaves every step's sentence empty.
    ``settled``: a level whose element rules, and those of the levels below it, find nothing on
    ``state`` (the caller closed it, :func:`hashikit.logic.closure.close`): they start asleep, as
    after a run stuck at that level.
    ``dlo``: the certain degree of each island on ``state``, when the caller has them (the deducer
    keeps them from then on).
    ``groups``: False works the certain groups out only once a rule that reads them may run
    (a run at easy or medium, no-loops puzzles aside, never needs them; they are worked out from
    the built links then, as a carried deducer's are).
    """

    # the certain groups, None until :meth:`_build_groups` (class defaults: an assignment in
    # ``__init__`` would narrow them to None for the type checker, and the compiled code with it)
    uf: list[int] | None = None
    members: Any = None  # (list[list[int] | None] once built)
    incomplete: Any = None  # (list[int] once built)

    def __init__(self, state: State, parent: "Deducer | None" = None,
                 island_map: list[int] | None = None, link_map: list[int] | None = None,
                 changed: list[int] | None = None, suppose: bool = True, words: bool = True,
                 settled: str | None = None, groups: bool = True, dlo: list[int] | None = None):
        self.st = st = state
        #: False: the steps' sentences are left empty (a caller that reads only their levels and
        #: changes, as the generator's repair runs; the steps are otherwise the same)
        self.words = words
        geo = st.geo
        n, nl = geo.n, geo.nlinks
        lo, hi, inc = st.lo, st.hi, geo.inc
        # the rules in use and what they read, worked out once per kind of deducer (shared, read only)
        table = _TABLES.get((suppose, st.puzzle.no_loops))
        if table is None or table[0] is not RULES:
            table = _TABLES[(suppose, st.puzzle.no_loops)] = (RULES, *_rule_table(suppose, st.puzzle.no_loops))
        _, self.rules, self._readers, self.ranks, self._group_rules, self._merge_rules, self._names, self._plan = table
        self.cross_of = geo.cross_of()
        self.open = sum(map(ne, lo, hi))
        self.bad = any(map(gt, lo, hi))
        #: the index of the hardest level used
        self.hardest = -1
        self._cache: dict = {}
        #: counts the changes to the graph of usable links (a link's ``hi`` fell to 0) and to the
        #: certain groups (two joined): a board rule that reads only those and found nothing
        #: finds nothing until they move
        self.epoch = [0, 0]
        #: board rule name -> the epoch at which it last found nothing
        self.quiet: dict[str, tuple] = {}
        #: per island, what its open links can still carry (see :meth:`supply`), kept with the
        #: islands at risk once :meth:`risk` is first asked for
        self._supply = [0] * n
        self._risky: bytearray | None = None
        self._risk: list[int] | None = None
        # the certain degrees; the certain groups (union-find, members and unfinished members per
        # root) are worked out when a rule that reads them may first run (:meth:`_build_groups`)
        self.dlo = dlo if dlo is not None else degrees(st)
        #: the rank from which the rules in use read the groups (the no-loop rule, in no-loops
        #: puzzles, at medium; the group rules at hard)
        self._group_rank = LEVEL_RANK["medium"] if st.puzzle.no_loops else LEVEL_RANK["hard"]
        by_scope = {ISLAND: n, LINK: nl, CROSSING: len(geo.crossings), BOARD: 0}
        inherit = parent is not None and not parent.bad
        # per element rule: the elements still to look at are those from ``cursor`` on (the first
        # sweep, in index order) and those in ``heaps`` (woken again after the sweep passed them,
        # marked in ``flags``).  A rule whose cursor is 0 has everything waiting: waking it costs
        # nothing (rules above the levels in use stay so).
        rules = self.rules
        self.sizes: list[int] = [by_scope[rule.scope] for rule in rules]
        asleep = self._asleep_at_start(parent if inherit else None, settled)
        self.cursor: list[int] = [size if quiet else 0 for size, quiet in zip(self.sizes, asleep)]
        self.heaps: list[list[int]] = [[] for _ in rules]
        self.flags: list[bytearray] = [bytearray(size) for size in self.sizes]
        #: per rule that reads beyond an island's own links: islands changed since it last looked
        #: (its wider wake is worked out when it is next consulted, once per island)
        self.pending: list[set[int]] = [set() for _ in rules]
        #: the element rules that have started (cursor above 0), as ``_readers`` lists them: the
        #: ones :meth:`touch` wakes (None: to be listed again, a rule having started since)
        self._live: list | None = None
        cursor = self.cursor
        if groups or any(cursor[r] for r in self._group_rules) or any(cursor[r] for r in self._merge_rules):
            self._build_groups()  # (rules that read them, inherited awake, read them from the first step)
        if inherit:
            if changed is None:
                changed = _changed_islands(self, parent, island_map, link_map)  # type: ignore[arg-type]
            self.touch([k for x in changed for k in inc[x]])
            if self.uf is not None:
                find = self.find
                for root in {find(x) for x in changed}:
                    self._wake_group(root)
            if parent._risk is not None and parent.st.geo.ends is geo.ends:  # type: ignore[union-attr]
                self._inherit_risk(parent)  # type: ignore[arg-type]

    def _asleep_at_start(self, parent: "Deducer | None", settled: str | None) -> list[bool]:
        """Per rule: an element rule that starts with nothing to look at, being of a level up to
        ``settled`` or asleep in ``parent`` (the same rule there)."""
        rules, ranks = self.rules, self.ranks
        quiet = -1 if settled is None else level_rank(settled)
        if parent is None:
            return [rule.scope != BOARD and rank <= quiet for rule, rank in zip(rules, ranks)]
        if parent.rules is rules:
            held = [c >= size and not heap for c, size, heap in zip(parent.cursor, parent.sizes, parent.heaps)]
        else:
            index = parent._names
            held = [rule.name in index and parent.asleep(index[rule.name]) for rule in rules]
        return [rule.scope != BOARD and (rank <= quiet or was) for rule, rank, was in zip(rules, ranks, held)]

    # -- certain groups ------------------------------------------------------------
    def _build_groups(self) -> None:
        """The certain groups from the built links: union-find, members and unfinished members
        per root (kept from here on by :meth:`apply`)."""
        geo, lo = self.st.geo, self.st.lo
        n, ends, num, dlo = geo.n, geo.ends, geo.num, self.dlo
        self.uf = uf = list(range(n))
        for k in compress(range(geo.nlinks), lo):  # join along the built links (one pass, no lists)
            a, b = ends[k]
            while uf[a] != a:
                uf[a] = a = uf[uf[a]]
            while uf[b] != b:
                uf[b] = b = uf[uf[b]]
            if a != b:
                uf[b] = a
        members: list[Any] = [None] * n
        self.members = members
        self.incomplete = incomplete = [0] * n
        for i in range(n):
            r = i
            while uf[r] != r:
                r = uf[r]
            uf[i] = r
            if members[r] is None:
                members[r] = [i]
            else:
                members[r].append(i)
            if dlo[i] != num[i]:
                incomplete[r] += 1

    def find(self, x: int) -> int:
        uf = self.uf
        while uf[x] != x:  # type: ignore[index]
            uf[x] = uf[uf[x]]  # type: ignore[index]
            x = uf[x]  # type: ignore[index]
        return x

    def _union(self, a: int, b: int) -> list[int] | None:
        """Join the groups of ``a`` and ``b``; returns the smaller group's islands (None if joined)."""
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return None
        members = self.members
        if len(members[ra]) < len(members[rb]):
            ra, rb = rb, ra
        self.uf[rb] = ra  # type: ignore[index]
        small = members[rb]
        members[ra].extend(small)
        members[rb] = None
        self.incomplete[ra] += self.incomplete[rb]
        return small

    def components(self) -> tuple[list[int], list[list[int]]]:
        """(group of each island, members of each group), groups numbered in island order."""
        out = self._cache.get("components")
        if out is None:
            if self.uf is None:
                self._build_groups()
            out = self._cache["components"] = number_groups(self.st.geo.n, self.find)
        return out

    def lookahead_groups(self):
        """The certain groups in the form the lookahead trials read (see :class:`groups.LookaheadGroups`)."""
        out = self._cache.get("lookahead")
        if out is None:
            if self.uf is None:
                self._build_groups()
            find = self.find
            out = self._cache["lookahead"] = LookaheadGroups.of([find(i) for i in range(self.st.geo.n)],
                                                        self.members, self.incomplete)
        out.whole = False
        return out

    # -- waking rules ------------------------------------------------------------------
    def asleep(self, r: int) -> bool:
        """True when element rule ``r`` has nothing left to look at."""
        return self.cursor[r] >= self.sizes[r] and not self.heaps[r]

    def _wake(self, r: int, index: int) -> None:
        if index >= self.cursor[r]:
            return  # the first sweep has not reached it yet
        flag = self.flags[r]
        if not flag[index]:
            flag[index] = 1
            heapq.heappush(self.heaps[r], index)

    def _flush(self, r: int, rule: Rule) -> None:
        """Wake rule ``r`` as far as it reads around the islands changed since it last looked.

        A ``risk`` rule is woken farther than the changed island's neighbours only where an
        island at risk is within its reach (:meth:`risk`: elsewhere what it reads farther
        cannot make it fire)."""
        geo = self.st.geo
        reach, pending = geo.reach, self.pending[r]
        top, flag, heap, push = self.cursor[r], self.flags[r], self.heaps[r], heapq.heappush
        # an open-only rule is not woken at finished islands
        open_only, num, dlo = rule.open_only, geo.num, self.dlo
        if rule.risk and self._risk is not None:
            risk, near = self._risk, geo.near
            for i in pending:
                for x in near(i):
                    if x < top and not flag[x] and (not open_only or dlo[x] < num[x]):
                        flag[x] = 1
                        push(heap, x)
                for x in reach(i, rule.reach, rule.crossing):
                    if risk[x] and x < top and not flag[x] and (not open_only or dlo[x] < num[x]):
                        flag[x] = 1
                        push(heap, x)
        else:
            for i in pending:
                for x in reach(i, rule.reach, rule.crossing):
                    if x < top and not flag[x] and (not open_only or dlo[x] < num[x]):
                        flag[x] = 1
                        push(heap, x)
        pending.clear()

    def _wake_group(self, root: int) -> None:
        """The group of ``root`` changed: wake the group rules near its unfinished islands."""
        count = self.incomplete[root]
        cursor = self.cursor
        if not 0 < count <= _GROUP_WAKE or not any(cursor[r] for r in self._group_rules):
            return
        num, dlo = self.st.geo.num, self.dlo
        unfinished = [z for z in self.members[root] if dlo[z] != num[z]]
        geo = self.st.geo
        lo, hi = self.st.lo, self.st.hi
        push = heapq.heappush
        for r in self._group_rules:
            rule, top = self.rules[r], cursor[r]
            if not top:
                continue
            flag, heap, open_only = self.flags[r], self.heaps[r], rule.open_only
            for z in unfinished:
                if rule.scope == ISLAND:
                    for x in geo.near(z):
                        if x < top and not flag[x] and (not open_only or dlo[x] < num[x]):
                            flag[x] = 1
                            push(heap, x)
                else:
                    for x in geo.region(z):
                        if x < top and not flag[x] and (not open_only or lo[x] < hi[x]):
                            flag[x] = 1
                            push(heap, x)

    def _wake_merge(self, small: list[int], root: int) -> None:
        """Two groups merged (``small`` joined the group of ``root``): wake the merge rules at
        both ends of every link between them."""
        geo, find = self.st.geo, self.find
        for r in self._merge_rules:
            if not self.cursor[r]:
                continue
            for z in small:
                self._wake(r, z)
                for k in geo.inc[z]:
                    a, b = geo.ends[k]
                    o = b if a == z else a
                    if find(o) == root:
                        self._wake(r, o)

    def touch(self, links) -> None:
        """Links whose intervals changed: wake everything that reads them."""
        geo = self.st.geo
        ends = geo.ends
        cursor, pending, flags, heaps = self.cursor, self.pending, self.flags, self.heaps
        push = heapq.heappush
        where: dict | None = None  # per kind of reader but the ends' own, the elements to wake (worked out once)
        islands: set[int] | None = None  # the ends of the links, each once
        # those of them that miss bridges, and those that do not
        unfinished: list[int] | None = None
        finished: list[int] | None = None
        found: Any
        live = self._live
        if live is None:
            live = self._live = [(r, kind) for r, kind in self._readers if cursor[r]]
        for r, kind in live:
            top = cursor[r]
            if kind is None:
                p = pending[r]
                for k in links:
                    p.update(ends[k])
                continue
            scope, open_only, full_only = kind
            if scope == ISLAND:
                if islands is None:
                    islands = {i for k in links for i in ends[k]}
                if full_only:
                    if finished is None:
                        num, dlo = geo.num, self.dlo
                        finished = [i for i in islands if dlo[i] == num[i]]
                    found = finished
                elif open_only:
                    if unfinished is None:
                        num, dlo = geo.num, self.dlo
                        unfinished = [i for i in islands if dlo[i] < num[i]]
                    found = unfinished
                else:
                    found = islands
            else:
                if where is None:
                    where = {}
                found = where.get(kind)
                if found is None:
                    if scope == CROSSING:
                        cross_of = self.cross_of
                        found = [c for k in links for c in cross_of[k]]
                    else:
                        if islands is None:
                            islands = {i for k in links for i in ends[k]}
                        region = geo.region
                        found = {j for i in islands for j in region(i)}
                        if open_only:
                            lo, hi = self.st.lo, self.st.hi
                            found = [j for j in found if lo[j] < hi[j]]
                    where[kind] = found
            flag, heap = flags[r], heaps[r]
            for x in found:
                if x < top and not flag[x]:
                    flag[x] = 1
                    push(heap, x)

    # -- steps ---------------------------------------------------------------------------
    def complete(self) -> bool:
        return self.open == 0

    def next_step(self, top: int) -> Step | None:
        """The deducer's next step using rules up to level index ``top`` (None when stuck)."""
        if self.uf is None and top >= self._group_rank:
            self._build_groups()
        pop = heapq.heappop
        heaps, cursor, sizes, pending = self.heaps, self.cursor, self.sizes, self.pending
        for r, rank, board, test, rule in self._plan:
            if rank > top:
                break
            if board:
                for step in test(self):
                    return step
                continue
            heap = heaps[r]
            if pending[r]:
                self._flush(r, rule)
            if heap:
                flag = self.flags[r]
                while heap:  # woken elements: all before the cursor
                    x = heap[0]
                    step = test(self, x)
                    if step is not None:
                        return step
                    pop(heap)
                    flag[x] = 0
            x, size = cursor[r], sizes[r]
            if x < size:
                if not x:
                    self._live = None  # the rule starts: touch wakes it from now on
                while x < size:
                    step = test(self, x)
                    if step is not None:
                        cursor[r] = x
                        return step
                    x += 1
                cursor[r] = size
        return None

    def all_steps(self, level: str) -> Iterator[Step]:
        """Every step the rules of ``level`` find now (each element looked at, in table order)."""
        if self.uf is None:
            self._build_groups()
        geo = self.st.geo
        sizes = {ISLAND: geo.n, LINK: geo.nlinks, CROSSING: len(geo.crossings)}
        for rule in self.rules:
            if rule.level != level:
                continue
            if rule.scope == BOARD:
                yield from rule.test(self)
                continue
            for x in range(sizes[rule.scope]):
                step = rule.test(self, x)
                if step is not None:
                    yield step

    def apply(self, step: Step) -> bool:
        """Narrow the state by ``step``; True if anything changed."""
        st = self.st
        lo, hi = st.lo, st.hi
        changed, raised = [], []
        for k, new_lo, new_hi in step.changes:
            old_lo, old_hi = lo[k], hi[k]
            if new_lo > old_lo:
                raised.append((k, old_lo, new_lo))
                lo[k] = new_lo
            elif new_hi >= old_hi:
                continue  # nothing new on this link
            if new_hi < old_hi:
                if new_hi <= 0 < old_hi:
                    self.epoch[0] += 1  # a link can no longer be used: the graph of links changed
                hi[k] = new_hi
            changed.append(k)
            if old_lo != old_hi and lo[k] >= hi[k]:
                self.open -= 1
            if lo[k] > hi[k]:
                self.bad = True
        if not changed:
            return False
        self._cache.clear()
        if raised:
            self._raise(raised)
        if self._risk is not None:
            # a changed link changes its ends' supplies; a raised one also their neighbours'
            # (what the ends still miss caps the neighbours' links)
            near, ends = st.geo.near, st.geo.ends
            around = {e for k in changed for e in ends[k]}
            for k, _old, _new in raised:
                for e in ends[k]:
                    around.update(near(e))
            self._update_supply(around)
        self.touch(changed)
        rank = LEVEL_RANK[step.level]
        if rank > self.hardest:
            self.hardest = rank
        return True

    def _raise(self, raised: list[tuple[int, int, int]]) -> None:
        """Links got more certain bridges (``(link, old lo, new lo)``): the degrees, the unfinished
        islands per group and the groups follow, and the group rules that have started wake near
        the groups that changed."""
        geo = self.st.geo
        num, dlo, ends, incomplete, find = geo.num, self.dlo, geo.ends, self.incomplete, self.find
        if incomplete is None:  # no groups kept yet: the degrees alone
            for k, old, new in raised:
                a, b = ends[k]
                dlo[a] += new - old
                dlo[b] += new - old
            return
        cursor = self.cursor
        changed_groups: set[int] | None = set() if any(cursor[r] for r in self._group_rules) else None
        for k, old, new in raised:
            a, b = ends[k]
            for e in (a, b):
                before = dlo[e] != num[e]
                dlo[e] += new - old
                if before != (dlo[e] != num[e]):
                    incomplete[find(e)] += -1 if before else 1
                    if changed_groups is not None:
                        changed_groups.add(e)
            if old == 0:
                small = self._union(a, b)
                if small is not None:
                    self.epoch[1] += 1  # two groups joined
                    if changed_groups is not None:
                        changed_groups.add(a)
                    if self._merge_rules:
                        self._wake_merge(small, find(a))
        if changed_groups:  # a group rule has started: wake it near the changed groups
            for root in {find(e) for e in changed_groups}:
                self._wake_group(root)

    def contradiction(self) -> str | None:
        """Why the state cannot lead to a solution, or None when nothing is seen."""
        return state_contradiction(self.st)

    def run(self, max_level: str = "expert", max_steps: int | None = None,
            steps: list[Step] | None = None, deadline: Deadline | None = None) -> bool:
        """Take steps until complete or stuck; True when stuck (see :func:`solve_logically`).

        ``deadline``: a :class:`~hashikit.limits.Deadline`; past it the run raises ``TimeoutError``.
        """
        top = level_rank(max_level)
        taken = 0
        while self.open:
            if deadline is not None and taken % 32 == 0 and deadline.expired():
                raise TimeoutError("the deduction run passed its deadline")
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
        return bool(self.open) or self.bad or not self._solved()

    def _solved(self) -> bool:
        """With every link decided and no interval empty: True when :meth:`contradiction` sees
        nothing (read from the kept degrees and groups instead of worked out afresh, in words).

        With ``lo == hi`` everywhere the degrees' lower and upper sums are both ``dlo``, and
        the links that could still be used are the built ones, so the possible groups are the
        certain groups: left are the numbers, the crossings, one group, and (no-loops) no cycle."""
        st = self.st
        geo, lo = st.geo, st.lo
        if self.dlo != geo.num:
            return False
        for h, v in geo.crossings:
            if lo[h] and lo[v]:
                return False
        if self.uf is None:
            self._build_groups()
        if geo.n > 1 and len(self.members[self.find(0)]) != geo.n:
            return False
        return not st.puzzle.no_loops or self.contradiction() is None


def _changed_islands(deducer: Deducer, parent: Deducer, island_map: list[int], link_map: list[int]) -> list[int]:
    """The islands whose number, links or intervals differ from the parent's."""
    st, pst = deducer.st, parent.st
    geo, pgeo = st.geo, pst.geo
    lo, hi, plo, phi = st.lo, st.hi, pst.lo, pst.hi
    out = []
    for x in range(geo.n):
        px = island_map[x]
        if px < 0 or pgeo.num[px] != geo.num[x] or len(pgeo.inc[px]) != len(geo.inc[x]):
            out.append(x)
            continue
        for k in geo.inc[x]:
            pk = link_map[k]
            if pk < 0 or plo[pk] != lo[k] or phi[pk] != hi[k]:
                out.append(x)
                break
    return out


def solve_logically(puzzle: Puzzle | State, max_level: str = "expert",
                    max_steps: int | None = None) -> tuple[State, list[Step], bool]:
    """Apply steps until the puzzle is complete or no rule up to ``max_level`` applies.

    Returns ``(state, steps, stuck)``; ``stuck`` is False only when every link is
    decided and no contradiction is seen.  Accepts a puzzle or a state to continue.
    """
    state = puzzle.copy() if isinstance(puzzle, State) else State(puzzle)
    level_rank(max_level)
    steps: list[Step] = []
    stuck = Deducer(state).run(max_level, max_steps, steps)
    return state, steps, stuck
