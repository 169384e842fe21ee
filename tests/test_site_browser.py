"""The site that needs no server, played in Chromium: ``hashikit site`` written once per session,
served by ``python -m http.server`` (no hashikit server anywhere), Debian's Chromium driven by
Playwright as in tests/test_web_e2e.py.

The default run opens the site once (Python starts in the page: the first visit's wait) and, in
that one page, at a desktop's size by mouse and at a phone's (390 px) by touch: generates at the
three levels it offers, asks for a hint in three presses, Check and Undo, plays the puzzle to the
end and reloads; every request stays on the site's own address.  The slow run adds the rest of the promise: a shared link opened
in a fresh browser, the network cut (``set_offline``) then a reload, play and a new puzzle, the
puzzle of the day the same in two browsers and yesterday's a click away.
"""

from __future__ import annotations

import json
import re

import pytest

from hashikit.checker import check
from hashikit.model import LEVELS, Puzzle
from hashikit.limits import SITE_LEVEL_COUNT
from hashikit.solvers import solve
from site_build import built_site, static_server
from test_web_e2e import ARGS, CHROMIUM, browser, serve  # noqa: F401

HERE_LEVELS = LEVELS[:SITE_LEVEL_COUNT]
#: the first visit starts Python in the page: generous on a shared, loaded machine
FIRST_VISIT_MS = 180_000


@pytest.fixture(scope="module")
def site_url(tmp_path_factory):
    yield from static_server(built_site(tmp_path_factory))


@pytest.fixture(scope="module")
def visit(browser, site_url):
    """One visit to the site (a touch screen, at a desktop's size): Python starts once for the
    default run's tests."""
    page, seen = open_site(browser, site_url)
    yield page, seen
    page.context.close()


def open_site(browser, url, fragment="", **context):
    """A fresh browser context on the site, waiting for a board; every request's address and the
    console's errors are collected."""
    ctx = browser.new_context(viewport=context.pop("viewport", {"width": 1000, "height": 900}), has_touch=True,
                              **context)
    page = ctx.new_page()
    seen = {"requests": [], "errors": []}
    page.on("request", lambda r: seen["requests"].append(r.url))
    page.on("pageerror", lambda exc: seen["errors"].append(str(exc)))
    page.on("console", lambda m: seen["errors"].append(m.text) if m.type == "error" else None)
    page.goto(f"{url}/#{fragment}" if fragment else f"{url}/")
    page.wait_for_selector("body[data-ready=true]", timeout=FIRST_VISIT_MS)
    page.wait_for_selector("#board .island", timeout=FIRST_VISIT_MS)
    return page, seen


def quiet(seen, url) -> list[str]:
    """The console's errors, but for the one look for a hashikit server behind the page on a
    first visit (api/limits: a static host answers 404)."""
    return [e for e in seen["errors"] if not ("404" in e and "Failed to load resource" in e)]


def strangers(seen, url) -> list[str]:
    return [u for u in seen["requests"] if not u.startswith(url + "/") and not u.startswith(("data:", "blob:"))]


def page_state(page) -> dict:
    return page.evaluate("""async () => {
      const { state } = await import('./static/store.js');
      return { puzzle: state.puzzle, level: state.level, daily: state.daily, solved: state.solved,
               counts: [...state.position.counts], links: state.graph.links.map((l) => [l.a, l.b]),
               islands: state.graph.islands.map((s) => [s.r, s.c]) };
    }""")


def as_puzzle(p: dict) -> Puzzle:
    return Puzzle(p["rows"], p["cols"], [tuple(i) for i in p["islands"]], p.get("maxbridges", 2),
                  no_loops=bool(p.get("no_loops")))


def status(page) -> str:
    return page.locator("#status").inner_text()


def generate(page, level: str, side: int, seed: int | None = None, press=None) -> dict:
    page.fill("#gen-rows", str(side))
    page.fill("#gen-cols", str(side))
    page.select_option("#gen-difficulty", level)
    page.fill("#gen-seed", "" if seed is None else str(seed))
    (press or click)(page, "#generate")
    page.wait_for_function("document.getElementById('status').textContent.startsWith('A new')", timeout=60000)
    return page_state(page)


def click(page, selector):
    page.locator(selector).click()


