"""The site (``hashikit site``) built once per test session, for tests/test_site*.py.

Pyodide's files come from $HASHIKIT_PYODIDE (its npm tarball or folder), else hashikit's cache
folder, else the npm registry (then kept in the cache, as ``hashikit site`` does); where none of
them can be had, the tests that need them skip, saying how to provide them.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

_BUILT: dict[str, Path] = {}
#: why Pyodide could not be had, once per session (a registry that cannot be reached is asked once)
_MISSING: list[str] = []


def pyodide_source() -> str | None:
    return os.environ.get("HASHIKIT_PYODIDE") or None


def pyodide_or_skip() -> dict[str, bytes]:
    from hashikit.web import site

    if not _MISSING:
        try:
            return site.pyodide_files(pyodide_source())
        except site.SiteError as exc:
            _MISSING.append(str(exc))
    pytest.skip(f"Pyodide {site.PYODIDE_VERSION} is not available ({_MISSING[0]}); set HASHIKIT_PYODIDE to its "
                f"npm tarball or folder, or let the tests reach registry.npmjs.org once (it is kept in "
                f"{site.cache_folder()})")


def built_site(tmp_path_factory, key: str = "default", **daily) -> Path:
    """A site folder written by the command line (once per session and key)."""
    if key not in _BUILT:
        pyodide_or_skip()
        folder = tmp_path_factory.mktemp(f"site-{key}") / "public"
        argv = [sys.executable, "-m", "hashikit.cli", "site", str(folder)]
        if pyodide_source():
            argv += ["--pyodide", pyodide_source()]
        for name, value in daily.items():
            argv += [f"--{name.replace('_', '-')}", str(value)]
        proc = subprocess.run(argv, capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
        _BUILT[key] = folder
    return _BUILT[key]


def static_server(folder: Path):
    """``python -m http.server`` serving ``folder`` on a free port (no hashikit server): yields its address."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    proc = subprocess.Popen([sys.executable, "-m", "http.server", "--bind", "127.0.0.1", "-d", str(folder), str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.05)
    else:
        proc.kill()
        pytest.fail("python -m http.server did not start within 10 s")
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.kill()
        proc.wait()
