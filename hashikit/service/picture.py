"""The picture reader as a use-case: :func:`read_picture_report` answers what the web API's
``POST /api/read-picture`` sends back (the same puzzle and bridges ``read_file`` gives the command
line), with the geometry a page needs to draw the reading over the picture and to play it."""

from __future__ import annotations

import base64
import binascii

from .. import limits as limits_mod
from ..limits import Limits
from ..records import Fresh
from .admit import BadInput, admit, link_ends
from .shapes import Answer, Bridge, LinkEnds, PuzzleModel

__all__ = ["PictureReport", "read_picture_report", "decode_image"]


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
    summary: str
    """what was read, in words"""
    width: int
    height: int
    origin: list[float]
    """the picture pixel of cell (0, 0)'s centre"""
    ex: list[float]
    """pixels from a cell's centre to the next column's"""
    ey: list[float]
    """pixels from a cell's centre to the next row's"""


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
    """Read a picture (bytes) within ``lim``: the puzzle, the bridges drawn, where unsure, and the lattice."""
    from ..errors import FormatError
    from ..formats.picture import read_picture, shown

    try:
        reading = read_picture(raw, source, lim)
    except FormatError as exc:
        raise BadInput(exc.message) from None
    admit(reading.puzzle, lim, numbers=False)
    width, height = shown(raw).size
    return PictureReport(
        puzzle=PuzzleModel.of(reading.puzzle), bridges=reading.bridges.to_list(), links=link_ends(reading.puzzle),
        crossings=[list(p) for p in reading.puzzle.crossings],
        islands=[[i.row, i.col, i.number, i.sure, round(i.x, 1), round(i.y, 1)] for i in reading.islands],
        unsure=reading.unsure, summary=reading.summary(), width=width, height=height,
        origin=[round(v, 2) for v in reading.origin], ex=[round(v, 3) for v in reading.ex],
        ey=[round(v, 3) for v in reading.ey])
