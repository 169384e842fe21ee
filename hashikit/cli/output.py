"""The CLI's one way to write a file.

Every option that writes is declared so on the parser (:func:`writes`, and :func:`reads` for the
files a command reads), and :func:`guard` checks them all before the command runs: the folder
exists and a file can be made in it (tried, not guessed), the path is not a folder nor under a
file, its ending names something the option writes, and no output is the same file as an input
(resolved paths and ``os.path.samefile``: links and ``./`` spellings included) or as another
output.  A refusal is one line and exit 2, before any work.  Then every file is written through
:mod:`hashikit.files`: to a temporary file beside it, renamed into place when complete, so a
failed or interrupted run leaves the old file as it was and no partial file.
"""

from __future__ import annotations

import os
from ..service import BadInput

#: what an option does with its path, set on its argparse action
ROLE = "hashikit_role"
#: picture endings an option that draws a board takes
PICTURES = (".svg", ".png")
#: endings a new catalogue file takes (an existing catalogue may have any name)
CATALOGUES = (".db", ".sqlite", ".sqlite3")


class Role:
    """What an option or argument does with its path: ``reads``; or writes a ``file`` (with the
    endings it takes, or a check ``(path, args) -> problem or None``), a ``folder``, a
    ``catalogue`` (read and written), or ``file-or-folder`` (a ``.jsonl`` file or a folder)."""

    def __init__(self, kind: str, endings=(), what: str = "", label: str = "") -> None:
        self.kind, self.endings, self.what, self.label = kind, endings, what, label

    @property
    def writes(self) -> bool:
        return self.kind != "reads"


def writes(action, kind: str = "file", endings=(), what: str = "", label: str = ""):
    """Declare that ``action`` (what ``add_argument`` returned) writes ``kind`` (see :class:`Role`);
    ``what`` names what it writes in messages ("the book"), ``label`` an argument without an option
    ("the output"). Returns the action."""
    setattr(action, ROLE, Role(kind, endings, what, label))
    return action


def reads(action, label: str = ""):
    """Declare that ``action`` names files (or folders) the command reads (``label``: how messages
    name an argument without an option, default "the input")."""
    setattr(action, ROLE, Role("reads", label=label))
    return action


def role(action) -> Role | None:
    return getattr(action, ROLE, None)


def option_name(action) -> str:
    """How a message names an option: its long spelling, or an argument's label ("the output")."""
    if action.option_strings:
        return max(action.option_strings, key=len)
    r = role(action)
    return (r.label if r is not None and r.label else
            "the input" if r is not None and not r.writes else "the output")


def command_parser(parser, args):
    """The parser of the (sub-)command ``args`` were parsed for."""
    import argparse

    while True:
        sub = next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)), None)
        name = getattr(args, sub.dest, None) if sub is not None else None
        if name is None or name not in sub.choices:
            return parser
        parser = sub.choices[name]


def _values(value) -> list[str]:
    if value is None or value is False or value is True:
        return []
    return [os.fspath(v) for v in value] if isinstance(value, (list, tuple)) else [os.fspath(value)]


def _same(a: str, b: str) -> bool:
    """Whether two paths name one file: the same resolved path, or the same file on disk."""
    if os.path.realpath(a) == os.path.realpath(b):
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _inside(path: str, folder: str) -> bool:
    return os.path.realpath(path).startswith(os.path.realpath(folder).rstrip(os.sep) + os.sep)


def guard(parser, args) -> None:
    """Check every path the command's options write, before any work (BadInput: exit 2)."""
    actions = command_parser(parser, args)._actions
    inputs, outputs = [], []
    for action in actions:
        r = role(action)
        if r is None:
            continue
        for path in _values(getattr(args, action.dest, None)):
            if path == "-":
                continue
            if r.writes:
                outputs.append((option_name(action), path, r))
                if r.kind == "catalogue":  # read and written
                    inputs.append((option_name(action), path, r))
            else:
                inputs.append((option_name(action), path, r))
    check_outputs(outputs, inputs, args)


