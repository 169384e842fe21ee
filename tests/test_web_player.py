"""The page as a player uses it over a session: trials (a layer of moves kept, dropped, nested,
saved), a history entry per puzzle (Back and Forward), the keyboard's path (a skip link, the board
first, the board's keys in the help), a quiet console through a whole session (play, hints,
building impossible and ambiguous puzzles, reading a picture: no console error, no failed
request), buttons a message names shown with it, and axe-core on every view.

The default run keeps a trial kept, dropped and nested, Back and Forward, and the API's verdicts;
the longer sessions (the quiet console, the keyboard's path, axe in a trial, the picture view, the
apply button on a phone, a trial across a reload) are behind the slow marker (``-m slow``).

The server, browser and helpers are those of tests/test_web_e2e.py.
"""

from __future__ import annotations

import pytest

from test_web_e2e import (PUZZLE, _axe, blank_board, browser, island, json_link, lay, open_page,  # noqa: F401
                          puzzle_and_solution, server, status, tool)


def counts(page):
    """The board's bridges per link, as the page holds them."""
    return page.evaluate("import('/static/store.js').then(m => [...m.state.position.counts])")


def trial_bridges(page, depth):
    return page.locator(f"#board .bridge.trial-{depth}").count()


# ------------------------------------------------------------------ trials
def test_a_trial_is_drawn_apart_nests_drops_in_one_step_and_keeps(browser, server):
    page, errors = open_page(browser, server)
    lay(page, 1, 1, 1, 4)                                     # the game's own move
    tool(page, "trial").click()
    assert "trial" in status(page) and page.get_attribute("body", "data-trial") == "1"
    assert page.is_visible("#status button:text('Drop')")   # the message shows the buttons it names
    lay(page, 0, 0, 0, 5)
    lay(page, 0, 0, 0, 5)
    assert trial_bridges(page, 1) == 2 and page.locator("#board .bridge:not(.trial)").count() == 1
    colours = page.eval_on_selector_all("#board .bridge", "ls => [...new Set(ls.map(l => getComputedStyle(l).stroke))]")
    assert len(colours) == 2                                 # another colour...
    assert page.eval_on_selector("#board .bridge.trial", "l => getComputedStyle(l).strokeDasharray") != "none"
    # ...on a layer of its own
    assert page.locator("#board g.trial .bridge").count() == 2 and page.locator("#board g.bridges .bridge").count() == 1
    tool(page, "trial").click()                              # a trial inside the trial
    assert page.get_attribute("body", "data-trial") == "2"
    lay(page, 2, 0, 5, 0)
    assert trial_bridges(page, 2) == 1
    before_inner = counts(page)
    tool(page, "trial-drop").click()                         # the inner trial, dropped in one step
    assert page.get_attribute("body", "data-trial") == "1" and trial_bridges(page, 2) == 0
    assert sum(before_inner) - sum(counts(page)) == 1 and trial_bridges(page, 1) == 2
    tool(page, "undo").click()                               # undo inside a trial stops where it began
    tool(page, "undo").click()
    assert page.is_disabled("#undo")
    page.keyboard.press("Control+z")
    assert sum(counts(page)) == 1 and "where the trial began" in status(page)
    tool(page, "redo").click()
    tool(page, "redo").click()
    tool(page, "trial-keep").click()                         # kept: part of the game, undone move by move
    assert page.get_attribute("body", "data-trial") is None and page.locator("#board .bridge.trial").count() == 0
    assert sum(counts(page)) == 3 and page.is_hidden("#trial-keep")
    tool(page, "undo").click()
    assert sum(counts(page)) == 2
    assert errors == []


