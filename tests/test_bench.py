"""``hashikit bench``: parallel runs, verified answers, the CSV, the Table-1 style table and bad input.

Every puzzle is written into tmp_path here (small random solvable boards, one
infeasible board); no shared data is copied or needed.
"""

from __future__ import annotations

import argparse
import re

import pytest

from hashikit import bench as lib
from hashikit.cli import bench
from hashikit.bench import running
from hashikit.formats import write_text
from hashikit.model import Puzzle, Solution

from conftest import random_puzzle

INFEASIBLE = [[1, 0, 1], [0, 0, 0], [1, 0, 1]]  # four 1s: two bridges cannot join four islands


def write(path, puzzle, fmt):
    path.write_text(write_text(puzzle, fmt), encoding="utf-8")
    return path


@pytest.fixture()
def folder(tmp_path):
    """A folder with solvable puzzles in three formats (one in a subfolder), one infeasible, and a non-puzzle."""
    d = tmp_path / "puzzles"
    (d / "sub").mkdir(parents=True)
    write(d / "a.txt", random_puzzle(6, 6, seed=1)[0], "grid")
    write(d / "b.has", random_puzzle(8, 8, seed=2)[0], "has")
    write(d / "sub" / "c.json", random_puzzle(7, 7, seed=3)[0], "json")
    write(d / "bad.txt", Puzzle.from_grid(INFEASIBLE), "grid")
    (d / "notes.md").write_text("not a puzzle\n")
    return d


def args(paths, **kw):
    ns = dict(paths=[str(p) for p in paths], engine="sat", jobs=2, time_limit=30.0, csv=None, md=None,
              plot=None, sample=None, seed=None, engine_option=[], quiet=True, resume=False)
    ns.update(kw)
    return argparse.Namespace(**ns)


def hs_folder(tmp_path, betas=(0, 5), alphas=(25, 75), count=2):
    """Small puzzles under Hs_<side>_<n>_<alpha>_<beta>_<idx>.has names (they are NOT the paper's instances)."""
    d = tmp_path / "hs"
    d.mkdir()
    seed = 10
    for alpha in alphas:
        for beta in betas:
            for idx in range(1, count + 1):
                seed += 1
                write(d / f"Hs_16_100_{alpha}_{beta:02d}_{idx:03d}.has", random_puzzle(6, 6, seed=seed)[0], "has")
    return d


def test_find_puzzles_recurses_by_extension(folder):
    found = sorted(p.replace(str(folder) + "/", "") for p in lib.find_puzzles([str(folder)]))
    assert found == ["a.txt", "b.has", "bad.txt", "sub/c.json"]


def test_bench_folder_csv_statuses_and_valid(folder, tmp_path, capsys):
    out = tmp_path / "out.csv"
    md = tmp_path / "out.md"
    code = bench.run(args([folder], csv=str(out), md=str(md)))
    assert code == 0  # an infeasible puzzle is an answer, not a failure
    rows = lib.read_csv(str(out))
    assert list(rows[0]) == lib.CSV_FIELDS
    by = {r["file"].rsplit("/", 1)[1]: r for r in rows}
    assert set(by) == {"a.txt", "b.has", "bad.txt", "c.json"}
    for name in ("a.txt", "b.has", "c.json"):
        assert by[name]["status"] == "solved"
        assert by[name]["valid"] is True
        assert by[name]["time"] > 0
        assert by[name]["islands"] > 1 and by[name]["n"] == by[name]["islands"]
        assert by[name]["engine"] == "sat"
        assert by[name]["group"] == ""
    assert by["bad.txt"]["status"] == "infeasible"
    assert by["bad.txt"]["valid"] == ""
    text = capsys.readouterr().out
    assert "by island count" in text
    assert "3 solutions verified" in text
    assert "by island count" in md.read_text()


def test_two_engines_and_per_engine_option(folder, tmp_path):
    pytest.importorskip("ortools")
    out = tmp_path / "two.csv"
    code = bench.run(args([folder], engine="sat,cpsat", csv=str(out), engine_option=["cpsat.num_workers=1"]))
    assert code == 0
    rows = lib.read_csv(str(out))
    assert len(rows) == 8
    for r in rows:
        assert r["status"] == ("infeasible" if r["file"].endswith("bad.txt") else "solved")
        assert r["valid"] == ("" if r["status"] == "infeasible" else True)
    assert {r["engine"] for r in rows} == {"sat", "cpsat"}


