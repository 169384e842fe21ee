"""The engine contract, per engine: what it declares, what it refuses, uniqueness and enumeration,
time limits kept, large MAXBRIDGES, Ctrl-C, and the no-loops variant.

Every solution returned goes through the independent rule checker; no-loops answers are also
checked to be trees (connected with one link fewer than islands).  Timing bounds are generous
(the machine is shared): they catch a limit that is not kept, not a slow engine.
"""

from __future__ import annotations

import functools
import math
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from hashikit.checker import check
from hashikit.errors import BadArgument, UnsupportedOption
from hashikit.limits import TIME_MARGIN, Deadline
from hashikit.model import Puzzle
from hashikit import solvers
from hashikit.solvers import CAPABILITIES, ENGINES, Capabilities, Status, capabilities, solve

from conftest import loaded, REAL, real_records, record_puzzle
from oracle import count_solutions

ROOT = Path(__file__).resolve().parents[1]
#: engine -> the package it needs (None: always installed)
NEEDS = {"sat": None, "milp": "pyscipopt", "cpsat": "ortools", "search": None}


def installed(name: str) -> bool:
    try:
        solvers.get_engine(name)
        return True
    except solvers.SolverUnavailable:
        return False


def engine_params():
    return [name if installed(name) else
            pytest.param(name, marks=pytest.mark.skip(reason=f"{name}: pip install '.[{name}]'"))
            for name in ENGINES]


@pytest.fixture(params=engine_params())
def engine(request):
    return request.param


def engine_cases(*cases, default=()):
    """Parameters (engine, *case) for every installed engine; those not in ``default`` are slow."""
    out = []
    for name in ENGINES:
        for case in cases or [()]:
            key = (name, *case)
            marks = [] if installed(name) else [pytest.mark.skip(reason=f"{name}: pip install '.[{name}]'")]
            if key not in default and (name,) not in default:
                marks.append(pytest.mark.slow)
            out.append(pytest.param(*key, marks=marks, id="-".join(map(str, key))))
    return out


def corners(m: int) -> Puzzle:
    """A 3x3 board with four corner islands numbered m (MAXBRIDGES m): the top and bottom links
    carry a, the sides m - a, so there are m - 1 solutions (a = 1 .. m-1; a ring, all links used)."""
    return Puzzle(3, 3, [(0, 0, m), (0, 2, m), (2, 0, m), (2, 2, m)], maxbridges=m)


@functools.lru_cache(maxsize=2)
def lattice(side: int, seed: int = 0, mb: int = 2) -> Puzzle:
    """A large solvable board made fast: islands on every other cell, each row chained by random
    bridges, the rows joined down the first column (numbers are the bridge ends)."""
    rng = random.Random(seed)
    n = (side + 1) // 2
    deg = [[0] * n for _ in range(n)]
    for i in range(n):
        for j in range(n - 1):
            c = rng.randint(1, mb)
            deg[i][j] += c
            deg[i][j + 1] += c
    for i in range(n - 1):
        c = rng.randint(1, mb)
        deg[i][0] += c
        deg[i + 1][0] += c
    return Puzzle(side, side, [(2 * i, 2 * j, deg[i][j]) for i in range(n) for j in range(n)], mb)


def all_valid(puzzle: Puzzle, result) -> bool:
    return all(check(puzzle, s).ok for s in result.solutions)


def is_tree(puzzle: Puzzle, solution) -> bool:
    """Connected (the checker says so) with one used link fewer than islands: no cycle."""
    return check(puzzle, solution).ok and len(solution.bridges) == len(puzzle.islands) - 1


# -- what the registry declares ------------------------------------------------------------

