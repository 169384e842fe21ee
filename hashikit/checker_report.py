"""The rule checker's report: what :func:`hashikit.checker.check` answers, in a module of plain
Python (records are built by their base class when the class is made, which a compiled class
would not allow)."""

from __future__ import annotations

from .model import Pos
from .records import Fresh, Record


class Violation(Record, frozen=True):
    rule: str
    message: str
    cells: tuple[Pos, ...] = ()

    def __str__(self) -> str:
        return f"[{self.rule}] {self.message}"


class CheckReport(Record):
    violations: list[Violation]
    components: list[list[Pos]] = Fresh(list)  # type: ignore[assignment]

    @property
    def ok(self) -> bool:
        return not self.violations

    def __bool__(self) -> bool:
        return self.ok

    def rules(self) -> set[str]:
        return {v.rule for v in self.violations}

    def __str__(self) -> str:
        if self.ok:
            return "valid: every rule holds"
        lines = [f"invalid: {len(self.violations)} violation{'s' if len(self.violations) != 1 else ''}"]
        lines.extend(f"  {v}" for v in self.violations)
        return "\n".join(lines)
