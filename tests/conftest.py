"""Shared test helpers: the ../shared data (read in place, never copied) and puzzle loaders."""

from __future__ import annotations

import json
import os
import random
import signal
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _hashikit_under_test() -> tuple[bool, str]:
    """(compiled, which hashikit the tests import and why).  ``python -m pytest`` puts the project
    root first on ``sys.path``, where the source tree would hide an installed build: when hashikit
    is installed apart from the tree (a regular install, not an editable one) with compiled modules,
    from sources the same as this tree's, the root leaves ``sys.path`` and the tests run that build.
    An editable install, or an installed build of other sources, leaves the tree's sources in use."""
    import importlib.machinery
    import runpy

    compiled = runpy.run_path(str(ROOT / "hashikit" / "_build.py"))["COMPILED"]  # (hashikit not imported)

    if "hashikit" in sys.modules:
        return False, "the hashikit already imported"
    others = [p for p in sys.path if Path(p or os.getcwd()).resolve() != ROOT]
    spec = importlib.machinery.PathFinder.find_spec("hashikit", others)
    if spec is None or not spec.submodule_search_locations:
        return False, "the source tree (an editable install, or none)"
    installed = Path(list(spec.submodule_search_locations)[0])
    if not any(next(installed.parent.joinpath(*name.split(".")[:-1]).glob(name.rpartition(".")[2] + ".*.so"), None)
               for name in compiled):
        return False, f"the source tree (the hashikit installed at {installed} is pure Python)"
    tree = ROOT / "hashikit"
    for source in tree.rglob("*.py"):
        copy = installed / source.relative_to(tree)
        if not copy.is_file() or copy.read_bytes() != source.read_bytes():
            return False, (f"the source tree (the compiled build at {installed} was built from other sources, "
                           f"{source.relative_to(ROOT)} differs: `pip install .` again to test it)")
    sys.path[:] = others
    return True, f"the compiled build installed at {installed}"


#: whether the tests run a compiled build, and which hashikit they import (the report's header says it)
COMPILED_BUILD, UNDER_TEST = _hashikit_under_test()

from hashikit.model import Puzzle  # noqa: E402  (after the choice of which hashikit)


def pytest_report_header(config):
    return f"hashikit under test: {UNDER_TEST}"


#: a test that replaces a function or method of a compiled module, which compiled callers do not see
#: (they call it directly): on a compiled build it skips here and runs with ``HASHIKIT_PURE=1`` in a
#: process of its own (``test_build.PATCHING``)
pure_only = pytest.mark.skipif(COMPILED_BUILD and os.environ.get("HASHIKIT_PURE") != "1",
                               reason="replaces a compiled module's function, which compiled callers do not "
                                      "see: test_build.py runs it with HASHIKIT_PURE=1")


def pytest_configure(config):
    """Property tests (Hypothesis) try the same examples on every default run, so the README's test
    command passes or fails the same way each time; the long run (``-m slow``, or
    ``HASHIKIT_EXPLORE=1``) draws new ones, to find what the fixed set misses."""
    import os

    from hypothesis import settings

    settings.register_profile("same-every-run", derandomize=True)
    settings.register_profile("explore", derandomize=False)
    marks = config.getoption("markexpr") or ""
    explore = os.environ.get("HASHIKIT_EXPLORE") == "1" or ("slow" in marks and "not slow" not in marks)
    settings.load_profile("explore" if explore else "same-every-run")

# A run started in the background by a non-interactive shell (`cmd &`) inherits SIGINT ignored,
# and so would every command the Ctrl-C tests start (an ignored signal survives exec): give this
# process Python's own Ctrl-C handler, so the commands start with the default one.
signal.signal(signal.SIGINT, signal.default_int_handler)


def loaded(seconds: float) -> float:
    """``seconds`` of slack for a wall-clock bound, grown in proportion to the machine's load
    (the 1-minute load average per CPU, read when called) where more processes queue for the
    CPUs than there are CPUs: a promise kept in wall time on a normal machine is still held,
    and a machine at load 40 on 2 cores does not fail it for want of a turn on a CPU."""
    import os

    return seconds * max(1.0, os.getloadavg()[0] / (os.cpu_count() or 1))
