"""The default SAT engine through the solver interface; every answer goes through the checker."""

import pytest

from hashikit import Puzzle, Status, check, solve
from hashikit.solvers import ENGINES, get_engine
from hashikit.errors import SolverUnavailable

from conftest import coelho_sample, need, COELHO, random_puzzle, read_has
from test_model import prob_puzzle


def solved_and_valid(puzzle, **kw):
    r = solve(puzzle, **kw)
    assert r.status is Status.SOLVED, r
    for s in r.solutions:
        report = check(puzzle, s)
        assert report.ok, report
    return r


def test_prob_example_gives_the_page_solution_which_is_unique():
    p = prob_puzzle()
    r = solved_and_valid(p, max_solutions=2)
    assert r.unique is True
    # uniqueness is proved, so the page's solution is the one answer
    page = {((0, 0), (3, 0)): 2, ((0, 0), (0, 5)): 2, ((3, 0), (5, 0)): 2, ((3, 0), (3, 2)): 2,
            ((5, 0), (5, 3)): 1, ((1, 1), (1, 2)): 1, ((4, 1), (4, 2)): 2, ((1, 2), (3, 2)): 2,
            ((1, 2), (1, 4)): 1, ((3, 2), (4, 2)): 2, ((2, 3), (5, 3)): 2, ((2, 3), (2, 5)): 1,
            ((0, 5), (2, 5)): 2, ((2, 5), (4, 5)): 2}
    assert r.solution.bridges == dict(sorted(page.items()))
    assert r.stats["time"] >= 0 and r.stats["rounds"] >= 1


def test_connectivity_cuts_are_added_when_needed():
    # two 1-1 pairs would satisfy every degree; connectivity forces the 2s to be used
    p = Puzzle.from_grid([[1, 0, 2, 0, 1],
                          [0, 0, 0, 0, 0],
                          [1, 0, 2, 0, 1]])
    assert solve(p).status is Status.INFEASIBLE  # 8 bridge ends = 4 bridges < 5 needed to join 6 islands
    q = Puzzle.from_grid([[2, 0, 2], [0, 0, 0], [1, 0, 1]])  # 2=2 and 1-1 meet every number but split
    r = solved_and_valid(q)
    assert r.solution.bridges == {((0, 0), (0, 2)): 1, ((0, 0), (2, 0)): 1, ((0, 2), (2, 2)): 1}


def test_infeasible_by_connectivity_only():
    # four 1s: the implied "no isolated pair" clauses alone prove it
    r = solve(Puzzle.from_grid([[1, 0, 1], [0, 0, 0], [1, 0, 1]]))
    assert r.status is Status.INFEASIBLE and r.solution is None and "SAT solver" in r.reason
    # 1-2-1 over 1-2-1: every number can be met, but never connected: it takes cut clauses
    r = solve(Puzzle.from_grid([[1, 0, 2, 0, 1], [0, 0, 0, 0, 0], [1, 0, 2, 0, 1]]))
    assert r.status is Status.INFEASIBLE and r.stats["cuts"] > 0


def test_infeasible_by_capacity_has_a_simple_reason():
    r = solve(Puzzle.from_grid([[3, 0, 1]]))
    assert r.status is Status.INFEASIBLE and "row 1, column 1" in r.reason


@pytest.mark.parametrize("maxb", [1, 3, 4])
def test_other_maxbridges(maxb):
    for seed in range(4):
        p, _ = random_puzzle(9, 9, seed, maxbridges=maxb)
        solved_and_valid(p)


def test_enumeration_finds_distinct_valid_solutions_and_knows_when_it_is_done():
    # a ring of four 2s: either all four single bridges, or two doubles -- doubles disconnect,
    # so the only solution is the ring
    ring = Puzzle.from_grid([[2, 0, 2], [0, 0, 0], [2, 0, 2]])
    r = solved_and_valid(ring, max_solutions=10)
    assert len(r.solutions) == 1 and r.complete and r.unique is True
    # a ring of four 3s with MAXBRIDGES 2: two of the four links are doubled, opposite ones -> 2 solutions
    p = Puzzle.from_grid([[3, 0, 3], [0, 0, 0], [3, 0, 3]])
    r = solved_and_valid(p, max_solutions=10)
    assert len(set(r.solutions)) == len(r.solutions) == 2 and r.complete and r.unique is False


