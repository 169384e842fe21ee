"""Trying to destroy data with every option that writes, of every command: the list of commands and
options comes from the CLI's own parser (:func:`writing_options`), so a new writing option that
has no case here fails :func:`test_every_writing_option_has_its_cases`.

Each option is pointed at each file the command reads, at another output of the same command, at an
unwritable path, at a folder, at a name with an unknown ending and at a path under a file: exit 2,
one line, no traceback, and the working folder byte-for-byte as it was.  Then a real run is
interrupted in the middle of its write (Ctrl-C as the file's bytes go out, and again at the rename):
exit 130, one line, every file that was there as it was, no partial file.  Commands run in this
process (``main(argv)``) on small inputs, so the whole set stays within a few seconds.
"""

from __future__ import annotations

import argparse
import builtins
import hashlib
import itertools
import os
import shutil
import sqlite3

import pytest

from hashikit.cli import main
from hashikit.cli.output import role
from hashikit.files import is_part

from conftest import cli_commands

#: an easy 5x5 puzzle with one solution
PUZZLE = "4.4.4\n.....\n.....\n.....\n4.3.3\n"




def writing_options() -> dict[tuple[tuple[str, ...], str], object]:
    """(command words, dest) -> the argparse action of every option declared as writing."""
    return {(words, a.dest): a for words, p in cli_commands() for a in p._actions
            if role(a) is not None and role(a).writes}


def _opt(flag, value):
    return [] if value is None else [flag, value]


GEN = ["generate", "--size", "5", "--difficulty", "easy", "--seed", "3"]

#: each command that writes: its argv from the paths its writing options are given (by dest); the
#: options not given keep their defaults, required ones a good name
COMMANDS = {
    ("solve",): lambda d: ["solve", "shot.png" if "show" in d else "p.txt", *_opt("-o", d.get("output")),
                           *_opt("--svg", d.get("svg")), *_opt("--show", d.get("show")), "-q"],
    ("convert",): lambda d: ["convert", "shot.png" if "show" in d else "p.txt", d.get("output", "out.json"),
                             *_opt("--show", d.get("show"))],
    ("render",): lambda d: ["render", "p.txt", d.get("output", "out.svg")],
    ("hint",): lambda d: ["hint", "shot.png" if "show" in d else "p.txt", *_opt("--svg", d.get("svg")),
                          *_opt("--show", d.get("show"))],
    ("generate",): lambda d: [*GEN, *(["--count", "2", "--jobs", "1"] if "out_dir" in d else []),
                              *_opt("-o", d.get("output")), *_opt("--out-dir", d.get("out_dir")),
                              *_opt("--catalog", d.get("catalog"))],
    ("generate-suite",): lambda d: ["generate-suite", "--per-group", "1", "--islands", "100", "--jobs", "1",
                                    "--seed", "1", "--out-dir", d.get("out_dir", "suite"),
                                    *_opt("--catalog", d.get("catalog"))],
    ("catalog", "add"): lambda d: ["catalog", "add", d.get("db", "new.db"), "p.txt"],
    ("catalog", "export"): lambda d: ["catalog", "export", "cat.db", d.get("out", "exported")],
    ("book",): lambda d: ["book", "cat.db", "-o", d.get("output", "b.pdf"), "--jobs", "1",
                          *(["--solutions", "separate", "--answers", d["answers"]] if "answers" in d else []),
                          *_opt("--pages", d.get("pages"))],
    ("bench",): lambda d: ["bench", "p.txt", "--jobs", "1", "-q", *_opt("--csv", d.get("csv")),
                           *_opt("--md", d.get("md")), *_opt("--plot", d.get("plot"))],
    ("site",): lambda d: ["site", d.get("out", "public")],
}

#: a good name for each writing option (its ending one the option writes)
GOOD = {"output": "out.sol", "svg": "out.svg", "show": "read.png", "out_dir": "made", "catalog": "new.db",
        "db": "new.db", "out": "exported", "answers": "answers.pdf", "pages": "pages", "csv": "t.csv",
        "md": "t.md", "plot": "t.png"}
GOOD_FOR = {(("convert",), "output"): "out.json", (("render",), "output"): "out.svg",
            (("generate",), "output"): "g.txt", (("book",), "output"): "b.pdf"}
#: what each kind of output is, and an ending none of them writes
FOLDERS = {"folder"}
UNKNOWN = "out.unknownending"
#: files a stopped run leaves on purpose, for a re-run to go on from (the batch logs, bench's rows)
RESUME_LOGS = ("generate.jsonl", "generate-suite.jsonl", ".progress")


def good(key) -> str:
    return GOOD_FOR.get(key, GOOD[key[1]])


