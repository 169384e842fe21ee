"""The rules settle a picture's reading (hashikit/service/settling.py): where a number is unsure, or the
puzzle as read has no solution or several, the runner-up readings are tried and the one with exactly
one solution is kept, said and undoable; links the picture cannot show are read from the one solution;
a picture of another puzzle is refused; and the command line, the library and the web give the same
settled reading."""

from __future__ import annotations

import base64
import copy
import json

import pytest

from hashikit import check, solve
from hashikit.errors import FormatError
from hashikit.formats import read_text
from hashikit.formats.picture import Doubt, Island, Reading
from hashikit.model import Solution
from hashikit.service import settling as service

#: Tatham game IDs (sgt-bridges --generate), each with exactly one solution
GAMES = ["10x10m2:c2e34a4a4c4h1l3d2a4j2a3a3a6b7a6k1a2f3c6b6a4",
         "7x7m2:3b3b2g4a1l2a5b54d2b2b3a2",
         "10x10m2:2h3j4d5c5j6a2e2k6d7b4m1b5a2b3h3"]


def tatham(k=0):
    puzzle = read_text(GAMES[k], "tatham").puzzle
    result = solve(puzzle, max_solutions=2)
    assert len(result.solutions) == 1 and check(puzzle, result.solution).ok
    return puzzle, result.solution


def reading_of(puzzle, bridges=None, sure=0.99, **kw):
    islands = [Island(i.row, i.col, i.number, sure, 10.0 * i.col, 10.0 * i.row, [((i.number % 8) + 1, 0.005)])
               for i in puzzle.islands]
    return Reading(puzzle, bridges or Solution({}), islands, **kw)


def misread(puzzle, k, wrong):
    """The puzzle with island k's number read as ``wrong``."""
    isl = puzzle.islands[k]
    return puzzle.with_numbers({isl.pos: wrong}), isl


def test_an_unsure_number_is_corrected_by_the_rules_and_said_why():
    puzzle, _ = tatham(0)
    k = next(i for i, isl in enumerate(puzzle.islands) if isl.number == 1)
    bad, isl = misread(puzzle, k, 4)
    assert len(solve(bad, max_solutions=2).solutions) != 1
    doubt = Doubt("number", f"row {isl.row + 1}, column {isl.col + 1}: read as 4, could be 1", cell=isl.pos,
                  choices=[(4, 0.6), (1, 0.35), (7, 0.02)])
    settled = service.settle(reading_of(bad, doubts=[doubt]))
    assert settled.puzzle == puzzle
    assert settled.unsure == []
    (c,) = settled.corrections
    assert (c.cell, c.was, c.now) == (isl.pos, 4, 1)
    assert c.text == f"row {isl.row + 1}, column {isl.col + 1} read as 4; as 1 the puzzle has exactly one solution"
    assert [i.number for i in settled.islands if (i.row, i.col) == isl.pos] == [1]


def test_the_most_probable_reading_with_one_solution_wins():
    """Two unsure places: the readings are tried most probable first."""
    puzzle, _ = tatham(2)
    ks = [i for i, isl in enumerate(puzzle.islands) if isl.number in (2, 3)][:2]
    bad = puzzle
    doubts = []
    for k, wrong in zip(ks, (5, 8)):
        isl = puzzle.islands[k]
        bad = bad.with_numbers({isl.pos: wrong})
        doubts.append(Doubt("number", "x", cell=isl.pos, choices=[(wrong, 0.5), (isl.number, 0.45)]))
    settled = service.settle(reading_of(bad, doubts=doubts))
    assert settled.puzzle == puzzle and len(settled.corrections) == 2 and settled.unsure == []


