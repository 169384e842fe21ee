"""Tests of hashikit.render: SVG structure, PNG pixels, file writing."""

from __future__ import annotations

import io
import random
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from hashikit import render
from hashikit.checker import check
from hashikit.errors import FormatError, HashikitError
from hashikit.model import Island, Puzzle, Solution

SVG_NS = "{http://www.w3.org/2000/svg}"

# 3 = 4 - 1     (0,0)=(0,2) double, (0,2)-(0,4) single,
# |   |         (0,0)-(2,0), (0,2)-(2,2) and (2,0)-(2,2) single
# 2 - 2
GRID = [
    [3, 0, 4, 0, 1],
    [0, 0, 0, 0, 0],
    [2, 0, 2, 0, 0],
]
SOLUTION = {
    ((0, 0), (0, 2)): 2,
    ((0, 2), (0, 4)): 1,
    ((0, 0), (2, 0)): 1,
    ((2, 0), (2, 2)): 1,
    ((0, 2), (2, 2)): 1,
}


@pytest.fixture
def small():
    puzzle = Puzzle.from_grid(GRID)
    solution = Solution(SOLUTION)
    assert check(puzzle, solution).ok, str(check(puzzle, solution))
    return puzzle, solution


def parse(text: str) -> ET.Element:
    return ET.fromstring(text.encode("utf-8"))


def by_class(root: ET.Element, tag: str, cls: str) -> list[ET.Element]:
    return [e for e in root.iter(SVG_NS + tag) if cls in e.get("class", "").split()]


def random_board(rows: int, cols: int, seed: int, density: float = 0.3) -> tuple[Puzzle, Solution]:
    """A random board with bridges on random candidate links (not necessarily valid)."""
    rng = random.Random(seed)
    islands = [Island(r, c, rng.randint(1, 8)) for r in range(rows) for c in range(cols)
               if rng.random() < density]
    puzzle = Puzzle(rows, cols, islands)
    isl = puzzle.islands
    bridges = {(isl[ln.a].pos, isl[ln.b].pos): rng.randint(1, 2)
               for ln in puzzle.links if rng.random() < 0.4}
    return puzzle, Solution(bridges)


# -- SVG -----------------------------------------------------------------------------------

def test_svg_parses_and_counts(small):
    puzzle, solution = small
    root = parse(render.svg(puzzle, solution))
    assert root.tag == SVG_NS + "svg"
    assert root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}"
    circles = by_class(root, "circle", "island")
    assert len(circles) == len(puzzle.islands) == 5
    assert {(int(c.get("data-row")), int(c.get("data-col"))) for c in circles} == {
        isl.pos for isl in puzzle.islands}
    lines = by_class(root, "line", "bridge")
    assert len(lines) == 2 + 1 + 1 + 1 + 1
    per_key: dict[str, int] = {}
    for line in lines:
        per_key[line.get("data-bridge")] = per_key.get(line.get("data-bridge"), 0) + 1
    assert per_key == {"0,0-0,2": 2, "0,2-0,4": 1, "0,0-2,0": 1, "2,0-2,2": 1, "0,2-2,2": 1}
    # a double bridge's two lines are parallel to it and apart
    a, b = [ln for ln in lines if ln.get("data-bridge") == "0,0-0,2"]
    assert a.get("y1") == a.get("y2") and b.get("y1") == b.get("y2")
    assert abs(float(a.get("y1")) - float(b.get("y1"))) >= 3
    numbers = sorted(t.text for t in by_class(root, "text", "number"))
    assert numbers == sorted(str(isl.number) for isl in puzzle.islands)


def test_svg_islands_drawn_above_bridges(small):
    root = parse(render.svg(*small))
    groups = [g.get("id") for g in root.findall(SVG_NS + "g")]
    assert groups.index("bridges") < groups.index("islands")


def test_svg_puzzle_only_has_no_bridges(small):
    root = parse(render.svg(small[0]))
    assert not by_class(root, "line", "bridge")
    assert len(by_class(root, "circle", "island")) == 5


