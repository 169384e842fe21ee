import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hashikit.errors import PuzzleError
from hashikit.model import Island, Link, Puzzle, Solution

from conftest import ROOT

PROB = ROOT / "examples" / "prob-bridges.txt"


def prob_puzzle() -> Puzzle:
    rows = PROB.read_text().split()
    return Puzzle.from_grid([[0 if ch == "." else int(ch) for ch in r] for r in rows])


# the ProB page names islands a..n by (x, y) = (column, row), 1-based
PROB_NAMES = dict(zip("abcdefghijklmn", [(1, 1), (1, 4), (1, 6), (2, 2), (2, 5), (3, 2), (3, 4), (3, 5),
                                          (4, 3), (4, 6), (5, 2), (6, 1), (6, 3), (6, 5)]))


def name_of(p: Puzzle, i: int) -> str:
    isl = p.islands[i]
    return next(n for n, (x, y) in PROB_NAMES.items() if (y - 1, x - 1) == isl.pos)


def test_prob_links_and_conflict_set_match_the_page():
    p = prob_puzzle()
    assert len(p.islands) == 14
    pairs = {frozenset((name_of(p, ln.a), name_of(p, ln.b))) for ln in p.links}
    # every bridge of the page's solution is a candidate link
    for pair in ["ab", "al", "bc", "bg", "cj", "df", "eh", "fg", "fk", "gh", "ij", "im", "lm", "mn"]:
        assert frozenset(pair) in pairs
    conflicts = {frozenset((frozenset((name_of(p, p.links[h].a), name_of(p, p.links[h].b))),
                            frozenset((name_of(p, p.links[v].a), name_of(p, p.links[v].b)))))
                 for h, v in p.crossings}
    assert conflicts == {frozenset((frozenset("de"), frozenset("bg"))),
                         frozenset((frozenset("ij"), frozenset("hn")))}


def test_links_skip_nothing_and_stop_at_the_next_island():
    p = Puzzle.from_grid([[1, 0, 2, 1],
                          [0, 0, 0, 0],
                          [1, 0, 1, 0]])
    got = {(p.islands[ln.a].pos, p.islands[ln.b].pos, ln.horizontal) for ln in p.links}
    assert got == {((0, 0), (0, 2), True), ((0, 2), (0, 3), True), ((2, 0), (2, 2), True),
                   ((0, 0), (2, 0), False), ((0, 2), (2, 2), False)}
    assert all(isinstance(ln, Link) and ln.a < ln.b for ln in p.links)


def test_adjacent_islands_are_legal_and_linked():
    p = Puzzle.from_grid([[1, 1]])
    assert len(p.links) == 1 and p.crossings == ()


def test_crossings_need_interiors_to_meet():
    # the horizontal link row 1 (cols 0..2) crosses the vertical link col 1 (rows 0..2)
    p = Puzzle.from_grid([[0, 1, 0],
                          [1, 0, 1],
                          [0, 1, 0]])
    assert len(p.crossings) == 1
    h, v = p.crossings[0]
    assert p.links[h].horizontal and not p.links[v].horizontal
    # touching at an end is not a crossing
    q = Puzzle.from_grid([[1, 0, 1],
                          [0, 0, 0],
                          [1, 0, 1]])
    assert q.crossings == ()


@pytest.mark.parametrize("maxb", [1, 2, 3, 5])
def test_numbers_go_up_to_four_times_maxbridges(maxb):
    Puzzle(3, 3, [(1, 1, 4 * maxb), (0, 1, maxb), (2, 1, maxb), (1, 0, maxb), (1, 2, maxb)], maxb)
    with pytest.raises(PuzzleError, match=r"from 1 to %d" % (4 * maxb)):
        Puzzle(3, 3, [(1, 1, 4 * maxb + 1)], maxb)


@pytest.mark.parametrize("args, message", [
    ((0, 3, [(0, 0, 1)]), "sides run from 1 to 10,000"),
    ((3, 3, []), "no islands"),
    ((3, 3, [(3, 0, 1)]), "outside"),
    ((3, 3, [(0, 0, 0)]), "from 1 to 8"),
    ((3, 3, [(0, 0, 1), (0, 0, 2)]), "two islands"),
    ((3, 3, [(0, 0, "2")]), "integers"),
    ((3, 3, [(0, 0, 1)], 0), "MAXBRIDGES"),
])
def test_bad_puzzles_are_refused_with_a_reason(args, message):
    with pytest.raises(PuzzleError, match=message):
        Puzzle(*args)


def test_ignored_islands_leave_the_puzzle_and_do_not_block():
    p = Puzzle(1, 3, [(0, 0, 1), (0, 1, 5), (0, 2, 1)], ignore=[(0, 1)])
    assert [i.pos for i in p.islands] == [(0, 0), (0, 2)]
    assert p.ignored == (Island(0, 1, 5),)
    assert len(p.links) == 1  # the ignored island in between does not block the link
    with pytest.raises(PuzzleError, match="holds no island"):
        Puzzle(1, 3, [(0, 0, 1)], ignore=[(0, 1)])


