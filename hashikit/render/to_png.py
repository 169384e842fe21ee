"""The PNG back end: a scene's SVG (:mod:`.to_svg`) rasterised by resvg, so the PNG is the SVG,
colour for colour (fonts are the system's, as a browser's, or the files given).  resvg is
imported only here, when a PNG is made."""

from __future__ import annotations

from ..errors import HashikitError
from .scene import Scene
from .to_svg import document

#: Largest picture drawn, in pixels (width x height).
MAX_PNG_PIXELS = 80_000_000


def rasterise(svg_text: str, *, width: int | None = None, background: str | None = "#ffffff",
              font_files: list[str] | None = None) -> bytes:
    """SVG text as PNG bytes (``width`` in pixels: scaled to it; ``background`` None: transparent)."""
    import resvg_py

    kw = {"svg_string": svg_text}
    if background is not None:
        kw["background"] = background
    if width is not None:
        kw["width"] = width
    if font_files:
        kw["font_files"] = list(font_files)
    return bytes(resvg_py.svg_to_bytes(**kw))


def png(scene: Scene, *, background: str | None = "#ffffff", width: int | None = None,
        size: tuple[float, float] | None = None, font_files: list[str] | None = None) -> bytes:
    """The scene as PNG bytes: its own size in pixels, or ``width`` pixels wide."""
    w = width or scene.width
    h = scene.height * w / scene.width
    if w * h > MAX_PNG_PIXELS:
        raise HashikitError(f"a {round(w)}x{round(h)} px picture is too large for PNG (at most "
                            f"{MAX_PNG_PIXELS} pixels); pass a smaller cell size or draw SVG")
    return rasterise(document(scene, size=size), width=width, background=background, font_files=font_files)


__all__ = ["png", "rasterise", "MAX_PNG_PIXELS"]
