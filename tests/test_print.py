"""Print-ready books: what a print shop's preflight checks, read back from every page of the PDF
(pdfplumber, and the content streams themselves):

* the plain style is pure black: grey-level operators only (``g``, ``G``), no RGB or CMYK colour;
* each embedded font subset has a tag of its own (six capitals, not fpdf2's ``MPDFAA`` for all);
* a double bridge keeps a gap that can be seen at print size: at least 0.4 mm clear between its
  lines, and two dark lines with light between them when the page is rasterised at 100 dpi;
* ``--safe-margin MM`` keeps every mark, heading and page number that far from the trim.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections import defaultdict

import pdfplumber
import pytest

from hashikit.model import LEVELS
from hashikit.publish import book
from hashikit.publish.book import BookPuzzle, Options, layout, order

PT = 72 / 25.4  # points per mm
CLEAR = 0.4  # mm: the least clear gap a double bridge keeps (1.6 pixels at 100 dpi)
needs_poppler = pytest.mark.skipif(not shutil.which("pdftoppm"), reason="poppler-utils (pdftoppm) not installed: "
                                                                         "apt install poppler-utils")


def puzzles(n15: int, n40: int = 0, seed: int = 1) -> list[BookPuzzle]:
    """15x15 (and 40x40) boards of the four levels, solved (the layout does not ask for uniqueness)."""
    from hashikit.service import generate_paper
    from hashikit.solvers import solve

    items = []
    for k in range(n15 + n40):
        side = 40 if k >= n15 else 15
        p = generate_paper(300 if side == 40 else 45, side, side, 50, 40, seed + k)
        items.append(BookPuzzle(p, LEVELS[k % 4], k, f"p{k}", solve(p).solution))
    return order(items)


def contents(page) -> bytes:
    """A page's content stream(s), decompressed."""
    streams = page.page_obj.contents
    return b"\n".join(s.get_data() for s in (streams if isinstance(streams, list) else [streams]))


def levels(value) -> tuple:
    """A colour as pdfplumber reads it, as a tuple (one level: grey; three: RGB; four: CMYK);
    unset is the PDF's default, black in grey."""
    if value is None:
        return (0,)
    return tuple(value) if isinstance(value, (tuple, list)) else (value,)


def bridge_pairs(page) -> list[tuple[dict, dict]]:
    """Neighbouring parallel lines of one bridge: same ends along it, less than 2 mm apart across."""
    groups = defaultdict(list)
    for ln in page.lines:
        across = "h" if abs(ln["top"] - ln["bottom"]) < 0.01 else "v" if abs(ln["x0"] - ln["x1"]) < 0.01 else None
        if across == "h":
            groups[("h", round(ln["x0"], 1), round(ln["x1"], 1))].append((ln["top"], ln))
        elif across == "v":
            groups[("v", round(ln["top"], 1), round(ln["bottom"], 1))].append((ln["x0"], ln))
    pairs = []
    for lines in groups.values():
        lines.sort(key=lambda t: t[0])
        pairs += [(a, b) for (pa, a), (pb, b) in zip(lines, lines[1:]) if pb - pa < 2 * PT]
    return pairs


