"""The modules a regular install compiles with mypyc (read by ``setup.py``, the tests and
``HASHIKIT_PURE``), and the switch that runs their Python sources instead.

A regular install (``pip install .``) compiles them where mypyc and a C compiler are at hand and
keeps the pure-Python sources beside them; an editable or in-place build never compiles (edited
sources are always the ones run).  ``HASHIKIT_PURE=1`` in the environment builds pure Python
when installing, and at run time imports these modules from their sources even where compiled
ones are installed.
"""

from __future__ import annotations

import importlib.util
import os
import sys

#: the generation hot path: drawing, construction, deductions, repairs and the SAT re-proof's formula;
#: the connectivity rounds' small solvers' formula (``region``) and the engines' graph helpers
#: (not the rule checker: it reads whatever a caller hands it, and a compiled function reads a ``True``
#: where it expects a count as 1, where the checker names it a bad count)
COMPILED = (
    "hashikit.generate.layouts",
    "hashikit.generate.repairs",
    "hashikit.generate.unique",
    "hashikit.logic.closure",
    "hashikit.logic.deducer",
    "hashikit.logic.easy",
    "hashikit.logic.groups",
    "hashikit.logic.hard",
    "hashikit.logic.medium",
    "hashikit.logic.risk",
    "hashikit.logic.rules",
    "hashikit.logic.state",
    "hashikit.logic.words",
    "hashikit.solvers.graph",
    "hashikit.solvers.proof",
    "hashikit.solvers.region",
)


class _Sources:
    """Finds the modules of :data:`COMPILED` as their ``.py`` sources (ahead of the compiled ones)."""

    @staticmethod
    def find_spec(name, path, target=None):
        if name not in COMPILED or not path:
            return None
        source = os.path.join(path[0], name.rpartition(".")[2] + ".py")
        return importlib.util.spec_from_file_location(name, source) if os.path.isfile(source) else None


def prefer_sources() -> None:
    """Import the modules of :data:`COMPILED` from their sources from now on."""
    if not any(isinstance(f, _Sources) for f in sys.meta_path):
        sys.meta_path.insert(0, _Sources())


def compiled(module) -> bool:
    """True when ``module`` was loaded from a compiled extension, not from its source."""
    return not (getattr(module, "__file__", None) or "").endswith(".py")
