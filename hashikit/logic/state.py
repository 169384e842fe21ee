"""The deduction state: for every link, the interval ``[lo, hi]`` of bridge counts still possible.

A fresh state has ``lo = 0`` and ``hi = puzzle.link_capacity(k)``.  Rules (see
:mod:`hashikit.logic.rules`) only ever raise ``lo`` or lower ``hi``; a state is
*complete* when ``lo == hi`` on every link.

A player's board (the bridges they drew so far, and the marks they hold: "no
bridge here", or at most n bridges on a link) becomes a state through
:meth:`State.from_board` (:meth:`State.from_solution` without marks): each drawn
count is a lower bound, each mark an upper bound, and :func:`contradiction` names
what is wrong.
"""

from __future__ import annotations

from itertools import compress
from operator import itemgetter, lt, ne

from ..errors import PuzzleError
from ..model import LEVELS, Puzzle, Solution, describe_cell
from .step import Step

LEVEL_RANK = {name: i for i, name in enumerate(LEVELS)}

_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight")


def word(n: int) -> str:
    return _WORDS[n] if 0 <= n < len(_WORDS) else str(n)


def bridges(n: int) -> str:
    """``'one bridge'``, ``'two bridges'``, ``'no bridges'``."""
    return f"{word(n)} bridge{'' if n == 1 else 's'}"


#: above this many islands the per-island neighbourhoods are worked out each time instead of
#: kept (they would take gigabytes on the largest boards)
_CACHED_ISLANDS = 50_000


class Geometry:
    """Per-puzzle arrays the rules read often (shared by every copy of a state)."""

    __slots__ = ("puzzle", "n", "nlinks", "num", "inc", "ends", "cap", "partners", "crossings", "_region",
                 "_cross_of", "_near", "_reach")

    puzzle: Puzzle
    n: int
    nlinks: int
    num: list[int]
    inc: list[list[int]]
    ends: list[tuple[int, int]]
    cap: list[int]
    partners: list[list[int]]
    crossings: list[tuple[int, int]]
    _region: list | None
    _cross_of: list | None
    _near: list | None
    _reach: dict

    def __init__(self, puzzle: Puzzle, like: "Geometry | None" = None):
        """``like``: the geometry of a puzzle with islands on the same cells (only numbers differ),
        whose links and crossings are shared."""
        self.puzzle = puzzle
        self.n = len(puzzle.islands)
        self.num = num = list(map(itemgetter(2), puzzle.islands))  # the islands' numbers
        self._cross_of = None
        self._near = None
        self._reach = {}
        if like is not None:
            self.nlinks, self.ends, self.inc = like.nlinks, like.ends, like.inc
            self.crossings, self.partners = like.crossings, like.partners
            self._region, self._cross_of = like._region, like._cross_of
            self._near, self._reach = like._near, like._reach
            self.cap = cap = list(like.cap)
            mb, ends = puzzle.maxbridges, self.ends
            for i in compress(range(self.n), map(ne, num, like.num)):  # the links of islands renumbered
                for k in self.inc[i]:
                    a, b = ends[k]
                    cap[k] = min(mb, num[a], num[b])
            return
        self.nlinks = len(puzzle.links)
        self.ends = ends = [(ln.a, ln.b) for ln in puzzle.links]
        self.inc = inc = [[] for _ in range(self.n)]  # type: list[list[int]]
        for k, (a, b) in enumerate(ends):
            inc[a].append(k)
            inc[b].append(k)
        self.cap = list(puzzle.link_capacities)
        self.crossings = list(puzzle.crossings)
        self.partners = partners = [[] for _ in range(self.nlinks)]  # type: list[list[int]]
        for h, v in self.crossings:
            partners[h].append(v)
            partners[v].append(h)
        self._region = None

    def cross_of(self) -> list[list[int]]:
        """For each link, the indices in ``crossings`` of the pairs it is in (computed once)."""
        out = self._cross_of
        if out is None:
            out = self._cross_of = [[] for _ in range(self.nlinks)]
            for c, (h, v) in enumerate(self.crossings):
                out[h].append(c)
                out[v].append(c)
        return out

    def near(self, i: int) -> list[int]:
        """Island ``i`` and the islands it can see (computed once)."""
        near = self._near
        if near is None:
            ends, inc = self.ends, self.inc
            near = self._near = [[i] + [a if b == i else b for a, b in (ends[k] for k in inc[i])]
                                 for i in range(self.n)]
        return near[i]

    def ball(self, i: int, radius: int) -> list[int]:
        """The islands at most ``radius`` links away from island ``i``."""
        seen = {i}
        frontier = [i]
        for _ in range(radius):
            nxt = []
            for x in frontier:
                for y in self.near(x):
                    if y not in seen:
                        seen.add(y)
                        nxt.append(y)
            frontier = nxt
        return list(seen)

    def reach(self, i: int, radius: int, crossing: bool) -> list[int]:
        """The islands whose rule (reading up to ``radius`` links away) may change when a link of
        island ``i`` changes (cached); with ``crossing``, also the ends of links that cross a link
        next to ``i`` (a trial on them blocks those links)."""
        key = (i, radius, crossing)
        out = self._reach.get(key)
        if out is None:
            found = set(self.ball(i, radius))
            if crossing:
                cross = self.partners
                for x in self.near(i):
                    for k in self.inc[x]:
                        for c in cross[k]:
                            found.update(self.ends[c])
            out = sorted(found)
            if self.n <= _CACHED_ISLANDS:
                self._reach[key] = out
        return out

    def region(self, i: int) -> list[int]:
        """The links that touch island ``i`` or one of its neighbours (computed once, on demand)."""
        reg = self._region
        if reg is None:
            reg = self._region = [None] * self.n
        out = reg[i]
        if out is None:
            inc, ends = self.inc, self.ends
            seen = set(inc[i])
            for k in inc[i]:
                a, b = ends[k]
                seen.update(inc[b if a == i else a])
            out = sorted(seen)
            if self.n <= _CACHED_ISLANDS:
                reg[i] = out
        return out


