"""What a picture showed, drawn over it (``--show``): the reading made into a scene on the picture's
lattice (:func:`hashikit.render.scene.overlay`), drawn over the picture as it is shown
(:mod:`hashikit.render.to_photo`), through the grid as the camera saw it.  Islands and bridges read
are drawn in green, an island or a bridge the reading is unsure of in red, an island whose number the
rules of the puzzle corrected in amber, each number beside its island."""

from __future__ import annotations

import os

from ..errors import HashikitError

__all__ = ["reading_picture", "draw_reading"]


def reading_picture(reading) -> bytes:
    """The picture a :class:`~hashikit.formats.picture.Reading` came from, with what was read drawn
    over it, as PNG bytes."""
    from ..formats.picture import SURE, shown
    from ..render.scene import overlay
    from ..render.to_photo import over

    image = shown(reading.raw)
    doubts = getattr(reading, "doubts", [])
    corrected = [c.cell for c in getattr(reading, "corrections", []) if c.cell is not None and c.was != c.now]
    unsure = {d.cell for d in doubts if d.cell is not None} | {(i.row, i.col) for i in reading.islands
                                                                if i.sure < SURE and (i.row, i.col) not in corrected}
    scene = overlay(reading.puzzle, reading.bridges, origin=reading.origin, ex=reading.ex, ey=reading.ey,
                    width=image.width, height=image.height, homography=getattr(reading, "homography", None),
                    unsure=sorted(unsure), doubted=[d.link for d in doubts if d.link is not None],
                    corrected=corrected)
    return over(image, scene)


def draw_reading(reading, out: str) -> None:
    """Write :func:`reading_picture` to ``out`` (PNG)."""
    data = reading_picture(reading)
    try:
        with open(os.fspath(out), "wb") as fh:
            fh.write(data)
    except OSError as exc:
        raise HashikitError(f"{out}: cannot write: {exc.strerror or exc}") from None
