"""The page that needs no server, as files: what ``hashikit site OUT/`` writes (the command line
writes them, :mod:`hashikit.cli.site`), a folder any static web host serves.

The page is the served page (``static/``) with one module swapped: its ``server.js`` is the
site's (``site_static/server.js``), which asks hashikit's own Python in the browser (Pyodide, in a Web
Worker: ``site_static/worker.js`` runs :mod:`hashikit.web.local`) what the served page asks the server,
and a hashikit server only for what needs one, when one answers the page (the served page's
``server.js``, kept as ``remote.js``).  A service worker (``sw.js``) keeps every file for visits
without a network; a web app manifest makes the page installable.

Pyodide's files come from the npm registry at a pinned version, checked against pinned sha256
sums, kept in a cache folder (``HASHIKIT_CACHE``, else ``$XDG_CACHE_HOME/hashikit``, else
``~/.cache/hashikit``) for the next build; ``--pyodide`` names a local copy (the npm tarball or
its unpacked folder) instead.  Two are written cut down: the lock file without its packages (the
page loads none: nothing from a CDN) and the standard library without what nothing here imports
(:data:`STDLIB_LEFT_OUT`).  Nothing else is fetched, at build time or by the page.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import re
import tarfile
import zipfile
from pathlib import Path

from ..errors import HashikitError
from ..limits import SITE, SITE_GENERATE_MAX_SIDE, SITE_GENERATE_TIME_LIMIT, SITE_LEVEL_COUNT
from ..model import LEVELS

HERE = Path(__file__).resolve().parent
STATIC = HERE / "static"
SITE_SOURCE = HERE / "site_static"
PACKAGE = HERE.parent

PYODIDE_VERSION = "0.29.5"
PYODIDE_TARBALL = f"https://registry.npmjs.org/pyodide/-/pyodide-{PYODIDE_VERSION}.tgz"
#: the npm registry's integrity of that tarball
PYODIDE_INTEGRITY = "sha512-TkYrUv9m8QmfImADKRmpwZulL48E0uUaBSO+dvRQKyAJc0qh9gu7jn8btyHPh3NZm1r2IH2YrJhIr7Q2B9urAw=="
#: the files of Pyodide the page loads, with their sha256
PYODIDE_FILES = {
    "pyodide.mjs": "510ca14305230018f50c40fb81be673afd68080e70ce7733fcce6600dd6a1714",
    "pyodide.asm.js": "356c42f69e1695397e9d8670bd3c2e678248cde76e18bdae1731e848537b47d7",
    "pyodide.asm.wasm": "54309a5a2cfd757b1f0fdbc9093c92503f7b341500110329d932487183912718",
    "python_stdlib.zip": "831fd1e535084b972f87c6a35275de3d236efd5166f5e77ce89497710635e73c",
    "pyodide-lock.json": "14d2c2dba101277999e17135e653d8f15389ad1437f53eae213bf0c3cdff723d",
}
#: the levels the page generates, and the daily puzzle's defaults
LEVELS_HERE = LEVELS[:SITE_LEVEL_COUNT]
DAILY_LEVEL, DAILY_SIDE, DAILY_SEED = LEVELS_HERE[1], 10, 1
#: the parts of hashikit the browser runs: every module but these (the command line, the server,
#: the picture reader, books, benchmarks and clusters need what the browser lacks)
LEFT_OUT = ("cli/", "publish/", "bench/", "data/", "web/static/", "web/site_static/", "web/app.py", "web/cli.py",
            "web/requests.py", "web/site.py", "formats/picture.py", "service/picture.py", "run/cluster.py",
            "run/batch.py", "run/jobs.py")
#: the marker a folder this command wrote carries (it may write over such a folder, and no other)
MARKER = ".hashikit-site"


class SiteError(HashikitError):
    """The site cannot be built (Pyodide's files missing or altered, a bad daily puzzle)."""


def cache_folder() -> Path:
    explicit = os.environ.get("HASHIKIT_CACHE")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "hashikit"


# -- Pyodide's files -------------------------------------------------------------------------
def _integrity_ok(data: bytes) -> bool:
    algorithm, _, digest = PYODIDE_INTEGRITY.partition("-")
    return base64.b64encode(hashlib.new(algorithm, data).digest()).decode() == digest


def _from_tarball(data: bytes, where: str) -> dict[str, bytes]:
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
            members = {m.name.split("/", 1)[-1]: m for m in tar.getmembers() if m.isfile()}
            return {name: tar.extractfile(members[name]).read() for name in PYODIDE_FILES if name in members}
    except (tarfile.TarError, OSError, EOFError) as exc:
        raise SiteError(f"{where}: not Pyodide's npm tarball ({exc})") from None


def _from_folder(folder: Path) -> dict[str, bytes]:
    return {name: (folder / name).read_bytes() for name in PYODIDE_FILES if (folder / name).is_file()}


def _checked(files: dict[str, bytes], where: str) -> dict[str, bytes]:
    missing = [name for name in PYODIDE_FILES if name not in files]
    if missing:
        raise SiteError(f"{where}: Pyodide {PYODIDE_VERSION}'s {', '.join(missing)} not found")
    for name, want in PYODIDE_FILES.items():
        if hashlib.sha256(files[name]).hexdigest() != want:
            raise SiteError(f"{where}: {name} is not Pyodide {PYODIDE_VERSION}'s (its sha256 differs); "
                            f"give the files of the npm package pyodide@{PYODIDE_VERSION}")
    return files


def _download(log) -> bytes:
    import urllib.request

    log(f"fetching Pyodide {PYODIDE_VERSION} from the npm registry ({PYODIDE_TARBALL})")
    try:
        with urllib.request.urlopen(PYODIDE_TARBALL, timeout=60) as answer:
            data = answer.read()
    except OSError as exc:
        raise SiteError(f"cannot fetch Pyodide {PYODIDE_VERSION} from the npm registry ({exc}); give a local "
                        f"copy with --pyodide (the npm tarball pyodide-{PYODIDE_VERSION}.tgz or its folder)") from None
    if not _integrity_ok(data):
        raise SiteError(f"the npm registry's pyodide-{PYODIDE_VERSION}.tgz does not match its pinned checksum")
    return data


def pyodide_files(source: str | None = None, log=lambda line: None) -> dict[str, bytes]:
    """The files of Pyodide the page loads, checked: from ``source`` (the npm tarball or its
    folder), else the cache, else the npm registry (then kept in the cache)."""
    if source is not None:
        path = Path(source)
        if path.is_dir():
            package = path / "package" if (path / "package").is_dir() else path
            return _checked(_from_folder(package), source)
        if not path.is_file():
            raise SiteError(f"{source}: no such file or folder (give Pyodide's npm tarball or its folder)")
        return _checked(_from_tarball(path.read_bytes(), source), source)
    cached = cache_folder() / f"pyodide-{PYODIDE_VERSION}.tgz"
    if cached.is_file():
        data = cached.read_bytes()
        if _integrity_ok(data):
            return _checked(_from_tarball(data, str(cached)), str(cached))
    data = _download(log)
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        partial = cached.with_suffix(".part")
        partial.write_bytes(data)
        partial.replace(cached)
    except OSError as exc:
        log(f"cannot keep Pyodide in {cached.parent} ({exc.strerror or exc}); it will be fetched again next time")
    return _checked(_from_tarball(data, PYODIDE_TARBALL), PYODIDE_TARBALL)


#: the parts of Python's standard library (in Pyodide's python_stdlib.zip) the page leaves out:
#: nothing hashikit or Pyodide's start imports (tests/test_site.py runs hashikit's calls with them
#: refused), about half of the zip
STDLIB_LEFT_OUT = frozenset((
    "_pydecimal", "_pyio", "_pyrepl", "_markupbase", "aifc", "asynchat", "asyncore", "bdb", "calendar", "cgi",
    "cgitb", "chunk", "cProfile", "code", "codeop", "colorsys", "compileall", "configparser", "crypt", "ctypes",
    "curses", "dbm", "difflib", "doctest", "email", "ensurepip", "filecmp", "fileinput", "ftplib", "getopt",
    "graphlib", "hmac", "html", "http", "idlelib", "imaplib", "imghdr", "ipaddress", "lib2to3", "mailbox", "mailcap",
    "mimetypes", "modulefinder", "netrc", "nntplib", "nturl2path", "optparse", "pdb", "pickletools", "pipes",
    "plistlib", "poplib", "profile", "pstats", "pty", "py_compile", "pyclbr", "pydoc", "pydoc_data", "quopri",
    "rlcompleter", "runpy", "sched", "secrets", "shelve", "smtpd", "smtplib", "sndhdr", "sqlite3", "ssl",
    "statistics", "sunau", "symtable", "tabnanny", "tarfile", "telnetlib", "timeit", "tkinter", "trace", "tty",
    "turtle", "turtledemo", "unittest", "urllib", "uu", "uuid", "venv", "wave", "webbrowser", "wsgiref", "xdrlib",
    "xml", "xmlrpc", "zipapp", "zoneinfo"))
#: the text encodings kept (of the encodings package's hundred)
ENCODINGS_KEPT = frozenset((
    "__init__", "aliases", "ascii", "charmap", "cp437", "idna", "latin_1", "punycode", "raw_unicode_escape",
    "unicode_escape", "utf_16", "utf_16_be", "utf_16_le", "utf_32", "utf_32_be", "utf_32_le", "utf_8", "utf_8_sig"))


def _stdlib(data: bytes) -> bytes:
    """Pyodide's standard library without :data:`STDLIB_LEFT_OUT` and the encodings not kept (the
    same entries otherwise, in the same order)."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            parts = re.split(r"[/.]", info.filename)
            if parts[0] in STDLIB_LEFT_OUT:
                continue
            if parts[0] == "encodings" and len(parts) > 2 and parts[1] not in ENCODINGS_KEPT:
                continue
            dst.writestr(info, src.read(info), compress_type=info.compress_type)
    return out.getvalue()


def _lock_file(lock: bytes) -> bytes:
    """Pyodide's lock file without its packages: the page loads none (nothing from a CDN)."""
    info = json.loads(lock)["info"]
    return json.dumps({"info": info, "packages": {}}, separators=(",", ":")).encode()


# -- hashikit's Python for the browser ---------------------------------------------------------
def python_zip() -> bytes:
    """The modules of hashikit the browser runs, as a zip (stored in a fixed order and time, so
    the same source gives the same bytes)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for path in sorted(PACKAGE.rglob("*.py")):
            rel = path.relative_to(PACKAGE).as_posix()
            if "__pycache__" in rel or rel.startswith(LEFT_OUT):
                continue
            info = zipfile.ZipInfo(f"hashikit/{rel}", date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, path.read_bytes())
    return out.getvalue()


# -- the daily puzzle and the limits document ---------------------------------------------------
def daily_spec(level: str = DAILY_LEVEL, rows: int = DAILY_SIDE, cols: int | None = None,
               seed: int = DAILY_SEED) -> dict:
    """The daily puzzle's settings, checked: a level the page generates, a board it generates, a
    seed (the day's puzzle comes from it and the date)."""
    from ..spec import GenerateSpec

    cols = rows if cols is None else cols
    if level not in LEVELS_HERE:
        raise SiteError(f"the daily puzzle's level must be one the page generates: {', '.join(LEVELS_HERE)} "
                        f"(got {level})")
    try:
        GenerateSpec(rows=rows, cols=cols, difficulty=level).validate(SITE_GENERATE_MAX_SIDE)
    except ValueError as exc:
        raise SiteError(f"the daily puzzle: {exc}") from None
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2 ** 31:
        raise SiteError(f"the daily puzzle's seed must be a whole number from 0 to {2 ** 31 - 1} (got {seed})")
    return {"level": level, "rows": rows, "cols": cols, "seed": seed}


def _digest(files: dict[str, bytes]) -> str:
    digest = hashlib.sha256()
    for name in sorted(files):
        digest.update(name.encode() + b"\0" + hashlib.sha256(files[name]).digest())
    return digest.hexdigest()[:16]


def limits_document(daily: dict | None, build_id: str = "") -> dict:
    """The limits document of the page with no server: the served page's fields (the page builds
    its forms from them) at :data:`~hashikit.limits.SITE`'s values and the levels the page
    generates, with ``server`` false, no print sheets, and under ``site`` the daily puzzle's settings and ``build``
    (this build of the site: the page reads no answer a build before kept)."""
    from .requests import limits_report

    doc = limits_report(SITE.default_time_limit, SITE_GENERATE_TIME_LIMIT, SITE.max_input_bytes).model_dump()
    doc.update(max_side=SITE.max_side, max_cells=SITE.max_cells, max_islands=SITE.max_islands,
               max_maxbridges=SITE.max_maxbridges)
    doc["generate"].update(max_side=SITE_GENERATE_MAX_SIDE, levels=list(LEVELS_HERE), at_once=1)
    doc["formats"] = [f for f in doc["formats"] if any(mb <= SITE.max_maxbridges for mb in f["maxbridges"])]
    doc["sheets"] = None  # print sheets are a server's (fpdf2 and the book's engine): the page hides them
    doc["server"] = False
    doc["site"] = {"daily": daily, "build": build_id}
    return doc


# -- the page --------------------------------------------------------------------------------
def _manifest() -> bytes:
    return json.dumps({
        "name": "Hashi · hashikit", "short_name": "Hashi", "description": "Play Hashiwokakero (Bridges)",
        "start_url": "./", "scope": "./", "display": "standalone",
        "background_color": "#f7f5f0", "theme_color": "#1a5fd0",
        "icons": [{"src": "static/icon-192.png", "sizes": "192x192", "type": "image/png"},
                  {"src": "static/icon-512.png", "sizes": "512x512", "type": "image/png"},
                  {"src": "static/favicon.svg", "sizes": "any", "type": "image/svg+xml"}],
    }, indent=2).encode()


def _icons() -> dict[str, bytes]:
    from ..render.to_png import rasterise

    svg = (STATIC / "favicon.svg").read_text(encoding="utf-8")
    return {f"static/icon-{n}.png": rasterise(svg, width=n, background=None) for n in (192, 512)}


def _index(html: str, modules: list[str]) -> str:
    """The page's HTML with the manifest, the theme colour, and every module of the page and the two
    documents every visit reads asked for at once (``modulepreload``, ``preload``: not floor by floor
    as the imports are found and run), every address relative."""
    if re.search(r'(?:href|src)="/', html):
        raise SiteError("index.html has an address from the site's root; the site needs relative ones")
    head = ('  <link rel="manifest" href="manifest.webmanifest">\n'
            '  <meta name="theme-color" content="#1a5fd0">\n'
            + "".join(f'  <link rel="preload" href="{doc}" as="fetch" crossorigin>\n'
                      for doc in ("limits.json", "style.json"))
            + "".join(f'  <link rel="modulepreload" href="{m}">\n' for m in modules))
    return html.replace("</head>", head + "</head>", 1)


def _service_worker(files: dict[str, bytes]) -> bytes:
    """``sw.js`` with the site's version (a digest of every file) and the files it keeps."""
    kept = ["./"] + sorted(n for n in files if n != MARKER)
    head = (f"const VERSION = {json.dumps(_digest(files))};\n"
            f"const FILES = {json.dumps(kept, indent=0)};\n")
    return (head + (SITE_SOURCE / "sw.js").read_text(encoding="utf-8")).encode()


def build(pyodide: dict[str, bytes], daily: dict | None) -> dict[str, bytes]:
    """Every file of the site, by its path in the folder (``sw.js`` keeps them all); ``limits.json``
    and ``style.json`` are what the server answers at ``/api/limits`` and ``/api/style``."""
    from .requests import style_report

    files: dict[str, bytes] = {}
    for path in sorted(STATIC.iterdir()):
        if path.is_file():
            files[f"static/{path.name}"] = path.read_bytes()
    files["static/remote.js"] = files["static/server.js"]
    for path in sorted(SITE_SOURCE.iterdir()):
        if path.is_file() and path.name != "sw.js":
            files[f"static/{path.name}"] = path.read_bytes()
    modules = [n for n in files if n.endswith(".js") and n != "static/worker.js"]
    files["index.html"] = _index(files.pop("static/index.html").decode("utf-8"), modules).encode("utf-8")
    files["static/hashikit.zip"] = python_zip()
    made = {"pyodide-lock.json": _lock_file, "python_stdlib.zip": _stdlib}
    for name in PYODIDE_FILES:
        files[f"pyodide/{name}"] = made[name](pyodide[name]) if name in made else pyodide[name]
    files["limits.json"] = json.dumps(limits_document(daily, _digest(files)), indent=1).encode()
    files["style.json"] = json.dumps(style_report().model_dump(), indent=1).encode()
    files["manifest.webmanifest"] = _manifest()
    files.update(_icons())
    files[MARKER] = f"hashikit site, Pyodide {PYODIDE_VERSION}\n".encode()
    files["sw.js"] = _service_worker(files)
    return files


def refusal(folder: str) -> str | None:
    """Why the site may not be written into ``folder`` (None: it may): a folder that holds
    anything but a site this command wrote is left alone."""
    path = Path(folder)
    if path.exists() and not path.is_dir():
        return "is a file; give a folder"
    if path.is_dir() and any(path.iterdir()) and not (path / MARKER).is_file():
        return ("is not empty and holds no site hashikit wrote; give an empty or new folder "
                "(hashikit never writes over files it did not write)")
    return None