def tap(page, selector):
    """A finger's tap on the control (the DevTools protocol's touch events)."""
    where = page.locator(selector)
    if not where.is_visible() and page.is_visible("#menu-button"):   # folded into More on a narrow screen
        tap(page, "#menu-button")
        page.wait_for_selector(f"#menu {selector}", state="visible")
    where.scroll_into_view_if_needed()
    box = where.bounding_box()
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def solution_moves(page) -> list[tuple[int, int, int, int, int]]:
    """The puzzle on the page, solved here (the SAT engine, proved unique): [(r1, c1, r2, c2, count)]."""
    puzzle = as_puzzle(page_state(page)["puzzle"])
    result = solve(puzzle, max_solutions=2)
    assert result.unique is True and check(puzzle, result.solution).ok
    return [(*p, *q, k) for (p, q), k in result.solution.bridges.items()]


def island_center(page, r, c):
    box = page.locator(f'#board .island[data-r="{r}"][data-c="{c}"]').bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def lay_by_mouse(page, moves):
    for r1, c1, r2, c2, k in moves:
        for _ in range(k):
            page.locator(f'#board .island[data-r="{r1}"][data-c="{c1}"]').click()
            page.locator(f'#board .island[data-r="{r2}"][data-c="{c2}"]').click()


def lay_by_touch(page, moves):
    """Tap one island, then the other, with touch events (the DevTools protocol's, as a finger's)."""
    for r1, c1, r2, c2, k in moves:
        for _ in range(k):
            for r, c in ((r1, c1), (r2, c2)):
                page.touchscreen.tap(*island_center(page, r, c))


# ------------------------------------------------------------------ the default run
def test_the_site_starts_on_the_puzzle_of_the_day_and_offers_only_what_it_does_alone(visit, site_url):
    page, seen = visit
    doc = json.loads(page.evaluate("fetch('limits.json').then((r) => r.text())"))
    daily = doc["site"]["daily"]
    first = page_state(page)  # no link, no saved game: the puzzle of the day
    assert first["daily"] and first["level"] == daily["level"]
    assert (first["puzzle"]["rows"], first["puzzle"]["cols"]) == (daily["rows"], daily["cols"])
    assert page.locator("#daily-card").is_visible() and page.locator("#picture-needs").is_visible()
    assert page.locator("#picture-file").is_disabled()
    assert page.eval_on_selector_all("#gen-difficulty option", "os => os.map((o) => o.value)") == list(HERE_LEVELS)
    assert strangers(seen, site_url) == [] and quiet(seen, site_url) == []


@pytest.mark.parametrize("viewport, press, lay", [
    ({"width": 1000, "height": 900}, click, lay_by_mouse),
    ({"width": 390, "height": 844}, tap, lay_by_touch),
], ids=["desktop-by-mouse", "phone-by-touch"])
def test_the_site_generates_plays_hints_checks_undoes_and_reloads_with_no_server(visit, site_url, viewport, press,
                                                                                   lay):
    """At each size, with the input a person uses there (a mouse on a desktop, a finger on a
    phone): a puzzle at each level the page makes, a hint in three presses, Check, Undo, the puzzle
    played to the end, and a reload that brings the finished game back."""
    page, seen = visit
    page.set_viewport_size(viewport)
    for level in HERE_LEVELS:
        made = generate(page, level, 7, press=press)
        assert made["level"] == level and made["daily"] is None and f"l={level}" in page.url
        assert status(page).startswith(f"A new {level} puzzle")
    # the last one: a hint in three presses (the place, the reason, the move), Check, Undo
    for stage in range(3):
        press(page, "#hint")
        page.wait_for_selector(".status.hinted", timeout=30000)
        if stage == 1:
            assert re.match(r"Hint \(\w+\): ", status(page))
    laid = sum(page_state(page)["counts"])
    marks = page.locator("#board .mark").count()
    assert laid + marks >= 1
    press(page, "#check")
    page.wait_for_function("document.getElementById('status').textContent.startsWith('No mistakes so far')",
                           timeout=30000)
    press(page, "#undo")
    assert sum(page_state(page)["counts"]) == 0 and page.locator("#board .mark").count() == 0
    moves = solution_moves(page)
    lay(page, moves)
    page.wait_for_selector("#banner:not([hidden])", timeout=30000)
    state = page_state(page)
    assert state["solved"] and sum(state["counts"]) == sum(k for *_, k in moves)
    # a reload plays the same game at once (the saved game; the puzzle's board kept in the browser)
    page.reload()
    page.wait_for_selector("#board .island", timeout=10000)
    after = page_state(page)
    assert after["puzzle"] == state["puzzle"] and after["counts"] == state["counts"] and after["solved"]
    assert strangers(seen, site_url) == [] and quiet(seen, site_url) == []