class State:
    """Bridge-count intervals ``lo[k] <= count <= hi[k]`` for every link of ``puzzle``."""

    __slots__ = ("puzzle", "geo", "lo", "hi", "drawn", "marked")

    puzzle: Puzzle
    geo: Geometry
    lo: list[int]
    hi: list[int]
    drawn: list[int] | None
    marked: dict[int, int] | None

    def __init__(self, puzzle: Puzzle, lo=None, hi=None, geo: Geometry | None = None):
        """``geo``: the puzzle's geometry when the caller has it (see :class:`Geometry`)."""
        self.puzzle = puzzle
        self.geo = geo if geo is not None else Geometry(puzzle)
        self.lo = list(lo) if lo is not None else [0] * self.geo.nlinks
        self.hi = list(hi) if hi is not None else list(self.geo.cap)
        #: the player's drawn counts when built by ``from_solution`` / ``from_board`` (else None)
        self.drawn = None
        #: the player's maximum per link ("no bridge" marks are 0) when built by ``from_board``
        self.marked = None

    @classmethod
    def from_solution(cls, puzzle: Puzzle, partial: Solution) -> "State":
        """A player's partial board: each drawn bridge count is a lower bound ``lo``.

        Raises ``PuzzleError`` for a bridge that joins no pair of linkable islands.
        """
        counts = partial.counts(puzzle)
        st = cls(puzzle, lo=counts)
        st.drawn = list(counts)
        return st

    @classmethod
    def from_board(cls, puzzle: Puzzle, bridges: Solution | None = None, marks=()) -> "State":
        """A player's board: the bridges drawn so far and the marks they hold.

        ``bridges``: the drawn bridges (each count is a lower bound); ``marks``: pairs
        ``(link, most)`` or ``((cell, cell), most)`` saying at most ``most`` bridges may
        join that link (0 is a "no bridge here" mark), as the hints hand them out
        (:func:`hashikit.logic.hint_marks`).  Raises ``PuzzleError`` for a bridge or
        mark between islands that cannot be linked.
        """
        st = cls.from_solution(puzzle, bridges) if bridges is not None else cls(puzzle)
        if bridges is None:
            st.drawn = [0] * st.geo.nlinks
        st.marked = {}
        for where, most in (marks.items() if isinstance(marks, dict) else marks):
            k = where if isinstance(where, int) else _link_of(puzzle, where)
            if not 0 <= k < st.geo.nlinks:
                raise PuzzleError(f"a mark names link {k}, but the puzzle has {st.geo.nlinks} links")
            most = int(most)
            if most < 0:
                raise PuzzleError(f"a mark on {st.link_name(k)} allows {most} bridges (at least 0)")
            st.marked[k] = min(most, st.marked.get(k, most))
            if most < st.hi[k]:
                st.hi[k] = most
        return st

    def copy(self) -> "State":
        new = State(self.puzzle, self.lo, self.hi, self.geo)
        new.drawn, new.marked = self.drawn, self.marked
        return new

    # -- views -----------------------------------------------------------------
    def interval(self, k: int) -> tuple[int, int]:
        return self.lo[k], self.hi[k]

    def degree_lo(self, i: int) -> int:
        lo = self.lo
        return sum(lo[k] for k in self.geo.inc[i])

    def degree_hi(self, i: int) -> int:
        hi = self.hi
        return sum(hi[k] for k in self.geo.inc[i])

    def need(self, i: int) -> int:
        """Bridges island ``i`` still needs beyond the ones certain (``lo``)."""
        return self.geo.num[i] - self.degree_lo(i)

    def undecided(self) -> list[int]:
        return list(compress(range(self.geo.nlinks), map(lt, self.lo, self.hi)))

    def complete(self) -> bool:
        return self.lo == self.hi

    def counts(self) -> list[int]:
        """The certain counts (``lo``); the solution's counts once complete."""
        return list(self.lo)

    def solution(self) -> Solution:
        return Solution.from_counts(self.puzzle, self.lo)

    def known(self) -> int:
        """How many links are decided."""
        return sum(1 for a, b in zip(self.lo, self.hi) if a == b)

    def __eq__(self, other) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self.puzzle == other.puzzle and self.lo == other.lo and self.hi == other.hi

    def __repr__(self) -> str:
        return f"State({self.puzzle!r}, {self.known()}/{self.geo.nlinks} links decided)"

    # -- names -------------------------------------------------------------------
    def island_name(self, i: int) -> str:
        isl = self.puzzle.islands[i]
        return f"the {isl.number} at {describe_cell(isl.row, isl.col)}"

    def link_name(self, k: int) -> str:
        a, b = self.geo.ends[k]
        return f"{self.island_name(a)} and {self.island_name(b)}"

    def bridge_name(self, k: int) -> str:
        a, b = self.geo.ends[k]
        pa, pb = self.puzzle.islands[a], self.puzzle.islands[b]
        return f"the bridge from {describe_cell(pa.row, pa.col)} to {describe_cell(pb.row, pb.col)}"