def test_capabilities_are_declared_for_every_engine_without_importing_it():
    code = ("import sys; import hashikit.solvers as s; "
            "caps = {n: s.capabilities(n) for n in s.ENGINES}; "
            "assert not {'pyscipopt', 'ortools', 'hashikit.solvers.milp', 'hashikit.solvers.cpsat'} & set(sys.modules); "
            "print(sorted(caps))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == str(sorted(ENGINES))
    for name in ENGINES:
        assert name in CAPABILITIES and isinstance(capabilities(name), Capabilities)


def test_unknown_engine_is_refused():
    with pytest.raises(UnsupportedOption, match="unknown engine 'nope'"):
        capabilities("nope")
    with pytest.raises(UnsupportedOption, match="unknown engine"):
        solve(corners(3), engine="nope")


# -- refused up front --------------------------------------------------------------------------

def test_an_option_the_engine_does_not_declare_is_refused(engine):
    accepted = [name for name, _ in capabilities(engine).options]
    with pytest.raises(UnsupportedOption) as info:
        solve(corners(3), engine=engine, no_such_option=1)
    message = str(info.value)
    assert repr(engine) in message and "'no_such_option'" in message
    assert all(name in message for name in accepted)


def test_an_option_of_another_engine_is_refused(engine):
    other = {"sat": ("weak", False), "milp": ("solver", "glucose4"), "cpsat": ("implied", False),
             "search": ("solver", "glucose4")}[engine]
    with pytest.raises(UnsupportedOption, match=other[0]):
        solve(corners(3), engine=engine, **{other[0]: other[1]})


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -float("inf"), 0, 0.0, -1, -1e-9, True, False,
                                   "1", [1], 10**400])
def test_bad_time_limits_are_refused(engine, value):
    with pytest.raises(BadArgument, match="time_limit"):
        solve(corners(3), engine=engine, time_limit=value)


def test_each_engine_module_takes_seconds_or_a_deadline_and_refuses_a_bad_limit(engine):
    """The engine modules themselves (called without ``solvers.solve``) speak the same time
    vocabulary: seconds or a running Deadline, and a negative limit is refused, not taken as past."""
    module = solvers.get_engine(engine)
    assert module(corners(3), time_limit=30).status is Status.SOLVED
    assert module(corners(3), time_limit=Deadline.after(30)).status is Status.SOLVED
    passed = Deadline(time.monotonic() - 1, 1)
    result = module(corners(3), time_limit=passed)
    assert result.status is Status.UNKNOWN and result.stopped == "time limit"
    with pytest.raises(BadArgument, match="time_limit"):
        module(corners(3), time_limit=-1)


@pytest.mark.parametrize("value", [0, -1, True, 1.5, "2", None, float("nan")])
def test_bad_solution_counts_are_refused(engine, value):
    with pytest.raises(BadArgument, match="max_solutions"):
        solve(corners(3), engine=engine, max_solutions=value)


def test_an_option_value_of_the_wrong_type_is_refused(engine):
    if not capabilities(engine).options:
        pytest.skip(f"{engine} declares no option to give a wrong type")
    name, kind = capabilities(engine).options[0]
    wrong = "yes" if kind is not str else 3
    with pytest.raises(BadArgument, match=repr(name)):
        solve(corners(3), engine=engine, **{name: wrong})


def test_huge_but_finite_limits_and_counts_are_taken(engine):
    p = Puzzle.from_grid([[2, 0, 2], [0, 0, 0], [2, 0, 2]])
    r = solve(p, engine=engine, time_limit=1e300, max_solutions=10**30)
    assert r.unique is True and r.stopped is None and all_valid(p, r)


def test_bad_arguments_are_value_errors_and_not_a_puzzle_is_refused():
    assert issubclass(BadArgument, ValueError) and issubclass(UnsupportedOption, ValueError)
    with pytest.raises(BadArgument, match="Puzzle"):
        solve([[1, 1]])


def test_undeclared_enumeration_no_loops_and_time_limit_are_refused(monkeypatch):
    monkeypatch.setitem(CAPABILITIES, "sat", Capabilities(enumerate=False, time_limit=False, no_loops=False))
    with pytest.raises(UnsupportedOption, match="max_solutions"):
        solve(corners(3), max_solutions=2)
    with pytest.raises(UnsupportedOption, match="time_limit"):
        solve(corners(3), time_limit=5)
    with pytest.raises(UnsupportedOption, match="no-loops"):
        solve(Puzzle.from_grid([[2, 3], [2, 3]], no_loops=True))
    assert solve(corners(3)).solved  # what it declares still runs


def test_sat_refuses_an_unknown_sat_solver():
    with pytest.raises(BadArgument, match="unknown SAT solver"):
        solve(corners(3), solver="no-such-solver")


