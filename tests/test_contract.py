"""The front ends' promises (issue 9's list, issue 8's CLI cases): each case the README
describes, pinned here.  Every solution a test reads back is checked by the rule checker;
uniqueness claims on these small boards are checked against the brute-force oracle.
"""

from __future__ import annotations

import ast
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hashikit import Puzzle, Solution, check
from hashikit.cli import main
from hashikit.formats import read_file, read_text

from conftest import loaded, ROOT
from oracle import count_solutions

PROB = str(ROOT / "examples" / "prob-bridges.txt")
TWO = "3.3\n...\n3.3\n"          # a square of 3s: doubles across or down (two solutions)
TWO_GRID = [[3, 0, 3], [0, 0, 0], [3, 0, 3]]
APART = "1.1\n...\n1.1\n"        # four 1s: two pairs, never one group (infeasible, numbers fine)
NO_ROOM = "1.2\n"                # the 2 can get one bridge at most: impossible by the numbers alone


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(code, err):
    assert code == 2, err
    assert err.startswith("hashikit: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err and "internal error" not in err


@pytest.fixture
def two(tmp_path):
    f = tmp_path / "two.txt"
    f.write_text(TWO)
    assert count_solutions(TWO_GRID, 2)[0] == 2  # the oracle agrees it has exactly two
    return f


def solutions_of(text_or_list) -> list[Solution]:
    return [Solution.from_list(s) for s in text_or_list]


# -- solve: uniqueness, enumeration, outputs ---------------------------------------------
def test_unique_text_mode_shows_the_second_and_exits_1(capsys, two):
    code, out, err = run(capsys, "solve", two, "--unique")
    assert code == 1 and "NOT unique" in err
    parts = [p for p in out.split("# solution ") if p.strip()]
    assert len(parts) == 2
    p = Puzzle.from_grid(TWO_GRID)
    sols = [read_text(part.split("\n", 1)[1], "solved").solution for part in parts]
    assert sols[0] != sols[1] and all(check(p, s).ok for s in sols)


def test_unique_puzzle_exits_0_and_says_so(capsys):
    code, _, err = run(capsys, "solve", PROB, "--unique")
    assert code == 0 and "the solution is unique" in err


def test_all_unique_limit_1_does_not_blame_the_time_limit(capsys, two):
    code, out, err = run(capsys, "solve", two, "--all", "--unique", "--limit", "1")
    assert "time limit" not in err and "stopped at --limit 1" in err and "NOT unique" in err
    assert code == 1


def test_json_report_goes_to_the_output_file(capsys, tmp_path):
    out_file = tmp_path / "out.json"
    code, out, _ = run(capsys, "solve", PROB, "--format", "json", "-o", out_file)
    assert code == 0 and out == ""
    data = json.loads(out_file.read_text())
    assert check(read_file(PROB).puzzle, Solution.from_list(data["bridges"])).ok


def test_all_with_output_writes_every_solution(capsys, two, tmp_path):
    f = tmp_path / "sols.sol"
    code, _, err = run(capsys, "solve", two, "--all", "-o", f)
    assert code == 0, err
    files = [f, tmp_path / "sols-2.sol"]
    docs = [read_file(str(x)) for x in files]
    assert not (tmp_path / "sols-3.sol").exists()
    assert docs[0].solution != docs[1].solution and all(check(d.puzzle, d.solution).ok for d in docs)


def test_all_to_json_solution_writes_all_of_them(capsys, two):
    code, out, _ = run(capsys, "solve", two, "--all", "--to", "json-solution")
    assert code == 0
    parts = [p for p in out.split("# solution ") if p.strip()]
    docs = [read_text(p.split("\n", 1)[1], "json-solution") for p in parts]
    assert len(docs) == 2 and docs[0].solution != docs[1].solution
    assert all(check(d.puzzle, d.solution).ok for d in docs)


def test_json_with_to_carries_the_formatted_solution(capsys):
    code, out, _ = run(capsys, "solve", PROB, "--format", "json", "--to", "json-solution")
    data = json.loads(out)
    doc = read_text(data["text"], "json-solution")
    assert code == 0 and check(doc.puzzle, doc.solution).ok
    assert doc.solution == Solution.from_list(data["bridges"])


@pytest.mark.parametrize("argv, what", [
    (["solve", PROB, "--limit", "3"], "--limit goes with --all"),
    (["solve", PROB, "--unicode", "--format", "json"], "--unicode"),
    (["render", PROB, "x.svg", "--blank", "--solve"], "--blank"),
    (["generate", "--size", "7x7", "--difficulty", "easy", "--alpha", "30"], "--alpha"),
    (["generate", "--size", "7x7", "--difficulty", "easy", "--count", "2", "-o", "x.txt"], "--out-dir"),
    (["generate", "--size", "7x7", "--difficulty", "easy", "--out-dir", "d"], "--count"),
    (["generate", "--size", "7x7", "--islands", "9", "--time-limit", "3"], "--time-limit"),
    (["check", PROB, "--solution-format", "json"], "--solution-format"),
    (["hint", PROB, "--state-format", "json"], "--state"),
])
def test_flags_that_make_no_sense_together_are_refused(capsys, tmp_path, monkeypatch, argv, what):
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, *argv)
    one_line_error(code, err)
    assert what in err
    assert not list(tmp_path.iterdir())  # nothing written


