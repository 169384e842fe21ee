"""Readers and writers registered by name, chosen by extension, content or ``--from/--to``.

A reader takes ``(text, source, limits)`` and returns a :class:`Document` (a puzzle, a
solution, or both); a writer takes ``(puzzle, solution)`` and returns text.
Readers raise :class:`~hashikit.errors.FormatError` naming the source, the line
and column, and what is wrong, and enforce the caps of :mod:`hashikit.limits`
(``limits.CLI`` unless the caller passes another, as the web app passes ``limits.WEB``)
before they allocate anything of the size the text claims.  A solution read with its
puzzle is checked to lie on the board (:func:`validate_solution`) before anyone walks it.

The registry is the one list of formats: the CLI's help table (:func:`help_table`) and the
README's table (:func:`readme_table`, checked by a test) are made from it.

Each format module calls :func:`register` on import; :func:`_load_all` imports
them lazily, so ``import hashikit`` stays cheap.

May import: the model, errors and limits (never the engines, the use-cases or the front ends).
"""

from __future__ import annotations

import importlib
import os
import re
from collections.abc import Callable

from .. import limits as _limits
from ..errors import FormatError, PuzzleError
from ..limits import Limits
from ..model import Puzzle, Solution
from ..records import Record

#: Largest input hashikit reads (bytes), whatever the limits passed: limits.CLI's cap.
MAX_INPUT_BYTES = _limits.CLI.max_input_bytes

#: the format modules, in the order the help and README tables list them, each with the formats it
#: registers and their file endings: reading or writing one file loads only its format's module
#: (``tests/test_formats.py`` holds this table to what the modules register)
_MODULES = {
    "grid": {"grid": (".txt", ".grid")},
    "csvgrid": {"csv": (".csv",)},
    "has": {"has": (".has",)},
    "tatham": {"tatham": (".tatham",)},
    "puzzlink": {"puzzlink": (".url",)},
    "jsonfmt": {"json": (".json",), "json-solution": (".sol.json",)},
    "solved": {"solved": (".sol",), "solved-unicode": (".usol",)},
    "prob": {"prob": (".mch",)},
    "dot": {"dot": (".dot", ".gv")},
    "ohmec": {"ohmec": (".ohmec",)},
    "pzprv3": {"pzprv3": (".pzprv3",)},
    "picturefmt": {"picture": (".png", ".jpg", ".jpeg", ".webp")},
}


class Document(Record):
    """What a file holds: a puzzle, a solution, or both."""

    puzzle: Puzzle | None
    solution: Solution | None = None
    #: the bridges are a game in progress (read from a picture), not a finished solution
    in_play: bool = False
    #: what a picture showed (a :class:`hashikit.formats.picture.Reading`), for pictures
    picture: object | None = None


class Format(Record, frozen=True):
    name: str
    extensions: tuple[str, ...]
    #: one line for the CLI's help table
    description: str
    read: Callable[..., Document] | None = None
    write: Callable[[Puzzle, Solution | None], str] | None = None
    #: the writer draws a solution (and needs one)
    needs_solution: bool = False
    #: the reader returns a solution (maybe with its puzzle)
    has_solution: bool = False
    #: the README table's "what" column (markdown); the description when empty
    readme: str = ""
    #: the format can say that bridges form no loop (Puzzle.no_loops); the others refuse such puzzles
    holds_no_loops: bool = False
    #: the format's cheap size check: ``size(text, source)`` is the board's ``(rows, columns)`` as the
    #: text declares it (its header, or the lines that draw it), read without reading the board,
    #: or None when the text declares none there; a header number too long is a FormatError.  None
    #: for a format whose size is known only once the whole text is parsed (JSON: its reader
    #: checks the size first thing after that)
    size: Callable[[str, str], tuple[int, int] | None] | None = None


FORMATS: dict[str, Format] = {}

#: run once before the first picture is read (the command line sends what the reader saw to stderr)
_before_picture: list[Callable[[], None]] = []


def before_picture(hook: Callable[[], None]) -> None:
    """Have ``hook`` run before the next picture is read (the picture reader loads only then)."""
    if hook not in _before_picture:
        _before_picture.append(hook)


def register(fmt: Format) -> Format:
    FORMATS[fmt.name] = fmt
    return fmt


_loaded = False


def _load_all() -> None:
    global _loaded
    if not _loaded:
        for name in _MODULES:
            importlib.import_module(f"{__name__}.{name}")
        # the registry lists formats in _MODULES order, whichever module someone imported first
        order = {f"{__name__}.{m}": i for i, m in enumerate(_MODULES)}
        ranked = sorted(FORMATS.values(), key=lambda f: order.get((f.read or f.write).__module__, len(order)))
        FORMATS.clear()
        FORMATS.update((f.name, f) for f in ranked)
        _loaded = True


def formats() -> dict[str, Format]:
    _load_all()
    return FORMATS


