"""The page on a phone and the feel of play (issue 21), in Debian's Chromium through Playwright.

The server, browser and helpers are those of tests/test_web_e2e.py.  Phones are 390x844 with touch;
tablets 768x1024.  Each test shows a defect of the page before issue 21 (board wider than the
phone, the page left scrolled at the form, clipped hints, no number picker, a banner over the top
row, a blank Ctrl+P, ...), and passes now.
"""

from __future__ import annotations

import json

import pytest

from test_web_e2e import (PUZZLE, artifacts, browser, island, json_link, lay, mark, open_page,  # noqa: F401
                          play_solution, puzzle_and_solution, serve, server, status, tool)

PHONE = {"width": 390, "height": 844, "has_touch": True, "is_mobile": True}
TABLET = {"width": 768, "height": 1024, "has_touch": True, "is_mobile": True}


def disc_boxes(page):
    """[left, top, right, bottom] of every island's disc, in viewport pixels."""
    return page.eval_on_selector_all(
        "#board .island .disc", "ds => ds.map(d => { const r = d.getBoundingClientRect(); "
                                "return [r.left, r.top, r.right, r.bottom]; })")


def wholly_visible(page, box, width, height):
    wrap = page.eval_on_selector("#board-wrap", "w => { const r = w.getBoundingClientRect(); "
                                                "return [r.left, r.top, r.right, r.bottom]; }")
    left, top, right, bottom = box
    return (0 <= left and right <= width and 0 <= top and bottom <= height
            and wrap[0] <= left and right <= wrap[2] and wrap[1] <= top and bottom <= wrap[3])


def tap(page, locator):
    locator.scroll_into_view_if_needed()
    b = locator.bounding_box()
    page.touchscreen.tap(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2)


def tap_cell(page, r, c, rows, cols):
    b = page.locator("#board").bounding_box()
    page.touchscreen.tap(b["x"] + (c + 0.5) * b["width"] / cols, b["y"] + (r + 0.5) * b["height"] / rows)


def overlaps(a, b):
    return a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"] and \
        a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"]


def banner_clear_of_islands(page):
    banner = page.locator("#banner").bounding_box()
    assert banner and banner["width"] > 0
    for k in range(page.locator("#board .island").count()):
        assert not overlaps(banner, page.locator("#board .island .disc").nth(k).bounding_box()), k


# ------------------------------------------------------------------ phone first
@pytest.mark.parametrize("device,side", [(PHONE, 10), (PHONE, 15), pytest.param(TABLET, 15, marks=pytest.mark.slow)])
def test_a_generated_board_is_wholly_in_view(browser, server, device, side):
    """After Generate (pressed at the form, far down a phone's page) the new board is on the
    screen, every island of it, without scrolling or zooming."""
    page, errors = open_page(browser, server, **device)
    page.fill("#gen-rows", str(side))
    page.fill("#gen-cols", str(side))
    page.select_option("#gen-difficulty", "easy")
    page.fill("#gen-seed", "3")
    page.locator("#generate").scroll_into_view_if_needed()
    assert page.evaluate("scrollY") > 300
    page.click("#generate")
    page.wait_for_function("document.getElementById('status').textContent.includes('seed 3')", timeout=30000)
    assert f"{side} × {side} board" in page.locator("#info").inner_text()
    boxes = disc_boxes(page)
    assert len(boxes) > 12
    assert all(wholly_visible(page, b, device["width"], device["height"]) for b in boxes), boxes
    top = page.locator("#status").bounding_box()
    assert top["y"] >= 0  # its message too
    assert errors == []


def test_load_and_new_blank_board_bring_the_board_into_view(browser, server):
    page, errors = open_page(browser, server, **PHONE)
    page.fill("#text", "2.2\n...\n2.2\n")
    page.locator("#load").scroll_into_view_if_needed()
    page.click("#load")
    page.wait_for_function("document.querySelectorAll('#board .island').length === 4")
    assert all(wholly_visible(page, b, 390, 844) for b in disc_boxes(page))
    tap(page, tool(page, "mode"))
    tap(page, page.locator("#status button", has_text="New blank board"))   # the message brings the form into view
    box = page.locator("#blank").bounding_box()
    assert 0 <= box["y"] and box["y"] + box["height"] <= 844
    page.eval_on_selector("#blank", "b => b.scrollIntoView({block: 'start'})")
    assert page.locator("#board").bounding_box()["y"] + 100 > 844 or page.locator("#board").bounding_box()["y"] < 0
    page.click("#blank")
    board = page.locator("#board").bounding_box()
    assert 0 <= board["y"] and board["y"] + board["height"] <= 844
    assert errors == []


