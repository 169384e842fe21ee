"""What a picture showed, on the command line: the reading's log (``hashikit.picture``: what was
read, what the rules corrected, where it is unsure) as lines ``hashikit: FILE: ...`` on standard
error."""

from __future__ import annotations

import logging


class _Say(logging.Handler):
    """One line on the standard error of the moment (pytest and callers swap it)."""

    def emit(self, record):
        import sys

        try:
            print("hashikit: " + self.format(record), file=sys.stderr)
        except Exception:  # pragma: no cover - a closed stderr
            self.handleError(record)


def cli_logging() -> None:
    """Let the command line print what a picture showed and where the reading is unsure."""
    log = logging.getLogger("hashikit.picture")
    if not any(isinstance(h, _Say) for h in log.handlers):
        log.addHandler(_Say())
    log.setLevel(logging.INFO)
    log.propagate = False
