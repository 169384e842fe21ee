"""Links that work for anyone: the page's links are built from the address its player reached it
by, on the served page too, behind a reverse proxy at a path (``hashikit serve --root-path``):
never the address the server binds (127.0.0.1) unless that is where the player is.

Chromium reaches the server by a name of its own (``--host-resolver-rules`` maps hashi.test to
127.0.0.1, as a proxy's public name would be), under a path; the server never writes an absolute
address of its own (its one redirect, to the page's folder, is relative).
"""

from __future__ import annotations

import argparse
import warnings
from pathlib import Path

import pytest

from test_web_e2e import ARGS, CHROMIUM, PUZZLE, serve

uvicorn = pytest.importorskip("uvicorn", reason="the web extra (uvicorn) is not installed")

NAME = "hashi.test"


def test_root_path_is_a_path_and_the_serve_help_says_so(capsys):
    from hashikit.cli import main
    from hashikit.web.cli import _root_path

    assert _root_path("/hashi/") == "/hashi" and _root_path("/a/b") == "/a/b" and _root_path("") == ""
    for bad in ("hashi", "/hashi?x", "/ha shi", "http://example.org/hashi"):
        with pytest.raises(argparse.ArgumentTypeError):
            _root_path(bad)
    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--root-path PATH" in text and "https://example.org/hashi/" in text


def test_the_server_writes_no_address_of_its_own():
    pytest.importorskip("httpx")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from hashikit.web.app import create_app

    with TestClient(create_app(pool_size=0), base_url="http://127.0.0.1:8000", root_path="/hashi",
                    follow_redirects=False) as client:
        bare = client.get("/hashi?x=1")
        assert bare.status_code == 307 and bare.headers["location"] == "hashi/?x=1"
        for path in ("/hashi/", "/hashi/api/limits", "/hashi/static/app.js", "/hashi/static/server.js"):
            answer = client.get(path)
            assert answer.status_code == 200 and "127.0.0.1" not in answer.text and '"/api' not in answer.text, path


@pytest.fixture(scope="module")
def prefixed_server():
    """The app behind a path, as a reverse proxy that takes the path off serves it (nginx's
    ``location /hashi/ { proxy_pass http://127.0.0.1:8000/; }`` before ``hashikit serve --root-path
    /hashi``): mounted at /hashi, which hands it the rest of the path and the root path."""
    from starlette.applications import Starlette
    from starlette.routing import Mount

    from hashikit.web.app import create_app

    proxy = Starlette(routes=[Mount("/hashi", app=create_app(pool_size=0))])
    for address in serve(proxy):
        yield int(address.rsplit(":", 1)[1])


def test_serve_takes_the_root_path_and_says_its_address_with_it(monkeypatch, capsys):
    from hashikit.cli import main

    ran = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: ran.append(self.config.root_path))
    assert main(["serve", "--port", "0", "--root-path", "/hashi/"]) == 0
    err = capsys.readouterr().err
    assert ran == ["/hashi"] and "playing at http://127.0.0.1:" in err and "/hashi/  (Ctrl-C stops)" in err, err


@pytest.fixture(scope="module")
def named_browser():
    if not Path(CHROMIUM).exists():
        pytest.skip(f"Chromium not found at {CHROMIUM}: install it (apt-get install chromium) or set HASHIKIT_CHROMIUM")
    sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
    pw = sync_api.sync_playwright().start()
    try:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=[*ARGS, f"--host-resolver-rules=MAP {NAME} 127.0.0.1"])
    except Exception as exc:
        pw.stop()
        pytest.skip(f"Chromium did not start under Playwright: {str(exc).splitlines()[0]}")
    yield b
    b.close()
    pw.stop()


def test_behind_a_path_the_page_and_its_links_use_the_players_address(named_browser, prefixed_server):
    base = f"http://{NAME}:{prefixed_server}/hashi/"
    ctx = named_browser.new_context()
    page = ctx.new_page()
    asked = []
    page.on("request", lambda r: asked.append(r.url))
    page.goto(f"http://{NAME}:{prefixed_server}/hashi#p={PUZZLE}")  # the bare path: to the page's folder
    page.wait_for_selector("body[data-ready=true]", timeout=20000)
    page.wait_for_selector("#board .island", timeout=20000)
    assert page.url.startswith(base + "#p=")
    page.locator('#board .island[data-r="1"][data-c="1"]').click()
    page.locator('#board .island[data-r="1"][data-c="4"]').click()
    page.check("#share-progress")
    link = page.input_value("#share-url")
    assert link.startswith(base + "#p=") and "&b=" in link and "127.0.0.1" not in link
    assert all(u.startswith((base, f"http://{NAME}:{prefixed_server}/hashi")) for u in asked), asked
    assert any(u.startswith(base + "api/") for u in asked)
    other = named_browser.new_context().new_page()
    other.goto(link)
    other.wait_for_selector("#board .bridge", state="attached", timeout=20000)
    assert other.locator("#board .bridge").count() == 1
    ctx.close()
    other.context.close()