def _link_of(puzzle: Puzzle, cells) -> int:
    """The link between two island cells ``((r, c), (r, c))``."""
    try:
        a, b = (puzzle.index[tuple(cell)] for cell in cells)
        return puzzle.link_index[(min(a, b), max(a, b))]
    except (KeyError, TypeError, ValueError):
        raise PuzzleError(f"a mark names {cells!r}, which is not a pair of islands that see each other") from None


def apply(state: State, step: Step) -> bool:
    """Narrow ``state`` by ``step`` (intersecting intervals); True if anything changed."""
    changed = False
    lo, hi = state.lo, state.hi
    for k, new_lo, new_hi in step.changes:
        if new_lo > lo[k]:
            lo[k] = new_lo
            changed = True
        if new_hi < hi[k]:
            hi[k] = new_hi
            changed = True
    return changed


# -- structure shared by rules and the contradiction check ---------------------------
def _join_certain(state: State):
    """Union-find over the certain bridges (``lo >= 1``): ``(find, the first link whose certain
    bridge closed a cycle, or None)``."""
    parent = list(range(state.geo.n))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    closing = None
    lo = state.lo
    for k, (a, b) in enumerate(state.geo.ends):
        if lo[k] >= 1:
            ra, rb = find(a), find(b)
            if ra != rb:
                parent[ra] = rb
            elif closing is None:
                closing = k
    return find, closing


def components(state: State) -> tuple[list[int], list[list[int]]]:
    """Groups of islands joined by certain bridges (``lo >= 1``): (group of each island, members)."""
    find, _closing = _join_certain(state)
    return number_groups(state.geo.n, find)


