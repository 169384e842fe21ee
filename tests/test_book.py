"""Printable books, read back from the PDF (pdfplumber): every text's size and place, every board's
frame, islands and bridges.  The layout is checked from what is printed: nothing outside the
printable area, nothing overlapping, numbers at the minimum size, boards centred, one cell size per
section, the contents pointing at the right pages, and puzzle k's solution rebuilt from its printed
lines and passed by the rule checker."""

from __future__ import annotations

import re
import shutil
import subprocess
from collections import Counter, defaultdict

import pdfplumber
import pytest

from hashikit.model import LEVELS
from hashikit.publish import book, sources
from hashikit.publish import layout as layout_mod
from hashikit.publish.book import BookError, BookPuzzle, Options, layout, make_book, order, verify
from hashikit.publish.catalog import Catalog
from hashikit.checker import check
from hashikit.logic import grade
from hashikit.model import Puzzle, Solution
from hashikit.render.style import PRINT

from oracle import count_solutions

POPPLER = shutil.which("pdftoppm") and shutil.which("pdfinfo")
needs_poppler = pytest.mark.skipif(not POPPLER, reason="poppler-utils (pdftoppm, pdfinfo) not installed: "
                                                       "apt install poppler-utils")
PT = 72 / 25.4  # points per mm
BORDER = PRINT.border  # a board's margin around its cells, in cells
LABEL = re.compile(r"^[EMHX]\d{3,}$")


@pytest.fixture(scope="module")
def catalogue(tmp_path_factory):
    """Seven 6x6 puzzles over three levels (small enough for the brute-force oracle)."""
    from hashikit.generate import generate_unique

    path = tmp_path_factory.mktemp("book") / "c.db"
    with Catalog(path) as cat:
        for k, level in enumerate(("hard", "easy", "medium", "easy", "hard", "medium", "easy")):
            p, s, g = generate_unique(6, 6, level, seed=100 + k)
            assert cat.add(p, s, level=g.level, score=g.score, seed=100 + k)
    return path


