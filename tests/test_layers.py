"""The house's layers, held: each package of hashikit imports only the packages its ``__init__``
says it may (the floors below it), counting imports inside functions too, and nothing imports
upwards.  ``python -m pytest tests/test_layers.py`` names the offending module and import."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "hashikit"

BOTTOM = {"hashikit.errors", "hashikit.records", "hashikit.limits", "hashikit.files"}
MODEL = BOTTOM | {"hashikit.model"}
FLOOR = MODEL | {"hashikit.run"}  # what the engines may use: the worker pool keeps their deadlines
ENGINES = {"hashikit.checker", "hashikit.formats", "hashikit.render", "hashikit.solvers", "hashikit.logic"}
#: the rule book of generation requests (on the model's floor): what the generator and the entries to it read
SPEC = {"hashikit.spec"}

#: package (or top-level module) -> the packages it may import, besides itself
MAY_IMPORT = {
    "hashikit.errors": set(),
    "hashikit.records": set(),
    "hashikit.files": set(),
    "hashikit.limits": {"hashikit.errors", "hashikit.records"},
    "hashikit.run": BOTTOM,
    "hashikit.model": BOTTOM,
    "hashikit.spec": MODEL,
    "hashikit.checker": MODEL,
    "hashikit.formats": MODEL,
    "hashikit.render": MODEL,
    "hashikit.solvers": FLOOR,
    "hashikit.logic": FLOOR | {"hashikit.solvers", "hashikit.checker"},
    "hashikit.generate": FLOOR | SPEC | {"hashikit.solvers", "hashikit.checker", "hashikit.logic"},
    "hashikit.service": FLOOR | ENGINES | SPEC | {"hashikit.generate"},
    "hashikit.bench": FLOOR | ENGINES,
    "hashikit.publish": FLOOR | ENGINES | SPEC | {"hashikit.generate", "hashikit.service", "hashikit"},
    "hashikit.cli": FLOOR | ENGINES | SPEC | {"hashikit.generate", "hashikit.service", "hashikit.publish", "hashikit.bench", "hashikit",
                                       "hashikit.web.cli"},
    "hashikit.web": FLOOR | ENGINES | SPEC | {"hashikit.generate", "hashikit.service", "hashikit.publish", "hashikit"},
}


def owner(module: str) -> str:
    """The entry of MAY_IMPORT a module belongs to (its package, or itself)."""
    parts = module.split(".")
    for n in range(len(parts), 0, -1):
        name = ".".join(parts[:n])
        if name in MAY_IMPORT:
            return name
    return module


def imports(path: Path) -> list[tuple[int, str]]:
    """Every hashikit module ``path`` imports (absolute names, relative ones resolved), with lines."""
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    package = parts[:-1] if parts[-1] != "__init__" else parts[:-1]
    if parts[-1] == "__init__":
        package = parts[:-1]
    out = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if node.module is None or target == "hashikit":
                # from . import a, b: each name may be a module
                for alias in node.names:
                    sub = f"{target}.{alias.name}"
                    out.append((node.lineno, sub if (PACKAGE.parent / (sub.replace(".", "/") + ".py")).exists()
                                or (PACKAGE.parent / sub.replace(".", "/")).is_dir() else target))
            else:
                out.append((node.lineno, target))
        elif isinstance(node, ast.Import):
            out.extend((node.lineno, a.name) for a in node.names)
    return [(n, t) for n, t in out if t == "hashikit" or t.startswith("hashikit.")]


def modules():
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(ROOT).with_suffix("")
        name = ".".join(rel.parts).removesuffix(".__init__")
        yield name, path


@pytest.mark.parametrize("name,path", list(modules()), ids=lambda v: v if isinstance(v, str) else "")
def test_each_module_imports_only_the_floors_below(name, path):
    here = owner(name)
    if here not in MAY_IMPORT:
        pytest.skip(f"{name}: the face of the package, or __main__")
    allowed = MAY_IMPORT[here] | {here}
    bad = [(line, target) for line, target in imports(path)
           if owner(target) not in allowed and target not in allowed]
    assert not bad, f"{path.relative_to(ROOT)} imports above its floor: {bad} (may import {sorted(allowed)})"


def test_every_package_says_what_it_may_import():
    for init in sorted(PACKAGE.glob("*/__init__.py")):
        doc = ast.get_docstring(ast.parse(init.read_text())) or ""
        assert "May import" in doc or "may import" in doc, f"{init.relative_to(ROOT)} does not say what it may import"


def test_the_rules_have_no_cycle():
    """The floors themselves are a hierarchy: no package may import one that may import it."""
    for a, targets in MAY_IMPORT.items():
        for b in targets:
            assert a not in MAY_IMPORT.get(b, set()), (a, b)