def test_paper_generator_count_writes_every_puzzle(capsys, tmp_path):
    out = tmp_path / "d"
    code, _, err = run(capsys, "generate", "--islands", "30", "--size", "10x10", "--count", "3",
                       "--seed", "4", "--out-dir", out)
    assert code == 0, err
    index = json.loads((out / "index.json").read_text())
    assert len(index) == 3 and len({r["seed"] for r in index}) == 3
    for row in index:
        puzzle = read_file(str(out / row["file"])).puzzle
        assert len(puzzle.islands) == 30


# -- one verdict for one impossible puzzle --------------------------------------------------
@pytest.mark.parametrize("argv", [
    ["solve", "{f}"], ["grade", "{f}"], ["explain", "{f}"], ["hint", "{f}"],
    ["render", "{f}", "{d}/x.svg", "--solve"], ["convert", "{f}", "{d}/x.sol", "--solve"],
])
def test_impossible_numbers_are_bad_input_from_every_command(capsys, tmp_path, argv):
    f = tmp_path / "noroom.txt"
    f.write_text(NO_ROOM)
    code, out, err = run(capsys, *[a.format(f=f, d=tmp_path) for a in argv])
    one_line_error(code, err)
    assert "noroom.txt" in err and "at most 1 bridge" in err and out == ""


@pytest.mark.parametrize("cmd", ["solve", "grade", "explain", "hint"])
def test_an_infeasible_puzzle_is_infeasible_from_every_command(capsys, tmp_path, cmd):
    f = tmp_path / "apart.txt"
    f.write_text(APART)
    assert count_solutions([[1, 0, 1], [0, 0, 0], [1, 0, 1]], 2)[0] == 0
    code, out, err = run(capsys, cmd, f)
    assert code == 1
    text = (out + err).lower()
    assert ("no solution" in text or "infeasible" in text) and "several" not in text


def test_explain_on_a_puzzle_with_two_solutions_says_several(capsys, two):
    code, out, _ = run(capsys, "explain", two)
    assert code == 1 and "several solutions" in out


# -- bad values and bad paths: exit 2, one line, before the work ----------------------------
@pytest.mark.parametrize("value", ["inf", "nan", "0", "-1", "abc", "-inf"])
@pytest.mark.parametrize("cmd", [["solve", PROB], ["grade", PROB], ["explain", PROB], ["hint", PROB],
                                 ["generate", "--size", "7x7", "--difficulty", "easy"]])
def test_time_limit_values_are_refused(capsys, cmd, value):
    with pytest.raises(SystemExit) as exc:
        main([*cmd, f"--time-limit={value}"])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and "time limit" in err and "Traceback" not in err and err.count("\n") == 1


@pytest.mark.parametrize("argv", [
    ["solve", PROB, "--svg", "/nonexistent/x.svg"],
    ["solve", PROB, "--svg", "{d}/x.jpg"],
    ["solve", PROB, "-o", "/nonexistent/x.sol"],
    ["solve", PROB, "-o", "{d}"],
    ["render", PROB, "/nonexistent/x.png"],
    ["render", PROB, "{d}/dir.svg"],
    ["hint", PROB, "--svg", "/nonexistent/hint.svg"],
    ["convert", PROB, "/nonexistent/x.json"],
    ["generate", "--size", "7x7", "--difficulty", "easy", "--count", "2", "--out-dir", "/proc/nope"],
    ["generate", "--size", "70x70", "--difficulty", "easy", "-o", "/dev/null"],
    ["generate", "--size", "7x7", "--difficulty", "easy", "-o", "{d}/x.unknown"],
    ["generate-suite", "--out-dir", "/proc/nope", "--per-group", "1", "--islands", "100"],
])
def test_bad_output_paths_fail_before_the_work(capsys, tmp_path, argv):
    (tmp_path / "dir.svg").mkdir()
    start = time.perf_counter()
    code, _, err = run(capsys, *[a.format(d=tmp_path) for a in argv])
    one_line_error(code, err)
    assert time.perf_counter() - start < 2.0  # refused up front, not after solving or generating


