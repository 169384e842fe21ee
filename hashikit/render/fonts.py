"""The font pages are set in and PDFs embed: DejaVu Sans (regular and bold), found on the system
(Debian ``fonts-dejavu-core``), in a folder named by ``HASHIKIT_FONT_DIR`` or ``font_dir``, or in
matplotlib's copy if that is installed; and its metrics, read once per file with fontTools:
advance widths (a text's width) and the descent (how far a line's box reaches below its baseline,
as PDF readers place it)."""

from __future__ import annotations

import os

from ..errors import HashikitError

_FONT_FILES = {"": "DejaVuSans.ttf", "B": "DejaVuSans-Bold.ttf"}
_FONT_DIRS = ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/dejavu", "/usr/share/fonts/TTF",
              "/usr/local/share/fonts", os.path.expanduser("~/.fonts"), "/Library/Fonts")
#: millimetres per point
PT = 25.4 / 72


class FontError(HashikitError):
    """The font to embed is not found."""


def find_fonts(font_dir: str | None = None) -> dict[str, str]:
    """Paths of DejaVu Sans regular (``""``) and bold (``"B"``), or FontError saying how to get them."""
    dirs = [d for d in (font_dir, os.environ.get("HASHIKIT_FONT_DIR")) if d]
    dirs += list(_FONT_DIRS)
    import importlib.util

    spec = importlib.util.find_spec("matplotlib")
    if spec is not None and spec.origin:
        dirs.append(os.path.join(os.path.dirname(spec.origin), "mpl-data", "fonts", "ttf"))
    for d in dirs:
        paths = {style: os.path.join(d, name) for style, name in _FONT_FILES.items()}
        if all(os.path.isfile(p) for p in paths.values()):
            return paths
    raise FontError("no DejaVu Sans font found to embed; install it (Debian/Ubuntu: apt install "
                    "fonts-dejavu-core) or name a folder holding DejaVuSans.ttf and DejaVuSans-Bold.ttf "
                    "with --font-dir or HASHIKIT_FONT_DIR")


_METRICS: dict[str, tuple[dict[str, float], float]] = {}


def _metrics(bold: bool, font_dir: str | None = None) -> tuple[dict[str, float], float]:
    """Advance widths (in em) of the font's characters up to U+20FF, and its descent (em, negative,
    rounded to thousandths as the PDF's font descriptor states it)."""
    path = find_fonts(font_dir)["B" if bold else ""]
    if path not in _METRICS:
        from fontTools.ttLib import TTFont

        font = TTFont(path, lazy=True)
        cmap, hmtx, em = font.getBestCmap(), font["hmtx"], font["head"].unitsPerEm
        _METRICS[path] = ({chr(u): hmtx[g][0] / em for u, g in cmap.items() if u < 0x2100},
                          round(font["hhea"].descent * 1000 / em) / 1000)
    return _METRICS[path]


def advances(bold: bool, font_dir: str | None = None) -> dict[str, float]:
    return _metrics(bold, font_dir)[0]


def text_width(text: str, size: float, bold: bool = False, font_dir: str | None = None) -> float:
    """Width in mm of ``text`` in DejaVu Sans at ``size`` pt (from the font's own advance widths)."""
    widths = advances(bold, font_dir)
    return sum(widths.get(ch, 0.6) for ch in text) * size * PT


def reach(size: float, bold: bool = False, font_dir: str | None = None) -> tuple[float, float]:
    """How far a line of text at ``size`` pt reaches above and below its baseline, in mm, as PDF
    readers box it: a box one em high whose foot is the font's descent."""
    descent = _metrics(bold, font_dir)[1]
    return (1 + descent) * size * PT, -descent * size * PT


__all__ = ["FontError", "find_fonts", "advances", "text_width", "reach", "PT"]
