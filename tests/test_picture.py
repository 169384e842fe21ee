"""Reading puzzles from pictures (issue 17): hashikit's own renderings and the drawn styles of
tests/picture_styles.py, the bridges of a game in progress, the command line (convert, solve, hint,
--show, standard input), and pictures that must be refused: no board, damaged, too large."""

from __future__ import annotations

import io
import json
import os
import random
import struct
import subprocess
import sys
import zlib

import pytest

pytest.importorskip("cv2", reason='OpenCV is not installed (pip install ".[photo]")')

from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402
from PIL import Image, ImageDraw, ImageFont  # noqa: E402

import picture_styles as ps  # noqa: E402
import hashikit  # noqa: E402
from hashikit import render  # noqa: E402
from hashikit.formats import picture  # noqa: E402
from hashikit.cli import main  # noqa: E402
from hashikit.checker import check  # noqa: E402
from hashikit.errors import FormatError, HashikitError  # noqa: E402
from hashikit.formats import read_file  # noqa: E402
from hashikit.generate import random_solution  # noqa: E402
from hashikit.model import Puzzle, Solution  # noqa: E402


def shifted(puzzle, bridges=None):
    """Islands and bridges relative to the first row and column with an island (a picture need
    not show empty rows or columns at the edge)."""
    r0 = min(i.row for i in puzzle.islands)
    c0 = min(i.col for i in puzzle.islands)
    isl = {(i.row - r0, i.col - c0, i.number) for i in puzzle.islands}
    br = {((a[0] - r0, a[1] - c0), (b[0] - r0, b[1] - c0), n) for (a, b), n in (bridges or {}).items()}
    return isl, br


def some_bridges(solution, rng):
    return Solution({k: (n if rng.random() < 0.7 else 1) for k, n in solution.bridges.items() if rng.random() < 0.5})


@pytest.mark.parametrize("cell", [15, 24, 40, 80, 150])
def test_own_png_read_exactly_at_every_scale(cell):
    """The README's range: about 15 to 150 px a cell: every island, number and bridge right, and sure
    of them from 24 px a cell; at 15 px a few small digits are doubted (each at its place), which the
    rules then settle (tests/test_picture_rules.py)."""
    pz, sol = random_solution(9, 11, random.Random(cell))
    part = some_bridges(sol, random.Random(cell + 1))
    reading = picture.read_picture(render.png(pz, part, cell=cell))
    assert shifted(reading.puzzle, reading.bridges.bridges) == shifted(pz, part.bridges)
    if cell >= 24:
        assert reading.unsure == []
    else:
        assert all(line.startswith("row ") for line in reading.unsure), reading.unsure


BOARDS = dict(seed=st.integers(0, 10**6), rows=st.integers(5, 12), cols=st.integers(5, 12), cell=st.integers(18, 50),
              drawn=st.booleans())


def read_back(seed, rows, cols, cell, drawn):
    rng = random.Random(seed)
    pz, sol = random_solution(rows, cols, rng)
    part = some_bridges(sol, rng) if drawn else Solution({})
    reading = picture.read_picture(render.png(pz, part if drawn else None, cell=cell))
    assert shifted(reading.puzzle, reading.bridges.bridges) == shifted(pz, part.bridges)


# the default run reads the same boards every time (a test that passes every time); the long run explores
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(**BOARDS)
def test_property_rendered_boards_read_back(seed, rows, cols, cell, drawn):
    read_back(seed, rows, cols, cell, drawn)


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**BOARDS)
def test_property_rendered_boards_read_back_explored(seed, rows, cols, cell, drawn):
    read_back(seed, rows, cols, cell, drawn)


@pytest.mark.xfail(strict=True, reason="known limit of the reader: islands only at the corners of a square, 5 cells "
                                       "apart, are placed from the islands' ring size, measured at about 0.36 of a "
                                       "cell where 0.4 is assumed, so 5 steps read as 6 (found by the property test)")
def test_a_sparse_board_whose_islands_are_five_cells_apart():
    read_back(seed=1, rows=6, cols=6, cell=18, drawn=False)


@pytest.mark.parametrize("family", ps.FAMILIES)
def test_drawn_styles(family):
    rng = random.Random(sum(map(ord, family)))
    pz, sol = random_solution(10, 10, rng)
    part = some_bridges(sol, rng)
    style = ps.random_style(rng, family)
    reading = picture.read_picture(ps.draw(pz, part, style))
    assert shifted(reading.puzzle, reading.bridges.bridges) == shifted(pz, part.bridges), style