def mixed(n15: int, n40: int, seed: int = 1, small: int = 15, levels=LEVELS) -> list[BookPuzzle]:
    """Puzzles of the four levels on 15x15 (``small``) and 40x40 boards, solved: the paper's generator
    (fast; its puzzles need not be unique, which the layout does not care about), levels in turn."""
    from hashikit.service import generate_paper
    from hashikit.solvers import solve

    items = []
    for k in range(n15 + n40):
        big = k >= n15
        side = 40 if big else small
        p = generate_paper(300 if big else side * side // 5, side, side, 50, 5, seed + k)
        items.append(BookPuzzle(p, levels[k % len(levels)], k, f"p{k}", solve(p).solution))
    return order(items)


# -- reading a PDF back ----------------------------------------------------------------------------

def read_pdf(path) -> list[dict]:
    """Per page: its words (text, size, box), frames (board rectangles), islands (circles) and lines."""
    pages = []
    with pdfplumber.open(path) as pdf:
        for page in pdf.pages:
            words = page.extract_words(extra_attrs=["size", "fontname"], use_text_flow=True)
            pages.append({"number": page.page_number, "width": page.width, "height": page.height,
                          "words": words, "chars": page.chars, "rects": page.rects, "curves": page.curves,
                          "lines": page.lines})
    return pages


def colour(value) -> tuple:
    """A colour as pdfplumber reads it, as a tuple: one level (grey), three (RGB) or four (CMYK);
    unset is the PDF's default, black in grey."""
    if value is None:
        return (0,)
    return tuple(value) if isinstance(value, (tuple, list)) else (value,)


def inside(obj, box, slack=0.5) -> bool:
    return (obj["x0"] >= box["x0"] - slack and obj["x1"] <= box["x1"] + slack
            and obj["top"] >= box["top"] - slack and obj["bottom"] <= box["bottom"] + slack)


def overlap(a, b) -> bool:
    return a["x0"] < b["x1"] and b["x0"] < a["x1"] and a["top"] < b["bottom"] and b["top"] < a["bottom"]


def boards_of(page: dict, by_label: dict[str, BookPuzzle]) -> list[dict]:
    """Each framed board on the page: its caption, cell size (pt), islands read from the printed
    numbers' places and bridges rebuilt from the printed lines (counted, parallel lines = a count)."""
    out = []
    for frame in page["rects"]:
        above = [w for w in page["words"] if LABEL.match(w["text"]) and 0 <= frame["top"] - w["bottom"] < 12
                 and abs(w["x0"] - frame["x0"]) < 2]
        assert len(above) == 1, f"page {page['number']}: a board without its caption"
        item = by_label[above[0]["text"]]
        cell = frame["width"] / (item.puzzle.cols + 2 * BORDER - 2 * BORDER / 2)
        ox = frame["x0"] + (BORDER / 2 + 0.5) * cell
        oy = frame["top"] + (BORDER / 2 + 0.5) * cell
        numbers = [w for w in page["words"] if w["text"].isdigit() and inside(w, frame)]
        islands = {(round(((w["top"] + w["bottom"]) / 2 - oy) / cell), round(((w["x0"] + w["x1"]) / 2 - ox) / cell),
                    int(w["text"])) for w in numbers}
        counts = Counter()
        for ln in page["lines"]:
            if max(colour(ln["stroking_color"])) < 0.6 and inside(ln, frame):  # dark: a bridge, not the grid
                a = (round((ln["top"] - oy) / cell), round((ln["x0"] - ox) / cell))
                b = (round((ln["bottom"] - oy) / cell), round((ln["x1"] - ox) / cell))
                counts[(min(a, b), max(a, b))] += 1
        out.append({"label": item.label, "item": item, "frame": frame, "caption": above[0], "cell": cell,
                    "islands": islands, "numbers": numbers, "bridges": Solution(dict(counts))})
    return out


def check_book(pdf_path, items: list[BookPuzzle], opts: Options, answers_path=None) -> dict:
    """Every rule a printed book keeps, read back; returns what it saw (for more checks)."""
    pages = read_pdf(pdf_path)
    answers = read_pdf(answers_path) if answers_path else []
    by_label = {i.label: i for i in items}
    pw, ph = book.PAPERS[opts.paper]
    safe = {"x0": book.SAFE * PT, "top": book.SAFE * PT, "x1": (pw - book.SAFE) * PT, "bottom": (ph - book.SAFE) * PT}
    seen = {"puzzle": defaultdict(int), "solution": defaultdict(int)}
    cells = defaultdict(set)
    headings = {}
    for doc, kind_default in ((pages, None), (answers, "solution")):
        for page in doc:
            assert round(page["width"] / PT, 1) == pw and round(page["height"] / PT, 1) == ph
            # nothing outside the printable area
            for what in ("chars", "rects", "curves", "lines"):
                for obj in page[what]:
                    assert inside(obj, safe, 0.01), f"page {page['number']}: {what[:-1]} outside the printable area"
            # no text below 5 pt anywhere
            assert all(c["size"] >= book.MIN_PT["solution"] - 0.05 for c in page["chars"])
            head = [w for w in page["words"] if w["top"] < book.TOP * PT and abs(w["size"] - book.HEADING_PT) < 0.01]
            heading = " ".join(w["text"] for w in head)
            kind = "solution" if heading.startswith("Solutions") else "puzzle" if heading.endswith("puzzles") else None
            if kind and doc is pages:
                headings.setdefault(heading, page["number"])
            boards = boards_of(page, by_label)
            assert bool(boards) == bool(kind), f"page {page['number']}: boards and heading disagree"
            for k, a in enumerate(boards):
                item = a["item"]
                seen[kind][a["label"]] += 1
                cells[(kind, item.level, item.puzzle.rows, item.puzzle.cols)].add(round(a["cell"], 2))
                # the numbers printed are the puzzle's, each in its own cell, at least the minimum size
                assert a["islands"] == {(i.row, i.col, i.number) for i in item.puzzle.islands}
                assert min(w["size"] for w in a["numbers"]) >= book.MIN_PT[kind] - 0.05
                # puzzle k's solution: rebuilt from the printed lines, the one the book proved
                if kind == "solution":
                    assert a["bridges"].bridges == item.solution.bridges
                    assert check(item.puzzle, a["bridges"]).ok
                else:
                    assert not a["bridges"].bridges
                # nothing overlaps: boards, and boards with any text that is not an island number
                for b in boards[k + 1:]:
                    assert not overlap(a["frame"], b["frame"])
                for w in page["words"]:
                    if w not in a["numbers"]:
                        assert not overlap(w, a["frame"]), f"page {page['number']}: {w['text']!r} on a board"
    labels = [i.label for i in items]
    assert all(seen["puzzle"][lb] == 1 for lb in labels) and sum(seen["puzzle"].values()) == len(items)
    if opts.solutions != "none":
        assert all(seen["solution"][lb] == 1 for lb in labels)
    else:
        assert not seen["solution"]
    # one cell size across a section
    assert all(len(v) == 1 for v in cells.values()), cells
    # the contents: one line per section (and Solutions), each pointing at its first page, a right-hand one
    contents = [p for p in pages if any(w["text"] == "Contents" for w in p["words"])]
    lines = defaultdict(list)
    for p in contents:
        for w in p["words"]:
            if w["text"] not in ("Contents", "(continued)"):
                lines[(p["number"], round(w["top"]))].append(w["text"])
    toc = {" ".join(t for t in words[:-1] if t != "." and not LABEL.match(t) and "-" not in t): int(words[-1])
           for words in lines.values() if len(words) > 1}  # (the page number is alone on its line)
    sections = book.sections(items)
    expected = {f"{s.name} puzzles" for s in sections} | ({"Solutions"} if opts.solutions == "book" else set())
    assert set(toc) == expected
    for name, number in toc.items():
        first = headings[name] if name != "Solutions" else min(n for h, n in headings.items() if h.startswith("Sol"))
        assert number == first and (number % 2 == 1 or not opts.recto)
    return {"pages": pages, "answers": answers, "toc": toc, "cells": cells}


# -- the books --------------------------------------------------------------------------------------

def test_a_mixed_book_keeps_every_print_rule(tmp_path):
    """15x15 and 40x40 boards of all four levels, default options: 40x40 goes one to a page (4 would
    print its numbers under 7 pt), 15x15 four to a page."""
    items = mixed(16, 4)
    opts = Options()
    pdf = tmp_path / "book.pdf"
    pages = layout(items, opts).pages
    book.write_pdf(pages, str(pdf), opts)
    seen = check_book(pdf, items, opts)
    plans = {row["section"]: row for row in layout(items, opts).sections}
    assert plans["Easy 15x15"]["per_page"] == 4 and plans["Easy 40x40"]["per_page"] == 1
    assert (plans["Easy 15x15"]["pt"], plans["Easy 40x40"]["pt"]) == (8.9, 7.1)  # as the README says
    # 40x40 one to a page: the board and its caption are centred in the page's content area
    line = 1.6 * book.CAPTION_PT["puzzle"] / PT
    centred = 0
    for page in seen["pages"]:
        words = {w["text"] for w in page["words"]}
        if {"40x40", "puzzles"} <= words and len(page["rects"]) == 1:
            (frame,) = page["rects"]
            x, y, w, h = layout_mod._content(page["number"], opts)
            assert abs((frame["x0"] + frame["x1"]) / 2 / PT - (x + w / 2)) < 0.2
            above, below = frame["top"] / PT - y, y + h - frame["bottom"] / PT
            assert abs(above - line - below) < 0.2
            centred += 1
    assert centred == 4


@pytest.mark.slow
def test_a_500_puzzle_book_keeps_every_print_rule(tmp_path):
    """The issue's book: 500 puzzles, all four levels, 15x15 and 40x40 mixed."""
    items = mixed(440, 60)
    opts = Options()
    pdf = tmp_path / "book.pdf"
    book.write_pdf(layout(items, opts).pages, str(pdf), opts)
    seen = check_book(pdf, items, opts)
    assert len(seen["toc"]) == 9


def test_a_count_that_prints_too_small_is_refused_naming_the_largest_that_does():
    items = mixed(0, 4)
    with pytest.raises(BookError, match=r"Easy 40x40 puzzles at 4 a page print their numbers at 3\.4 pt, below "
                                        r"the 7 pt minimum; the largest count per page that keeps 7 pt is 1 "
                                        r"\(--per-page 1\)"):
        layout(items, Options(per_page=4))
    with pytest.raises(BookError, match=r"largest count per page that keeps 5 pt is 2"):
        layout(items, Options(solutions_per_page="2x2"))
    huge = order([BookPuzzle(Puzzle(90, 90, [(0, 0, 1), (0, 89, 1)]), "easy", 1, "huge",
                             Solution({((0, 0), (0, 89)): 1}))])
    with pytest.raises(BookError, match="too large for a4 paper.*even one to a page"):
        layout(huge, Options())


@pytest.mark.parametrize("per_page,grid", [("2x3", (2, 3)), ("3x2", (3, 2)), (5, None), (9, (3, 3))])
def test_any_grid_of_boards_per_page(tmp_path, per_page, grid):
    items = mixed(9, 0, small=10, levels=("easy",))
    opts = Options(per_page=per_page, solutions="none", style="classic")
    pdf = tmp_path / "g.pdf"
    book.write_pdf(layout(items, opts).pages, str(pdf), opts)
    seen = check_book(pdf, items, opts)
    first = next(p for p in seen["pages"] if p["rects"])
    count = 9 if per_page == 9 else 6 if per_page in ("2x3", "3x2") else 5
    assert len(first["rects"]) == count
    rows = len({round(r["top"]) for r in first["rects"]})
    cols = len({round(r["x0"]) for r in first["rects"]})
    if grid:
        assert (rows, cols) == grid
    else:  # 5 arranged to print largest: 3 rows of 2 on a portrait page
        assert rows * cols >= 5 and (rows - 1) * cols < 5


def test_plain_style_is_black_on_white_without_tint_or_grid(tmp_path):
    items = mixed(4, 0)
    opts = Options(style="plain")
    pdf = tmp_path / "plain.pdf"
    book.write_pdf(layout(items, opts).pages, str(pdf), opts)
    pages = read_pdf(pdf)
    boards = [p for p in pages if p["curves"]]
    assert boards and all(not p["rects"] for p in pages)  # no tinted frame
    for p in boards:
        for ln in p["lines"]:
            assert colour(ln["stroking_color"]) == (0,)  # bridges in black (grey level), no faint grid
        for cv in p["curves"]:
            assert colour(cv["stroking_color"]) == (0,)
            assert colour(cv["non_stroking_color"]) == (1,)
        assert all(colour(c["non_stroking_color"]) == (0,) for c in p["chars"])
        numbers = [w for w in p["words"] if w["text"].isdigit() and w["size"] < book.FOLIO_PT]
        assert len(numbers) >= sum(len(i.puzzle.islands) for i in items[:1])


def test_solutions_in_a_separate_answer_book_or_none(tmp_path):
    items = mixed(6, 0)
    opts = Options(solutions="separate")
    laid = layout(items, opts)
    pdf, answers = tmp_path / "b.pdf", tmp_path / "b-solutions.pdf"
    book.write_pdf(laid.pages, str(pdf), opts)
    book.write_pdf(laid.answers, str(answers), opts)
    seen = check_book(pdf, items, opts, answers)
    assert "Solutions" not in seen["toc"]
    assert not any(p["kind"] == "solutions" for p in map(vars, laid.pages))
    assert any("solutions" in w["text"] for w in seen["answers"][0]["words"])  # its own title page
    none = Options(solutions="none")
    laid = layout(items, none)
    book.write_pdf(laid.pages, str(pdf), none)
    assert not laid.answers and "Solutions" not in check_book(pdf, items, none)["toc"]
    with pytest.raises(BookError, match="no solutions"):
        Options(solutions="none", solutions_per_page=4)
    with pytest.raises(BookError, match="separate solutions"):
        make_book(items, str(pdf), Options(), answers=str(answers))


def test_title_page_wraps_a_long_title_and_prints_subtitle_author_and_copyright(tmp_path):
    title = "The Enormous and Thoroughly Unabridged Compendium of Bridges Puzzles for Long Winter Evenings"
    opts = Options(title=title, subtitle="Two hundred puzzles from easy to expert, every one with a unique solution",
                   author="A. Setter", paper="letter",
                   copyright="Copyright (c) 2026 A. Setter. All rights reserved. " + "No part of this book may be "
                             "reproduced in any form without the written permission of the publisher. " * 3)
    items = mixed(2, 0)
    pdf = tmp_path / "t.pdf"
    book.write_pdf(layout(items, opts).pages, str(pdf), opts)
    pages = check_book(pdf, items, opts)["pages"]
    words = pages[0]["words"]
    title_words = [w for w in words if w["text"] in title.split()]
    sizes = {round(w["size"]) for w in title_words}
    assert len(sizes) == 1 and sizes.pop() >= 16  # one size, not shrunk to fit one line
    assert len({round(w["top"]) for w in title_words}) >= 2  # on two lines or more
    sub = [w for w in words if w["text"] == "unique"]
    assert sub and sub[0]["size"] < min(w["size"] for w in title_words)
    assert " ".join(w["text"] for w in words).count("A. Setter") == 1
    assert "Copyright (c) 2026 A. Setter. All rights reserved." in " ".join(w["text"] for w in pages[1]["words"])
    bottom = (book.PAPERS["letter"][1] - book.BOTTOM) * PT
    assert not [w for w in pages[0]["words"] + pages[1]["words"] if w["top"] > bottom]  # no page numbers


def test_contents_continues_on_a_second_page(tmp_path, monkeypatch):
    monkeypatch.setattr(layout_mod, "CONTENTS_LINES", 3)
    items = mixed(8, 0)
    items = order([BookPuzzle(i.puzzle, i.level, i.score, i.name, i.solution) for i in items]
                  + [BookPuzzle(Puzzle(6, 6, [(0, 0, 1), (0, 5, 1)]), "hard", 1, "tiny",
                                Solution({((0, 0), (0, 5)): 1}))])
    opts = Options()
    pdf = tmp_path / "c.pdf"
    book.write_pdf(layout(items, opts).pages, str(pdf), opts)
    seen = check_book(pdf, items, opts)
    assert len(seen["toc"]) == 6  # 5 sections and the solutions, on two pages
    assert any(w["text"] == "(continued)" for w in seen["pages"][3]["words"])


def test_sections_start_on_right_hand_pages_or_anywhere():
    items = mixed(5, 0)
    recto = layout(items, Options()).pages
    firsts = [p for k, p in enumerate(recto) if p.kind == "puzzles"
              and (recto[k - 1].kind != "puzzles" or recto[k - 1].labels[0].text != p.labels[0].text)]
    assert len(firsts) == 4 and all(p.number % 2 == 1 for p in firsts)
    assert any(p.kind == "blank" for p in recto)
    packed = layout(items, Options(recto=False)).pages
    assert not any(p.kind == "blank" for p in packed) and len(packed) < len(recto)


def test_limit_keeps_the_easiest(catalogue, tmp_path):
    report = make_book(str(catalogue), str(tmp_path / "b.pdf"), at_most=3, workers=1)
    assert report.puzzles == 3 and report.levels == {"easy": 3}


def test_every_puzzle_in_a_book_is_unique_and_at_its_level(catalogue):
    """What the book's captions claim, checked without the engines the book used."""
    with Catalog(catalogue) as cat:
        for e in cat.query():
            count, _ = count_solutions(e.puzzle.grid(), e.maxbridges, cap=2)
            assert count == 1
            assert grade(e.puzzle).level == e.level


def test_verify_in_the_batch_runners_workers_gives_what_inline_gives(catalogue, monkeypatch):
    inline = verify(book.load(str(catalogue)), workers=1)
    monkeypatch.setattr(sources, "PARALLEL_FROM", 2)
    pooled = verify(book.load(str(catalogue)), workers=2)
    assert [(i.level, i.score, i.solution.bridges) for i in pooled] == \
        [(i.level, i.score, i.solution.bridges) for i in inline]


@needs_poppler
def test_catalogue_book_fonts_embedded_and_pages_as_svg_and_png(catalogue, tmp_path):
    pdf = tmp_path / "book.pdf"
    report = make_book(str(catalogue), str(pdf), Options(per_page=2, paper="letter", binding=12, title="Bridges"),
                       pages_dir=str(tmp_path / "svg"), workers=1)
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    assert "612 x 792 pts" in info and re.search(r"Pages:\s+(\d+)", info).group(1) == str(report.pages)
    fonts = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True).stdout
    assert all(" yes " in line for line in fonts.splitlines()[2:])  # every font embedded
    items = order(verify(book.load(str(catalogue)), workers=1))
    check_book(pdf, items, Options(per_page=2, paper="letter", binding=12))
    svgs = sorted((tmp_path / "svg").glob("page-*.svg"))
    assert len(svgs) == report.pages
    first_puzzles = next(s for s in svgs if 'class="hashikit board"' in s.read_text())
    assert first_puzzles.read_text().count('class="hashikit board"') == 2
    make_book(str(catalogue), "", Options(per_page=6), pages_dir=str(tmp_path / "png"), pages_format="png", dpi=50,
              workers=1)
    from PIL import Image

    pngs = sorted((tmp_path / "png").glob("page-*.png"))
    with Image.open(pngs[0]) as img:
        assert img.size[0] == round(210 / 25.4 * 50)


