"""Every published puzzle under ../shared/puzzles/real: read in its source's own format,
solved, checked by the rule checker, uniqueness as recorded, and round-tripped through
every format that can hold it."""

from __future__ import annotations

import json

import pytest

from hashikit import Solution, Status, check, solve
from hashikit.errors import FormatError
from hashikit.formats import formats, read_file, read_text, write_text

from conftest import REAL, need, record_puzzle, real_records


def original_format_cases():
    """(id, text, format, record) with the text in the format SOURCE.txt names."""
    cases = []
    for rid, rec in real_records():
        folder = rid.split("/")[0]
        if folder == "nikoli":
            cases.append((rid, rec["descriptor"], "ohmec", rec))
        elif folder == "ricotewechel":
            cases.append((rid, rec["id"], "tatham", rec))
        elif folder == "hcmus_csc14003":
            path = REAL / folder / "input" / rec["file"].split("input/")[-1]
            cases.append((rid, path.read_text() if path.exists() else None, "csv", rec))
        else:  # janko_wikipedia, tonivrbic: the JSON records themselves
            cases.append((rid, json.dumps(rec), "json", rec))
    return cases


CASES = original_format_cases()


@pytest.fixture(scope="module")
def shared_real():
    return need(REAL)


@pytest.mark.parametrize("rid, text, fmt, rec", CASES, ids=[c[0] for c in CASES])
def test_reads_solves_checks_and_knows_uniqueness(shared_real, rid, text, fmt, rec):
    if text is None:
        pytest.skip(f"input file for {rid} not found")
    doc = read_text(text, fmt, rid)
    puzzle = doc.puzzle
    assert puzzle == record_puzzle(rec), "read a different puzzle than the record's grid"
    result = solve(puzzle, max_solutions=2)
    if not rec["solvable"]:
        assert result.status is Status.INFEASIBLE
        return
    assert result.status is Status.SOLVED
    for sol in result.solutions:
        assert check(puzzle, sol).ok, check(puzzle, sol)
    assert result.unique is rec["unique"]
    if rec["unique"]:  # uniqueness proved, so the record's solution must be ours
        assert result.solution == Solution.from_list(rec["solution_bridges"])
    else:
        assert check(puzzle, Solution.from_list(rec["solution_bridges"])).ok


def test_godzilla_55_is_infeasible(shared_real):
    rec = next(r for rid, r in real_records() if r.get("label") == "Godzilla #55")
    result = solve(read_text(rec["descriptor"], "ohmec").puzzle)
    assert result.status is Status.INFEASIBLE and result.reason


def test_pzprjs_url_reads_to_the_recorded_grid(shared_real):
    text = (REAL / "pzprjs" / "hashikake_test_5x5.txt").read_text()
    url = next(ln for ln in text.splitlines() if ln.startswith("https://puzz.link"))
    grid_lines = text.split("# Grid (rows top to bottom, '.' empty):\n")[1].split("\n#")[0].split()
    assert read_text(url, "puzzlink").puzzle == read_text("\n".join(grid_lines), "grid").puzzle


def holdable_formats(puzzle, solution):
    """(name, text) for each writable and readable format that can hold this puzzle."""
    out = []
    for name, fmt in sorted(formats().items()):
        if fmt.read is None or fmt.write is None or (fmt.needs_solution and solution is None):
            continue
        try:
            text = write_text(puzzle, name, solution)
        except FormatError as exc:  # the format cannot hold it (numbers, MAXBRIDGES): it must say so
            assert "hold" in str(exc) or "MAXBRIDGES" in str(exc) or "number" in str(exc), exc
            continue
        out.append((name, text))
    return out


@pytest.mark.parametrize("rid, rec", real_records(), ids=[r[0] for r in real_records()])
def test_round_trips_through_every_format(shared_real, rid, rec):
    puzzle = record_puzzle(rec)
    solution = Solution.from_list(rec["solution_bridges"]) if rec.get("solution_bridges") else None
    written = holdable_formats(puzzle, solution)
    assert {"grid", "json", "has", "tatham", "puzzlink", "csv"} <= {n for n, _ in written}
    for name, text in written:
        doc = read_text(text, name, f"{rid} as {name}")
        assert doc.puzzle is None or doc.puzzle == puzzle, name
        if formats()[name].needs_solution:
            assert doc.solution == solution, name


def test_hcmus_inputs_read_from_their_files(shared_real):
    files = sorted((REAL / "hcmus_csc14003" / "input").glob("*/*.txt"))
    assert len(files) == 37
    for f in files:
        assert read_file(str(f)).puzzle.islands  # sniffed as comma grids
