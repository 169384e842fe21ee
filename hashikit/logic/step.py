"""One deduction step, in a module of plain Python: its fields are set at once past the frozen
dataclass's ``__setattr__``, which a compiled class (no ``__dict__``) would not allow."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, init=False)
class Step:
    """One deduction: ``changes`` lists ``(link, new_lo, new_hi)``, the new interval of each link."""

    rule: str
    level: str
    islands: tuple[int, ...]
    links: tuple[int, ...]
    changes: tuple[tuple[int, int, int], ...]
    sentence: str

    def __init__(self, rule: str, level: str, islands: tuple[int, ...], links: tuple[int, ...],
                 changes: tuple[tuple[int, int, int], ...], sentence: str):
        # the fields set at once, past the frozen __setattr__ (a run makes thousands of steps)
        self.__dict__.update(rule=rule, level=level, islands=islands, links=links, changes=changes,
                             sentence=sentence)

    def __str__(self) -> str:
        return f"[{self.level}/{self.rule}] {self.sentence}"