def check_print_ready(path, safe: float, plain: bool = True) -> dict:
    """Every page of the PDF at ``path`` against the print rules; what was seen, for more checks."""
    seen = {"pages": 0, "pairs": 0, "fonts": defaultdict(set), "narrowest": None}
    with pdfplumber.open(path) as pdf:
        for page in pdf.pages:
            seen["pages"] += 1
            ops = set(re.findall(rb"(?<![A-Za-z])(rg|RG|k|K|sc|SC|scn|SCN|cs|CS)(?![A-Za-z])", contents(page)))
            objects = page.chars + page.rects + page.curves + page.lines
            if plain:
                assert not ops, f"page {page.page_number}: colour operators {sorted(ops)} (plain is grey only)"
                for obj in objects:
                    for key in ("stroking_color", "non_stroking_color"):
                        assert len(levels(obj.get(key))) == 1, f"page {page.page_number}: {key} {obj.get(key)}"
            for obj in objects:
                margin = min(obj["x0"], obj["top"], page.width - obj["x1"], page.height - obj["bottom"]) / PT
                assert margin >= safe - 0.01, (f"page {page.page_number}: {obj.get('text', obj['object_type'])!r} "
                                               f"{margin:.2f} mm from the trim (safe margin {safe} mm)")
            for ch in page.chars:
                tag, _, name = ch["fontname"].partition("+")
                seen["fonts"][name].add(tag)
            for a, b in bridge_pairs(page):
                apart = abs(a["top"] - b["top"]) + abs(a["x0"] - b["x0"])
                clear = (apart - a["linewidth"]) / PT
                assert clear >= CLEAR - 0.005, f"page {page.page_number}: a double bridge {clear:.2f} mm apart"
                seen["pairs"] += 1
                seen["narrowest"] = min(clear, seen["narrowest"] or clear)
    tags = [tag for name, found in seen["fonts"].items() for tag in found]
    assert all(len(found) == 1 for found in seen["fonts"].values()), seen["fonts"]  # one subset a font
    assert all(re.fullmatch(r"[A-Z]{6}", tag) and tag != "MPDFAA" for tag in tags), tags
    assert len(set(tags)) == len(tags) == len(seen["fonts"]), tags  # a tag of its own for each subset
    return seen


def test_a_plain_book_is_grey_only_tagged_gapped_and_within_its_safe_margin(tmp_path):
    items = puzzles(8)
    opts = Options(style="plain", safe_margin=10)
    pdf = tmp_path / "plain.pdf"
    book.write_pdf(layout(items, opts).pages, str(pdf), opts)
    seen = check_print_ready(pdf, 10)
    assert len(seen["fonts"]) == 2 and seen["pairs"] > 10
    # the solutions print 12 a page, where the cell's own proportions (0.15 of a cell between line
    # centres) would leave the lines of a double bridge 0.27 mm apart: the least gap holds instead
    assert seen["narrowest"] < CLEAR + 0.05


def test_the_classic_style_keeps_the_rules_but_its_tints(tmp_path):
    items = puzzles(4)
    opts = Options()
    pdf = tmp_path / "classic.pdf"
    book.write_pdf(layout(items, opts).pages, str(pdf), opts)
    seen = check_print_ready(pdf, book.SAFE, plain=False)
    with pdfplumber.open(pdf) as doc:
        tints = {levels(r["non_stroking_color"]) for p in doc.pages for r in p.rects}
    assert tints and all(len(t) == 3 for t in tints)  # the tinted boards are RGB
    assert seen["pairs"] > 0


@pytest.mark.parametrize("safe", [0, 25])
def test_headings_and_page_numbers_move_inward_for_a_wider_safe_margin(tmp_path, safe):
    items = puzzles(3)
    opts = Options(style="plain", safe_margin=safe, paper="letter")
    pdf = tmp_path / "s.pdf"
    laid = layout(items, opts)
    book.write_pdf(laid.pages, str(pdf), opts)
    check_print_ready(pdf, safe)
    with pdfplumber.open(pdf) as doc:
        folios = [w for p in doc.pages for w in p.extract_words() if w["text"] == str(p.page_number)
                  and w["bottom"] > p.height * 0.9]
    assert len(folios) >= 3  # the page numbers are printed, at the foot


def test_a_safe_margin_out_of_range_is_refused():
    for bad in (-1, 30.5, float("nan")):
        with pytest.raises(book.BookError, match="safe margin is 0 to 30 mm"):
            Options(safe_margin=bad)