# -- uniqueness and enumeration ----------------------------------------------------------------

def test_uniqueness_and_enumeration(engine):
    square = corners(3)  # two solutions
    r = solve(square, engine=engine, max_solutions=2)
    assert r.solved and r.unique is False and len(set(r.solutions)) == 2 and all_valid(square, r)
    r = solve(square, engine=engine, max_solutions=50)
    assert len(r.solutions) == 2 and r.complete and r.stopped is None and all_valid(square, r)
    ring = Puzzle.from_grid([[2, 0, 2], [0, 0, 0], [2, 0, 2]])  # one solution
    r = solve(ring, engine=engine, max_solutions=2)
    assert r.unique is True and r.complete and all_valid(ring, r)
    r = solve(ring, engine=engine)
    assert r.solved and r.unique is None  # not asked: not claimed


def test_enumeration_counts_agree_with_the_oracle(engine):
    for m in (4, 6):
        want, _ = count_solutions(corners(m).grid(), m)
        r = solve(corners(m), engine=engine, max_solutions=100)
        assert want == m - 1 and len(set(r.solutions)) == want and r.complete and all_valid(corners(m), r)
        r = solve(corners(m), engine=engine, max_solutions=2)
        assert len(r.solutions) == 2 and not r.complete and r.unique is False


def test_infeasible_is_complete_only_when_proved(engine):
    r = solve(Puzzle.from_grid([[1, 0, 2, 0, 1], [0, 0, 0, 0, 0], [1, 0, 2, 0, 1]]), engine=engine, max_solutions=2)
    assert r.status is Status.INFEASIBLE and r.solution is None and r.reason and r.stopped is None


# -- large MAXBRIDGES --------------------------------------------------------------------------

@pytest.mark.parametrize("m", [8, 64, 1000, 100_000])
def test_large_maxbridges_stays_small_and_fast(engine, m):
    p = corners(m)
    r = solve(p, engine=engine, max_solutions=2, time_limit=20)  # a generous bound: minutes before the fix
    assert r.solved and r.unique is False and r.stopped is None and all_valid(p, r)
    if engine == "sat":  # the formula grows with log(MAXBRIDGES) (it grew with its square)
        assert r.stats["clauses"] < 60 * max(1, math.log2(m)) * 4


def test_sat_binary_encoding_agrees_with_the_oracle(monkeypatch):
    from hashikit.solvers import sat
    from oracle import random_board

    monkeypatch.setattr(sat, "UNARY_MAX_CAP", 0)  # every puzzle through the binary encoding
    rng = random.Random(64)
    for _ in range(150):
        grid, mb = random_board(rng, max_side=5)
        p = Puzzle.from_grid(grid, mb)
        want, _ = count_solutions(grid, mb, cap=6)
        r = solve(p, max_solutions=6)
        assert r.stats.get("encoding", "binary") == "binary"
        assert len(r.solutions) == min(want, 6), (grid, mb)
        assert all_valid(p, r) and (r.complete or want >= 6 or not want)


# -- time limits -------------------------------------------------------------------------------

@pytest.mark.parametrize("engine", engine_cases(default=[("sat",)]))
def test_a_large_board_answers_within_the_time_limit_as_unknown(engine):
    p = lattice(566)  # 80,000 islands: building the model alone takes longer than the limit
    start = time.monotonic()
    r = solve(p, engine=engine, time_limit=0.5)
    took = time.monotonic() - start
    assert took < 0.5 + TIME_MARGIN + loaded(1.5), took  # the margin, and room for a loaded machine
    assert r.status is Status.UNKNOWN and r.solution is None and r.stopped == "time limit"
    assert r.reason is None  # never a wrong "infeasible"


def test_time_limited_enumeration_keeps_what_it_found(engine):
    p = corners(100_000)  # 99,999 solutions: enumeration cannot finish in a second
    r = solve(p, engine=engine, time_limit=0.5, max_solutions=10**9)
    assert r.solved and len(r.solutions) >= 1 and not r.complete and r.stopped == "time limit"
    assert len(set(r.solutions)) == len(r.solutions)
    assert all(check(p, s).ok for s in r.solutions[:50] + r.solutions[-50:])
    assert r.unique is (False if len(r.solutions) > 1 else None)


