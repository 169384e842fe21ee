"""The SVG back end: a scene as SVG text.

A scene's layers become groups (``<g id="bridges">`` ...); a scene inside a scene (a board on a
book page) becomes ``<g class="hashikit board">`` with its layers as classes.  Numbers are
written with at most two decimals; text is escaped with :func:`html.escape` (``xml.sax.saxutils``
would import ``urllib.request`` and the network modules with it).
"""

from __future__ import annotations

import html

from .scene import Circle, Grid, Label, Line, Rect, Scene, Text
from .style import FONT_FAMILY

#: points in a scene's unit
PT = {"px": 96 / 72, "mm": 25.4 / 72}
_ANCHOR = {"L": "start", "C": "middle", "R": "end"}


#: decimals written, by a scene's unit (a hundredth of a pixel, a thousandth of a millimetre)
DECIMALS = {"px": 2, "mm": 3}


def _fmt(v: float, places: int = 2) -> str:
    """A compact, deterministic number for SVG attributes."""
    s = f"{v:.{places}f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def _paint(colour: str | None) -> str:
    return colour if colour is not None else "none"


def shape(item, unit: str = "px") -> str:
    places = DECIMALS[unit]

    def _n(v: float) -> str:
        return _fmt(v, places)

    if isinstance(item, Rect):
        attrs = (f'x="{_n(item.x)}" y="{_n(item.y)}" width="{_n(item.w)}" height="{_n(item.h)}"'
                 f' fill="{_paint(item.fill)}"')
        if item.radius:
            attrs += f' rx="{_n(item.radius)}"'
        if item.stroke:
            attrs += f' stroke="{item.stroke}" stroke-width="{_n(item.width)}"'
        if item.cls:
            attrs = f'class="{item.cls}" ' + attrs
        return f"<rect {attrs}/>"
    if isinstance(item, Line):
        attrs = (f'class="{item.cls}" x1="{_n(item.x1)}" y1="{_n(item.y1)}" x2="{_n(item.x2)}"'
                 f' y2="{_n(item.y2)}" stroke="{item.stroke}" stroke-width="{_n(item.width)}"')
        if item.dash:
            attrs += f' stroke-dasharray="{_n(item.dash[0])} {_n(item.dash[1])}"'
        if item.key:
            attrs += f' data-bridge="{item.key}"'
        return f"<line {attrs}/>"
    if isinstance(item, Circle):
        attrs = (f'class="{item.cls}" data-row="{item.row}" data-col="{item.col}"'
                 f' cx="{_n(item.cx)}" cy="{_n(item.cy)}" r="{_n(item.r)}" fill="{_paint(item.fill)}"'
                 f' stroke="{item.stroke}" stroke-width="{_n(item.width)}"')
        if item.dash:
            attrs += f' stroke-dasharray="{_n(item.dash[0])} {_n(item.dash[1])}"'
        return f"<circle {attrs}/>"
    if isinstance(item, Text):
        return (f'<text class="{item.cls}" x="{_n(item.x)}" y="{_n(item.y)}" dy="0.36em"'
                f' font-size="{_n(item.size)}" fill="{item.fill}">{html.escape(item.text, quote=False)}</text>')
    if isinstance(item, Grid):
        d = "".join(f"M{_n(a)} {_n(b)}H{_n(x)}" if b == y else f"M{_n(a)} {_n(b)}V{_n(y)}"
                    for a, b, x, y in item.segments)
        return (f'<path class="grid" d="{d}" fill="none" stroke="{item.stroke}"'
                f' stroke-width="{_n(item.width)}"/>')
    if isinstance(item, Label):
        weight = ' font-weight="bold"' if item.bold else ""
        anchor = f' text-anchor="{_ANCHOR[item.align]}"' if item.align != "L" else ""
        return (f'<text x="{_n(item.x)}" y="{_n(item.y)}" font-size="{_n(item.size * PT[unit])}"{weight}{anchor}>'
                f'{html.escape(item.text, quote=False)}</text>')
    if isinstance(item, Scene):
        return "\n".join([f'<g class="hashikit board" data-rows="{item.rows}" data-cols="{item.cols}">',
                          *_layers(item, "class"), "</g>"])
    raise TypeError(item)  # pragma: no cover


def _layers(scene: Scene, name_attr: str) -> list[str]:
    out = []
    for name, shapes in scene.layers:
        if not shapes:
            continue
        extra = ""
        if name == "bridges" or name == "links":
            extra = ' stroke-linecap="butt"'
        elif name in ("islands", "labels"):
            extra = (f' font-family="{html.escape(FONT_FAMILY)}" font-weight="bold"'
                     ' text-anchor="middle"')
        elif name == "text":
            extra = f' font-family="{html.escape(FONT_FAMILY)}" fill="#000000"'
        out.append(f'<g {name_attr}="{name}"{extra}>')
        out.extend(shape(s, scene.unit) for s in shapes)
        out.append("</g>")
    return out


def document(scene: Scene, title: str | None = None, size: tuple[float, float] | None = None) -> str:
    """The scene as an SVG document; ``size`` (CSS pixels) when the scene's unit is not pixels.
    A board's own picture carries its rows and columns (``data-rows``, ``data-cols``)."""
    w, h = (_fmt(v) for v in (size or (scene.width, scene.height)))
    vw, vh = _fmt(scene.width), _fmt(scene.height)
    board = (f' role="img" class="hashikit" data-rows="{scene.rows}" data-cols="{scene.cols}"'
             if scene.rows else "")
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {vw} {vh}"{board}>']
    if title is not None:
        out.append(f"<title>{html.escape(str(title), quote=False)}</title>")
    out.extend(_layers(scene, "id"))
    out.append("</svg>")
    return "\n".join(out) + "\n"


__all__ = ["document", "shape", "PT"]