def test_a_puzzle_with_two_solutions_or_the_wrong_level_is_refused(catalogue):
    two = BookPuzzle(Puzzle.from_grid([[3, 0, 3], [0, 0, 0], [3, 0, 3]]), name="square")
    assert count_solutions(two.puzzle.grid())[0] == 2
    with pytest.raises(BookError, match="square: has more than one solution"):
        verify([two])
    with Catalog(catalogue) as cat:
        e = cat.query(level="hard")[0]
    wrong = BookPuzzle(e.puzzle, "easy", name="mislabelled")
    with pytest.raises(BookError, match="mislabelled: stated easy, but it grades hard"):
        verify([wrong])


def test_bad_options_and_sources_are_refused(tmp_path, catalogue):
    for bad in (0, "0x3", "65", "two", "2x2x2"):
        with pytest.raises(BookError, match="per page"):
            Options(per_page=bad)
    with pytest.raises(BookError, match="paper"):
        Options(paper="a5")
    with pytest.raises(BookError, match="style"):
        Options(style="sepia")
    for title in ("", "x" * 101, "two\nlines"):
        with pytest.raises(BookError, match="title"):
            Options(title=title)
    with pytest.raises(BookError, match="no such catalogue or folder"):
        make_book(str(tmp_path / "missing.db"), str(tmp_path / "b.pdf"))
    (tmp_path / "empty").mkdir()
    with pytest.raises(BookError, match="no puzzle files"):
        make_book(str(tmp_path / "empty"), str(tmp_path / "b.pdf"))
    with pytest.raises(BookError, match="verified and ordered"):
        layout([BookPuzzle(Puzzle.from_grid([[1, 1]]))], Options())
    with pytest.raises(BookError, match="folder .* does not exist"):
        make_book(str(catalogue), str(tmp_path / "nowhere" / "b.pdf"))


