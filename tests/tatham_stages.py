"""An independent model of the three solver stages of Simon Tatham's *Bridges* (bridges.c),
written from the facts of his solver for the tests.  It shares no code with :mod:`hashikit.logic`.

The facts it follows (his names in brackets):

- islands in reading order (his islands of a loaded game), each island's directions in
  the order left, right, up, down;
- a link's *possible* count [POSSIBLES] is 0 when a bridge crosses it or it is ruled out
  [NOLINE], else the smaller of the two islands' numbers and the link's *maximum*
  [MAXIMUM: MAXBRIDGES until stage 3 lowers it]: whole numbers, not what the islands
  still miss;
- an island is *marked* once stage 1 sees it full; a link with a marked end counts only
  its bridges [island_isadj], and has no room [island_adjspace with marks];
- the *room* of a link seen from an island [island_adjspace]: the smaller of its possible
  count, what the island misses, and its maximum minus its bridges.  With MAXBRIDGES 3 or
  4 a link that already has a bridge can show more room than the other island can still
  take (the possible count is not lowered by the bridges drawn); ``exact_room=True``
  lowers it (the room hashikit's rules count) so the tests can tell that one known
  difference from every other.  His room is not monotone (drawing a bridge can make it
  look larger), so with MAXBRIDGES 3-4 his own grade can depend on the order his passes
  visit the islands in (``order``);
- stage 1 [solve_island_stage1], per island: over-full or marked-but-unfinished fails;
  full marks it; else if number == bridges + room of all links, fill every link
  [solve_fill]; else if number > MAXBRIDGES x (directions with a possible or existing
  bridge - 1), one bridge in each such direction without one [solve_fillone];
- stage 2 [solve_island_stage2], per unmarked island: (no-loops) an empty possible link
  to an island of the same group is ruled out; then an empty link whose possible count
  taken from the sum of all the island's possible counts leaves less than its number
  gets one bridge;
- stage 3 [solve_island_stage3], per island that misses bridges: for each link with room,
  try one more bridge, two more, ... up to its room: the first count that leaves the
  island and its partner full in a full group smaller than the board, or makes any
  island impossible [island_impossible: over-full, or fewer bridges than it misses from
  its neighbours' free counts, each capped by the link's maximum minus its bridges], is
  too many: the maximum becomes that count minus one (0: ruled out).  Then for each
  empty link with room: fill every other link with its room; if that leaves the island
  in a full group smaller than the board, the empty link gets one bridge.  The island's
  missing count is taken once, at the start of its stage 3;
- the loop [solve_sub]: a stage-1 pass over all islands, repeated while it does
  anything; then one stage-2 pass (difficulty >= medium), back to stage 1 if it did
  anything; then one stage-3 pass (hard), back to stage 1 if it did anything.  Solved
  means every island full, one group and (no-loops) no cycle.  His generator keeps a
  puzzle at difficulty d when d finishes it and d - 1 does not.

How hashikit's rules (hashikit/logic/easy.py, medium.py, hard.py) differ from these facts,
and why the grade stays his (tests/test_levels.py checks the grades, and each step against
his stage from the same state):

- the room of a link with bridges is counted exactly (``exact_room``): the one difference
  that can change a grade, MAXBRIDGES 3-4 only (see hashikit/logic/easy.py);
- ``blocked`` and ``finished`` are easy steps; his possible counts and marks do them
  without a stage;
- the order: hashikit takes one step at a time, always from the lowest level that has one;
  his solver makes whole passes (stage 1 until quiet, then one full stage-2 or stage-3
  pass before going back).  With MAXBRIDGES 1-2 the stage-1 and stage-2 results do not
  depend on the order (the rules only gain from what is found); a stage-3 trial's
  conclusion depends on the state it is tried from, so on boards the hard stage cannot
  finish the maxima left open can differ (7 to 17 of 100 random boards per MAXBRIDGES and
  no-loops setting, all of them boards both get stuck on; the bridges placed were the same
  on every board sampled);
- stage 3 checks every island for "impossible"; hashikit checks the islands a trial can
  change (its two ends, their neighbours, the ends of the links it crosses): the same
  unless the board is already contradictory.  His first "impossible" check (too little
  room counted without marks) is implied by the second and left out;
- his missing count is taken once per island in stage 3 and his marks are refreshed only
  by stage 1: both only delay a conclusion to his next pass;
- the no-loops rule is stage 2 (medium) in both; stages 1 and 3 ignore it in both.

``tatham_level(puzzle)`` is 0 (easy), 1 (medium) or 2 (hard): the lowest difficulty his
solver finishes the puzzle at, or None when his hard stage gets stuck.
"""

