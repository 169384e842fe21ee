"""The page in the hand: real touch events (the Chrome DevTools Protocol's
``Input.dispatchTouchEvent``: touchStart, touchMove, touchEnd, with one and two touch points; never
the mouse) on phones and a tablet, and the page's layout on every screen size.

The server, browser and helpers are those of tests/test_web_e2e.py.  A drag from island to island
lays a bridge at 320, 360, 390 and 768 px; two fingers pinch-zoom and pan the board, one finger off
the islands pans it, and a move keeps the zoom and the position; a 25x25 board is played to the end
by touch with every island tapped at least 44 px wide (slow).  At 320x640 a 15x15 board fills the
frame's width, the toolbar keeps one row on every screen (the rest folds into the More menu), and a
message that names a button shows it.
"""

from __future__ import annotations

import pytest

from test_web_e2e import (PUZZLE, browser, island, json_link, open_page, server, status,  # noqa: F401
                          tool)

#: phones and a tablet: width, height
SCREENS = [(320, 640), (360, 740), (390, 844), (768, 1024)]


def touch_page(browser, server, width, height, **kw):
    page, errors = open_page(browser, server, width=width, height=height, has_touch=True, is_mobile=True, **kw)
    return page, errors, page.context.new_cdp_session(page)


def touches(cdp, kind, points):
    """One touch event with these touch points (ids by their order), as a finger sends it."""
    cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [
        {"x": x, "y": y, "id": k} for k, (x, y) in enumerate(points)]})


def centre(locator):
    b = locator.bounding_box()
    return b["x"] + b["width"] / 2, b["y"] + b["height"] / 2


def drag(cdp, a, b, steps=8):
    """One finger from a to b."""
    touches(cdp, "touchStart", [a])
    for k in range(1, steps + 1):
        touches(cdp, "touchMove", [(a[0] + (b[0] - a[0]) * k / steps, a[1] + (b[1] - a[1]) * k / steps)])
    touches(cdp, "touchEnd", [])


def tap(cdp, p):
    touches(cdp, "touchStart", [p])
    touches(cdp, "touchEnd", [])


def two_fingers(cdp, start, end, steps=8):
    """Two fingers from the points ``start`` to the points ``end`` (a pinch, a pan, or both)."""
    touches(cdp, "touchStart", [start[0]])
    touches(cdp, "touchStart", start)
    for k in range(1, steps + 1):
        touches(cdp, "touchMove", [(s[0] + (e[0] - s[0]) * k / steps, s[1] + (e[1] - s[1]) * k / steps)
                                   for s, e in zip(start, end)])
    touches(cdp, "touchEnd", [end[0]])
    touches(cdp, "touchEnd", [])


def cell(page):
    return float(page.get_attribute("#board", "data-cell"))


def scroll(page):
    return page.eval_on_selector("#board-wrap", "w => [w.scrollLeft, w.scrollTop]")


def one_row(page):
    """The toolbar's shown tools sit on one line."""
    return page.eval_on_selector("#tools", """bar => {
      const tops = [...bar.children].filter(e => e.id !== 'menu' && !e.hidden)
        .map(e => { const r = e.getBoundingClientRect(); return [r.top, r.bottom]; });
      return tops.every(([t, b]) => t < tops[0][1] && b > tops[0][0]);
    }""")


