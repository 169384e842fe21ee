"""Printable books: page counts seen by poppler, the puzzles on each page read back from the PDF's
text, each one unique (brute-force oracle) and at its stated level."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from hashikit.publish.book import BookError, BookPuzzle, Options, layout, make_book, order, verify
from hashikit.publish.catalog import Catalog
from hashikit.logic import grade
from hashikit.model import Puzzle

from oracle import count_solutions

POPPLER = shutil.which("pdftoppm") and shutil.which("pdftotext") and shutil.which("pdfinfo")
needs_poppler = pytest.mark.skipif(not POPPLER, reason="poppler-utils (pdftoppm, pdftotext, pdfinfo) "
                                                       "not installed: apt install poppler-utils")
LEVELS = ("easy", "medium", "hard")


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


def run(*cmd) -> str:
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def pages_of(pdf) -> int:
    return int(re.search(r"Pages:\s+(\d+)", run("pdfinfo", str(pdf))).group(1))


def page_text(pdf, page: int) -> list[str]:
    return run("pdftotext", "-raw", "-f", str(page), "-l", str(page), str(pdf), "-").split()


def numbers_in_reading_order(puzzle: Puzzle) -> list[str]:
    return [str(i.number) for i in sorted(puzzle.islands)]


def expected_pages(entries, per_page: int) -> int:
    """Title, each level from a fresh page, then solutions twelve to a page."""
    per_level = [sum(1 for e in entries if e.level == lv) for lv in LEVELS]
    return 1 + sum(-(-n // per_page) for n in per_level) + -(-len(entries) // 12)


@pytest.mark.parametrize("per_page", [1, 2, 4, 6])
def test_page_count_for_each_page_grid(catalogue, per_page):
    with Catalog(catalogue) as cat:
        entries = cat.query()
    from hashikit.publish.book import load

    pages = layout(order(verify(load(str(catalogue)))), Options(per_page=per_page))
    assert len(pages) == expected_pages(entries, per_page)
    assert [len(p.boards) for p in pages[1:]].count(0) == 0
    assert sum(len(p.boards) for p in pages) == 2 * len(entries)  # each puzzle and its solution


@needs_poppler
@pytest.mark.parametrize("per_page", [6])  # 1, 2 and 4 per page: the layout test above and the letter test
def test_book_pages_hold_every_puzzle_once_in_order(catalogue, tmp_path, per_page):
    pdf = tmp_path / "book.pdf"
    report = make_book(str(catalogue), str(pdf), Options(per_page=per_page))
    with Catalog(catalogue) as cat:
        entries = cat.query()
    # easiest first, by score within a level: the order the captions must show
    expected = sorted(entries, key=lambda e: (LEVELS.index(e.level), e.score))
    assert pages_of(pdf) == report.pages == expected_pages(entries, per_page)

    rendered = subprocess.run(["pdftoppm", "-r", "20", "-png", str(pdf), str(tmp_path / "pg")],
                              capture_output=True)
    assert rendered.returncode == 0 and len(list(tmp_path.glob("pg-*.png"))) == report.pages

    captions, solution_captions = [], []
    for page in range(2, report.pages + 1):
        words = page_text(pdf, page)
        here = [(int(n), lv) for n, lv in re.findall(r"#(\d+) (easy|medium|hard|expert)\b", " ".join(words))]
        sols = [] if here else [int(w[1:]) for w in words if re.fullmatch(r"#\d+", w)]
        shown = here or [(n, None) for n in sols]
        assert shown, f"page {page} shows no puzzle"
        # the island numbers drawn on the page, board after board, row by row
        digits = [w for w in words if re.fullmatch(r"\d", w)]
        drawn = [d for n, _ in shown for d in numbers_in_reading_order(expected[n - 1].puzzle)]
        assert digits[-len(drawn):] == drawn
        assert str(page) in words  # the page number
        captions += here
        solution_captions += sols
    assert captions == [(k + 1, e.level) for k, e in enumerate(expected)]
    assert solution_captions == list(range(1, len(entries) + 1))


def test_every_puzzle_in_a_book_is_unique_and_at_its_level(catalogue):
    """What the book's captions claim, checked without the engines the book used."""
    with Catalog(catalogue) as cat:
        for e in cat.query():
            count, _ = count_solutions(e.puzzle.grid(), e.maxbridges, cap=2)
            assert count == 1
            assert grade(e.puzzle).level == e.level