# -- the command and generate's folders ----------------------------------------------------------

def main(argv) -> int:
    """The command line's exit code (argparse's own refusals included)."""
    from hashikit.cli import main as hashikit

    try:
        return hashikit([str(a) for a in argv])
    except SystemExit as exc:
        return exc.code


def test_book_of_a_folder_generate_wrote_keeps_its_levels(tmp_path, capsys):
    folder = tmp_path / "easy"
    assert main(["generate", "--size", "6x7", "--difficulty", "easy", "--count", "3", "--seed", "5",
                 "--out-dir", str(folder), "--jobs", "1"]) == 0
    assert (folder / "generate.jsonl").exists()
    pdf = tmp_path / "easy.pdf"
    assert main(["book", str(folder), "-o", str(pdf), "--jobs", "1", "--style", "plain"]) == 0
    err = capsys.readouterr().err
    assert "3 puzzles (3 easy)" in err and "Easy 6x7: 3 puzzles, 4 a page" in err
    # the index's level is the stated level: a wrong one is refused by name
    index = (folder / "index.csv").read_text().replace(",easy,", ",hard,", 1)
    (folder / "index.csv").write_text(index)
    assert main(["book", str(folder), "-o", str(pdf), "--jobs", "1"]) == 2
    assert "stated hard, but it grades easy" in capsys.readouterr().err