def test_the_default_margins_are_those_the_readme_states():
    """8 mm kept by default; headings 12 mm and page numbers 10 mm from the trim on their baselines."""
    m = book.margins(Options())
    assert (m.heading, m.top, m.foot, m.outer) == (12.0, 18.0, 20.0, 15.0)
    assert book.PAPERS["a4"][1] - m.folio == 10.0


@needs_poppler
def test_double_bridges_show_two_lines_at_100_dpi(tmp_path):
    """Rasterised at 100 dpi, across the middle of every double bridge of a solutions page: dark,
    lighter, dark (the two lines do not merge)."""
    from PIL import Image

    items = puzzles(12)
    opts = Options(style="plain", solutions_per_page=12)
    laid = layout(items, opts)
    pdf = tmp_path / "gaps.pdf"
    book.write_pdf(laid.pages, str(pdf), opts)
    number = next(p.number for p in laid.pages if p.kind == "solutions")
    subprocess.run(["pdftoppm", "-r", "100", "-gray", "-png", "-f", str(number), "-l", str(number), "-singlefile",
                    str(pdf), str(tmp_path / "page")], check=True)
    img = Image.open(tmp_path / "page.png").convert("L")
    px = 100 / 72  # pixels per point
    with pdfplumber.open(pdf) as doc:
        pairs = bridge_pairs(doc.pages[number - 1])
    assert len(pairs) > 10
    for a, b in pairs:
        horizontal = abs(a["top"] - a["bottom"]) < 0.01
        if horizontal:
            x = (a["x0"] + a["x1"]) / 2 * px
            y0, y1 = sorted((a["top"] * px, b["top"] * px))
            profile = [img.getpixel((round(x), y)) for y in range(int(y0) - 1, int(y1) + 3)]
        else:
            y = (a["top"] + a["bottom"]) / 2 * px
            x0, x1 = sorted((a["x0"] * px, b["x0"] * px))
            profile = [img.getpixel((x, round(y))) for x in range(int(x0) - 1, int(x1) + 3)]
        darkest = [k for k, v in enumerate(profile) if v < 128]
        assert darkest, profile
        first, last = darkest[0], darkest[-1]
        lightest_between = max(profile[first:last + 1])
        assert lightest_between - max(profile[first], profile[last]) >= 60, profile


@pytest.mark.slow
def test_a_500_puzzle_plain_book_is_print_ready_on_every_page(tmp_path):
    """The issue's book: 500 puzzles, all four levels, 15x15 and 40x40, plain, safe margin 10 mm."""
    items = puzzles(440, 60)
    opts = Options(style="plain", safe_margin=10)
    pdf = tmp_path / "book.pdf"
    laid = layout(items, opts)
    book.write_pdf(laid.pages, str(pdf), opts)
    seen = check_print_ready(pdf, 10)
    assert seen["pages"] == len(laid.pages) and seen["pairs"] > 1000


def test_the_book_command_takes_a_safe_margin_and_refuses_one_out_of_range(tmp_path, capsys):
    from hashikit.cli import main as hashikit

    def run(*argv) -> int:
        try:
            return hashikit([str(a) for a in argv])
        except SystemExit as exc:
            return exc.code

    folder = tmp_path / "easy"
    assert run("generate", "--size", "7x7", "--difficulty", "easy", "--count", "3", "--seed", "3",
               "--out-dir", folder, "--jobs", "1") == 0
    pdf = tmp_path / "b.pdf"
    assert run("book", folder, "-o", pdf, "--jobs", "1", "--style", "plain", "--safe-margin", "12") == 0
    check_print_ready(pdf, 12)
    capsys.readouterr()
    for bad in ("31", "-2", "nan", "wide"):
        assert run("book", folder, "-o", pdf, "--safe-margin", bad) == 2
        err = capsys.readouterr().err
        assert "--safe-margin" in err and ("0 to 30 mm" in err or "not a number" in err), err
    assert run("book", "--help") == 0
    assert "--safe-margin MM" in capsys.readouterr().out
