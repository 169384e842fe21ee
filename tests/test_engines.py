"""The three engines (sat, milp, cpsat): small hand-made puzzles, infeasibility, time limits,
MAXBRIDGES 3, and agreement with each other (and the rule checker) on real puzzles and on
instances of Coelho et al. (2019).

An engine whose package is missing is skipped with the pip command that installs it.
Shared data lives in ``/work/shared`` (next to the repository); tests that need it
skip when it is absent.  The whole file runs in about 20 s.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from hashikit.checker import check
from hashikit.formats import read_file
from hashikit.model import Puzzle
from hashikit.solvers import search
from hashikit.solvers import Status, solve

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(__file__).resolve().parents[2] / "shared"
COELHO = SHARED / "benchmarks" / "coelho2019"
REAL = SHARED / "puzzles" / "real"

#: engine -> the package it needs (None: always installed)
NEEDS = {"sat": None, "milp": "pyscipopt", "cpsat": "ortools", "search": None}
ENGINES = list(NEEDS)


def _need(engine: str) -> None:
    module = NEEDS[engine]
    if module:
        pytest.importorskip(module, reason=f"engine {engine!r} needs {module}: "
                                           f"pip install 'hashikit[{engine}]'")


@pytest.fixture(params=ENGINES)
def engine(request):
    _need(request.param)
    return request.param


def _solve_checked(puzzle: Puzzle, engine: str, **options):
    result = solve(puzzle, engine=engine, **options)
    assert result.engine == engine
    assert result.stats["time"] >= 0
    if result.status is Status.SOLVED:
        report = check(puzzle, result.solution)
        assert report.ok, f"{engine}: {report}"
    else:
        assert result.solution is None
    return result


def read_has(path: Path) -> Puzzle:
    """Coelho et al.'s ``.has``: ``rows cols n`` then rows of numbers."""
    lines = path.read_text().split("\n")
    rows, cols, _n = map(int, lines[0].split())
    grid = [list(map(int, line.split())) for line in lines[1:1 + rows]]
    return Puzzle.from_grid(grid)


# -- small puzzles ---------------------------------------------------------------

def test_prob_example(engine):
    puzzle = read_file(str(ROOT / "examples" / "prob-bridges.txt")).puzzle
    result = _solve_checked(puzzle, engine)
    assert result.status is Status.SOLVED


@pytest.mark.parametrize("grid", [
    [[1, 1]],
    [[2, 0, 2]],
    [[1, 0, 2, 0, 1]],
    [[3, 0, 2], [0, 0, 0], [1, 0, 0]],
    [[2, 0, 3, 0, 2], [0, 0, 0, 0, 0], [2, 0, 3, 0, 2]],
], ids=["pair", "double", "chain", "corner", "ladder"])
def test_small_solved(engine, grid):
    assert _solve_checked(Puzzle.from_grid(grid), engine).status is Status.SOLVED


def test_single_island_infeasible_or_trivial(engine):
    # one island with a number has no neighbour: the capacity count says infeasible
    result = _solve_checked(Puzzle.from_grid([[0, 1, 0]]), engine)
    assert result.status is Status.INFEASIBLE
    assert result.reason


#: Four 2s on a square: one cycle of single bridges (connected), or two double
#: pairs (disconnected).  SAT and CP-SAT meet a disconnected candidate first and
#: need cuts; the ILP's weak inequality (4 used links >= 3) rules the pairs out.
SQUARE = [[2, 0, 2], [0, 0, 0], [2, 0, 2]]
#: As SQUARE with six 2s: three cuts (one per double pair) for the lazy engines.
RING6 = [[2, 0, 2, 0, 2], [0, 0, 0, 0, 0], [2, 0, 2, 0, 2]]


@pytest.mark.parametrize("grid", [SQUARE, RING6], ids=["square", "ring6"])
def test_needs_connectivity_cuts(engine, grid):
    puzzle = Puzzle.from_grid(grid)
    # sat's implied clauses forbid isolated pairs outright; without them it needs cuts
    result = _solve_checked(puzzle, engine, **({"implied": False} if engine == "sat" else {}))
    assert result.status is Status.SOLVED
    assert len(result.solution) == len(puzzle.islands)  # the cycle: every link single
    if engine == "search":  # the sums allow the isolated pairs: a choice, refused by connectivity
        assert result.stats["nodes"] > 0
    elif engine != "milp":
        assert result.stats["cuts"] > 0


def test_milp_without_weak_inequality():
    _need("milp")
    for grid in (SQUARE, RING6, [[2, 0, 3, 0, 2], [0, 0, 0, 0, 0], [2, 0, 3, 0, 2]]):
        for fractional in (True, False):
            result = _solve_checked(Puzzle.from_grid(grid), "milp", weak=False, fractional=fractional)
            assert result.status is Status.SOLVED
            assert result.stats["weak"] is False


def test_infeasible_four_ones(engine):
    # passes the capacity count (each 1 has two neighbours) but four 1s make two
    # bridges, and four islands need three to be connected
    puzzle = Puzzle.from_grid([[1, 0, 1], [0, 0, 0], [1, 0, 1]])
    assert not puzzle.capacity_problems()
    assert _solve_checked(puzzle, engine).status is Status.INFEASIBLE


#: Infeasible only through connectivity: the degrees and crossings can be met,
#: even with at least n - 1 used links, but never by a connected set of bridges.
CONN_INFEASIBLE = [
    [[0, 2, 2], [0, 2, 2], [1, 1, 0]],
    [[3, 2, 0, 0], [0, 0, 2, 0], [4, 3, 2, 0], [0, 0, 0, 0]],
]


