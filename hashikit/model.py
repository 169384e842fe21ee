"""The core model every other module shares: ``Puzzle``, ``Island``, ``Link``, ``Solution``.

Coordinates are 0-based ``(row, col)``; row 0 is the top row.  Islands are kept
in row-major order and referred to by their index in ``Puzzle.islands``.

A *link* is a pair of islands in one row or column with no island between them
(ProB's ``plx``/``ply``).  Two links *cross* when a horizontal and a vertical
link's interiors meet (ProB's conflict set ``cs``).  These are derived once per
puzzle and shared by the solvers, the formats and the renderers.
"""

from __future__ import annotations

import gc
from bisect import bisect_left
from collections import namedtuple
from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import cached_property, wraps
from itertools import compress, repeat
from operator import eq, itemgetter

from .errors import PuzzleError
from .limits import MODEL

DEFAULT_MAXBRIDGES = 2
#: the difficulty levels, easiest first: Tatham's solver stages (easy, medium, hard) and expert,
#: the one list every layer reads (the deduction rules, grades, the catalogue, the CLI, the web)
LEVELS: tuple[str, ...] = ("easy", "medium", "hard", "expert")

Pos = tuple[int, int]


class Island(namedtuple("Island", "row col number")):
    """An island: its cell (``row``, ``col``) and its ``number``."""

    __slots__ = ()

    @property
    def pos(self) -> Pos:
        return (self.row, self.col)


class Link(namedtuple("Link", "a b horizontal")):
    """A candidate link between islands ``a < b`` (indices); ``a`` is left of / above ``b``."""

    __slots__ = ()


def _as_island(item) -> Island:
    if isinstance(item, Island):
        return item
    try:
        row, col, number = item
    except (TypeError, ValueError):
        raise PuzzleError(f"an island must be (row, col, number), got {item!r}") from None
    for value in (row, col, number):
        if isinstance(value, bool) or not isinstance(value, int):
            raise PuzzleError(f"an island must be (row, col, number) of integers, got {item!r}")
    return Island(row, col, number)


def _sound_islands(items: list, rows: int, cols: int, top: int) -> tuple[list[Island], set[Pos]] | None:
    """``items`` as a new list, and their cells, when every one is an :class:`Island` of whole
    numbers on a ``rows`` x ``cols`` board, numbered 1 to ``top``, one to a cell (checked a column
    at a time); None when anything is off, for the checks one island at a time to name."""
    if not items or set(map(type, items)) != {Island}:
        return None
    at_rows, at_cols = list(map(itemgetter(0), items)), list(map(itemgetter(1), items))
    for values, low, high in ((at_rows, 0, rows - 1), (at_cols, 0, cols - 1),
                              (list(map(itemgetter(2), items)), 1, top)):
        if set(map(type, values)) != {int} or min(values) < low or max(values) > high:
            return None
    cells = set(zip(at_rows, at_cols))
    return (list(items), cells) if len(cells) == len(items) else None


def _collector_paused(build):
    """``build`` (a derived structure's maker) run with the garbage collector paused: it makes a
    container or two per island, link or crossing and no cycle, and on a large board the collector
    would otherwise walk them, and everything older, again and again while they are made."""

    @wraps(build)
    def built(self):
        if not gc.isenabled():
            return build(self)
        gc.disable()
        try:
            return build(self)
        finally:
            gc.enable()

    return built


def describe_cell(row: int, col: int) -> str:
    """How messages name a cell: 1-based, as a person counts."""
    return f"row {row + 1}, column {col + 1}"


