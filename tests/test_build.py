"""The compiled build (``setup.py``, ``hashikit/_build.py``): a regular install compiles the generation
hot path with mypyc; an editable one never does; ``HASHIKIT_PURE=1`` runs the sources; both give the
same puzzles."""

from __future__ import annotations

import importlib
import json
import os
import runpy
import subprocess
import sys
from importlib import metadata

import pytest

from conftest import COMPILED_BUILD, ROOT, UNDER_TEST
from hashikit import _build

#: the tests marked ``pure_only`` (conftest): run with ``HASHIKIT_PURE=1`` in a process of their own on a
#: compiled build
PATCHING = ("tests/test_generate.py::test_a_dropped_repair_is_not_tried_again_on_the_same_construction",
            "tests/test_generate.py::test_large_board_generation_uses_batches_and_stays_exact",
            "tests/test_generate.py::test_a_carried_deducer_starts_with_the_risks_worked_out_from_scratch",
            "tests/test_logic.py::test_carried_deducer_takes_the_steps_of_a_fresh_one",
            "tests/test_logic.py::test_carried_closures_end_where_a_fresh_engine_ends",
            "tests/test_generate_bench.py::test_proof_split_times_both_halves_of_the_proof_and_restores_them")

#: the puzzles of 24 seeds (10x10, easy to hard, both layouts), hashed: run here and under HASHIKIT_PURE=1
_HASH = """
import hashlib
from hashikit.generate import generate_unique


def puzzles_hash():
    h = hashlib.sha256()
    for level in ("easy", "medium", "hard"):
        for seed in range(4):
            for options in ({}, {"islands_percent": 30, "expansion": 10}):
                p, s, g = generate_unique(10, 10, level, seed=seed, **options)
                h.update(repr((sorted(p.islands), sorted(s.bridges.items()), g.level, g.score)).encode())
    return h.hexdigest()
"""

_FILES = "import importlib, json; print(json.dumps({n: importlib.import_module(n).__file__ for n in %r}))"


def _run(code: str, **env: str) -> str:
    """``code`` run by this Python with this process's ``sys.path`` (the hashikit under test)."""
    environ = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p), **env)
    out = subprocess.run([sys.executable, "-c", code], env=environ, capture_output=True, text=True, timeout=120,
                         cwd=ROOT / "tests")
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_the_compiled_modules_are_the_ones_imported():
    if not COMPILED_BUILD:
        pytest.skip(f"a pure-Python build under test ({UNDER_TEST}): no compiled module to check")
    if os.environ.get("HASHIKIT_PURE") == "1":
        pytest.skip("HASHIKIT_PURE=1: the sources run on purpose")
    for name in _build.COMPILED:
        module = importlib.import_module(name)
        assert _build.compiled(module), f"{name} imported from {module.__file__}"
        assert module.__file__.endswith(".so")


def test_hashikit_pure_runs_the_sources_and_gives_the_same_puzzles():
    """``HASHIKIT_PURE=1`` imports every compiled module from its ``.py`` source, and the puzzles
    (:data:`_HASH`) are the same bit for bit as this build's."""
    files = json.loads(_run(_FILES % (_build.COMPILED,), HASHIKIT_PURE="1"))
    assert all(path.endswith(".py") for path in files.values()), files
    here: dict = {}
    exec(_HASH, here)
    assert _run(_HASH + "\nprint(puzzles_hash())", HASHIKIT_PURE="1").strip() == here["puzzles_hash"]()


def _build_command(**options):
    from setuptools import Distribution

    spec = runpy.run_path(str(ROOT / "setup.py"), run_name="hashikit_setup")  # (setup() runs only as __main__)
    command = spec["BuildCompiled"](Distribution())
    for key, value in options.items():
        setattr(command, key, value)
    return command


def test_an_editable_in_place_or_pure_build_compiles_nothing(monkeypatch):
    """The build's own choice: an editable or in-place build, or ``HASHIKIT_PURE=1``, compiles
    nothing (the sources stay the ones run); otherwise it compiles when mypyc is at hand."""
    monkeypatch.delenv("HASHIKIT_PURE", raising=False)
    assert "editable" in _build_command(editable_mode=True)._pure_reason()
    assert "in-place" in _build_command(inplace=True)._pure_reason()
    monkeypatch.setenv("HASHIKIT_PURE", "1")
    assert _build_command()._pure_reason() == "HASHIKIT_PURE=1"
    monkeypatch.delenv("HASHIKIT_PURE")
    try:
        import mypyc  # noqa: F401
    except ImportError:
        assert _build_command()._pure_reason() == "mypyc is not installed"
    else:
        assert _build_command()._pure_reason() is None


def test_an_editable_install_runs_the_edited_sources():
    """Where hashikit is installed editable (as every developer's is), every module of the compiled
    list is imported from the tree's ``.py`` source: nothing compiled hides an edit."""
    if COMPILED_BUILD:
        pytest.skip(f"not the editable install under test: {UNDER_TEST}")
    installs = [json.loads(d.read_text("direct_url.json") or "{}") for d in metadata.distributions(name="hashikit")]
    if not any(i.get("dir_info", {}).get("editable") and i.get("url") == ROOT.as_uri() for i in installs):
        pytest.skip("hashikit is not installed editable from this tree here")
    for name in _build.COMPILED:
        module = importlib.import_module(name)
        assert module.__file__ == str(ROOT.joinpath(*name.split(".")).with_suffix(".py"))
    assert not list((ROOT / "hashikit").rglob("*.so")), "compiled modules in the source tree"


def test_the_tests_that_patch_compiled_modules_run_on_the_sources():
    """On a compiled build the tests that replace a compiled module's function run again with
    ``HASHIKIT_PURE=1`` (in-process they skip), so that what they check is still checked."""
    if not COMPILED_BUILD:
        pytest.skip(f"a pure-Python build under test ({UNDER_TEST}): those tests ran in this process")
    environ = dict(os.environ, HASHIKIT_PURE="1")
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider", *PATCHING],
                         cwd=ROOT, env=environ, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stdout[-3000:]
    assert f"{len(PATCHING) + 1} passed" in out.stdout, out.stdout[-3000:]  # (one of them twice: easy, medium)


def test_the_readme_says_how_it_is_built_and_how_to_force_pure_python():
    readme = " ".join((ROOT / "README.md").read_text().split())
    assert "compiled with mypyc" in readme and "`HASHIKIT_PURE=1`" in readme and "editable install" in readme
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert '"mypy>=' in pyproject.split("[project]")[0]  # mypyc's least version pinned among the build requirements
