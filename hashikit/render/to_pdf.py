"""The PDF back end: pages (scenes in millimetres) as one PDF, fonts embedded, boards as vector paths
written straight into the page's content stream (fpdf2).

A page's :class:`~.scene.Label` lines go through fpdf2's text (it places, encodes and subsets
them); everything else is written as content-stream operators, a layer's shapes before its
numbers, consecutive lines of one stroke in one path, one circle path reused for every island.
Print-ready on purpose:

* a grey (r = g = b) is written with the grey-level operators (``g``, ``G``), so black is pure
  black (K only when separated), never four-colour black; the plain style uses no RGB at all;
* each embedded font subset has a tag of its own (fpdf2 names every subset ``MPDFAA+``, which
  preflight checks flag), made from the font's name and the characters it holds.
"""

from __future__ import annotations

import hashlib
import math
import os
import re

from .fonts import PT, find_fonts, text_width
from .scene import Circle, Grid, Label, Line, Rect, Scene, Text
from .style import FONT_NAME

_K = 72 / 25.4  # points per millimetre
_BEZ = 4 / 3 * (math.sqrt(2) - 1)


def _circle_path(r: float) -> str:
    """A circle of radius ``r`` around (0, 0) as four Bezier curves (PDF path operators)."""
    k = _BEZ * r
    return (f"{r:.3f} 0 m {r:.3f} {k:.3f} {k:.3f} {r:.3f} 0 {r:.3f} c "
            f"{-k:.3f} {r:.3f} {-r:.3f} {k:.3f} {-r:.3f} 0 c "
            f"{-r:.3f} {-k:.3f} {-k:.3f} {-r:.3f} 0 {-r:.3f} c "
            f"{k:.3f} {-r:.3f} {r:.3f} {-k:.3f} {r:.3f} 0 c h")


def _round_rect(x: float, y: float, w: float, h: float, r: float) -> str:
    r = min(r, w / 2, h / 2)
    k = (1 - _BEZ) * r
    x1, y1 = x + w, y + h
    return (f"{x + r:.3f} {y:.3f} m {x1 - r:.3f} {y:.3f} l {x1 - k:.3f} {y:.3f} {x1:.3f} {y + k:.3f} {x1:.3f} {y + r:.3f} c "
            f"{x1:.3f} {y1 - r:.3f} l {x1:.3f} {y1 - k:.3f} {x1 - k:.3f} {y1:.3f} {x1 - r:.3f} {y1:.3f} c "
            f"{x + r:.3f} {y1:.3f} l {x + k:.3f} {y1:.3f} {x:.3f} {y1 - k:.3f} {x:.3f} {y1 - r:.3f} c "
            f"{x:.3f} {y + r:.3f} l {x:.3f} {y + k:.3f} {x + k:.3f} {y:.3f} {x + r:.3f} {y:.3f} c h")


def colour(hex_colour: str, stroke: bool) -> str:
    """The operator setting a fill (or stroke) colour: a grey level for greys, else RGB."""
    r, g, b = (int(hex_colour[k:k + 2], 16) / 255 for k in (1, 3, 5))
    if r == g == b:
        return f"{r:.3f} {'G' if stroke else 'g'}"
    return f"{r:.3f} {g:.3f} {b:.3f} {'RG' if stroke else 'rg'}"


def _paint(fill: str | None, stroke: str | None, width: float) -> tuple[str, str]:
    """The operators setting a shape's colours and line width, and the one painting its path."""
    head = []
    if fill is not None:
        head.append(colour(fill, False))
    if stroke is not None:
        head.append(f"{colour(stroke, True)} {width:.3f} w")
    return " ".join(head), ("B" if fill is not None and stroke is not None else "f" if fill is not None else "S")


class _Glyphs:
    """Numbers in the PDF's embedded bold font: each text's encoded string and width (mm per mm of
    font size), asked of fpdf2 once per distinct text."""

    def __init__(self, pdf, font_dir: str | None) -> None:
        self.pdf, self.font_dir = pdf, font_dir
        self.cache: dict[str, tuple[str, float]] = {}

    def __call__(self, text: str) -> tuple[str, float]:
        hit = self.cache.get(text)
        if hit is None:
            font = self.pdf.current_font
            hit = self.cache[text] = (font.encode_text(text), text_width(text, 1 / PT, True, self.font_dir))
        return hit


def _dash(dash) -> str:
    return f"[{dash[0]:.3f} {dash[1]:.3f}] 0 d " if dash else ""


def board_ops(scene: Scene, glyphs: _Glyphs, font_id: int) -> str:
    """The content-stream operators drawing a board's scene, in millimetres with y down (the page's
    content is wrapped in a matrix that maps millimetres to points).  Consecutive lines of one
    stroke make one path; consecutive circles of one look share their colours."""
    ops = ["q 0 J 0 j"]
    for _, shapes in scene.layers:
        texts: list = []
        run: list = []
        key = None
        for item in shapes:
            kind = type(item)
            if kind is Text:
                texts.append(item)
                continue
            k = ((kind, item.stroke, item.width, item.dash) if kind is Line
                 else (kind, item.r, item.fill, item.stroke, item.width, item.dash) if kind is Circle else item)
            if k != key:
                if run:
                    ops.append(_run_ops(run))
                run, key = [], k
            run.append(item)
        if run:
            ops.append(_run_ops(run))
        if texts:
            out, fill = [f"BT /F{font_id} 1 Tf"], None
            for t in texts:
                if t.fill != fill:
                    fill = t.fill
                    out.append(colour(fill, False))
                enc, width = glyphs(t.text)
                size = t.size
                out.append(f"{size:.3f} 0 0 {-size:.3f} {t.x - width * size / 2:.3f} {t.y + 0.36 * size:.3f} Tm {enc}")
            out.append("ET")
            ops.append(" ".join(out))
    ops.append("Q")
    return "\n".join(ops)