@pytest.mark.parametrize("width,height", SCREENS)
def test_a_drag_by_touch_lays_a_bridge(browser, server, width, height):
    page, errors, cdp = touch_page(browser, server, width, height)
    assert one_row(page)
    a, b = centre(island(page, 1, 1)), centre(island(page, 1, 4))
    drag(cdp, a, b)
    assert page.locator("#board .bridge").count() == 1, status(page)
    assert "A bridge between the 1 at row 2, column 2 and the 4 at row 2, column 5" in status(page)
    # the drag showed its bridge on the way (the preview), and a tap-tap lays the next
    tap(cdp, centre(island(page, 1, 4)))
    tap(cdp, centre(island(page, 1, 6)))
    assert page.locator("#board .bridge").count() == 2
    # in a trial the toolbar keeps one row, Keep and Drop together (in it, or both in the menu)
    page.keyboard.press("t")
    page.wait_for_selector("#trial-keep:not([hidden])", state="attached")
    page.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")   # folded
    where = page.evaluate("document.getElementById('trial-keep').parentElement.id")
    assert one_row(page) and where == ("tools" if width >= 390 else "menu"), where
    hint = page.evaluate("document.getElementById('hint').parentElement.id")
    assert hint == ("menu" if width == 390 else "tools"), hint     # Hint gives way to them, or comes back
    # the trial's message may grow over the board's top row; a touch on the board folds it back into
    # its place, and a drag along the top row lays its bridge
    board = page.locator("#board").bounding_box()
    tap(cdp, (board["x"] + 2.5 * board["width"] / 7, board["y"] + 3.5 * board["height"] / 7))   # the sea
    top = centre(island(page, 0, 0))
    assert page.evaluate(f"!!document.elementFromPoint({top[0]}, {top[1]}).closest('#board')")
    drag(cdp, top, centre(island(page, 0, 5)))
    assert page.locator("#board .bridge").count() == 3, status(page)
    page.keyboard.press("x")
    assert page.locator("#board .bridge").count() == 2
    assert page.get_attribute("body", "data-trial") is None
    assert errors == []


VISIBLE_PAIR = """() => {
  const w = document.getElementById('board-wrap').getBoundingClientRect();
  const seen = [...document.querySelectorAll('#board .island')].filter(i => { const r = i.getBoundingClientRect();
    return r.left >= w.left && r.right <= w.right && r.top >= w.top && r.bottom <= w.bottom; })
    .map(i => [+i.dataset.r, +i.dataset.c]);
  for (const a of seen) for (const b of seen) {
    if (a[0] === b[0] && a[1] < b[1] && !seen.some(s => s[0] === a[0] && a[1] < s[1] && s[1] < b[1])) return [a, b];
    if (a[1] === b[1] && a[0] < b[0] && !seen.some(s => s[1] === a[1] && a[0] < s[0] && s[0] < b[0])) return [a, b];
  }
  return null;
}"""

#: a point of the frame nearest its middle where the board shows no island and no link (nor within
#: 12 px: Chromium gives a finger's touch to what it nearly touches)
EMPTY_CELL = """() => { const r = document.getElementById('board-wrap').getBoundingClientRect();
  const mx = (r.left + r.right) / 2, my = (r.top + r.bottom) / 2;
  const sea = (x, y) => { const e = document.elementFromPoint(x, y); return e && e.closest('#board') && !e.closest('.island, .hit'); };
  let best = null;
  for (let y = r.top + 20; y < r.bottom - 20; y += 7) for (let x = r.left + 20; x < r.right - 20; x += 7) {
    if ([[0, 0], [12, 0], [-12, 0], [0, 12], [0, -12], [9, 9], [-9, 9], [9, -9], [-9, -9]]
          .every(([dx, dy]) => sea(x + dx, y + dy)) &&
        (!best || Math.hypot(x - mx, y - my) < Math.hypot(best[0] - mx, best[1] - my))) best = [x, y]; }
  return best; }"""