def test_svg_is_deterministic(small):
    puzzle, solution = small
    kw = dict(show_links=True, highlight=[(0, 0), ((0, 2), (0, 0))], title="t")
    assert render.svg(puzzle, solution, **kw) == render.svg(puzzle, Solution(dict(reversed(
        list(SOLUTION.items())))), **kw)


def test_svg_title_escaped(small):
    text = render.svg(*small, title='<b> & "quotes" </script>')
    root = parse(text)
    assert root.find(SVG_NS + "title").text == '<b> & "quotes" </script>'
    assert "<b>" not in text


def test_highlight_island_changes_colour(small):
    puzzle, solution = small
    plain = {(c.get("data-row"), c.get("data-col")): c.get("fill")
             for c in by_class(parse(render.svg(puzzle, solution)), "circle", "island")}
    root = parse(render.svg(puzzle, solution, highlight=[(0, 2)]))
    hl = {(c.get("data-row"), c.get("data-col")): c.get("fill") for c in by_class(root, "circle", "island")}
    assert hl[("0", "2")] != plain[("0", "2")]
    assert hl[("0", "2")] == render.COLORS["accent"]
    assert {k: v for k, v in hl.items() if k != ("0", "2")} == {
        k: v for k, v in plain.items() if k != ("0", "2")}


def test_highlight_bridge(small):
    puzzle, solution = small
    root = parse(render.svg(puzzle, solution, highlight=[((0, 2), (0, 0))]))  # either order
    lines = by_class(root, "line", "bridge")
    colours = {ln.get("data-bridge"): ln.get("stroke") for ln in lines}
    assert colours["0,0-0,2"] == render.COLORS["accent"]
    assert colours["0,2-0,4"] == render.COLORS["bridge"]
    assert len(by_class(root, "line", "hl")) == 2


def test_highlight_missing_bridge_is_suggested(small):
    puzzle, _ = small
    root = parse(render.svg(puzzle, highlight=[((0, 2), (0, 4))]))
    (line,) = by_class(root, "line", "bridge")
    assert "suggested" in line.get("class") and line.get("stroke-dasharray")


def test_highlight_rejects_garbage(small):
    with pytest.raises(ValueError):
        render.svg(small[0], highlight=[(1, 2, 3)])
    with pytest.raises(ValueError):
        render.svg(small[0], highlight=["ab"])


def test_show_links(small):
    puzzle, solution = small
    root = parse(render.svg(puzzle, show_links=True))
    links = by_class(root, "line", "link")
    assert len(links) == len(puzzle.links)
    assert all(ln.get("stroke-dasharray") for ln in links)
    # links under bridges are not drawn twice
    with_solution = by_class(parse(render.svg(puzzle, solution, show_links=True)), "line", "link")
    assert len(with_solution) == len(puzzle.links) - len(solution.bridges)


def test_more_than_two_bridges():
    puzzle = Puzzle.from_grid([[3, 0, 12, 0, 4], [0, 0, 0, 0, 0], [0, 0, 5, 0, 0]], maxbridges=6)
    solution = Solution({((0, 0), (0, 2)): 3, ((0, 2), (0, 4)): 4, ((0, 2), (2, 2)): 5})
    assert check(puzzle, solution).ok
    root = parse(render.svg(puzzle, solution))
    per_key: dict[str, int] = {}
    for line in by_class(root, "line", "bridge"):
        per_key[line.get("data-bridge")] = per_key.get(line.get("data-bridge"), 0) + 1
    assert per_key == {"0,0-0,2": 3, "0,2-0,4": 4, "0,2-2,2": 4}
    labels = [t.text for t in by_class(root, "text", "count")]
    assert labels == ["5"]
    numbers = sorted(t.text for t in by_class(root, "text", "number"))
    assert numbers == ["12", "3", "4", "5"]


def test_big_numbers_fit_their_circle():
    puzzle = Puzzle.from_grid([[16, 0, 24]], maxbridges=8)
    root = parse(render.svg(puzzle, cell=40))
    (circle, _), texts = by_class(root, "circle", "island"), by_class(root, "text", "number")
    r = float(circle.get("r"))
    for t in texts:
        # bold digits are at most ~0.7 em wide
        assert 0.7 * float(t.get("font-size")) * len(t.text) < 2 * r