def _run_ops(run: list) -> str:
    first = run[0]
    if isinstance(first, Line):
        head, _ = _paint(None, first.stroke, first.width)
        dash = _dash(first.dash)
        path = " ".join(f"{s.x1:.3f} {s.y1:.3f} m {s.x2:.3f} {s.y2:.3f} l" for s in run)
        return f"{head} {dash}{path} S" + (" [] 0 d" if dash else "")
    if isinstance(first, Circle):
        head, op = _paint(first.fill, first.stroke, first.width)
        dash = _dash(first.dash)
        circle = _circle_path(first.r)
        body = " ".join(f"q 1 0 0 1 {s.cx:.3f} {s.cy:.3f} cm {circle} {op} Q" for s in run)
        return f"{head} {dash}\n{body}" + (" [] 0 d" if dash else "")
    if isinstance(first, Grid):
        head, _ = _paint(None, first.stroke, first.width)
        return f"{head} " + " ".join(f"{a:.2f} {b:.2f} m {c:.2f} {d:.2f} l" for a, b, c, d in first.segments) + " S"
    if isinstance(first, Rect):
        head, op = _paint(first.fill, first.stroke, first.width)
        path = (f"{first.x:.3f} {first.y:.3f} {first.w:.3f} {first.h:.3f} re" if not first.radius
                else _round_rect(first.x, first.y, first.w, first.h, first.radius))
        return f"{head} {path} {op}"
    raise TypeError(first)  # pragma: no cover


def subset_tags(data: bytes, names: dict[str, str]) -> bytes:
    """``data`` (a PDF) with each font subset's ``MPDFAA+`` tag replaced by its own, ``names`` mapping
    a font's name to its tag (six capital letters: the same length, so no offset moves)."""
    def tag(m: re.Match) -> bytes:
        name = m.group(2).decode("latin-1")
        return m.group(1) + names[name].encode("ascii") + b"+" + m.group(2)

    return re.sub(rb"(/(?:BaseFont|FontName) */)MPDFAA\+([A-Za-z0-9_.-]+)", tag, data)


def _tags(subsets: dict[str, list]) -> dict[str, str]:
    """Each subset's tag, by its font's name: six capitals from a digest of the name and the
    characters the subset holds, distinct within the document."""
    tags: dict[str, str] = {}
    for name, chars in sorted(subsets.items()):
        seed = (name + "\0" + ",".join(sorted(map(str, chars)))).encode()
        while True:
            digest = hashlib.sha256(seed).digest()
            tag = "".join(chr(65 + b % 26) for b in digest[:6])
            if tag not in tags.values():
                break
            seed = digest
        tags[name] = tag
    return tags


def write_pdf(pages: list[Scene], path: str, *, title: str, author: str | None = None,
              font_dir: str | None = None) -> None:
    """The pages as one PDF at ``path``, fonts embedded (subset), boards as vector paths."""
    from fpdf import FPDF

    fonts = find_fonts(font_dir)
    pdf = FPDF(unit="mm", format=(pages[0].width, pages[0].height))
    pdf.set_auto_page_break(False)
    pdf.set_title(title)
    if author:
        pdf.set_author(author)
    pdf.set_creator("hashikit")
    for style, font in fonts.items():
        pdf.add_font(FONT_NAME, style, font)
    pdf.set_font(FONT_NAME, "B", 10)
    glyphs, bold_id = _Glyphs(pdf, font_dir), pdf.current_font.i
    for page in pages:
        pdf.add_page()
        boards = []
        for _, shapes in page.layers:
            for item in shapes:
                if isinstance(item, Label):
                    pdf.set_font(FONT_NAME, "B" if item.bold else "", item.size)
                    width = pdf.get_string_width(item.text)
                    x = item.x - (width / 2 if item.align == "C" else width if item.align == "R" else 0)
                    pdf.text(x, item.y, item.text)
                elif isinstance(item, Scene):
                    boards.append(item)
                elif not (isinstance(item, Rect) and item.cls == "background"):  # the paper is white
                    raise TypeError(f"a page holds labels and boards, not {type(item).__name__}")
        if boards:
            # the board numbers use the bold font, which this page's labels (drawn above) have put on
            # the page's resources; fpdf2 has no public call for a block of content operators
            pdf.set_font(FONT_NAME, "B", 10)
            body = "\n".join(board_ops(b, glyphs, bold_id) for b in boards)
            pdf._out(f"q {_K:.5f} 0 0 {-_K:.5f} 0 {page.height * _K:.3f} cm\n{body}\nQ")
    tags = _tags({font.name: [g.unicode for g, _ in font.subset.items() if g is not None]
                  for font in pdf.fonts.values() if hasattr(font, "subset")})
    data = subset_tags(bytes(pdf.output()), tags)
    with open(os.fspath(path), "wb") as fh:
        fh.write(data)


__all__ = ["write_pdf", "board_ops", "colour", "subset_tags"]