@pytest.mark.slow
def test_check_and_hints_say_whether_the_trial_is_consistent_and_it_survives_reload(browser, server):
    page, errors = open_page(browser, server)
    puzzle, sol = puzzle_and_solution()
    c = sol.counts(puzzle)
    cells = lambda k: {puzzle.islands[puzzle.links[k].a].pos, puzzle.islands[puzzle.links[k].b].pos}  # noqa: E731
    # a bridge of the solution, and a link the solution leaves empty away from it
    right, wrong = next((r, w) for r in range(len(c)) if c[r] for w in range(len(c))
                        if not c[w] and puzzle.link_capacity(w) and not cells(r) & cells(w))
    from test_web_e2e import link_cells

    page.keyboard.press("t")
    lay(page, *link_cells(puzzle, right))
    tool(page, "check").click()
    page.wait_for_function("document.getElementById('status').textContent.includes('consistent so far')",
                           timeout=10000)
    tool(page, "hint").click()
    page.wait_for_function("document.getElementById('status').textContent.includes('The trial is consistent so far')",
                           timeout=10000)
    # a wrong bridge makes the trial inconsistent
    lay(page, *link_cells(puzzle, wrong))
    tool(page, "check").click()
    page.wait_for_function("document.getElementById('status').textContent.includes('not consistent')", timeout=10000)
    assert page.locator("#board .bridge.wrong").count() == 1
    # it is saved with the game: a reload brings the trial back, still a trial
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    page.wait_for_selector("#board .island")
    assert page.get_attribute("body", "data-trial") == "1" and trial_bridges(page, 1) == 2
    assert page.is_visible("#trial-drop") or page.locator("#menu #trial-drop").count()
    page.keyboard.press("x")                                 # Drop: the board as before the trial
    assert sum(counts(page)) == 0 and page.get_attribute("body", "data-trial") is None
    assert errors == []


@pytest.mark.slow
def test_solving_inside_a_trial_keeps_it(browser, server):
    page, errors = open_page(browser, server)
    page.keyboard.press("t")
    _, sol = puzzle_and_solution()
    for r1, c1, r2, c2, k in sol.to_list():
        for _ in range(k):
            lay(page, r1, c1, r2, c2)
    page.wait_for_selector("#banner:not([hidden])", timeout=10000)
    assert "trial was right" in status(page) and page.get_attribute("body", "data-trial") is None
    assert errors == []


# ------------------------------------------------------------------ history
def test_back_and_forward_move_between_puzzles_with_their_games(browser, server):
    page, errors = open_page(browser, server)
    lay(page, 1, 1, 1, 4)
    entries = page.evaluate("history.length")
    lay(page, 0, 0, 0, 5)
    assert page.evaluate("history.length") == entries        # moves add no entry
    page.fill("#text", "2.2\n...\n2.2\n")
    page.click("#load")
    page.wait_for_function("document.querySelectorAll('#board .island').length === 4")
    page.fill("#gen-rows", "5")
    page.fill("#gen-cols", "5")
    page.fill("#gen-seed", "3")  # (a seed that makes a 5x5 puzzle at the page's level: about half of them do)
    for r1, c1, r2, c2 in ((0, 0, 0, 2), (0, 2, 2, 2), (2, 2, 2, 0), (2, 0, 0, 0)):
        lay(page, r1, c1, r2, c2)
    assert page.evaluate("history.length") == entries + 1
    page.wait_for_selector("#banner:not([hidden])")
    page.click("#status button:has-text('New puzzle')")       # the next puzzle from the solved message
    page.wait_for_function("document.getElementById('status').textContent.includes('seed 3')", timeout=30000)
    generated = page.locator("#board .island").count()
    assert page.evaluate("history.length") == entries + 2
    page.keyboard.press("b")                                  # built: an island more, then played
    page.wait_for_selector("#status button", state="visible")
    b = page.locator("#board").bounding_box()
    cells = page.evaluate("import('/static/store.js').then(m => [...m.state.build.cells.keys()])")
    free = next((r, c) for r in range(5) for c in range(5) if f"{r},{c}" not in cells)
    page.mouse.click(b["x"] + (free[1] + 0.5) * b["width"] / 5, b["y"] + (free[0] + 0.5) * b["height"] / 5)
    page.click("#build-play")
    page.wait_for_function(f"document.querySelectorAll('#board .island[role=button]').length === {generated + 1}")
    assert page.evaluate("history.length") == entries + 3
    page.go_back()
    page.wait_for_function(f"document.querySelectorAll('#board .island').length === {generated}")
    page.go_back()
    page.wait_for_function("document.querySelectorAll('#board .island').length === 4")
    assert page.locator("#board .bridge").count() == 4      # that puzzle's game, as left: solved
    assert page.is_visible("#banner")
    page.go_back()
    page.wait_for_function("document.querySelectorAll('#board .island').length === 12")
    assert page.locator("#board .bridge").count() == 2
    tool(page, "undo").click()                              # its undo history came back with it
    assert page.locator("#board .bridge").count() == 1
    page.go_forward()
    page.wait_for_function("document.querySelectorAll('#board .island').length === 4")
    page.go_forward()
    page.wait_for_function(f"document.querySelectorAll('#board .island').length === {generated}")
    assert errors == []