from __future__ import annotations


class _Board:
    def __init__(self, puzzle, exact_room: bool = False, order=None):
        self.p = puzzle
        self.exact_room = exact_room
        self.n = len(puzzle.islands)
        #: the order the passes visit islands in: his islands array (reading order for a loaded
        #: game; his generator grades in the order it placed them)
        self.order = list(order) if order is not None else list(range(self.n))
        self.num = [isl.number for isl in puzzle.islands]
        self.ends = [(ln.a, ln.b) for ln in puzzle.links]
        self.inc = [[] for _ in range(self.n)]
        for k, (a, b) in enumerate(self.ends):
            self.inc[a].append(k)
            self.inc[b].append(k)
        pos = [(isl.row, isl.col) for isl in puzzle.islands]
        for i, links in enumerate(self.inc):
            links.sort(key=lambda k, i=i: _direction(pos[i], pos[self.other(k, i)]))
        self.crossing = [[] for _ in self.ends]
        for h, v in puzzle.crossings:
            self.crossing[h].append(v)
            self.crossing[v].append(h)
        self.maxb = puzzle.maxbridges
        self.cur = [0] * len(self.ends)
        self.most = [self.maxb] * len(self.ends)
        self.noline = [False] * len(self.ends)
        self.marked = [False] * self.n
        self.dsf = list(range(self.n))

    # union-find of islands joined by bridges
    def root(self, x):
        dsf = self.dsf
        while dsf[x] != x:
            dsf[x] = dsf[dsf[x]]
            x = dsf[x]
        return x

    def merge(self, a, b):
        ra, rb = self.root(a), self.root(b)
        if ra != rb:
            self.dsf[ra] = rb

    def other(self, k, i):
        a, b = self.ends[k]
        return b if a == i else a

    def possible(self, k):
        if self.noline[k] or any(self.cur[c] > 0 for c in self.crossing[k]):
            return 0
        a, b = self.ends[k]
        return min(self.num[a], self.num[b], self.most[k])

    def is_marked_link(self, k):
        a, b = self.ends[k]
        return self.marked[a] or self.marked[b]

    def bridges(self, i):
        return sum(self.cur[k] for k in self.inc[i])

    def adjspace(self, i, k, marks, missing):
        if marks and self.is_marked_link(k):
            return 0
        possible = self.possible(k)
        if self.exact_room and possible:
            possible -= self.cur[k]
        return max(0, min(possible, missing, self.most[k] - self.cur[k]))

    def isadj(self, i, k):
        return self.cur[k] if self.is_marked_link(k) else self.possible(k)

    def join(self, k, n):
        self.cur[k] = n
        if n > 0:
            self.merge(*self.ends[k])

    # -- checks ------------------------------------------------------------------------
    def group_full(self, i):
        r = self.root(i)
        group = [x for x in range(self.n) if self.root(x) == r]
        return all(self.bridges(x) == self.num[x] for x in group), len(group)

    def subgroup(self, i, k):
        if self.bridges(i) < self.num[i]:
            return False
        if k is not None:
            j = self.other(k, i)
            if self.bridges(j) < self.num[j]:
                return False
        full, size = self.group_full(i)
        return full and size < self.n

    def impossible(self, i):
        curr = self.bridges(i)
        nspc = self.num[i] - curr
        if nspc < 0:
            return True
        if curr + sum(self.adjspace(i, k, False, nspc) for k in self.inc[i]) < self.num[i]:
            return True
        surr = 0
        for k in self.inc[i]:
            if self.possible(k) == 0:
                continue
            o = self.other(k, i)
            free = self.num[o] - self.bridges(o)
            if free > 0:
                surr += min(free, self.most[k] - self.cur[k])
        return surr < nspc

    # -- stages ------------------------------------------------------------------------
    def stage1(self, i):
        b, num = self.bridges(i), self.num[i]
        missing = num - b
        if b > num:
            return None
        if b == num:
            if not self.marked[i]:
                self.marked[i] = True
                return True
            return False
        if self.marked[i]:
            return None
        spaces = [self.adjspace(i, k, True, missing) for k in self.inc[i]]
        nadj = sum(1 for k in self.inc[i] if self.isadj(i, k) > 0)
        did = False
        if num == b + sum(spaces):
            for k, s in zip(self.inc[i], spaces):
                if s:
                    self.join(k, self.cur[k] + s)
                    did = True
        elif num > (nadj - 1) * self.maxb:
            for k in self.inc[i]:
                if self.isadj(i, k) and self.cur[k] == 0:
                    self.join(k, 1)
                    did = True
        return did

    def stage2(self, i):
        did = False
        avail = 0
        for k in self.inc[i]:
            o = self.other(k, i)
            if (self.p.no_loops and self.cur[k] == 0 and self.isadj(i, k) and self.root(i) == self.root(o)):
                self.noline[k] = True
                did = True
            else:
                avail += self.isadj(i, k)
        for k in self.inc[i]:
            if self.cur[k] == 0:
                adj = self.isadj(i, k)
                if adj > 0 and avail - adj < self.num[i]:
                    self.join(k, 1)
                    did = True
        return did

    def stage3(self, i):
        missing = self.num[i] - self.bridges(i)
        if missing <= 0:
            return False
        did = False
        for k in self.inc[i]:
            spc = self.adjspace(i, k, True, missing)
            if spc == 0:
                continue
            curr = self.cur[k]
            saved = self.dsf[:]
            found = None
            for n in range(curr + 1, curr + spc + 1):
                self.join(k, n)
                if self.subgroup(i, k) or any(self.impossible(x) for x in range(self.n)):
                    found = n - 1
                    break
            self.cur[k] = curr
            self.dsf = saved
            if found is not None:
                if found == 0:
                    self.noline[k] = True
                else:
                    self.most[k] = found
                did = True
        for k in self.inc[i]:
            if self.adjspace(i, k, True, missing) == 0 or self.cur[k] != 0:
                continue
            before = self.cur[:]
            saved = self.dsf[:]
            for j in self.inc[i]:
                spc = self.adjspace(i, j, True, missing)
                if spc and j != k:
                    self.join(j, before[j] + spc)
            got = self.subgroup(i, None)
            self.cur = before
            self.dsf = saved
            if got:
                self.join(k, 1)
                did = True
        return did

    def solve(self, difficulty):
        while True:
            did = False
            for stage, level in ((self.stage1, 0), (self.stage2, 1), (self.stage3, 2)):
                if level > difficulty:
                    break
                for i in self.order:
                    if level == 1 and self.marked[i]:
                        continue
                    r = stage(i)
                    if r is None:
                        return False
                    did = did or r
                if did:
                    break
            if not did:
                break
        if any(self.bridges(i) != self.num[i] for i in range(self.n)):
            return False
        if len({self.root(i) for i in range(self.n)}) != 1:
            return False
        if self.p.no_loops:
            edges = sum(1 for c in self.cur if c > 0)
            if edges != self.n - 1:
                return False
        return True