SHARED = ROOT.parent / "shared"
REAL = SHARED / "puzzles" / "real"
COELHO = SHARED / "benchmarks" / "coelho2019"


def need(path: Path) -> Path:
    """Skip the calling test when shared data is absent (it lives in ../shared, beside the project)."""
    if not path.exists():
        pytest.skip(f"shared data not found: {path} (expected ../shared beside the project root)")
    return path


def real_records() -> list[tuple[str, dict]]:
    """Every published puzzle record under ../shared/puzzles/real, as (folder/file#line, record)."""
    out = []
    if not REAL.exists():
        return out
    for f in sorted(REAL.glob("*/*.jsonl")):
        for n, line in enumerate(f.read_text().splitlines(), 1):
            if line.strip():
                out.append((f"{f.parent.name}/{f.name}#{n}", json.loads(line)))
    return out


def record_puzzle(rec: dict) -> Puzzle:
    return Puzzle.from_grid(rec["grid"], rec.get("maxb", 2))


def read_has(path: Path) -> Puzzle:
    """A minimal .has reader for tests, independent of hashikit.formats."""
    lines = path.read_text().split("\n")
    rows, cols, _ = map(int, lines[0].split())
    return Puzzle.from_grid([[int(t) for t in lines[1 + r].split()] for r in range(rows)])


def coelho_files() -> list[Path]:
    return sorted(COELHO.glob("*/*.has")) if COELHO.exists() else []


def coelho_sample(k: int, seed: int = 2019) -> list[Path]:
    files = coelho_files()
    return random.Random(seed).sample(files, min(k, len(files)))


def random_puzzle(rows: int, cols: int, seed: int, maxbridges: int = 2, density: float = 0.25):
    """A random *solvable* puzzle: grow a random spanning tree of bridges, then read off the numbers.

    Returns (puzzle, solution) -- independent of hashikit's own generator.
    """
    from hashikit.model import Solution

    rng = random.Random(seed)
    occupied: dict[tuple[int, int], str] = {}  # cell -> 'I' island, 'H'/'V' bridge
    start = (rng.randrange(rows), rng.randrange(cols))
    occupied[start] = "I"
    islands = [start]
    bridges: dict = {}
    target = max(2, int(rows * cols * density))
    tries = 0
    while len(islands) < target and tries < 50 * target:
        tries += 1
        r, c = rng.choice(islands)
        dr, dc = rng.choice(((0, 1), (0, -1), (1, 0), (-1, 0)))
        length = rng.randint(2, max(2, min(6, max(rows, cols) // 2)))
        cells = [(r + dr * t, c + dc * t) for t in range(1, length + 1)]
        end = cells[-1]
        if not (0 <= end[0] < rows and 0 <= end[1] < cols):
            continue
        if any(cell in occupied for cell in cells):
            continue
        # the new island must not sit next to a bridge it would split; keep it simple: free cells only
        for cell in cells[:-1]:
            occupied[cell] = "H" if dr == 0 else "V"
        occupied[end] = "I"
        islands.append(end)
        key = tuple(sorted(((r, c), end)))
        bridges[key] = rng.randint(1, maxbridges)
    sol = Solution(bridges)
    degree: dict = {p: 0 for p in islands}
    for (p, q), k in sol:
        degree[p] += k
        degree[q] += k
    puzzle = Puzzle(rows, cols, [(p[0], p[1], degree[p]) for p in islands], maxbridges)
    return puzzle, sol


def cli_commands(parser=None, words=()):
    """Every (command words, parser) of the ``hashikit`` command, sub-commands included, from its
    parser (the tests that try every option of every command build their lists from it)."""
    import argparse

    if parser is None:
        from hashikit.cli import build_parser

        parser = build_parser()
    sub = next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)), None)
    if sub is None:
        yield words, parser
        return
    for name, child in sub.choices.items():
        yield from cli_commands(child, words + (name,))
