"""Reading a picture on the web page (issue 17): POST /api/read-picture (the same reading as the
command line, its limits, 400 for no board) and, in Chromium, the "Bring a puzzle" card's picture
block: open a file, take a photo (the camera input), paste; the reading drawn over the picture;
a number corrected by tapping its island; then played with the bridges drawn in the picture."""

from __future__ import annotations

import base64
import io
import random
import re

import pytest

pytest.importorskip("cv2", reason='OpenCV is not installed (pip install ".[photo]")')

from PIL import Image  # noqa: E402

from hashikit import render  # noqa: E402
from hashikit.service import load  # noqa: E402
from hashikit.generate import random_solution  # noqa: E402
from hashikit.model import Solution  # noqa: E402

from test_web_e2e import browser, open_page, server  # noqa: E402,F401  (the page's fixtures)


def game_png(seed=21, cell=32):
    pz, sol = random_solution(8, 8, random.Random(seed))
    part = Solution(dict(list(sol.bridges.items())[::3]))
    return render.png(pz, part, cell=cell), pz, part


@pytest.fixture(scope="module")
def client():
    from starlette.testclient import TestClient

    from hashikit.web.app import create_app

    with TestClient(create_app(pool_size=0)) as c:
        yield c


def test_api_reads_what_the_command_line_reads(client, tmp_path):
    data, _, _ = game_png()
    path = tmp_path / "shot.png"
    path.write_bytes(data)
    doc = load(str(path))  # the command line's reading, settled by the rules
    answer = client.post("/api/read-picture", json={"image": base64.b64encode(data).decode()})
    assert answer.status_code == 200, answer.text
    got = answer.json()
    assert sorted(map(tuple, got["puzzle"]["islands"])) == sorted((i.row, i.col, i.number) for i in doc.puzzle.islands)
    assert sorted(map(tuple, got["bridges"])) == sorted(map(tuple, doc.solution.to_list()))
    assert len(got["links"]) == len(doc.puzzle.links) and got["width"] == Image.open(path).size[0]
    assert got["corrections"] == [] and len(got["homography"]) == 3
    data_url = "data:image/png;base64," + base64.b64encode(data).decode()
    assert client.post("/api/read-picture", json={"image": data_url}).json()["bridges"] == got["bridges"]


@pytest.mark.parametrize("image, says", [
    (base64.b64encode(b"\x89PNG\r\n\x1a\n" + b"\0" * 30).decode(), "picture"),
    ("!!not base64!!", "not base64"),
    ("", "empty"),
])
def test_api_refuses_bad_pictures_with_400(client, image, says):
    answer = client.post("/api/read-picture", json={"image": image})
    assert answer.status_code == 400 and says in answer.json()["error"]


def test_api_no_board_is_400_and_the_body_cap_413(client):
    buf = io.BytesIO()
    Image.new("RGB", (300, 200), "white").save(buf, "PNG")
    answer = client.post("/api/read-picture", json={"image": base64.b64encode(buf.getvalue()).decode()})
    assert answer.status_code == 400 and "no Hashi board" in answer.json()["error"]
    big = "A" * 1_100_000
    assert client.post("/api/read-picture", json={"image": big}).status_code == 413
    assert "/api/read-picture" in client.get("/api/openapi.json").json()["paths"]


# -- the page ------------------------------------------------------------------------------------

def _read_on_page(page, data, where="#picture-file"):
    page.set_input_files(where, files=[{"name": "shot.png", "mimeType": "image/png", "buffer": data}])
    page.wait_for_selector("#picture-view:not([hidden]) .picture-island", timeout=20000)


def test_page_reads_a_picture_corrects_a_number_and_plays_it(browser, server):
    data, pz, part = game_png()
    page, errors = open_page(browser, server)
    _read_on_page(page, data)
    islands = page.locator("#picture-overlay .picture-island")
    assert islands.count() == len(pz.islands)
    first = islands.nth(0)
    read_as = first.locator("text").text_content()
    new = "7" if read_as != "7" else "6"
    first.click()
    assert not page.locator("#picture-fix").is_hidden()
    page.click(f"#picture-digits button[data-n='{new}']")
    assert page.locator("#picture-overlay .picture-island").nth(0).locator("text").text_content() == new
    page.click("#picture-play")
    page.wait_for_function("document.querySelector('#picture-view').hidden")
    page.wait_for_selector("#board .island")
    assert page.locator("#board .island").count() == len(pz.islands)
    assert page.locator("#board .bridge").count() >= len(part.bridges)
    # the corrected island is on the board with its new number
    numbers = page.eval_on_selector_all("#board text", "ts => ts.map(t => t.textContent)")
    assert new in numbers
    # the page says where the board came from, or (a correction can make the puzzle impossible)
    # that the corrected puzzle has no solution: the player's honest state wins over the source
    status = page.locator("#status").text_content()
    assert "picture" in status or status.startswith("This puzzle has no solution"), status
    assert not [e for e in errors if "400" not in e], errors