def test_a_faint_mark_the_rules_find_no_island_is_taken_away():
    """Ink the network found likelier no digit, on an empty place of the grid, is read as a faint
    number and doubted; when the puzzle has exactly one solution without it, it goes."""
    from hashikit.model import Island as Isl

    puzzle, _ = tatham(0)
    taken = {i.pos for i in puzzle.islands}
    cell = next((r, c) for r in range(puzzle.rows) for c in range(puzzle.cols) if (r, c) not in taken
                and len(solve(puzzle.with_islands(list(puzzle.islands) + [Isl(r, c, 1)]), max_solutions=2).solutions)
                != 1)
    extra = puzzle.with_islands(list(puzzle.islands) + [Isl(*cell, 1)])
    doubt = Doubt("number", f"row {cell[0] + 1}, column {cell[1] + 1}: a faint 1, or no island?", cell=cell,
                  choices=[(1, 0.4), (0, 0.55)])
    settled = service.settle(reading_of(extra, doubts=[doubt]))
    assert settled.puzzle.islands == puzzle.islands and settled.unsure == []
    (c,) = settled.corrections
    assert (c.cell, c.was, c.now) == (cell, 1, 0) and "with no island there" in c.text
    assert cell not in {(i.row, i.col) for i in settled.islands}


def test_no_doubt_but_no_solution_tries_the_least_sure_numbers():
    puzzle, _ = tatham(0)
    k = next(i for i, isl in enumerate(puzzle.islands) if isl.number == 3)
    bad, isl = misread(puzzle, k, 8)
    reading = reading_of(bad)
    for i in reading.islands:
        if (i.row, i.col) == isl.pos:
            i.sure, i.others = 0.9, [(3, 0.08), (6, 0.01)]
    settled = service.settle(reading)
    assert settled.puzzle == puzzle and settled.corrections[0].now == 3


def test_a_reading_the_rules_confirm_is_no_longer_unsure():
    puzzle, _ = tatham(1)
    isl = puzzle.islands[0]
    others = [n for n in range(1, 9) if n != isl.number][:2]
    doubt = Doubt("number", "x", cell=isl.pos, choices=[(isl.number, 0.55)] + [(n, 0.2) for n in others])
    settled = service.settle(reading_of(puzzle, doubts=[doubt]))
    assert settled.puzzle == puzzle and settled.unsure == []
    (c,) = settled.corrections
    assert c.was == c.now == isl.number and "the rules agree" in c.text


def test_a_reading_no_correction_saves_stays_unsure_and_says_where():
    puzzle, _ = tatham(0)
    bad, isl = misread(puzzle, 0, 8 if puzzle.islands[0].number != 8 else 7)
    doubt = Doubt("number", f"row {isl.row + 1}, column {isl.col + 1}: read as 8, could be 7", cell=isl.pos,
                  choices=[(bad.islands[0].number, 0.6), (7 if isl.number != 7 else 6, 0.3)])
    settled = service.settle(reading_of(bad, doubts=[doubt]))
    assert settled.puzzle == bad and not settled.corrections
    assert any(f"row {isl.row + 1}, column {isl.col + 1}" in u for u in settled.unsure)
    assert any("the puzzle as read has no solution" in u for u in settled.unsure)


def test_the_budget_bounds_the_readings_tried(monkeypatch):
    puzzle, _ = tatham(0)
    calls = []
    real = service._solutions
    monkeypatch.setattr(service, "_solutions", lambda p, d: calls.append(1) or real(p, d))
    doubts = [Doubt("number", "x", cell=isl.pos, choices=[(8, 0.4), (7, 0.3), (6, 0.3)])
              for isl in puzzle.islands[:8]]
    bad = puzzle.with_numbers({isl.pos: 8 for isl in puzzle.islands[:8]})
    service.settle(reading_of(bad, doubts=doubts), tries=10)
    assert len(calls) <= 11
    assert service.TRIES == 64 and service.BUDGET <= 0.5  # the README's "at most 64 readings, about half a second"


