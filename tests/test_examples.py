"""Every example runs as written: each shell example of the README (its ```sh and ```console
blocks, read with Sybil; ``<!-- skip: next -->`` marks the few that cannot run here, each saying
why beside it) and each ``hashikit ...`` line under "example" in every command's ``--help`` (taken
from the parser, so a new command's examples are run too).

README examples run in a copy of the project's ``examples/`` folder laid out as the project's
folder is (``examples/...`` paths), one after another, as a reader types them; ``--help``
examples run inside a copy of ``examples/``.  A ``console`` block's output is compared with what the
command prints (standard output, then standard error): ``...`` stands for anything (a whole line
of it for any lines), and times in seconds may differ.  A command must not end in bad input (2),
an internal error (3) or a traceback.  Commands run in this process (``main(argv)``) where the line
is a plain ``hashikit`` command, in bash otherwise; the costly ones (hundreds of puzzles) run under
``-m slow``, the rest in the default run.
"""

from __future__ import annotations

import argparse
import contextlib
import glob
import io
import os
import re
import shlex
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT

sybil = pytest.importorskip("sybil", reason='the README examples are read with Sybil (pip install ".[test]")')
from sybil import Document  # noqa: E402
from sybil.parsers.markdown import CodeBlockParser, SkipParser  # noqa: E402

README = ROOT / "README.md"
EXAMPLES = ROOT / "examples"

#: examples whose work is costly (hundreds of puzzles, hundreds of pages): run under -m slow
COSTLY = (re.compile(r"generate-suite .*--per-group 5"), re.compile(r"--pages-format png"),
          re.compile(r"bench \.\./shared"), re.compile(r"--solutions separate"),
          re.compile(r"--count \d{2,}"), re.compile(r"--engine \S*(cpsat|milp)"),
          re.compile(r"^hashikit site "))


class Runner:
    """Runs the commands of the examples in ``work``, one after another."""

    def __init__(self, work, slow: bool) -> None:
        self.work, self.slow = work, slow
        self.ran: list[str] = []
        self.left: list[str] = []

    def commands(self, text: str) -> list[str]:
        """The command lines of a block: continuation lines joined, blank lines dropped."""
        out, line = [], ""
        for raw in text.splitlines():
            line += raw.rstrip()
            if line.endswith("\\"):
                line = line[:-1] + " "
                continue
            if line.strip():
                out.append(line.strip())
            line = ""
        return out

    def run(self, line: str) -> tuple[int, str]:
        """Run one command line; its exit code and what it printed (standard output, then error)."""
        if any(p.search(line) for p in COSTLY) and not self.slow:
            self.left.append(line)
            return 0, None
        self.ran.append(line)
        if line.startswith("hashikit site "):  # it needs Pyodide's files (hashikit's cache, or the registry)
            from site_build import pyodide_or_skip

            pyodide_or_skip()
        words = shlex.split(line, comments=True)
        if not words:
            return 0, ""
        if words[0] == "hashikit" and not set("|&;<>$`").intersection(line.split("#")[0]):
            from hashikit.cli import main

            argv = [w for word in words[1:] for w in (sorted(glob.glob(word)) or [word] if "*" in word else [word])]
            out, err = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = main(argv)
            return code, out.getvalue() + err.getvalue()
        env = dict(os.environ, PATH=f"{os.path.dirname(sys.executable)}{os.pathsep}{os.environ['PATH']}")
        proc = subprocess.run(["bash", "-c", line], cwd=self.work, capture_output=True, text=True, env=env,
                              timeout=600)
        return proc.returncode, proc.stdout + proc.stderr

    def check(self, line: str, code: int, printed: str) -> str | None:
        if printed is None:
            return None
        if code >= 2 or "Traceback" in printed:
            return f"$ {line}\nexit {code}:\n{printed}"
        return None

    def sh(self, example) -> str | None:
        for line in self.commands(example.parsed):
            failure = self.check(line, *self.run(line))
            if failure:
                return failure
        return None

    def console(self, example) -> str | None:
        """``$ command`` lines, each followed by the output it shows."""
        blocks: list[tuple[str, list[str]]] = []
        for raw in example.parsed.splitlines():
            if raw.startswith("$ "):
                blocks.append((raw[2:].strip(), []))
            elif blocks:
                blocks[-1][1].append(raw)
        for line, shown in blocks:
            code, printed = self.run(line)
            failure = self.check(line, code, printed)
            if failure:
                return failure
            if printed is not None and not matches(shown, printed):
                return f"$ {line}\nprinted:\n{printed}\nbut the README shows:\n" + "\n".join(shown)
        return None


def matches(shown: list[str], printed: str) -> bool:
    """Whether ``printed`` is what the README shows: ``...`` alone on a line stands for any lines,
    within a line for anything; times in seconds may differ."""
    parts = []
    for line in shown:
        if line.strip() == "...":
            parts.append(r"(?:[^\n]*\n)*?")
            continue
        pattern = re.escape(line.rstrip())
        pattern = pattern.replace(re.escape("..."), ".*?")
        pattern = re.sub(r"\d+\\\.\d+(\\ s\b)", r"\\d+\\.\\d+\1", pattern)
        parts.append(pattern + r"[ \t]*\n")
    return re.fullmatch("".join(parts), printed if printed.endswith("\n") else printed + "\n") is not None