def test_book_command_options_and_refusals(catalogue, tmp_path, capsys):
    pdf = tmp_path / "hard.pdf"
    assert main(["book", str(catalogue), "-o", str(pdf), "--level", "hard", "--per-page", "1", "--jobs", "1",
                 "--solutions", "separate", "--subtitle", "Two hard ones", "--author", "Me",
                 "--copyright", "(c) me"]) == 0
    err = capsys.readouterr().err
    assert f"solutions in {tmp_path / 'hard-solutions.pdf'}" in err and "Hard 6x6: 2 puzzles, 1 a page" in err
    assert (tmp_path / "hard-solutions.pdf").exists()
    for argv, message in ((["--answers", str(tmp_path / "a.pdf")], "--answers names the answer book"),
                          (["--solutions", "none", "--solutions-per-page", "4"], "no solutions"),
                          (["--per-page", "3x0"], "per page"),
                          (["--title", ""], "title is 1 to 100")):
        code = main(["book", str(catalogue), "-o", str(pdf), *argv])
        assert code == 2 and message in capsys.readouterr().err
    assert main(["book", "--help"]) == 0
    text = capsys.readouterr().out
    for flag in ("--per-page", "--solutions-per-page", "--solutions", "--answers", "--style", "--limit",
                 "--subtitle", "--author", "--copyright", "--no-blank-pages", "ROWSxCOLS", "7 pt"):
        assert flag in text


