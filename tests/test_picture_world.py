"""Reading pictures no one on this project drew (tests/picture_world.py): Simon Tatham's own printouts
of his Bridges puzzles and their solutions (Debian's sgt-puzzles, rasterised by Ghostscript), with the
effects a phone camera brings, boards written as SVG and drawn by Chromium, and his other puzzles,
which must be refused (exit 2, HTTP 400).

The default run reads a few pictures of each kind; ``-m slow`` reads many more and holds the rates
the issue asks for.  The full measurement, with a part held back from tuning, is
``benchmarks/pictures.py`` (its table: benchmarks/results/pictures.md)."""

from __future__ import annotations

import base64
import random

import pytest

pytest.importorskip("cv2", reason='OpenCV is not installed (pip install ".[photo]")')

import picture_world as pw  # noqa: E402

from hashikit import read_picture  # noqa: E402
from hashikit.errors import FormatError, HashikitError  # noqa: E402

needs_sgt = pytest.mark.skipif(pw.missing("sgt", "gs") is not None, reason=pw.missing("sgt", "gs") or "")


def shifted(puzzle, bridges=None):
    r0 = min(i.row for i in puzzle.islands)
    c0 = min(i.col for i in puzzle.islands)
    isl = {(i.row - r0, i.col - c0, i.number) for i in puzzle.islands}
    br = {((a[0] - r0, a[1] - c0), (b[0] - r0, b[1] - c0), n) for (a, b), n in (bridges or {}).items() if n}
    return isl, br


def read_exactly(data, puzzle, bridges):
    r = read_picture(data)
    assert shifted(r.puzzle, r.bridges.bridges) == shifted(puzzle, bridges.bridges), r.unsure
    return r


@needs_sgt
@pytest.mark.parametrize("dpi, cropped", [(72, True), (150, False), (300, True)])
def test_tatham_prints_are_read_exactly_at_any_resolution(dpi, cropped):
    """His printouts, Helvetica digits in thick circles: at 150 dpi (61 px a cell) every 1 once read
    as 4; the digits are brought to one size before they are classified."""
    png, puzzle, bridges, _ = pw.tatham_case(f"test{dpi}", "10x10m2", dpi, cropped=cropped)
    r = read_exactly(png, puzzle, bridges)
    assert not r.unsure


@needs_sgt
def test_a_tatham_solution_is_read_with_every_bridge():
    """Bridges between neighbouring islands are hidden under his overlapping circles: the one solution,
    which every bridge seen agrees with, gives them."""
    png, puzzle, bridges, gid = pw.tatham_case("sol1", "10x10m2", 120, solution=True)
    r = read_exactly(png, puzzle, bridges)
    assert not r.unsure


