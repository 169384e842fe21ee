"""Print sheets from the page: N puzzles a page (1, 2, 4, 6), new ones at a chosen level and size or
the games kept in the browser, the solutions on the pages after, laid out by `hashikit book`'s engine
(POST /api/sheets) as a PDF the page downloads or pages for the browser's print.

The PDF is read back as the book's is (pdfplumber, tests/test_book.py's readers): every board's
numbers and bridges rebuilt from what is printed, each puzzle proved unique here again, each printed
solution that puzzle's and passed by the rule checker, nothing outside the printable area.
"""

from __future__ import annotations

import pytest

from test_book import BORDER, LABEL, PT, inside, read_pdf  # noqa: F401
from hashikit.render.style import PRINT
from test_web_e2e import PUZZLE, browser, open_page, server, status  # noqa: F401

from hashikit.checker import check
from hashikit.model import Puzzle, Solution
from hashikit.publish import layout
from hashikit.solvers import solve


def boards(page):
    """Each captioned board framed on a PDF page: its label, its islands and bridges read back."""
    from collections import Counter

    from test_book import colour

    out = []
    for frame in page["rects"]:
        above = [w for w in page["words"] if LABEL.match(w["text"]) and 0 <= frame["top"] - w["bottom"] < 12
                 and abs(w["x0"] - frame["x0"]) < 2]
        numbers = [w for w in page["words"] if w["text"].isdigit() and inside(w, frame)]
        if len(above) != 1 or not numbers:
            continue
        # the cell, from the islands' circles (their radius a fraction of a cell, the print style's)
        circles = [c for c in page["curves"] if inside(c, frame)]
        cell = max(c["width"] for c in circles) / (2 * PRINT.island)
        ox, oy = frame["x0"] + (BORDER / 2 + 0.5) * cell, frame["top"] + (BORDER / 2 + 0.5) * cell
        cols = round((frame["width"] / cell) - BORDER)
        rows = round((frame["height"] / cell) - BORDER)
        islands = [(round(((w["top"] + w["bottom"]) / 2 - oy) / cell), round(((w["x0"] + w["x1"]) / 2 - ox) / cell),
                    int(w["text"])) for w in numbers]
        lines = Counter()
        for ln in page["lines"]:
            if max(colour(ln["stroking_color"])) < 0.6 and inside(ln, frame):
                a = (round((ln["top"] - oy) / cell), round((ln["x0"] - ox) / cell))
                b = (round((ln["bottom"] - oy) / cell), round((ln["x1"] - ox) / cell))
                lines[(min(a, b), max(a, b))] += 1
        out.append({"label": above[0]["text"], "rows": rows, "cols": cols, "islands": sorted(islands),
                    "bridges": Solution(dict(lines)), "numbers": numbers})
    return out