def readme_failures(work, slow: bool) -> tuple[list[str], Runner]:
    runner = Runner(work, slow)
    document = Document.parse(str(README), CodeBlockParser("console", runner.console),
                              CodeBlockParser("sh", runner.sh), SkipParser())
    failures = []
    for example in document:
        try:
            example.evaluate()
        except AssertionError as exc:  # sybil's failure: the example's own report
            failures.append(f"README.md line {example.line}:\n{exc}")
    return failures, runner


@pytest.fixture()
def project(tmp_path, monkeypatch):
    """A folder laid out as the project's, holding a copy of examples/ (and ../shared beside it
    when there is one), as the current folder."""
    work = tmp_path / "project"
    shutil.copytree(EXAMPLES, work / "examples")
    if (ROOT.parent / "shared").exists():
        (tmp_path / "shared").symlink_to(ROOT.parent / "shared")
    monkeypatch.chdir(work)
    return work


def test_the_readme_examples_run_as_written(project):
    failures, runner = readme_failures(project, slow=False)
    assert runner.ran, "no README example was run"
    assert not failures, "\n\n".join(failures)


@pytest.mark.slow
def test_the_costly_readme_examples_run_as_written(project):
    failures, runner = readme_failures(project, slow=True)
    assert not failures, "\n\n".join(failures)
    assert not runner.left


def test_the_readme_has_no_indented_command_left():
    """A command example in an indented block would escape Sybil: each is in a fenced block."""
    indented = [n for n, line in enumerate(README.read_text().splitlines(), 1)
                if re.match(r"    (\$ )?hashikit ", line)]
    assert not indented, f"README.md lines {indented}: put command examples in ```sh or ```console blocks"


# -- --help ----------------------------------------------------------------------------------

def help_examples() -> list[tuple[str, str]]:
    """(command, example line) for every ``hashikit ...`` line under an "example(s):" heading of a
    command's help, from the parser."""
    from hashikit.cli import build_parser

    def leaves(parser, words=()):
        sub = next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)), None)
        yield words, parser
        if sub is not None:
            for name, child in sub.choices.items():
                yield from leaves(child, words + (name,))

    out = []
    for words, parser in leaves(build_parser()):
        text = parser.format_help()
        inside = False
        for line in text.splitlines():
            if re.match(r"examples?\b.*:\s*$", line):
                inside = True
                continue
            if inside and not line.startswith("  "):
                inside = False
            if inside and line.strip().startswith("hashikit "):
                command = re.split(r"\s{2,}\(", line.strip())[0]  # "   (what it does)" is a note
                out.append((" ".join(words) or "hashikit", command))
    return out


HELP = help_examples()


def test_every_command_shows_examples_in_its_help():
    shown = {command for command, _ in HELP}
    from hashikit.cli import build_parser

    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    missing = [name for name in sub.choices if name not in shown and name != "serve"]
    assert not missing, f"commands whose --help shows no example: {missing}"


def _server_starts(line: str, work) -> None:
    """``hashikit serve ...`` as written: it says where it listens, then is stopped (a port taken by
    another program is that program's, not the example's, failure: skipped, saying so)."""
    import select
    import signal
    import time

    env = dict(os.environ, PATH=f"{os.path.dirname(sys.executable)}{os.pathsep}{os.environ['PATH']}",
               BROWSER="true")
    proc = subprocess.Popen(["bash", "-c", f"exec {line}"], cwd=work, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    said = ""
    try:
        end = time.monotonic() + 60
        while time.monotonic() < end and "http://" not in said and proc.poll() is None:
            if select.select([proc.stdout], [], [], 0.5)[0]:
                said += proc.stdout.readline()
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
    if "in use" in said:
        pytest.skip(f"the port is taken on this machine: {said.strip()}")
    assert "http://" in said, said


def _help_params():
    for command, line in HELP:
        slow = any(p.search(line) for p in COSTLY) or command == "serve"
        yield pytest.param(command, line, marks=[pytest.mark.slow] if slow else [], id=f"{command}: {line}")


@pytest.mark.parametrize("command, line", list(_help_params()))
def test_each_help_example_runs_as_written(command, line, tmp_path, monkeypatch):
    """In a copy of the examples folder (a project's folder around it, ``../shared`` beside that)."""
    work = tmp_path / "project" / "examples"
    shutil.copytree(EXAMPLES, work)
    if (ROOT.parent / "shared").exists():  # where ../shared is from the folder the examples run in
        (work.parent / "shared").symlink_to(ROOT.parent / "shared")
    monkeypatch.chdir(work)
    if command == "serve":
        _server_starts(line, work)
        return
    if command == "site":  # Pyodide's files, from hashikit's cache (the tarball where an example names one)
        from site_build import pyodide_or_skip
        from hashikit.web import site

        pyodide_or_skip()
        tarball = site.cache_folder() / f"pyodide-{site.PYODIDE_VERSION}.tgz"
        if tarball.name in line and tarball.is_file():
            shutil.copy(tarball, work / tarball.name)
    runner = Runner(work, slow=True)
    failure = runner.check(line, *runner.run(line))
    assert failure is None, failure
