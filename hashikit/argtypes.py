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


def percent(text: str) -> float:
    """A number from 0 to 100."""
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 <= v <= 100:
        raise argparse.ArgumentTypeError("a percentage runs from 0 to 100")
    return v
