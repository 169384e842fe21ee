"""The web page end to end: uvicorn on a free localhost port, Debian's Chromium driven by Playwright.

Skips (saying why) where Chromium (/usr/bin/chromium, or $HASHIKIT_CHROMIUM) or the
playwright package is missing; never downloads a browser.  Screenshots go to
$HASHIKIT_E2E_ARTIFACTS when set, else to pytest's tmp_path.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
uvicorn = pytest.importorskip("uvicorn", reason="the web extra (uvicorn) is not installed")

CHROMIUM = os.environ.get("HASHIKIT_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
PUZZLE = "7x7m2:4d2b1b4a26b3m1c3c3c2d3"  # unique, 11 bridges (a Tatham game ID)


@pytest.fixture(scope="module")
def server():
    from hashikit.web.app import create_app

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(create_app(allowed_hosts=["127.0.0.1", "localhost"]),
                                        log_level="warning", lifespan="off"))
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
    return page.locator(f'.island[data-r="{r}"][data-c="{c}"]')


def open_puzzle(browser, server, width=900, height=820):
    page = browser.new_page(viewport={"width": width, "height": height})
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{server}/#p={PUZZLE}")
    page.wait_for_selector("body[data-ready=true]", timeout=15000)
    page.wait_for_selector(".island", timeout=15000)
    return page, errors


def solution():
    from hashikit.formats import read_text
    from hashikit.solvers import solve

    puzzle = read_text(PUZZLE, "tatham").puzzle
    result = solve(puzzle, max_solutions=2)
    assert result.unique is True
    return result.solution.to_list()


def test_play_the_whole_solution_by_clicks(browser, server, artifacts):
    page, errors = open_puzzle(browser, server)
    assert page.locator(".island").count() == 12
    for r1, c1, r2, c2, k in solution():
        for _ in range(k):
            island(page, r1, c1).click()
            island(page, r2, c2).click()
    page.wait_for_selector("#banner:not([hidden])", timeout=10000)
    assert "Solved" in page.locator("#banner").inner_text()
    assert page.locator(".island.full").count() == 12
    assert "b=" in page.url  # the progress rides in the link
    page.mouse.move(0, 0)  # no hover highlight in the picture
    shot = artifacts / "screenshot-solved.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 5000
    # a narrow phone screen: the board scales to fit
    page.set_viewport_size({"width": 390, "height": 800})
    box = page.locator("#board").bounding_box()
    assert box["width"] <= 390
    page.screenshot(path=str(artifacts / "screenshot-phone.png"), full_page=True)
    assert errors == []


def test_hint_on_a_fresh_board(browser, server):
    page, errors = open_puzzle(browser, server)
    page.click("#hint")
    page.wait_for_selector(".status.hinted", timeout=10000)
    text = page.locator("#status").inner_text()
    assert text.startswith("Hint") and "needs" in text or "bridge" in text
    assert page.locator(".island.hint").count() >= 1
    assert errors == []


def test_refused_move_undo_and_keyboard(browser, server):
    page, errors = open_puzzle(browser, server)
    # the 1 at row 2, column 2 takes one bridge; a second one is refused with the reason
    island(page, 1, 1).click()
    island(page, 1, 4).click()
    assert page.locator(".bridge").count() == 1
    island(page, 1, 1).click()
    island(page, 6, 1).click()
    assert "more than its number" in page.locator("#status").inner_text()
    assert page.locator(".bridge").count() == 1
    page.click("#undo")
    assert page.locator(".bridge").count() == 0
    page.click("#redo")
    assert page.locator(".bridge").count() == 1
    # keyboard: focus the 4 at the top left, pick it, lay a bridge to the right
    island(page, 0, 0).focus()
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowRight")
    assert page.locator(".bridge").count() == 2
    page.keyboard.press("Escape")
    page.keyboard.press("ArrowDown")  # moves the focus to the 6 below
    assert page.evaluate("document.activeElement.dataset.r") == "2"
    assert errors == []


def test_error_marking_toggle(browser, server):
    page, errors = open_puzzle(browser, server)
    # 1 (row 2, col 2) to 2 (row 7, col 2), and 4 (row 2, col 5) to 2 (row 2, col 7): the 3 at the
    # bottom right can then reach only two more bridges, fewer than its number
    island(page, 1, 1).click()
    island(page, 6, 1).click()
    island(page, 1, 4).click()
    island(page, 1, 6).click()
    assert page.locator('.island.err[data-r="6"][data-c="6"]').count() == 1
    page.uncheck("#errors")
    assert page.locator(".island.err").count() == 0
    assert "off" in page.locator("#status").inner_text()
    page.check("#errors")
    assert page.locator('.island.err[data-r="6"][data-c="6"]').count() == 1
    assert errors == []
