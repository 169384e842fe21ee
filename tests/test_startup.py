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
    "hashikit.formats.grid", "hashikit.formats.solved",  # the example's format, and the solution's as printed
    "hashikit.limits", "hashikit.model", "hashikit.records", "hashikit.service",
    "hashikit.service.admit", "hashikit.service.converting", "hashikit.service.generating",
    "hashikit.service.grading", "hashikit.service.play", "hashikit.service.shapes", "hashikit.service.solving",
    "hashikit.solvers", "hashikit.solvers.base", "hashikit.solvers.graph", "hashikit.solvers.lazy",
    "hashikit.solvers.cadical", "hashikit.solvers.region", "hashikit.solvers.sat",  # region: the degree clauses
}
#: packages a plain solve must never load (``dataclasses`` loads ``inspect``, ``ast``, ``dis`` and
#: ``tokenize``: the records on this path are :mod:`hashikit.records`; ``pysat``, python-sat's Python
#: layer, loads file readers and more: CaDiCaL is called on its extension, ``pysolvers``)
NEVER = ("dataclasses", "inspect", "pysat", "pydantic", "logging", "fastapi", "starlette", "uvicorn", "distributed", "dask", "fpdf", "cv2", "numpy", "rich",
         "ortools", "pyscipopt", "hashikit.logic", "hashikit.run.batch", "hashikit.generate", "hashikit.publish",
         "hashikit.web")


#: runs ``python -m hashikit ARGV`` and, at exit, writes every module loaded (``sys.modules``: an
#: import by ``importlib.import_module`` is there too, where ``-X importtime`` does not show it)
RUN_AND_LIST = ("import atexit, runpy, sys\n"
                "atexit.register(lambda: sys.stderr.write('\\nMODULES ' + ' '.join(sorted(sys.modules)) + '\\n'))\n"
                "sys.argv[0] = 'hashikit'\n"
                "runpy.run_module('hashikit', run_name='__main__', alter_sys=True)\n")


def imported(*argv: str) -> set[str]:
    """The modules a whole ``python -m hashikit ARGV`` process has loaded when it exits."""
    proc = subprocess.run([sys.executable, "-c", RUN_AND_LIST, *argv], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    (line,) = [ln for ln in proc.stderr.splitlines() if ln.startswith("MODULES ")]
    return set(line.split()[1:])


def test_a_plain_solve_imports_only_what_it_uses():
    mods = imported("solve", str(EXAMPLE), "-q")
    assert "pysolvers" in mods  # the list comes from a process that really solved
    assert {m for m in mods if m == "hashikit" or m.startswith("hashikit.")} == SOLVE_IMPORTS
    stray = sorted(m for m in mods if m.split(".")[0] in NEVER or m.startswith(NEVER))
    assert not stray, stray


def test_version_imports_no_engine_and_no_models():
    """--version answers before the model, the engines, pydantic or the service load."""
    mods = imported("--version")
    assert not [m for m in mods if m.startswith(("pysat", "pydantic", "dataclasses", "hashikit.model", "hashikit.checker",
                                                 "hashikit.service", "hashikit.cli.commands"))], \
        sorted(m for m in mods if m.startswith("hashikit"))


def test_a_plain_solve_loads_no_python_sat_layer_no_shutil_and_no_signal():
    """What start-up was cut by, held: CaDiCaL is called on python-sat's extension (not through
    ``pysat.solvers``, whose imports cost a third of a solve), argparse is told the terminal's
    width (else it imports ``shutil`` with ``bz2`` and ``lzma``), ``signal`` loads only for a
    time limit (where it is still loaded), and annotations come from ``collections.abc``, not
    ``typing`` (the answer shapes give pydantic ``Any`` and ``Literal`` only in the web app)."""
    plain = imported("solve", str(EXAMPLE), "-q")
    assert "pysolvers" in plain
    assert not {"pysat", "pysat.solvers", "shutil", "bz2", "lzma", "signal", "dataclasses", "inspect", "typing"} & plain
    limited = imported("solve", str(EXAMPLE), "-q", "--time-limit", "30")
    assert "signal" in limited


def test_drawing_an_svg_loads_no_network_or_mail_modules():
    """The SVG writer escapes text with ``html.escape``: ``xml.sax.saxutils`` imported
    ``urllib.request`` and with it ``http.client``, ``email``, ``ssl`` and ``socket``."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        mods = imported("render", str(EXAMPLE), str(Path(tmp) / "out.svg"))
    assert "hashikit.render" in mods
    assert not {"xml.sax.saxutils", "urllib.request", "http.client", "email", "ssl", "socket"} & mods
