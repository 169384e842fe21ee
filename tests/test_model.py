import pytest

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
