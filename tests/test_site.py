"""``hashikit site OUT/``: the page that needs no server, written as a folder.

What the command writes (every file kept by the service worker, Pyodide's files checked, the
limits document the page builds its forms from, the manifest), what it refuses (a folder it did
not write, Pyodide's files altered or missing, a daily puzzle the page cannot make), and the
Python the browser runs: hashikit.zip alone, with nothing but the standard library (no
python-sat, pydantic or web framework, as in Pyodide), answers as the server does, and the
puzzles it generates are unique (the SAT engine, here, proves it again) at the level asked.
The page itself is played in Chromium by tests/test_site_browser.py.
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from hashikit.checker import check
from hashikit.cli import main
from hashikit.limits import SITE, SITE_GENERATE_MAX_SIDE, SITE_LEVEL_COUNT
from hashikit.model import LEVELS, Puzzle, Solution
from hashikit.web import local, site
from site_build import built_site, pyodide_or_skip

HERE_LEVELS = list(LEVELS[:SITE_LEVEL_COUNT])


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    return built_site(tmp_path_factory)


# -- what it writes -------------------------------------------------------------------------------
def test_the_folder_holds_the_page_pyodide_and_the_python_and_the_service_worker_keeps_every_file(folder):
    files = {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}
    assert {"index.html", "sw.js", "manifest.webmanifest", "limits.json", "style.json", "static/server.js", "static/remote.js",
            "static/worker.js", "static/hashikit.zip", "static/app.js", "static/daily.js"} <= files
    kept = json.loads(re.search(r"const FILES = (\[.*?\]);", (folder / "sw.js").read_text(), re.S).group(1))
    assert set(kept) == (files - {"sw.js", site.MARKER}) | {"./"}
    for name, digest in site.PYODIDE_FILES.items():
        if name not in ("pyodide-lock.json", "python_stdlib.zip"):  # those two are cut down
            assert hashlib.sha256((folder / "pyodide" / name).read_bytes()).hexdigest() == digest
    assert json.loads((folder / "pyodide" / "pyodide-lock.json").read_text())["packages"] == {}
    import zipfile

    with zipfile.ZipFile(folder / "pyodide" / "python_stdlib.zip") as z:
        tops = {re.split(r"[/.]", n)[0] for n in z.namelist()}
        encodings = {n.split("/")[1].split(".")[0] for n in z.namelist() if n.startswith("encodings/") and n != "encodings/"}
    assert {"json", "random", "asyncio", "re", "zipfile", "pyodide", "_pyodide"} <= tops
    assert not tops & site.STDLIB_LEFT_OUT and encodings == set(site.ENCODINGS_KEPT)
    # the swap: the site's server.js, and the served page's kept as remote.js
    static = Path(site.__file__).parent / "static"
    assert (folder / "static" / "remote.js").read_text() == (static / "server.js").read_text()
    assert (folder / "static" / "server.js").read_text() == (Path(site.__file__).parent / "site_static" / "server.js").read_text()


def exported(path: Path) -> set[str]:
    text = path.read_text()
    names = set(re.findall(r"^export (?:async )?(?:function|const|class) (\w+)", text, re.M))
    for group in re.findall(r"^export \{([^}]*)\}", text, re.M):
        names.update(n.strip() for n in group.split(","))
    return names


def test_the_sites_server_js_answers_every_question_the_served_page_asks():
    """The swap holds only if the twin has every function of the served page's server.js."""
    web = Path(site.__file__).parent
    served, twin = exported(web / "static" / "server.js"), exported(web / "site_static" / "server.js")
    assert {"limits", "parse", "solve", "check", "hint", "analyze", "generate"} <= served
    assert served <= twin, f"the site's server.js lacks {sorted(served - twin)}"