# ------------------------------------------------------------------ the keyboard
@pytest.mark.slow
def test_a_skip_link_then_the_board_then_the_play_tools_then_the_rest(browser, server):
    page, errors = open_page(browser, server)
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "skip"
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.closest('#board .island') !== null")
    order = []
    while "theme" not in order and len(order) < 60:
        page.keyboard.press("Tab")
        order.append(page.evaluate("(() => { const e = document.activeElement; "
                                   "return e.closest('#tools') ? 'tools' : e.closest('aside') ? 'aside' : e.id || e.tagName; })()"))
    first_aside = order.index("aside")
    assert order[0] == "tools" and set(order[:first_aside]) == {"tools"}
    assert set(order[first_aside:]) == {"aside", "theme"} and order[-1] == "theme"
    # without the skip link the board comes first too: it is the first stop after it
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    page.wait_for_selector("#board .island")
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('#board .island') !== null")
    help_text = page.locator("#help").inner_text()
    for words in ("arrow keys", "Enter or Space", "Shift+arrow", "Esc", "L locks", "T try", "K keep", "X drop",
                  "Skip to the board", "Ctrl+Z"):
        assert words in help_text, words
    assert errors == []


# ------------------------------------------------------------------ a quiet console
@pytest.mark.slow
def test_a_whole_session_leaves_no_console_error_and_no_failed_request(browser, server):
    cv2 = pytest.importorskip("cv2", reason='OpenCV is not installed (pip install "hashikit[photo]")')
    assert cv2
    page, errors = open_page(browser, server, width=1280, height=900)
    failed = []
    page.on("requestfailed", lambda r: failed.append(f"{r.url} {r.failure}"))
    page.on("response", lambda r: failed.append(f"{r.url} {r.status}") if r.status >= 400 else None)
    page.on("console", lambda m: errors.append(m.text) if m.type in ("error", "warning") else None)
    # play, hints, check
    lay(page, 1, 1, 1, 4)
    for _ in range(3):
        tool(page, "hint").click()
        page.wait_for_function("!document.getElementById('hint').disabled", timeout=10000)
    tool(page, "check").click()
    page.wait_for_function("document.getElementById('status').className !== 'status'", timeout=10000)
    # building: an island alone (no solution by its numbers), then four 3s (several), the fix applied
    board, cell = blank_board(page, 5, 5)
    page.mouse.click(board["x"] + 0.5 * cell, board["y"] + 0.5 * cell)
    page.keyboard.press("3")
    page.wait_for_selector("#verdict[data-status=infeasible]", timeout=15000)
    assert "cannot reach any island" in page.locator("#verdict").inner_text()
    for r, c in ((0, 4), (4, 0), (4, 4)):
        page.mouse.click(board["x"] + (c + 0.5) * cell, board["y"] + (r + 0.5) * cell)
        page.keyboard.press("3")
    page.wait_for_selector("#verdict[data-status=several]", timeout=15000)
    page.wait_for_selector("#suggest-apply", timeout=20000)
    page.click("#suggest-apply")
    page.wait_for_selector("#verdict[data-status=unique]", timeout=15000)
    page.click("#build-play")
    page.wait_for_selector("#board .island[role=button]")
    # a picture read and played
    from test_picture_web import game_png

    data, _, _ = game_png()
    page.set_input_files("#picture-file", files=[{"name": "shot.png", "mimeType": "image/png", "buffer": data}])
    page.wait_for_selector("#picture-view:not([hidden])", timeout=30000)
    entries = page.evaluate("history.length")
    page.click("#picture-play")
    page.wait_for_function("document.getElementById('status').textContent.includes('read from the picture')",
                           timeout=15000)
    assert page.evaluate("history.length") == entries + 1     # a puzzle read from a picture: an entry of its own
    page.wait_for_timeout(500)
    assert failed == [] and errors == []


def test_a_puzzle_impossible_by_its_numbers_is_said_without_asking_the_server(browser, server):
    lone = {"rows": 3, "cols": 3, "maxbridges": 2, "islands": [[0, 0, 1], [0, 2, 1], [2, 1, 1]]}
    page, errors = open_page(browser, server, fragment=json_link(lone))
    asked = []
    page.on("request", lambda r: asked.append(r.url) if "/api/" in r.url else None)
    page.wait_for_function("document.getElementById('status').textContent.includes('no solution')", timeout=10000)
    assert "the 1 at row 3, column 2 cannot reach any island" in status(page)
    tool(page, "hint").click()
    tool(page, "reveal").click()
    assert "cannot reach any island" in status(page)
    assert not [u for u in asked if "/api/solve" in u or "/api/hint" in u]
    assert errors == []