@needs_poppler
def test_letter_paper_fonts_embedded_and_a_clear_300_dpi_page(catalogue, tmp_path):
    pdf = tmp_path / "book.pdf"
    make_book(str(catalogue), str(pdf), Options(per_page=2, paper="letter", binding=12, title="Bridges"),
              level="easy")
    assert "612 x 792 pts" in run("pdfinfo", str(pdf))  # US Letter
    fonts = run("pdffonts", str(pdf)).splitlines()[2:]
    assert fonts and all(" yes " in line for line in fonts)  # every font embedded
    assert "Bridges" in page_text(pdf, 1)
    # the first board's top-left quarter of page 2 at 300 dpi (a crop keeps the test quick)
    subprocess.run(["pdftoppm", "-r", "300", "-f", "2", "-l", "2", "-x", "300", "-y", "300", "-W", "900",
                    "-H", "900", "-png", str(pdf), str(tmp_path / "hi")], check=True)
    from PIL import Image

    (png,) = tmp_path.glob("hi-*.png")
    with Image.open(png) as img:
        assert img.size == (900, 900)
        dark = sum(img.convert("L").histogram()[:100])
    assert dark > 5_000  # islands, rings and numbers drawn in ink, not blank


def test_svg_and_png_pages_match_the_pdf_layout(catalogue, tmp_path):
    report = make_book(str(catalogue), "", Options(per_page=6), pages_dir=str(tmp_path / "svg"))
    svgs = sorted((tmp_path / "svg").glob("page-*.svg"))
    assert len(svgs) == report.pages
    body = svgs[1].read_text()
    assert body.count('class="hashikit"') == min(6, report.levels["easy"])  # nested board drawings
    make_book(str(catalogue), "", Options(per_page=6), pages_dir=str(tmp_path / "png"),
              pages_format="png", dpi=50)
    from PIL import Image

    pngs = sorted((tmp_path / "png").glob("page-*.png"))
    assert len(pngs) == report.pages
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
    with pytest.raises(BookError, match="per page"):
        Options(per_page=3)
    with pytest.raises(BookError, match="paper"):
        Options(paper="a5")
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


def test_a_folder_of_files_makes_a_book_graded_on_the_way(tmp_path, catalogue):
    with Catalog(catalogue) as cat:
        cat.export("tatham", tmp_path / "files", level="medium")
    items = order(verify(__import__("hashikit.publish.book", fromlist=["load"]).load(str(tmp_path / "files"))))
    assert [i.level for i in items] == ["medium", "medium"] and [i.number for i in items] == [1, 2]
    assert all(i.solution is not None for i in items)


@needs_poppler
def test_book_command(catalogue, tmp_path, capsys):
    import argparse

    from hashikit.cli.catalog import add_parsers

    parser = argparse.ArgumentParser(prog="hashikit")
    add_parsers(parser.add_subparsers(dest="command"))
    pdf = tmp_path / "hard.pdf"
    args = parser.parse_args(["book", str(catalogue), "-o", str(pdf), "--level", "hard", "--per-page", "1",
                              "--pages", str(tmp_path / "pages")])
    assert args.func(args) == 0
    assert "4 pages, 2 puzzles (2 hard), solutions from page 4" in capsys.readouterr().err
    assert pages_of(pdf) == 4 and len(list((tmp_path / "pages").glob("*.svg"))) == 4
    with pytest.raises(SystemExit):
        parser.parse_args(["book", str(catalogue), "-o", str(pdf), "--per-page", "3"])
    with pytest.raises(SystemExit):
        parser.parse_args(["book", str(catalogue), "-o", str(pdf), "--binding", "-1"])