def test_the_page_names_every_file_by_a_relative_address_and_is_installable(folder):
    html = (folder / "index.html").read_text()
    assert not re.search(r'(?:href|src)="/', html)
    assert '<link rel="manifest" href="manifest.webmanifest">' in html
    for doc in ("limits.json", "style.json"):  # asked for with the modules, not after them
        assert f'<link rel="preload" href="{doc}" as="fetch" crossorigin>' in html
    manifest = json.loads((folder / "manifest.webmanifest").read_text())
    assert manifest["start_url"] == "./" and manifest["display"] == "standalone"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        data = (folder / icon["src"]).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" or data.startswith(b"<svg")
    for name in ("server.js", "worker.js", "remote.js"):  # nothing from the site's root, nor elsewhere
        text = (folder / "static" / name).read_text()
        assert "http://" not in text and "https://" not in text and '"/api' not in text


def test_the_limits_document_states_what_the_page_does_without_a_server(folder):
    doc = json.loads((folder / "limits.json").read_text())
    assert doc["server"] is False
    assert doc["generate"]["levels"] == HERE_LEVELS and doc["generate"]["max_side"] == SITE_GENERATE_MAX_SIDE
    assert doc["max_side"] == SITE.max_side and doc["max_maxbridges"] == SITE.max_maxbridges
    assert doc["site"]["daily"] == {"level": HERE_LEVELS[1], "rows": 10, "cols": 10, "seed": 1}
    assert re.fullmatch(r"[0-9a-f]{16}", doc["site"]["build"])
    assert {f["name"] for f in doc["formats"]} >= {"tatham", "json", "grid"}


def test_the_same_sources_write_the_same_python_and_service_worker(folder):
    assert site.python_zip() == (folder / "static" / "hashikit.zip").read_bytes()
    pyodide = pyodide_or_skip()
    again = site.build(pyodide, site.daily_spec())
    assert again["sw.js"] == (folder / "sw.js").read_bytes()


def test_a_site_written_before_is_written_again_and_another_folder_is_refused(capsys, tmp_path, folder):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep me")
    code, _, err = run(capsys, "site", str(mine))
    assert code == 2 and "holds no site hashikit wrote" in err and err.count("\n") == 1
    assert [p.name for p in mine.iterdir()] == ["notes.txt"] and (mine / "notes.txt").read_text() == "keep me"
    a_file = tmp_path / "file.txt"
    a_file.write_text("x")
    code, _, err = run(capsys, "site", str(a_file))
    assert code == 2 and "is a file" in err and a_file.read_text() == "x"
    assert site.refusal(str(folder)) is None  # a site it wrote: written over


def test_pyodide_from_a_folder_that_is_not_pyodides_is_refused(capsys, tmp_path):
    fake = tmp_path / "pyodide"
    fake.mkdir()
    for name in site.PYODIDE_FILES:
        (fake / name).write_bytes(b"not pyodide")
    code, _, err = run(capsys, "site", str(tmp_path / "out"), "--pyodide", str(fake))
    assert code == 2 and "sha256 differs" in err and not (tmp_path / "out" / "index.html").exists()
    (fake / "pyodide.asm.wasm").unlink()
    code, _, err = run(capsys, "site", str(tmp_path / "out"), "--pyodide", str(fake))
    assert code == 2 and "pyodide.asm.wasm not found" in err
    code, _, err = run(capsys, "site", str(tmp_path / "out"), "--pyodide", str(tmp_path / "nowhere.tgz"))
    assert code == 2 and "no such file or folder" in err


