"""hint, explain, grade, generate and generate-suite from the command line.

Every puzzle the generators write is solved and checked here; a hint is checked
against the puzzle's unique solution (proved unique first), never a stored answer.
"""

from __future__ import annotations

import json

import pytest

from hashikit import Solution, check, solve
from hashikit.cli import main
from hashikit.formats import read_file
from hashikit.formats.jsonfmt import puzzle_from_data

from conftest import ROOT
from test_cli import run

PROB = str(ROOT / "examples" / "prob-bridges.txt")


def unique_solution(puzzle) -> Solution:
    r = solve(puzzle, max_solutions=2)
    assert r.unique is True
    return r.solution


def assert_step_consistent(puzzle, step: dict, truth: Solution) -> None:
    """Each link's new interval in the step contains the solution's count."""
    for r1, c1, r2, c2, lo, hi in step["changes"]:
        k = truth.bridges.get(((r1, c1), (r2, c2)), 0)
        assert lo <= k <= hi, (step["sentence"], (r1, c1, r2, c2), k)


def test_grade_json_and_text(capsys):
    code, out, _ = run(capsys, "grade", PROB, "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["grade"] in ("easy", "medium", "hard", "expert")
    assert data["score"] == sum(n * w for n, w in zip(data["steps"].values(), (1, 3, 9, 27)))
    code, out, _ = run(capsys, "grade", PROB)
    assert code == 0 and out.startswith(data["grade"])


def test_explain_prints_a_full_sound_path(capsys):
    code, out, _ = run(capsys, "explain", PROB, "--format", "json")
    data = json.loads(out)
    puzzle = read_file(PROB).puzzle
    truth = unique_solution(puzzle)
    assert code == 0 and data["solved"] and data["steps"]
    for step in data["steps"]:
        assert step["sentence"] and step["level"]
        assert_step_consistent(puzzle, step, truth)
    code, out, _ = run(capsys, "explain", PROB)
    assert out.strip().endswith(f"solved by logic in {len(data['steps'])} steps")


def test_hint_on_a_half_solved_board_is_correct(capsys, tmp_path):
    puzzle = read_file(PROB).puzzle
    truth = unique_solution(puzzle)
    half = Solution(dict(list(truth.bridges.items())[::2]))
    state = tmp_path / "half.json"
    state.write_text(json.dumps({"bridges": half.to_list()}))
    code, out, _ = run(capsys, "hint", PROB, "--state", str(state), "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["status"] == "hint" and data["sentence"]
    assert_step_consistent(puzzle, data, truth)
    # the step must tell the player something new
    assert any(lo > half.bridges.get(((r1, c1), (r2, c2)), 0) or hi < puzzle.maxbridges
               for r1, c1, r2, c2, lo, hi in data["changes"])
    svg = tmp_path / "hint.svg"
    code, out, _ = run(capsys, "hint", PROB, "--state", str(state), "--svg", str(svg))
    picture = svg.read_text()
    assert code == 0 and out.startswith("[")
    from hashikit.render import COLORS, svg as plain_svg

    accent = COLORS["accent"]  # the highlight colour: in the hint picture, not in the plain board
    assert accent in picture and accent not in plain_svg(puzzle, half)


def test_hint_names_a_wrong_bridge_and_a_broken_rule(capsys, tmp_path):
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps({"bridges": [[1, 1, 4, 1, 1]]}))  # a link the unique solution leaves empty
    code, out, _ = run(capsys, "hint", PROB, "--state", str(wrong))
    assert code == 1 and "row 2, column 2 to row 5, column 2" in out and "not part of the solution" in out
    over = tmp_path / "over.json"
    over.write_text(json.dumps({"bridges": [[1, 1, 4, 1, 1], [1, 1, 1, 2, 1]]}))  # a 1 with two bridges
    code, out, _ = run(capsys, "hint", PROB, "--state", str(over), "--format", "json")
    data = json.loads(out)
    assert code == 1 and data["status"] == "conflict" and any("more than its number" in p for p in data["problems"])


def test_hint_on_a_complete_board(capsys, tmp_path):
    puzzle = read_file(PROB).puzzle
    done = tmp_path / "done.json"
    done.write_text(json.dumps({"bridges": unique_solution(puzzle).to_list()}))
    code, out, _ = run(capsys, "hint", PROB, "--state", str(done))
    assert code == 0 and "complete" in out


def test_generate_unique_graded_puzzle(capsys, tmp_path):
    out = tmp_path / "easy.txt"
    code, _, err = run(capsys, "generate", "--size", "7x7", "--difficulty", "easy", "--seed", "5", "-o", str(out))
    assert code == 0 and "grade easy" in err
    puzzle = read_file(str(out)).puzzle
    assert check(puzzle, unique_solution(puzzle)).ok
    code, gout, _ = run(capsys, "grade", str(out), "--format", "json")
    assert json.loads(gout)["grade"] == "easy"


def test_generate_paper_mode_is_reproducible_and_solvable(capsys, tmp_path):
    a, b = tmp_path / "a.has", tmp_path / "b.has"
    for f in (a, b):
        code, _, _ = run(capsys, "generate", "--islands", "60", "--size", "12x12", "--alpha", "50",
                         "--beta", "10", "--seed", "9", "-o", str(f))
        assert code == 0
    assert a.read_text() == b.read_text()
    puzzle = read_file(str(a)).puzzle
    assert len(puzzle.islands) == 60
    r = solve(puzzle)
    assert r.solved and check(puzzle, r.solution).ok


def test_generate_many_writes_files_and_an_index(capsys, tmp_path):
    from hashikit.run.batch import job_seed

    out = tmp_path / "batch"
    code, _, err = run(capsys, "generate", "--size", "6x6", "--difficulty", "easy", "--count", "3",
                       "--seed", "1", "--jobs", "2", "--out-dir", str(out))
    assert code == 0, err
    index = json.loads((out / "index.json").read_text())
    assert len(index) == 3 and (out / "index.csv").read_text().count("\n") == 4
    assert [row["seed"] for row in index] == [job_seed(1, i) for i in range(3)]  # puzzle i: job_seed(base, i)
    for row in index:
        puzzle = read_file(str(out / row["file"])).puzzle
        assert row["grade"] == "easy" and row["islands"] == len(puzzle.islands)
        assert check(puzzle, unique_solution(puzzle)).ok
    # one of them, made alone from its seed, is the same puzzle
    one = tmp_path / "one.txt"
    code, _, _ = run(capsys, "generate", "--size", "6x6", "--difficulty", "easy", "--seed", str(index[1]["seed"]),
                     "-o", str(one))
    assert code == 0 and one.read_text() == (out / index[1]["file"]).read_text()


def test_generate_many_resumes_and_reports_error_rows(capsys, tmp_path, monkeypatch):
    """A re-run with the same --seed runs only what is missing (or failed); a failing puzzle is an
    error row on stderr and exit 1 while the others are written."""
    from hashikit import service
    from hashikit.run.batch import job_seed

    out = tmp_path / "g"
    argv = ["generate", "--size", "6x6", "--difficulty", "easy", "--seed", "4", "--jobs", "1", "--out-dir", str(out)]
    real = service.generate_record
    bad = job_seed(4, 1)

    def flaky(**kw):
        if kw["seed"] == bad:
            raise service.OutOfTime("no easy puzzle in time (test)")
        return real(**kw)

    monkeypatch.setattr(service, "generate_record", flaky)
    code, out_text, err = run(capsys, *argv, "--count", "3")
    assert code == 1 and out_text == ""
    assert f"seed {bad}: OutOfTime: no easy puzzle in time (test)" in err and "1 failed" in err
    index = json.loads((out / "index.json").read_text())
    assert [row["seed"] for row in index] == [job_seed(4, 0), job_seed(4, 2)]
    monkeypatch.setattr(service, "generate_record", real)
    code, _, err = run(capsys, *argv, "--count", "4")
    assert code == 0 and "(2 from an earlier run)" in err, err
    index = json.loads((out / "index.json").read_text())
    assert [row["seed"] for row in index] == [job_seed(4, i) for i in range(4)]
    lines = (out / "generate.jsonl").read_text().splitlines()
    assert len(lines) == 5  # 2 + 1 error row, then the failed one and the new one: nothing made twice
    for row in index:
        puzzle = read_file(str(out / row["file"])).puzzle
        assert check(puzzle, unique_solution(puzzle)).ok


def test_generate_record_is_plain_data_in_and_out():
    """The one-puzzle function a catalogue or cluster submits: plain keywords, JSON data back."""
    from hashikit import service

    rec = service.generate_record(rows=6, cols=6, seed=3, difficulty="easy", no_loops=True)
    assert json.loads(json.dumps(rec)) == rec and rec["grade"] == "easy" and rec["seed"] == 3
    puzzle = puzzle_from_data(rec["puzzle"], "<record>")
    assert puzzle.no_loops and rec["islands"] == len(puzzle.islands)
    paper = service.generate_record(rows=12, cols=12, seed=3, islands=40, alpha=25.0, beta=0.0)
    assert paper["grade"] is None and paper["islands"] == 40
    r = solve(puzzle_from_data(paper["puzzle"], "<record>"))
    assert r.solved and check(puzzle_from_data(paper["puzzle"], "<record>"), r.solution).ok
    with pytest.raises(service.BadInput):
        service.generate_record(rows=6, cols=6, seed=1, difficulty="easy", islands=10)
    with pytest.raises(service.BadInput):
        service.generate_record(rows=12, cols=12, seed=1, islands=10, no_loops=True)


def test_generate_suite_layout(capsys, tmp_path):
    from hashikit.run.batch import job_seed

    code, _, _ = run(capsys, "generate-suite", "--out-dir", str(tmp_path), "--per-group", "1",
                     "--islands", "100", "--seed", "3", "--jobs", "2")
    assert code == 0
    files = sorted((tmp_path / "100").glob("Hs_16_100_*_*_001.has"))
    assert len(files) == 12
    for f in files[:3]:
        puzzle = read_file(str(f)).puzzle
        r = solve(puzzle)
        assert len(puzzle.islands) == 100 and r.solved and check(puzzle, r.solution).ok
    rows = [json.loads(line) for line in (tmp_path / "generate-suite.jsonl").read_text().splitlines()]
    assert len(rows) == 12 and all(r["ok"] for r in rows)
    assert {r["value"]["seed"] for r in rows} == {job_seed(3, 100, a, b, 1) for a in (25, 50, 75)
                                                  for b in (0, 5, 10, 15)}
    before = files[0].read_text()
    code, _, err = run(capsys, "generate-suite", "--out-dir", str(tmp_path), "--per-group", "1",
                       "--islands", "100", "--seed", "3")
    assert code == 0 and "(12 from an earlier run)" in err and files[0].read_text() == before


@pytest.mark.parametrize("argv, what", [
    (["generate", "--size", "10x10"], "--difficulty"),
    (["generate", "--size", "3x3", "--islands", "20"], "do not fit"),
    (["generate-suite", "--out-dir", "x", "--islands", "150"], "100, 200, 300 and 400"),
])
def test_generate_bad_input(capsys, argv, what):
    code, _, err = run(capsys, *argv)
    assert code == 2 and what in err


def test_generate_bad_size_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["generate", "--size", "tenbyten", "--difficulty", "easy"])
    assert exc.value.code == 2 and "board size" in capsys.readouterr().err