def test_stopped_is_said_only_when_a_limit_was_hit(engine):
    p = Puzzle.from_grid([[2, 0, 2], [0, 0, 0], [2, 0, 2]])
    r = solve(p, engine=engine, time_limit=60, max_solutions=2)
    in_caller = len(p.links) <= capabilities(engine).deadline_in_process  # milp, cpsat: small models
    assert r.unique is True and r.stopped is None and all_valid(p, r)
    assert r.stats["process"] == ("caller" if in_caller else "child")
    r = solve(p, engine=engine, time_limit=1e-6)
    assert r.status in (Status.UNKNOWN, Status.SOLVED)
    assert (r.stopped == "time limit") if r.status is Status.UNKNOWN else all_valid(p, r)


@pytest.mark.parametrize("engine", ["milp", "cpsat"])
def test_engines_that_keep_deadlines_run_small_limited_solves_in_the_caller(engine):
    """No process per solve where the engine keeps the limit itself; a larger model still gets one."""
    pytest.importorskip("pyscipopt" if engine == "milp" else "ortools")
    small = Puzzle.from_grid([[2, 0, 2], [0, 0, 0], [2, 0, 2]])
    r = solve(small, engine=engine, time_limit=30, max_solutions=2)
    assert r.stats["process"] == "caller" and r.unique is True and all_valid(small, r)
    big = lattice(150)  # 5,625 islands, about 11,000 links: above deadline_in_process
    assert len(big.links) > capabilities(engine).deadline_in_process
    r = solve(big, engine=engine, time_limit=0.3)
    assert r.stats["process"] == "child"


def test_sat_keeps_cadical_under_a_time_limit():
    r = solve(corners(5), time_limit=30)
    assert r.solved and r.stats["sat_solver"] == "cadical195" and r.stats["process"] == "child"


# -- Ctrl-C ------------------------------------------------------------------------------------

CTRL_C_SCRIPT = textwrap.dedent("""
    import multiprocessing, sys
    from hashikit.model import Puzzle
    from hashikit.solvers import solve
    engine, limited = sys.argv[1], sys.argv[2] == "limited"
    m = 100_000
    p = Puzzle(3, 3, [(0, 0, m), (0, 2, m), (2, 0, m), (2, 2, m)], maxbridges=m)
    solve(p, engine=engine)  # imports done
    print("solving", flush=True)
    try:
        r = solve(p, engine=engine, max_solutions=10**9, time_limit=600 if limited else None)
    except KeyboardInterrupt:
        print("interrupted; children:", len(multiprocessing.active_children()), flush=True)
        raise
    print("finished", r.status, r.stopped, flush=True)
""")


@pytest.mark.parametrize("engine, limited", engine_cases(
    ("in-process",), ("limited",), default=[("sat", "limited"), ("milp", "in-process"), ("cpsat", "in-process")]))
def test_ctrl_c_ends_a_long_solve_promptly(engine, limited, tmp_path):
    script = tmp_path / "long_solve.py"
    script.write_text(CTRL_C_SCRIPT)
    proc = subprocess.Popen([sys.executable, str(script), engine, limited], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        assert proc.stdout.readline().strip() == "solving"
        time.sleep(0.5)
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=15)
        took = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode != 0 and "KeyboardInterrupt" in err, (out, err)
    assert out.strip() == "interrupted; children: 0", out  # nothing else on stdout (SCIP silent)
    assert took < 5, took


# -- the no-loops variant ----------------------------------------------------------------------

def test_a_puzzle_unique_only_under_the_no_loops_rule(engine):
    # rows a, sides 2-a and 3-a: a=1 is a ring of four links, a=2 (two doubles and 3-3) a tree
    grid = [[2, 3], [2, 3]]
    assert count_solutions(grid, 2)[0] == 2 and count_solutions(grid, 2, no_loops=True)[0] == 1
    plain = solve(Puzzle.from_grid(grid), engine=engine, max_solutions=2)
    assert plain.unique is False
    p = Puzzle.from_grid(grid, no_loops=True)
    r = solve(p, engine=engine, max_solutions=2)
    assert r.unique is True and is_tree(p, r.solution)


