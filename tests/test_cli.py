"""Each command, its exit codes, and each class of bad input (exit 2, one line, no traceback)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from hashikit import Puzzle, Solution, check
from hashikit.cli import main
from hashikit.formats import read_text

from conftest import ROOT, REAL, need, real_records

PROB = str(ROOT / "examples" / "prob-bridges.txt")


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_entry_point_solves_the_example():
    proc = subprocess.run([sys.executable, "-m", "hashikit.cli", "solve", PROB], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    doc = read_text(proc.stdout, "solved")
    assert check(doc.puzzle, doc.solution).ok
    assert "solved" in proc.stderr


def test_solve_json_with_uniqueness(capsys):
    code, out, _ = run(capsys, "solve", PROB, "--format", "json", "--unique")
    data = json.loads(out)
    assert code == 0 and data["status"] == "solved" and data["unique"] is True
    puzzle = read_text(open(PROB).read(), "grid").puzzle
    assert check(puzzle, Solution.from_list(data["bridges"])).ok
    assert "time" in data["stats"]


def test_solve_not_unique_shows_a_second(capsys, tmp_path):
    f = tmp_path / "two.txt"
    f.write_text("3.3\n...\n3.3\n")
    code, out, _ = run(capsys, "solve", str(f), "--format", "json", "--unique")
    data = json.loads(out)
    p = Puzzle.from_grid([[3, 0, 3], [0, 0, 0], [3, 0, 3]])
    assert code == 1 and data["unique"] is False  # NOT unique exits 1
    first, second = Solution.from_list(data["bridges"]), Solution.from_list(data["second"])
    assert first != second and check(p, first).ok and check(p, second).ok


def test_solve_all_lists_distinct_checked_solutions(capsys, tmp_path):
    f = tmp_path / "two.txt"
    f.write_text("3.3\n...\n3.3\n")
    code, out, err = run(capsys, "solve", str(f), "--all", "--format", "json")
    data = json.loads(out)
    sols = [Solution.from_list(s) for s in data["solutions"]]
    p = Puzzle.from_grid([[3, 0, 3], [0, 0, 0], [3, 0, 3]])
    assert code == 0 and len(set(sols)) == 2 and data["complete"] is True
    assert all(check(p, s).ok for s in sols)


def test_solve_infeasible_exits_1_with_a_reason(capsys, tmp_path):
    f = tmp_path / "four.txt"
    f.write_text("1.1\n...\n1.1\n")
    code, out, err = run(capsys, "solve", str(f))
    assert code == 1 and "infeasible" in err
    code, out, _ = run(capsys, "solve", str(f), "--format", "json")
    assert code == 1 and json.loads(out)["status"] == "infeasible"


def test_godzilla_55_exits_1(capsys, tmp_path):
    need(REAL)
    rec = next(r for _, r in real_records() if r.get("label") == "Godzilla #55")
    f = tmp_path / "g55.ohmec"
    f.write_text(rec["descriptor"])
    code, _, err = run(capsys, "solve", str(f))
    assert code == 1 and "infeasible" in err


def test_solve_time_limit_gives_unknown_or_solved(capsys, tmp_path):
    from conftest import random_puzzle
    from hashikit.formats import write_text

    p, _ = random_puzzle(40, 40, 7)
    f = tmp_path / "big.txt"
    f.write_text(write_text(p, "grid"))
    code, out, _ = run(capsys, "solve", str(f), "--time-limit", "0.000001", "--format", "json")
    data = json.loads(out)
    assert data["status"] in ("unknown", "solved") and code == (0 if data["status"] == "solved" else 1)


def test_solve_writes_other_formats_and_svg(capsys, tmp_path):
    out_json = tmp_path / "s.sol.json"
    svg = tmp_path / "s.svg"
    code, _, _ = run(capsys, "solve", PROB, "--to", "json-solution", "-o", str(out_json), "--svg", str(svg), "-q")
    assert code == 0
    doc = read_text(out_json.read_text(), "json-solution")
    assert check(doc.puzzle, doc.solution).ok
    assert svg.read_text().lstrip().startswith(("<?xml", "<svg"))


def test_check_valid_and_invalid(capsys, tmp_path):
    sol = tmp_path / "prob.sol"
    code, _, _ = run(capsys, "solve", PROB, "-o", str(sol), "-q")
    assert code == 0
    code, out, _ = run(capsys, "check", PROB, str(sol))
    assert code == 0 and out.startswith("valid")
    code, out, _ = run(capsys, "check", str(sol))  # a solved grid carries its puzzle
    assert code == 0
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"bridges": [[0, 0, 0, 5, 1]]}))
    code, out, _ = run(capsys, "check", PROB, str(bad), "--format", "json")
    data = json.loads(out)
    assert code == 1 and not data["valid"]
    assert {"island-count", "disconnected"} <= {v["rule"] for v in data["violations"]}


def test_check_names_a_solution_for_another_puzzle(capsys, tmp_path):
    other = tmp_path / "other.sol"
    other.write_text("2-2\n")
    code, out, _ = run(capsys, "check", PROB, str(other))
    assert code == 1 and "differ" in out


def test_convert_and_back(capsys, tmp_path):
    for ext in ("has", "json", "tatham", "url", "csv", "txt"):
        out = tmp_path / f"p.{ext}"
        code, _, err = run(capsys, "convert", PROB, str(out))
        assert code == 0, err
        back = tmp_path / f"back-{ext}.txt"
        code, _, err = run(capsys, "convert", str(out), str(back))
        assert code == 0, err
        assert back.read_text() == open(PROB).read()
    code, out, _ = run(capsys, "convert", PROB, "-", "--to", "tatham")
    assert code == 0 and out.startswith("6x6")


def test_convert_to_solution_formats_needs_solve(capsys, tmp_path):
    code, _, err = run(capsys, "convert", PROB, str(tmp_path / "x.sol"))
    assert code == 2 and "--solve" in err
    code, _, err = run(capsys, "convert", PROB, str(tmp_path / "links.dot"))  # no solution: candidate links
    assert code == 0 and "style=dashed" in (tmp_path / "links.dot").read_text()
    for ext in ("dot", "mch", "sol"):
        code, _, err = run(capsys, "convert", PROB, str(tmp_path / f"x.{ext}"), "--solve")
        assert code == 0, err
    assert "MACHINE" in (tmp_path / "x.mch").read_text()


def test_render_svg_and_png(capsys, tmp_path):
    code, _, _ = run(capsys, "render", PROB, str(tmp_path / "p.svg"))
    assert code == 0 and "<svg" in (tmp_path / "p.svg").read_text()
    code, _, _ = run(capsys, "render", PROB, str(tmp_path / "p.png"), "--solve")
    assert code == 0 and (tmp_path / "p.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    code, _, err = run(capsys, "render", PROB, str(tmp_path / "p.jpg"))
    assert code == 2 and "p.jpg" in err and not (tmp_path / "p.jpg").exists()


BAD_INPUTS = [
    ("unknown.txt", "4..x\n", ":1:4:", "unknown character"),
    ("ragged.txt", "4.4\n..\n4.4\n", ":2", "cells"),
    ("range.txt", "9.1\n", ":1:1:", "from 1 to 8"),
    ("empty.txt", "", "", "empty"),
    ("blank.txt", "...\n...\n", "", "no islands"),
    ("noroom.txt", "5.1\n", "", "neighbour"),
    ("bad.json", '{"rows": 2, "cols": ', "bad.json", ""),
    ("bad.has", "2 2 3\n1 0\n0 1\n", "bad.has", "3"),
    ("bad.tatham", "3x3m2:2a2c2a2a2\n", "bad.tatham", ""),
]


@pytest.mark.parametrize("name, text, where, what", BAD_INPUTS, ids=[b[0] for b in BAD_INPUTS])
def test_bad_input_exits_2_with_one_clear_line(capsys, tmp_path, name, text, where, what):
    f = tmp_path / name
    f.write_text(text)
    code, out, err = run(capsys, "solve", str(f))
    assert code == 2
    assert err.startswith("hashikit: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err and name in err and where in err and what in err


def test_missing_file_and_directory(capsys, tmp_path):
    code, _, err = run(capsys, "solve", str(tmp_path / "nope.txt"))
    assert code == 2 and "no such file" in err
    code, _, err = run(capsys, "solve", str(tmp_path))
    assert code == 2 and "directory" in err


def test_too_large_file(capsys, tmp_path, monkeypatch):
    import hashikit.formats as fm

    monkeypatch.setattr(fm, "MAX_INPUT_BYTES", 100)
    f = tmp_path / "big.txt"
    f.write_text(("4" + "." * 20 + "4\n") * 10)
    code, _, err = run(capsys, "solve", str(f))
    assert code == 2 and "at most 100" in err


def test_help_teaches(capsys):
    for cmd in ("solve", "check", "convert", "render"):
        with pytest.raises(SystemExit) as exc:
            main([cmd, "--help"])
        out = capsys.readouterr().out.lower()
        assert exc.value.code == 0 and "example" in out, cmd
        if cmd != "render":  # the formats table, built from the registry
            from hashikit.formats import formats

            assert all(name in out for name in formats()), cmd
    assert main([]) == 2


def test_convert_and_render_with_solve_report_an_infeasible_puzzle(capsys, tmp_path):
    f = tmp_path / "four.txt"
    f.write_text("1.1\n...\n1.1\n")
    for argv in (("convert", str(f), str(tmp_path / "x.sol"), "--solve"),
                 ("render", str(f), str(tmp_path / "x.svg"), "--solve")):
        code, _, err = run(capsys, *argv)
        assert code == 1 and "infeasible" in err and not (tmp_path / argv[2].split("/")[-1]).exists()


def test_solve_reads_standard_input():
    text = open(PROB).read()
    proc = subprocess.run([sys.executable, "-m", "hashikit.cli", "solve", "-", "--format", "json"],
                          input=text, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    puzzle = read_text(text, "grid").puzzle
    assert check(puzzle, Solution.from_list(json.loads(proc.stdout)["bridges"])).ok
    proc = subprocess.run([sys.executable, "-m", "hashikit.cli", "solve", "-"], input="",
                          capture_output=True, text=True)
    assert proc.returncode == 2 and "<stdin>" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.parametrize("columns", ["50", "100", "0", "junk"])
def test_help_is_wrapped_to_the_width_argparse_itself_would_use(monkeypatch, columns):
    """The CLI tells argparse the terminal's width (so that argparse need not import shutil); the
    help must come out as argparse's own formatter lays it out, whatever COLUMNS says."""
    import argparse

    from hashikit.cli.common import OneLineParser

    monkeypatch.setenv("COLUMNS", columns)

    def made(parser):
        parser.add_argument("--time-limit", metavar="SECONDS", help="give up after this long " * 6)
        parser.add_argument("file", help="puzzle file ('-' for standard input)")
        return parser.format_help()

    ours = made(OneLineParser(prog="hashikit solve", description="Solve a puzzle exactly. " * 5))
    theirs = made(argparse.ArgumentParser(prog="hashikit solve", description="Solve a puzzle exactly. " * 5,
                                          formatter_class=argparse.RawDescriptionHelpFormatter))
    assert ours == theirs
    if columns == "50":
        assert max(len(line) for line in ours.splitlines() if not line.startswith("Solve")) <= 50


def test_a_solve_that_is_the_whole_process_collects_seldom_and_one_in_a_caller_does_not(tmp_path):
    import gc

    from hashikit.cli.common import ONE_ANSWER_THRESHOLDS

    out = tmp_path / "out.json"
    before = gc.get_threshold()
    assert main(["solve", str(ROOT / "examples" / "prob-bridges.txt"), "--format", "json", "-o", str(out)]) == 0
    assert gc.get_threshold() == before != ONE_ANSWER_THRESHOLDS
    program = ("import gc, sys; from hashikit.cli.commands import main; "
               f"sys.argv = ['hashikit', 'solve', {str(ROOT / 'examples' / 'prob-bridges.txt')!r}, '--format', 'json', "
               f"'-o', {str(out)!r}]; code = main(); print(code, *gc.get_threshold())")
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60)
    assert done.stdout.split() == ["0", *map(str, ONE_ANSWER_THRESHOLDS)], done.stderr
    assert json.loads(out.read_text())["status"] == "solved"