class Puzzle:
    """A Hashiwokakero puzzle: a ``rows`` x ``cols`` board, its islands and MAXBRIDGES.

    ``ignore`` lists positions of islands that are part of the description but
    left out of the puzzle, as ProB's ``ignore`` set: they carry no bridges, do
    not block links and need not be connected.  They stay in ``ignored``.

    ``no_loops`` is the variant of Simon Tatham's ``L`` flag: the bridges may form no
    cycle (the bridge graph, each pair counted once, is a tree).
    """

    def __init__(self, rows: int, cols: int, islands: Iterable, maxbridges: int = DEFAULT_MAXBRIDGES,
                 ignore: Iterable[Pos] = (), no_loops: bool = False):
        for name, value in (("rows", rows), ("cols", cols), ("maxbridges", maxbridges)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise PuzzleError(f"{name} must be a whole number, got {value!r}")
        refused = MODEL.problem(rows, cols, maxbridges=maxbridges)
        if refused:
            raise PuzzleError(refused)
        self.rows = rows
        self.cols = cols
        self.maxbridges = maxbridges
        self.no_loops = bool(no_loops)
        top = 4 * maxbridges
        islands = islands if type(islands) is list else list(islands)
        sound = _sound_islands(islands, rows, cols, top)
        seen: set[Pos] = set() if sound is None else sound[1]
        all_islands = [] if sound is None else sound[0]
        for item in islands if sound is None else ():  # the checks one island at a time, naming the first wrong
            isl = item if type(item) is Island else _as_island(item)
            row, col, number = isl
            if not (0 <= row < rows and 0 <= col < cols):
                raise PuzzleError(f"island at {describe_cell(row, col)} is outside the "
                                  f"{rows}x{cols} board", row, col)
            if not 1 <= number <= top:
                raise PuzzleError(f"island at {describe_cell(row, col)} has number {number}; "
                                  f"numbers run from 1 to {top} (4 x MAXBRIDGES {maxbridges})",
                                  row, col)
            pos = (row, col)
            if pos in seen:
                raise PuzzleError(f"two islands at {describe_cell(row, col)}", row, col)
            seen.add(pos)
            all_islands.append(isl)
        ignore_set = set(ignore)
        for pos in ignore_set - seen:
            raise PuzzleError(f"ignored position {describe_cell(*pos)} holds no island", *pos)
        all_islands.sort()
        if ignore_set:
            self.islands: tuple[Island, ...] = tuple(i for i in all_islands if i.pos not in ignore_set)
            self.ignored: tuple[Island, ...] = tuple(i for i in all_islands if i.pos in ignore_set)
        else:
            self.islands, self.ignored = tuple(all_islands), ()
        if not self.islands:
            raise PuzzleError("the puzzle has no islands")

    def with_islands(self, islands: Iterable[Island]) -> "Puzzle":
        """This puzzle's board with other islands, taken as they are: for a caller that made them
        from this puzzle's islands (the generator's repairs build hundreds of puzzles; the checks
        of ``__init__`` cost a third of each build).  Islands on the board, numbers 1..4*MAXBRIDGES,
        one per cell, none ignored: the caller's promise."""
        out = object.__new__(Puzzle)
        out.rows, out.cols, out.maxbridges, out.no_loops = self.rows, self.cols, self.maxbridges, self.no_loops
        out.islands, out.ignored = tuple(sorted(islands)), ()
        return out

    #: the derived structure that depends on the islands' cells only (see :meth:`with_numbers`)
    _BY_CELLS = ("index", "links", "link_index", "incident", "crossings", "crossing_partners", "link_cells", "link_ranks")

    def with_numbers(self, numbers: Mapping[Pos, int]) -> "Puzzle":
        """This puzzle with other numbers on some of its islands (``numbers``: cell -> number), the
        islands staying on their cells and in their order, so that their links and crossings, worked
        out already, are this puzzle's.  Taken as they are, as :meth:`with_islands`: numbers
        1..4*MAXBRIDGES on islands of this puzzle, the caller's promise."""
        out = object.__new__(Puzzle)
        out.rows, out.cols, out.maxbridges, out.no_loops = self.rows, self.cols, self.maxbridges, self.no_loops
        islands = list(self.islands)
        index = self.index
        for (row, col), number in numbers.items():
            islands[index[row, col]] = Island(row, col, number)
        out.islands = tuple(islands)
        out.ignored = ()
        out.share_cells(self)
        return out

    def share_cells(self, other: "Puzzle") -> None:
        """Take ``other``'s structure worked out from the islands' cells (links, crossings and
        indexes: :data:`_BY_CELLS`), where ``other`` has it, instead of working it out again; for a
        puzzle whose islands lie on ``other``'s cells, in the same order (the caller's promise)."""
        known, cached = other.__dict__, self.__dict__
        for name in self._BY_CELLS:
            if name in known:
                cached.setdefault(name, known[name])

    # -- basic views -------------------------------------------------------------
    @property
    def width(self) -> int:
        return self.cols

    @property
    def height(self) -> int:
        return self.rows

    def __len__(self) -> int:
        return len(self.islands)

    def __repr__(self) -> str:
        return (f"Puzzle({self.rows}x{self.cols}, {len(self.islands)} islands, "
                f"maxbridges={self.maxbridges}{', no_loops=True' if self.no_loops else ''})")

    def __eq__(self, other) -> bool:
        if not isinstance(other, Puzzle):
            return NotImplemented
        return (self.rows, self.cols, self.maxbridges, self.islands, self.ignored, self.no_loops) == (
            other.rows, other.cols, other.maxbridges, other.islands, other.ignored, other.no_loops)

    def __hash__(self) -> int:
        return hash((self.rows, self.cols, self.maxbridges, self.islands, self.ignored, self.no_loops))

    @cached_property
    @_collector_paused
    def index(self) -> dict[Pos, int]:
        """Island index by position."""
        return {isl.pos: i for i, isl in enumerate(self.islands)}

    def grid(self) -> list[list[int]]:
        """The board as rows of numbers, 0 for an empty cell (ignored islands left out)."""
        cells = [[0] * self.cols for _ in range(self.rows)]
        for isl in self.islands:
            cells[isl.row][isl.col] = isl.number
        return cells

    @classmethod
    def from_grid(cls, grid: Sequence[Sequence[int]], maxbridges: int = DEFAULT_MAXBRIDGES,
                  no_loops: bool = False) -> "Puzzle":
        """Build from rows of numbers (0 = empty).  Rows must all have the same length."""
        rows = len(grid)
        if rows == 0:
            raise PuzzleError("the puzzle has no rows")
        cols = len(grid[0])
        islands = []
        for r, line in enumerate(grid):
            if len(line) != cols:
                raise PuzzleError(f"row {r + 1} has {len(line)} cells, row 1 has {cols}", r, None)
            islands.extend(Island(r, c, v) for c, v in enumerate(line) if v)
        return cls(rows, cols, islands, maxbridges, no_loops=no_loops)

    # -- derived structure -----------------------------------------------------
    @cached_property
    @_collector_paused
    def links(self) -> tuple[Link, ...]:
        """Candidate links: horizontal ones first (row-major), then vertical (column-major)."""
        isl = self.islands
        n = len(isl)
        rows = list(map(itemgetter(0), isl))
        # row-major order: neighbours in a row are consecutive
        left = list(compress(range(n - 1), map(eq, rows, rows[1:])))
        links = list(map(tuple.__new__, repeat(Link), zip(left, [i + 1 for i in left], repeat(True))))
        columns: dict[int, list[int]] = {}  # each column's islands, top to bottom
        for i, col in enumerate(map(itemgetter(1), isl)):
            if col in columns:
                columns[col].append(i)
            else:
                columns[col] = [i]
        for col in sorted(columns):
            above = columns[col]
            if len(above) > 1:
                links.extend(map(tuple.__new__, repeat(Link), zip(above, above[1:], repeat(False))))
        return tuple(links)

    @cached_property
    @_collector_paused
    def link_cells(self) -> tuple[tuple[Pos, Pos], ...]:
        """For each link, the cells of its two islands (as a solution's bridges name them)."""
        isl = self.islands
        return tuple(((isl[a].row, isl[a].col), (isl[b].row, isl[b].col)) for a, b, _horizontal in self.links)

    @cached_property
    @_collector_paused
    def link_ranks(self) -> tuple[int, ...]:
        """For each link, twice its first end's index, plus 1 for a link down: the links' order by
        their ends' cells (the order of a solution's bridges)."""
        return tuple([a + a + (not horizontal) for a, _b, horizontal in self.links])

    @cached_property
    @_collector_paused
    def link_index(self) -> dict[tuple[int, int], int]:
        """Link index by ``(a, b)`` island indices with ``a < b``."""
        return {(ln.a, ln.b): k for k, ln in enumerate(self.links)}

    @cached_property
    @_collector_paused
    def incident(self) -> tuple[tuple[int, ...], ...]:
        """For each island, the indices of the links that touch it."""
        inc: list[list[int]] = [[] for _ in self.islands]
        for k, ln in enumerate(self.links):
            inc[ln.a].append(k)
            inc[ln.b].append(k)
        return tuple(tuple(x) for x in inc)

    def neighbours(self, i: int) -> list[int]:
        """Islands that island ``i`` can reach by a link."""
        out = []
        for k in self.incident[i]:
            ln = self.links[k]
            out.append(ln.b if ln.a == i else ln.a)
        return out

    def other_end(self, k: int, i: int) -> int:
        ln = self.links[k]
        return ln.b if ln.a == i else ln.a

    @cached_property
    @_collector_paused
    def crossings(self) -> tuple[tuple[int, int], ...]:
        """Pairs ``(h, v)`` of link indices, ``h`` horizontal and ``v`` vertical, that cross.

        Found by sweeping the rows from the top: ``active[c]`` holds the vertical link whose
        interior the sweep is in at column ``c`` (0 for none: a vertical link's index is never 0
        where a horizontal link exists), and each horizontal link reads the columns between its
        ends.  The pairs come out sorted: horizontal links are in row-major order, and along a
        row the vertical links' indices grow with their column."""
        isl, links = self.islands, self.links
        across = bisect_left(links, True, key=_is_vertical)  # the horizontal links come first
        if not across or across == len(links):
            return ()
        opens: dict[int, list[tuple[int, int]]] = {}  # row -> (column, link) whose interior starts there
        closes: dict[int, list[int]] = {}  # row -> columns whose vertical link ends there
        for v in range(across, len(links)):
            a, b, _ = links[v]
            top, col, _ = isl[a]
            bottom = isl[b][0]
            if bottom - top > 1:
                if top + 1 in opens:
                    opens[top + 1].append((col, v))
                else:
                    opens[top + 1] = [(col, v)]
                if bottom in closes:
                    closes[bottom].append(col)
                else:
                    closes[bottom] = [col]
        events = sorted(opens.keys() | closes.keys())
        active = [0] * self.cols
        pairs: list[tuple[int, int]] = []
        extend, nothing = pairs.extend, ()
        e, last = 0, len(events)
        for h in range(across):
            a, b, _ = links[h]
            row, left, _ = isl[a]
            while e < last and events[e] <= row:
                at = events[e]
                e += 1
                for col in closes.get(at, nothing):
                    active[col] = 0
                for col, v in opens.get(at, nothing):
                    active[col] = v
            extend(zip(repeat(h), filter(None, active[left + 1:isl[b][1]])))
        return tuple(pairs)

    @cached_property
    @_collector_paused
    def crossing_partners(self) -> tuple[tuple[int, ...], ...]:
        """For each link, the links that cross it."""
        out: list[list[int]] = [[] for _ in self.links]
        for h, v in self.crossings:
            out[h].append(v)
            out[v].append(h)
        return tuple(tuple(x) for x in out)

    @cached_property
    def link_capacities(self) -> tuple[int, ...]:
        """For each link, the most bridges it can carry: MAXBRIDGES, and no more than either
        end's number (worked out once; a puzzle's numbers never change)."""
        number = [isl.number for isl in self.islands].__getitem__
        links = self.links
        return tuple(map(min, repeat(self.maxbridges, len(links)), map(number, map(itemgetter(0), links)),
                         map(number, map(itemgetter(1), links))))

    def link_capacity(self, k: int) -> int:
        """Most bridges link ``k`` can carry (see :attr:`link_capacities`)."""
        return self.link_capacities[k]

    def capacity_problems(self) -> list[str]:
        """Islands whose number their links cannot reach even with every link full.

        Such a puzzle has no solution; the message names the island and the numbers.
        Worked out once per puzzle (every use-case admits its puzzle; the web app twice).
        """
        known = self.__dict__.get("_capacity_problems")
        if known is not None:
            return list(known)
        problems = []
        capacity, incident = self.link_capacities.__getitem__, self.incident
        for i, isl in enumerate(self.islands):
            cap = sum(map(capacity, incident[i]))
            if isl.number > cap:
                nbrs = len(self.incident[i])
                where = f"the {isl.number} at {describe_cell(isl.row, isl.col)}"
                if not nbrs:
                    problems.append(f"{where} cannot reach any island")
                    continue
                most = f"at most {cap} bridge{'s' if cap != 1 else ''}"
                problems.append(
                    f"{where} needs {isl.number} bridges, but its "
                    + ("one neighbour" if nbrs == 1 else f"{nbrs} neighbours")
                    + f" can take {most} (up to {self.maxbridges} between a pair, and no more than a neighbour's number)")
        self.__dict__["_capacity_problems"] = tuple(problems)
        return problems


def _is_vertical(link: Link) -> bool:
    return not link[2]


BridgeKey = tuple[Pos, Pos]


class Solution:
    """Bridges as a mapping ``((r1, c1), (r2, c2)) -> count`` with ``(r1, c1) < (r2, c2)``.

    A Solution is only data: it may describe bridges that break the rules (that is
    what ``hashikit.checker.check`` is for).  Zero counts are dropped.
    """

    __slots__ = ("bridges",)

    def __init__(self, bridges: Mapping[BridgeKey, int] | Iterable[tuple[BridgeKey, int]] = ()):
        items = bridges.items() if isinstance(bridges, Mapping) else bridges
        out: dict[BridgeKey, int] = {}
        for (p, q), count in items:
            p, q = tuple(p), tuple(q)
            key = (p, q) if p <= q else (q, p)
            if key in out:
                raise PuzzleError(f"the bridge between {describe_cell(*key[0])} and "
                                  f"{describe_cell(*key[1])} is listed twice", *key[0])
            if count:
                out[key] = count
        self.bridges: dict[BridgeKey, int] = dict(sorted(out.items()))

    @classmethod
    def from_list(cls, rows: Iterable[Sequence[int]]) -> "Solution":
        """From ``[r1, c1, r2, c2, count]`` rows (the JSON form)."""
        items = []
        for row in rows:
            if len(row) != 5 or any(isinstance(v, bool) or not isinstance(v, int) for v in row):
                raise PuzzleError(f"a bridge must be [r1, c1, r2, c2, count] of integers, got {row!r}")
            r1, c1, r2, c2, k = row
            items.append((((r1, c1), (r2, c2)), k))
        return cls(items)

    @classmethod
    def from_counts(cls, puzzle: Puzzle, counts: Sequence[int]) -> "Solution":
        """From bridge counts aligned with ``puzzle.links``."""
        isl, links = puzzle.islands, puzzle.links
        if len(counts) != len(links):
            return cls({(isl[ln.a].pos, isl[ln.b].pos): c for ln, c in zip(links, counts) if c})
        # the keys in order without comparing them: a link's key is its ends' cells, the first end
        # the one above or to the left, so the keys sort as the links' first ends do (the islands
        # are in row-major order), a link across before the one down from the same island
        rank = puzzle.link_ranks
        used = sorted(compress(range(len(links)), counts), key=rank.__getitem__)
        cells = list(zip(map(itemgetter(0), isl), map(itemgetter(1), isl))).__getitem__
        ends = list(map(links.__getitem__, used))
        out = object.__new__(cls)
        out.bridges = dict(zip(zip(map(cells, map(itemgetter(0), ends)), map(cells, map(itemgetter(1), ends))),
                               map(counts.__getitem__, used)))
        return out

    def counts(self, puzzle: Puzzle) -> list[int]:
        """Counts aligned with ``puzzle.links``; raises PuzzleError for a bridge on no link."""
        out = [0] * len(puzzle.links)
        index, link_index = puzzle.index, puzzle.link_index
        for (p, q), c in self.bridges.items():
            a, b = index.get(p), index.get(q)
            k = link_index.get((a, b)) if a is not None and b is not None else None
            if k is None:
                raise PuzzleError(f"no link joins {describe_cell(*p)} and {describe_cell(*q)}", *p)
            out[k] = c
        return out

    def to_list(self) -> list[list[int]]:
        return [[p[0], p[1], q[0], q[1], c] for (p, q), c in self.bridges.items()]

    def __iter__(self) -> Iterator[tuple[BridgeKey, int]]:
        return iter(self.bridges.items())

    def __len__(self) -> int:
        return len(self.bridges)

    def __eq__(self, other) -> bool:
        if not isinstance(other, Solution):
            return NotImplemented
        return self.bridges == other.bridges

    def __hash__(self) -> int:
        return hash(frozenset(self.bridges.items()))

    def __repr__(self) -> str:
        return f"Solution({self.to_list()!r})"

    def total(self) -> int:
        return sum(self.bridges.values())
