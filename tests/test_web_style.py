"""The page draws with the style table's sizes: in Chromium (the fixtures of test_web_e2e), its
islands' discs and selection rings measure what ``GET /api/style`` says, and paper drawings
(printing a puzzle from the page) take the table's bridge width and gap."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
pytest.importorskip("uvicorn", reason="the web extra (uvicorn) is not installed")

from test_web_e2e import browser, open_page, server  # noqa: E402,F401  (fixtures)

from hashikit.render.style import table  # noqa: E402

S = 40  # the page's SVG units per cell


def test_the_page_draws_its_islands_with_the_tables_sizes(browser, server):  # noqa: F811
    page, errors = open_page(browser, server)
    try:
        sizes = page.evaluate("fetch('/api/style').then(r => r.json())")["page"]
        assert sizes == table()["page"]
        disc = float(page.get_attribute("#board .island .disc", "r"))
        ring = float(page.get_attribute("#board .island .ring", "r"))
        inner = float(page.get_attribute("#board .island .inner", "r"))
        assert disc == pytest.approx(S * sizes["island"])
        assert ring == pytest.approx(S * (sizes["island"] + sizes["halo"]))
        assert inner == pytest.approx(S * (sizes["island"] - sizes["inner"]))
        paper = page.evaluate("""async () => {
            const { paperBoard } = await import('/static/draw.js');
            const board = paperBoard('t', { rows: 1, cols: 3 }, [{ r: 0, c: 0, n: 2 }, { r: 0, c: 2, n: 12 }],
                                     [{ a: { r: 0, c: 0 }, b: { r: 0, c: 2 }, h: true, n: 2 }]);
            const lines = [...board.querySelectorAll('line')].map(l => [+l.getAttribute('y1'), +l.getAttribute('stroke-width')]);
            const texts = [...board.querySelectorAll('text')].map(t => +t.getAttribute('font-size'));
            return { lines, texts };
        }""")
        (y1, w1), (y2, w2) = paper["lines"]
        assert abs(y2 - y1) == pytest.approx(S * sizes["pair"]) and w1 == pytest.approx(S * sizes["bridge"])
        assert paper["texts"] == [pytest.approx(S * sizes["number"]), pytest.approx(S * sizes["number_wide"])]
        assert not errors, errors
    finally:
        page.context.close()