def big_puzzle(side=25):
    """A solvable side x side puzzle (conftest's random construction, not hashikit's generator)."""
    from conftest import random_puzzle
    from hashikit.formats.jsonfmt import puzzle_data

    return puzzle_data(random_puzzle(side, side, 7)[0])


def expected_400(errors):
    """The console errors less the browser's own line for a 400 answer (an impossible puzzle's)."""
    return [e for e in errors if "status of 400" not in e]


def test_a_big_board_opens_at_fit_and_says_when_part_is_out_of_view(browser, server):
    page, errors = open_page(browser, server, fragment=json_link(big_puzzle()), **PHONE)
    assert all(wholly_visible(page, b, 390, 844) for b in disc_boxes(page))
    assert page.is_hidden("#more")
    for _ in range(6):                      # zoom in to 44 px islands: part of the board leaves the frame
        tool(page, "zoom-in").click()
    assert float(page.get_attribute("#board", "data-cell")) >= 44
    page.wait_for_selector("#more:not([hidden])")
    assert "right" in page.locator("#more-text").inner_text() and "below" in page.locator("#more-text").inner_text()
    tap(page, page.locator("#more-fit"))
    page.wait_for_selector("#more", state="hidden")
    assert all(wholly_visible(page, b, 390, 844) for b in disc_boxes(page))
    assert errors == []


LONG = ("The 4 at row 1, column 1 has only two neighbours it can still reach, so it needs two bridges to each; "
        "and because the 2 at row 1, column 6 can then take no other bridge, the link from it down to the 3 at "
        "row 7, column 7 stays empty, which leaves the 3 with a single way out: two bridges to the left, and one "
        "more towards the 3 at row 6, column 5, which is the only island it still sees.")


@pytest.mark.parametrize("device", [PHONE, pytest.param(TABLET, marks=pytest.mark.slow)])
def test_a_hints_whole_text_is_visible_without_moving_the_board(browser, server, device):
    page, errors = open_page(browser, server, **device)
    before = page.locator("#board").bounding_box()
    for stage in ("look at", "Press Hint again to do it"):
        tap(page, tool(page, "hint"))
        page.wait_for_function(f"document.getElementById('status').textContent.includes({stage!r})", timeout=10000)
    clipped = page.evaluate("(() => { const s = document.getElementById('status'); "
                            "return s.scrollHeight - s.clientHeight; })()")
    assert clipped <= 1
    box = page.locator("#status").bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= device["height"]
    assert page.locator("#board").bounding_box() == before
    # a longer one grows over the board, whole, and the board stays where it is
    page.route("**/api/hint", lambda route: route.fulfill(json={
        "status": "hint", "sentence": LONG, "level": "hard", "islands": [[0, 0]], "links": [], "changes": [],
        "bridges": [], "marks": [], "problems": []}))
    lay(page, 1, 1, 1, 4)
    for _ in range(2):
        tap(page, tool(page, "hint"))
    page.wait_for_function("document.getElementById('status').textContent.includes('only island it still sees')")
    assert page.evaluate("(() => { const s = document.getElementById('status'); "
                         "return s.scrollHeight - s.clientHeight; })()") <= 1
    box = page.locator("#status").bounding_box()
    assert box["y"] + box["height"] <= device["height"]
    assert page.locator("#board").bounding_box() == before
    assert errors == []