def _load_module_of(name: str) -> None:
    """Import the module that registers format ``name`` (all of them for a name no module lists)."""
    if name in FORMATS:
        return
    module = next((m for m, names in _MODULES.items() if name in names), None)
    if module is None:
        _load_all()
    else:
        importlib.import_module(f"{__name__}.{module}")


def get(name: str) -> Format:
    _load_module_of(name)
    if name not in FORMATS:
        raise FormatError(f"unknown format {name!r}; known formats: {', '.join(sorted(FORMATS))}")
    return FORMATS[name]


_TATHAM = re.compile(r"^\s*\d+x\d+(i\d+)?(e\d+)?(m\d+)?L?(d\d+)?[:#]", re.ASCII)
_OHMEC = re.compile(r"^\s*\d+x\d+:", re.ASCII)
_SOLVED_MARK = re.compile("[-=|\"─═│║$]")
_SPACED = re.compile(r"\s*#\s*spaced\b", re.IGNORECASE)


def sniff(text: str) -> str:
    """Guess a text's format from its content (for ``.txt`` files and standard input)."""
    body = [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    first = body[0].strip() if body else ""
    if first.startswith("{"):
        return "json"
    if first.startswith("pzprv3"):
        return "pzprv3"
    if "puzz.link" in first or first.startswith("http") or "?hashikake" in first:
        return "puzzlink"
    if len(body) == 1 and _TATHAM.match(first):
        desc = first.split(":", 1)[1] if ":" in first else ""
        return "ohmec" if _OHMEC.match(first) and any(ch in "._=|#-0" for ch in desc) else "tatham"
    if any(_SPACED.match(ln) for ln in text.splitlines()):
        return "solved"
    if any("," in ln for ln in body):
        return "csv"
    if any(_SOLVED_MARK.search(ln) for ln in body):
        return "solved"
    if body and len(first.split()) == 3 and all(t.isascii() and t.isdigit() for t in first.split()):
        return "has"
    return "grid"


def declared_size(text: str, fmt: str | None = None, source: str = "<string>") -> tuple[int, int] | None:
    """The board size ``(rows, columns)`` ``text`` declares in format ``fmt`` (sniffed when None),
    by the format's own cheap size check (:attr:`Format.size`): for an entry that refuses a
    board over its limits before reading it.  None when the format declares no size up front."""
    f = get(fmt or sniff(text))
    return f.size(text, source) if f.size is not None else None


def format_for_path(path: str, text: str | None = None, writing: bool = False) -> Format:
    """The format a file name implies; ``.txt`` (and unknown endings) are sniffed when reading."""
    lower = path.lower()
    endings = sorted(((ext, name) for names in _MODULES.values() for name, exts in names.items() for ext in exts
                      if lower.endswith(ext)), key=lambda pair: -len(pair[0]))
    best = None
    for ext, name in endings:  # the longest ending whose format reads (or writes) wins
        fmt = get(name)
        if (writing and fmt.write) or (not writing and fmt.read):
            best = (fmt, ext)
            break
    if best is not None and best[1] != ".txt":
        return best[0]
    if writing:
        if best is not None:
            return best[0]
        _load_all()
        raise FormatError(f"cannot tell the format from the name {path!r}; name it with --to "
                          f"({', '.join(n for n, f in sorted(FORMATS.items()) if f.write)})")
    return get(sniff(text or ""))


def _too_large(text: str, cap: int) -> int | None:
    """The text's size in UTF-8 bytes when above ``cap`` (counted without encoding it all)."""
    if len(text) <= cap // 4:
        return None
    size = len(text.encode("utf-8", "surrogatepass"))
    return size if size > cap else None


def read_text(text: str, fmt: str | None = None, source: str = "<string>",
              limits: Limits = _limits.CLI) -> Document:
    """Parse ``text`` in format ``fmt`` (sniffed when None) within ``limits``."""
    cap = min(limits.max_input_bytes, MAX_INPUT_BYTES)
    size = _too_large(text, cap)
    if size is not None:
        raise FormatError(f"the input is {size} bytes; hashikit reads at most {cap}", source)
    f = get(fmt or sniff(text))
    if f.read is None:
        raise FormatError(f"format {f.name!r} can be written but not read", source)
    try:
        doc = f.read(text, source, limits)
    except PuzzleError as exc:  # a model rule, raised after parsing: name the source and cell
        raise FormatError(exc.message, source) from None
    if doc.puzzle is not None and doc.solution is not None:
        validate_solution(doc.puzzle, doc.solution, source, limits)
    return doc


def read_file(path: str, fmt: str | None = None, limits: Limits = _limits.CLI) -> Document:
    """Read a file (``-`` for standard input) within ``limits``, with clear errors."""
    import sys

    cap = min(limits.max_input_bytes, MAX_INPUT_BYTES)
    raw = text = None
    if path == "-":
        source = "<stdin>"
        binary = getattr(sys.stdin, "buffer", None)  # bytes where there are (a picture comes as bytes)
        if binary is not None:
            raw = binary.read(cap + 1)
        else:
            text = sys.stdin.read(cap + 1)
    else:
        source = path
        try:
            size = os.path.getsize(path)
            if size > cap:
                raise FormatError(f"file is {size} bytes; hashikit reads at most {cap}", source)
            with open(path, "rb") as fh:
                raw = fh.read(cap + 1)
        except FileNotFoundError:
            raise FormatError("no such file", source) from None
        except IsADirectoryError:
            raise FormatError("is a directory, not a puzzle file", source) from None
        except OSError as exc:
            raise FormatError(f"cannot read: {exc.strerror or exc}", source) from None
    if raw is not None:
        if len(raw) > cap:
            raise FormatError(f"{'input' if path == '-' else 'file'} is larger than {cap} bytes, the most "
                              f"hashikit reads", source)
        if fmt == "picture" or _picture_kind(raw):
            return _read_picture(raw, source, limits)
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise FormatError(f"not UTF-8 text (byte {exc.start + 1} is 0x{raw[exc.start]:02x})", source) from None
    if _too_large(text, cap) is not None:
        raise FormatError(f"input is larger than {cap} bytes, the most hashikit reads", source)
    if not text.strip():
        raise FormatError("the file is empty", source)
    f = get(fmt) if fmt else format_for_path(path if path != "-" else "", text)
    return read_text(text, f.name, source, limits)


def _picture_kind(raw: bytes) -> str | None:
    from ._common import kind_of

    return kind_of(raw)


def _read_picture(raw: bytes, source: str, limits: Limits) -> Document:
    """A picture's puzzle and the bridges drawn on it (:mod:`hashikit.formats.picture`)."""
    while _before_picture:
        _before_picture.pop(0)()
    from .picturefmt import read_bytes

    try:
        doc = read_bytes(raw, source, limits)
    except FormatError as exc:
        if exc.source is None:  # a refusal from deep in the reader names the file read
            exc.source = source
        raise
    if doc.solution is not None:
        validate_solution(doc.puzzle, doc.solution, source, limits)
    return doc


def validate_solution(puzzle: Puzzle, solution: Solution, source: str | None = None,
                   limits: Limits = _limits.CLI) -> Solution:
    """Refuse a solution whose bridges leave ``puzzle``'s board or carry absurd counts (FormatError).

    Call it wherever a solution and a puzzle from different places meet (``check P S``)
    before a writer, the renderer or the checker walks the bridges.
    """
    from ._common import validate_solution as _check

    return _check(puzzle, solution, source, limits)


def write_text(puzzle: Puzzle, fmt: str, solution: Solution | None = None) -> str:
    """Render ``puzzle`` (and ``solution``) in format ``fmt``."""
    f = get(fmt)
    if f.write is None:
        raise FormatError(f"format {fmt!r} can be read but not written")
    if f.needs_solution and solution is None:
        raise FormatError(f"format {fmt!r} shows a solution; there is none to write")
    if puzzle.no_loops and not f.holds_no_loops:
        from ._common import refuse_no_loops

        refuse_no_loops(puzzle, fmt)
    if solution is not None:
        from ._common import validate_solution as _check

        _check(puzzle, solution, None, _limits.CLI)
    return f.write(puzzle, solution)


def help_table() -> str:
    """The formats table of the command's ``--help`` (name, main extension, one line each, by name)."""
    _load_all()
    lines = ["formats (chosen by file extension, by content for .txt and stdin, or named with --from/--to):"]
    table = sorted(FORMATS.items())
    wide = max(len(f.extensions[0]) if f.extensions else 0 for _, f in table) + 1
    for name, fmt in table:
        ext = fmt.extensions[0] if fmt.extensions else ""
        mode = "" if fmt.read and fmt.write else "write only" if fmt.write else "read only"
        if mode and mode in fmt.description:
            mode = ""
        lines.append(f"  {name:15s}{ext:{wide}s}{fmt.description}" + (f" ({mode})" if mode else ""))
    return "\n".join(lines) + "\n"


def readme_table() -> str:
    """The README's table of formats (markdown), made from the registry."""
    _load_all()
    out = ["| name | extension | read | write | what |", "|---|---|---|---|---|"]
    for f in FORMATS.values():
        exts = " ".join(f"`{e}`" for e in f.extensions)
        out.append(f"| `{f.name}` | {exts} | {'yes' if f.read else ''} | {'yes' if f.write else ''} "
                   f"| {f.readme or f.description} |")
    return "\n".join(out) + "\n"


__all__ = ["Document", "Format", "FORMATS", "register", "formats", "get", "sniff", "declared_size", "format_for_path",
           "read_text", "read_file", "write_text", "validate_solution", "help_table", "readme_table",
           "MAX_INPUT_BYTES"]