@pytest.mark.parametrize("argv", [
    ["solve", "{d}/missing.txt"], ["solve", PROB, "--engine", "nope"], ["solve", PROB, "--limit", "0"],
    ["solve", PROB, "--from", "nope"], ["generate", "--size", "0x5", "--difficulty", "easy"],
    ["generate", "--size", "7x7", "--difficulty", "insane"], ["hint", PROB, "--state", "{d}/missing.json"],
    ["check", PROB, "{d}"], ["nope"],
])
def test_bad_flags_and_values_exit_2_in_one_line(capsys, tmp_path, argv):
    try:
        code = main([a.format(d=tmp_path) for a in argv])
    except SystemExit as exc:  # argparse's usage errors
        code = exc.code
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err and err.count("\n") == 1, err


# -- time limits and Ctrl-C (child processes: the real entry point) ---------------------------
def hashikit(*argv, **kw):
    return subprocess.Popen([sys.executable, "-m", "hashikit", *map(str, argv)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, **kw)


@pytest.fixture(scope="module")
def big_board(tmp_path_factory):
    """A 60x60 random board: the deducer needs far longer than a second on it."""
    from conftest import random_puzzle
    from hashikit.formats import write_text

    p, _ = random_puzzle(60, 60, 3)
    f = tmp_path_factory.mktemp("big") / "big.txt"
    f.write_text(write_text(p, "grid"))
    return f


@pytest.mark.parametrize("cmd", ["grade", "explain", "hint"])
def test_logic_commands_keep_their_time_limit(capsys, big_board, cmd):
    """Measured in-process (interpreter start-up is not the command's, and is slow on a loaded machine)."""
    from hashikit.limits import TIME_MARGIN

    start = time.perf_counter()
    code, out, err = run(capsys, cmd, big_board, "--time-limit", "0.5", "--format", "json")
    took = time.perf_counter() - start
    data = json.loads(out)
    assert code in (0, 1), err
    assert data.get("status") == "unknown" or code == 0
    assert took < 0.5 + TIME_MARGIN + loaded(1.0)  # + reading the 60x60 file


def test_python_dash_m_hashikit_works():
    proc = hashikit("solve", PROB, "--format", "json")
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert check(read_file(PROB).puzzle, Solution.from_list(json.loads(out)["bridges"])).ok


def children(pid: int) -> list[str]:
    """The processes under ``pid``, its children's children too (a fork server's workers)."""
    try:
        direct = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return []
    return direct + [g for c in direct for g in children(int(c))]


@pytest.mark.parametrize("argv", [
    ["grade", "{big}", "--time-limit", "100"],
    ["generate", "--size", "60x60", "--difficulty", "expert", "--count", "4", "--jobs", "2", "--out-dir", "{d}/g"],
])
def test_ctrl_c_ends_a_command_within_two_seconds(big_board, tmp_path, argv):
    if not Path("/proc/self/task").exists():
        pytest.skip("needs /proc to see when the work has started")
    proc = hashikit(*[a.format(big=big_board, d=tmp_path) for a in argv])
    deadline = time.time() + 30
    while not children(proc.pid) and time.time() < deadline:  # the work runs in child processes
        time.sleep(0.1)
    time.sleep(0.5)
    workers = children(proc.pid)
    assert proc.poll() is None and workers, proc.communicate()
    proc.send_signal(signal.SIGINT)
    start = time.perf_counter()
    _, err = proc.communicate(timeout=30)
    assert time.perf_counter() - start < loaded(2.5)
    assert proc.returncode == 130 and "interrupted" in err and "Traceback" not in err
    time.sleep(0.2)
    assert not [w for w in workers if Path(f"/proc/{w}").exists()
                and "Z" not in Path(f"/proc/{w}/stat").read_text().split()[2]]  # no worker left running


# -- serve ------------------------------------------------------------------------------------
def test_serve_port_in_use_is_one_line():
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        proc = hashikit("serve", "--port", s.getsockname()[1])
        _, err = proc.communicate(timeout=30)
    assert proc.returncode == 2 and err.count("\n") == 1 and "in use" in err and "http://" not in err


def test_serve_port_0_prints_the_real_port():
    import urllib.request

    proc = hashikit("serve", "--port", "0")
    try:
        line = proc.stderr.readline()
        port = int(line.split("http://127.0.0.1:")[1].split("/")[0])
        assert port > 0
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/openapi.json", timeout=10) as r:
            assert "/api/solve" in json.loads(r.read())["paths"]
    finally:
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=15)