def certain_cycle(state: State) -> int | None:
    """A link whose certain bridge closes a cycle of certain bridges (no-loops puzzles), or None."""
    return _join_certain(state)[1]


def number_groups(n: int, find) -> tuple[list[int], list[list[int]]]:
    """Number the union-find's groups in island order: (group of each island, members of each group)."""
    comp = [0] * n
    ids: dict[int, int] = {}
    members: list[list[int]] = []
    for i in range(n):
        r = find(i)
        c = ids.get(r)
        if c is None:
            c = ids[r] = len(members)
            members.append([])
        comp[i] = c
        members[c].append(i)
    return comp, members


def possible_groups(state: State) -> list[list[int]]:
    """Groups of islands that could still be joined (links with ``hi >= 1``)."""
    geo = state.geo
    adj: list[list[int]] = [[] for _ in range(geo.n)]
    for k, (a, b) in enumerate(geo.ends):
        if state.hi[k] >= 1:
            adj[a].append(b)
            adj[b].append(a)
    seen = [False] * geo.n
    out = []
    for s in range(geo.n):
        if seen[s]:
            continue
        seen[s] = True
        stack, group = [s], []
        while stack:
            x = stack.pop()
            group.append(x)
            for y in adj[x]:
                if not seen[y]:
                    seen[y] = True
                    stack.append(y)
        out.append(sorted(group))
    return out


def group_words(state: State, members: list[int], limit: int = 3) -> str:
    names = [state.island_name(i) for i in members[:limit]]
    more = len(members) - limit
    text = ", ".join(names)
    if more > 0:
        text += f" and {more} more"
    return text


def contradictions(state: State) -> list[str]:
    """Everything that shows ``state`` cannot lead to a solution, in words (empty if none found)."""
    geo, lo, hi = state.geo, state.lo, state.hi
    drawn = state.drawn
    out: list[str] = []
    for k in range(geo.nlinks):
        if lo[k] > hi[k]:
            marked = state.marked.get(k) if state.marked else None
            if drawn is not None and drawn[k] == lo[k] and lo[k] > geo.cap[k]:
                out.append(f"{state.bridge_name(k)} has {bridges(lo[k])}, but at most {word(geo.cap[k])} "
                           f"can join {state.link_name(k)}")
            elif drawn is not None and marked is not None and drawn[k] == lo[k] and lo[k] > marked:
                out.append(f"{state.bridge_name(k)} has {bridges(lo[k])}, but your mark there allows "
                           f"at most {word(marked)}")
            else:
                out.append(f"no bridge count is left for the link between {state.link_name(k)} "
                           f"(it would need at least {lo[k]} and at most {hi[k]})")
    for h, v in geo.crossings:
        if lo[h] >= 1 and lo[v] >= 1:
            out.append(f"{state.bridge_name(h)} crosses {state.bridge_name(v)}")
    for i in range(geo.n):
        dlo, dhi, num = state.degree_lo(i), state.degree_hi(i), geo.num[i]
        if dlo > num:
            out.append(f"{state.island_name(i)} has {bridges(dlo)}, more than its number")
        elif dhi < num:
            out.append(f"{state.island_name(i)} can get at most {bridges(dhi)}, fewer than its number")
    if state.puzzle.no_loops:
        cycle = certain_cycle(state)
        if cycle is not None:
            out.append(f"{state.bridge_name(cycle)} closes a loop of bridges, which this puzzle forbids")
    if geo.n > 1:
        comp, members = components(state)
        if len(members) > 1:
            for group in members:
                if all(state.degree_lo(i) == geo.num[i] for i in group):
                    out.append(f"the group of {len(group)} island{'s' if len(group) != 1 else ''} "
                               f"({group_words(state, group)}) is complete but cut off from the other islands")
        groups = possible_groups(state)
        if len(groups) > 1:
            small = min(groups, key=len)
            out.append(f"{group_words(state, small)} can never be joined to the other islands")
    return out


def contradiction(state: State) -> str | None:
    """The first reason ``state`` cannot lead to a solution, or None if none is seen."""
    found = contradictions(state)
    return found[0] if found else None