def test_the_constructor_works_by_touch_alone(browser, server, artifacts):
    page, errors = open_page(browser, server, **PHONE)
    tap(page, tool(page, "mode"))
    assert page.locator("#help").inner_text().startswith("Building")
    tap(page, page.locator("#blank"))                       # 7 x 7, as the form says
    assert page.locator("#board .island").count() == 0
    for r, c in ((0, 0), (0, 6)):                           # two 2s: one double bridge, unique
        tap_cell(page, r, c, 7, 7)
        page.wait_for_selector("#picker:not([hidden])")
        tap(page, page.locator("#picker button", has_text="2").first)
        page.wait_for_selector("#picker", state="hidden")
    assert page.eval_on_selector_all("#board .island text", "ts => ts.map(t => t.textContent)") == ["2", "2"]
    tap_cell(page, 3, 3, 7, 7)                              # a third island, then removed from its picker
    page.wait_for_selector("#picker:not([hidden])")
    assert page.locator("#board .island").count() == 3
    assert page.locator("#picker").bounding_box() is not None
    page.mouse.move(0, 0)
    page.screenshot(path=str(artifacts / "screenshot-constructor-phone.png"))
    tap(page, page.locator("#picker button.remove"))
    assert page.locator("#board .island").count() == 2
    assert page.evaluate("document.activeElement.tagName") not in ("INPUT", "TEXTAREA")  # no keyboard needed
    # the toolbar's Undo and Redo work here
    assert page.is_enabled("#undo")
    tap(page, tool(page, "undo"))
    assert page.locator("#board .island").count() == 3
    tap(page, tool(page, "redo"))
    assert page.locator("#board .island").count() == 2
    page.wait_for_selector("#verdict[data-status=unique]", timeout=15000)
    tap(page, page.locator("#build-play"))
    page.wait_for_selector("#board .island[role=button]")
    assert page.locator("#board .island").count() == 2
    assert not page.locator("#help").inner_text().startswith("Building")
    assert expected_400(errors) == []  # a lone island on the way has no solution: the analysis says 400


# ------------------------------------------------------------------ play feel
def test_browser_print_prints_the_puzzle(browser, server):
    """Ctrl+P (the browser's own print) prints what the Print button prints: the puzzle, and the
    solution on its own page."""
    page, errors = open_page(browser, server)
    page.wait_for_function("document.body.dataset.solutions === 'one'", timeout=10000)
    page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
    page.emulate_media(media="print")
    first = page.locator("#print-solution section").first
    assert first.is_visible() and first.locator("circle").count() == 12
    page.evaluate("window.dispatchEvent(new Event('afterprint'))")
    pdf = page.pdf()                      # the browser's print itself (print media): the puzzle, the solution
    assert pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages") == 2
    assert errors == []


TOP_ROW = {"rows": 7, "cols": 7, "maxbridges": 2, "islands": [[0, 1, 1], [0, 3, 2], [0, 5, 1]]}


@pytest.mark.parametrize("device", [{"width": 1280, "height": 900}, PHONE])
def test_the_win_banner_covers_no_island(browser, server, device):
    """Islands along the top row, the middle one under where the banner used to sit."""
    page, errors = open_page(browser, server, fragment=json_link(TOP_ROW), **device)
    for r1, c1, r2, c2 in ((0, 1, 0, 3), (0, 3, 0, 5)):
        lay(page, r1, c1, r2, c2)
    page.wait_for_selector("#banner:not([hidden])", timeout=10000)
    assert "Solved" in page.locator("#banner").inner_text()
    banner_clear_of_islands(page)
    box = page.locator("#banner").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= device["width"]
    assert errors == []


def test_dragging_and_picking_show_the_bridge_before_it_is_laid(browser, server):
    page, errors = open_page(browser, server)
    a, b = island(page, 1, 1).bounding_box(), island(page, 1, 4).bounding_box()
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    page.mouse.down()
    page.mouse.move(b["x"] - 10, b["y"] + b["height"] / 2, steps=5)     # not there yet
    assert page.locator("#board .preview").count() == 1
    assert page.locator('#board .island.target[data-r="1"][data-c="4"]').count() == 1
    assert page.locator("#board .bridge").count() == 0
    page.mouse.up()
    assert page.locator("#board .bridge").count() == 1 and page.locator("#board .preview").count() == 0
    # after the first click: dotted lines to every island the picked one can still reach
    island(page, 0, 0).click()
    assert page.locator("#board .preview.option").count() == 2
    assert page.locator("#board .island.target").count() == 2
    assert errors == []