# -- layers ------------------------------------------------------------------------------------
PACKAGE = ROOT / "hashikit"


def imports_of(path: Path) -> list[tuple[str, list[str]]]:
    """(module imported, names imported) for every import in a file, lazy ones included."""
    mod = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    pkg = mod.rsplit(".", 1)[0] if path.name != "__init__.py" else mod.rsplit(".", 1)[0]
    if path.name == "__init__.py":
        pkg = mod.rsplit(".", 1)[0] if mod.endswith("__init__") else mod
    out = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = pkg.split(".")
            if node.level:
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            names = [a.name for a in node.names]
            if not node.module:  # from . import x: x are modules
                out += [(f"{target}.{n}", []) for n in names]
            else:
                out.append((target, names))
        elif isinstance(node, ast.Import):
            out += [(a.name, []) for a in node.names]
    return out


def module_graph() -> dict[str, set[str]]:
    graph = {}
    for path in PACKAGE.rglob("*.py"):
        mod = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        graph[mod] = {t for t, _ in imports_of(path) if t.startswith("hashikit")}
    return graph


def test_front_ends_do_not_import_each_other_or_private_names():
    fronts = {"hashikit.cli.commands", "hashikit.cli.logic", "hashikit.cli.generate", "hashikit.cli.common",
              "hashikit.cli.output", "hashikit.web.app", "hashikit.web.requests"}
    for path in PACKAGE.rglob("*.py"):
        mod = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        for target, names in imports_of(path):
            if mod in fronts:
                assert not any(n.startswith("_") for n in names), (mod, target, names)
            if mod == "hashikit.web.app":
                assert not target.startswith("hashikit.cli"), (mod, target)
            if mod.startswith("hashikit.cli"):
                assert target != "hashikit.web.app", (mod, target)
            if mod.startswith("hashikit.service"):
                assert not target.startswith(("hashikit.cli", "hashikit.web")), (mod, target)


def test_no_import_cycle_through_the_use_cases_and_front_ends():
    graph = module_graph()
    cycles = []

    def visit(node, stack, seen):
        for nxt in graph.get(node, ()):
            if nxt in stack:
                cycles.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in seen:
                seen.add(nxt)
                visit(nxt, stack + [nxt], seen)

    for start in ("hashikit.service", "hashikit.cli.commands", "hashikit.cli.logic", "hashikit.cli.generate",
                  "hashikit.web.app"):
        visit(start, [start], {start})
    assert not cycles, cycles