def test_a_full_solution_read_from_a_picture_passes_the_checker():
    pz, sol = random_solution(8, 8, random.Random(4))
    reading = picture.read_picture(render.png(pz, sol, cell=30))
    assert check(reading.puzzle, reading.bridges).ok
    assert reading.summary().startswith(f"read a {reading.puzzle.rows}x{reading.puzzle.cols} board")


def test_rotated_noisy_jpeg():
    rng = random.Random(11)
    pz, sol = random_solution(12, 12, rng)
    style = ps.random_style(rng, "photo")
    style.update(angle=2.5, jpeg=50, noise=5.0, blur=0.7, cell=34)
    reading = picture.read_picture(ps.draw(pz, sol, style))
    assert shifted(reading.puzzle, reading.bridges.bridges) == shifted(pz, sol.bridges)
    assert 2.0 < abs(reading.angle) < 3.0


def test_an_island_off_the_grid_is_reported_not_silently_placed():
    pz, _ = random_solution(8, 8, random.Random(2))
    style = ps.random_style(random.Random(2), "clean")
    style.update(cell=40, title=False, lattice="none")
    data = ps.draw(pz, None, style)
    im = Image.open(io.BytesIO(data)).convert("RGB")
    d = ImageDraw.Draw(im)
    font = ImageFont.truetype(ps.font_path("dejavu-sans-bold"), 22)
    isl = pz.islands[0]  # move the first island a third of a cell to the right
    margin = round(style["margin"] * 40) + 4
    x, y = margin + isl.col * 40 + 20, margin + isl.row * 40 + 20
    d.rectangle((x - 19, y - 19, x + 19, y + 19), fill=style["paper"])
    d.text((x + 14, y), str(isl.number), font=font, fill=(0, 0, 0), anchor="mm")
    buf = io.BytesIO()
    im.save(buf, "PNG")
    reading = picture.read_picture(buf.getvalue())
    assert any("off the grid" in u for u in reading.unsure), reading.unsure


# -- the command line ----------------------------------------------------------------------

@pytest.fixture
def game(tmp_path):
    """A picture of a game in progress, its puzzle and the bridges drawn."""
    pz, sol = random_solution(9, 9, random.Random(21))
    part = Solution(dict(list(sol.bridges.items())[::3]))
    path = tmp_path / "shot.png"
    path.write_bytes(render.png(pz, part, cell=32))
    return str(path), pz, part


def test_read_file_reads_a_picture_with_its_game(game):
    path, pz, part = game
    doc = read_file(path)
    assert doc.in_play and doc.picture is not None
    assert shifted(doc.puzzle, doc.solution.bridges) == shifted(pz, part.bridges)


def test_convert_writes_the_drawn_bridges_in_json(game, capsys):
    path, pz, part = game
    assert main(["convert", path, "-", "--to", "json"]) == 0
    out, err = capsys.readouterr()
    data = json.loads(out)
    got = Solution.from_list(data["bridges"])
    puzzle = Puzzle(data["rows"], data["cols"], data["islands"])
    assert shifted(puzzle, got.bridges) == shifted(pz, part.bridges)
    assert f"{path}: read a " in err and "bridges drawn" in err


