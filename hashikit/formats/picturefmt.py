"""Pictures (PNG, JPEG, WebP) as an input format: read from their bytes by :mod:`hashikit.formats.picture`.

The registry entry gives the format its name (``--from picture``), its extensions and its line in
the help and README tables; :func:`hashikit.formats.read_file` recognises a picture by its first
bytes, whatever the file is called, and hands the bytes to :func:`read_bytes`.
"""

from __future__ import annotations

from .. import limits as _limits
from ..errors import FormatError
from ..limits import Limits
from . import Document, Format, register

def _read_text(text: str, source: str, limits: Limits) -> Document:
    raise FormatError("not a PNG, JPEG or WebP picture (its bytes do not start like one; a picture is read "
                      "from its file, not from text)", source)


def read_bytes(raw: bytes, source: str, limits: Limits = _limits.CLI) -> Document:
    """A picture's puzzle, with the bridges drawn on it as a game in progress: the reading as the
    picture alone shows it (``hashikit.service.load`` settles it by the rules)."""
    from .picture import read_picture

    reading = read_picture(raw, source, limits)
    return Document(reading.puzzle, reading.bridges if reading.bridges.bridges else None,
                    in_play=True, picture=reading)


FORMAT = register(Format(
    "picture", (".png", ".jpg", ".jpeg", ".webp"),
    "a picture of a board (PNG, JPEG, WebP; needs .[photo])", read=_read_text, has_solution=True,
    readme="a screenshot or photo of a board, recognised by its bytes; the bridges drawn on it are read as a "
           "game in progress (needs `pip install \".[photo]\"`)"))
