"""The web page end to end: uvicorn on a free localhost port, Debian's Chromium driven by Playwright.

Skips (saying why) where Chromium (/usr/bin/chromium, or $HASHIKIT_CHROMIUM) or the
playwright package is missing; never downloads a browser.  Screenshots go to
$HASHIKIT_E2E_ARTIFACTS when set, else to pytest's tmp_path (the committed ones in docs/ are
made by docs/make_screenshots.py).  axe-core is vendored as
tests/data/axe.min.js (axe-core 4.14.1 from the npm registry, MPL-2.0), injected into the page.
"""

from __future__ import annotations

import base64
import json
import os
import re
import socket
import threading
import time
from pathlib import Path
from urllib.parse import urljoin

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
uvicorn = pytest.importorskip("uvicorn", reason="the web extra (uvicorn) is not installed")

CHROMIUM = os.environ.get("HASHIKIT_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
PUZZLE = "7x7m2:4d2b1b4a26b3m1c3c3c2d3"  # unique, 11 bridges (a Tatham game ID)
AXE = Path(__file__).with_name("data") / "axe.min.js"


def serve(app):
    """Run ``app`` with uvicorn in a thread on a free localhost port; yields its address."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    for _ in range(200):
        if srv.started:
            break
        time.sleep(0.05)
    else:
        pytest.fail("uvicorn did not start within 10 s")
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(10)
    sock.close()


@pytest.fixture(scope="module")
def server():
    from hashikit.web.app import create_app

    yield from serve(create_app(allowed_hosts=["127.0.0.1", "localhost"]))


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.skip(f"Chromium not found at {CHROMIUM}: install it (apt-get install chromium) "
                    f"or set HASHIKIT_CHROMIUM to run the browser test")
    sync_api = pytest.importorskip("playwright.sync_api",
                                   reason="the playwright package is not installed (pip install playwright)")
    pw = sync_api.sync_playwright().start()
    try:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
    except Exception as exc:  # a browser that cannot start here is the machine's problem, not the page's
        pw.stop()
        pytest.skip(f"Chromium at {CHROMIUM} did not start under Playwright: {str(exc).splitlines()[0]}")
    yield b
    b.close()
    pw.stop()


@pytest.fixture
def artifacts(tmp_path) -> Path:
    folder = Path(os.environ.get("HASHIKIT_E2E_ARTIFACTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def island(page, r, c):
    return page.locator(f'#board .island[data-r="{r}"][data-c="{c}"]')


def tool(page, name):
    """The toolbar's button or toggle ``name``, the More menu opened first when the tool is folded
    into it (the toolbar keeps one row on every screen)."""
    if page.locator(f"#menu #{name}").count() and page.is_hidden("#menu"):
        page.click("#menu-button")
    return page.locator(f"#{name}")


def json_link(puzzle: dict) -> str:
    return "j=" + base64.urlsafe_b64encode(json.dumps(puzzle).encode()).decode().rstrip("=")


def open_page(browser, server, fragment=f"p={PUZZLE}", width=900, height=820, scheme="light", **context):
    """A fresh browser context (its own localStorage) on the page; console errors are collected."""
    # bypass_csp: the page's own CSP (script-src 'self') would refuse the test's injected axe-core and
    # Playwright's polling; the page itself needs no exception (test_page_runs_under_its_csp)
    ctx = browser.new_context(viewport={"width": width, "height": height}, color_scheme=scheme,
                              bypass_csp=context.pop("bypass_csp", True), **context)
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(f"{server}/#{fragment}" if fragment else f"{server}/")
    page.wait_for_selector("body[data-ready=true]", timeout=15000)
    page.wait_for_selector("#board .island", timeout=15000)
    return page, errors


def open_puzzle(browser, server, width=900, height=820, **kw):
    return open_page(browser, server, width=width, height=height, **kw)


def puzzle_and_solution(text=PUZZLE, fmt="tatham"):
    from hashikit.checker import check
    from hashikit.formats import read_text
    from hashikit.solvers import solve

    puzzle = read_text(text, fmt).puzzle
    result = solve(puzzle, max_solutions=2)
    assert result.unique is True
    assert check(puzzle, result.solution).ok
    return puzzle, result.solution


def solution():
    return puzzle_and_solution()[1].to_list()


def link_cells(puzzle, k):
    link = puzzle.links[k]
    return (*puzzle.islands[link.a].pos, *puzzle.islands[link.b].pos)


def status(page):
    return page.locator("#status").inner_text()


def mark(page, k):
    """Right-click the middle of link k (the page's k-th link, as the library numbers them)."""
    ends = page.eval_on_selector(f'#board .hit[data-link="{k}"]',
                                 "l => [l.x1.baseVal.value, l.y1.baseVal.value, l.x2.baseVal.value, l.y2.baseVal.value]")
    box, cell = page.locator("#board").bounding_box(), float(page.get_attribute("#board", "data-cell"))
    x, y = (ends[0] + ends[2]) / 2 / 40 * cell, (ends[1] + ends[3]) / 2 / 40 * cell
    page.mouse.click(box["x"] + x, box["y"] + y, button="right")


def blank_board(page, rows, cols):
    """The constructor on a new blank board of rows x cols: its box and cell size on screen."""
    tool(page, "mode").click()
    page.fill("#blank-rows", str(rows))
    page.fill("#blank-cols", str(cols))
    page.click("#blank")
    box = page.locator("#board").bounding_box()
    return box, box["width"] / cols


def lay(page, r1, c1, r2, c2):
    island(page, r1, c1).click()
    island(page, r2, c2).click()


def play_solution(page):
    """Lay the example's solution by clicks and wait for the solved banner."""
    for r1, c1, r2, c2, k in solution():
        for _ in range(k):
            lay(page, r1, c1, r2, c2)
    page.wait_for_selector("#banner:not([hidden])", timeout=10000)


# ------------------------------------------------------------------ playing
def test_play_the_whole_solution_by_clicks(browser, server, artifacts):
    page, errors = open_puzzle(browser, server)
    assert page.locator("#board .island").count() == 12
    play_solution(page)
    assert "Solved" in page.locator("#banner").inner_text()
    assert page.locator("#board .island.full").count() == 12
    assert "b=" in page.url  # the progress rides in the link
    best = page.evaluate("JSON.parse(localStorage.getItem('hashikit:best'))")
    assert list(best) == ["7x7 custom m2"] and best["7x7 custom m2"] >= 0
    assert "Best time" in page.locator("#best").inner_text()
    page.mouse.move(0, 0)  # no hover highlight in the picture
    page.wait_for_timeout(700)  # the solved animation is over
    shot = artifacts / "screenshot-solved.png"
    page.screenshot(path=str(shot))
    assert shot.stat().st_size > 5000
    assert errors == []


def test_hint_on_a_fresh_board_applies_its_step(browser, server):
    page, errors = open_puzzle(browser, server)
    for _ in range(3):  # look here, the reason, do it (tests/test_web_phone.py follows each step)
        tool(page, "hint").click()
        page.wait_for_selector(".status.hinted", timeout=10000)
    text = status(page)
    assert text.startswith("Hint") and ("needs" in text or "bridge" in text)
    assert page.locator("#board .island.hint").count() >= 1
    # the step is laid on the board as one move, and Undo takes it back
    laid = page.locator("#board .bridge").count() + page.locator("#board .mark").count()
    assert laid >= 1
    tool(page, "undo").click()
    assert page.locator("#board .bridge").count() + page.locator("#board .mark").count() == 0
    assert errors == []


REAL = Path(__file__).resolve().parents[1].parent / "shared" / "puzzles" / "real" / "nikoli" / "hashi_puzzles.jsonl"


def _real_puzzles(count=2, side=9):
    """A few small unique published puzzles (Nikoli), as page links; none when ../shared is absent."""
    if not REAL.exists():
        return []
    out = []
    for line in REAL.read_text(encoding="utf-8").splitlines():
        d = json.loads(line)
        if d.get("unique") and d["width"] <= side and d["height"] <= side and d.get("maxb", 2) == 2:
            islands = [[r, c, n] for r, row in enumerate(d["grid"]) for c, n in enumerate(row) if n]
            out.append(json_link({"rows": d["height"], "cols": d["width"], "maxbridges": 2, "islands": islands}))
        if len(out) == count:
            break
    return out


@pytest.mark.slow
@pytest.mark.parametrize("fragment", [f"p={PUZZLE}", *_real_puzzles()] if _real_puzzles() else
                         [f"p={PUZZLE}", pytest.param("", marks=pytest.mark.skip(
                             reason=f"published puzzles not found at {REAL} (../shared)"))])
def test_pressing_hint_repeatedly_solves_the_puzzle(browser, server, fragment):
    page, errors = open_page(browser, server, fragment=fragment)
    seen = []
    for _ in range(360):  # three presses a step: look here, the reason, do it
        if not page.locator("#banner").is_hidden():
            break
        page.keyboard.press("h")  # the Hint shortcut
        page.wait_for_function("!document.getElementById('hint').disabled", timeout=15000)
        seen.append(status(page))
        if len(seen) >= 3 and seen[-1] == seen[-2] == seen[-3]:
            break                 # the same step three times: stuck
    if page.locator("#banner").is_hidden():
        if not _hint_takes_marks(server):
            pytest.xfail("this server's /api/hint does not read \"marks\" yet (the contract issue): a hint that "
                         "only rules a bridge out comes back forever, as issue 11 describes")
        pytest.fail(f"Hint is stuck on a step the board cannot record: {status(page)!r}")
    page.wait_for_selector("#banner:not([hidden])", timeout=10000)
    assert "Solved" in page.locator("#banner").inner_text()
    assert errors == []


def _hint_takes_marks(server) -> bool:
    import httpx

    doc = httpx.get(f"{server}/api/openapi.json").json()
    schema = doc["paths"]["/api/hint"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    if "$ref" in schema:
        schema = doc["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    return "marks" in schema.get("properties", {})


def test_refused_move_undo_and_keyboard(browser, server):
    page, errors = open_puzzle(browser, server)
    # the 1 at row 2, column 2 takes one bridge; a second one is refused with the reason
    lay(page, 1, 1, 1, 4)
    assert page.locator("#board .bridge").count() == 1
    lay(page, 1, 1, 6, 1)
    assert "more than its number" in status(page)
    assert page.locator("#board .bridge").count() == 1
    tool(page, "undo").click()
    assert page.locator("#board .bridge").count() == 0
    tool(page, "redo").click()
    assert page.locator("#board .bridge").count() == 1
    # keyboard: focus the 4 at the top left, pick it, lay a bridge to the right
    island(page, 0, 0).focus()
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowRight")
    assert page.locator("#board .bridge").count() == 2
    page.keyboard.press("Escape")
    page.keyboard.press("ArrowDown")  # moves the focus to the 6 below
    assert page.evaluate("document.activeElement.dataset.r") == "2"
    assert errors == []


def test_error_marking_toggle(browser, server):
    page, errors = open_puzzle(browser, server)
    # 1 (row 2, col 2) to 2 (row 7, col 2), and 4 (row 2, col 5) to 2 (row 2, col 7): the 3 at the
    # bottom right can then reach only two more bridges, fewer than its number
    lay(page, 1, 1, 6, 1)
    lay(page, 1, 4, 1, 6)
    assert page.locator('#board .island.err[data-r="6"][data-c="6"]').count() == 1
    tool(page, "errors").uncheck()
    assert page.locator("#board .island.err").count() == 0
    assert "off" in status(page)
    page.keyboard.press("e")  # the shortcut turns it back on
    assert page.locator('#board .island.err[data-r="6"][data-c="6"]').count() == 1
    assert errors == []


def test_marks_locks_possible_bridges_and_groups(browser, server, artifacts):
    page, errors = open_puzzle(browser, server)
    # right-click the link between the 4 (row 1, col 1) and the 2 (row 1, col 6): a "no bridge" mark
    mark(page, 0)
    assert page.locator("#board .mark").count() == 1
    lay(page, 0, 0, 0, 5)
    assert "marked" in status(page) and page.locator("#board .bridge").count() == 0
    # right-drag from the 4 down to the 6: a second mark
    box0, box1 = island(page, 0, 0).bounding_box(), island(page, 2, 0).bounding_box()
    page.mouse.move(box0["x"] + box0["width"] / 2, box0["y"] + box0["height"] / 2)
    page.mouse.down(button="right")
    page.mouse.move(box1["x"] + box1["width"] / 2, box1["y"] + box1["height"] / 2, steps=4)
    page.mouse.up(button="right")
    assert page.locator("#board .mark").count() == 2
    # Shift+arrow marks from the keyboard; Undo removes the marks one by one
    island(page, 1, 4).focus()
    page.keyboard.press("Shift+ArrowRight")
    assert page.locator("#board .mark").count() == 3
    page.keyboard.press("Control+z")
    assert page.locator("#board .mark").count() == 2
    # lock: Shift+click, then the island's links refuse moves; L unlocks
    island(page, 6, 6).click(modifiers=["Shift"])
    assert page.locator('#board .island.locked[data-r="6"][data-c="6"]').count() == 1
    lay(page, 1, 6, 6, 6)
    assert "locked" in status(page) and page.locator("#board .bridge").count() == 0
    island(page, 6, 6).focus()
    page.keyboard.press("l")
    assert page.locator("#board .island.locked").count() == 0
    # possible bridges (G): every link that can still take a bridge, not the marked ones
    page.keyboard.press("g")
    assert page.is_checked("#possible")
    puzzle, _ = puzzle_and_solution()
    assert page.locator("#board .possible").count() == len(puzzle.links) - 2
    # group colours (O): two groups of bridges get two different colours
    lay(page, 1, 1, 1, 4)
    lay(page, 5, 0, 2, 0)
    page.keyboard.press("o")
    colours = page.eval_on_selector_all("#board .bridge", "ls => ls.map(l => getComputedStyle(l).stroke)")
    assert len(colours) == 2 and colours[0] != colours[1]
    page.mouse.move(0, 0)
    page.screenshot(path=str(artifacts / "screenshot-marks.png"))
    assert errors == []


def test_check_highlights_mistakes_without_giving_counts(browser, server):
    page, errors = open_puzzle(browser, server)
    puzzle, sol = puzzle_and_solution()
    counts = sol.counts(puzzle)
    # a link the solution leaves empty, laid as a bridge (no rule is broken by one bridge on it)
    wrong = next(k for k, n in enumerate(counts) if n == 0 and puzzle.link_capacity(k) >= 1)
    r1, c1, r2, c2 = link_cells(puzzle, wrong)
    lay(page, r1, c1, r2, c2)
    # and a "no bridge" mark on a link the solution uses
    used = next(k for k, n in enumerate(counts) if n > 0 and not puzzle.crossing_partners[k]
                and not ({puzzle.links[k].a, puzzle.links[k].b}
                                                                   & {puzzle.links[wrong].a, puzzle.links[wrong].b}))
    mark(page, used)
    assert page.locator("#board .mark").count() == 1
    page.keyboard.press("c")
    page.wait_for_selector(".status.error", timeout=10000)
    text = status(page)
    assert "do not belong" in text
    assert page.locator("#board .bridge.wrong").count() == 1
    assert page.locator("#board .mark.wrong").count() == 1
    assert not re.search(r"has \d|\(\d\)", text)  # no count of the solution's bridges
    assert page.locator("#status button", has_text="Reveal").is_visible()   # the button the message names
    # Reveal shows the solution, checked by the rules
    page.keyboard.press("r")
    page.wait_for_selector("#banner:not([hidden])", timeout=10000)
    assert "computer" in page.locator("#banner").inner_text()
    assert errors == []


def test_every_button_has_a_shortcut(browser, server):
    page, errors = open_puzzle(browser, server)
    buttons = page.eval_on_selector_all(".toolbar button, .toolbar input, #theme, #generate",
                                        "bs => bs.map(b => [b.id, b.getAttribute('aria-keyshortcuts')])")
    assert buttons and all(keys for _, keys in buttons), buttons
    page.keyboard.press("d")
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    page.keyboard.press("d")
    assert page.evaluate("document.documentElement.dataset.theme") == "light"
    cell = float(page.get_attribute("#board", "data-cell"))
    page.keyboard.press("+")
    assert float(page.get_attribute("#board", "data-cell")) > cell
    page.keyboard.press("0")
    assert abs(float(page.get_attribute("#board", "data-cell")) - cell) < 0.2
    page.keyboard.press("b")
    assert page.is_visible("#build-card") and page.get_attribute("#mode", "aria-pressed") == "true"
    page.keyboard.press("b")
    page.wait_for_selector("#build-card", state="hidden")
    assert errors == []


# ------------------------------------------------------------------ layout and phones
def _board_box(page):
    return page.locator("#board").bounding_box()


@pytest.mark.parametrize("width,height", [(390, 844), pytest.param(768, 1024, marks=pytest.mark.slow),
                                          pytest.param(1280, 900, marks=pytest.mark.slow)])
def test_board_never_moves_while_messages_change(browser, server, width, height):
    page, errors = open_puzzle(browser, server, width=width, height=height)
    before = _board_box(page)
    lay(page, 1, 1, 1, 4)
    lay(page, 1, 1, 6, 1)                        # a long refusal
    assert "more than its number" in status(page)
    assert _board_box(page) == before
    lay(page, 0, 0, 0, 5)
    tool(page, "check").click()                          # a check that lists problems or says all is well
    page.wait_for_function("document.getElementById('status').className !== 'status'", timeout=10000)
    assert _board_box(page) == before
    tool(page, "reveal").click()                         # the solved banner sits over the board
    page.wait_for_selector("#banner:not([hidden])", timeout=10000)
    assert _board_box(page) == before
    banner = page.locator("#banner").bounding_box()
    board = page.locator("#board").bounding_box()
    assert banner["y"] + banner["height"] <= board["y"]  # above the board, over no island
    if width == 1280:  # a desktop shows the whole board, bottom row included
        bottom = island(page, 6, 6).bounding_box()
        assert bottom["y"] + bottom["height"] <= height
    assert errors == []


def _big_puzzle(side=24):
    """A solvable side x side puzzle with islands at (0, 0) and (0, 3) (islands every third cell)."""
    islands = [[r, c, 2] for r in range(0, side, 3) for c in range(0, side, 3)]
    return {"rows": side, "cols": side, "maxbridges": 2, "islands": islands}


def test_phone_touch_targets_and_long_press(browser, server, artifacts):
    page, errors = open_page(browser, server, fragment=json_link(_big_puzzle()), width=390, height=844,
                             has_touch=True, is_mobile=True, device_scale_factor=2)
    # the board opens at fit; zoomed in, every island's cell is at least 44 px and the board scrolls
    # inside its frame
    while float(page.get_attribute("#board", "data-cell")) < 44:
        tool(page, "zoom-in").click()
    page.eval_on_selector("#board-wrap", "w => w.scrollTo(0, 0)")
    page.locator("#board-wrap").scroll_into_view_if_needed()
    box = island(page, 0, 0).bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44
    # every touch on the board is the page's (a drag from an island lays a bridge, two fingers pinch)
    assert page.evaluate("getComputedStyle(document.getElementById('board')).touchAction") == "none"
    # taps lay a bridge
    for r, c in ((0, 0), (0, 3)):
        b = island(page, r, c).bounding_box()
        page.touchscreen.tap(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2)
    assert page.locator("#board .bridge").count() == 1
    # a long press on a link marks it "no bridge"
    hit = page.locator('#board .hit').nth(1).bounding_box()
    x, y = hit["x"] + hit["width"] / 2, hit["y"] + hit["height"] / 2
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    page.wait_for_timeout(750)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    assert page.locator("#board .mark").count() == 1
    page.screenshot(path=str(artifacts / "screenshot-phone.png"))
    # zoom control: out to see the whole board, then in again
    tool(page, "zoom-fit").click()
    assert float(page.get_attribute("#board", "data-cell")) < 44
    tool(page, "zoom-in").click()
    tool(page, "zoom-in").click()
    assert errors == []


# ------------------------------------------------------------------ choosing a puzzle
@pytest.mark.slow
def test_generate_any_size_with_a_seed(browser, server):
    page, errors = open_puzzle(browser, server)
    page.fill("#gen-rows", "5")
    page.fill("#gen-cols", "8")
    page.select_option("#gen-difficulty", "easy")
    page.fill("#gen-seed", "42")
    page.click("#generate")
    page.wait_for_function("document.getElementById('status').textContent.includes('seed 42')", timeout=25000)
    first = page.url
    assert "8 × 5 board" in page.locator("#info").inner_text()
    levels = page.eval_on_selector_all("#gen-difficulty option", "os => os.map(o => o.value)")
    from hashikit.logic import LEVELS
    assert levels == list(LEVELS)
    page.click("#generate")  # the same seed: the same puzzle
    page.wait_for_function("document.getElementById('status').textContent.includes('seed 42')", timeout=25000)
    assert page.url.split("&b=")[0] == first.split("&b=")[0]
    page.fill("#gen-seed", "x1")
    page.click("#generate")
    assert "seed must be a whole number" in status(page)
    assert errors == []


@pytest.mark.slow
def test_a_long_generation_shows_progress_and_can_be_cancelled(browser, server):
    page, errors = open_puzzle(browser, server)
    page.route("**/api/generate", lambda route: None)  # a generation that never ends
    page.click("#generate")
    page.wait_for_selector("#busy:not([hidden])")
    clock = page.locator("#timer").inner_text()
    page.wait_for_timeout(1300)
    assert page.locator("#timer").inner_text() == clock   # the old puzzle's clock waits
    assert "Generating" in page.locator("#busy-text").inner_text()
    b = island(page, 1, 1).bounding_box()                  # the board takes no moves meanwhile
    assert page.evaluate(f"document.elementFromPoint({b['x'] + 5}, {b['y'] + 5}).closest('#busy') !== null")
    page.click("#cancel")
    page.wait_for_selector("#busy", state="hidden")
    assert "cancelled" in status(page)
    assert page.locator("#board .island").count() == 12    # the old puzzle stays
    assert errors == []


@pytest.mark.slow
def test_text_follows_the_puzzles_rules(browser, server):
    four = {"rows": 3, "cols": 5, "maxbridges": 4, "islands": [[0, 0, 4], [0, 4, 8], [2, 4, 4]]}
    page, errors = open_page(browser, server, fragment=json_link(four))
    tagline = page.locator("#tagline").inner_text()
    assert "at most four" in tagline and "two" not in tagline
    assert "up to four" in page.locator("#help").inner_text()
    for _ in range(4):
        lay(page, 0, 0, 0, 4)
    assert page.locator("#board .bridge").count() == 4
    # no loops: the text says so exactly when the server reads the flag
    import httpx

    noloops = {"rows": 3, "cols": 3, "maxbridges": 2, "no_loops": True, "islands": [[0, 0, 1], [0, 2, 1]]}
    parsed = httpx.post(f"{server}/api/parse", json={"text": json.dumps(noloops), "format": "json"}).json()
    page2, errors2 = open_page(browser, server, fragment=json_link(noloops))
    tagline = page2.locator("#tagline").inner_text()
    assert ("loop" in tagline) == bool(parsed["puzzle"].get("no_loops"))
    assert "at most two" in tagline
    assert errors == [] and errors2 == []


def test_progress_is_saved_and_restored(browser, server):
    page, errors = open_puzzle(browser, server)
    lay(page, 1, 1, 1, 4)
    mark(page, 0)
    page.goto(f"{server}/")  # no puzzle in the address: the last game comes back
    page.wait_for_selector("body[data-ready=true]")
    page.wait_for_selector("#board .island")
    assert page.locator("#board .bridge").count() == 1
    assert page.locator("#board .mark").count() == 1
    assert "restored" in status(page)
    assert errors == []


@pytest.mark.slow
def test_print_view(browser, server, artifacts):
    page, errors = open_puzzle(browser, server)
    lay(page, 1, 1, 1, 4)
    page.evaluate("window.print = () => { window.__printed = true; }")
    page.keyboard.press("p")
    page.wait_for_function("window.__printed === true", timeout=10000)
    page.wait_for_function("document.querySelectorAll('#print-solution section').length === 2", timeout=10000)
    pages = page.locator("#print-solution section")
    assert pages.count() == 2
    page.emulate_media(media="print")
    assert page.evaluate("getComputedStyle(document.getElementById('board-wrap')).display") == "none"
    assert page.evaluate("getComputedStyle(document.querySelector('aside')).display") == "none"
    assert pages.nth(0).locator("line").count() == 0            # the puzzle alone
    assert pages.nth(1).locator("line").count() == sum(k for *_, k in solution())
    assert page.evaluate("getComputedStyle(document.querySelectorAll('#print-solution section')[1]).breakBefore") \
        == "page"
    page.screenshot(path=str(artifacts / "screenshot-print.png"), full_page=True)
    pdf = page.pdf()
    assert pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages") == 2
    assert errors == []


# ------------------------------------------------------------------ accessibility and contrast
def _axe(page):
    page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in result["violations"]]


CONTRAST_JS = """
() => {
  const rgb = (s) => (s.match(/[\\d.]+/g) || []).slice(0, 3).map(Number);
  const lum = ([r, g, b]) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
                               return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const ratio = (a, b) => { const [x, y] = [lum(rgb(a)), lum(rgb(b))].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const card = getComputedStyle(document.querySelector('.card')).backgroundColor;
  const sea = getComputedStyle(document.querySelector('#board .sea')).fill;
  const out = {};
  out.button = ratio(getComputedStyle(document.getElementById('check')).borderTopColor, card);
  out.input = ratio(getComputedStyle(document.getElementById('gen-rows')).borderTopColor, card);
  out.status = ratio(getComputedStyle(document.getElementById('status')).borderTopColor, card);
  const isl = document.querySelector('#board .island');
  isl.classList.add('hint');
  out.hint = ratio(getComputedStyle(isl.querySelector('.disc')).stroke, sea);
  isl.classList.remove('hint');
  out.island = ratio(getComputedStyle(isl.querySelector('.disc')).stroke, sea);
  document.body.classList.add('marking'); isl.classList.add('err');
  out.error = ratio(getComputedStyle(isl.querySelector('.disc')).stroke, sea);
  isl.classList.remove('err'); isl.classList.add('full');
  out.full = ratio(getComputedStyle(isl.querySelector('.disc')).stroke, sea);
  isl.classList.remove('full');
  return out;
}
"""


@pytest.mark.parametrize("scheme", ["light", pytest.param("dark", marks=pytest.mark.slow)])
def test_axe_and_contrast(browser, server, artifacts, scheme):
    page, errors = open_puzzle(browser, server, scheme=scheme)
    assert page.evaluate("document.documentElement.dataset.theme") == scheme  # prefers-color-scheme
    lay(page, 1, 1, 1, 4)
    tool(page, "hint").click()
    page.wait_for_selector(".status.hinted", timeout=10000)
    assert _axe(page) == []
    figures = page.evaluate(CONTRAST_JS)
    assert all(v >= 3 for v in figures.values()), figures
    if scheme == "dark":
        page.mouse.move(0, 0)
        page.screenshot(path=str(artifacts / "screenshot-dark.png"))
    page.keyboard.press("b")  # the constructor passes too
    assert _axe(page) == []
    assert errors == []


HOSTILE_LINKS = ["j=%%%not-base64", "p=7x7m2:zzzzzzzzzzzzzz9", "j=" + "A" * 5000,
                 f"p={PUZZLE}&b=99999999999999999999", "p=99999x99999:a"]


@pytest.mark.slow
def test_a_hostile_link_gives_a_message_not_an_error(browser, server):
    ctx = browser.new_context(bypass_csp=True)
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    for fragment in HOSTILE_LINKS:
        page.goto("about:blank")
        page.goto(f"{server}/#{fragment}")
        page.wait_for_selector("body[data-ready=true]", timeout=15000)
        # either the link's puzzle is refused with the reason, or (a bad progress part) ignored
        assert "cannot be read" in status(page) or page.locator("#board .bridge").count() == 0, fragment
        assert page.locator("#board .island").count() >= 1, fragment  # something playable is on the board
    assert errors == []
    ctx.close()


def test_page_runs_under_its_csp_with_a_favicon_and_the_servers_links(browser, server):
    import httpx

    parsed = httpx.post(f"{server}/api/parse", json={"text": PUZZLE, "format": "tatham"}).json()
    page, errors = open_puzzle(browser, server, bypass_csp=False)
    assert page.locator("#board .island").count() == 12
    href = page.get_attribute("link[rel=icon]", "href")
    assert page.request.get(urljoin(page.url, href)).status == 200
    # the links and crossings come from /api/parse when the server sends them
    assert page.evaluate("document.body.dataset.geometry") == ("server" if "links" in parsed else "page")
    puzzle, _ = puzzle_and_solution()
    assert page.locator("#board .hit").count() == len(puzzle.links)
    if "links" in parsed:
        assert len(parsed["links"]) == len(puzzle.links)
    assert errors == []


# ------------------------------------------------------------------ the constructor
def test_constructor_finds_several_solutions_and_a_fix(browser, server, artifacts):
    page, errors = open_puzzle(browser, server)
    tool(page, "mode").click()
    page.fill("#blank-rows", "5")
    page.fill("#blank-cols", "5")
    page.click("#blank")
    assert page.locator("#board .island").count() == 0
    # four 3s at the corners: doubles on the top and bottom, or on the left and right
    board = page.locator("#board").bounding_box()
    cell = board["width"] / 5
    for r, c in ((0, 0), (0, 4), (4, 0), (4, 4)):
        page.mouse.click(board["x"] + (c + 0.5) * cell, board["y"] + (r + 0.5) * cell)
        page.keyboard.press("3")
    assert page.locator("#board .island").count() == 4
    page.evaluate("""() => {  // every text the status line shows from now on
        const el = document.getElementById("status");
        window.statusTexts = [];
        new MutationObserver(() => window.statusTexts.push(el.textContent))
            .observe(el, { childList: true, characterData: true, subtree: true });
    }""")
    page.keyboard.press("9")  # above 4 x MAXBRIDGES: refused with the reason
    assert "from 1 to 8" in status(page)
    page.wait_for_selector("#verdict[data-status=several]", timeout=15000)
    assert page.locator("#board .difflink").count() == 4
    page.wait_for_selector("#suggest-apply:not([hidden])", timeout=20000)
    # the server's answer, arriving after the refusal, went to the card: the status line kept the
    # refusal till an answer brought a button to press
    texts = page.evaluate("window.statusTexts")
    after = texts[next(i for i, t in enumerate(texts) if "from 1 to 8" in t):]
    assert not [t for t in after if "Looking for a change" in t], texts
    assert "makes it unique" in page.locator("#verdict").inner_text()
    page.mouse.move(0, 0)
    page.screenshot(path=str(artifacts / "screenshot-constructor.png"))
    page.click("#suggest-apply")
    page.wait_for_selector("#verdict[data-status=unique]", timeout=15000)
    assert "Exactly one solution" in page.locator("#verdict").inner_text()
    # export: a Tatham game ID the library reads back as the same puzzle, checked by the rules
    page.select_option("#export-format", "tatham")
    page.click("#export")
    text = page.input_value("#export-text")
    from hashikit.checker import check
    from hashikit.formats import read_text
    from hashikit.solvers import solve

    made = read_text(text, "tatham").puzzle
    assert len(made.islands) == 5
    result = solve(made, max_solutions=2)
    assert result.unique is True and check(made, result.solution).ok
    # an impossible puzzle says so
    board = page.locator("#board").bounding_box()  # where the board is now (Export may have scrolled the page)
    page.mouse.click(board["x"] + 2.5 * cell, board["y"] + 2.5 * cell)
    page.keyboard.press("1")
    page.wait_for_selector("#verdict[data-status=infeasible]", timeout=15000)
    page.keyboard.press("Delete")
    page.wait_for_selector("#verdict[data-status=unique]", timeout=15000)
    page.click("#build-play")
    page.wait_for_selector("#board .island[role=button]")
    assert page.locator("#board .island").count() == 5
    assert errors == []
