"""A book's back ends: each laid-out page becomes a scene (its labels, and each board's scene from
:func:`hashikit.render.scene.paper`), drawn by the render back ends: one PDF
(:mod:`hashikit.render.to_pdf`), or each page as SVG (:mod:`hashikit.render.to_svg`) or PNG
(that SVG rasterised, the embedded font given to resvg)."""

from __future__ import annotations

import os

from ..render.scene import Scene, paper, sheet
from .layout import Options, Page
from .sources import BookError

_PX = 96 / 25.4  # CSS pixels per millimetre


def page_scene(page: Page, style: str = "classic") -> Scene:
    """One page as a scene in millimetres: a white sheet, its labels, its boards."""
    return sheet(page.width, page.height, page.labels,
                 [paper(b.puzzle, b.solution, b.x, b.y, b.cell, style) for b in page.boards])


def write_pdf(pages: list[Page], path: str, opts: Options | None = None) -> None:
    """The pages as one PDF, fonts embedded, boards as vector paths."""
    from ..render.to_pdf import write_pdf as draw

    opts = opts or Options()
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise BookError(f"{path}: the folder {folder} does not exist")
    draw([page_scene(p, opts.style) for p in pages], path, title=opts.title, author=opts.author,
         font_dir=opts.font_dir)


def page_svg(page: Page, style: str = "classic") -> str:
    """One page as SVG, drawn in millimetres (the viewBox) and sized in CSS pixels (resvg reads
    no ``mm`` sizes)."""
    from ..render.to_svg import document

    return document(page_scene(page, style), size=(page.width * _PX, page.height * _PX))


def write_pages(pages: list[Page], folder: str, fmt: str = "svg", dpi: int = 150,
                font_dir: str | None = None, style: str = "classic") -> list[str]:
    """Each page as ``page-001.svg`` (or ``.png`` at ``dpi``) in ``folder``."""
    from ..render.fonts import find_fonts
    from ..render.to_png import rasterise

    if fmt not in ("svg", "png"):
        raise BookError(f"pages are written as svg or png, not {fmt!r}")
    os.makedirs(folder, exist_ok=True)
    paths = []
    fonts = find_fonts(font_dir) if fmt == "png" else {}
    for page in pages:
        text = page_svg(page, style)
        path = os.path.join(folder, f"page-{page.number:03d}.{fmt}")
        if fmt == "svg":
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(text)
        else:
            data = rasterise(text, width=round(page.width / 25.4 * dpi), font_files=list(fonts.values()))
            with open(path, "wb") as fh:
                fh.write(data)
        paths.append(path)
    return paths


__all__ = ["page_scene", "write_pdf", "page_svg", "write_pages"]
