"""Property-based attacks on every reader and writer (Hypothesis).

* Random and mutated text never makes a reader raise anything but hashikit's own errors
  (HashikitError), never hangs (a per-example deadline), and what it accepts respects the
  limits it was given.
* Every format reads back what it writes, wherever it can hold the data (random puzzles and
  non-crossing solutions, MAXBRIDGES 1 to 4, neighbouring islands, the no-loops variant); a
  writer may refuse only what its format cannot hold, and then with a FormatError.

The default run is small (a few seconds); ``pytest -m slow`` runs many more examples.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from hashikit.errors import FormatError, HashikitError
from hashikit.formats import formats, read_text, write_text
from hashikit.limits import Limits
from hashikit.model import Puzzle, Solution

FORMATS = formats()
READABLE = sorted(n for n, f in FORMATS.items() if f.read)
WRITABLE = sorted(n for n, f in FORMATS.items() if f.write)
ROUND_TRIP = sorted(n for n, f in FORMATS.items() if f.read and f.write)

_HEALTH = [HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large]
FAST = settings(max_examples=12, deadline=2000, suppress_health_check=_HEALTH, derandomize=True)
SLOW = settings(max_examples=600, deadline=4000, suppress_health_check=_HEALTH)
BUDGETS = [pytest.param(FAST, id="fast"), pytest.param(SLOW, id="slow", marks=pytest.mark.slow)]

#: small caps, so that hostile sizes are met in a few characters
TIGHT = Limits(max_side=6, max_cells=30, max_islands=9, max_maxbridges=3, max_input_bytes=4000,
               max_time_limit=None, default_time_limit=None)

#: characters and tokens the formats give meaning to, and hostile ones
TOKENS = ["\n", " ", ".", "0", "1", "2", "4", "8", "9", "A", "G", "a", "z", "-", "=", "|", '"', "$", "_",
          "#", ":", "/", ",", "x", "m", "L", "i", "e", "d", "+", "-1", "{", "}", "[", "]", "\"bridges\"",
          "\"rows\"", "\"islands\"", "\"no_loops\"", "true", "null", "─", "║", "²", "٣", "１", "\u00a0",
          "9" * 5000, "10000", "4000001", "-0", "1e999", "# spaced", "# maxbridges: 9", "# no-loops",
          "pzprv3", "hashikake", "https://puzz.link/p?hashikake/", "\r\n", "\x00", "\ufeff"]
token_text = st.lists(st.sampled_from(TOKENS), max_size=40).map("".join)
any_text = st.one_of(token_text, st.text(max_size=120))


# -- random boards -------------------------------------------------------------------------

@st.composite
def boards(draw, max_side: int = 7, maxbridges=(1, 2, 3, 4)):
    """A random puzzle and a random non-crossing set of bridges on its links (numbers = degrees)."""
    rows = draw(st.integers(1, max_side))
    cols = draw(st.integers(1, max_side))
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    chosen = draw(st.lists(st.sampled_from(cells), min_size=1, max_size=len(cells), unique=True))
    maxb = draw(st.sampled_from(maxbridges))
    no_loops = draw(st.booleans())
    shape = Puzzle(rows, cols, [(r, c, 4 * maxb) for r, c in chosen], maxb)
    isl = shape.islands
    blocked: set[int] = set()
    counts = [0] * len(shape.links)
    order = draw(st.permutations(range(len(shape.links))))
    for k in order:
        if k in blocked or not draw(st.booleans()):
            continue
        counts[k] = draw(st.integers(1, maxb))
        blocked.update(shape.crossing_partners[k])
    degree = {i.pos: 0 for i in isl}
    for ln, k in zip(shape.links, counts):
        degree[isl[ln.a].pos] += k
        degree[isl[ln.b].pos] += k
    numbers = {pos: d if d else draw(st.integers(1, 4 * maxb)) for pos, d in degree.items()}
    puzzle = Puzzle(rows, cols, [(r, c, numbers[(r, c)]) for r, c in chosen], maxb, no_loops=no_loops)
    solution = Solution.from_counts(puzzle, counts) if any(counts) else None
    return puzzle, solution


def _adjacent(solution: Solution | None) -> bool:
    return solution is not None and any(abs(p[0] - q[0]) + abs(p[1] - q[1]) == 1 for (p, q), _ in solution)


def holds(fmt: str, puzzle: Puzzle, solution: Solution | None) -> bool:
    """Whether ``fmt`` can hold this puzzle (and solution): where a writer may not refuse."""
    f = FORMATS[fmt]
    numbers = [i.number for i in puzzle.islands]
    if puzzle.no_loops and not f.holds_no_loops:
        return False
    if fmt in ("puzzlink", "ohmec", "pzprv3") and puzzle.maxbridges != 2:
        return False
    if fmt == "ohmec" and max(numbers) > 9:
        return False
    if solution is None:
        return not f.needs_solution
    big = any(k > 2 for _, k in solution)
    if fmt in ("solved", "solved-unicode", "pzprv3") and big:
        return False
    if fmt == "ohmec" and (big or _adjacent(solution)):
        return False
    return True


def _same_solution(fmt: str, got: Solution | None, want: Solution | None) -> bool:
    if not FORMATS[fmt].has_solution:
        return True
    return (got or Solution()) == (want or Solution())


# -- properties ------------------------------------------------------------------------------

@pytest.mark.parametrize("budget", BUDGETS)
@pytest.mark.parametrize("fmt", ROUND_TRIP)
def test_every_format_reads_back_what_it_writes(fmt, budget):
    @budget
    @given(board=boards())
    def run(board):
        puzzle, solution = board
        given_solution = solution if FORMATS[fmt].has_solution else None
        try:
            text = write_text(puzzle, fmt, given_solution)
        except FormatError:
            assert not holds(fmt, puzzle, given_solution), f"{fmt} refused what it can hold"
            return
        assert holds(fmt, puzzle, given_solution), f"{fmt} wrote what it cannot hold:\n{text}"
        doc = read_text(text, fmt)
        assert doc.puzzle == puzzle, text
        assert _same_solution(fmt, doc.solution, given_solution), text
        if fmt != "grid" and not (fmt == "csv" and puzzle.cols == 1):  # recognised by content, as
            # standard input is (a one-column CSV grid is a plain grid too: no comma to tell)
            again = read_text(text, None)
            assert again.puzzle == puzzle, text

    run()


@pytest.mark.parametrize("budget", BUDGETS)
@pytest.mark.parametrize("fmt", READABLE + [None])
def test_random_text_gives_only_hashikit_errors(fmt, budget):
    @budget
    @given(text=any_text)
    def run(text):
        for limits in (TIGHT, None):
            try:
                doc = read_text(text, fmt) if limits is None else read_text(text, fmt, limits=limits)
            except HashikitError:
                continue
            if limits is not None and doc.puzzle is not None:
                _within(doc.puzzle, limits)

    run()


@st.composite
def mutated(draw, fmt: str):
    """A text ``fmt`` wrote, with a few characters replaced, inserted or deleted."""
    only_two = fmt in ("puzzlink", "ohmec", "pzprv3")
    puzzle, solution = draw(boards(max_side=5, maxbridges=(2,) if only_two else (1, 2, 3, 4)))
    assume(holds(fmt, puzzle, solution if FORMATS[fmt].has_solution else None))
    text = write_text(puzzle, fmt, solution if FORMATS[fmt].has_solution else None)
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        op = draw(st.sampled_from(("replace", "insert", "delete")))
        token = draw(st.sampled_from(TOKENS))
        if op == "insert":
            text = text[:at] + token + text[at:]
        elif op == "replace":
            text = text[:at] + token + text[at + 1:]
        else:
            text = text[:at] + text[at + draw(st.integers(1, 3)):]
    return text


@pytest.mark.parametrize("budget", BUDGETS)
@pytest.mark.parametrize("fmt", ROUND_TRIP)
def test_mutated_text_gives_only_hashikit_errors(fmt, budget):
    @budget
    @given(data=st.data())
    def run(data):
        text = data.draw(mutated(fmt))
        for limits in (TIGHT, None):
            for name in (fmt, None):
                try:
                    doc = read_text(text, name) if limits is None else read_text(text, name, limits=limits)
                except HashikitError:
                    continue
                if limits is not None and doc.puzzle is not None:
                    _within(doc.puzzle, limits)
                if doc.puzzle is not None and doc.solution is not None:
                    _on_board(doc.puzzle, doc.solution)

    run()


@pytest.mark.parametrize("budget", BUDGETS)
@pytest.mark.parametrize("fmt", WRITABLE)
def test_writers_refuse_hostile_bridges_with_a_format_error(fmt, budget):
    """Bridges off the board or with absurd counts (a library caller's Solution) are refused."""
    @budget
    @given(board=boards(max_side=4), r=st.integers(-10 ** 400, 10 ** 400), c=st.integers(-3, 10 ** 9),
           k=st.one_of(st.integers(-5, 5), st.just(2 ** 63), st.just(10 ** 8)))
    def run(board, r, c, k):
        puzzle, _ = board
        p = puzzle.islands[0].pos
        assume((r, c) != p and k != 0)  # a zero count is no bridge (Solution drops it)
        hostile = Solution({(p, (r, c)): k})
        try:
            text = write_text(puzzle, fmt, hostile)
        except HashikitError:
            return
        assert len(text) < 100_000
        on_board = 0 <= r < puzzle.rows and 0 <= c < puzzle.cols
        assert on_board and (k == 0 or 1 <= k <= 64), f"{fmt} wrote a hostile bridge {(p, (r, c), k)}"

    run()


def _within(puzzle: Puzzle, limits: Limits) -> None:
    assert puzzle.rows <= limits.max_side and puzzle.cols <= limits.max_side
    assert puzzle.rows * puzzle.cols <= limits.max_cells
    assert len(puzzle.islands) + len(puzzle.ignored) <= limits.max_islands
    assert puzzle.maxbridges <= limits.max_maxbridges


def _on_board(puzzle: Puzzle, solution: Solution) -> None:
    for (p, q), k in solution:
        for r, c in (p, q):
            assert 0 <= r < puzzle.rows and 0 <= c < puzzle.cols
        assert 1 <= k
