"""The Coelho, Laporte, Lindbeck & Vidal (2019) benchmark: every instance solves and passes the checker.

The default run takes one instance from each of the 48 groups; ``pytest -m slow`` runs all 1440.
Instances are not unique: solutions are checked by the rules, never compared with a stored answer.
"""

from __future__ import annotations

import pytest

from hashikit import Status, check, solve
from hashikit.formats import read_file

from conftest import COELHO, coelho_files, need


def group_of(path) -> str:
    return "_".join(path.stem.split("_")[1:5])


def one_per_group():
    seen, out = set(), []
    for f in coelho_files():
        g = group_of(f)
        if g not in seen:
            seen.add(g)
            out.append(f)
    return out


def solve_and_check(path):
    puzzle = read_file(str(path)).puzzle  # through the .has reader
    n_declared = int(path.read_text().split()[2])
    assert len(puzzle.islands) == n_declared
    result = solve(puzzle)
    assert result.status is Status.SOLVED, f"{path.name}: {result.status}"
    report = check(puzzle, result.solution)
    assert report.ok, f"{path.name}: {report}"


def test_one_instance_per_group():
    need(COELHO)
    files = one_per_group()
    assert len(files) == 48
    for f in files:
        solve_and_check(f)


@pytest.mark.slow
def test_all_1440_instances():
    need(COELHO)
    files = coelho_files()
    assert len(files) == 1440
    for f in files:
        solve_and_check(f)
