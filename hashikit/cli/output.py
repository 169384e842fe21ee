"""The CLI's own file output: output paths and formats checked before any work starts (exit 2,
no work lost), and writing to a file or standard output."""

from __future__ import annotations

import os
from ..service import BadInput


def output_format(path: str | None, to: str | None, *, default: str | None = None):
    """The format to write to ``path`` (``-``/None: standard output), checked before any work."""
    from ..formats import format_for_path, get

    if to:
        fmt = get(to)
    elif path in (None, "-"):
        if default is None:
            raise BadInput("writing to standard output: name the format with --to")
        fmt = get(default)
    else:
        fmt = format_for_path(path, writing=True)
    if fmt.write is None:
        raise BadInput(f"format {fmt.name!r} cannot be written")
    return fmt


def validate_writable(path: str | None) -> None:
    """Refuse an output path that cannot be written (missing folder, a directory, no
    permission) before the work starts, so no work is lost to a bad path."""
    if path in (None, "-"):
        return
    if os.path.isdir(path):
        raise BadInput(f"{path}: is a directory; give a file name")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise BadInput(f"{path}: the folder {folder} does not exist")
    if os.path.exists(path) and not os.access(path, os.W_OK):
        raise BadInput(f"{path}: cannot write: permission denied")
    if not os.path.exists(path) and not os.access(folder, os.W_OK):
        raise BadInput(f"{path}: cannot write into {folder}: permission denied")


def validate_picture(path: str) -> None:
    """A picture path: .svg or .png, writable (checked before the work)."""
    ext = os.path.splitext(path)[1].lower()
    if ext not in (".svg", ".png"):
        raise BadInput(f"{path}: cannot draw to a {ext or 'extensionless'} file; use a .svg or .png file name")
    validate_writable(path)


def validate_folder(path: str) -> None:
    """An output folder: made now (so a bad one fails before the work), writable."""
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as exc:
        raise BadInput(f"{path}: cannot make the folder: {exc.strerror or exc}") from None
    if not os.access(path, os.W_OK):
        raise BadInput(f"{path}: cannot write into the folder: permission denied")


def write_output(data: str | bytes, path: str | None, stdout=None) -> None:
    """Write text or bytes to ``path`` (``-``/None: standard output); BadInput on an OS error."""
    import sys

    if path in (None, "-"):
        out = stdout or sys.stdout
        if isinstance(data, bytes):
            out.buffer.write(data)
        else:
            out.write(data if data.endswith("\n") else data + "\n")
        return
    try:
        if isinstance(data, bytes):
            with open(path, "wb") as fh:
                fh.write(data)
        else:
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(data)
    except OSError as exc:
        raise BadInput(f"{path}: cannot write: {exc.strerror or exc}") from None
