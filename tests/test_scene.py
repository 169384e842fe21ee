"""One scene for every drawing of a board, one style table for every size in it.

* the scene is made in one place (:mod:`hashikit.render.scene`): nothing else in the package makes
  drawing primitives, writes SVG shapes, paints with OpenCV or writes PDF paths;
* each medium's scene takes its sizes from its column of the style table;
* the web serves the table (``GET /api/style``, in the OpenAPI) and the page's ``draw.js`` takes its
  sizes from it (read from the source here, from the page in Chromium in test_web_style.py);
* ``--show``'s picture is the overlay scene drawn over the picture (what was read, where).
"""

from __future__ import annotations

import ast
import io
import re
from pathlib import Path

import pytest

from hashikit import render
from hashikit.model import Puzzle, Solution
from hashikit.render import scene, style
from hashikit.render.scene import Circle, Line, Text

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "hashikit"
DRAW_JS = PACKAGE / "web" / "static" / "draw.js"

GRID = [[3, 0, 4, 0, 1], [0, 0, 0, 0, 0], [2, 0, 2, 0, 0]]
SOLUTION = Solution({((0, 0), (0, 2)): 2, ((0, 2), (0, 4)): 1, ((0, 0), (2, 0)): 1, ((2, 0), (2, 2)): 1,
                     ((0, 2), (2, 2)): 1})


def shapes(sc, kind):
    out = []
    for _, layer in sc.layers:
        for item in layer:
            out += shapes(item, kind) if isinstance(item, scene.Scene) else [item] if isinstance(item, kind) else []
    return out


# -- one place -----------------------------------------------------------------------------------------

def calls_in(path: Path) -> set[str]:
    """The names called in a module (``f(...)`` and ``a.f(...)`` as ``f`` and ``a.f``)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call):
            f = node.func
            if isinstance(f, ast.Name):
                names.add(f.id)
            elif isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name):
                names.add(f"{f.value.id}.{f.attr}")
    return names


def test_a_board_becomes_a_scene_in_one_place():
    primitives = {"Rect", "Line", "Circle", "Text", "Grid", "Scene"}
    painting = {"cv2.circle", "cv2.line", "cv2.putText", "cv2.rectangle", "ImageDraw.Draw"}
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        called = calls_in(path)
        if rel != "hashikit/render/scene.py":
            assert not called & primitives, f"{rel} makes drawing primitives: {sorted(called & primitives)}"
        assert not called & painting, f"{rel} paints by itself: {sorted(called & painting)}"
        text = path.read_text()
        if not rel.startswith("hashikit/render/"):
            assert "<circle" not in text and " re B" not in text and "resvg_py" not in text, \
                f"{rel} writes SVG shapes, PDF paths or rasterises by itself"


def test_each_medium_takes_its_sizes_from_its_column():
    puzzle = Puzzle.from_grid(GRID)
    for cell in (12, 19, 20, 40):
        sc = scene.screen(puzzle, SOLUTION, cell=cell)
        small = cell < style.SMALL_CELL
        (r,) = {c.r for c in shapes(sc, Circle)}
        assert r == cell * (style.SCREEN.island_small if small else style.SCREEN.island)
        one_digit = {t.size for t in shapes(sc, Text) if len(t.text) == 1}
        assert one_digit == {cell * (style.SCREEN.number_small if small else style.SCREEN.number)}
    on_paper = scene.paper(puzzle, SOLUTION, 10.0, 20.0, 6.0)
    assert {c.r for c in shapes(on_paper, Circle)} == {6.0 * style.PRINT.island}
    assert {t.size for t in shapes(on_paper, Text)} == {6.0 * style.PRINT.number}
    lines = shapes(on_paper, Line)
    assert {ln.width for ln in lines} == {max(style.LEAST["print"]["bridge"], 6.0 * style.PRINT.bridge)}
    double = sorted(ln.y1 for ln in lines if ln.key == "0,0-0,2")
    assert double[1] - double[0] == pytest.approx(6.0 * style.PRINT.pair)


def test_a_small_cell_on_paper_keeps_the_double_bridge_gap():
    """Below about 5 mm a cell's own proportions would bring a double bridge's lines closer than
    the least clear gap: the gap holds, the lines stay on the island's disc."""
    puzzle = Puzzle.from_grid(GRID)
    for cell in (2.5, 3.3, 4.0, 8.0):
        lines = [ln for ln in shapes(scene.paper(puzzle, SOLUTION, 0, 0, cell), Line) if ln.key == "0,0-0,2"]
        a, b = sorted(ln.y1 for ln in lines)
        clear = b - a - lines[0].width
        assert clear >= style.LEAST["print"]["clear"] - 1e-9
        assert b - a + lines[0].width < 2 * cell * style.PRINT.island
        assert (clear > style.LEAST["print"]["clear"] + 1e-9) == (cell * style.PRINT.pair - lines[0].width
                                                                  > style.LEAST["print"]["clear"])