@pytest.mark.parametrize("argv, words", [
    (["--daily-size", f"{SITE_GENERATE_MAX_SIDE + 1}x10"], "rows"),
    (["--daily-level", LEVELS[-1]], "invalid choice"),
    (["--daily-seed", "-1"], "--daily-seed"),
])
def test_a_daily_puzzle_the_page_cannot_make_is_refused(capsys, tmp_path, argv, words):
    with pytest.raises(SystemExit) as info:
        main(["site", str(tmp_path / "out"), *argv])
    assert info.value.code == 2 and words in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_help_says_what_the_site_does_and_needs(capsys):
    with pytest.raises(SystemExit):
        main(["site", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for words in ("any static web host", "no hashikit server", "Pyodide", "npm registry", "--pyodide",
                  "daily puzzle", f"up to {SITE_GENERATE_MAX_SIDE}x{SITE_GENERATE_MAX_SIDE}",
                  ", ".join(HERE_LEVELS), "Reading pictures", "python -m http.server -d public/"):
        assert words in text, words


# -- the Python the browser runs ------------------------------------------------------------------
#: runs hashikit.zip with the standard library only, as the site's Pyodide has it (``-S``: no
#: site-packages, so no python-sat, pydantic or web framework; the parts of the standard library
#: the site leaves out refused)
BROWSER_LIKE = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
left_out = set(json.loads(sys.argv[2]))  # the standard library's parts the site leaves out
class LeftOut:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in left_out:
            raise ModuleNotFoundError(f"{name} is left out of the site's standard library", name=name)
sys.meta_path.insert(0, LeftOut())
from hashikit.web import local
import hashikit, hashikit.solvers
assert hashikit.__file__.startswith(sys.argv[1]), hashikit.__file__
assert hashikit.solvers.DEFAULT_ENGINE == "search"
calls = json.loads(sys.stdin.read())
print(json.dumps([json.loads(local.answer(name, json.dumps(body))) for name, body in calls]))
"""


def browser_like(zip_path: Path, calls: list) -> list:
    proc = subprocess.run([sys.executable, "-I", "-S", "-c", BROWSER_LIKE, str(zip_path),
                           json.dumps(sorted(site.STDLIB_LEFT_OUT))], input=json.dumps(calls),
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout)


def test_the_browsers_python_generates_unique_puzzles_at_each_level_it_offers(tmp_path):
    zip_path = tmp_path / "hashikit.zip"
    zip_path.write_bytes(site.python_zip())
    asked = [(level, side, seed) for level in HERE_LEVELS for side, seed in ((7, 1), (SITE_GENERATE_MAX_SIDE, 2))]
    answers = browser_like(zip_path, [["generate", {"rows": side, "difficulty": level, "seed": seed}]
                                      for level, side, seed in asked])
    from hashikit.solvers import solve

    for (level, side, seed), out in zip(asked, answers):
        report = out["ok"]
        assert report["grade"] == level and report["seed"] == seed
        p = report["puzzle"]
        puzzle = Puzzle(p["rows"], p["cols"], [tuple(i) for i in p["islands"]], p["maxbridges"])
        assert (puzzle.rows, puzzle.cols) == (side, side)
        proof = solve(puzzle, engine="sat", max_solutions=2)
        assert proof.unique is True and check(puzzle, proof.solution).ok


def same(name: str, mine: dict | None, theirs: dict) -> bool:
    """Two answers agree: equal, but for the engine's name and words (how it proved a puzzle has
    no solution), and which solutions of a puzzle with several (each engine finds its own two)."""
    if mine is None:
        return False
    mine, theirs = dict(mine), dict(theirs)
    mine.pop("engine", None), theirs.pop("engine", None)
    if mine.get("status") == "infeasible":  # each engine says how it proved it
        if bool(mine.pop("reason", None)) != bool(theirs.pop("reason", None)):
            return False
    if mine.get("unique") is False or mine.get("status") == "several":
        for answer in (mine, theirs):
            for key in ("bridges", "second", "solutions", "differ"):
                answer.pop(key, None)
    return mine == theirs


def test_the_browsers_python_answers_as_the_server_does(tmp_path):
    """The same requests to the server (python-sat, pydantic) and to hashikit.zip alone (the
    search engine): the same answers, refusals included."""
    pytest.importorskip("httpx")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from hashikit.web.app import create_app

    zip_path = tmp_path / "hashikit.zip"
    zip_path.write_bytes(site.python_zip())
    puzzle = {"rows": 7, "cols": 7, "maxbridges": 2, "islands": [
        [0, 0, 4], [0, 5, 2], [1, 1, 1], [1, 3, 4], [2, 0, 2], [2, 1, 6], [2, 3, 3], [3, 5, 1], [4, 0, 3],
        [4, 4, 3], [5, 1, 2], [5, 6, 3], [6, 0, 3]]}
    several = {"rows": 3, "cols": 3, "islands": [[0, 0, 3], [0, 2, 3], [2, 0, 3], [2, 2, 3]], "maxbridges": 3}
    none = {"rows": 3, "cols": 5, "islands": [[0, 0, 1], [0, 2, 2], [0, 4, 1], [2, 0, 1], [2, 2, 2], [2, 4, 1]]}
    calls = [
        ["parse", {"text": "7x7m2:4d2b1b4a26b3m1c3c3c2d3"}],
        ["parse", {"text": "4.2\n...\n2.2\n"}],
        ["parse", {"text": ""}],
        ["parse", {"text": "7x7m2:4d2b1b4a26b3m1c3c3c2d3", "format": "nope"}],
        ["solve", {"puzzle": puzzle}], ["solve", {"puzzle": several}], ["solve", {"puzzle": none}],
        ["check", {"puzzle": puzzle, "bridges": [[0, 0, 0, 5, 2]]}],
        ["check", {"puzzle": puzzle, "bridges": [[0, 0, 0, 5, 3]]}],
        ["hint", {"puzzle": puzzle, "bridges": []}],
        ["hint", {"puzzle": puzzle, "bridges": [[0, 0, 0, 5, 1]], "marks": [[0, 0, 4, 0]]}],
        ["hint", {"puzzle": several, "bridges": []}],
        ["analyze", {"puzzle": puzzle}], ["analyze", {"puzzle": several}], ["analyze", {"puzzle": none}],
        ["convert", {"puzzle": puzzle, "format": "tatham"}],
        ["convert", {"puzzle": puzzle, "format": "grid"}],
        ["check", {"puzzle": {"rows": 0, "cols": 2, "islands": []}, "bridges": []}],
    ]
    mine = browser_like(zip_path, calls)
    with TestClient(create_app(pool_size=0)) as client:
        for (name, body), got in zip(calls, mine):
            r = client.post(f"/api/{name}", json=body)
            if r.status_code == 200:
                assert same(name, got.get("ok"), r.json()), (name, body, got, r.json())
            else:
                assert got.get("code") == r.status_code and "error" in got, (name, body, got, r.json())


def test_what_needs_a_server_says_so_and_what_no_one_takes_is_refused():
    def ask(name, body):
        return json.loads(local.answer(name, json.dumps(body)))

    side = SITE.max_side + 1
    big = {"rows": side, "cols": side, "islands": [[0, 0, 1], [0, side - 1, 1]]}
    small = {"rows": 3, "cols": 3, "islands": [[0, 0, 1], [0, 2, 1]]}
    assert "ok" in ask("check", {"puzzle": small, "bridges": []})
    made = ask("generate", {"rows": 5, "difficulty": HERE_LEVELS[0]})["ok"]  # no seed: one drawn, and said
    assert made["grade"] == HERE_LEVELS[0] and isinstance(made["seed"], int)
    for name, body in (["generate", {"rows": SITE_GENERATE_MAX_SIDE + 1, "difficulty": HERE_LEVELS[0]}],
                       ["generate", {"rows": 7, "difficulty": LEVELS[-1]}],
                       ["parse", {"text": f"{SITE.max_side + 1}x{SITE.max_side + 1}m2:z"}],
                       # a board the server's jobs take, above this page's limits (sides, MAXBRIDGES)
                       ["check", {"puzzle": big, "bridges": []}],
                       ["hint", {"puzzle": {**small, "maxbridges": SITE.max_maxbridges + 1}}]):
        out = ask(name, body)
        assert out["status"] == "needs-server" and "needs a hashikit server" in out["error"], out
    for name, body in (["generate", {"rows": 1000, "difficulty": HERE_LEVELS[0]}],
                       ["parse", {"text": "100x100m2:z"}],
                       ["generate", {"rows": 7, "difficulty": "impossible"}],
                       ["hint", {"puzzle": {"rows": 3}, "bridges": "x"}],
                       ["hint", {"puzzle": [1, 2]}],
                       ["check", {"puzzle": {**big, "rows": 1000}, "bridges": []}],  # above the server's too
                       ["nothing", {}]):
        out = ask(name, body)
        assert out["code"] in (400, 404) and out["status"] != "needs-server" and out["error"], out
    assert json.loads(local.answer("solve", "{not json"))["code"] == 400


def test_the_readme_says_what_the_folder_is(folder):
    """The README's figures and names for the site are the folder's: Pyodide's version, the bytes
    of a first visit (every file, once), the levels and sides, the cache folder's variable."""
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    part = readme[readme.index("## A page that needs no server"):readme.index("## Formats")]
    text = " ".join(part.split())
    total = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
    said = float(re.search(r"the first visit downloads ([\d.]+) MB", text).group(1))
    assert abs(said - total / 1e6) <= 0.2, (said, total)
    wasm = (folder / "pyodide" / "pyodide.asm.wasm").stat().st_size
    assert f"{wasm / 1e6:.1f} MB of it" in text
    assert f"pyodide {site.PYODIDE_VERSION}" in text and f"pyodide-{site.PYODIDE_VERSION}.tgz" in text
    assert "HASHIKIT_CACHE" in text and f"up to {SITE_GENERATE_MAX_SIDE}x{SITE_GENERATE_MAX_SIDE}" in text
    assert f"boards above {SITE.max_side}x{SITE.max_side}" in text
    assert f"at {', '.join(HERE_LEVELS[:-1])} and {HERE_LEVELS[-1]}" in text


def test_no_daily_puzzle_when_asked(tmp_path):
    from site_build import pyodide_source

    argv = ["site", str(tmp_path / "out"), "--no-daily"] + (["--pyodide", pyodide_source()] if pyodide_source() else [])
    pyodide_or_skip()
    assert main(argv) == 0
    assert json.loads((tmp_path / "out" / "limits.json").read_text())["site"]["daily"] is None


def test_the_readmes_timings_are_the_benchmarks():
    """The README's waits are benchmarks/results/site.md's medians (throttled 4x, and not)."""
    root = Path(__file__).resolve().parents[1]
    table = (root / "benchmarks" / "results" / "site.md").read_text()
    readme = " ".join((root / "README.md").read_text().split())

    def medians(row: str) -> list[float]:
        line = next(x for x in table.splitlines() if x.startswith(f"| {row}"))
        return [float(cell.split()[0].replace(",", "")) for cell in line.split("|")[2:4]]

    throttled, unthrottled = medians("repeat visit: ms to a playable board")
    assert f"{unthrottled / 1000:.2f} s unthrottled, {throttled / 1000:.2f} s throttled" in readme
    first = medians("first visit: ms to Python ready")[0]
    assert f"(about {first / 1000:.0f} s there)" in readme
    assert ("above" if throttled >= 1000 else "within") + " the 1 s aimed at" in readme


def test_no_daily_with_a_daily_setting_is_refused(capsys, tmp_path):
    for flag, value in (("--daily-level", HERE_LEVELS[0]), ("--daily-size", "8x8"), ("--daily-seed", "3")):
        code, _, err = run(capsys, "site", str(tmp_path / "out"), "--no-daily", flag, value)
        assert code == 2 and f"--no-daily with {flag}" in err and not (tmp_path / "out").exists()