# ------------------------------------------------------------------ the slow run
@pytest.mark.slow
def test_a_shared_link_opens_in_a_fresh_browser_with_the_game_so_far(browser, site_url):
    page, _ = open_site(browser, site_url)
    generate(page, HERE_LEVELS[1], 8)
    moves = solution_moves(page)
    lay_by_mouse(page, moves[:3])
    page.check("#share-progress")
    link = page.input_value("#share-url")
    assert link.startswith(site_url + "/#p=") and "&b=" in link
    shared = page_state(page)
    other, seen = open_site(browser, site_url, fragment=link.split("#", 1)[1])
    got = page_state(other)
    assert got["puzzle"] == shared["puzzle"] and got["counts"] == shared["counts"] and got["level"] == shared["level"]
    assert strangers(seen, site_url) == []


@pytest.mark.slow
def test_offline_after_the_first_visit_it_reloads_plays_and_generates(browser, site_url):
    page, seen = open_site(browser, site_url)
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=60000)
    generate(page, HERE_LEVELS[0], 6)
    moves = solution_moves(page)
    page.context.set_offline(True)
    try:
        page.reload()
        page.wait_for_selector("#board .island", timeout=10000)
        lay_by_mouse(page, moves)
        page.wait_for_selector("#banner:not([hidden])", timeout=FIRST_VISIT_MS)  # Check waits for Python
        made = generate(page, HERE_LEVELS[1], 7)
        assert made["level"] == HERE_LEVELS[1]
        page.click("#hint")
        page.wait_for_selector(".status.hinted", timeout=30000)
    finally:
        page.context.set_offline(False)


@pytest.mark.slow
def test_the_puzzle_of_the_day_is_the_same_in_two_browsers_and_yesterdays_is_a_click_away(browser, site_url):
    one, _ = open_site(browser, site_url)
    two, _ = open_site(browser, site_url)
    a, b = page_state(one), page_state(two)
    assert a["daily"] and a["daily"] == b["daily"] and a["puzzle"] == b["puzzle"]
    one.click("#daily-prev")
    one.wait_for_function(f"location.hash.includes('d=') && !location.hash.includes('d={a['daily']}')",
                          timeout=60000)
    yesterday = page_state(one)
    assert yesterday["daily"] < a["daily"] and yesterday["puzzle"] != a["puzzle"]
    assert yesterday["level"] == a["level"] and "Playing the puzzle of" in one.inner_text("#daily-text")
    two.goto(one.url)  # yesterday's, by its link
    two.wait_for_function(f"location.hash.includes('d={yesterday['daily']}')", timeout=60000)
    two.wait_for_timeout(300)
    assert page_state(two)["puzzle"] == yesterday["puzzle"] and page_state(two)["daily"] == yesterday["daily"]


@pytest.fixture(scope="module")
def site_with_server(tmp_path_factory):
    """The site's folder served with a hashikit server behind it (api/ sent to the app), as the
    README's nginx lines do, on a free port."""
    from starlette.staticfiles import StaticFiles

    from hashikit.web.app import create_app

    files = StaticFiles(directory=str(built_site(tmp_path_factory)), html=True)
    api = create_app(pool_size=0)

    async def both(scope, receive, send):
        target = api if scope["type"] == "http" and scope["path"].startswith("/api/") else files
        await target(scope, receive, send)

    yield from serve(both)


@pytest.mark.slow
def test_what_needs_a_server_is_offered_when_one_answers_the_site(browser, site_with_server):
    page, seen = open_site(browser, site_with_server)
    assert page.evaluate("fetch('api/limits').then((r) => r.status)") == 200
    assert page.locator("#picture-needs").is_hidden() and page.locator("#picture-file").is_enabled()
    offered = page.eval_on_selector_all("#gen-difficulty option", "os => os.map((o) => o.value)")
    assert offered == list(LEVELS)  # the server's levels, the hardest too
    made = generate(page, LEVELS[-1], 9, seed=1)  # beyond the page's own levels: the server makes it
    assert made["level"] == LEVELS[-1]
    assert any(u.endswith("/api/generate") for u in seen["requests"])
    big = generate(page, HERE_LEVELS[0], 20)  # beyond the page's own sides
    assert big["puzzle"]["rows"] == 20