# ------------------------------------------------------------------ what a message names is in view
@pytest.mark.slow
def test_the_apply_button_is_in_view_when_the_message_names_it_on_a_phone(browser, server):
    page, errors = open_page(browser, server, width=320, height=640, has_touch=True, is_mobile=True)
    page.keyboard.press("b")
    page.fill("#blank-rows", "5")
    page.fill("#blank-cols", "5")
    page.click("#blank")
    for r, c in ((0, 0), (0, 4), (4, 0), (4, 4)):
        b = page.locator("#board").bounding_box()
        page.mouse.click(b["x"] + (c + 0.5) * b["width"] / 5, b["y"] + (r + 0.5) * b["height"] / 5)
        page.keyboard.press("3")
    page.wait_for_function("document.getElementById('status').textContent.includes('Apply the suggested change')",
                           timeout=30000)
    box = page.locator("#suggest-apply").bounding_box()
    assert box and 0 <= box["y"] and box["y"] + box["height"] <= 640 and 0 <= box["x"] and box["x"] + box["width"] <= 320
    page.locator("#suggest-apply").tap()
    page.wait_for_selector("#verdict[data-status=unique]", timeout=15000)
    assert errors == []


# ------------------------------------------------------------------ axe on every view
@pytest.mark.slow
def test_axe_finds_nothing_in_a_trial_the_menu_and_the_picture_view(browser, server):
    page, errors = open_page(browser, server, width=390, height=844, has_touch=True, is_mobile=True)
    page.keyboard.press("t")
    lay(page, 1, 1, 1, 4)
    assert page.get_attribute("body", "data-trial") == "1"
    assert _axe(page) == []
    page.click("#menu-button")
    assert page.is_visible("#menu") and _axe(page) == []
    page.keyboard.press("Escape")
    page.keyboard.press("d")                                  # dark, in a trial
    assert _axe(page) == []
    assert errors == []


# ------------------------------------------------------------------ the API's verdicts
def test_the_openapi_says_which_answers_carry_a_verdict_and_the_api_keeps_the_cli_s_bad_input():
    import re

    from starlette.testclient import TestClient

    from hashikit.web.app import create_app

    with TestClient(create_app(pool_size=0)) as client:
        doc = client.get("/api/openapi.json").json()
        said = doc["info"]["description"]
        for path, model in (("/api/solve", "SolveReport"), ("/api/hint", "HintReport"),
                            ("/api/analyze", "AnalyzeReport")):
            listed = re.search(rf"{path}: ([a-z, ]+)", said).group(1).split(", ")
            assert listed == doc["components"]["schemas"][model]["properties"]["status"]["enum"], path
        apart = {"rows": 3, "cols": 3, "maxbridges": 2, "islands": [[0, 0, 1], [0, 2, 1], [2, 0, 1], [2, 2, 1]]}
        no_room = {"rows": 1, "cols": 3, "maxbridges": 2, "islands": [[0, 0, 1], [0, 2, 2]]}
        for path in ("/api/solve", "/api/analyze", "/api/hint"):
            answer = client.post(path, json={"puzzle": apart})      # no solution: a verdict
            assert answer.status_code == 200 and answer.json()["status"] == "infeasible", (path, answer.text)
            answer = client.post(path, json={"puzzle": no_room})    # numbers no links carry: bad input, as exit 2
            assert answer.status_code == 400 and "at most 1 bridge" in answer.json()["error"], (path, answer.text)
        assert client.post("/api/solve", json={"puzzle": {"rows": 0}}).status_code == 400