def check_outputs(outputs: list[tuple[str, str, Role]], inputs: list[tuple[str, str, Role]], args=None) -> None:
    """``outputs`` and ``inputs`` as (option, path, role): each output checked alone, then against
    the inputs and the other outputs."""
    for option, path, r in outputs:
        problem = _problem(path, r, args)
        if problem:
            raise BadInput(f"{option} {path}: {problem}")
    for k, (option, path, r) in enumerate(outputs):
        for other, opath, orole in inputs:
            if opath == path and other == option:
                continue  # a catalogue is its own input
            if _same(path, opath):
                raise BadInput(f"{option} {path}: the same file as {_input_words(other, opath)}; "
                               "hashikit never writes over what it reads: give another name")
            if r.kind in ("folder", "file-or-folder") and os.path.isdir(path) and not os.path.isdir(opath) \
                    and _inside(opath, path) and _names_in_folder(opath, r):
                raise BadInput(f"{option} {path}: would write over {_input_words(other, opath)}, which is in it")
        for option2, path2, r2 in outputs[k + 1:]:
            if _same(path, path2):
                raise BadInput(f"{option2} {path2}: the same file as {option} {path}; give each its own name")


def _input_words(option: str, path: str) -> str:
    return f"{option} {path}"


def _names_in_folder(path: str, r: Role) -> bool:
    """Whether a folder output writes files named like ``path`` (index files and page files)."""
    import re

    return bool(re.fullmatch(r"index\.(json|csv)|generate(-suite)?\.jsonl|page-\d+\.(svg|png)|\d{5}\..+",
                             os.path.basename(path)))


def _problem(path: str, r: Role, args) -> str | None:
    """Why ``path`` cannot be written as ``r`` says, or None."""
    if not path:
        return "an empty path"
    if r.kind == "file-or-folder":
        r = Role("file" if path.endswith(".jsonl") else "folder", r.endings, r.what)
    if r.kind == "folder":
        return _folder_problem(path, r, args)
    if os.path.isdir(path):
        return "is a folder; give a file name"
    problem = _ending_problem(path, r, args)
    if problem:
        return problem
    if r.kind == "catalogue" and os.path.exists(path):
        from ..publish.catalog import CatalogError, validate

        try:
            validate(path)
        except CatalogError as exc:
            return str(exc).removeprefix(f"{path}: ")
    return _writable(path)


def _ending_problem(path: str, r: Role, args) -> str | None:
    if callable(r.endings):
        return r.endings(path, args)
    endings = r.endings
    if r.kind == "catalogue":
        if os.path.exists(path):
            return None
        endings = CATALOGUES
    if endings and not path.lower().endswith(tuple(endings)):
        ext = os.path.splitext(path)[1]
        shown = f"a {ext} file" if ext else "a file with no ending"
        return f"{r.what or 'this'} is written as {' or '.join(endings)}, not as {shown}: give a {endings[0]} file name"
    return None


def _writable(path: str) -> str | None:
    """Whether a file can be made beside ``path`` (tried: permissions, read-only and virtual file
    systems, a full disk's inodes), and ``path`` itself replaced."""
    from ..files import part_of

    real = os.path.realpath(path)
    folder = os.path.dirname(real)
    if not os.path.isdir(folder):
        above = _existing_above(folder)
        if above is not None and not os.path.isdir(above):
            return f"{above} is a file, not a folder"
        return f"the folder {os.path.dirname(os.path.abspath(path))} does not exist"
    if os.path.exists(real) and not os.path.isfile(real):
        return "is not a regular file (a device or a pipe); give a file name"
    return _can_make_in(folder, part_of(real))


def _can_make_in(folder: str, probe: str) -> str | None:
    """Whether the file ``probe`` can be made (and removed) in ``folder``: tried."""
    try:
        fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError as exc:
        return f"cannot write into {folder}: {exc.strerror or exc}"
    os.close(fd)
    os.unlink(probe)
    return None


