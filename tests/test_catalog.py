"""The SQLite catalogue: dedupe under the board's symmetries, many writers, export round-trip."""

from __future__ import annotations

import json
import multiprocessing
import os
import sqlite3

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hashikit.publish.catalog import Catalog, CatalogError, fingerprint
from hashikit.checker import check
from hashikit.formats import read_file
from hashikit.model import Puzzle, Solution

# -- helpers ----------------------------------------------------------------------------------


def transform(puzzle: Puzzle, k: int, solution: Solution | None = None):
    """Symmetry ``k`` (0-7) applied to a puzzle (and its solution): written independently of
    the catalogue's table, as quarter turns and a mirror."""
    rows, cols = puzzle.rows, puzzle.cols

    def turn(r, c, rows):  # quarter turn clockwise of a rows-high board
        return c, rows - 1 - r

    def move(r, c):
        R, C = rows, cols
        if k >= 4:
            c = C - 1 - c
        for _ in range(k % 4):
            r, c = turn(r, c, R)
            R, C = C, R
        return r, c

    new_rows, new_cols = (cols, rows) if k % 2 else (rows, cols)
    islands = [move(i.row, i.col) + (i.number,) for i in puzzle.islands]
    p = Puzzle(new_rows, new_cols, islands, puzzle.maxbridges, no_loops=puzzle.no_loops)
    if solution is None:
        return p
    s = Solution({(move(*a), move(*b)): n for (a, b), n in solution.bridges.items()})
    return p, s


@st.composite
def puzzles(draw):
    rows = draw(st.integers(1, 7))
    cols = draw(st.integers(1, 7))
    cells = draw(st.sets(st.tuples(st.integers(0, rows - 1), st.integers(0, cols - 1)),
                         min_size=1, max_size=rows * cols))
    maxb = draw(st.sampled_from([1, 2, 3]))
    islands = [(r, c, draw(st.integers(1, 4 * maxb))) for r, c in sorted(cells)]
    return Puzzle(rows, cols, islands, maxb, no_loops=draw(st.booleans()))


SQUARE = Puzzle.from_grid([[2, 0, 2], [0, 0, 0], [2, 0, 2]])


def small_generated(n, size=6, level="easy", first_seed=0):
    from hashikit.generate import generate_unique

    return [generate_unique(size, size, level, seed=first_seed + k) for k in range(n)]


# -- fingerprints ----------------------------------------------------------------------------------

@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles(), st.integers(0, 7))
def test_a_rotated_or_mirrored_puzzle_has_the_same_fingerprint(puzzle, k):
    assert fingerprint(transform(puzzle, k)) == fingerprint(puzzle)


@settings(max_examples=150, deadline=None)
@given(puzzles(), st.data())
def test_changing_one_number_or_the_variant_changes_the_fingerprint(puzzle, data):
    """The canonical form keeps everything that makes a puzzle: a different number at one
    island, a different MAXBRIDGES or the no-loops flag is a different puzzle."""
    i = data.draw(st.integers(0, len(puzzle.islands) - 1))
    isl = puzzle.islands[i]
    top = 4 * puzzle.maxbridges
    number = isl.number % top + 1
    if number != isl.number:
        islands = list(puzzle.islands)
        islands[i] = (isl.row, isl.col, number)
        changed = Puzzle(puzzle.rows, puzzle.cols, islands, puzzle.maxbridges, no_loops=puzzle.no_loops)
        assert fingerprint(changed) != fingerprint(puzzle)  # the numbers' multiset differs
    flipped = Puzzle(puzzle.rows, puzzle.cols, puzzle.islands, puzzle.maxbridges, no_loops=not puzzle.no_loops)
    assert fingerprint(flipped) != fingerprint(puzzle)
    more = Puzzle(puzzle.rows, puzzle.cols, puzzle.islands, puzzle.maxbridges + 1, no_loops=puzzle.no_loops)
    assert fingerprint(more) != fingerprint(puzzle)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(puzzles(), st.integers(1, 7))
def test_catalogue_rejects_a_mirror_or_rotation(tmp_path, puzzle, k):
    db = tmp_path / f"c{os.getpid()}.db"
    if db.exists():
        db.unlink()
    with Catalog(db) as cat:
        assert cat.add(puzzle) is True
        assert cat.add(transform(puzzle, k)) is False
        assert cat.add(puzzle) is False
        assert (len(cat), cat.added, cat.rejected) == (1, 1, 2)
        assert cat.has(transform(puzzle, (k + 3) % 8))
    db.unlink()


