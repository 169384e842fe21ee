"""No flag is silently ignored: every option of every command, taken from the parser, is tried alone
(added to a plain command line) and with each other option of its command; each time it must
change what the command does (what it prints, the files it writes) or be refused (exit 2, one line).
An option whose effect cannot be seen in a small run says why in :data:`UNSEEN`.  A new option with
no value in :data:`VALUES` fails :func:`test_every_option_has_a_value_to_try`.  Commands run in this
process; the costly ones (a book's PDF, a bench, a suite) and every pair of generate's options run
under ``-m slow``.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import itertools
import os
import re
import shutil

import pytest

from hashikit.cli import main

from conftest import ROOT, cli_commands

HARD = "hard/hard-15x15-1.txt"

#: each command's plain command line (run in a copy of examples/)
BASE = {
    ("solve",): ["solve", "puzzle.txt"],
    ("check",): ["check", "puzzle.txt", "my-solution.sol"],
    ("convert",): ["convert", "puzzle.txt", "out.json"],
    ("render",): ["render", "puzzle.txt", "out.svg"],
    ("grade",): ["grade", HARD],
    ("explain",): ["explain", HARD],
    ("hint",): ["hint", "puzzle.txt"],
    ("generate",): ["generate", "--size", "7", "--difficulty", "easy", "--seed", "1"],
    ("generate-suite",): ["generate-suite", "--out-dir", "suite", "--per-group", "1", "--islands", "100",
                          "--seed", "1", "--jobs", "1"],
    ("bench",): ["bench", "easy", "-j", "1"],
    ("catalog", "add"): ["catalog", "add", "new.db", "puzzle.txt"],
    ("catalog", "list"): ["catalog", "list", "puzzles.db"],
    ("catalog", "export"): ["catalog", "export", "puzzles.db", "out"],
    ("catalog", "check"): ["catalog", "check", "puzzles.db"],
    ("book",): ["book", "puzzles.db", "-o", "b.pdf", "--jobs", "1"],
    ("site",): ["site", "public"],
}
#: commands whose runs cost a second or more: tried under -m slow
COSTLY = {("book",), ("bench",), ("generate-suite",), ("site",)}
#: commands not run here, and why
NOT_RUN = {("serve",): "it starts a server that runs until stopped; tests/test_web_e2e.py drives it"}

#: the value each option is tried with (by dest; a (command, dest) key for one command only)
VALUES = {
    "from_format": ["--from", "csv"], "to": ["--to", "json-solution"], "output": ["-o", "out.sol"],
    "format": ["--format", "json"], "engine": ["--engine", "cpsat"], "time_limit": ["--time-limit", "30"],
    "unique": ["--unique"], "all": ["--all"], "limit": ["--limit", "1"], "svg": ["--svg", "drawn.svg"],
    "unicode": ["--unicode"], "quiet": ["-q"], "show": ["--show", "read.png"],
    "solution_format": ["--solution-format", "json"], "solve": ["--solve"], "blank": ["--blank"],
    "show_links": ["--show-links"], "max_level": ["--max-level", "easy"], "state": ["--state", "my-board.json"],
    "state_format": ["--state-format", "solved"], "validate_solution": ["--no-solution-check"],
    "size": ["--size", "15x15"], "difficulty": ["--difficulty", "medium"], "islands": ["--islands", "10"],
    "alpha": ["--alpha", "25"], "beta": ["--beta", "10"], "max_bridges": ["--maxbridges", "3"],
    "no_loops": ["--no-loops"], "allow_adjacent": ["--allow-adjacent"], "density": ["--density", "0.4"],
    "islands_percent": ["--islands-percent", "20"], "expansion": ["--expansion", "50"], "seed": ["--seed", "2"],
    "count": ["--count", "2"], "jobs": ["--jobs", "2"], "out_dir": ["--out-dir", "made"], "ext": ["--ext", "has"],
    "cluster": ["--cluster", "local:1"], "catalog": ["--catalog", "c.db"], "per_group": ["--per-group", "2"],
    "csv": ["--csv", "t.csv"], "resume": ["--resume"], "md": ["--md", "t.md"], "plot": ["--plot", "t.png"],
    "sample": ["--sample", "1"], "engine_option": ["--engine-option", "implied=True"],
    "level": ["--level", "hard"], "min_score": ["--min-score", "100"], "max_score": ["--max-score", "50"],
    "maxbridges": ["--maxbridges", "3"], "solutions": ["--solutions"], "per_page": ["--per-page", "1"],
    "solutions_per_page": ["--solutions-per-page", "2"], "answers": ["--answers", "a.pdf"],
    "style": ["--style", "plain"], "paper": ["--paper", "letter"], "binding": ["--binding", "0"],
    "safe_margin": ["--safe-margin", "20"], "no_blank_pages": ["--no-blank-pages"], "title": ["--title", "T"],
    "subtitle": ["--subtitle", "S"], "author": ["--author", "A"], "copyright": ["--copyright", "C"],
    "exactly": ["--exactly"], "pages": ["--pages", "pages"], "pages_format": ["--pages-format", "png"],
    "dpi": ["--dpi", "72"], "font_dir": ["--font-dir", "/usr/share/fonts/truetype/dejavu"],
    (("generate-suite",), "islands"): ["--islands", "200"], (("generate-suite",), "seed"): ["--seed", "2"],
    (("generate-suite",), "jobs"): ["--jobs", "2"], (("book",), "solutions"): ["--solutions", "none"],
    (("bench",), "time_limit"): ["--no-time-limit"], (("book",), "limit"): ["--limit", "2"],
    (("catalog", "list"), "no_loops"): ["--no-loops"],
    "daily_level": ["--daily-level", "hard"], "daily_size": ["--daily-size", "12x12"],
    "daily_seed": ["--daily-seed", "7"], "no_daily": ["--no-daily"], "pyodide": ["--pyodide", "pyodide-0.29.5.tgz"],
}
#: options whose effect a small run cannot show, and why (by dest, or (command, dest))
UNSEEN = {
    "time_limit": "a bound on the time: a quick run finishes well within it",
    "jobs": "how many worker processes do the same work: the answer is the same",
    (("hint",), "max_level"): "caps the rules a hint may use: the first step here is an easy one",
    (("bench",), "engine_option"): "tunes the engine: its answers and the tables are the same",
    (("bench",), "time_limit"): "a bound on the time: a quick run finishes well within it",
    "font_dir": "where DejaVu Sans is read from: the same font from its usual folder",
    "cluster": "where the jobs run: the same puzzles (tests/test_generate_cluster.py runs it)",
    "pyodide": "where Pyodide's files are read from: the same files, checked against their pinned sums "
               "(tests/test_site.py refuses other files)",
}




def options() -> dict[tuple[str, ...], list[str]]:
    """Each command's options (dests), from the parser."""
    out = {}
    for words, parser in cli_commands():
        out[words] = sorted({a.dest for a in parser._actions
                             if a.option_strings and not isinstance(a, (argparse._HelpAction,
                                                                        argparse._VersionAction))})
    return out