def test_ignored_islands_drawn_faintly():
    puzzle = Puzzle(3, 3, [(0, 0, 1), (0, 2, 1), (2, 2, 2)], ignore=[(2, 2)])
    root = parse(render.svg(puzzle))
    assert len(by_class(root, "circle", "island")) == 3
    (ignored,) = by_class(root, "circle", "ignored")
    assert ignored.get("stroke") == render.COLORS["ignored"]


def test_sizes_small_and_huge():
    p3 = Puzzle.from_grid([[1, 0, 1], [0, 0, 0], [0, 0, 0]])
    root = parse(render.svg(p3))
    w, h = int(root.get("width")), int(root.get("height"))
    assert 100 <= w <= 200 and w == h  # 40 px cells
    puzzle, solution = random_board(100, 100, seed=7)
    text = render.svg(puzzle, solution)
    root = parse(text)
    w, h = int(root.get("width")), int(root.get("height"))
    assert 1000 <= w <= 1500 and 1000 <= h <= 1500
    assert len(by_class(root, "circle", "island")) == len(puzzle.islands)
    sizes = {float(t.get("font-size")) for t in by_class(root, "text", "number")}
    assert min(sizes) >= 6


def test_auto_cell():
    assert render.auto_cell(3, 3) == 40
    assert render.auto_cell(7, 7) == 40
    assert 25 <= render.auto_cell(30, 30) <= 35
    assert render.auto_cell(100, 100) == 12
    assert render.auto_cell(1000, 5) == 12
    assert render.auto_cell(5, 60) < 40


def test_cell_option(small):
    root = parse(render.svg(small[0], cell=20))
    first, second = by_class(root, "circle", "island")[:2]  # (0,0) and (0,2)
    assert float(second.get("cx")) - float(first.get("cx")) == 40
    cx = float(first.get("cx"))  # margin + cell / 2
    assert int(root.get("width")) == round(5 * 20 + 2 * (cx - 10))
    assert int(root.get("height")) == round(3 * 20 + 2 * (cx - 10))
    for bad in (0, -3, 2.5, True, "20"):
        with pytest.raises(ValueError):
            render.svg(small[0], cell=bad)


def test_rejects_wrong_types(small):
    with pytest.raises(TypeError):
        render.svg(GRID)
    with pytest.raises(TypeError):
        render.svg(small[0], SOLUTION)


def test_import_is_cheap():
    code = "import sys, hashikit.render; print('PIL' in sys.modules or 'resvg_py' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# -- PNG -----------------------------------------------------------------------------------

def open_png(data: bytes):
    from PIL import Image
    return Image.open(io.BytesIO(data)).convert("RGB")


def _hex(rgb) -> str:
    return "#%02x%02x%02x" % rgb


def test_png_signature_size_and_pixels(small):
    puzzle, solution = small
    data = render.png(puzzle, solution)
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    root = parse(render.svg(puzzle, solution))
    img = open_png(data)
    assert img.size == (int(root.get("width")), int(root.get("height")))
    # background in a corner; the island ring, not the background, around an island centre
    assert _hex(img.getpixel((0, 0))) == render.COLORS["background"]
    circle = by_class(root, "circle", "island")[0]
    cx, cy, r = float(circle.get("cx")), float(circle.get("cy")), float(circle.get("r"))
    ring = img.getpixel((int(cx + r), int(cy)))
    assert ring != img.getpixel((0, 0))
    assert sum(ring) < 3 * 128  # dark ring
    # the number's ink near the centre
    box = img.crop((int(cx - r / 2), int(cy - r / 2), int(cx + r / 2), int(cy + r / 2)))
    assert box.convert("L").getextrema()[0] < 100
    # a bridge pixel midway along the single bridge (0,2)-(0,4)
    x = (float(by_class(root, "circle", "island")[1].get("cx"))
         + float(by_class(root, "circle", "island")[2].get("cx"))) / 2
    bridge = [ln for ln in by_class(root, "line", "bridge") if ln.get("data-bridge") == "0,2-0,4"][0]
    assert _hex(img.getpixel((int(x), int(float(bridge.get("y1")))))) == render.COLORS["bridge"]