def test_pinch_zooms_two_fingers_pan_and_a_move_keeps_both(browser, server):
    page, errors, cdp = touch_page(browser, server, 390, 844)
    fit = cell(page)
    frame = page.locator("#board-wrap").bounding_box()
    mx, my = frame["x"] + frame["width"] / 2, frame["y"] + frame["height"] / 2
    point = page.evaluate(f"(() => {{ const b = document.getElementById('board').getBoundingClientRect(); "
                          f"return [({mx} - b.left) / b.width, ({my} - b.top) / b.height]; }})()")
    two_fingers(cdp, [(mx - 40, my), (mx + 40, my)], [(mx - 65, my), (mx + 65, my)])
    assert cell(page) == pytest.approx(1.625 * fit, rel=0.06)      # the fingers spread 1.625 times as far
    after = page.evaluate(f"(() => {{ const b = document.getElementById('board').getBoundingClientRect(); "
                          f"return [({mx} - b.left) / b.width, ({my} - b.top) / b.height]; }})()")
    assert after[0] == pytest.approx(point[0], abs=0.02)           # the board's point under the fingers stays
    page.wait_for_selector("#more:not([hidden])")                  # part of the board is out of view, and said so
    # a move keeps the zoom and the position
    pair = page.evaluate(VISIBLE_PAIR)
    assert pair, "no two islands of a row in view"
    zoom, place = cell(page), scroll(page)
    tap(cdp, centre(island(page, *pair[0])))
    tap(cdp, centre(island(page, *pair[1])))
    assert page.locator("#board .bridge").count() == 1, status(page)
    assert cell(page) == zoom and scroll(page) == place
    # (the frame grows to the screen's height as the board does; once it has, the point stays both ways)
    point = after
    two_fingers(cdp, [(mx - 40, my), (mx + 40, my)], [(mx - 48, my), (mx + 48, my)])
    after = page.evaluate(f"(() => {{ const b = document.getElementById('board').getBoundingClientRect(); "
                          f"return [({mx} - b.left) / b.width, ({my} - b.top) / b.height]; }})()")
    assert cell(page) == pytest.approx(1.95 * fit, rel=0.06) and after == pytest.approx(point, abs=0.02)
    zoom = cell(page)
    # two fingers moved together pan the board
    before = scroll(page)
    room = page.eval_on_selector("#board-wrap", "w => w.scrollHeight - w.clientHeight - w.scrollTop")
    up = 50 if room >= 60 else -50                                  # the fingers move up: the board scrolls down
    two_fingers(cdp, [(mx - 60, my), (mx + 60, my)], [(mx - 60, my - up), (mx + 60, my - up)])
    assert scroll(page)[1] - before[1] == pytest.approx(up, abs=4), (before, scroll(page), room)
    assert abs(scroll(page)[0] - before[0]) <= 4
    assert cell(page) == zoom
    # one finger off the islands pans too: from an empty cell
    empty = page.evaluate(EMPTY_CELL)
    assert empty, "no empty cell in view"
    before = scroll(page)
    room = page.eval_on_selector("#board-wrap", "w => w.scrollWidth - w.clientWidth - w.scrollLeft")
    left = 50 if room >= 60 else -50
    drag(cdp, empty, (empty[0] - left, empty[1]))
    assert scroll(page)[0] - before[0] == pytest.approx(left, abs=4)
    assert page.locator("#board .bridge").count() == 1
    assert errors == []


def test_a_15x15_fills_a_320_px_screen_and_named_buttons_show(browser, server):
    from test_web_phone import big_puzzle

    page, errors, cdp = touch_page(browser, server, 320, 640, fragment=json_link(big_puzzle(15)))
    board = page.locator("#board").bounding_box()
    assert board["width"] >= 290 and board["y"] + board["height"] <= 640
    assert one_row(page) and page.is_visible("#menu-button")
    for kept in ("timer", "undo", "hint"):                      # what matters most stays in the row
        assert page.locator(f"#tools > #{kept}").is_visible(), kept
    # the folded tools are in the menu, and work from there
    tap(cdp, centre(page.locator("#menu-button")))
    assert page.is_visible("#menu #reveal") and page.is_visible("#menu #errors")
    page.keyboard.press("Escape")
    assert page.is_hidden("#menu")
    page.keyboard.press("m")                                    # M opens it too
    assert page.is_visible("#menu")
    page.keyboard.press("Escape")
    # Ctrl+wheel (a trackpad's pinch) zooms around the pointer
    fit = cell(page)
    page.mouse.move(board["x"] + 100, board["y"] + 100)
    page.keyboard.down("Control")
    page.mouse.wheel(0, -300)
    page.keyboard.up("Control")
    page.wait_for_function(f"+document.getElementById('board').dataset.cell > {fit * 1.5}")
    assert errors == []