def test_camera_input_and_paste(browser, server):
    data, pz, _ = game_png(seed=5)
    page, errors = open_page(browser, server, width=390, height=844, is_mobile=True, has_touch=True)
    camera = page.locator("#picture-camera")
    assert camera.get_attribute("capture") is not None and camera.get_attribute("accept") == "image/*"
    _read_on_page(page, data, "#picture-camera")
    assert page.locator("#picture-overlay .picture-island").count() == len(pz.islands)
    page.click("#picture-discard")
    assert page.locator("#picture-view").is_hidden()
    b64 = base64.b64encode(data).decode()
    page.evaluate("""(b64) => {
        const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        const dt = new DataTransfer();
        dt.items.add(new File([bytes], "pasted.png", { type: "image/png" }));
        document.dispatchEvent(new ClipboardEvent("paste", { clipboardData: dt, bubbles: true }));
    }""", b64)
    page.wait_for_selector("#picture-view:not([hidden]) .picture-island", timeout=20000)
    assert page.locator("#picture-overlay .picture-island").count() == len(pz.islands)
    assert not errors, errors


def test_page_says_when_a_picture_has_no_board(browser, server):
    buf = io.BytesIO()
    Image.new("RGB", (300, 200), "white").save(buf, "PNG")
    page, errors = open_page(browser, server)
    page.set_input_files("#picture-file", files=[{"name": "blank.png", "mimeType": "image/png",
                                                  "buffer": buf.getvalue()}])
    page.wait_for_function("document.querySelector('#status').textContent.includes('no Hashi board')",
                           timeout=20000)
    assert page.locator("#picture-view").is_hidden()
    assert all("400" in e or "Bad Request" in e for e in errors), errors  # the 400 itself, logged by Chromium


# -- what the rules corrected, shown and undone on the page ------------------------------------------

@pytest.fixture
def misreading(monkeypatch):
    """A Tatham puzzle's picture, its reader made to misread one 1 as 4 (unsure, 1 the runner-up), and
    a server started after that (the reading runs in processes forked from this one)."""
    from hashikit.formats import picture, read_text
    from hashikit.web.app import create_app

    from test_web_e2e import serve

    puzzle = read_text("10x10m2:c2e34a4a4c4h1l3d2a4j2a3a3a6b7a6k1a2f3c6b6a4", "tatham").puzzle
    k = next(i for i, isl in enumerate(puzzle.islands) if isl.number == 1)
    import picture_world

    monkeypatch.setattr(picture, "read_picture", picture_world.misreading(picture.read_picture, k))
    gen = serve(create_app(allowed_hosts=["127.0.0.1", "localhost"], pool_size=0))
    url = next(gen)
    yield url, render.png(puzzle, None, cell=40), puzzle, puzzle.islands[k]
    next(gen, None)


def test_page_shows_the_rules_corrections_and_undoes_them_by_touch(browser, misreading):
    from playwright.sync_api import expect  # the browser fixture has made sure it is there
    url, data, puzzle, isl = misreading
    page, errors = open_page(browser, url, width=390, height=844, is_mobile=True, has_touch=True)
    _read_on_page(page, data)
    r0, c0 = min(i.row for i in puzzle.islands), min(i.col for i in puzzle.islands)
    r, c = isl.row - r0, isl.col - c0
    where = f"row {r + 1}, column {c + 1}"
    fixed = page.locator(f'#picture-overlay .picture-island[data-row="{r}"][data-col="{c}"]')
    assert "corrected" in fixed.get_attribute("class") and fixed.locator("text").text_content() == "1"
    item = page.locator("#picture-corrections li")
    assert item.count() == 1
    assert item.locator("span").text_content() == (f"Corrected by the rules: {where} read as 4; as 1 the puzzle has "
                                                   f"exactly one solution.")
    def tap(locator):  # a finger on the screen: touch events through the DevTools protocol
        locator.scroll_into_view_if_needed()
        b = locator.bounding_box()
        page.touchscreen.tap(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2)

    # the browser makes the click of a tap after the touch ends, on its own time: wait for what it does
    tap(item.locator("button"))
    expect(item.locator("button")).to_have_text("Redo")
    expect(item).to_have_class("undone")
    expect(fixed.locator("text")).to_have_text("4")
    expect(fixed).not_to_have_class(re.compile(r"\bcorrected\b"))
    tap(item.locator("button"))
    expect(item.locator("button")).to_have_text("Undo")
    expect(fixed.locator("text")).to_have_text("1")
    tap(page.locator("#picture-play"))
    page.wait_for_function("document.querySelector('#picture-view').hidden")  # the board read is on the page
    page.wait_for_function(f"document.querySelectorAll('#board .island').length === {len(puzzle.islands)}")
    numbers = page.eval_on_selector_all("#board .island", "gs => gs.map(g => [+g.dataset.r, +g.dataset.c, "
                                                          "g.querySelector('text').textContent])")
    assert [r, c, "1"] in numbers, (r, c, sorted(numbers))
    assert not [e for e in errors if "400" not in e], errors
