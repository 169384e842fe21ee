"""What a picture showed, drawn over it (``--show``): the reading made into a scene on the picture's
lattice (:func:`hashikit.render.scene.overlay`), drawn over the picture as it is shown
(:mod:`hashikit.render.to_photo`).  Islands and bridges read are drawn in green, an island whose
number the reader is unsure of in red, its number beside it."""

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
    scene = overlay(reading.puzzle, reading.bridges, origin=reading.origin, ex=reading.ex, ey=reading.ey,
                    width=image.width, height=image.height,
                    unsure=[(i.row, i.col) for i in reading.islands if i.sure < SURE])
    return over(image, scene)


def draw_reading(reading, out: str) -> None:
    """Write :func:`reading_picture` to ``out`` (PNG)."""
    data = reading_picture(reading)
    try:
        with open(os.fspath(out), "wb") as fh:
            fh.write(data)
    except OSError as exc:
        raise HashikitError(f"{out}: cannot write: {exc.strerror or exc}") from None