def test_no_loops_infeasible_and_trees(engine):
    ring = Puzzle.from_grid([[2, 0, 2], [0, 0, 0], [2, 0, 2]], no_loops=True)  # only solution is a cycle
    r = solve(ring, engine=engine, max_solutions=2)
    assert r.status is Status.INFEASIBLE
    p = Puzzle(3, 3, [(0, 0, 6), (0, 2, 6), (2, 0, 6), (2, 2, 6)], maxbridges=6, no_loops=True)
    assert solve(p, engine=engine).status is Status.INFEASIBLE  # a ring or nothing
    assert len(solve(corners(6), engine=engine, max_solutions=10).solutions) == 5  # rings are fine without


# -- the three engines agree on every published puzzle ------------------------------------------

@pytest.mark.slow
def test_engines_agree_on_uniqueness_and_enumeration_on_real_puzzles():
    engines = [name for name in ENGINES if installed(name)]
    records = real_records()
    if not records:
        pytest.skip(f"shared data not found: {REAL}")
    bad = []
    for where, rec in records:
        p = record_puzzle(rec)
        pair = {e: solve(p, engine=e, max_solutions=2) for e in engines}
        many = {e: solve(p, engine=e, max_solutions=20) for e in engines}
        for e in engines:
            if not (all_valid(p, pair[e]) and all_valid(p, many[e])):
                bad.append(f"{where}: {e} returned an invalid solution")
        if len({r.unique for r in pair.values()}) != 1:
            bad.append(f"{where}: unique {[(e, r.unique) for e, r in pair.items()]}")
        if len({frozenset(r.solutions) for r in many.values()}) != 1 and all(r.complete for r in many.values()):
            bad.append(f"{where}: different solution sets")
        if len({min(len(r.solutions), 20) for r in many.values()}) != 1:
            bad.append(f"{where}: counts {[(e, len(r.solutions)) for e, r in many.items()]}")
    assert not bad, bad[:5]


# -- hostile arguments ---------------------------------------------------------------------------

from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

ANY_VALUE = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True, allow_infinity=True),
                      st.text(max_size=5), st.lists(st.integers(), max_size=2), st.dictionaries(st.text(max_size=3),
                                                                                                st.integers(), max_size=2))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(time_limit=ANY_VALUE, max_solutions=ANY_VALUE,
       options=st.dictionaries(st.sampled_from(["solver", "implied", "weak", "num_workers", "x"]), ANY_VALUE,
                               max_size=2))
def test_any_arguments_give_an_answer_or_a_clear_refusal(time_limit, max_solutions, options):
    p = Puzzle.from_grid([[2, 0, 2], [0, 0, 0], [2, 0, 2]])
    if isinstance(time_limit, (int, float)) and not isinstance(time_limit, bool) and time_limit > 0:
        time_limit = min(time_limit, 30)  # a real limit, not a wait (inf and nan stay as they are)
    try:
        r = solve(p, time_limit=time_limit, max_solutions=max_solutions, **options)
    except (BadArgument, UnsupportedOption) as exc:
        assert str(exc)
        return
    assert r.solved and all_valid(p, r)


def test_a_deadline_between_cut_rounds_is_unknown_never_solved_without_a_solution(monkeypatch):
    """The shared loop stopped by its deadline right after a disconnected assignment (cuts added,
    no solution yet) once answered "solved" with no solution."""
    from hashikit.solvers import lazy
    from hashikit.solvers.base import Status as S

    class Backend:  # always a disconnected assignment: two pairs of islands
        calls = 0

        def solve(self, deadline):
            Backend.calls += 1
            return S.SOLVED, [1, 0, 0, 1]

        def require_one(self, links):
            pass

    p = Puzzle.from_grid([[1, 0, 1], [0, 0, 0], [1, 0, 1]])  # links: top, bottom, left, right
    ticks = iter([False, True])  # the deadline passes after the first round
    monkeypatch.setattr(lazy, "past", lambda deadline: next(ticks))
    status, found, complete, stopped = lazy.run(p, Backend(), deadline=1.0, stats={})
    assert Backend.calls == 1 and found == []
    assert status is S.UNKNOWN and stopped == lazy.TIME_LIMIT and not complete