def _existing_above(path: str) -> str | None:
    """The nearest path at or above ``path`` that exists."""
    path = os.path.abspath(path)
    while not os.path.exists(path):
        parent = os.path.dirname(path)
        if parent == path:
            return None
        path = parent
    return path


def _folder_problem(path: str, r: Role, args) -> str | None:
    if os.path.exists(path):
        if not os.path.isdir(path):
            return "is a file; this option writes a folder"
        return _folder_writable(path)
    if callable(r.endings):
        problem = r.endings(path, args)
        if problem:
            return problem
    above = _existing_above(path)
    if above is None or not os.path.isdir(above):
        return f"{above} is a file, not a folder"
    return _folder_writable(above)


def _folder_writable(folder: str) -> str | None:
    """Whether files can be made in ``folder`` (whatever it already holds)."""
    from ..files import part_of

    real = os.path.realpath(folder)
    return _can_make_in(real, part_of(os.path.join(real, ".hashikit-probe")))


# -- formats -----------------------------------------------------------------------------------

def output_format(path: str | None, to: str | None, *, default: str | None = None, option: str = "--to"):
    """The format to write to ``path`` (``-``/None: standard output), checked before any work:
    ``to`` (given as ``option``) when named, else the file's ending."""
    from ..errors import FormatError
    from ..formats import format_for_path, get

    if to:
        fmt = get(to)
        if path not in (None, "-"):
            named = _format_of(path)
            if named is not None and named.name != fmt.name and not path.lower().endswith(".txt"):
                raise BadInput(f"{path}: its ending names the {named.name} format, but {option} {to} writes "
                               f"{fmt.name}; make them agree")
    elif path in (None, "-"):
        if default is None:
            raise BadInput(f"writing to standard output: name the format with {option}")
        fmt = get(default)
    else:
        try:
            fmt = format_for_path(path, writing=True)
        except FormatError:
            raise BadInput(f"{path}: cannot tell the format from its ending; "
                           + (f"name it with {option} or " if option else "")
                           + f"give one of {_endings()}") from None
    if fmt.write is None:
        raise BadInput(f"format {fmt.name!r} cannot be written")
    return fmt


def _format_of(path: str):
    """The format a file's ending names (readable or written), or None."""
    from ..errors import FormatError
    from ..formats import format_for_path

    for writing in (True, False):
        try:
            return format_for_path(path, writing=writing)
        except FormatError:
            continue
    return None


def _endings(keep=lambda fmt: fmt.write is not None) -> str:
    from ..formats import formats

    return " ".join(sorted({e for f in formats().values() if keep(f) for e in f.extensions}))


def puzzle_endings(keep=lambda fmt: fmt.write is not None) -> str:
    """The endings of the formats ``keep`` takes, for messages."""
    return _endings(keep)


# -- the old names, kept for the commands that check one path --------------------------------------

def validate_writable(path: str | None, option: str = "-o") -> None:
    """Refuse an output path that cannot be written (missing folder, a folder, not writable)."""
    if path in (None, "-"):
        return
    problem = _problem(path, Role("file"), None)
    if problem:
        raise BadInput(f"{option} {path}: {problem}")


def validate_picture(path: str, option: str = "--svg") -> None:
    """A picture path: .svg or .png, writable (checked before the work)."""
    problem = _problem(path, Role("file", PICTURES, "the drawing"), None)
    if problem:
        raise BadInput(f"{option} {path}: {problem}")


# -- writing -------------------------------------------------------------------------------------

def write_output(data: str | bytes, path: str | None, stdout=None) -> None:
    """Write text or bytes to ``path`` whole or not at all (``-``/None: standard output); BadInput
    on an OS error (the old file, if any, untouched)."""
    import sys

    if path in (None, "-"):
        out = stdout or sys.stdout
        if isinstance(data, bytes):
            out.flush()
            out.buffer.write(data)
        else:
            out.write(data if data.endswith("\n") else data + "\n")
        return
    from ..files import write

    try:
        write(path, data)
    except OSError as exc:
        raise BadInput(f"{path}: cannot write: {exc.strerror or exc}") from None
