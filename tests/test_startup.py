"""What a plain command imports (issue "instant"): the list of hashikit modules a plain
``hashikit solve`` loads is held here, so a stray import (the batch runner, the deduction
rules, the generator, the catalogue, the web server) shows up in review as a change to this
list.  Speed itself is measured by benchmarks/startup.py, not here."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "prob-bridges.txt"

#: every hashikit module ``hashikit solve FILE`` imports, and no other
SOLVE_IMPORTS = {
    "hashikit", "hashikit.checker", "hashikit.cli", "hashikit.cli.argtypes", "hashikit.cli.common", "hashikit.cli.deadline",
    "hashikit.cli.commands", "hashikit.cli.output", "hashikit.errors", "hashikit.formats", "hashikit.formats._common",
    "hashikit.limits", "hashikit.model", "hashikit.service",
    "hashikit.service.admit", "hashikit.service.converting", "hashikit.service.generating",
    "hashikit.service.grading", "hashikit.service.play", "hashikit.service.shapes", "hashikit.service.solving",
    "hashikit.solvers", "hashikit.solvers.base", "hashikit.solvers.graph", "hashikit.solvers.lazy",
}
#: packages a plain solve must never load
NEVER = ("pydantic", "logging", "fastapi", "starlette", "uvicorn", "distributed", "dask", "fpdf", "cv2", "numpy", "rich",
         "ortools", "pyscipopt", "hashikit.logic", "hashikit.run.batch", "hashikit.generate", "hashikit.publish",
         "hashikit.web")


def imported(*argv: str) -> set[str]:
    """The modules a whole ``python -m hashikit ARGV`` process imports (from ``-X importtime``)."""
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "hashikit", *argv],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return {line.split("|")[-1].strip() for line in proc.stderr.splitlines() if line.startswith("import time:")}


def test_a_plain_solve_imports_only_what_it_uses():
    mods = imported("solve", str(EXAMPLE), "-q")
    assert "pysat.solvers" in mods  # the list comes from a process that really solved
    assert {m for m in mods if m == "hashikit" or m.startswith("hashikit.")} == SOLVE_IMPORTS
    stray = sorted(m for m in mods if m.split(".")[0] in NEVER or m.startswith(NEVER))
    assert not stray, stray


def test_version_imports_no_engine_and_no_models():
    """--version answers before the model, the engines, pydantic or the service load."""
    mods = imported("--version")
    assert not [m for m in mods if m.startswith(("pysat", "pydantic", "dataclasses", "hashikit.model", "hashikit.checker",
                                                 "hashikit.service", "hashikit.cli.commands"))], \
        sorted(m for m in mods if m.startswith("hashikit"))