# ------------------------------------------------------------------ the picture checked large
@pytest.mark.slow
def test_a_picture_is_checked_at_the_boards_size_one_tap_or_one_key_a_digit(browser, server):
    pytest.importorskip("cv2", reason='OpenCV is not installed (pip install "hashikit[photo]")')
    from test_picture_web import game_png

    page, errors = open_page(browser, server, width=1280, height=900)
    board = page.locator("#board").bounding_box()
    assert page.is_hidden("#picture-camera-button")          # no camera here: no camera button
    data, pz, _ = game_png()
    page.set_input_files("#picture-file", files=[{"name": "shot.png", "mimeType": "image/png", "buffer": data}])
    page.wait_for_selector("#picture-view:not([hidden])", timeout=30000)
    shown = page.locator("#picture-img").bounding_box()
    assert min(shown["width"], shown["height"]) >= min(board["width"], board["height"])   # at least the board's size
    assert page.is_hidden("#board-frame") and shown["y"] >= 0 and shown["y"] + shown["height"] <= 900
    # a tap on an island: the digits beside it, one tap sets the number
    islands = page.locator("#picture-overlay .picture-island")
    target = islands.nth(3)
    target.click()
    fix, box = page.locator("#picture-fix").bounding_box(), target.bounding_box()
    assert abs((fix["x"] + fix["width"] / 2) - (box["x"] + box["width"] / 2)) < fix["width"] / 2 + 1
    assert 0 < min(abs(fix["y"] - box["y"] - box["height"]), abs(box["y"] - fix["y"] - fix["height"])) < box["height"]
    old = target.locator("text").text_content()
    new = "5" if old != "5" else "6"
    page.click(f"#picture-digits button[data-n='{new}']")
    assert islands.nth(3).locator("text").text_content() == new
    # one key: a digit on a focused island
    islands.nth(5).focus()
    old = islands.nth(5).locator("text").text_content()
    new = "4" if old != "4" else "3"
    page.keyboard.press(new)
    assert islands.nth(5).locator("text").text_content() == new
    assert page.evaluate("document.activeElement.closest('#picture-overlay') !== null")   # the keys keep their place
    page.keyboard.press("Delete")                             # not an island
    assert islands.count() == len(pz.islands) - 1
    assert _axe(page) == []
    page.keyboard.press("b")                                  # the constructor: the board comes back
    assert page.is_hidden("#picture-view") and page.is_visible("#board-frame")
    page.keyboard.press("b")
    assert page.locator("#board").bounding_box()["width"] == board["width"]
    assert errors == []


@pytest.mark.slow
def test_a_device_with_a_camera_gets_a_camera_button(browser, server):
    ctx_page, errors = open_page(browser, server, width=390, height=844, has_touch=True, is_mobile=True)
    ctx_page.context.add_init_script("navigator.mediaDevices.enumerateDevices = async () => "
                                     "[{kind: 'videoinput', deviceId: 'back', label: '', groupId: ''}];")
    ctx_page.reload()
    ctx_page.wait_for_selector("body[data-ready=true]")
    button = ctx_page.locator("#picture-camera-button")
    assert button.is_visible() and "Take a photo" in button.inner_text()
    assert button.bounding_box()["height"] >= 44
    camera = ctx_page.locator("#picture-camera")
    assert camera.get_attribute("capture") == "environment" and camera.get_attribute("accept") == "image/*"
    assert errors == []


@pytest.mark.slow
def test_the_unsure_digits_come_one_after_another_one_tap_each(browser, server):
    pytest.importorskip("cv2", reason='OpenCV is not installed (pip install "hashikit[photo]")')
    from test_picture_web import game_png

    page, errors = open_page(browser, server, width=1280, height=900)

    def doubtful(route):                                      # the reader's answer, two of its digits unsure
        answer = route.fetch().json()
        for i in (1, 4):
            answer["islands"][i][3] = 0.5
        route.fulfill(json=answer)

    page.route("**/api/read-picture", doubtful)
    data, _, _ = game_png()
    page.set_input_files("#picture-file", files=[{"name": "shot.png", "mimeType": "image/png", "buffer": data}])
    page.wait_for_selector("#picture-view:not([hidden])", timeout=30000)
    islands = page.locator("#picture-overlay .picture-island")
    cell = lambda i: (f"Row {int(islands.nth(i).get_attribute('data-row')) + 1}, "      # noqa: E731
                      f"column {int(islands.nth(i).get_attribute('data-col')) + 1} ")
    assert page.is_visible("#picture-fix") and page.locator("#picture-fix-label").inner_text().startswith(cell(1))
    page.click("#picture-digits button[data-n='2']")           # one tap: that digit set, the next unsure one picked
    assert islands.nth(1).locator("text").text_content() == "2"
    assert page.locator("#picture-fix-label").inner_text().startswith(cell(4))
    page.click("#picture-digits button[data-n='3']")
    assert islands.nth(4).locator("text").text_content() == "3" and page.is_hidden("#picture-fix")
    assert errors == []