@needs_sgt
def test_a_board_with_islands_only_on_even_rows_and_columns_says_it_may_be_spaced():
    """Tatham's rings are 1.1 cells across; on a board whose every island stands on an even row and
    column they are 0.55 of the cell the islands show, as on a board with small rings and no empty rows.
    The picture cannot tell them apart (the puzzle is the same): the reading says so."""
    png, puzzle, bridges, gid = pw.tatham_case("slow1", "7x7m2", 300)
    assert all(i.row % 2 == 0 and i.col % 2 == 0 for i in puzzle.islands), gid
    r = read_picture(png)
    halved = {(i.row // 2, i.col // 2, i.number) for i in puzzle.islands}
    assert shifted(r.puzzle)[0] in (shifted(puzzle)[0], halved)
    if shifted(r.puzzle)[0] == halved:
        assert any("may have an empty row and column between every two" in u for u in r.unsure), r.unsure


@needs_sgt
@pytest.mark.parametrize("effect", ["perspective", "dark-table", "rotate"])
def test_photo_effects(effect):
    png, puzzle, bridges, _ = pw.tatham_case(f"fx-{effect}", "10x10m2", 150)
    read_exactly(pw.effect(png, effect, random.Random(effect)), puzzle, bridges)


@needs_sgt
@pytest.mark.parametrize("game", ["towers", "slant", "dominosa", "keen", "filling"])
def test_other_puzzles_are_refused(game, tmp_path, capsys):
    from hashikit.cli import main

    path = tmp_path / f"{game}.png"
    path.write_bytes(pw.other_puzzle(game, "test", dpi=100))
    assert main(["solve", str(path)]) == 2
    lines = [ln for ln in capsys.readouterr().err.splitlines() if ln.strip()]
    assert len(lines) == 1 and "no Hashi board found in the picture" in lines[0], lines


@needs_sgt
def test_the_web_refuses_another_puzzle_with_400():
    from starlette.testclient import TestClient

    from hashikit.web.app import create_app

    data = pw.other_puzzle("towers", "web", dpi=100)
    with TestClient(create_app(pool_size=0)) as client:
        answer = client.post("/api/read-picture", json={"image": base64.b64encode(data).decode()})
    assert answer.status_code == 400 and "no Hashi board" in answer.json()["error"]


@pytest.mark.skipif(pw.missing("chromium") is not None, reason=pw.missing("chromium") or "")
def test_svg_boards_drawn_by_chromium():
    from hashikit.generate import random_solution
    from hashikit.model import Solution

    with pw.Chromium() as chrome:
        for seed in range(3):
            rng = random.Random(seed)
            puzzle, sol = random_solution(8, 9, rng)
            bridges = Solution(dict(list(sol.bridges.items())[::2]))
            style = pw.svg_style(rng, pw.SVG_FONTS_TUNE)
            style.update(cell=40, grid=["crossings", "dots", "cells"][seed])
            read_exactly(chrome.png(pw.svg_board(puzzle, bridges, style)), puzzle, bridges)


# -- the long run --------------------------------------------------------------------------------

def _rate(cases, make):
    exact = silent = 0
    for seed in cases:
        data, puzzle, bridges = make(seed)
        try:
            r = read_picture(data)
        except HashikitError:
            continue
        if shifted(r.puzzle, r.bridges.bridges) == shifted(puzzle, bridges.bridges):
            exact += 1
        elif not r.unsure:
            silent += 1
    return exact / len(cases), silent


@pytest.mark.slow
@needs_sgt
def test_long_run_tatham_prints_and_solutions():
    def prints(seed):
        rng = random.Random(seed)
        png, pz, br, _ = pw.tatham_case(f"slow{seed}", rng.choice(["7x7", "10x10", "15x15"]) + "m2",
                                        rng.choice([72, 100, 150, 200, 300]), solution=seed % 3 == 0,
                                        cropped=rng.random() < 0.5)
        return png, pz, br

    rate, silent = _rate(range(30), prints)
    assert rate >= 0.95 and silent == 0


@pytest.mark.slow
@needs_sgt
def test_long_run_photo_effects_one_at_a_time_and_stacked():
    def one(seed):
        rng = random.Random(seed)
        png, pz, br, _ = pw.tatham_case(f"slowfx{seed}", "10x10m2", rng.choice([100, 150, 200]))
        return pw.effect(png, pw.EFFECTS[seed % len(pw.EFFECTS)], rng), pz, br

    rate, silent = _rate(range(27), one)
    assert rate >= 0.85 and silent == 0

    def many(seed):
        rng = random.Random(seed)
        png, pz, br, _ = pw.tatham_case(f"slowst{seed}", "10x10m2", rng.choice([100, 150, 200]))
        return pw.stacked(png, rng)[0], pz, br

    rate, silent = _rate(range(15), many)
    assert rate >= 0.6 and silent == 0


@pytest.mark.slow
@needs_sgt
def test_long_run_other_puzzles_are_all_refused():
    for k, game in enumerate(("towers", "dominosa", "slant", "keen", "tents", "filling", "solo") * 3):
        with pytest.raises(FormatError):
            read_picture(pw.other_puzzle(game, f"slow{k}", dpi=[72, 100, 150][k % 3]))