def check_sheets(path, count, per_page, paper="a4"):
    """The sheets' PDF read back: pages of `per_page` puzzles, then as many solution pages; each puzzle
    unique (proved here), each solution its own and passed by the checker; all inside the paper's
    printable area.  Returns the puzzles read."""
    pages = read_pdf(path)
    pw, ph = layout.PAPERS[paper]
    safe = {"x0": layout.SAFE * PT, "top": layout.SAFE * PT, "x1": (pw - layout.SAFE) * PT,
            "bottom": (ph - layout.SAFE) * PT}
    n = -(-count // per_page)
    assert len(pages) == 2 * n
    puzzles, answers = {}, {}
    for k, page in enumerate(pages):
        assert round(page["width"] / PT, 1) == pw and round(page["height"] / PT, 1) == ph
        for what in ("chars", "rects", "curves", "lines"):
            assert all(inside(obj, safe, 0.01) for obj in page[what]), f"page {k + 1}: outside the printable area"
        found = boards(page)
        assert len(found) == min(per_page, count - (k % n) * per_page), f"page {k + 1}"
        for b in found:
            (answers if k >= n else puzzles)[b["label"]] = b
        assert all(min(w["size"] for w in b["numbers"]) >= layout.MIN_PT["puzzle" if k < n else "solution"] - 0.05
                   for b in found)
    assert set(puzzles) == set(answers) and len(puzzles) == count
    read = []
    for label, b in puzzles.items():
        puzzle = Puzzle(b["rows"], b["cols"], b["islands"])
        result = solve(puzzle, max_solutions=2)
        assert result.unique is True, label
        assert answers[label]["islands"] == b["islands"] and not b["bridges"].bridges
        assert answers[label]["bridges"].bridges == result.solution.bridges, label
        assert check(puzzle, answers[label]["bridges"]).ok
        read.append(puzzle)
    return read


def test_four_a_page_with_solutions_downloaded_from_the_page_and_read_back(browser, server, tmp_path):
    page, errors = open_page(browser, server, width=1280, height=900)
    assert page.is_visible("#sheets-card")
    assert page.eval_on_selector_all("#sheets-per-page option", "os => os.map(o => +o.value)") == [1, 2, 4, 6]
    page.select_option("#sheets-per-page", "4")
    page.fill("#sheets-pages", "1")
    page.fill("#sheets-side", "6")
    page.select_option("#sheets-level", "easy")
    with page.expect_download(timeout=60000) as info:
        page.click("#sheets-pdf")
    path = tmp_path / "sheets.pdf"
    info.value.save_as(path)
    assert info.value.suggested_filename == "hashi-sheets.pdf"
    read = check_sheets(path, 4, 4)
    assert all((p.rows, p.cols) == (6, 6) for p in read)
    assert "Downloaded" in page.locator("#sheets-note").inner_text()
    assert errors == []


@pytest.mark.slow
def test_saved_games_printed_two_a_page_through_the_browsers_print(browser, server):
    page, errors = open_page(browser, server)
    page.fill("#text", "2.2\n...\n2.2\n")                     # two saved games: this one and the example
    page.click("#load")
    page.wait_for_function("document.querySelectorAll('#board .island').length === 4")
    page.locator("#board .island").first.click()            # a move, so the game is saved
    page.locator("#board .island").nth(1).click()
    page.evaluate("() => { window.print = () => { window.__printed = true; }; }")
    page.select_option("#sheets-source", "saved")
    assert page.is_hidden("#sheets-new")
    page.select_option("#sheets-per-page", "2")
    page.click("#sheets-print")
    page.wait_for_function("window.__printed === true", timeout=30000)
    sheets = page.locator("#print-solution .sheet")
    assert sheets.count() == 2                                  # the puzzles' page, the solutions' page
    page.emulate_media(media="print")
    assert sheets.first.is_visible() and page.evaluate("getComputedStyle(document.getElementById('board-wrap')).display") == "none"
    assert page.evaluate("getComputedStyle(document.querySelector('#print-solution .sheet')).page") == "sheet-a4"
    assert sheets.nth(1).locator("text=Solutions").count() == 1
    assert errors == []


def test_the_api_refuses_what_cannot_be_printed_and_states_its_sheets_in_the_limits():
    from starlette.testclient import TestClient

    from hashikit.web.app import create_app

    with TestClient(create_app(pool_size=0)) as client:
        assert client.get("/api/limits").json()["sheets"] == {"per_page": [1, 2, 4, 6], "max_puzzles": 24,
                                                              "papers": ["a4", "letter"]}
        puzzle = client.post("/api/parse", json={"text": PUZZLE}).json()["puzzle"]
        two = {"rows": 3, "cols": 3, "maxbridges": 2, "islands": [[0, 0, 3], [0, 2, 3], [2, 0, 3], [2, 2, 3]]}
        answer = client.post("/api/sheets", json={"puzzles": [puzzle, two]})
        assert answer.status_code == 400 and "puzzle 2: has more than one solution" in answer.json()["error"]
        assert "sheets" in answer.json()["error"]
        assert client.post("/api/sheets", json={"puzzles": [puzzle], "per_page": 3}).status_code == 400
        assert client.post("/api/sheets", json={"puzzles": [puzzle] * 25}).status_code == 400
        assert client.post("/api/sheets", json={"puzzles": []}).status_code == 400
        svg = client.post("/api/sheets", json={"puzzles": [puzzle], "per_page": 1, "solutions": False,
                                               "format": "svg"}).json()
        assert len(svg["pages"]) == 1 and svg["solutions_from"] == 1 and svg["pages"][0].lstrip().startswith("<?xml")


@pytest.mark.slow
@pytest.mark.parametrize("per_page", [1, 2, 6])
def test_each_count_a_page_reads_back(tmp_path, per_page):
    from hashikit.formats import read_text
    from hashikit.publish.sheets import make_sheets

    puzzle = read_text(PUZZLE, "tatham").puzzle
    path = tmp_path / "sheets.pdf"
    path.write_bytes(make_sheets([puzzle] * per_page, per_page, True, "letter"))
    assert len(check_sheets(path, per_page, per_page, "letter")) == per_page   # one puzzle, per_page times