def test_the_plain_palette_is_black_on_white_and_greys_are_written_as_grey_levels():
    from hashikit.render.to_pdf import colour

    plain = style.PALETTES["plain"]
    assert plain["board"] is None and plain["grid"] is None
    for key in ("bridge", "island_ring", "number"):
        assert colour(plain[key], True) == "0.000 G" and colour(plain[key], False) == "0.000 g"
    assert colour("#ffffff", False) == "1.000 g"
    assert colour(style.COLORS["bridge"], True).endswith(" RG")


def test_the_table_has_a_column_per_medium_and_says_what_each_size_is():
    table = style.table()
    assert set(table) == set(style.MEDIA) == {"screen", "print", "page", "overlay"}
    for name, row in style.TABLE.items():
        assert len(row) == len(style.MEDIA) + 1 and row[-1], name
        for medium, value in zip(style.MEDIA, row):
            assert table[medium][name] == value
            assert value is None or 0 < value < 1 or name == "frame_round" and value == 0


# -- the web page ---------------------------------------------------------------------------------------

def test_draw_js_takes_its_sizes_from_the_table():
    js = DRAW_JS.read_text()
    used = set(re.findall(r"SIZES\.(\w+)", js))
    page = style.table()["page"]
    assert used == {name for name, v in page.items() if v is not None}  # every size the page has, and no other
    assert not re.findall(r"(?<![\w.])\d*\.\d+", js), "a fraction written in draw.js instead of read from the table"
    assert "await style()" in js and 'import { style } from "./server.js";' in js
    assert 'fetch("api/style")' in (DRAW_JS.parent / "server.js").read_text()  # relative: behind a root path too


def test_the_api_serves_the_table_and_the_openapi_describes_it():
    pytest.importorskip("httpx", reason="httpx (for starlette's TestClient) is not installed")
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from hashikit.web.app import create_app

    with TestClient(create_app()) as client:
        r = client.get("/api/style")
        assert r.status_code == 200 and r.json() == style.table()
        spec = client.get("/api/openapi.json").json()
    ref = spec["paths"]["/api/style"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
    described = spec["components"]["schemas"][ref.rsplit("/", 1)[1]]
    assert set(described["properties"]) == set(style.MEDIA)
    medium = spec["components"]["schemas"]["MediumStyle"]["properties"]
    assert medium["island"]["description"] == "island radius" and set(medium) == set(style.TABLE)


# -- the overlay ------------------------------------------------------------------------------------------

def test_show_draws_what_was_read_over_the_picture():
    """A reading over its own picture: green rings where the islands are, red for an unsure one,
    the picture's pixels elsewhere untouched."""
    from PIL import Image

    from hashikit.formats.picture import Island, Reading
    from hashikit.service.overlay import reading_picture

    puzzle = Puzzle.from_grid(GRID)
    raw = render.png(puzzle, SOLUTION, cell=40)
    margin = (Image.open(io.BytesIO(raw)).width - 5 * 40) / 2
    islands = [Island(i.row, i.col, i.number, 0.3 if i.pos == (2, 2) else 0.99, 0, 0) for i in puzzle.islands]
    reading = Reading(puzzle, SOLUTION, islands, origin=(margin + 20, margin + 20), ex=(40.0, 0.0), ey=(0.0, 40.0),
                      raw=raw)
    shown = Image.open(io.BytesIO(reading_picture(reading))).convert("RGB")
    before = Image.open(io.BytesIO(raw)).convert("RGB")
    assert shown.size == before.size
    r = 40 * style.STYLES["overlay"].island

    def ring(row, col):
        x, y = margin + 20 + col * 40, margin + 20 + row * 40
        return [shown.getpixel((round(x + dx), round(y + dy))) for dx, dy in ((r, 0), (-r, 0), (0, r), (0, -r))]

    green = lambda p: p[1] > 120 and p[0] < 80 and p[2] < 100  # noqa: E731
    red = lambda p: p[0] > 180 and p[1] < 80 and p[2] < 80  # noqa: E731
    for isl in puzzle.islands:
        found = ring(*isl.pos)
        assert any(red(p) for p in found) if isl.pos == (2, 2) else any(green(p) for p in found), (isl.pos, found)
    assert shown.getpixel((2, 2)) == before.getpixel((2, 2))
