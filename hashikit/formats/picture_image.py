"""The picture reader's pixels: decoding within the caps, and the ink of each polarity.

:func:`decode` turns a picture's bytes into grey levels (0..1) as a viewer shows them (EXIF
orientation applied), refusing bombs from their header before a pixel is decoded.  :func:`ink_contrast`
says how much each pixel stands out from the paper around it, relative to that paper's own
brightness, so that a shadow or a gradient of light across a photo changes nothing: dark ink on light
paper, or (``light=True``) light ink on dark paper, as a dark theme draws it.
"""

from __future__ import annotations

import io

from .. import limits as _limits
from ..errors import FormatError
from ..limits import Limits
from ._common import kind_of

#: the largest picture read, in pixels (a PNG "bomb" announces billions in a few bytes: refused
#: from its header, before decoding)
MAX_PIXELS = 40_000_000
#: pictures are worked on with their longest side at most this (larger ones are scaled down)
WORK_SIDE = 2400
INSTALL = 'reading pictures needs OpenCV: pip install ".[photo]"'


def cv2_or_refuse(source: str | None = None):
    """OpenCV, or a one-line FormatError saying how to install it."""
    try:
        import cv2
        import numpy  # noqa: F401
    except ImportError:
        raise FormatError(INSTALL, source) from None
    return cv2


def decode(raw: bytes, source: str, lim: Limits):
    """The picture as grey levels (float32, 0..1, as shown), and the scale applied to it."""
    cv2 = cv2_or_refuse(source)
    import numpy as np
    from PIL import Image, ImageFile, UnidentifiedImageError

    ImageFile.LOAD_TRUNCATED_IMAGES = False
    kind = kind_of(raw)
    if kind is None:
        raise FormatError("not a PNG, JPEG or WebP picture", source)
    cap = min(lim.max_input_bytes, _limits.CLI.max_input_bytes)
    if len(raw) > cap:
        raise FormatError(f"the picture is {len(raw)} bytes; hashikit reads at most {cap}", source)
    too_large = f"hashikit reads pictures of at most {MAX_PIXELS:,} pixels"
    if kind == "PNG" and len(raw) >= 24 and raw[12:16] == b"IHDR":  # the size, before PIL sees it
        w, h = int.from_bytes(raw[16:20], "big"), int.from_bytes(raw[20:24], "big")
        if w * h > MAX_PIXELS:
            raise FormatError(f"the picture is {w}x{h} pixels; {too_large}", source)
    try:
        im = Image.open(io.BytesIO(raw))
        w, h = im.size
    except Image.DecompressionBombError:
        raise FormatError(f"the picture has far too many pixels; {too_large}", source) from None
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError) as exc:
        raise FormatError(f"cannot read the {kind} picture: {exc}", source) from None
    if w <= 0 or h <= 0:
        raise FormatError(f"the {kind} picture has no pixels ({w}x{h})", source)
    if w * h > MAX_PIXELS:
        raise FormatError(f"the picture is {w}x{h} pixels; {too_large}", source)
    if w < 16 or h < 16:
        raise FormatError(f"the picture is {w}x{h} pixels, too small to hold a board", source)
    try:
        orient = orientation(im)
        if kind == "JPEG" and max(w, h) > 2 * WORK_SIDE:
            im.draft("RGB", (w // 2, h // 2))
        im.load()
        if orient != 1:  # a phone photo turned by its EXIF tag: the pixels as the picture is shown
            from PIL import ImageOps

            im = ImageOps.exif_transpose(im)
        if im.mode in ("RGBA", "LA", "PA") or (im.mode == "P" and "transparency" in im.info):
            im = im.convert("RGBA")
            back = Image.new("RGBA", im.size, (255, 255, 255, 255))
            im = Image.alpha_composite(back, im)
        gray = np.asarray(im.convert("L"), dtype=np.float32) / 255.0
    except (OSError, ValueError, SyntaxError, Image.DecompressionBombError, MemoryError) as exc:
        raise FormatError(f"the {kind} picture is damaged or cut short ({exc})", source) from None
    scale = gray.shape[1] / (h if orient in (5, 6, 7, 8) else w)
    side = max(gray.shape)
    if side > WORK_SIDE:
        f = WORK_SIDE / side
        gray = cv2.resize(gray, (max(1, round(gray.shape[1] * f)), max(1, round(gray.shape[0] * f))),
                          interpolation=cv2.INTER_AREA)
        scale *= f
    return gray, scale


def orientation(im) -> int:
    """The EXIF orientation tag (1: as stored; 2-8: mirrored and/or turned), 1 when there is none."""
    try:
        value = im.getexif().get(0x0112, 1)
    except Exception:  # a damaged EXIF block: the pixels as stored
        return 1
    return value if isinstance(value, int) and 1 <= value <= 8 else 1


def shown(raw: bytes):
    """The picture as a viewer shows it (EXIF orientation applied), loaded, as a PIL image."""
    from PIL import Image, ImageOps

    im = Image.open(io.BytesIO(raw))
    im.load()
    return ImageOps.exif_transpose(im) if orientation(im) != 1 else im


def kernel_side(gray, feature: float | None = None) -> int:
    """The side of the window the paper's brightness is taken over: larger than a digit (``feature``
    pixels high, when known), small enough to follow a shadow."""
    if feature is not None:
        k = int(2.2 * feature) | 1
        return max(9, min(121, k))
    return max(15, min(61, (min(gray.shape) // 40) | 1))


def ink_contrast(gray, light: bool = False, k: int | None = None):
    """How much each pixel stands out from the paper around it, as a share of that paper's
    brightness (0 = paper): dark ink on light paper, or light ink on dark paper with ``light``."""
    cv2 = cv2_or_refuse()
    import numpy as np

    k = k or kernel_side(gray)
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))
    if not light:
        back = cv2.morphologyEx(gray, cv2.MORPH_CLOSE, kernel)
        return np.clip((back - gray) / np.maximum(back, 0.2), 0.0, 1.0)
    back = cv2.morphologyEx(gray, cv2.MORPH_OPEN, kernel)
    # light ink: measured against the brightest ink around (the paper is near black, so its own
    # brightness is no measure), and never against less than mid-grey, where there is no ink
    brightest = cv2.dilate(gray, kernel)
    return np.clip((gray - back) / np.maximum(brightest, 0.5), 0.0, 1.0)


def dark_share(gray) -> float:
    """The share of the picture that is darker than mid-grey (a dark theme or a dark table)."""
    import numpy as np

    step = max(1, int((gray.size / 250_000) ** 0.5))
    return float((gray[::step, ::step] < 0.45).mean())


#: ink fainter than the threshold by this share still counts where it touches ink above it
FAINT = 0.6


def ink_mask(contrast, thr: float):
    """The ink: what stands out above ``thr``, and what stands out above ``FAINT * thr`` where it
    touches that (a thin or blurred stroke keeps its faint parts, a digit does not break in two;
    faint marks alone, such as light grid lines or noise, stay paper)."""
    cv2 = cv2_or_refuse()
    import numpy as np

    strong = contrast > thr
    weak = (contrast > FAINT * thr).astype(np.uint8)
    n, labels = cv2.connectedComponents(weak, connectivity=8)
    keep = np.zeros(n, bool)
    keep[np.unique(labels[strong])] = True
    keep[0] = False
    return keep[labels]