def test_png_highlight_colours_island(small):
    puzzle, solution = small
    root = parse(render.svg(puzzle, solution))
    circle = [c for c in by_class(root, "circle", "island") if c.get("data-col") == "2"
              and c.get("data-row") == "0"][0]
    cx, cy, r = float(circle.get("cx")), float(circle.get("cy")), float(circle.get("r"))
    px = (int(cx - r * 0.7), int(cy))  # inside the disc, clear of the number
    plain = open_png(render.png(puzzle, solution)).getpixel(px)
    hl = open_png(render.png(puzzle, solution, highlight=[(0, 2)])).getpixel(px)
    assert _hex(plain) == render.COLORS["island_fill"]
    assert _hex(hl) == render.COLORS["accent"]


def test_png_deterministic_and_cell(small):
    puzzle, solution = small
    assert render.png(puzzle, solution) == render.png(puzzle, solution)
    img = open_png(render.png(puzzle, solution, cell=20))
    root = parse(render.svg(puzzle, solution, cell=20))
    assert img.size == (int(root.get("width")), int(root.get("height")))


def test_png_huge_board():
    puzzle, solution = random_board(100, 100, seed=3)
    img = open_png(render.png(puzzle, solution))
    assert 1000 <= img.width <= 1500 and img.width == img.height


def test_png_is_the_svg_rasterised(small):
    """One drawing path: the PNG is the SVG drawn by resvg, pixel for pixel."""
    import resvg_py

    puzzle, solution = small
    for kw in ({}, {"highlight": [(0, 2), ((0, 2), (0, 4))]}, {"show_links": True, "cell": 24}):
        direct = bytes(resvg_py.svg_to_bytes(svg_string=render.svg(puzzle, solution, **kw),
                                             background=render.COLORS["background"]))
        assert open_png(render.png(puzzle, solution, **kw)).tobytes() == open_png(direct).tobytes()


def test_png_size_cap(small):
    puzzle = random_board(100, 100, seed=1)[0]
    with pytest.raises(HashikitError, match="too large for PNG"):
        render.png(puzzle, cell=400)


@pytest.mark.parametrize("bad", [((0, 0), (0, 10 ** 400)), ((0, 0), (-1, 0)), ((0, 0), (30_000_000, 0))])
def test_bridges_off_the_board_are_refused(small, bad):
    puzzle, _ = small
    for draw in (render.svg, render.png):
        with pytest.raises(FormatError, match="outside"):
            draw(puzzle, Solution({bad: 1}))
        with pytest.raises(FormatError, match="outside"):
            draw(puzzle, highlight=[bad])


def test_absurd_counts_are_refused_and_large_ones_labelled(small):
    puzzle, _ = small
    p, q = puzzle.islands[0].pos, puzzle.islands[1].pos
    with pytest.raises(FormatError, match="count"):
        render.svg(puzzle, Solution({(p, q): 2 ** 63}))
    out = render.svg(puzzle, Solution({(p, q): 7}))
    assert out.count('data-bridge="%d,%d-%d,%d"' % (*p, *q)) == render.MAX_LINES and ">7</text>" in out


def test_write_to_a_missing_folder_is_a_clear_error(small, tmp_path):
    puzzle, solution = small
    with pytest.raises(FormatError, match="cannot write"):
        render.write(tmp_path / "nope" / "x.png", puzzle, solution)
    (tmp_path / "d.svg").mkdir()
    with pytest.raises(FormatError, match="cannot write"):
        render.write(tmp_path / "d.svg", puzzle)


# -- write -------------------------------------------------------------------------------

def test_write_by_extension(small, tmp_path):
    puzzle, solution = small
    render.write(tmp_path / "a.svg", puzzle, solution, title="x")
    render.write(str(tmp_path / "b.PNG"), puzzle, solution, title="ignored for png")
    parse((tmp_path / "a.svg").read_text(encoding="utf-8"))
    assert (tmp_path / "b.PNG").read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    with pytest.raises(FormatError, match="svg or .png"):
        render.write(tmp_path / "c.jpg", puzzle, solution)
    with pytest.raises(FormatError):
        render.write(tmp_path / "noext", puzzle)
    assert not (tmp_path / "c.jpg").exists()