CROSS = {"rows": 3, "cols": 3, "maxbridges": 2, "islands": [[0, 1, 2], [1, 0, 2], [1, 2, 2], [2, 1, 2]]}


def test_a_long_press_at_a_crossing_marks_the_link_under_the_finger(browser, server):
    page, errors = open_page(browser, server, fragment=json_link(CROSS), **PHONE)
    hits = page.eval_on_selector_all("#board .hit", "ls => ls.map(l => [+l.dataset.link, l.y1.baseVal.value === "
                                                    "l.y2.baseVal.value])")
    top_k, top_h = hits[-1]                                    # the line drawn last lies on top
    meant = next(k for k, h in hits if h != top_h)
    board, cell = page.locator("#board").bounding_box(), float(page.get_attribute("#board", "data-cell"))
    x, y = board["x"] + 1.5 * cell, board["y"] + 1.5 * cell   # the crossing, then a little along the link meant
    if top_h:
        y += 0.15 * cell
    else:
        x += 0.15 * cell
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    page.wait_for_timeout(750)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    page.wait_for_selector("#board .mark")
    assert page.eval_on_selector_all("#board .mark", "ms => ms.map(m => +m.dataset.link)") == [meant]
    assert meant != top_k
    assert errors == []


def test_a_hint_shows_a_wrong_mark_on_the_board(browser, server):
    page, errors = open_page(browser, server)
    puzzle, sol = puzzle_and_solution()
    counts = sol.counts(puzzle)
    used = next(k for k, n in enumerate(counts) if n > 0 and not puzzle.crossing_partners[k])
    mark(page, used)
    tool(page, "hint").click()
    page.wait_for_selector("#board .mark.wrong", timeout=10000)
    assert page.locator("#board .mark.wrong").count() == 1
    assert "problem" in status(page)
    assert errors == []


# ------------------------------------------------------------------ graduated hints and records
def test_hints_come_in_three_steps_and_records_with_hints_are_kept_apart(browser, server):
    page, errors = open_page(browser, server)
    tool(page, "hint").click()
    page.wait_for_selector(".status.hinted", timeout=10000)
    assert "look at the highlighted" in status(page)
    assert page.locator("#board .island.hint").count() >= 1
    assert page.locator("#board .bridge").count() + page.locator("#board .mark").count() == 0
    tool(page, "hint").click()
    assert "needs" in status(page) and "Press Hint again" in status(page)
    assert page.locator("#board .bridge").count() == 0
    lay(page, 1, 1, 1, 4)                                      # the board changes: the hint starts over
    tool(page, "hint").click()
    page.wait_for_function("document.getElementById('status').textContent.includes('look at')", timeout=10000)
    tool(page, "undo").click()
    tool(page, "hint").click()
    page.wait_for_function("document.getElementById('status').textContent.includes('look at')", timeout=10000)
    tool(page, "hint").click()
    assert "needs" in status(page)
    tool(page, "hint").click()
    assert "Done for you" in status(page)
    laid = page.locator("#board .bridge").count()
    assert laid >= 1
    tool(page, "undo").click()
    assert page.locator("#board .bridge").count() == 0
    play_solution(page)
    assert "help" in page.locator("#banner").inner_text()
    assert "3 hints" in status(page) and "kept apart" in status(page)
    best = page.evaluate("JSON.parse(localStorage.getItem('hashikit:best'))")
    assert list(best) == ["7x7 custom m2 hints"]               # not a clean record
    assert errors == []


# ------------------------------------------------------------------ honest states
def test_an_impossible_puzzle_says_so_when_loaded(browser, server):
    lone = {"rows": 3, "cols": 3, "maxbridges": 2, "islands": [[0, 0, 1], [0, 2, 1], [2, 1, 1]]}
    page, errors = open_page(browser, server, fragment=json_link(lone))
    page.wait_for_function("document.getElementById('status').textContent.includes('no solution')", timeout=10000)
    assert "the 1 at row 3, column 2 cannot reach any island" in status(page)
    tool(page, "check").click()
    page.wait_for_selector(".status.error")
    assert "no solution" in status(page) and "No mistakes" not in status(page)
    pairs = {"rows": 3, "cols": 3, "maxbridges": 2, "islands": [[0, 0, 1], [0, 2, 1], [2, 0, 1], [2, 2, 1]]}
    page2, errors2 = open_page(browser, server, fragment=json_link(pairs))
    page2.wait_for_function("document.getElementById('status').textContent.includes('no solution')", timeout=10000)
    assert "keeps every rule" in status(page2) and "SAT" not in status(page2)
    assert expected_400(errors) == [] and errors2 == []