OPTIONS = options()


def value(words, dest) -> list[str]:
    return VALUES.get((words, dest)) or VALUES[dest]


def unseen(words, dest) -> str | None:
    return UNSEEN.get((words, dest)) or UNSEEN.get(dest)


def test_every_option_has_a_value_to_try():
    assert set(OPTIONS) == set(BASE) | set(NOT_RUN), "a command without a plain command line in BASE"
    missing = [(w, d) for w, dests in OPTIONS.items() if w not in NOT_RUN for d in dests
               if (w, d) not in VALUES and d not in VALUES]
    assert not missing, f"options with no value to try in VALUES: {missing}"


@pytest.fixture()
def work(tmp_path, monkeypatch):
    d = tmp_path / "examples"
    shutil.copytree(ROOT / "examples", d)
    monkeypatch.chdir(d)
    return d


_NUMBERS = re.compile(r"\d+\.\d+( s|s)?|seed \d+|/tmp/\S+")


def _files(folder) -> dict[str, str]:
    out = {}
    for root, _, files in os.walk(folder):
        for name in files:
            path = os.path.join(root, name)
            data = open(path, "rb").read()
            if name.endswith(".pdf"):  # fpdf2 dates each file
                data = re.sub(rb"/CreationDate \([^)]*\)", b"", data)
            if name.endswith((".db", "-wal", "-shm", ".jsonl")):  # timestamps, WAL frames, batch timings
                data = b"written"
            out[os.path.relpath(path, folder)] = hashlib.sha256(data).hexdigest()
    return out