def test_hs_names_give_the_table1_layout(tmp_path, capsys):
    d = hs_folder(tmp_path)
    md = tmp_path / "t.md"
    out = tmp_path / "t.csv"
    assert bench.run(args([d], csv=str(out), md=str(md))) == 0
    rows = lib.read_csv(str(out))
    assert len(rows) == 8
    assert {(r["n"], r["alpha"], r["beta"]) for r in rows} == {(100, a, b) for a in (25, 75) for b in (0, 5)}
    assert all(r["group"] in ("100_25_00", "100_25_05", "100_75_00", "100_75_05") for r in rows)
    text = capsys.readouterr().out
    assert "Table 1 layout" in text and "beta=00" in text and "beta=05" in text
    # the per-n line carries the paper's published mean for n = 100 and the ratio
    line = next(ln for ln in text.splitlines() if ln.startswith("100 ") and "0.160" in ln)
    assert line.rstrip().endswith("x")
    assert "11.14" in text  # overall paper mean
    assert "not available" in text  # per-cell paper numbers are not invented
    m = md.read_text()
    assert "| n | alpha | beta=00 | beta=05 |" in m
    assert "arXiv:1905.00973" in m


def test_sample_takes_k_per_group(tmp_path):
    d = hs_folder(tmp_path, count=3)
    files = lib.find_puzzles([str(d)])
    assert len(files) == 12
    picked = lib.sample_files(files, 1, seed=7)
    assert len(picked) == 4
    assert len({lib.hs_group(f) for f in picked}) == 4
    assert picked == lib.sample_files(files, 1, seed=7)


def test_wrong_answer_is_reported_and_exits_1(folder, tmp_path, monkeypatch):
    import hashikit.solvers as solvers
    from hashikit.solvers import SolveResult, Status

    def liar(puzzle, engine="sat", time_limit=None, **options):
        return SolveResult(Status.SOLVED, Solution({}), engine=engine, stats={"time": 0.001})

    monkeypatch.setattr(solvers, "solve", liar)
    out = tmp_path / "w.csv"
    code = bench.run(args([folder / "a.txt"], jobs=1, csv=str(out)))
    assert code == 1
    (row,) = lib.read_csv(str(out))
    assert row["valid"] is False and row["message"].startswith("WRONG ANSWER")


def test_infeasible_contradicting_a_checked_solution_is_wrong():
    rows = [dict(file="x", engine="sat", status="solved", valid=True, message=""),
            dict(file="x", engine="milp", status="infeasible", valid="", message="")]
    running._cross_check(rows)
    assert rows[1]["valid"] is False


def _fake_capabilities(monkeypatch):
    """Engines that declare options, as solvers.capabilities does (used whether or not it has landed)."""
    import hashikit.solvers as solvers
    from hashikit.solvers.base import Capabilities

    declared = {"sat": Capabilities(options=(("solver", str), ("implied", bool))),
                "milp": Capabilities(options=(("weak", bool), ("fractional", bool), ("params", dict))),
                "cpsat": Capabilities(options=(("num_workers", int),))}
    monkeypatch.setattr(solvers, "capabilities", lambda name: declared[name], raising=False)


def test_engine_options_are_read_as_the_declared_types(monkeypatch):
    _fake_capabilities(monkeypatch)
    opts = lib.parse_engine_options(["milp.weak=False", "milp.fractional=no", 'milp.params={"a": 1}',
                                       "sat.solver=cadical", "cpsat.num_workers=2"], ["milp", "sat", "cpsat"])
    assert opts == {"milp": {"weak": False, "fractional": False, "params": {"a": 1}},
                    "sat": {"solver": "cadical"}, "cpsat": {"num_workers": 2}}
    every = ["milp", "sat", "cpsat"]
    for bad, engines, message in [("bogus=1", every, "has no option 'bogus'"),
                                  ("weak=False", every, "engine 'sat' has no option 'weak'"),
                                  ("milp.weak=maybe", every, "true or false"),
                                  ("cpsat.num_workers=1.5", every, "whole number"),
                                  ("milp.params=[1]", every, "JSON object"),
                                  ("cpsat.num_workers=1", ["sat"], "not benchmarked"),
                                  ("novalue", every, "expected key=value"),
                                  ("time_limit=3", every, "set by bench itself")]:
        with pytest.raises(lib.BenchError, match=re.escape(message)):
            lib.parse_engine_options([bad], engines)


def test_engine_options_without_a_registry_are_guessed(monkeypatch):
    import hashikit.solvers as solvers

    monkeypatch.delattr(solvers, "capabilities", raising=False)
    opts = lib.parse_engine_options(["weak=False", "milp.fractional=no", "x=1.5", "s=abc"], ["milp", "sat"])
    assert opts["milp"] == {"weak": False, "fractional": False, "x": 1.5, "s": "abc"}
    assert opts["sat"] == {"weak": False, "x": 1.5, "s": "abc"}


def test_an_undeclared_engine_option_is_bad_input(folder, capsys, monkeypatch):
    import hashikit.solvers as solvers

    if not hasattr(solvers, "capabilities"):
        _fake_capabilities(monkeypatch)
    assert bench.run(args([folder], engine_option=["bogus=1"])) == 2
    err = capsys.readouterr().err
    assert "engine 'sat' has no option 'bogus'" in err and err.count("\n") == 1


