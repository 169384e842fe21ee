"""The book pictures of the README: a title page, a contents page, a page of puzzles at 1, 2, 4 and 6
to a page, a page in the plain style and a page of solutions, each the PDF page itself rasterised
by poppler (pdftoppm), so what you see is what prints.

    python docs/book_pages.py        # writes docs/book-*.png (needs poppler-utils)
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent

from hashikit.publish import book  # noqa: E402
from hashikit.generate import generate_unique  # noqa: E402
from hashikit.model import LEVELS  # noqa: E402

DPI = 60


def puzzles(n: int, size: int) -> list[book.BookPuzzle]:
    items = []
    for k in range(n):
        level = LEVELS[k % 4]
        p, s, g = generate_unique(size, size, level, seed=300 + k)
        items.append(book.BookPuzzle(p, g.level, g.score, f"seed {300 + k}", s))
    return book.order(items)


def snap(pages: list[book.Page], opts: book.Options, number: int, name: str, tmp: Path) -> None:
    """Page ``number`` of the PDF these pages make, as docs/``name``.png."""
    pdf = tmp / f"{name}.pdf"
    book.write_pdf(pages, str(pdf), opts)
    subprocess.run(["pdftoppm", "-r", str(DPI), "-f", str(number), "-l", str(number), "-png", "-singlefile",
                    str(pdf), str(HERE / name)], check=True)
    print(f"docs/{name}.png: page {number}", file=sys.stderr)


def first(pages: list[book.Page], kind: str) -> int:
    return next(p.number for p in pages if p.kind == kind)


def main() -> None:
    items = puzzles(24, 12)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        opts = book.Options(title="Bridges: Twenty-Four Puzzles from Easy to Expert, Every One Unique",
                            subtitle="Hashiwokakero puzzles for the weekend", author="hashikit",
                            copyright="Copyright (c) 2026 the hashikit authors. Made with hashikit.")
        pages = book.layout(items, opts).pages
        snap(pages, opts, 1, "book-title", tmp)
        snap(pages, opts, first(pages, "contents"), "book-contents", tmp)
        snap(pages, opts, first(pages, "solutions"), "book-solutions", tmp)
        for per in (1, 2, 4, 6):
            o = book.Options(per_page=per)
            pages = book.layout(items, o).pages
            snap(pages, o, first(pages, "puzzles"), f"book-{per}-a-page", tmp)
        o = book.Options(per_page=4, style="plain")
        pages = book.layout(items, o).pages
        snap(pages, o, first(pages, "puzzles"), "book-plain", tmp)


if __name__ == "__main__":
    main()
