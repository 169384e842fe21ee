"""A picture read for the library and the web, settled by the rules (:mod:`.settling`):
:func:`read_picture` reads bytes (the library's ``hashikit.read_picture``); :func:`read_picture_report`
answers the web API's ``POST /api/read-picture``, with the geometry a page needs to draw the reading
over the picture and the corrections it may undo."""

from __future__ import annotations

import base64
import binascii

from .. import limits as limits_mod
from ..limits import Limits
from ..records import Fresh
from .admit import BadInput, admit, link_ends
from .settling import settle
from .shapes import Answer, Bridge, LinkEnds, PuzzleModel

__all__ = ["PictureReport", "read_picture_report", "decode_image", "read_picture", "settle"]


def read_picture(raw: bytes, source: str = "<picture>", lim: Limits = limits_mod.CLI):
    """A picture's :class:`~hashikit.formats.picture.Reading`, settled by the rules."""
    from ..formats.picture import read_picture as read

    return settle(read(raw, source, lim), source=source)


class PictureReport(Answer):
    puzzle: PuzzleModel
    bridges: list[Bridge] = Fresh(list)
    """the bridges drawn: [r1, c1, r2, c2, count]"""
    links: list[LinkEnds]
    crossings: list[list[int]]
    """pairs of indices into links that cross"""
    islands: list[list[float]] = Fresh(list)
    """[row, col, number, sure (0..1), x, y]: x, y the digit's centre in picture pixels"""
    unsure: list[str] = Fresh(list)
    """where the reading is unsure, in words"""
    corrections: list[dict] = Fresh(list)
    """what the rules corrected: {"text", "cell": [r, c] or "link": [r1, c1, r2, c2], "was", "now"}"""
    summary: str
    """what was read, in words"""
    width: int
    height: int
    origin: list[float]
    """the picture pixel of cell (0, 0)'s centre (the grid near the board's middle)"""
    ex: list[float]
    """pixels from a cell's centre to the next column's"""
    ey: list[float]
    """pixels from a cell's centre to the next row's"""
    homography: list[list[float]] | None = None
    """the grid as the camera saw it: (column, row, 1) -> picture pixel, 3 x 3 by rows (null: affine)"""


def decode_image(data: str, lim: Limits) -> bytes:
    """The bytes of a base64 picture (a ``data:image/...;base64,`` URL is accepted too)."""
    if data.startswith("data:"):
        data = data.split(",", 1)[1] if "," in data else ""
    if not data.strip():
        raise BadInput('"image" is empty')
    if len(data) > lim.max_input_bytes * 4 // 3 + 4:
        raise BadInput(f"the picture is larger than {lim.max_input_bytes} bytes")
    try:
        return base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        raise BadInput('"image" is not base64 (send the picture\'s bytes in base64)') from None


def read_picture_report(raw: bytes, lim: Limits = limits_mod.WEB, source: str = "the picture") -> PictureReport:
    """Read a picture (bytes) within ``lim``: the puzzle, the bridges drawn, where unsure, what the
    rules corrected, and the lattice."""
    from ..errors import FormatError
    from ..formats.picture import shown

    try:
        reading = read_picture(raw, source, lim)
    except FormatError as exc:
        raise BadInput(exc.message) from None
    admit(reading.puzzle, lim, numbers=False)
    width, height = shown(raw).size
    corrections = []
    for c in reading.corrections:
        item = {"text": c.text, "was": c.was, "now": c.now}
        if c.cell is not None:
            item["cell"] = list(c.cell)
        if c.link is not None:
            item["link"] = [*c.link[0], *c.link[1]]
        corrections.append(item)
    return PictureReport(
        puzzle=PuzzleModel.of(reading.puzzle), bridges=reading.bridges.to_list(), links=link_ends(reading.puzzle),
        crossings=[list(p) for p in reading.puzzle.crossings],
        islands=[[i.row, i.col, i.number, i.sure, round(i.x, 1), round(i.y, 1)] for i in reading.islands],
        unsure=reading.unsure, corrections=corrections, summary=reading.summary(), width=width, height=height,
        origin=[round(v, 2) for v in reading.origin], ex=[round(v, 3) for v in reading.ex],
        ey=[round(v, 3) for v in reading.ey],
        homography=[[round(v, 6) for v in row] for row in reading.homography] if reading.homography else None)
