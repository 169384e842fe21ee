"""Argument types shared by every command-line front end (argparse ``type=`` callables).

Each raises ``argparse.ArgumentTypeError`` with a message a person understands; argparse turns
that into one line and exit 2.  Public on purpose: front ends import these, never each other's
private helpers.
"""

from __future__ import annotations

import argparse
import math


def positive_float(text: str) -> float:
    """A finite number above 0."""
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not math.isfinite(v):
        raise argparse.ArgumentTypeError(f"must be a finite number, got {text!r}")
    if v <= 0:
        raise argparse.ArgumentTypeError("must be positive")
    return v


def time_limit(text: str) -> float:
    """Seconds: a finite number above 0 (``inf``, ``nan``, 0 and negatives are refused)."""
    try:
        return positive_float(text)
    except argparse.ArgumentTypeError as exc:
        raise argparse.ArgumentTypeError(f"a time limit is a number of seconds above 0: {exc}") from None


def positive_int(text: str) -> int:
    """A whole number of at least 1."""
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if v < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return v


def between(lo: float, hi: float, message: str | None = None, whole: bool = False):
    """An argparse type: a number (``whole``: a whole number) from ``lo`` to ``hi``; ``message``
    says what the range is (default "runs from LO to HI")."""
    def parse(text: str):
        try:
            v = int(text) if whole else float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a {'whole number' if whole else 'number'}: {text!r}") from None
        if not lo <= v <= hi:
            raise argparse.ArgumentTypeError(message or f"runs from {lo} to {hi}")
        return v
    return parse


#: a number from 0 to 100
percent = between(0, 100, "a percentage runs from 0 to 100")


def option(rule, high: float | None = None):
    """An argparse type for an option of the generation rule book (a :class:`hashikit.spec.Option`):
    the text read as the option's kind, then the option's own check, so the message names its
    limit in the words every other entry uses (``high``: the command line's tighter cap)."""
    def parse(text: str):
        try:
            value = rule.kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a {'whole number' if rule.kind is int else 'number'}: "
                                             f"{text!r}") from None
        refused = rule.problem(value, high)
        if refused:
            raise argparse.ArgumentTypeError(refused)
        return value
    return parse


def board_size(rows, cols, high: int):
    """An argparse type for ``ROWSxCOLS`` (as every command and the README write a board) or one
    number for a square board; each side checked by its option of the rule book (``rows``,
    ``cols``) with ``high`` the largest side."""
    def parse(text: str) -> tuple[int, int]:
        try:
            if "x" in text.lower():
                r, c = text.lower().split("x", 1)
                size = int(r), int(c)
            else:
                size = (int(text),) * 2
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a board size: {text!r} (use ROWSxCOLS, e.g. 10x15 for 10 rows "
                                             "of 15 columns)") from None
        for rule, value in zip((rows, cols), size):
            refused = rule.problem(value, high)
            if refused:
                raise argparse.ArgumentTypeError(refused)
        return size
    return parse


def _format(text: str, writing: bool):
    from ..errors import FormatError
    from ..formats import formats, get

    try:
        fmt = get(text)
    except FormatError as exc:
        raise argparse.ArgumentTypeError(exc.message) from None
    if (fmt.write if writing else fmt.read) is None:
        can = sorted(n for n, f in formats().items() if (f.write if writing else f.read))
        raise argparse.ArgumentTypeError(f"format {text!r} can{'not be written' if writing else 'not be read'}; "
                                         f"formats that can: {', '.join(can)}")
    return text


def format_read(text: str) -> str:
    """The name of a format hashikit reads (``--from``)."""
    return _format(text, writing=False)


def format_written(text: str) -> str:
    """The name of a format hashikit writes (``--to``)."""
    return _format(text, writing=True)