def argv_for(key, path: str) -> list[str]:
    words, dest = key
    return COMMANDS[words]({dest: path})


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    """The inputs every case starts from: a puzzle, its picture, a catalogue of three puzzles."""
    from hashikit import render
    from hashikit.formats import read_text
    from hashikit.generate import generate_unique
    from hashikit.publish.catalog import Catalog

    d = tmp_path_factory.mktemp("inputs")
    (d / "p.txt").write_text(PUZZLE)
    puzzle = read_text(PUZZLE, "grid").puzzle
    (d / "shot.png").write_bytes(render.png(puzzle, cell=40))
    with Catalog(d / "cat.db") as cat:
        for seed in (1, 2, 3):
            p, s, g = generate_unique(5, 5, "easy", seed=seed)
            cat.add(p, s, level=g.level, score=g.score, seed=seed)
    (d / "folder").mkdir()
    return d


@pytest.fixture()
def work(template, tmp_path, monkeypatch):
    d = tmp_path / "w"
    shutil.copytree(template, d)
    monkeypatch.chdir(d)
    return d


def snapshot(folder) -> dict[str, str]:
    """Every file under ``folder`` (SQLite's side files aside) and a hash of its bytes."""
    out = {}
    for root, dirs, files in os.walk(folder):
        for name in dirs:
            out[os.path.relpath(os.path.join(root, name), folder) + "/"] = "folder"
        for name in files:
            if name.endswith(("-shm", "-wal")):
                continue
            path = os.path.join(root, name)
            with open(path, "rb") as fh:
                out[os.path.relpath(path, folder)] = hashlib.sha256(fh.read()).hexdigest()
    return out


def one_line_refusal(capsys, code: int, expect: int = 2) -> str:
    """The refusal (exit 2) is one line; an interruption (exit 130) ends with one line after what the
    command had said until then (its progress)."""
    out, err = capsys.readouterr()
    assert code == expect, (code, err)
    assert "Traceback" not in err and "internal error" not in err, err
    if expect == 130:
        assert err.strip().splitlines()[-1] == "hashikit: interrupted", err
    else:
        assert len(err.strip().splitlines()) == 1, err
    return err


KEYS = sorted(writing_options())
ids = [f"{' '.join(w)}:{d}" for w, d in KEYS]


def test_every_writing_option_has_its_cases():
    """Built from the parser: every option declared as writing has a command line here, and no option
    that takes a free text goes undeclared (a path it writes would escape these tests)."""
    assert {w for w, _ in KEYS} == set(COMMANDS), "a command writes without a case in COMMANDS"
    assert all(d in GOOD for _, d in KEYS), "a writing option has no good name in GOOD"
    #: options of free text that are no file: titles, names of engines, formats and the like
    texts = {"title", "subtitle", "author", "copyright", "engine", "engine_option", "cluster", "ext", "host",
             "from_format", "to", "solution_format", "state_format", "trusted_proxy"}
    undeclared = [(w, a.dest) for w, p in cli_commands() for a in p._actions
                  if a.nargs != 0 and a.type is None and not a.choices and role(a) is None
                  and a.dest not in texts and not isinstance(a, argparse._HelpAction)]
    assert not undeclared, f"options of free text neither declared read or written, nor listed as text: {undeclared}"


def _inputs_of(argv: list[str], work) -> list[str]:
    return [t for t in argv if (work / t).is_file()]


@pytest.mark.parametrize("key", KEYS, ids=ids)
def test_an_output_that_is_an_input_is_refused(key, work, capsys):
    """Each file the command reads, spelt as given, with ``./`` and as an absolute path."""
    words, dest = key
    # the generators read no file; a catalogue given to --catalog is one they read as well
    extra = {"catalog": "cat.db"} if words[0].startswith("generate") and dest != "catalog" else {}
    inputs = [t for t in COMMANDS[words]({dest: good(key), **extra}) if (work / t).is_file()]
    if not inputs:
        pytest.skip(f"{' '.join(words)} reads no file when {dest} is written")
    before = snapshot(work)
    for path in inputs:
        for spelling in (path, f"./{path}", str(work / path)):
            err = one_line_refusal(capsys, main(COMMANDS[words]({dest: spelling, **extra})))
            assert snapshot(work) == before, spelling
            assert spelling in err, err


@pytest.mark.parametrize("key", KEYS, ids=ids)
def test_an_output_that_is_a_link_to_an_input_is_refused(key, work, capsys):
    """The same file under another name (a hard link, a symbolic link) is the same file."""
    os.link(work / "p.txt", work / "hard.txt")
    os.symlink("cat.db", work / "soft.db")
    before = snapshot(work)
    for other in ("hard.txt", "soft.db"):
        argv = argv_for(key, other)
        original = "p.txt" if other == "hard.txt" else "cat.db"
        if original not in argv and not (key[1] in ("catalog", "db")):
            continue
        if key[1] in ("catalog", "db") and other == "soft.db":
            continue  # a catalogue reached through a link is still that catalogue: adding to it is the point
        one_line_refusal(capsys, main(argv))
        assert snapshot(work) == before