def test_all_eight_symmetries_of_a_generated_puzzle_are_one_entry(tmp_path):
    (p, s, g), = small_generated(1, size=7)
    with Catalog(tmp_path / "c.db") as cat:
        added = [cat.add(*transform(p, k, s), level=g.level, score=g.score) for k in range(8)]
        assert added == [True] + [False] * 7
        assert len(cat) == 1 and cat.rejected == 7


# -- writing and reading ----------------------------------------------------------------------------

def test_fields_are_stored_and_filters_select(tmp_path):
    items = small_generated(3, size=6, level="easy") + small_generated(3, size=7, level="medium", first_seed=10)
    with Catalog(tmp_path / "c.db") as cat:
        for k, (p, s, g) in enumerate(items):
            assert cat.add(p, s, level=g.level, score=g.score, seed=k)
        every = cat.query()
        assert [e.level for e in every] == ["easy"] * 3 + ["medium"] * 3
        for e in every:
            assert e.islands == len(e.puzzle.islands) and e.generator.startswith("hashikit")
            assert check(e.puzzle, e.solution).ok
        assert {e.rows for e in cat.query(size="7x7")} == {7} and len(cat.query(size="7x7")) == 3
        assert len(cat.query(level="medium", size="6x6")) == 0
        scores = sorted(e.score for e in every)
        mid = scores[len(scores) // 2]
        assert all(e.score >= mid for e in cat.query(score=(mid, None)))
        assert len(cat.query(score=(mid, None))) + len(cat.query(score=(None, mid - 1))) == 6
        assert cat.query(maxbridges=3) == [] and len(cat.query(no_loops=False)) == 6


def test_no_loops_variant_survives_the_round_trip(tmp_path):
    p = Puzzle(3, 3, SQUARE.islands, no_loops=True)
    with Catalog(tmp_path / "c.db") as cat:
        assert cat.add(p) and cat.add(SQUARE)  # two variants, two puzzles
        (entry,) = cat.query(no_loops=True)
        assert entry.puzzle == p


def test_bad_input_is_refused_clearly(tmp_path):
    bad = tmp_path / "bad.db"
    bad.write_text("not a database at all, just text " * 100)
    with pytest.raises(CatalogError, match="not a hashikit catalogue"):
        Catalog(bad)
    with pytest.raises(CatalogError, match="no such catalogue"):
        Catalog(tmp_path / "missing.db", create=False)
    with Catalog(tmp_path / "c.db") as cat:
        with pytest.raises(CatalogError, match="breaks the rules"):
            cat.add(SQUARE, Solution({((0, 0), (0, 2)): 1}))
        with pytest.raises(CatalogError, match="unknown level"):
            cat.add(SQUARE, level="impossible")
        with pytest.raises(CatalogError, match="unknown catalogue field"):
            cat.add(SQUARE, colour="red")
        with pytest.raises(CatalogError, match="size"):
            cat.query(size="big")
        assert len(cat) == 0


# -- many writers -----------------------------------------------------------------------------------

def _writer(path: str, seeds: list[int], queue) -> None:
    from hashikit.generate import generate_unique

    cat = Catalog(path)
    for seed in seeds:
        p, s, g = generate_unique(6, 6, "easy", seed=seed)
        cat.add(p, s, level=g.level, score=g.score, seed=seed)
    queue.put((cat.added, cat.rejected))
    cat.close()


def test_concurrent_adds_from_several_processes(tmp_path):
    """Three processes add overlapping seed ranges at once: every distinct puzzle once, and the
    added/rejected counts add up."""
    path = str(tmp_path / "c.db")
    Catalog(path).close()
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")  # fork: no re-imports
    queue = ctx.Queue()
    ranges = [list(range(k * 8, k * 8 + 16)) for k in range(3)]  # each overlaps the next
    procs = [ctx.Process(target=_writer, args=(path, seeds, queue)) for seeds in ranges]
    for proc in procs:
        proc.start()
    counts = [queue.get(timeout=120) for _ in procs]
    for proc in procs:
        proc.join(30)
        assert proc.exitcode == 0
    distinct = {fingerprint(p) for p, _, _ in small_generated(32, size=6)}
    with Catalog(path) as cat:
        assert cat.fingerprints() == distinct
    assert sum(a for a, _ in counts) == len(distinct)
    assert sum(a + r for a, r in counts) == 48
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


# -- export -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("fmt", ["json", "tatham", "has", "grid", "json-solution", "solved"])
def test_export_round_trip(tmp_path, fmt):
    items = small_generated(4, size=7, level="medium")
    with Catalog(tmp_path / "c.db") as cat:
        for p, s, g in items:
            cat.add(p, s, level=g.level, score=g.score)
        paths = cat.export(fmt, tmp_path / "out")
        assert len(paths) == 4
        index = json.loads((tmp_path / "out" / "index.json").read_text())
        assert [row["file"] for row in index] == [os.path.basename(x) for x in paths]
        back = [read_file(x) for x in paths]
        assert {fingerprint(d.puzzle) for d in back} == cat.fingerprints()
        for d in back:
            if d.solution is not None:
                assert check(d.puzzle, d.solution).ok


def test_export_jsonl_and_filters(tmp_path):
    items = small_generated(2, size=6) + small_generated(2, size=7, level="medium", first_seed=5)
    with Catalog(tmp_path / "c.db") as cat:
        for p, s, g in items:
            cat.add(p, s, level=g.level, score=g.score)
        cat.export("json", tmp_path / "med.jsonl", level="medium", with_solution=True)
        cat.export(None, tmp_path / "all.jsonl")
    lines = (tmp_path / "med.jsonl").read_text().splitlines()
    assert len(lines) == 2
    from hashikit.formats import read_text
    for line in lines:
        record = json.loads(line)
        assert record["catalog"]["level"] == "medium"
        doc = read_text(line, "json")  # each line is a hashikit JSON puzzle with its bridges
        assert check(doc.puzzle, doc.solution).ok
    assert all("bridges" not in json.loads(line) for line in (tmp_path / "all.jsonl").read_text().splitlines())


def test_export_solutions_from_a_catalogue_without_them(tmp_path):
    """A catalogue filled before solutions were kept: the solver finds them, the checker passes them."""
    (p, s, g), = small_generated(1, size=6)
    with Catalog(tmp_path / "c.db") as cat:
        cat.add(p, level=g.level, score=g.score)
        (path,) = cat.export("solved", tmp_path / "out")
    doc = read_file(path)
    assert check(doc.puzzle, doc.solution).ok


# -- the command line --------------------------------------------------------------------------------

def cli(*argv) -> int:
    """Run a catalogue command as the main command does (a HashikitError is exit 2)."""
    import argparse

    from hashikit.cli.catalog import add_parsers
    from hashikit.errors import HashikitError

    parser = argparse.ArgumentParser(prog="hashikit")
    add_parsers(parser.add_subparsers(dest="command"))
    args = parser.parse_args([str(a) for a in argv])
    try:
        return args.func(args)
    except HashikitError as exc:
        print(f"hashikit: error: {exc}")
        return 2


def test_cli_add_list_export(tmp_path, capsys):
    from hashikit.formats import write_text

    folder = tmp_path / "in"
    folder.mkdir()
    items = small_generated(3, size=7, level="medium")
    for k, (p, s, g) in enumerate(items):
        (folder / f"p{k}.txt").write_text(write_text(p, "grid"))
    p0, s0, _ = items[0]
    (tmp_path / "mirror.tatham").write_text(write_text(transform(p0, 5), "tatham"))
    db = tmp_path / "c.db"
    assert cli("catalog", "add", db, folder, tmp_path / "mirror.tatham") == 0
    out = capsys.readouterr()
    assert "added 3, rejected 1" in out.out and "mirror.tatham: already in the catalogue" in out.err

    assert cli("catalog", "list", db, "--format", "json", "--level", "medium") == 0
    listed = json.loads(capsys.readouterr().out)
    assert len(listed) == 3 and all(e["level"] == "medium" and e["size"] == "7x7" for e in listed)
    assert [e["score"] for e in listed] == sorted(e["score"] for e in listed)
    assert cli("catalog", "list", db, "--size", "9x9") == 0
    assert "0 puzzle(s)" in capsys.readouterr().err

    assert cli("catalog", "export", db, tmp_path / "out", "--to", "json-solution") == 0
    back = [read_file(str(x)) for x in sorted((tmp_path / "out").glob("*.sol.json"))]
    assert len(back) == 3 and all(check(d.puzzle, d.solution).ok for d in back)
    with Catalog(db) as cat:
        assert {fingerprint(d.puzzle) for d in back} == cat.fingerprints()


def test_cli_bad_input_is_exit_2_and_adds_nothing(tmp_path, capsys):
    good = tmp_path / "good.txt"
    good.write_text("2.2\n...\n2.2\n")
    bad = tmp_path / "bad.txt"
    bad.write_text("2.2\n..\n")
    db = tmp_path / "c.db"
    assert cli("catalog", "add", db, good, bad) == 2
    assert "bad.txt" in capsys.readouterr().out
    with Catalog(db) as cat:
        assert len(cat) == 0  # the good file was not added either: all files are read first
    nosol = tmp_path / "nosol.txt"
    nosol.write_text("1.1\n...\n1.1\n")  # two pairs that cannot join
    assert cli("catalog", "add", db, nosol) == 2
    assert "no solution" in capsys.readouterr().out
    assert cli("catalog", "list", tmp_path / "missing.db") == 2
    assert "no such catalogue" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exc:  # a format name is checked by the parser
        cli("catalog", "export", db, tmp_path / "o", "--to", "nonsense")
    assert exc.value.code == 2 and "unknown format" in capsys.readouterr().err
    assert cli("catalog", "list", db, "--min-score", "9", "--max-score", "3") == 2
    with pytest.raises(SystemExit) as exc:
        cli("catalog", "list", db, "--size", "0x5")
    assert exc.value.code == 2


def hashikit(*argv) -> int:
    """The whole command line (argparse's refusals included) and its exit code."""
    from hashikit.cli import main

    try:
        return main([str(a) for a in argv])
    except SystemExit as exc:
        return exc.code


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    """A folder and a catalogue as `generate --count --catalog` writes them (a 6x9 board: 6 rows)."""
    root = tmp_path_factory.mktemp("gen")
    assert hashikit("generate", "--size", "6x9", "--difficulty", "easy", "--count", "3", "--seed", "4",
                    "--out-dir", root / "easy", "--jobs", "1", "--catalog", root / "gen.db") == 0
    return root


def test_generate_catalog_stores_every_solution_and_export_writes_them(generated, tmp_path, capsys):
    with sqlite3.connect(generated / "gen.db") as db:
        assert db.execute("SELECT count(solution), count(*) FROM puzzles").fetchone() == (3, 3)
    for fmt in ("solved", "json-solution", "solved-unicode"):
        assert hashikit("catalog", "export", generated / "gen.db", tmp_path / fmt, "--to", fmt) == 0
        docs = [read_file(str(x)) for x in sorted((tmp_path / fmt).iterdir()) if x.name != "index.json"]
        assert len(docs) == 3 and all(check(d.puzzle, d.solution).ok for d in docs)
    assert hashikit("catalog", "export", generated / "gen.db", tmp_path / "j", "--solutions") == 0
    docs = [read_file(str(x)) for x in (tmp_path / "j").glob("*.json") if x.name != "index.json"]
    assert len(docs) == 3 and all(d.solution is not None and check(d.puzzle, d.solution).ok for d in docs)
    paper = tmp_path / "paper.db"  # the paper's generator gives no solution: the solver finds one
    assert hashikit("generate", "--islands", "12", "--size", "6x7", "--seed", "3", "-o", tmp_path / "p.has",
                    "--catalog", paper) == 0
    with Catalog(paper) as cat:
        (entry,) = cat.query()
        assert (entry.rows, entry.cols) == (6, 7) and check(entry.puzzle, entry.solution).ok
    single = tmp_path / "one.db"
    assert hashikit("generate", "--size", "6", "--difficulty", "medium", "--seed", "3", "-o", tmp_path / "one.txt",
                    "--catalog", single) == 0
    with sqlite3.connect(single) as db:
        assert db.execute("SELECT count(solution) FROM puzzles").fetchone() == (1,)


def test_catalog_add_reads_a_generate_folder_with_its_seeds_and_levels(generated, tmp_path, capsys):
    folder = generated / "easy"
    assert (folder / "generate.jsonl").exists()
    db = tmp_path / "c.db"
    assert hashikit("catalog", "add", db, folder) == 0
    assert "added 3, rejected 0" in capsys.readouterr().out
    index = {row["seed"]: row for row in json.loads((folder / "index.json").read_text())}
    with Catalog(db) as cat:
        entries = cat.query()
    assert {e.seed for e in entries} == {str(s) for s in index}
    assert all(e.level == index[int(e.seed)]["grade"] == "easy" for e in entries)
    wrong = tmp_path / "wrong"
    wrong.mkdir()
    for f in folder.iterdir():
        (wrong / f.name).write_bytes(f.read_bytes())
    (wrong / "index.csv").write_text((folder / "index.csv").read_text().replace(",easy,", ",expert,", 1))
    assert hashikit("catalog", "add", tmp_path / "w.db", wrong) == 2
    assert "index says expert, but it grades easy" in capsys.readouterr().err


def test_size_means_rows_by_columns_in_every_command(generated, tmp_path, capsys):
    """generate --size 6x9 makes boards of 6 rows and 9 columns; list, export and book find them by 6x9."""
    with Catalog(generated / "gen.db") as cat:
        assert {(e.rows, e.cols) for e in cat.query()} == {(6, 9)}
    for path in (generated / "easy").glob("*.txt"):
        assert path.name.startswith("easy-6x9-")
        p = read_file(str(path)).puzzle
        assert (p.rows, p.cols) == (6, 9)
    capsys.readouterr()
    assert hashikit("catalog", "list", generated / "gen.db", "--size", "6x9", "--format", "json") == 0
    listed = json.loads(capsys.readouterr().out)
    assert len(listed) == 3 and {e["size"] for e in listed} == {"6x9"}
    assert hashikit("catalog", "list", generated / "gen.db", "--size", "9x6", "--format", "json") == 0
    assert json.loads(capsys.readouterr().out) == []
    assert hashikit("catalog", "export", generated / "gen.db", tmp_path / "o", "--size", "6x9") == 0
    assert len(list((tmp_path / "o").glob("0*.json"))) == 3
    assert hashikit("book", generated / "gen.db", "-o", tmp_path / "b.pdf", "--size", "6x9", "--jobs", "1") == 0
    assert "Easy 6x9: 3 puzzles" in capsys.readouterr().err
    assert hashikit("book", generated / "gen.db", "-o", tmp_path / "b.pdf", "--size", "9x6") == 2
    assert hashikit("generate", "--help") == 0
    assert "ROWSxCOLS" in capsys.readouterr().out


def test_export_refuses_what_cannot_hold_a_solution_or_be_read_back(generated, tmp_path, capsys):
    db = generated / "gen.db"
    for argv, message in ((["--to", "tatham", "--solutions"], "'tatham' cannot hold a solution"),
                          (["--to", "grid", "--solutions"], "'grid' cannot hold a solution"),
                          (["--to", "dot"], "'dot' cannot be read back")):
        assert hashikit("catalog", "export", db, tmp_path / "x", *argv) == 2
        assert message in capsys.readouterr().err
        assert not (tmp_path / "x").exists()  # refused before anything is written
    assert hashikit("catalog", "export", db, tmp_path / "x.jsonl", "--to", "tatham") == 2
    assert "holds hashikit JSON lines" in capsys.readouterr().err


READABLE = ["json", "json-solution", "solved", "solved-unicode", "grid", "csv", "has", "tatham", "puzzlink",
            "ohmec", "pzprv3"]


@pytest.mark.parametrize("fmt", READABLE + ["jsonl"])
def test_every_export_reads_back_with_hashikit_solve(generated, tmp_path, capsys, monkeypatch, fmt):
    import io

    db = generated / "gen.db"
    with Catalog(db) as cat:
        entries = {e.fingerprint: e for e in cat.query()}
    if fmt == "jsonl":
        assert hashikit("catalog", "export", db, tmp_path / "all.jsonl", "--solutions") == 0
        texts = (tmp_path / "all.jsonl").read_text().splitlines()
    else:
        assert hashikit("catalog", "export", db, tmp_path / "out", "--to", fmt) == 0
        texts = [x.read_text() for x in sorted((tmp_path / "out").iterdir()) if x.name != "index.json"]
    assert len(texts) == 3
    capsys.readouterr()
    for text in texts:
        monkeypatch.setattr("sys.stdin", io.StringIO(text))
        assert hashikit("solve", "-", "--format", "json", *(["--from", fmt] if fmt in ("csv", "has") else [])) == 0
        report = json.loads(capsys.readouterr().out)
        assert report["status"] == "solved"
        from hashikit.formats import read_text

        doc = read_text(text, "json" if fmt == "jsonl" else fmt)
        assert fingerprint(doc.puzzle) in entries
        solution = Solution.from_list(report["bridges"])
        assert check(doc.puzzle, solution).ok
        if doc.solution is not None:
            assert doc.solution.bridges == solution.bridges  # unique: the exported one is the solver's