def test_capacity_problems_name_the_island():
    p = Puzzle.from_grid([[5, 0, 1]])
    (msg,) = p.capacity_problems()
    assert "row 1, column 1" in msg and "at most 1" in msg
    assert prob_puzzle().capacity_problems() == []


def test_solution_normalises_and_round_trips_counts():
    p = prob_puzzle()
    s = Solution({((0, 5), (0, 0)): 2, ((0, 0), (3, 0)): 0})
    assert s.bridges == {((0, 0), (0, 5)): 2}
    counts = s.counts(p)
    assert sum(counts) == 2 and Solution.from_counts(p, counts) == s
    assert Solution.from_list(s.to_list()) == s
    with pytest.raises(PuzzleError, match="no link"):
        Solution({((0, 0), (1, 1)): 1}).counts(p)
    with pytest.raises(PuzzleError, match="twice"):
        Solution.from_list([[0, 0, 0, 5, 1], [0, 5, 0, 0, 1]])


def _walked_geometry(p: Puzzle):
    """Links, incidence, crossings and partners worked out by walking the cells one by one (the
    definitions, without the model's sweep): the reference the model's fast geometry must equal."""
    at = {isl.pos: i for i, isl in enumerate(p.islands)}
    horizontal, vertical = [], []
    for i, isl in enumerate(p.islands):
        for dr, dc, out in ((0, 1, horizontal), (1, 0, vertical)):
            r, c = isl.row + dr, isl.col + dc
            while 0 <= r < p.rows and 0 <= c < p.cols and (r, c) not in at:
                r, c = r + dr, c + dc
            if (r, c) in at:
                out.append((i, at[r, c]))
    vertical.sort(key=lambda ab: (p.islands[ab[0]].col, p.islands[ab[0]].row))
    links = [Link(a, b, True) for a, b in horizontal] + [Link(a, b, False) for a, b in vertical]
    incident = [[] for _ in p.islands]
    for k, (a, b, _) in enumerate(links):
        incident[a].append(k)
        incident[b].append(k)
    cells = {}  # interior cell -> the links over it
    for k, (a, b, _) in enumerate(links):
        (r1, c1), (r2, c2) = p.islands[a].pos, p.islands[b].pos
        for r in range(r1, r2 + 1):
            for c in range(c1, c2 + 1):
                if (r, c) not in at:
                    cells.setdefault((r, c), []).append(k)
    crossings = sorted(tuple(sorted(ks, key=lambda k: not links[k].horizontal)) for ks in cells.values() if len(ks) == 2)
    partners = [[] for _ in links]
    for h, v in crossings:
        partners[h].append(v)
        partners[v].append(h)
    return links, incident, crossings, partners


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 14), st.integers(1, 14), st.data())
def test_the_geometry_equals_the_cells_walked(rows, cols, data):
    cells = data.draw(st.sets(st.tuples(st.integers(0, rows - 1), st.integers(0, cols - 1)), min_size=1))
    p = Puzzle(rows, cols, [(r, c, 1) for r, c in cells])
    links, incident, crossings, partners = _walked_geometry(p)
    assert p.links == tuple(links) and all(type(ln) is Link for ln in p.links)
    assert p.incident == tuple(map(tuple, incident))
    assert p.crossings == tuple(crossings)
    assert p.crossing_partners == tuple(map(tuple, partners))
    assert all(type(k) is tuple for k in (p.links, p.incident, p.crossings, p.crossing_partners))


def test_the_geometry_of_a_long_sparse_board():
    # a 10,000-row board: the sweep reads the rows where something starts or ends, not every row
    p = Puzzle(10_000, 5, [(0, 2, 1), (9_999, 2, 1), (5_000, 0, 1), (5_000, 4, 1), (7_000, 1, 1), (7_000, 3, 1)])
    links, incident, crossings, partners = _walked_geometry(p)
    assert (p.links, p.crossings) == (tuple(links), tuple(crossings))
    assert len(p.crossings) == 2


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 10), st.integers(1, 10), st.data())
def test_a_solution_from_counts_is_the_one_its_bridges_make(rows, cols, data):
    # the bridges in the order of their cells, whatever order the links come in
    cells = data.draw(st.sets(st.tuples(st.integers(0, rows - 1), st.integers(0, cols - 1)), min_size=1))
    p = Puzzle(rows, cols, [(r, c, 1) for r, c in cells])
    counts = data.draw(st.lists(st.integers(0, 2), min_size=len(p.links), max_size=len(p.links)))
    made = Solution.from_counts(p, counts)
    by_cells = Solution({(p.islands[a].pos, p.islands[b].pos): c for (a, b, _), c in zip(p.links, counts)})
    assert list(made.bridges.items()) == list(by_cells.bridges.items())
    assert made.counts(p) == counts