def _pairs():
    for words in COMMANDS:
        dests = sorted(d for w, d in KEYS if w == words)
        for a, b in itertools.combinations(dests, 2):
            yield words, a, b


@pytest.mark.parametrize("words, a, b", list(_pairs()), ids=[f"{' '.join(w)}:{a}={b}" for w, a, b in _pairs()])
def test_two_outputs_that_are_one_file_are_refused(words, a, b, work, capsys):
    before = snapshot(work)
    for name in {GOOD[a], GOOD[b]}:
        one_line_refusal(capsys, main(COMMANDS[words]({a: name, b: name})))
    assert snapshot(work) == before
    shared = {frozenset({"output", "answers"}): "same.pdf", frozenset({"svg", "show"}): "same.png"}
    if frozenset({a, b}) in shared:  # both take the same ending: the sameness speaks
        name = shared[frozenset({a, b})]
        err = one_line_refusal(capsys, main(COMMANDS[words]({a: name, b: name})))
        assert "same file" in err, err


@pytest.mark.parametrize("key", KEYS, ids=ids)
@pytest.mark.parametrize("case", ["unwritable", "folder", "ending", "under a file", "missing folder"])
def test_a_bad_output_path_is_refused_before_any_work(key, case, work, capsys, monkeypatch):
    kind = role(writing_options()[key]).kind
    name = good(key)
    ext = os.path.splitext(name)[1]
    path = {"unwritable": f"/proc/hashikit-cannot-{name}", "folder": "folder", "ending": UNKNOWN,
            "under a file": f"p.txt/{name}", "missing folder": f"no/such/place/{name}"}[case]
    if case == "folder" and kind in ("folder", "file-or-folder"):
        path = "p.txt"  # a folder option given a file
    if case == "ending" and kind in ("folder", "file-or-folder"):
        if kind == "folder":
            pytest.skip("a folder has no ending")
        path = "out.pdf"
    if case == "missing folder" and kind in ("folder", "file-or-folder"):
        pytest.skip("a folder option makes the folders it needs")
    if case == "ending" and not ext:
        pytest.skip("this option writes a folder")
    # the work must not start: a command that got past the checks would call the engine or generator
    import hashikit.service as service

    def no_work(*a, **k):
        raise AssertionError("work started before the output path was checked")
    for name_ in ("solve", "generate_record", "hint", "analyze"):
        monkeypatch.setattr(service, name_, no_work)
    before = snapshot(work)
    one_line_refusal(capsys, main(argv_for(key, path)))
    assert snapshot(work) == before
    assert not os.path.exists("/proc/hashikit-cannot-" + name)


class _Interrupted(Exception):
    pass


