"""The overlay back end: a scene drawn over a picture (what the picture reader saw, over the
screenshot or photo it read), as PNG.  The scene is rasterised by resvg on a transparent sheet the
picture's size (:mod:`.to_png`) and laid over the picture with Pillow."""

from __future__ import annotations

import io

from .scene import Scene
from .to_png import png


def over(image, scene: Scene) -> bytes:
    """``scene`` (in the picture's pixels) drawn over ``image`` (a Pillow image, as it is shown),
    as PNG bytes the picture's size."""
    from PIL import Image

    base = image.convert("RGBA")
    if (round(scene.width), round(scene.height)) != base.size:
        raise ValueError(f"a {scene.width}x{scene.height} scene cannot be drawn over a {base.size[0]}x"
                         f"{base.size[1]} picture")
    with Image.open(io.BytesIO(png(scene, background=None))) as sheet:
        drawn = Image.alpha_composite(base, sheet.convert("RGBA")).convert("RGB")
    buf = io.BytesIO()
    drawn.save(buf, "PNG")
    return buf.getvalue()


__all__ = ["over"]
