"""What a benchmark run records about itself (shared by the scripts in this folder)."""

from __future__ import annotations

import subprocess
import tarfile
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


def extract_package(rev: str, into: Path) -> Path:
    """The ``hashikit`` package of git revision ``rev``, extracted under ``into``: the folder to put
    on ``sys.path`` (for runs against an older revision).  ``subprocess.CalledProcessError`` (with
    git's message in ``stderr``) when git cannot give the revision."""
    tar = into / "src.tar"
    subprocess.run(["git", "archive", "-o", str(tar), rev, "hashikit"], cwd=ROOT, check=True,
                   capture_output=True, text=True)
    with tarfile.open(tar) as t:
        if hasattr(tarfile, "data_filter"):  # Python 3.11.4+: refuse links and paths out of ``into``
            t.extractall(into / "src", filter="data")
        else:
            t.extractall(into / "src")
    return into / "src"
