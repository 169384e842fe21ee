"""Puzzles with exactly one solution at a chosen level, Tatham-style: a layout of
:mod:`.layouts` (a random connected solution) is turned into a puzzle that the deducer
(:mod:`hashikit.logic`) finishes at exactly the requested level.  Where the deducer gets stuck,
the construction is repaired there (an island inserted on one of its bridges, or a count
changed: the construction stays a solution and the puzzle says more), and a layout that turns
out too easy or hopeless is drawn again.  The result is proved unique by the SAT engine.
At easy and medium the deducer's runs are worked out by :mod:`hashikit.logic.closure` (the
state those rules end in, and their steps in the deducer's order, without the deducer); above,
the deducer goes on from there.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from itertools import compress
from operator import gt, ne
from typing import TYPE_CHECKING, Any, Callable

from ..limits import PROOF_FLOOR, Deadline
from ..model import DEFAULT_MAXBRIDGES, LEVELS, Puzzle, Solution
from ..spec import GenerateSpec
from .layouts import _check, _random_board, _tatham_board, stretch_to_frame
from .repairs import _OPEN_PER_SITE, _Repair, _apply, _batch, _open_near, _sites

if TYPE_CHECKING:  # the logic package is imported lazily, where it is used
    from ..logic.grade import Grade
    from ..logic.state import State


@dataclass
class GenerateStats:
    """What :func:`generate_unique` did: layouts drawn, repairs tried (islands inserted and
    counts changed), rebuilds (batches of repairs built and run), seconds."""

    attempts: int = 0
    insertions: int = 0
    time: float = 0.0
    rebuilds: int = 0


class _Closed:
    """The generator's deducer at easy and medium (loops allowed): a state that
    :func:`hashikit.logic.closure.close` closes under the rules up to ``level``, which is where
    a :class:`~hashikit.logic.deducer.Deducer` run at that level from the same state ends (those
    rules end in one state in any order, on a state that holds the construction, as every state
    here does).  What the repair loop reads of a deducer: ``st``, ``open``, ``bad``, ``words`` and
    :meth:`run`.  ``todo``: the islands where a rule may fire (None: any).  ``settle``:
    :func:`hashikit.logic.closure.settle` (imported where the logic package is first used)."""

    __slots__ = ("bad", "dlo", "level", "open", "settle", "st", "todo", "words")

    st: State
    level: str
    settle: Callable[..., int]
    todo: Any
    dlo: list[int] | None
    words: bool
    open: Any
    bad: bool

    def __init__(self, st, level: str, settle, todo=None, dlo: list[int] | None = None, open_links: int | None = None):
        self.st, self.level, self.settle, self.todo = st, level, settle, todo
        #: the certain degree of each island (kept up to date by :meth:`run`; None: worked out there)
        self.dlo = dlo
        self.words = False
        #: the links still open (the state holds the construction, so no interval is empty: ``bad``
        #: stays False); ``open_links``: how many the caller counted, None to count them here
        self.open, self.bad = open_links, False
        if open_links is None and todo == ():
            self._count()

    def _count(self) -> None:
        lo, hi = self.st.lo, self.st.hi
        self.open = sum(map(ne, lo, hi))
        self.bad = any(map(gt, lo, hi))

    def run(self, max_level: str, deadline: Deadline | None = None) -> bool:
        """Close the state (``max_level``: this deducer's level); True when stuck."""
        if self.todo != ():
            if self.dlo is None:
                from ..logic.closure import degrees

                self.dlo = degrees(self.st)
            decided = self.settle(self.st, self.level, self.todo, self.dlo)
            self.todo = ()
            if self.open is None:
                self._count()
            else:
                self.open -= decided
        return bool(self.open) or self.bad


def _carry(deducer, old: Puzzle, new: Puzzle, cells):
    """A deducer for ``new``: ``old`` changed at the islands on ``cells``.

    Links far from the change keep the intervals found on ``old``; the links of the
    islands near it start afresh.  The construction is a solution of both puzzles and
    lies inside every carried interval, but carried deductions are only a guide: the
    finished puzzle is always solved again from scratch.  The new deducer also keeps
    what ``deducer`` knows about where its rules cannot fire
    (:class:`hashikit.logic.deducer.Deducer`); a :class:`_Closed` one (easy and medium) gets a
    :class:`_Closed` one, whose rules may fire only at the ends of the links started afresh.
    Above medium (loops allowed) the new state is closed under the easy and medium rules first
    (:func:`hashikit.logic.closure.close`: where the deducer's run would take it before its first
    harder step), and the deducer goes on from there."""
    State, Geometry = type(deducer.st), type(deducer.st.geo)  # (no import per carry)
    if isinstance(deducer, _Closed) and new.__dict__.get("links") is old.__dict__.get("links") is not None:
        return _carry_closed(deducer, new, cells, State, Geometry)
    links = new.__dict__.get("links")
    same = links is not None and links is old.__dict__.get("links")  # made by old.with_numbers
    if same or [(r, c) for r, c, _n in new.islands] == [(r, c) for r, c, _n in old.islands]:
        # only numbers changed: the links, crossings and geometry are the old ones
        new.share_cells(old)
        same = True
        st = State(new, geo=Geometry(new, like=deducer.st.geo))
        island_map = list(range(st.geo.n))
        link_map = list(range(st.geo.nlinks))
    else:
        st = State(new)
        old_index, old_link = old.index, old.link_index
        island_map = [old_index.get((r, c), -1) for r, c, _n in new.islands]
        link_map = []
        for a, b in st.geo.ends:
            ia, ib = island_map[a], island_map[b]
            link_map.append(old_link.get((ia, ib) if ia < ib else (ib, ia), -1) if ia >= 0 and ib >= 0 else -1)
    geo = st.geo
    inc, ends = geo.inc, geo.ends
    near = {new.index[cell] for cell in cells}
    lo, hi, cap = deducer.st.lo, deducer.st.hi, geo.cap
    if same:  # (a link's capacity changes only where an end's number did: those links start afresh)
        slo, shi = list(lo), list(hi)
    else:
        slo = [lo[j] if j >= 0 else 0 for j in link_map]
        shi = [min(hi[j], c) if j >= 0 else c for j, c in zip(link_map, cap)]
    for i in near:
        for k in inc[i]:
            slo[k], shi[k] = 0, cap[k]
    st.lo, st.hi = slo, shi
    # only the links of ``near`` start afresh (and far numbers did not change), and new links: an
    # island taken away joins the two links across its cell into one, between islands not near it
    fresh = [k for i in near for k in inc[i]]
    if not same:
        fresh += [k for k, j in enumerate(link_map) if j < 0]
    woken = sorted({e for k in fresh for e in ends[k]})  # where a rule may fire first
    if isinstance(deducer, _Closed):
        return _Closed(st, deducer.level, deducer.settle, woken)
    if new.no_loops:
        return type(deducer)(st, deducer, island_map, link_map, sorted(near), suppose=False, words=deducer.words,
                            groups=False)
    # above medium: the easy and medium steps closed first, as the deducer's run would take them
    # first; the deducer then wakes its rules wherever the state differs from its parent's
    from ..logic.closure import close, settle

    # (a state the closure decides everywhere is the construction: nothing is left for the deducer)
    if not same:
        if close(st, "medium", woken):
            return _Closed(st, "medium", settle, (), None, 0)
        return type(deducer)(st, deducer, island_map, link_map, suppose=False, words=deducer.words, groups=False)
    dlo = list(deducer.dlo)
    for k in set(fresh):
        c = lo[k]
        if c:
            a, b = ends[k]
            dlo[a] -= c
            dlo[b] -= c
    if close(st, "medium", woken, dlo):
        return _Closed(st, "medium", settle, (), dlo, 0)
    # the islands whose links differ from the parent's (or whose number does)
    nl = geo.nlinks
    moved = set(compress(range(nl), map(ne, lo, slo))).union(compress(range(nl), map(ne, hi, shi)))
    changed = near.union(*(ends[k] for k in moved))
    return type(deducer)(st, deducer, island_map, link_map, sorted(changed), suppose=False, words=deducer.words,
                         groups=False, dlo=dlo)


def _carry_closed(deducer: _Closed, new: Puzzle, cells, State, Geometry) -> _Closed:
    """:func:`_carry` for a :class:`_Closed` deducer and a puzzle made by ``with_numbers`` (the same
    links and crossings): the intervals and certain degrees copied, the links of the changed
    islands started afresh."""
    st = State(new, geo=Geometry(new, like=deducer.st.geo))
    geo = st.geo
    inc, ends, cap = geo.inc, geo.ends, geo.cap
    lo, hi = st.lo, st.hi = list(deducer.st.lo), list(deducer.st.hi)
    if deducer.dlo is None:
        from ..logic.closure import degrees

        deducer.dlo = degrees(deducer.st)
    dlo = list(deducer.dlo)
    index = new.index
    fresh = {k for cell in cells for k in inc[index[cell]]}
    woken = set()
    open_links = deducer.open
    for k in fresh:  # (a link's capacity changes only where an end's number did: it starts afresh)
        a, b = ends[k]
        c = lo[k]
        open_links -= c != hi[k]
        if c:
            dlo[a] -= c
            dlo[b] -= c
            lo[k] = 0
        hi[k] = cap[k]
        open_links += cap[k] > 0
        woken.add(a)
        woken.add(b)
    return _Closed(st, deducer.level, deducer.settle, sorted(woken), dlo, open_links)


#: the default layout per level: (extra links per island, share of links doubled) for
#: :func:`random_solution`.  Half the links doubled and few loops leave Tatham's stages stuck in
#: far fewer places (40x40 hard: 3x faster than the earlier 0.25 and 0.35; 60x60 hard: 3.4x faster
#: than 0.42 doubled); medium and expert keep the earlier layout: with this one most layouts end
#: too easy for them (15x15 expert: 38 layouts per puzzle against 10, 2.5x slower; 6x6 medium:
#: 21 seeds of 30 found within 200 layouts against 25; 15x15 medium as fast either way)
_SHAPE = {"easy": (0.1, 0.5), "medium": (0.25, 0.35), "hard": (0.1, 0.5), "expert": (0.25, 0.35)}
#: a layout its repairs made too easy, with no insertion left to try, goes back to before its
#: last batch at most this many times (6x6 medium: 29 seeds of 30 within 200 layouts, 25 without)
_RETREATS = 3
#: levels repaired one place at a time, a count change adding or taking away a bridge at random
_ONE_AT_A_TIME = ("expert",)
#: batches in a row that help nowhere before one is kept anyway (the stuck area then changes)
_TRIES = 4
#: levels whose count changes only add bridges: with one bridge fewer the easy and medium rules
#: found less, never more (15x15, both layouts: it helped in 0-2% of its tries, against 37-46% for
#: one more; at hard 10-17%)
_ADD_ONLY = ("easy", "medium")
#: levels whose count changes go first to the open links the construction bridges, then to the
#: empty ones (15x15 at his preset, one repair a batch: a second bridge helped in 55-64% of its
#: tries at easy, medium and hard, a first bridge on an empty link in 0-3%; easy, seeds 4000-4199:
#: 5.4 -> 4.3 rebuilds a puzzle, 7% less time; medium took 12% more, with more layouts, and hard
#: changed within the noise)
_BUILT_FIRST = ("easy",)


def generate_unique(rows: int, cols: int, difficulty: str = "medium", seed=None, *,
                    density: float | None = None, maxbridges: int = DEFAULT_MAXBRIDGES, allow_adjacent: bool = False,
                    no_loops: bool = False, islands_percent: int | None = None, expansion: int | None = None,
                    fill_frame: bool = True, max_attempts: int = 200, max_repairs: int | None = None, time_limit: float | Deadline | None = None,
                    verify: bool = True, stats: GenerateStats | None = None
                    ) -> tuple[Puzzle, Solution, "Grade"]:
    """A puzzle with one solution that the rules of ``difficulty`` finish and the lower levels do not.

    The layout: by default published-looking (:func:`random_solution`: ``density``
    islands per cell, 0.25 when None, no islands in neighbouring cells unless ``allow_adjacent``);
    with ``islands_percent`` or ``expansion`` Tatham's own drawing
    (:func:`tatham_layout`, defaults 30 and 10).  ``maxbridges``: 1 to 4;
    ``no_loops``: the variant whose bridges form no cycle (the construction is a tree).
    ``fill_frame``: an island in the first and last row and column, so that an R x C puzzle uses
    its whole frame: the puzzle found is stretched out to its edges (:func:`stretch_to_frame`: the
    same puzzle, with the same deductions and grade); Tatham's layout is drawn again until it
    touches all four.  False leaves the default layout's puzzle where it grew.

    Tatham-style grading: run the deducer up to ``difficulty`` (without the
    ``contradiction`` rule, the slowest by far: an expert puzzle made here needs no
    supposition; the deducer with it takes the same steps, since it is the last rule
    tried); while it gets stuck, change the construction where it is stuck (insert an
    island on a construction bridge, or change one count: the construction stays a
    solution), in batches of places far apart built and run at once, and continue from
    the stuck state (only the links of the changed islands start afresh; see
    :func:`_repair_until_graded`).  ``max_repairs``: batches per layout (default
    160 + rows x cols).  The default layout doubles half the links and adds 0.1 extra
    links per island (medium and expert: 0.35 and 0.25; published puzzles: 0.25-0.46 of the bridges
    double, 0.01-0.10 loops per island; the repairs add a few more doubles): a layout
    with fewer doubles and more loops leaves the deducer stuck in far more places.  When
    the deducer finishes, the puzzle is solved again from scratch: if that run gets stuck,
    the repairs go on from there; if its hardest step is of level ``difficulty`` the
    puzzle is kept; if it is too easy, another repair of the last stuck point is tried,
    or a new layout drawn.  Finishing by sound
    deductions proves uniqueness; with ``verify`` the SAT engine proves it once more
    (not for no-loops puzzles, which the SAT engine may not know) and the checker
    checks the solution.

    Returns ``(puzzle, solution, grade)``; raises ``ValueError`` for a bad argument (the
    options' one check, :meth:`hashikit.spec.GenerateSpec.validate`, before any work) and
    ``RuntimeError`` when no puzzle was found within ``max_attempts`` layouts or
    ``time_limit`` (seconds, or a :class:`~hashikit.limits.Deadline` already running; checked
    everywhere, the layout drawing included).
    """
    spec = GenerateSpec(rows=rows, cols=cols, difficulty=difficulty, maxbridges=maxbridges, no_loops=no_loops,
                        allow_adjacent=allow_adjacent, density=density, islands_percent=islands_percent,
                        expansion=expansion).validate()
    return generate_from(spec, seed, fill_frame=fill_frame, max_attempts=max_attempts, max_repairs=max_repairs,
                         time_limit=time_limit, verify=verify, stats=stats)


def generate_from(spec: GenerateSpec, seed=None, *, fill_frame: bool = True, max_attempts: int = 200,
                  max_repairs: int | None = None, time_limit: float | Deadline | None = None, verify: bool = True,
                  stats: GenerateStats | None = None) -> tuple[Puzzle, Solution, "Grade"]:
    """:func:`generate_unique` for a spec checked where its request entered
    (:meth:`~hashikit.spec.GenerateSpec.validate`, as the service's callers do), not checked again."""
    from ..logic import WEIGHTS, Grade
    from ..logic.deducer import Deducer
    from ..logic.state import State

    rows, cols = spec.size
    difficulty, maxbridges, no_loops, allow_adjacent = spec.difficulty, spec.maxbridges, spec.no_loops, spec.allow_adjacent
    tatham, density = spec.tatham_layout() is not None, spec.layout_density()
    islands_percent, expansion = spec.tatham_layout() or (None, None)
    deadline = Deadline.of(time_limit)  # a bad number of seconds is refused here, before any work
    rng = random.Random(seed)
    stats = stats if stats is not None else GenerateStats()
    start = time.perf_counter()
    target = LEVELS.index(difficulty)
    if max_repairs is None:
        max_repairs = 160 + rows * cols

    def layout() -> tuple[Puzzle, list[int]]:
        if tatham:
            board = _tatham_board(rows, cols, rng, islands_percent, expansion, maxbridges, no_loops,  # type: ignore[arg-type]
                                  deadline)
        else:
            board = _random_board(rows, cols, rng, density, 0 if no_loops else _SHAPE[difficulty][0],
                                  _SHAPE[difficulty][1], maxbridges, None, allow_adjacent, deadline)
        return board.construction(maxbridges, no_loops)

    try:
        for _attempt in range(max_attempts):
            _check(deadline)
            stats.attempts += 1
            found = _repair_until_graded(layout(), difficulty, target, max_repairs, rng, allow_adjacent,
                                         deadline, stats, Deducer, State)
            if found is None:
                continue
            puzzle, counts, levels = found
            per = {level: 0 for level in LEVELS}
            for level in levels:
                per[level] += 1
            graded = Grade(difficulty, sum(WEIGHTS[level] for level in levels), per, 0)
            solution = Solution.from_counts(puzzle, counts)
            if fill_frame:
                framed, solution = stretch_to_frame(puzzle, solution)  # type: ignore[assignment]
                if framed is not puzzle:
                    puzzle, counts = framed, None
            if verify:
                _verify(puzzle, solution, deadline, counts)
            stats.time = time.perf_counter() - start
            return puzzle, solution, graded
    except TimeoutError:
        stats.time = time.perf_counter() - start
        raise RuntimeError(f"no {difficulty} {rows}x{cols} puzzle found within the time limit "
                           f"of {deadline.seconds:g} s ({stats.attempts} layouts)") from None  # type: ignore[union-attr]
    stats.time = time.perf_counter() - start
    raise RuntimeError(f"no {difficulty} {rows}x{cols} puzzle found in {stats.attempts} layouts")


def _verify(puzzle: Puzzle, solution: Solution, deadline: Deadline | None, counts: list[int] | None = None) -> None:
    """The checker accepts the construction; the SAT engine (the default engine where python-sat is
    missing) finds no second solution (``counts``: the construction's count per link, when the
    caller has them)."""
    from ..checker import check
    from ..solvers import DEFAULT_ENGINE, Status, solve

    if not check(puzzle, solution).ok:
        raise AssertionError("the generator's construction breaks the rules")
    if puzzle.no_loops:
        return
    proof = None if deadline is None else deadline.at_least(PROOF_FLOOR)
    if DEFAULT_ENGINE == "sat" and (proof is None or len(puzzle.links) <= _VERIFY_IN_PROCESS):
        # the deadline checked between the SAT solver's calls, each of them short here
        from ..solvers.proof import unique_proof

        status, _counts = unique_proof(puzzle, solution.counts(puzzle) if counts is None else counts,
                                        time_limit=proof, solver=_PROOF_SOLVER)
        second = status is Status.SOLVED
    else:
        second = solve(puzzle, max_solutions=2, time_limit=proof).unique is False
    if second:
        raise AssertionError("the SAT engine found a second solution of a logically finished puzzle")


#: links up to which the SAT proof of a finished puzzle runs in this process under a time limit
#: (elsewhere in a worker ended at the deadline, as ``solvers.solve`` runs it: CaDiCaL cannot be
#: stopped).  The deductions have finished the puzzle, so the proof is a few short solver calls:
#: 1-2 ms at 15x15 (about 60 links), 30-45 ms at 40x40 (720), 55-85 ms at 60x60 (1,700), where the
#: worker's round trip alone costs about 13 ms a puzzle
_VERIFY_IN_PROCESS = 2_000
#: the SAT solver of that proof: MiniSat starts and answers a small formula sooner than the
#: default CaDiCaL 1.9.5, both called on python-sat's extension (15x15 easy at Tatham's preset, 200
#: proofs: 257 us against 284 us, 294 us through python-sat's ``Solver``; 40x40 and 60x60 as fast or faster)
_PROOF_SOLVER = "minisat22"


def _same_cells(built: Puzzle, checked: Puzzle) -> Puzzle:
    """``checked`` (the same islands as ``built``, in the same order) with ``built``'s links,
    crossings and the rest worked out from the islands' cells, where ``built`` has them."""
    if checked.islands == built.islands and checked.maxbridges == built.maxbridges:
        checked.share_cells(built)
    return checked


def _from_scratch(puzzle: Puzzle, difficulty: str, target: int, deadline: Deadline | None, Deducer, State,
                  quick: bool, geo=None):
    """The deducer's run from scratch on ``puzzle`` up to ``difficulty`` (level index ``target``):
    ``(deducer, levels, stuck, hardest level index)``, ``levels`` the level of each of its steps
    (for a puzzle of grade ``difficulty`` only, else None; a puzzle too easy gets no deducer).

    With loops allowed, the easy and medium part is worked out without the deducer
    (:mod:`hashikit.logic.closure`: the same state, and the same steps): at easy and medium,
    ``quick`` first closes the rules level by level without steps (cheaper when the puzzle turns
    out too easy or stuck), else the steps are followed at once; above medium, the rules are
    closed and the deducer goes on from there, and the steps before its first are followed only
    for a puzzle of the grade asked for.  No-loops puzzles are run by the deducer from scratch.
    ``geo``: the puzzle's geometry when the caller has one (with what it worked out about its links)."""
    st = State(puzzle, geo=geo)
    geo = st.geo
    if puzzle.no_loops:
        deducer = Deducer(st, suppose=False, words=False)
        steps: list = []
        stuck = deducer.run(difficulty, steps=steps, deadline=deadline)
        return deducer, [step.level for step in steps], stuck, deducer.hardest
    from ..logic.closure import CLOSED_LEVELS, close, degrees, settle, step_levels

    top = min(target, len(CLOSED_LEVELS) - 1)  # the last level closed
    if target > top or quick:
        dlo = degrees(st)
        for rank, level in enumerate(CLOSED_LEVELS[:top + 1]):
            if close(st, level, None, dlo):
                if rank < target:
                    return None, None, False, rank
                return None, step_levels(State(puzzle, geo=geo), difficulty), False, rank
        if target == top:
            return _Closed(st, difficulty, settle, (), dlo), None, True, -1
        deducer = Deducer(st, suppose=False, words=False, settled=CLOSED_LEVELS[top], groups=False)
        rest: list = []
        stuck = deducer.run(difficulty, steps=rest, deadline=deadline)
        if stuck or deducer.hardest < target:
            return (deducer if stuck else None), None, stuck, deducer.hardest
        levels = step_levels(State(puzzle, geo=geo), CLOSED_LEVELS[top]) + [step.level for step in rest]
        return None, levels, False, deducer.hardest
    levels = step_levels(st, difficulty)
    if st.lo != st.hi:
        return _Closed(st, difficulty, settle, ()), None, True, -1
    return None, levels, False, max((LEVELS.index(level) for level in set(levels)), default=-1)


def _repair_until_graded(drawn, difficulty: str, target: int, max_repairs: int, rng: random.Random,
                         allow_adjacent: bool, deadline: Deadline | None, stats: GenerateStats, Deducer, State):
    """Repair one layout (``drawn``: a puzzle and its construction) until the deducer grades it
    ``difficulty``: (puzzle, the construction's count per link, the level of each step of the
    deducer's run from scratch) or None.

    Where the deducer is stuck, a batch of repairs far apart (one per :data:`_OPEN_PER_SITE`
    open links, see :func:`_batch`) is made in one rebuild, and the deducer continues from the
    stuck state (:func:`_carry`).  A repair helped when fewer links are open near it; a batch
    where none helped is dropped (the :data:`_TRIES`-th in a row is kept); the repairs of a
    kept batch that did not help are taken back with the next batch.
    """
    puzzle, counts = drawn  # the construction: its count per link

    def from_scratch(puzzle, quick: bool = True, deducer=None):
        # (``deducer``: a deducer of ``puzzle`` whose geometry the run shares)
        geo = deducer.st.geo if deducer is not None and deducer.st.puzzle is puzzle else None
        return _from_scratch(puzzle, difficulty, target, deadline, Deducer, State, quick, geo)

    # ``scratch``: ``deducer``, ``stuck`` and ``hardest`` are those of a run from scratch on
    # ``puzzle`` (a finished run is then not run again: the deducer is deterministic), and ``fresh``
    # the levels of its steps when the puzzle has the grade asked for
    deducer, fresh, stuck, hardest = from_scratch(puzzle)
    scratch = True
    last_stuck: tuple | None = None  # (puzzle, counts, insertions not tried yet, deducer, undo, failed) before the last batch
    undo: list[_Repair] = []  # repairs that did not help, taken back with the next batch
    failed: set[_Repair] = set()  # the repairs of batches dropped since the construction last changed
    failures = retreats = 0
    # the level's way of choosing repairs (see :func:`repairs._batch`)
    more, fewer, built_first = 0.5 if difficulty in _ONE_AT_A_TIME else 1.0, difficulty not in _ADD_ONLY, \
        difficulty in _BUILT_FIRST
    for _trial in range(max_repairs + 1):
        _check(deadline)
        if not stuck:
            if not scratch:
                # an easy puzzle the carried run finished is nearly always kept: its steps at once
                deducer, fresh, stuck, hardest = from_scratch(puzzle, quick=target > 0, deducer=deducer)
                scratch = True
            undo = []
            if not stuck and hardest == target:
                # built by the checking constructors (the repairs' own builds skip the checks)
                checked = Puzzle(puzzle.rows, puzzle.cols, puzzle.islands, puzzle.maxbridges, no_loops=puzzle.no_loops)
                return _same_cells(puzzle, checked), counts, fresh
        if not stuck:
            # too easy: the last repairs gave away too much; try another insertion there
            if last_stuck is None:
                return None
            if callable(last_stuck[2]):
                last_stuck = (last_stuck[0], last_stuck[1], last_stuck[2](), *last_stuck[3:])
            if last_stuck[2]:
                puzzle, counts, _where = _apply(last_stuck[0], last_stuck[1], [last_stuck[2].pop(0)])
                failed = set()
                stats.insertions += 1
                deducer, fresh, stuck, hardest = from_scratch(puzzle)
                scratch = True
                continue
            if retreats >= _RETREATS:
                return None
            retreats += 1  # no insertion left: another batch from the last stuck version
            # (the batches that failed there, and the one kept, which led here, are not tried again)
            puzzle, counts, _cells, deducer, undo, failed = last_stuck
            stuck, failures, scratch = True, 0, False
        size = 1 if difficulty in _ONE_AT_A_TIME else max(1, deducer.open // _OPEN_PER_SITE)
        batch, inserts = _batch(puzzle, counts, deducer, rng, allow_adjacent, size, undo, more, fewer, failed,
                                built_first)
        if not batch and failed and not undo:  # every candidate failed here: one of them again, kept this time
            failed, failures = set(), _TRIES - 1
            batch, inserts = _batch(puzzle, counts, deducer, rng, allow_adjacent, size, undo, more, fewer, failed,
                                    built_first)
        last_stuck = (puzzle, counts, inserts, deducer, undo, failed)
        if not batch and undo:
            # the repairs to take back cover where it is stuck: take them back alone first
            new_puzzle, new_counts, where = _apply(puzzle, counts, [], undo)
            deducer = _carry(deducer, puzzle, new_puzzle, where)
            puzzle, counts, undo, scratch, failed = new_puzzle, new_counts, [], False, set()
            stuck = deducer.run(difficulty, deadline=deadline)
            continue
        if not batch:
            return None
        new_puzzle, new_counts, where = _apply(puzzle, counts, batch, undo)
        stats.insertions += len(batch)
        stats.rebuilds += 1
        trial = _carry(deducer, puzzle, new_puzzle, where)
        trial_stuck = trial.run(difficulty, deadline=deadline)
        if trial.bad:
            helped = [False] * len(batch)
        elif len(batch) == 1:  # one repair: judged by every open link (it may help further away)
            helped = [trial.open < deducer.open]
        else:
            sites = _sites(batch)
            before, after = _open_near(deducer, puzzle, batch, sites), _open_near(trial, new_puzzle, batch, sites)
            helped = [a < b for a, b in zip(after, before)]
        if any(helped) or failures + 1 >= _TRIES:
            puzzle, counts, deducer, stuck, scratch = new_puzzle, new_counts, trial, trial_stuck, False
            undo = [r for r, ok in zip(batch, helped) if not ok] if any(helped) else []
            failed.update(batch)  # (for a retreat to the construction before it)
            failures, failed = 0, set()
        else:
            failures += 1
            failed.update(batch)  # (the same batch, with the same undo, would do the same)
    return None