@pytest.mark.parametrize("grid", CONN_INFEASIBLE, ids=["square-and-pair", "mixed"])
def test_infeasible_only_through_connectivity(engine, grid):
    puzzle = Puzzle.from_grid(grid)
    assert not puzzle.capacity_problems()
    assert _solve_checked(puzzle, engine).status is Status.INFEASIBLE
    result = _solve_checked(puzzle, engine, **({"implied": False} if engine == "sat" else {}))
    assert result.status is Status.INFEASIBLE
    assert result.reason
    if engine == "search":  # the sums and crossings allow it; connectivity alone refuses it
        assert result.reason == search.NO_ASSIGNMENT
    elif engine != "milp":
        assert result.stats["cuts"] > 0
    else:
        # without the weak inequality the LP cannot see it: cuts must do the work
        for fractional in (True, False):
            plain = _solve_checked(puzzle, "milp", weak=False, fractional=fractional)
            assert plain.status is Status.INFEASIBLE
            assert plain.stats["cuts"] > 0


def test_link_graph_disconnected(engine):
    # two pairs with no possible link between them
    puzzle = Puzzle.from_grid([[1, 1, 0], [0, 0, 0], [0, 1, 1]])
    assert _solve_checked(puzzle, engine).status is Status.INFEASIBLE


def test_maxbridges_three(engine):
    # the 6 needs three bridges to each neighbour: only possible with MAXBRIDGES 3
    grid = [[6, 0, 3], [0, 0, 0], [3, 0, 0]]
    assert Puzzle.from_grid(grid).capacity_problems()
    puzzle = Puzzle.from_grid(grid, maxbridges=3)
    result = _solve_checked(puzzle, engine)
    assert result.status is Status.SOLVED
    assert sorted(result.solution.bridges.values()) == [3, 3]
    bigger = Puzzle.from_grid([[3, 0, 5, 0, 2], [0, 0, 0, 0, 0], [3, 0, 4, 0, 1]], maxbridges=3)
    assert _solve_checked(bigger, engine).status is Status.SOLVED


def test_stats(engine):
    result = _solve_checked(Puzzle.from_grid(SQUARE), engine)
    assert {"time", "nodes" if engine == "search" else "cuts"} <= set(result.stats)
    if engine == "milp":
        assert {"nodes", "weak"} <= set(result.stats)
        assert result.stats["weak"] is True


# -- shared data -------------------------------------------------------------------

def _coelho_files(size: str | None = None) -> list[Path]:
    if not COELHO.is_dir():
        pytest.skip(f"shared benchmark data not found at {COELHO}")
    files = sorted((COELHO / size if size else COELHO).glob("**/*.has"))
    if not files:
        pytest.skip(f"no .has files under {COELHO}")
    return files


def test_time_limit_never_wrong_infeasible(engine):
    files = [f for f in _coelho_files("400") if "_75_" in f.name]
    puzzle = read_has(files[0])
    result = _solve_checked(puzzle, engine, time_limit=1e-6)
    assert result.status in (Status.UNKNOWN, Status.SOLVED)
    assert result.stats["time"] < 30


def test_time_limit_stops_the_search(engine):
    # long enough to build the model and start; far shorter than milp needs on this one
    files = [f for f in _coelho_files("400") if "_75_" in f.name]
    puzzle = read_has(files[1])
    result = _solve_checked(puzzle, engine, time_limit=0.3)
    assert result.status in (Status.UNKNOWN, Status.SOLVED)
    assert result.stats["time"] < 5


def _real_puzzles():
    if not REAL.is_dir():
        return [pytest.param(None, marks=pytest.mark.skip(reason=f"shared puzzles not found at {REAL}"))]
    out = []
    for path in sorted(REAL.glob("*/*.jsonl")):
        for n, line in enumerate(path.read_text().splitlines(), start=1):
            if line.strip():
                out.append(pytest.param(json.loads(line), id=f"{path.parent.name}-{n}"))
    return out


#: seconds the search engine (depth-first in pure Python, for small boards) gets on these boards:
#: the Coelho instances of 300 and 400 islands are beyond it; an answer it gives must agree
SEARCH_TIME_LIMIT = 2.0


def _agree(puzzle: Puzzle) -> dict[str, Status]:
    statuses = {}
    for name in ENGINES:
        if NEEDS[name]:
            pytest.importorskip(NEEDS[name], reason=f"engine {name!r} needs {NEEDS[name]}")
        limit = {"time_limit": SEARCH_TIME_LIMIT} if name == "search" else {}
        statuses[name] = _solve_checked(puzzle, name, **limit).status
    if statuses.get("search") is Status.UNKNOWN:
        del statuses["search"]
    assert len(set(statuses.values())) == 1, statuses
    return statuses


@pytest.mark.parametrize("record", _real_puzzles())
def test_engines_agree_real(record):
    puzzle = Puzzle.from_grid(record["grid"], maxbridges=record.get("maxb", 2))
    statuses = _agree(puzzle)
    expected = record.get("solvable")
    if expected is not None:
        assert statuses["sat"] is (Status.SOLVED if expected else Status.INFEASIBLE)


def _coelho_sample(k: int, seed: int, small: bool):
    if not COELHO.is_dir():
        return [pytest.param(None, marks=pytest.mark.skip(reason=f"shared benchmark data not found at {COELHO}"))]
    files = sorted(COELHO.glob("**/*.has"))
    if small:
        files = [f for f in files if f.parent.name == "100"]
    picked = random.Random(seed).sample(files, min(k, len(files)))
    return [pytest.param(f, id=f.name) for f in picked]


# a fixed random sample over all sizes; about 15 s for the three engines together
@pytest.mark.parametrize("path", _coelho_sample(10, 2019, small=False))
def test_engines_agree_coelho(path):
    _agree(read_has(path))