def test_generate_index_and_bench_tables_are_not_puzzles(folder):
    (folder / "index.csv").write_text("file,grade,score,islands,rows,cols,seed\na.txt,easy,3,4,6,6,1\n")
    (folder / "index.json").write_text('[{"file": "a.txt", "grade": "easy", "seed": 1}]')
    (folder / "sub" / "old-run.csv").write_text(",".join(lib.CSV_FIELDS) + "\n")
    write(folder / "grid.csv", random_puzzle(5, 5, seed=9)[0], "csv")  # a real puzzle in csv format stays
    found = sorted(p.replace(str(folder) + "/", "") for p in lib.find_puzzles([str(folder)]))
    assert found == ["a.txt", "b.has", "bad.txt", "grid.csv", "sub/c.json"]


def test_resume_runs_only_the_missing_pairs(folder, tmp_path, monkeypatch):
    import hashikit.solvers as solvers

    real = solvers.solve
    solved: list[int] = []

    def counting(puzzle, engine="sat", time_limit=None, **options):
        solved.append(len(puzzle.islands))
        return real(puzzle, engine=engine, time_limit=time_limit, **options)

    monkeypatch.setattr(solvers, "solve", counting)
    out = tmp_path / "r.csv"
    assert bench.run(args([folder / "a.txt", folder / "b.has"], jobs=1, csv=str(out))) == 0
    assert len(solved) == 2
    first = {r["file"]: r for r in lib.read_csv(str(out))}
    code = bench.run(args([folder / "a.txt", folder / "b.has", folder / "bad.txt"], jobs=1, csv=str(out),
                          resume=True))
    assert code == 0 and len(solved) == 3  # only bad.txt ran again
    rows = lib.read_csv(str(out))
    assert [r["file"].rsplit("/", 1)[1] for r in rows] == ["a.txt", "b.has", "bad.txt"]
    assert {r["file"]: r for r in rows}[str(folder / "a.txt")] == first[str(folder / "a.txt")]


def test_resume_needs_a_csv(folder, capsys):
    assert bench.run(args([folder], resume=True)) == 2
    assert "--resume needs --csv" in capsys.readouterr().err


def test_a_failed_worker_is_an_error_row():
    from hashikit.run.batch import Result

    job = running.bench_jobs(["x/Hs_16_100_25_05_001.has"], ["sat"], 5.0, {})[0]
    row = running.row_of(Result(job.key, 0, False, error="worker process died (killed by SIGKILL)", job=job))
    assert row["status"] == "error" and "SIGKILL" in row["message"] and row["group"] == "100_25_05"
    assert bench.exit_code(lib.BenchResult([row], ["sat"])) == 1


def test_bad_input_exit_2(tmp_path, capsys, monkeypatch):
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "readme.md").write_text("x")
    assert bench.run(args([empty])) == 2
    assert "no puzzle files found" in capsys.readouterr().err
    assert bench.run(args([tmp_path / "missing"])) == 2
    assert "no such file or folder" in capsys.readouterr().err
    p = write(tmp_path / "p.txt", random_puzzle(5, 5, seed=4)[0], "grid")
    assert bench.run(args([p], engine="sat,nosuch")) == 2
    assert "unknown engine 'nosuch'" in capsys.readouterr().err
    import hashikit.solvers as solvers

    monkeypatch.setitem(solvers.ENGINES, "ghost", ("hashikit_ghost_module", "missing", "hashikit[ghost]"))
    assert bench.run(args([p], engine="ghost")) == 2
    assert "pip install 'hashikit[ghost]'" in capsys.readouterr().err
    # an unreadable puzzle file is bad input too, after the others have run
    (tmp_path / "broken.has").write_text("3 3 x\n")
    out = tmp_path / "b.csv"
    assert bench.run(args([p, tmp_path / "broken.has"], jobs=1, csv=str(out))) == 2
    rows = {r["file"].rsplit("/", 1)[1]: r for r in lib.read_csv(str(out))}
    assert rows["p.txt"]["status"] == "solved" and rows["broken.has"]["status"] == "unreadable"


def test_plot_without_matplotlib_says_so(folder, tmp_path, capsys):
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        res = lib.BenchResult([], ["sat"])
        assert lib.plot(res, str(tmp_path / "p.png")) is False
        assert "install matplotlib to plot" in capsys.readouterr().err
    else:
        res = lib.run_bench(lib.find_puzzles([str(folder)]), ["sat"], jobs=1, progress=False)
        assert lib.plot(res, str(tmp_path / "p.png")) is True
        assert (tmp_path / "p.png").stat().st_size > 0


def _cli_has_bench():
    from hashikit.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return "bench" in sub.choices


def test_cli_bench(folder, tmp_path, capsys):
    if not _cli_has_bench():
        pytest.skip("the bench command is not wired into hashikit.cli yet")
    from hashikit.cli import main

    out = tmp_path / "cli.csv"
    assert main(["bench", str(folder), "--jobs", "2", "--csv", str(out), "-q"]) == 0
    assert len(lib.read_csv(str(out))) == 4
    assert main(["bench", str(folder), "--engine", "nosuch"]) == 2
    empty = tmp_path / "none"
    empty.mkdir()
    assert main(["bench", str(empty)]) == 2
