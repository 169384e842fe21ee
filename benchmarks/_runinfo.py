"""What a benchmark run records about itself (shared by the scripts in this folder)."""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def git_state() -> str:
    """The commit the run used, and any uncommitted changes to the package (others edit the tree too)."""

    def git(*a):
        try:
            return subprocess.run(["git", *a], cwd=ROOT, capture_output=True, text=True, timeout=10).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            return ""

    head = git("rev-parse", "--short", "HEAD") or "unknown"
    dirty = [ln.split(maxsplit=1)[1] for ln in git("status", "--porcelain", "--", "hashikit").splitlines() if ln.strip()]
    return f"commit {head}" + (f" with uncommitted changes to {', '.join(dirty)}" if dirty else " (clean hashikit/)")