def test_links_hidden_under_the_circles_are_read_from_the_one_solution():
    """Tatham's circles overlap between neighbouring islands, so a printed solution hides the bridges
    between them: when every link seen agrees with the one solution, the hidden ones are read from it."""
    puzzle, sol = tatham(0)
    isl = puzzle.islands
    key = next(k for k, n in sol.bridges.items() if n)
    shown = Solution({k: n for k, n in sol.bridges.items() if k != key})
    doubt = Doubt("bridge", "the link ... is hidden under the islands' circles", link=key,
                  choices=[(0, 0.0), (1, 0.0), (2, 0.0)])
    settled = service.settle(reading_of(puzzle, shown, doubts=[doubt], hidden=[key]))
    assert settled.bridges == sol and settled.unsure == []
    assert settled.corrections[0].link == key and settled.corrections[0].now == sol.bridges[key]
    # a game in progress with a link the solution does not have: the hidden link stays unsure, and the
    # link seen is doubted (a misread bridge, or the player's mistake)
    other = next(ln for ln in puzzle.links if (isl[ln.a].pos, isl[ln.b].pos) not in sol.bridges)
    wrong = Solution({**shown.bridges, (isl[other.a].pos, isl[other.b].pos): 1})
    settled = service.settle(reading_of(puzzle, wrong, doubts=[doubt], hidden=[key]))
    assert settled.bridges == wrong and settled.unsure[0] == doubt.text and len(settled.unsure) == 2
    assert "but the puzzle's one solution has 0 there" in settled.unsure[1]
    # nothing drawn anywhere: the hidden links are empty too, and nothing is unsure
    settled = service.settle(reading_of(puzzle, Solution({}), doubts=[doubt], hidden=[key]))
    assert settled.bridges == Solution({}) and settled.unsure == []


def test_bridges_no_game_could_have_are_doubted_at_their_link():
    """A single bridge read as a double (a circle's outline beside it): more than the puzzle's one
    solution has there is doubted by its two ends; without one solution, more bridges at an island
    than its number.  Bridges that agree with the solution are not doubted."""
    puzzle, sol = tatham(1)
    single = next(k for k, n in sol.bridges.items() if n == 1)
    drawn = Solution({**sol.bridges, single: 2})
    settled = service.settle(reading_of(puzzle, drawn))
    (line,) = settled.unsure
    (a, b) = single
    assert line.startswith(f"the link from row {a[0] + 1}, column {a[1] + 1} to row {b[0] + 1}, column {b[1] + 1}: "
                           f"read as 2 bridges, but the puzzle's one solution has 1 there")
    assert service.settle(reading_of(puzzle, sol)).unsure == []
    # no solution to compare with: the island over its number names the link
    from hashikit.model import Puzzle

    none = Puzzle(1, 5, [(0, 0, 1), (0, 2, 2), (0, 4, 2)])
    assert not solve(none, max_solutions=1).solutions
    settled = service.settle(reading_of(none, Solution({((0, 0), (0, 2)): 2})))
    assert any(u.startswith("the link from row 1, column 1 to row 1, column 3: read as 2 bridges, but 2 bridges "
                            "read at the 1 at row 1, column 1") for u in settled.unsure), settled.unsure


def test_another_puzzle_is_refused_when_the_rules_find_no_hashi_puzzle_in_it():
    puzzle, _ = tatham(0)
    bad, _ = misread(puzzle, 0, 8)
    with pytest.raises(FormatError, match="another puzzle"):
        service.settle(reading_of(bad, foreign=["row 1, column 1 holds a 0"]), source="x.png")
    settled = service.settle(reading_of(puzzle, foreign=["row 1, column 1 holds a 0"]))  # solvable: kept
    assert settled.puzzle == puzzle


def test_settling_leaves_the_reading_it_was_given_alone():
    puzzle, _ = tatham(0)
    bad, isl = misread(puzzle, 3, 8)
    doubt = Doubt("number", "x", cell=isl.pos, choices=[(8, 0.6), (isl.number, 0.35)])
    reading = reading_of(bad, doubts=[doubt])
    before = copy.deepcopy(reading)
    service.settle(reading)
    assert reading.puzzle == before.puzzle and reading.doubts == before.doubts and not reading.corrections
    assert [i.number for i in reading.islands] == [i.number for i in before.islands]


# -- one reading for every front end ------------------------------------------------------------------

@pytest.fixture
def damaged(monkeypatch, tmp_path):
    """A picture of a Tatham puzzle whose reader is made to misread one number (unsure, the right
    number second), as if the picture were smudged there."""
    pytest.importorskip("cv2", reason='OpenCV is not installed (pip install ".[photo]")')
    from hashikit import render
    from hashikit.formats import picture

    puzzle, _ = tatham(0)
    path = tmp_path / "board.png"
    path.write_bytes(render.png(puzzle, None, cell=36))
    k = next(i for i, isl in enumerate(puzzle.islands) if isl.number == 1)
    import picture_world

    monkeypatch.setattr(picture, "read_picture", picture_world.misreading(picture.read_picture, k))
    return str(path), puzzle, puzzle.islands[k]


