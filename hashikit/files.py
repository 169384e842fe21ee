"""Files written whole or not at all.

Every file hashikit writes goes first to a hidden temporary file in the same folder
(``.NAME.XXXXXXXX.part``), which is renamed over ``NAME`` once it is complete (``os.replace``:
one step on the same file system).  An error, Ctrl-C or SIGTERM while it is written removes the
temporary file and leaves whatever ``NAME`` held before untouched; only a SIGKILL (or a power
cut) can leave the hidden part behind, never a partial ``NAME``.

:class:`Staging` does the same for the several files of one command: each gets a temporary path
(a folder of pages gets a temporary folder), and all are renamed into place together at the end,
or all removed.

On the bottom floor: imports nothing of hashikit, and neither ``tempfile`` nor ``shutil`` (a
command that writes a file starts no faster for them).
"""

from __future__ import annotations

import os
import sys

__all__ = ["PART", "Staging", "part_of", "replacing", "write", "is_part"]

#: the ending of a temporary file being written
PART = ".part"


def part_of(path: str) -> str:
    """A fresh temporary name beside ``path``: ``.NAME.XXXXXXXX.part`` in the same folder."""
    folder, name = os.path.split(os.path.abspath(path))
    return os.path.join(folder, f".{name}.{os.urandom(4).hex()}{PART}")


def is_part(name: str) -> bool:
    """Whether a file name is one of :func:`part_of`'s temporary names."""
    base = os.path.basename(name)
    return base.startswith(".") and base.endswith(PART)


def _mode(path: str) -> int:
    """The permissions the finished file gets: the old file's, else what ``open`` would give."""
    try:
        return os.stat(path).st_mode & 0o7777
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


def _remove(path: str) -> None:
    try:
        if os.path.isdir(path) and not os.path.islink(path):
            for name in os.listdir(path):
                _remove(os.path.join(path, name))
            os.rmdir(path)
        else:
            os.unlink(path)
    except FileNotFoundError:
        pass


class _Stopped(SystemExit):
    """SIGTERM while a file is written: the process ends as it would have (status 143), once the
    temporary files are removed."""


def _on_sigterm(signum, frame):
    raise _Stopped(128 + signum)


class _TermGuard:
    """SIGTERM raises (so cleanup runs) while the guard is on, where nobody else handles it (the
    default handler, main thread)."""

    def __init__(self) -> None:
        self._restore = None

    def __enter__(self):
        import threading

        if threading.current_thread() is threading.main_thread():
            import signal

            if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
                signal.signal(signal.SIGTERM, _on_sigterm)
                self._restore = lambda: signal.signal(signal.SIGTERM, signal.SIG_DFL)
        return self

    def __exit__(self, *exc) -> None:
        if self._restore is not None:
            self._restore()


class replacing:
    """``with replacing(path) as fh: fh.write(...)``: written to a temporary file beside ``path``,
    renamed over it when the block ends without an error (``binary``: bytes, else UTF-8 text;
    ``newline`` as :func:`open`'s)."""

    def __init__(self, path: str | os.PathLike, binary: bool = False, newline: str | None = None) -> None:
        self.path = os.path.realpath(os.fspath(path))  # a link's target is replaced, not the link
        self.binary, self.newline = binary, newline
        self._guard = _TermGuard()

    def __enter__(self):
        self._guard.__enter__()
        self.part = part_of(self.path)
        try:
            fd = os.open(self.part, os.O_WRONLY | os.O_CREAT | os.O_EXCL, _mode(self.path))
            self._fh = (os.fdopen(fd, "wb") if self.binary
                        else os.fdopen(fd, "w", encoding="utf-8", newline=self.newline))
        except BaseException:
            self._guard.__exit__(*sys.exc_info())
            raise
        return self._fh

    def __exit__(self, kind, value, tb) -> None:
        try:
            try:
                self._fh.close()
            finally:
                if kind is None:
                    os.replace(self.part, self.path)
        except BaseException:
            _remove(self.part)
            raise
        finally:
            if kind is not None:
                _remove(self.part)
            self._guard.__exit__(kind, value, tb)


def write(path: str | os.PathLike, data: str | bytes) -> None:
    """Write ``data`` (text as UTF-8) to ``path`` whole or not at all."""
    with replacing(path, binary=isinstance(data, bytes)) as fh:
        fh.write(data)


class Staging:
    """The files of one command, written to temporary paths and put in place together::

        with Staging() as stage:
            pdf = stage.file("book.pdf")        # a temporary path beside book.pdf
            pages = stage.folder("pages")        # a temporary folder inside pages/
            ... write pdf, and files into pages ...
        # here book.pdf and pages/* are in place; on an error or Ctrl-C none of them is

    A folder's files are moved into the folder (made if missing) one by one when the block ends.
    """

    def __init__(self) -> None:
        self._files: list[tuple[str, str]] = []
        self._folders: list[tuple[str, str]] = []
        self._guard = _TermGuard()

    def __enter__(self) -> "Staging":
        self._guard.__enter__()
        return self

    def file(self, path: str | os.PathLike) -> str:
        """The temporary path where ``path`` is to be written."""
        path = os.path.realpath(os.fspath(path))
        part = part_of(path)
        self._files.append((part, path))
        return part

    def folder(self, path: str | os.PathLike) -> str:
        """A temporary folder whose files are to go into ``path`` (made, with any missing folders
        above it, only when they are put in place)."""
        path = os.path.abspath(os.fspath(path))
        above = path
        while not os.path.isdir(above) and os.path.dirname(above) != above:
            above = os.path.dirname(above)
        part = part_of(os.path.join(os.path.realpath(above), os.path.basename(path) or "files"))
        os.mkdir(part)
        self._folders.append((part, path))
        return part

    def commit(self) -> None:
        for part, path in self._files:
            if os.path.exists(part):
                os.chmod(part, _mode(path))
                os.replace(part, path)
        for part, path in self._folders:
            os.makedirs(path, exist_ok=True)
            for name in sorted(os.listdir(part)):
                os.replace(os.path.join(part, name), os.path.join(path, name))
            os.rmdir(part)

    def discard(self) -> None:
        for part, _ in self._files + self._folders:
            _remove(part)

    def __exit__(self, kind, value, tb) -> None:
        try:
            if kind is None:
                try:
                    self.commit()
                except BaseException:
                    self.discard()
                    raise
            else:
                self.discard()
        finally:
            self._guard.__exit__(kind, value, tb)