@pytest.mark.slow
def test_a_25x25_is_played_to_the_end_by_touch_with_44_px_targets(browser, server):
    from conftest import random_puzzle
    from hashikit.formats.jsonfmt import puzzle_data

    puzzle, solution = random_puzzle(25, 25, 7)
    page, errors, cdp = touch_page(browser, server, 390, 844, fragment=json_link(puzzle_data(puzzle)))
    frame = page.locator("#board-wrap").bounding_box()
    mx, my = frame["x"] + frame["width"] / 2, frame["y"] + frame["height"] / 2
    while cell(page) < 46:                                   # pinch until a cell is 46 px
        two_fingers(cdp, [(mx - 30, my), (mx + 30, my)], [(mx - 60, my), (mx + 60, my)], steps=4)
    sizes = []

    def bring(r, c):
        """Pan (two fingers) until island (r, c) is wholly inside the frame, its middle clear of the
        Fit button of the cue at the foot of the screen (the cue's words let taps through)."""
        for _ in range(12):
            frame = page.locator("#board-wrap").bounding_box()
            box = island(page, r, c).bounding_box()
            left, top = frame["x"] + 1, frame["y"] + 1          # inside its border
            right, bottom = frame["x"] + frame["width"] - 1, frame["y"] + frame["height"] - 1
            dx = left - box["x"] if box["x"] < left else min(0, right - box["x"] - box["width"])
            dy = top - box["y"] if box["y"] < top else min(0, bottom - box["y"] - box["height"])
            x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
            fit = page.locator("#more-fit").bounding_box() if page.is_visible("#more") else None
            if abs(dx) < 1 and abs(dy) < 1 and fit and fit["x"] - 4 <= x <= fit["x"] + fit["width"] + 4 \
                    and fit["y"] - 4 <= y <= fit["y"] + fit["height"] + 4:
                dx = -(fit["width"] + 12) if x > mx else fit["width"] + 12  # from under the button, sideways
            elif abs(dx) < 1 and abs(dy) < 1:
                return x, y
            dx, dy = (max(-150, min(150, d + (12 if d > 0 else -12 if d < 0 else 0))) for d in (dx, dy))
            x0, y0 = mx - dx / 2, my - dy / 2
            two_fingers(cdp, [(x0 - 40, y0), (x0 + 40, y0)], [(x0 - 40 + dx, y0 + dy), (x0 + 40 + dx, y0 + dy)], steps=4)
        raise AssertionError(f"island {r, c} not brought into view: {box} in {frame}, scrolled {scroll(page)}")

    for ((r1, c1), (r2, c2)), k in solution:
        for n in range(k):
            for r, c in ((r1, c1), (r2, c2)):
                x, y = bring(r, c)
                box = island(page, r, c).bounding_box()
                sizes.append(min(box["width"], box["height"]))
                tap(cdp, (x, y))
            assert f"row {r2 + 1}, column {c2 + 1}." in status(page), (r1, c1, r2, c2, n, status(page))
    laid = page.evaluate("""async () => { const { state } = await import('/static/store.js');
      const g = state.graph; return g.links.map((l, k) => [g.islands[l.a].r, g.islands[l.a].c, g.islands[l.b].r,
        g.islands[l.b].c, state.position.counts[k]]).filter(x => x[4]); }""")
    assert sorted(map(tuple, laid)) == sorted(tuple(b) for b in solution.to_list()), status(page)
    page.wait_for_selector("#banner:not([hidden])", timeout=15000)
    assert "Solved" in page.locator("#banner").inner_text()
    assert min(sizes) >= 44, min(sizes)
    assert errors == []