def test_the_command_line_the_library_and_the_web_give_the_same_settled_reading(damaged, capsys):
    from starlette.testclient import TestClient

    import hashikit
    from hashikit.cli import main
    from hashikit.web.app import create_app

    path, puzzle, isl = damaged
    said = f"row {isl.row + 1}, column {isl.col + 1} read as 4; as 1 the puzzle has exactly one solution"
    assert main(["convert", path, "-", "--to", "json"]) == 0
    out, err = capsys.readouterr()
    from_cli = json.loads(out)
    assert f"{path}: corrected: {said}" in err and "unsure" not in err
    with open(path, "rb") as fh:
        raw = fh.read()
    from_library = hashikit.read_picture(raw)
    assert [c.text for c in from_library.corrections] == [said]
    with TestClient(create_app(pool_size=0)) as client:
        answer = client.post("/api/read-picture", json={"image": base64.b64encode(raw).decode()})
    assert answer.status_code == 200, answer.text
    from_web = answer.json()
    assert from_web["corrections"] == [{"text": said, "cell": list(isl.pos), "was": 4, "now": 1}]
    shift = (min(i.row for i in from_library.puzzle.islands), min(i.col for i in from_library.puzzle.islands))
    cli = sorted(tuple(i) for i in from_cli["islands"])
    lib = sorted((i.row, i.col, i.number) for i in from_library.puzzle.islands)
    web = sorted(tuple(i) for i in from_web["puzzle"]["islands"])
    want = sorted((i.row - shift[0], i.col - shift[1], i.number) for i in puzzle.islands)
    assert cli == lib == web == want
    assert main(["solve", path, "-q", "--unique"]) == 0  # the corrected puzzle, solved: unique


def test_the_settled_reading_is_what_hint_starts_from(damaged, capsys, tmp_path):
    """``hint PICTURE`` gives the step the corrected puzzle gives (not the misread one's)."""
    from hashikit.cli import main
    from hashikit.formats import write_text

    path, puzzle, isl = damaged
    assert main(["hint", path, "--format", "json"]) == 0
    from_picture = json.loads(capsys.readouterr().out)
    grid = tmp_path / "p.txt"
    r0, c0 = min(i.row for i in puzzle.islands), min(i.col for i in puzzle.islands)
    grid.write_text(write_text(puzzle.with_islands([type(i)(i.row - r0, i.col - c0, i.number)
                                                    for i in puzzle.islands]), "grid"))
    assert main(["hint", str(grid), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out) == from_picture


def test_show_marks_what_the_rules_corrected(damaged, tmp_path):
    """``--show`` draws the settled reading: the corrected island in amber, the others in green."""
    import numpy as np
    from PIL import Image

    import hashikit
    from hashikit.cli import main

    path, puzzle, isl = damaged
    out = tmp_path / "read.png"
    assert main(["solve", path, "--show", str(out), "-q"]) == 0
    with open(path, "rb") as fh:
        reading = hashikit.read_picture(fh.read())
    a = np.asarray(Image.open(out).convert("RGB")).astype(int)
    amber = (abs(a[..., 0] - 224) < 40) & (abs(a[..., 1] - 138) < 40) & (a[..., 2] < 60)
    green = (a[..., 0] < 60) & (a[..., 1] > 110) & (a[..., 2] < 80)

    def around(mask, r, c):
        x, y = reading.centre(r, c)
        h = int(0.6 * reading.pitch)
        return int(mask[int(y) - h:int(y) + h, int(x) - h:int(x) + h].sum())

    (fixed,) = [k.cell for k in reading.corrections]
    other = next(i for i in reading.islands if (i.row, i.col) != fixed)
    assert around(amber, *fixed) > 20 and around(amber, other.row, other.col) == 0
    assert around(green, other.row, other.col) > 20