def test_hint_state_for_another_puzzle_is_bad_input(capsys, tmp_path):
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"bridges": [[0, 0, 5, 5, 1]]}))
    code, _, err = run(capsys, "hint", PROB, "--state", str(other))
    assert code == 2 and "no link" in err


def _grid(puzzle) -> list[list[int]]:
    grid = [[0] * puzzle.cols for _ in range(puzzle.rows)]
    for i in puzzle.islands:
        grid[i.row][i.col] = i.number
    return grid


def test_generate_layout_flags_reach_the_generator(capsys, tmp_path):
    """--no-loops, --maxbridges, --allow-adjacent/--density and Tatham's layout each show in
    the puzzle made (uniqueness by the brute-force oracle, under the puzzle's own rules)."""
    from oracle import count_solutions

    nl = tmp_path / "nl.json"
    code, _, err = run(capsys, "generate", "--size", "6x6", "--difficulty", "easy", "--no-loops", "--seed", "2",
                       "-o", str(nl))
    assert code == 0, err
    puzzle = read_file(str(nl)).puzzle
    assert puzzle.no_loops
    count, sols = count_solutions(_grid(puzzle), 2, no_loops=True)
    assert count == 1
    assert check(puzzle, Solution({(a, b): k for (a, b), k in sols[0].items() if k})).ok

    m3 = tmp_path / "m3.json"
    code, _, err = run(capsys, "generate", "--size", "6x6", "--difficulty", "easy", "--maxbridges", "3",
                       "--seed", "4", "-o", str(m3))
    assert code == 0, err
    puzzle = read_file(str(m3)).puzzle
    assert puzzle.maxbridges == 3 and count_solutions(_grid(puzzle), 3)[0] == 1

    dense = tmp_path / "dense.txt"
    code, _, err = run(capsys, "generate", "--size", "8x8", "--difficulty", "easy", "--allow-adjacent",
                       "--density", "0.5", "--seed", "1", "-o", str(dense))
    assert code == 0, err
    cells = {i.pos for i in read_file(str(dense)).puzzle.islands}
    assert any((r, c + 1) in cells or (r + 1, c) in cells for r, c in cells)  # neighbours: allowed and there

    tat = tmp_path / "tat.txt"
    code, _, err = run(capsys, "generate", "--size", "10x10", "--difficulty", "easy", "--islands-percent", "10",
                       "--expansion", "0", "--seed", "1", "-o", str(tat))
    assert code == 0, err
    puzzle = read_file(str(tat)).puzzle
    assert len(puzzle.islands) <= 10 and check(puzzle, unique_solution(puzzle)).ok