def test_sheets_lay_out_any_list_of_puzzles_n_a_page(tmp_path):
    """The layout engine without a book around it: a list of puzzles (of mixed sizes), 3 a page, one
    cell size from the largest, captions from their labels; solution sheets draw the bridges."""
    from hashikit.service import generate_paper
    from hashikit.solvers import solve

    items = []
    for k, side in enumerate((6, 8, 7, 8, 6, 9, 7)):
        p = generate_paper(side * 2, side, side, 50, 20, 40 + k)
        items.append(BookPuzzle(p, solution=solve(p).solution, label=f"#{k + 1}"))
    opts = Options(per_page=3, solutions_per_page="2x2", style="plain")
    pages = book.sheets(items, opts)
    assert [len(p.boards) for p in pages] == [3, 3, 1] and all(p.kind == "puzzles" for p in pages)
    assert len({b.cell for p in pages for b in p.boards}) == 1
    captions = [lab.text for p in pages for lab in p.labels if lab.text.startswith("#")]
    assert captions == [f"#{k}" for k in range(1, 8)]
    assert not any(b.solution for p in pages for b in p.boards)
    solved = book.sheets(items, opts, kind="solution", heading="Answers")
    assert [len(p.boards) for p in solved] == [4, 3] and all(b.solution for p in solved for b in p.boards)
    pdf = tmp_path / "sheets.pdf"
    book.write_pdf(solved, str(pdf), opts)
    with pdfplumber.open(pdf) as doc:
        assert len(doc.pages) == 2 and "Answers" in doc.pages[0].extract_text()
        assert len(doc.pages[0].lines) >= sum(len(b.solution.bridges) for b in solved[0].boards)
    with pytest.raises(BookError, match="no puzzles"):
        book.sheets([], opts)
    with pytest.raises(BookError, match="need each puzzle's solution"):
        book.sheets([BookPuzzle(items[0].puzzle)], opts, kind="solution")