class _HalfWriter:
    """A file being written whose second half is cut off by Ctrl-C."""

    def __init__(self, fh):
        self._fh = fh

    def write(self, data):
        self._fh.write(data[: max(1, len(data) // 2)])
        self._fh.flush()
        raise KeyboardInterrupt

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return self._fh.__exit__(*exc)

    def __getattr__(self, name):
        return getattr(self._fh, name)


def _staged(path) -> bool:
    """Whether a path is a temporary file (or in a temporary folder) of :mod:`hashikit.files`."""
    return any(is_part(part) for part in os.fspath(path).split(os.sep))


@pytest.fixture()
def cut_mid_write(monkeypatch):
    """Ctrl-C in the middle of the first write to any temporary output (through ``open`` or
    ``os.fdopen``)."""
    real_open, real_fdopen, real_osopen = builtins.open, os.fdopen, os.open
    staged_fds = set()

    def osopen(path, flags, *a, **k):
        fd = real_osopen(path, flags, *a, **k)
        if _staged(path):
            staged_fds.add(fd)
        return fd

    def fdopen(fd, mode="r", *a, **k):
        fh = real_fdopen(fd, mode, *a, **k)
        return _HalfWriter(fh) if fd in staged_fds and any(m in mode for m in "wa") else fh

    def opener(file, mode="r", *a, **k):
        fh = real_open(file, mode, *a, **k)
        if isinstance(file, (str, bytes, os.PathLike)) and _staged(os.fsdecode(file)) and any(m in mode for m in "wa"):
            return _HalfWriter(fh)
        return fh

    monkeypatch.setattr(os, "open", osopen)
    monkeypatch.setattr(os, "fdopen", fdopen)
    monkeypatch.setattr(builtins, "open", opener)


@pytest.fixture()
def cut_at_rename(monkeypatch):
    """Ctrl-C as the first complete temporary output is renamed into place."""
    real = os.replace

    def replace(src, dst, *a, **k):
        if _staged(src):
            raise KeyboardInterrupt
        return real(src, dst, *a, **k)

    monkeypatch.setattr(os, "replace", replace)


def _old_outputs(key, work):
    """The output as it was before: a file with old bytes, or a folder holding an old file."""
    kind = role(writing_options()[key]).kind
    name = good(key)
    if kind in ("folder", "file-or-folder"):
        (work / name).mkdir()
        old = "page-001.svg" if key[1] == "pages" else "00001.json" if key[1] == "out" else "index.json"
        (work / name / old).write_text("old and precious\n")
        if key[0] == ("site",):  # a site written before (the only folder it writes over)
            from hashikit.web.site import MARKER

            (work / name / MARKER).write_text("old and precious\n")
    elif kind == "catalogue":
        shutil.copy(work / "cat.db", work / name)
    else:
        (work / name).write_text("old and precious\n")
    return name


def _rows(db) -> list:
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return con.execute("SELECT fingerprint, puzzle, solution FROM puzzles ORDER BY fingerprint").fetchall()
    finally:
        con.close()


def _needs(key):
    if key[0] == ("site",):
        from site_build import pyodide_or_skip

        pyodide_or_skip()
    if "show" in key[1]:
        pytest.importorskip("cv2", reason='reading a picture needs OpenCV (pip install ".[photo]")')
    if key[1] == "plot":
        pytest.importorskip("matplotlib", reason='the plot needs matplotlib (pip install ".[plot]")')


#: the interruptions that cost more than a second or so (a book's fonts, matplotlib's start): under -m slow
COSTLY = {(("book",), "answers"), (("book",), "pages"), (("bench",), "plot")}


def _interruptions():
    for key, name in zip(KEYS, ids):
        for where in ("mid-write", "rename"):
            slow = key in COSTLY or (where == "rename" and key[0] == ("book",))
            yield pytest.param(key, where, id=f"{where}-{name}", marks=[pytest.mark.slow] if slow else [])


@pytest.mark.parametrize("key, where", list(_interruptions()))
def test_an_interrupted_write_leaves_the_old_file_and_no_part(key, where, work, capsys, request):
    _needs(key)
    kind = role(writing_options()[key]).kind
    name = _old_outputs(key, work)
    before = snapshot(work)
    if kind == "catalogue":
        _interrupt_catalogue(key, name, work, capsys, request)
        return
    request.getfixturevalue("cut_mid_write" if where == "mid-write" else "cut_at_rename")
    one_line_refusal(capsys, main(argv_for(key, name)), expect=130)
    after = snapshot(work)
    assert not [p for p in after if _staged(p)], "a temporary file was left behind"
    changed = {p for p in before if after.get(p) != before[p]}
    assert not changed, f"files changed by an interrupted run: {changed}"
    new = {p for p in after if p not in before}
    assert all(p.endswith("/") or p.endswith(RESUME_LOGS) for p in new), f"files left by an interrupted run: {new}"


def _interrupt_catalogue(key, name, work, capsys, request):
    """A catalogue is written by SQLite in transactions: Ctrl-C half-way through storing the rows
    leaves the catalogue's puzzles as they were."""
    import hashikit.publish.catalog as catalog

    before = _rows(work / name)
    real = catalog.Catalog.add_rows

    def half(self, rows):
        class Cut:
            def __init__(self, db):
                self._db = db

            def executemany(self, sql, params):
                self._db.executemany(sql, list(params)[: max(1, len(params) // 2)])
                raise KeyboardInterrupt

            def __getattr__(self, attr):
                return getattr(self._db, attr)
        db, self._db = self._db, Cut(self._db)
        try:
            return real(self, rows)
        finally:
            self._db = db

    mp = request.getfixturevalue("monkeypatch")
    mp.setattr(catalog.Catalog, "add_rows", half)
    one_line_refusal(capsys, main(argv_for(key, name)), expect=130)
    assert _rows(work / name) == before
    assert not [p for p in snapshot(work) if _staged(p)]


def test_a_folder_output_is_taken_whatever_the_folders_around_it_hold(tmp_path):
    """A new folder beside a folder named like the checker's probe, and an existing folder that
    holds one, are both writable folders."""
    from hashikit.cli.output import Role, check_outputs

    (tmp_path / "x").mkdir()
    (tmp_path / "made" / "x").mkdir(parents=True)
    check_outputs([("--out-dir", str(tmp_path / "new"), Role("folder")),
                   ("--pages", str(tmp_path / "made"), Role("folder"))], [])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["made", "x"]