def test_hint_starts_from_the_picture_game(game, tmp_path, capsys):
    path, pz, part = game
    assert main(["hint", path, "--format", "json"]) == 0
    from_picture = json.loads(capsys.readouterr().out)
    doc = read_file(path)
    state = tmp_path / "state.sol.json"
    from hashikit.formats import write_text

    state.write_text(write_text(doc.puzzle, "json-solution", doc.solution))
    grid = tmp_path / "p.txt"
    grid.write_text(write_text(doc.puzzle, "grid"))
    assert main(["hint", str(grid), "--state", str(state), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out) == from_picture
    assert main(["hint", str(grid), "--format", "json"]) == 0  # without the drawn bridges: another step
    assert json.loads(capsys.readouterr().out) != from_picture or not part.bridges


def test_hint_refuses_a_state_beside_a_picture_with_bridges(game, tmp_path, capsys):
    path, _, _ = game
    state = tmp_path / "state.sol.json"
    state.write_text('{"bridges": []}')
    assert main(["hint", path, "--state", str(state)]) == 2
    assert "give one" in capsys.readouterr().err


def test_hint_says_when_a_drawn_bridge_breaks_a_rule(tmp_path, capsys):
    pz = Puzzle(5, 5, [(0, 0, 1), (0, 4, 2), (4, 4, 1)])
    bad = Solution({((0, 0), (0, 4)): 2})  # two bridges on the 1
    path = tmp_path / "bad.png"
    path.write_bytes(render.png(pz, bad, cell=40))
    assert main(["hint", str(path)]) == 1
    out = capsys.readouterr().out
    assert "Your board has a problem" in out and "more than its number" in out


def test_show_draws_the_reading(game, tmp_path, capsys):
    path, _, _ = game
    out = tmp_path / "read.png"
    assert main(["solve", path, "--show", str(out), "-q"]) == 0
    with Image.open(out) as im:
        assert im.size == Image.open(path).size
    assert main(["convert", path, "-", "--to", "json", "--show", str(tmp_path / "read.jpg")]) == 2
    assert "--show" in (err := capsys.readouterr().err) and "give a .png file name" in err
    grid = tmp_path / "p.txt"
    grid.write_text("2.2\n...\n2.2\n")
    assert main(["solve", str(grid), "--show", str(out)]) == 2
    assert "is not a picture" in capsys.readouterr().err


def test_standard_input_takes_a_picture(game):
    path, pz, part = game
    with open(path, "rb") as fh:
        proc = subprocess.run([sys.executable, "-m", "hashikit", "convert", "-", "-", "--to", "json"], stdin=fh,
                              capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "<stdin>: read a" in proc.stderr


def test_solve_a_picture_and_check_the_solution(game, capsys):
    path, _, _ = game
    assert main(["solve", path, "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    doc = read_file(path)
    assert report["status"] == "solved"
    assert check(doc.puzzle, Solution.from_list(report["bridges"])).ok


# -- refusals ------------------------------------------------------------------------------

def _png(im):
    buf = io.BytesIO()
    im.save(buf, "PNG")
    return buf.getvalue()


def _bomb(width, height):
    """A PNG whose header announces width x height pixels, with almost no data."""
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 100))
            + chunk(b"IEND", b""))


def _text_picture():
    im = Image.new("RGB", (600, 300), "white")
    d = ImageDraw.Draw(im)
    font = ImageFont.truetype(ps.font_path("dejavu-sans"), 18)
    for i in range(8):
        d.text((10, 10 + 30 * i), f"Line {i + 1}: the 3 bridges of 2024 cost 17 coins, page {i % 9}.", font=font,
               fill="black")
    return _png(im)


def _table_picture():
    """Single digits 1 to 8 in a table, rows closer than columns (so the squarest grid has a place
    between every two rows and columns): a table, not a board."""
    im = Image.new("RGB", (500, 400), "white")
    d = ImageDraw.Draw(im)
    font = ImageFont.truetype(ps.font_path("dejavu-sans"), 18)
    for r in range(8):
        for c in range(6):
            d.text((20 + 70 * c, 20 + 45 * r), str((r * 5 + c * 3) % 8 + 1), font=font, fill="black")
    return _png(im)


@pytest.mark.parametrize("name, data, says", [
    ("blank.png", _png(Image.new("RGB", (300, 200), "white")), "no Hashi board found"),
    ("dark.png", _png(Image.new("RGB", (300, 200), (20, 20, 20))), "no Hashi board found"),
    ("text.png", _text_picture(), "no Hashi board found"),
    ("table.png", _table_picture(), "no Hashi board found"),
    ("bomb.png", _bomb(100_000, 100_000), "pixels; hashikit reads pictures of at most"),
    ("wide.png", _bomb(2**31 - 1, 1), "hashikit reads pictures of at most"),
    ("tiny.png", _png(Image.new("RGB", (3, 3), "white")), "too small to hold a board"),
    ("cut.png", render.png(Puzzle(3, 3, [(0, 0, 1), (0, 2, 1)]), None, cell=30)[:200], "damaged or cut short"),
    ("fake.png", b"this is no picture", "not a PNG, JPEG or WebP picture"),
    ("fake.jpg", b"\xff\xd8\xff\xe0" + b"\0" * 50, "cannot read the JPEG picture"),
])
def test_bad_pictures_are_one_line_and_exit_2(tmp_path, capsys, name, data, says):
    path = tmp_path / name
    path.write_bytes(data)
    assert main(["solve", str(path)]) == 2
    err = capsys.readouterr().err
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and str(path) in lines[0] and says in lines[0], err
    with pytest.raises(FormatError):  # the library says the same
        hashikit.read_picture(data)


def test_empty_file_is_refused(tmp_path, capsys):
    path = tmp_path / "empty.png"
    path.write_bytes(b"")
    assert main(["convert", str(path), "-", "--to", "json"]) == 2
    assert "empty" in capsys.readouterr().err


def test_a_picture_above_the_byte_cap_is_refused(tmp_path):
    from hashikit import limits
    from hashikit.records import replace

    path = tmp_path / "big.png"
    path.write_bytes(render.png(Puzzle(3, 3, [(0, 0, 1), (0, 2, 1)]), None, cell=30))
    small = replace(limits.WEB, max_input_bytes=100)
    with pytest.raises(FormatError, match="at most 100"):
        read_file(str(path), limits=small)
    with pytest.raises(FormatError, match="at most 100"):
        picture.read_picture(path.read_bytes(), "big.png", small)


def test_without_opencv_the_error_says_how_to_install(monkeypatch, tmp_path, capsys):
    path = tmp_path / "shot.png"
    path.write_bytes(render.png(Puzzle(3, 3, [(0, 0, 1), (0, 2, 1)]), None, cell=30))
    monkeypatch.setitem(sys.modules, "cv2", None)  # import cv2 raises ImportError
    assert main(["solve", str(path)]) == 2
    err = capsys.readouterr().err
    assert 'pip install ".[photo]"' in err and len(err.strip().splitlines()) == 1


def test_kind_of_recognises_by_bytes():
    assert picture.kind_of(b"\x89PNG\r\n\x1a\n....") == "PNG"
    assert picture.kind_of(b"\xff\xd8\xff\xe0") == "JPEG"
    assert picture.kind_of(b"RIFF\x10\0\0\0WEBPVP8 ") == "WebP"
    assert picture.kind_of(b"4..4\n") is None


def test_webp_is_read(tmp_path):
    pz, sol = random_solution(7, 7, random.Random(8))
    im = Image.open(io.BytesIO(render.png(pz, sol, cell=36)))
    buf = io.BytesIO()
    im.save(buf, "WEBP", quality=90)
    reading = picture.read_picture(buf.getvalue())
    assert shifted(reading.puzzle, reading.bridges.bridges) == shifted(pz, sol.bridges)


def test_a_phone_photo_turned_by_its_exif_tag_is_read_as_shown(tmp_path, capsys):
    pz, sol = random_solution(7, 9, random.Random(12))
    shown = Image.open(io.BytesIO(render.png(pz, sol, cell=36))).convert("RGB")
    stored = shown.transpose(Image.Transpose.ROTATE_90)  # EXIF 6: turn 90 degrees clockwise to show
    exif = Image.Exif()
    exif[0x0112] = 6
    buf = io.BytesIO()
    stored.save(buf, "JPEG", quality=92, exif=exif.tobytes())
    reading = picture.read_picture(buf.getvalue())
    assert shifted(reading.puzzle, reading.bridges.bridges) == shifted(pz, sol.bridges)
    x, y = reading.centre(reading.islands[0].row, reading.islands[0].col)
    assert abs(x - reading.islands[0].x) < 8 and abs(y - reading.islands[0].y) < 8  # in shown pixels
    out = tmp_path / "read.png"
    from hashikit.service.overlay import draw_reading

    draw_reading(reading, str(out))
    assert Image.open(out).size == shown.size


@settings(max_examples=30, deadline=None)
@given(st.binary(min_size=0, max_size=400))
def test_property_garbage_after_a_png_header_never_crashes(tail):
    data = b"\x89PNG\r\n\x1a\n" + tail
    with pytest.raises(HashikitError):
        picture.read_picture(data)


def test_model_file_is_the_trained_one():
    """The digit network in hashikit/data stays small (the README says its size) and has the shape the
    reader feeds it: FEATURE_SIDE squared pixels and two shape numbers in, the classes out."""
    from hashikit.formats import picture_digits

    size = os.path.getsize(picture.MODEL_PATH)
    assert size < 250_000
    readme = open(os.path.join(os.path.dirname(__file__), "..", "README.md")).read()
    assert f"{round(size / 1000)} kB\n  in `hashikit/data/digits.npz`" in readme
    import numpy as np

    with np.load(picture.MODEL_PATH) as m:
        assert m["w1"].shape[0] == picture.FEATURE_SIDE ** 2 + 2
        last = max(int(k[1:]) for k in m.files if k.startswith("w"))
        assert m[f"w{last}"].shape[1] == len(picture_digits.CLASS_DIGIT)
        assert m["w1"].dtype == np.float16


def test_features_do_not_depend_on_the_scale():
    """A digit is brought to one height before it is classified: the same glyph drawn at 12 and at
    120 pixels gives nearly the same features (the 1 that read as 4 at one resolution only)."""
    import numpy as np
    from PIL import ImageFont

    from hashikit.formats import picture_digits

    feats = []
    for size in (17, 60, 170):
        font = ImageFont.truetype(ps.font_path("liberation-sans"), size)
        im = Image.new("L", (size * 2, size * 2), 0)
        ImageDraw.Draw(im).text((size, size), "1", font=font, fill=255, anchor="mm")
        a = np.asarray(im, np.float32) / 255
        ys, xs = np.nonzero(a > 0.1)
        feats.append(picture_digits.features(a[ys.min():ys.max() + 1, xs.min():xs.max() + 1]))
    assert np.abs(feats[0] - feats[2]).mean() < 0.08 and np.abs(feats[1] - feats[2]).mean() < 0.05


def _projected(seed):
    """Island centres of a random board as a camera sees them: turned up to 15 degrees, the far side up
    to 15% shorter, a little noise; and the cells they should get."""
    import math

    import cv2
    import numpy as np

    rng = random.Random(seed)
    pz, _ = random_solution(rng.randint(6, 15), rng.randint(6, 15), rng)
    cell = rng.uniform(15, 80)
    g = np.array([[i.col, i.row] for i in pz.islands], float)
    src = np.float32([[0, 0], [pz.cols - 1, 0], [pz.cols - 1, pz.rows - 1], [0, pz.rows - 1]])
    dst = src * cell
    side = rng.randrange(4)
    i, j = side, (side + 1) % 4
    along = (dst[j] - dst[i]) / np.linalg.norm(dst[j] - dst[i])
    span = np.linalg.norm(dst[j] - dst[i])
    slant = rng.uniform(0, 0.15)
    dst[i] += along * slant * span / 2
    dst[j] -= along * slant * span / 2
    a = math.radians(rng.uniform(-15, 15))
    dst = (dst @ np.array([[math.cos(a), math.sin(a)], [-math.sin(a), math.cos(a)]]) + 400).astype(np.float32)
    from hashikit.formats import picture_lattice

    pts = picture_lattice.apply(cv2.getPerspectiveTransform(src, dst), g)
    pts += np.random.default_rng(seed).normal(0, 0.03 * cell, pts.shape)
    return pts, g.astype(int), 0.5 * cell


@pytest.mark.parametrize("seed", range(0, 200, 25))
def test_the_grid_follows_a_slanted_turned_photo(seed):
    """The grid is a homography grown from the middle: every island of a board turned by up to 15
    degrees and seen at up to 15% perspective lands on its own row and column."""
    import numpy as np

    from hashikit.formats import picture_lattice

    pts, cells, size = _projected(seed)
    grid = picture_lattice.fit(pts, size)
    assert grid is not None and grid.on.all()

    def reduced(a):  # boards whose islands all sit on even columns read as the same puzzle, halved
        a = a - a.min(axis=0)
        return a // np.maximum(1, np.gcd.reduce(a, axis=0))

    assert (reduced(grid.cells) == reduced(cells)).all()


@pytest.mark.slow
def test_the_training_script_rebuilds_a_model(tmp_path):
    """scripts/train_digits.py makes a model file the reader can load (a small run)."""
    out = tmp_path / "digits.npz"
    script = os.path.join(os.path.dirname(__file__), "..", "scripts", "train_digits.py")
    proc = subprocess.run([sys.executable, script, "--per-class", "30", "--epochs", "2", "--skip-check", "--out",
                           str(out)], capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr
    assert "fonts" in proc.stdout and out.exists()
    import numpy as np

    from hashikit.formats import picture_digits

    model = picture_digits.load_model(str(out))
    assert model["w1"].shape[0] == picture.FEATURE_SIDE ** 2 + 2
    probs = picture_digits.classify(np.zeros((3, picture.FEATURE_SIDE ** 2 + 2), np.float32), model)
    assert probs.shape == (3, len(picture_digits.CLASS_DIGIT))


def test_signs_of_another_puzzle():
    """What makes a grid of numbers look like another puzzle (used when, as a Hashi puzzle, it has no
    solution): numbers side by side (Slant, Filling; no published Hashi board in ../shared has any),
    a nearly full table; a Tatham-like board shows none."""
    from types import SimpleNamespace

    def signs(cells, R, C):
        digits = [SimpleNamespace(digit=3, sure=0.99) for _ in cells]
        return picture._another_puzzle({cell: k for k, cell in enumerate(cells)}, digits, R, C, "x")

    pairs = [(r, c) for r in range(0, 8, 2) for c in (0, 1)] + [(7, 5), (3, 7)]
    assert any("stand in the cell next to another" in s for s in signs(pairs, 8, 8))
    table = [(r, c) for r in range(0, 10, 2) for c in range(0, 12, 3)]
    assert any("places of a table" in s for s in signs(table, 9, 10))
    board = [(0, 0), (0, 4), (2, 2), (2, 6), (4, 0), (4, 3), (6, 1), (6, 5), (8, 6), (3, 8), (8, 2)]
    assert signs(board, 9, 9) == []