# -- the engine contract at the front: refused options are exit 2, never swallowed --------------
@pytest.mark.parametrize("engine", ["sat", "milp", "cpsat"])
def test_every_engine_answers_unique_and_all_or_refuses_up_front(capsys, two, engine):
    """`--unique`/`--all` give the same answers on every engine, or the engine refuses (exit 2)."""
    from hashikit import solvers

    if not hasattr(solvers, "capabilities"):
        pytest.skip("solvers.capabilities (the engines' declared contract) is not merged yet")
    p = Puzzle.from_grid(TWO_GRID)
    code, out, err = run(capsys, "solve", two, "--engine", engine, "--unique", "--format", "json")
    if code == 2:
        assert err.count("\n") == 1 and engine in err
        return
    data = json.loads(out)
    assert code == 1 and data["unique"] is False
    assert all(check(p, s).ok for s in solutions_of([data["bridges"], data["second"]]))
    code, out, err = run(capsys, "solve", two, "--engine", engine, "--all", "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["complete"] is True and len(set(solutions_of(data["solutions"]))) == 2


def test_an_engine_error_is_exit_2_in_one_line(capsys, monkeypatch):
    """Whatever HashikitError an engine raises for an option or value it refuses is exit 2."""
    import hashikit.solvers as solvers
    from hashikit.errors import UnsupportedOption

    def refuse(*args, **kwargs):
        raise UnsupportedOption("engine 'sat' does not take option 'bogus'")

    monkeypatch.setattr(solvers, "solve", refuse)
    code, out, err = run(capsys, "solve", PROB)
    one_line_error(code, err)
    assert "bogus" in err and out == ""


# -- hostile input, generated ------------------------------------------------------------------
def test_random_files_never_crash_the_cli(tmp_path_factory):
    """Any bytes as a puzzle file: exit 0, 1 or 2 with one line on error, never exit 3."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    folder = tmp_path_factory.mktemp("attack")
    alphabet = st.sampled_from(list("0123456789.#-=|\"xmABCDEFG:,{}[] \n") + ["\u00b2", "\u0663", "\x00"])

    @settings(max_examples=40, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(text=st.text(alphabet, max_size=60), ext=st.sampled_from(["txt", "has", "json", "csv", "tatham",
                                                                     "url", "sol", "ohmec", "pzprv3"]),
           cmd=st.sampled_from(["solve", "grade", "check", "hint", "explain"]))
    def attack(text, ext, cmd):
        f = folder / f"p.{ext}"
        f.write_text(text, encoding="utf-8")
        import io
        from contextlib import redirect_stderr, redirect_stdout

        err = io.StringIO()
        with redirect_stdout(io.StringIO()), redirect_stderr(err):
            code = main([cmd, str(f), *(["--time-limit", "5"] if cmd != "check" else [])])
        assert code in (0, 1, 2), err.getvalue()
        if code == 2:
            assert err.getvalue().count("\n") == 1 and "internal error" not in err.getvalue()

    attack()


@pytest.mark.parametrize("name, fmt", [("out.txt", "solved"), ("out", "solved"), ("out.sol.json", "json-solution"),
                                       ("out.usol", "solved-unicode")])
def test_solve_output_file_always_holds_the_solution(capsys, tmp_path, name, fmt):
    f = tmp_path / name
    code, _, err = run(capsys, "solve", PROB, "-o", f, "-q")
    assert code == 0, err
    doc = read_text(f.read_text(), fmt)
    assert doc.solution is not None and check(read_file(PROB).puzzle, doc.solution).ok


def test_check_refuses_a_bridge_far_off_the_board_at_once(capsys, tmp_path):
    f = tmp_path / "far.json"
    f.write_text(json.dumps({"bridges": [[0, 0, 0, 30_000_000, 1]]}))
    start = time.perf_counter()
    code, _, err = run(capsys, "check", PROB, f)
    one_line_error(code, err)
    assert "outside" in err and time.perf_counter() - start < 2.0


def test_time_limit_is_named_only_when_one_was_set(capsys, two, monkeypatch):
    """An engine that stops without proving (no time limit given) is not blamed on a time limit."""
    import hashikit.solvers as solvers
    from hashikit.solvers import SolveResult, Status

    real = solvers.solve

    def no_proof(puzzle, **kw):  # one solution, not complete, no second: what a non-enumerating engine gives
        r = real(puzzle, **{**kw, "max_solutions": 1})
        return SolveResult(Status.SOLVED, r.solution, engine="stub", complete=False)

    monkeypatch.setattr(solvers, "solve", no_proof)
    for argv in (["--unique"], ["--all"]):
        code, _, err = run(capsys, "solve", two, *argv)
        assert "time limit" not in err and ("did not" in err), err


@pytest.mark.parametrize("text", ["7x7m2:4d2b1b4a26b3m1c3c3c2d3", (ROOT / "examples" / "prob-bridges.txt").read_text()])
def test_following_every_hint_solves_the_puzzle(text):
    """Each hint hands out something the board keeps (its ``bridges``, or ``marks`` sent back
    with the next request), so a player who follows the hints finishes the puzzle and never
    gets one twice."""
    from hashikit import service

    puzzle = read_text(text).puzzle
    bridges, marks, seen = {}, {}, set()
    for _ in range(4 * len(puzzle.links)):
        board = Solution({((r1, c1), (r2, c2)): k for (r1, c1, r2, c2), k in bridges.items()})
        h = service.hint(puzzle, board, marks=[[*key, most] for key, most in marks.items()])
        if h.status != "hint":
            break
        assert h.sentence not in seen, f"the same hint twice: {h.sentence}"
        seen.add(h.sentence)
        changed = False
        for *key, count in h.bridges:
            assert count > bridges.get(tuple(key), 0)
            bridges[tuple(key)], changed = count, True
        for *key, most in h.marks:
            assert most < marks.get(tuple(key), puzzle.maxbridges + 1)
            marks[tuple(key)], changed = most, True
        assert changed, f"a hint the board cannot record: {h.sentence}"
    assert h.status == "complete" and check(puzzle, board).ok