def board_at(puzzle, bridges, most, exact_room: bool = True) -> _Board:
    """His solver's state for ``puzzle`` with ``bridges[k]`` bridges on each link and at most
    ``most[k]`` (a maximum below what the islands allow is his MAXIMUM, 0 his NOLINE unless a
    crossing bridge or a full end explains it); full islands are marked, as his stage 1 does."""
    b = _Board(puzzle, exact_room)
    for k, n in enumerate(bridges):
        b.join(k, n)
    for i in range(b.n):
        b.marked[i] = b.bridges(i) == b.num[i]
    for k, top in enumerate(most):
        if b.is_marked_link(k) or b.possible(k) == 0:
            continue
        if top == 0:
            b.noline[k] = True
        elif top < b.possible(k):
            b.most[k] = top
    return b


def stage_pass(board: _Board, level: int) -> bool:
    """One pass of his stage ``level`` (0, 1, 2) over every island; True if it changed anything."""
    stage = (board.stage1, board.stage2, board.stage3)[level]
    did = False
    for i in range(board.n):
        if level == 1 and board.marked[i]:
            continue
        did = bool(stage(i)) or did
    return did


def _direction(here, there) -> int:
    """0 left, 1 right, 2 up, 3 down: his order of an island's directions."""
    (r, c), (r2, c2) = here, there
    if r == r2:
        return 0 if c2 < c else 1
    return 2 if r2 < r else 3


def tatham_level(puzzle, exact_room: bool = False, order=None) -> int | None:
    """0, 1 or 2: the lowest of Tatham's difficulties whose stages finish ``puzzle`` (None: none).

    ``exact_room``: count a link's room from what the other island can still take (see the
    module docstring), as hashikit's rules do.  ``order``: the order his passes visit the
    islands in (default: reading order, his order for a loaded game)."""
    for level in range(3):
        if _Board(puzzle, exact_room, order).solve(level):
            return level
    return None