def test_reveal_on_a_puzzle_with_several_solutions_says_it_shows_one(browser, server):
    several = {"rows": 3, "cols": 3, "maxbridges": 2, "islands": [[0, 0, 3], [0, 2, 3], [2, 0, 3], [2, 2, 3]]}
    page, errors = open_page(browser, server, fragment=json_link(several))
    page.wait_for_function("document.getElementById('status').textContent.includes('more than one solution')",
                           timeout=10000)
    tool(page, "reveal").click()
    page.wait_for_selector("#banner:not([hidden])", timeout=10000)
    assert "one of them" in status(page)
    assert errors == []


def test_export_offers_only_what_can_be_written_now_by_plain_names(browser, server):
    page, errors = open_page(browser, server)
    tool(page, "mode").click()
    names = lambda: page.eval_on_selector_all("#export-format option", "os => os.map(o => [o.value, o.textContent])")  # noqa: E731
    first = dict(names())
    assert {"Tatham game ID", "puzz.link URL", "text grid"} <= set(first.values())
    assert not {"solved", "solved-unicode", "json-solution"} & set(first)   # no solution proved yet
    page.wait_for_selector("#verdict[data-status=unique]", timeout=15000)
    assert "solved" in dict(names())                                        # now there is one
    page.select_option("#export-format", "solved")
    page.click("#export")
    page.wait_for_function("document.getElementById('export-text').value.includes('=')", timeout=10000)
    from hashikit.checker import check
    from hashikit.formats import read_text

    doc = read_text(page.input_value("#export-text"), "solved")
    assert check(doc.puzzle, doc.solution).ok
    # MAXBRIDGES 3: no puzz.link URL (it holds only 2)
    page.fill("#blank-mb", "3")
    page.click("#blank")
    assert "puzzlink" not in dict(names()) and "tatham" in dict(names())
    assert errors == []


def test_reload_keeps_the_undo_history_and_the_toggles(browser, server):
    page, errors = open_page(browser, server)
    lay(page, 1, 1, 1, 4)
    mark(page, 0)
    tool(page, "possible").check()
    tool(page, "groups").check()
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    assert page.is_checked("#possible") and page.is_checked("#groups")
    assert page.locator("#board .bridge").count() == 1 and page.locator("#board .mark").count() == 1
    tool(page, "undo").click()
    assert page.locator("#board .mark").count() == 0
    tool(page, "undo").click()
    assert page.locator("#board .bridge").count() == 0
    tool(page, "redo").click()
    assert page.locator("#board .bridge").count() == 1
    assert errors == []


# ------------------------------------------------------------------ the limits document
@pytest.fixture(scope="module")
def other_server():
    """An app with other limits, and the OpenAPI prose reworded: the page must read the fields."""
    from hashikit.web.app import create_app

    app = create_app(allowed_hosts=["127.0.0.1", "localhost"], generate_time_limit=7.5, solve_time_limit=4.0)
    app.description = "Bridges, served."
    app.openapi_schema = None
    yield from serve(app)


def test_the_page_follows_the_servers_limits_document(browser, other_server):
    page, errors = open_page(browser, other_server)
    assert "up to 7.5 s" in page.locator("#gen-note").inner_text()
    page.route("**/api/generate", lambda route: None)      # a generation that never ends
    page.click("#generate")
    page.wait_for_selector("#busy:not([hidden])")
    assert page.get_attribute("#busy-bar", "max") == "7.5"
    page.click("#cancel")
    limits = json.loads(page.evaluate("fetch('/api/limits').then(r => r.text())"))
    assert page.get_attribute("#gen-rows", "max") == str(limits["generate"]["max_side"])
    assert page.get_attribute("#blank-rows", "max") == str(limits["max_side"])
    assert errors == []