def test_time_limit_gives_unknown_or_a_valid_answer():
    f = need(COELHO)
    p = read_has(sorted(f.glob("400/*_75_15_*.has"))[0])
    r = solve(p, time_limit=1e-9)
    assert r.status in (Status.UNKNOWN, Status.SOLVED)
    # in a child process ended at the deadline (which may come before the child says which solver runs)
    assert r.stats.get("sat_solver", "cadical195") == "cadical195" and r.stats["process"] == "child"
    if r.status is Status.SOLVED:
        assert check(p, r.solution).ok
    else:
        assert r.solution is None and r.reason is None


def test_registry_names_engines_and_refuses_unknown_ones():
    assert "sat" in ENGINES
    with pytest.raises(ValueError, match="unknown engine"):
        get_engine("nope")


def test_missing_dependency_gives_install_hint(monkeypatch):
    import hashikit.solvers as solvers

    monkeypatch.setitem(solvers.ENGINES, "ghost", ("hashikit_no_such_module_xyz", "test", "hashikit[ghost]"))
    with pytest.raises(SolverUnavailable, match=r"pip install 'hashikit\[ghost\]'"):
        solvers.get_engine("ghost")


def test_coelho_sample_solves_and_checks():
    need(COELHO)
    for f in coelho_sample(12):
        solved_and_valid(read_has(f))


def test_islands_no_link_can_join_are_infeasible_with_a_reason():
    # two pairs of 1s in separate corners: no chain of possible links joins them
    p = Puzzle.from_grid([[1, 1, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 1, 1]])
    r = solve(p)
    assert r.status is Status.INFEASIBLE and "cannot all be joined" in r.reason


@pytest.mark.parametrize("name", ["cadical195", "minisat22"])
@pytest.mark.parametrize("seed", range(12))
def test_cadical_called_directly_answers_as_python_sats_solver(seed, name):
    """The engine calls CaDiCaL (and MiniSat, the generator's proof) straight on python-sat's
    extension (no ``pysat.solvers`` at start-up): the same formula, clause by clause, must give
    the same answers and the same models as python-sat's own ``Solver``, also after clauses added
    between calls."""
    from pysat.solvers import Solver

    from hashikit.solvers.cadical import Cadical, Minisat, extension, minisat_extension, open_solver
    from hashikit.solvers.sat import blocking_clause, encode

    # this python-sat offers the calls: the direct path is the one tested
    assert extension() is not None and minisat_extension() is not None
    puzzle, _ = random_puzzle(6 + seed % 4, 7, seed)
    enc = encode(puzzle)
    with open_solver(name, enc.clauses) as direct, Solver(name=name, bootstrap_with=enc.clauses) as ref:
        assert type(direct) is (Cadical if name == "cadical195" else Minisat)
        for _ in range(6):  # enumerate a few models, excluding each
            answer = direct.solve()
            assert answer == ref.solve()
            if not answer:
                assert direct.get_model() is None
                break
            model = direct.get_model()
            assert model == ref.get_model()
            clause = blocking_clause(enc, enc.counts(model))
            direct.add_clause(clause)
            ref.add_clause(clause)


def test_other_solver_names_go_through_python_sat_and_unknown_ones_are_refused():
    from pysat.solvers import Solver

    from hashikit.solvers.cadical import open_solver, solver_names

    with open_solver("glucose4", [[1, 2], [-1]]) as other:
        assert isinstance(other, Solver) and other.solve() and other.get_model() == [-1, 2]
    assert "cadical195" in solver_names() and "minisat22" in solver_names()
    puzzle = Puzzle.from_grid([[1, 0, 1]])
    assert check(puzzle, solve(puzzle, solver="glucose4").solution).ok
    from hashikit.errors import BadArgument

    with pytest.raises(BadArgument, match="unknown SAT solver 'nosuch'"):
        solve(puzzle, solver="nosuch")