@pytest.mark.parametrize("argv, what", [
    (["--islands", "20", "--no-loops"], "--no-loops"),
    (["--islands", "20", "--allow-adjacent", "--density", "0.3"], "--allow-adjacent, --density"),
    (["--islands", "20", "--expansion", "5"], "--expansion"),
    (["--difficulty", "easy", "--density", "0.3", "--islands-percent", "20"], "Tatham"),
    (["--difficulty", "easy", "--allow-adjacent", "--expansion", "20"], "allow adjacent does not apply"),
    (["--difficulty", "easy", "--maxbridges", "5"], "1 to 4"),
    (["--difficulty", "medium", "--maxbridges", "1"], "no puzzle is medium"),
])
def test_generate_refuses_flags_that_do_not_apply(capsys, argv, what):
    code, _, err = run(capsys, "generate", "--size", "10x10", *argv)
    assert code == 2 and what in err and "Traceback" not in err


@pytest.mark.parametrize("argv", [["--density", "0.6"], ["--density", "0"], ["--islands-percent", "31"],
                                  ["--expansion", "101"], ["--maxbridges", "0"], ["--density", "nan"]])
def test_generate_layout_values_out_of_range_are_usage_errors(capsys, argv):
    with pytest.raises(SystemExit) as exc:
        main(["generate", "--size", "8x8", "--difficulty", "easy", *argv])
    assert exc.value.code == 2
