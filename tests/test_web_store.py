"""The page's modules and its one state (hashikit/web/static).

Read as text: each module imports only modules on a floor below its own (the table below, which
ARCHITECTURE.md shows), the server is asked only in server.js, the state is written only in store.js,
and the page's source names no level and carries no limit.  In Chromium: the state refuses a field
written or added from outside, holds no DOM node after play, and the forms follow whatever the
server's limits document says (or are off when it cannot be read).  The server and browser are
those of tests/test_web_e2e.py.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from test_web_e2e import PUZZLE, browser, json_link, lay, open_page, server, status, tool  # noqa: F401

from hashikit.model import LEVELS

STATIC = Path(__file__).resolve().parents[1] / "hashikit" / "web" / "static"

#: the page's floors, bottom up: a module imports only modules of lower floors
FLOORS = {
    # 0: the ground, importing no page module
    "dom.js": 0, "referee.js": 0, "server.js": 0, "share.js": 0, "storage.js": 0, "words.js": 0,
    # 1: the state
    "store.js": 1, "draw.js": 1,
    # 2: views and services that follow the state
    "messages.js": 2, "board.js": 2, "zoom.js": 2, "fold.js": 2, "clock.js": 2, "best.js": 2, "saved.js": 2,
    "solution.js": 2,
    # 3: actions that change it
    "moves.js": 3, "check.js": 3, "tools.js": 3, "load.js": 3, "build.js": 3, "sheets.js": 3,
    # 4: what the player's input starts
    "mode.js": 4, "input.js": 4, "picture.js": 4, "daily.js": 4,
    # 5: the page's start
    "app.js": 5,
}

IMPORT = re.compile(r'^import (?:[^;]*? from )?"\./([\w-]+\.js)";', re.M)


def source(name: str) -> str:
    return (STATIC / name).read_text(encoding="utf-8")


def code(name: str) -> str:
    """A module without its comments (// to the end of a line, outside strings and templates)."""
    return re.sub(r'("(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`)|//[^\n]*', lambda m: m.group(1) or "", source(name))


def test_every_module_has_a_floor_and_imports_only_lower_floors():
    modules = {p.name for p in STATIC.glob("*.js")}
    assert modules == set(FLOORS), f"modules without a floor: {sorted(modules - set(FLOORS))}; " \
                                   f"floors without a module: {sorted(set(FLOORS) - modules)}"
    for name in modules:
        for imported in IMPORT.findall(source(name)):
            assert FLOORS[imported] < FLOORS[name], f"{name} (floor {FLOORS[name]}) imports {imported} " \
                                                    f"(floor {FLOORS[imported]})"


def test_the_server_is_asked_in_server_js_only_and_the_state_written_in_store_js_only():
    for name in FLOORS:
        text = code(name)
        if name != "server.js":
            assert not re.search(r"\bfetch\(|/api/", text), f"{name} asks the server itself"
        if name != "store.js":
            written = re.findall(r"\bstate(?:\.\w+)+\s*(?:[-+*/]?=(?!=)|\+\+|--)", text)
            assert not written, f"{name} writes the state: {written}"
            assert not re.search(r"Object\.assign\(\s*state\b", text), f"{name} writes the state"


def test_the_pages_source_names_no_level_and_carries_no_limit():
    for path in [*STATIC.glob("*.js"), STATIC / "index.html"]:
        text = path.read_text(encoding="utf-8")
        for level in LEVELS:
            assert not re.search(rf"\b{level}\b", text, re.I), f"{path.name} names the level {level}"
    html = source("index.html")
    assert not re.search(r"<input[^>]*\b(?:min|max)=", html), "index.html gives an input a range"
    assert "MAX_FILE" not in code("app.js")


# ------------------------------------------------------------------ in the browser
def test_a_loop_in_the_no_loops_variant_is_marked_and_named(browser, server):
    square = {"rows": 3, "cols": 3, "maxbridges": 2, "no_loops": True,
              "islands": [[0, 0, 2], [0, 2, 2], [2, 0, 2], [2, 2, 2]]}
    page, errors = open_page(browser, server, fragment=json_link(square))
    for r1, c1, r2, c2 in ((0, 0, 0, 2), (0, 2, 2, 2), (2, 2, 2, 0)):
        lay(page, r1, c1, r2, c2)
    assert page.locator("#board .bridge.err").count() == 0
    lay(page, 2, 0, 0, 0)
    assert page.locator("#board .bridge.err").count() == 4
    page.wait_for_function("document.getElementById('status').textContent.includes('loop')", timeout=10000)
    assert "close a loop" in status(page) and page.locator("#banner").is_hidden()
    assert errors == []


def test_the_state_refuses_outside_writes_and_holds_no_dom(browser, server):
    page, errors = open_page(browser, server)
    lay(page, 1, 1, 1, 4)
    tool(page, "hint").click()
    page.wait_for_selector(".status.hinted", timeout=10000)
    refused = page.evaluate("""async () => {
      const { state } = await import('/static/store.js');
      const tries = { caps: () => { state.caps = new Map(); }, mode: () => { state.mode = 'build'; },
                      nested: () => { state.build.rows = 3; }, remove: () => { delete state.puzzle; } };
      return Object.fromEntries(Object.entries(tries).map(([k, f]) => {
        try { f(); return [k, false]; } catch (e) { return [k, e instanceof TypeError]; } }));
    }""")
    assert refused == {"caps": True, "mode": True, "nested": True, "remove": True}
    found = page.evaluate("""async () => {
      const { state } = await import('/static/store.js');
      const seen = new Set(), nodes = [];
      const walk = (v, path) => {
        if (!v || typeof v !== 'object' || seen.has(v)) return;
        seen.add(v);
        if (v instanceof Node || v instanceof EventTarget) { nodes.push(path); return; }
        const items = v instanceof Map ? [...v].map(([k, x]) => [String(k), x])
          : v instanceof Set ? [...v].map((x, i) => [String(i), x]) : Object.entries(v);
        for (const [k, x] of items) walk(x, path + '.' + k);
      };
      walk(state, 'state');
      return { nodes, fields: Object.keys(state).length, islands: state.graph.islands.length,
               bridges: state.position.counts.reduce((a, b) => a + b, 0), hints: state.hints };
    }""")
    assert found["nodes"] == [] and found["islands"] == 12 and found["bridges"] == 1 and found["hints"] == 1
    assert errors == []


def _limits(server):
    import httpx

    return httpx.get(f"{server}/api/limits").json()


def _page_with_limits(browser, server, answer):
    ctx = browser.new_context(viewport={"width": 900, "height": 820})
    ctx.route("**/api/limits", answer)
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{server}/#p={PUZZLE}")
    page.wait_for_selector("body[data-ready=true]", timeout=15000)
    page.wait_for_selector("#board .island", timeout=15000)
    return page, errors


def test_the_forms_follow_the_limits_document(browser, server):
    doc = _limits(server)
    doc.update(min_side=3, max_side=30, min_maxbridges=2, max_maxbridges=5, max_input_bytes=5000)
    doc["generate"].update(levels=["gentle", "fierce", "wicked"], default_level="wicked", min_side=4, max_side=12,
                           default_side=5, maxbridges=[1, 3], default_maxbridges=3, min_density=0.1,
                           max_density=0.4, default_density=0.3, time_limit=9, seeds=[10, 99], allow_adjacent=False)
    page, errors = _page_with_limits(browser, server, lambda route: route.fulfill(json=doc))
    options = page.eval_on_selector_all("#gen-difficulty option", "os => os.map(o => o.value)")
    assert options == ["gentle", "fierce", "wicked"] and page.input_value("#gen-difficulty") == "wicked"
    attrs = lambda sel: [page.get_attribute(sel, a) for a in ("min", "max")]  # noqa: E731
    assert attrs("#gen-rows") == attrs("#gen-cols") == ["4", "12"]
    assert page.input_value("#gen-rows") == page.input_value("#gen-cols") == "5"
    assert attrs("#gen-mb") == ["1", "3"] and page.input_value("#gen-mb") == "3"
    assert attrs("#gen-density") == ["0.1", "0.4"] and "0.3" in page.get_attribute("#gen-density", "placeholder")
    assert page.locator(".opt-adjacent").is_hidden() and page.locator(".opt-noloops").is_visible()
    assert attrs("#blank-rows") == ["3", "30"] and attrs("#blank-mb") == ["2", "5"]
    assert page.locator("#gen-note").inner_text() == "Sides 4 to 12; a generation may take up to 9 s."
    page.fill("#gen-seed", "100")
    page.click("#generate")
    assert status(page) == "The seed must be a whole number from 10 to 99, or empty for a random one."
    page.fill("#gen-rows", "13")
    assert page.eval_on_selector("#gen-rows", "e => e.validity.rangeOverflow")
    page.set_input_files("#file", files=[{"name": "big.txt", "mimeType": "text/plain", "buffer": b"." * 6000}])
    assert status(page) == "big.txt is 6000 bytes; the limit is 5000."
    assert errors == []


def test_the_generators_options_reach_the_server(browser, server):
    page, errors = open_page(browser, server)
    sent = []
    page.route("**/api/generate", lambda route: (sent.append(route.request.post_data_json), route.continue_()))
    page.fill("#gen-rows", "5")
    page.fill("#gen-cols", "6")
    page.select_option("#gen-difficulty", "easy")
    page.check("#gen-adjacent")
    page.fill("#gen-seed", "7")
    page.click("#generate")
    page.wait_for_function("document.getElementById('status').textContent.startsWith('A new')", timeout=20000)
    assert sent == [{"difficulty": "easy", "rows": 5, "cols": 6, "seed": 7, "maxbridges": 2, "allow_adjacent": True}]
    assert page.get_attribute("#board", "viewBox") == "0 0 240 200"
    assert errors == []


def test_unreadable_limits_turn_the_generator_off_and_the_game_plays_on(browser, server):
    page, errors = _page_with_limits(browser, server, lambda route: route.fulfill(status=500, body="down"))
    assert page.is_disabled("#generate") and page.is_disabled("#blank")
    assert "could not be read" in page.locator("#gen-note").inner_text()
    lay(page, 1, 1, 1, 4)
    assert page.locator("#board .bridge").count() == 1
    assert errors == []


def test_limits_the_page_reads_are_fields_of_the_limits_document(server):
    """Every field of the limits document the page's source reads exists in the document."""
    doc = _limits(server)
    read = set()
    for name in FLOORS:
        read |= set(re.findall(r"\bstate\.limits\??\.(\w+)", code(name))) | set(re.findall(r"\blim\??\.(\w+)", code(name)))
        read |= {f"generate.{f}" for f in re.findall(r"\bg\??\.(\w+)", code("load.js"))} if name == "load.js" else set()
    for field in sorted(read):
        top, _, sub = field.partition(".")
        assert top in doc and (not sub or sub in doc[top]), f"the page reads {field}, which /api/limits does not send"