def outcome(argv, work) -> tuple:
    """What a run did: exit code, what it printed (times aside), the files it left; the folder is
    put back as it was afterwards."""
    before = set(_files(work))
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    printed = _NUMBERS.sub("N", out.getvalue()) + "\n--\n" + _NUMBERS.sub("N", err.getvalue())
    assert "Traceback" not in printed and code != 3, (argv, printed)
    if code == 2:
        assert len(err.getvalue().strip().splitlines()) == 1, (argv, err.getvalue())
    files = _files(work)
    made = {k: v for k, v in files.items() if k not in before}
    for name in made:
        os.unlink(work / name)
    for root, dirs, _ in os.walk(work, topdown=False):
        for d in dirs:
            if not os.listdir(os.path.join(root, d)):
                os.rmdir(os.path.join(root, d))
    return code, printed, made


def _changes(words, dest, base_argv, work) -> str | None:
    """None when adding ``dest`` to ``base_argv`` changes what the command does, or is refused (or
    the base itself is refused); else what stayed the same."""
    base = outcome(base_argv, work)
    if base[0] == 2:
        return None
    tried = outcome(base_argv + value(words, dest), work)
    if tried[0] == 2 or tried != base:
        return None
    return f"{' '.join(base_argv + value(words, dest))}: the same as without {value(words, dest)[0]}"


def _alone():
    for words, dests in OPTIONS.items():
        if words in NOT_RUN:
            continue
        for dest in dests:
            if unseen(words, dest):
                continue
            marks = [pytest.mark.slow] if words in COSTLY else []
            yield pytest.param(words, dest, marks=marks, id=f"{' '.join(words)}:{dest}")


@pytest.mark.parametrize("words, dest", list(_alone()))
def test_each_option_alone_changes_the_command_or_is_refused(words, dest, work):
    if dest in ("engine",) and words == ("bench",) or dest == "engine":
        pytest.importorskip("ortools", reason='the cpsat engine needs OR-Tools (pip install ".[cpsat]")')
    if dest == "plot":
        pytest.importorskip("matplotlib", reason='the plot needs matplotlib (pip install ".[plot]")')
    if dest == "show":
        pytest.importorskip("cv2", reason='a picture is read with OpenCV (pip install ".[photo]")')
    if words == ("site",):
        from site_build import pyodide_or_skip

        pyodide_or_skip()
    assert _changes(words, dest, BASE[words], work) is None


#: commands whose options are tried pairwise in the default run (the others under -m slow)
PAIRED = {("solve",), ("check",), ("convert",), ("render",), ("grade",), ("explain",), ("hint",),
          ("catalog", "list"), ("catalog", "export")}


def _pairs():
    for words, dests in OPTIONS.items():
        if words in NOT_RUN:
            continue
        marks = [] if words in PAIRED else [pytest.mark.slow]
        yield pytest.param(words, marks=marks, id=" ".join(words))


@pytest.mark.parametrize("words", list(_pairs()))
def test_each_option_with_each_other_changes_the_command_or_is_refused(words, work):
    pytest.importorskip("ortools", reason='the cpsat engine needs OR-Tools (pip install ".[cpsat]")')
    pytest.importorskip("cv2", reason='a picture is read with OpenCV (pip install ".[photo]")')
    same = []
    for other, dest in itertools.permutations(OPTIONS[words], 2):
        if unseen(words, dest) or unseen(words, other) or value(words, other)[0] == value(words, dest)[0] \
                or hidden(words, other, dest):
            continue
        if dest in ("plot",) or other in ("plot",):
            continue
        found = _changes(words, dest, BASE[words] + value(words, other), work)
        if found:
            same.append(found)
    assert not same, "options silently ignored:\n" + "\n".join(same)


#: pairs whose second option's effect the first hides, and why: (command, first, second) or (command, first)
HIDDEN = {
    (("solve",), "quiet"): "-q leaves out the summary line, where --all, --unique and --engine show on a puzzle "
                           "with one solution",
    (("hint",), "state", "validate_solution"): "the board given agrees with the solution: a check of it finds "
                                               "nothing either way",
}
#: a catalogue's filters select by intersection: each alone changes the selection (tested alone);
#: two of them can select the same puzzles, or none
FILTERS = {"size", "level", "min_score", "max_score", "maxbridges", "no_loops", "limit", "solutions", "to"}


def hidden(words, other, dest) -> bool:
    if (words, other) in HIDDEN or (words, other, dest) in HIDDEN:
        return True
    return words[0] == "catalog" and other in FILTERS and dest in FILTERS


def test_the_reasons_given_name_real_options():
    every = {(w, d) for w, ds in OPTIONS.items() for d in ds} | {d for ds in OPTIONS.values() for d in ds}
    assert all(key in every for key in UNSEEN), [k for k in UNSEEN if k not in every]
