"""Readers and writers registered by name, chosen by extension, content or ``--from/--to``.

A reader takes ``(text, source)`` and returns a :class:`Document` (a puzzle, a
solution, or both); a writer takes ``(puzzle, solution)`` and returns text.
Readers raise :class:`~hashikit.errors.FormatError` naming the source, the line
and column, and what is wrong.

Each format module calls :func:`register` on import; :func:`_load_all` imports
them lazily, so ``import hashikit`` stays cheap.
"""

from __future__ import annotations

import importlib
import os
import re
from dataclasses import dataclass
from typing import Callable

from ..errors import FormatError, PuzzleError
from ..model import Puzzle, Solution

#: Largest input file hashikit reads (bytes).
MAX_INPUT_BYTES = 64 * 1024 * 1024

_MODULES = ("grid", "ohmec", "csvgrid", "has", "solved", "tatham", "puzzlink", "jsonfmt", "prob", "dot", "pzprv3")  # each format module adds its name here


@dataclass
class Document:
    """What a file holds: a puzzle, a solution, or both."""

    puzzle: Puzzle | None
    solution: Solution | None = None


@dataclass(frozen=True)
class Format:
    name: str
    extensions: tuple[str, ...]
    description: str
    read: Callable[[str, str], Document] | None = None
    write: Callable[[Puzzle, Solution | None], str] | None = None
    #: the writer draws a solution (and needs one)
    needs_solution: bool = False
    #: the reader returns a solution (maybe with its puzzle)
    has_solution: bool = False


FORMATS: dict[str, Format] = {}


def register(fmt: Format) -> Format:
    FORMATS[fmt.name] = fmt
    return fmt


_loaded = False


def _load_all() -> None:
    global _loaded
    if not _loaded:
        for name in _MODULES:
            importlib.import_module(f"{__name__}.{name}")
        _loaded = True


def formats() -> dict[str, Format]:
    _load_all()
    return FORMATS


def get(name: str) -> Format:
    _load_all()
    if name not in FORMATS:
        raise FormatError(f"unknown format {name!r}; known formats: {', '.join(sorted(FORMATS))}")
    return FORMATS[name]


_TATHAM = re.compile(r"^\s*\d+x\d+(i\d+)?(e\d+)?(m\d+)?L?(d\d+)?[:#]", re.ASCII)
_SOLVED_MARKS = set("-=|\"─═│║$")


def sniff(text: str) -> str:
    """Guess a text's format from its content (for ``.txt`` files and standard input)."""
    body = [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    first = body[0].strip() if body else ""
    if first.startswith("{"):
        return "json"
    if "puzz.link" in first or first.startswith("http") or "?hashikake" in first:
        return "puzzlink"
    if _TATHAM.match(first) and len(body) == 1:
        return "ohmec" if "." in first else "tatham"
    if body and len(first.split()) == 3 and all(t.isdigit() for t in first.split()):
        return "has"
    if any("," in ln for ln in body):
        return "csv"
    if any(ch in _SOLVED_MARKS for ln in body for ch in ln):
        return "solved"
    return "grid"


def format_for_path(path: str, text: str | None = None, writing: bool = False) -> Format:
    """The format a file name implies; ``.txt`` (and unknown endings) are sniffed when reading."""
    _load_all()
    lower = path.lower()
    best = None
    for fmt in FORMATS.values():
        for ext in fmt.extensions:
            if lower.endswith(ext) and (best is None or len(ext) > len(best[1])):
                if (writing and fmt.write) or (not writing and fmt.read):
                    best = (fmt, ext)
    if best is not None and best[1] != ".txt":
        return best[0]
    if writing:
        if best is not None:
            return best[0]
        raise FormatError(f"cannot tell the format from the name {path!r}; name it with --to "
                          f"({', '.join(n for n, f in sorted(FORMATS.items()) if f.write)})")
    return FORMATS[sniff(text or "")]


def read_text(text: str, fmt: str | None = None, source: str = "<string>") -> Document:
    """Parse ``text`` in format ``fmt`` (sniffed when None)."""
    _load_all()
    f = get(fmt) if fmt else FORMATS[sniff(text)]
    if f.read is None:
        raise FormatError(f"format {f.name!r} can be written but not read", source)
    try:
        return f.read(text, source)
    except PuzzleError as exc:  # a model rule, raised after parsing: name the source and cell
        raise FormatError(exc.message, source) from None


def read_file(path: str, fmt: str | None = None) -> Document:
    """Read a file (``-`` for standard input) with a size limit and clear errors."""
    import sys

    if path == "-":
        text = sys.stdin.read(MAX_INPUT_BYTES + 1)
        source = "<stdin>"
    else:
        source = path
        try:
            size = os.path.getsize(path)
            if size > MAX_INPUT_BYTES:
                raise FormatError(f"file is {size} bytes; hashikit reads at most {MAX_INPUT_BYTES}", source)
            with open(path, "rb") as fh:
                raw = fh.read(MAX_INPUT_BYTES + 1)
        except FileNotFoundError:
            raise FormatError("no such file", source) from None
        except IsADirectoryError:
            raise FormatError("is a directory, not a puzzle file", source) from None
        except OSError as exc:
            raise FormatError(f"cannot read: {exc.strerror or exc}", source) from None
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise FormatError(f"not UTF-8 text (byte {exc.start + 1} is 0x{raw[exc.start]:02x})", source) from None
    if len(text) > MAX_INPUT_BYTES:
        raise FormatError(f"input is larger than {MAX_INPUT_BYTES} bytes", source)
    if not text.strip():
        raise FormatError("the file is empty", source)
    f = get(fmt) if fmt else format_for_path(path if path != "-" else "", text)
    return read_text(text, f.name, source)


def write_text(puzzle: Puzzle, fmt: str, solution: Solution | None = None) -> str:
    """Render ``puzzle`` (and ``solution``) in format ``fmt``."""
    f = get(fmt)
    if f.write is None:
        raise FormatError(f"format {fmt!r} can be read but not written")
    if f.needs_solution and solution is None:
        raise FormatError(f"format {fmt!r} shows a solution; there is none to write")
    return f.write(puzzle, solution)


def parse_maxbridges_comment(line: str) -> int | None:
    """``# maxbridges: 3`` (or ``=``) in a comment line sets MAXBRIDGES for grid-like text."""
    m = re.match(r"\s*#\s*max[-_ ]?bridges\s*[:=]\s*(\S+)\s*$", line, re.IGNORECASE)
    if not m:
        return None
    try:
        value = int(m.group(1))
    except ValueError:
        value = 0
    if value < 1:
        raise ValueError(f"MAXBRIDGES must be a whole number of at least 1, got {m.group(1)!r}")
    return value


__all__ = ["Document", "Format", "FORMATS", "register", "formats", "get", "sniff", "format_for_path",
           "read_text", "read_file", "write_text", "MAX_INPUT_BYTES", "parse_maxbridges_comment"]
