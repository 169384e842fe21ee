"""``hashikit serve`` as it runs (hashikit/web/serving.py): slow connections closed within the
stated timeouts, open connections capped per client address, and a short run of the load test
(benchmarks/load.py: normal players while every attack runs) on a real server."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT, loaded
from hashikit.limits import WEB_ADMISSION

sys.path.insert(0, str(ROOT / "benchmarks"))
import load  # noqa: E402

#: the server's slow-client settings here: short, so that the tests wait little; behind a proxy on
#: this machine (the README's nginx and Caddy), and a solve's time limit short
SHORT = {"header_timeout": 1.0, "body_timeout": 1.0, "keep_alive": 1.0, "client_connections": 3}
SETTINGS = {**SHORT, "trusted": ["127.0.0.1"], "time_limit": 1.5}


@pytest.fixture(scope="module")
def server():
    s = load.Server(None, settings=SETTINGS)
    try:
        yield s
    finally:
        s.stop()


def connect(server, k: int = 90) -> socket.socket:
    server.wait()
    sock = socket.socket()
    sock.bind((f"127.0.0.{k}", 0))
    sock.connect(("127.0.0.1", server.port))
    sock.settimeout(0.1)
    return sock


def held(sock: socket.socket, drip: bytes, every: float = 0.2, within: float = 15.0) -> tuple[float, bytes]:
    """Send ``drip`` a byte every ``every`` s until the server closes the connection: how long it
    stayed open, and what the server said."""
    start, said = time.monotonic(), b""
    for byte in drip:
        try:
            sock.sendall(bytes([byte]))
        except OSError:
            break
        try:
            got = sock.recv(4096)
            if not got:
                break
            said += got
        except socket.timeout:
            pass
        except OSError:
            break
        time.sleep(every)
        if time.monotonic() - start > within:
            break
    return time.monotonic() - start, said


def test_headers_that_trickle_in_are_cut_off_at_the_header_timeout(server):
    with connect(server) as sock:
        took, said = held(sock, b"POST /api/solve HTTP/1.1\r\nhost: 127.0.0.1\r\nx-pad: " + b"a" * 200)
    assert SHORT["header_timeout"] - 0.1 <= took <= SHORT["header_timeout"] + loaded(1.0), took
    assert said == b""


def test_a_body_that_trickles_in_is_answered_408_at_the_body_timeout(server):
    with connect(server) as sock:
        sock.sendall(b"POST /api/solve HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n"
                     b"content-length: 1000\r\n\r\n")
        took, said = held(sock, b'{"puzzle": ' + b" " * 900)
    assert SHORT["body_timeout"] - 0.1 <= took <= SHORT["body_timeout"] + loaded(1.5), took
    assert said.startswith(b"HTTP/1.1 408 ") and b"did not arrive within 1 s" in said, said


def test_an_idle_connection_is_closed_after_the_keep_alive(server):
    with connect(server) as sock:
        sock.sendall(b"GET /api/limits HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n")
        start, said = time.monotonic(), b""
        sock.settimeout(10)
        while True:
            got = sock.recv(65536)
            if not got:
                break
            said += got
        took = time.monotonic() - start
    assert said.startswith(b"HTTP/1.1 200 ")
    assert took <= SHORT["keep_alive"] + loaded(1.5), took


def test_a_client_holds_a_few_connections_open_one_more_is_429(server):
    socks = [connect(server, 91) for _ in range(SHORT["client_connections"])]
    try:
        time.sleep(0.2)
        with connect(server, 91) as extra:
            extra.settimeout(10)
            said = extra.recv(4096)
            assert said.startswith(b"HTTP/1.1 429 ") and b"retry-after: " in said, said
            assert extra.recv(4096) == b""  # and closed
        with connect(server, 92) as other:  # another address is not held up
            other.settimeout(10)
            other.sendall(b"GET /api/limits HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n")
            assert other.recv(4096).startswith(b"HTTP/1.1 200 ")
    finally:
        for s in socks:
            s.close()


def test_a_short_load_run_every_attack_at_once(server):
    """Two normal players solve 15x15 puzzles for 2 s while every attack runs at once (near-cap
    pictures, hard 60x60 solves, max-size parses, 400 small solves at once, slowloris): each player
    answer is a checked solution, every refusal is 429 or 503 with Retry-After (never 400), and the
    server stays under its stated memory (``server_memory``).  The full run, with its p50 and p99, is benchmarks/results/load.md."""
    run = load.run_on(server, ("all",), 2.0, 2, hard=1)
    (figures,) = [load.figures(p) for p in run["phases"]]
    assert run["alive"]
    assert figures["requests"] >= 2 and set(figures["answers"]) == {"200"}, figures["answers"]
    for attack, got in figures["sent"].items():
        codes = set(got["codes"])
        allowed = {"200", "429", "503", "ReadError", "RemoteProtocolError"} | ({"400"} if attack == "pictures" else set())
        assert codes <= allowed, (attack, got)  # a blank picture is 400: it holds no board
        assert got["with_retry_after"] == got["refused"], (attack, got)
    assert figures["sent"]["flood"]["codes"].get("429", 0) > 0
    assert figures["held"]["headers"]["still_open"] == 0
    assert figures["pss"] < WEB_ADMISSION.server_memory, figures["pss"]
    assert figures["p99"] < 1000 * loaded(2.0), figures["p99"]


def test_serve_refuses_a_proxy_that_is_no_address(capsys):
    from hashikit.cli import build_parser

    with pytest.raises(SystemExit) as stop:
        build_parser().parse_args(["serve", "--port", "0", "--trusted-proxy", "10.0.0.0/8", "--trusted-proxy", "nginx"])
    err = capsys.readouterr().err.strip().splitlines()
    assert stop.value.code == 2 and err[-1] == "hashikit serve: error: argument --trusted-proxy: not an address or a network: 'nginx' (see 'hashikit serve --help')", err


def test_serve_help_says_how_it_shares_and_whom_it_trusts(capsys, monkeypatch):
    from hashikit.cli import build_parser

    monkeypatch.setenv("COLUMNS", "100")
    with pytest.raises(SystemExit):
        build_parser().parse_args(["serve", "--help"])
    out = capsys.readouterr().out
    flat = " ".join(out.split())
    assert "--trusted-proxy ADDRESS" in flat and "X-Forwarded-For" in flat
    assert "overload is 503, a client asking too much 429, both with Retry-After" in flat
    assert "closes slow connections" in flat and "GET /api/limits states how" in flat
    assert "hashikit serve --trusted-proxy 127.0.0.1" in out


def test_a_trusted_proxys_forwarded_client_has_its_own_share_an_untrusted_peer_names_no_one(server):
    """The server trusts 127.0.0.1 (``--trusted-proxy``): through it, two clients it names each run
    a heavy request while the first one's second at once is 429; from any other peer the header is
    ignored, so two names it sends share one share."""
    from concurrent.futures import ThreadPoolExecutor

    import httpx

    (hard,) = load.hard_puzzles(1)
    server.wait()

    def post(peer: int, forwarded: str):
        transport = httpx.HTTPTransport(local_address=f"127.0.0.{peer}")
        with httpx.Client(transport=transport, timeout=60) as c:
            return c.post(f"{server.base}/api/solve", json={"puzzle": hard}, headers={"x-forwarded-for": forwarded})

    def three(peer: int):
        with ThreadPoolExecutor(3) as pool:
            first = pool.submit(post, peer, "203.0.113.5")
            time.sleep(0.5)  # the first's 1.5 s of work under way
            second = pool.submit(post, peer, "203.0.113.5")
            other = pool.submit(post, peer, "203.0.113.6")
            return [f.result() for f in (first, second, other)]

    answers = three(1)
    assert [r.status_code for r in answers] == [200, 429, 200], [r.text[:200] for r in answers]
    assert "heavy requests" in answers[1].json()["error"] and answers[1].headers["retry-after"]
    answers = three(7)  # not a trusted proxy: both names are 127.0.0.7
    assert [r.status_code for r in answers] == [200, 429, 429], [r.text[:200] for r in answers]


# -- behind the README's nginx and Caddy (-m slow: a proxy each, a few seconds) ---------------------
def readme_block(first_line: str) -> str:
    """The README's indented code block that starts with ``first_line``."""
    lines = (ROOT / "README.md").read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == first_line)
    block = []
    for line in lines[start:]:
        if line and not line.startswith("    "):
            break
        block.append(line[4:])
    return "\n".join(block).strip() + "\n"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def through(proxy_port: int, k: int, body: dict):
    import httpx

    transport = httpx.HTTPTransport(local_address=f"127.0.0.{k}")
    with httpx.Client(transport=transport, timeout=60) as c:
        return c.post(f"http://127.0.0.1:{proxy_port}/api/solve", json=body)


def each_client_its_own_share(proxy_port: int) -> None:
    """Through the proxy, client A's second heavy request at once is 429 while client B's first is
    served: the server counts each by the address the proxy names, not the proxy's own."""
    from concurrent.futures import ThreadPoolExecutor

    (hard,) = load.hard_puzzles(1)
    with ThreadPoolExecutor(3) as pool:
        first = pool.submit(through, proxy_port, 5, {"puzzle": hard})
        time.sleep(0.5)
        second = pool.submit(through, proxy_port, 5, {"puzzle": hard})
        other = pool.submit(through, proxy_port, 6, {"puzzle": hard})
        answers = [first.result(), second.result(), other.result()]
    assert [r.status_code for r in answers] == [200, 429, 200], [r.text[:200] for r in answers]
    assert "heavy requests" in answers[1].json()["error"] and answers[1].headers["retry-after"]


@pytest.mark.slow
def test_behind_the_readmes_nginx_each_client_has_its_own_share(server, tmp_path):
    nginx = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
    if nginx is None:
        pytest.skip("nginx is not installed (Debian package nginx-core; .ci/run installs it)")
    port = free_port()
    site = readme_block("limit_conn_zone $binary_remote_addr zone=hashi:10m;").replace(
        "listen 443 ssl;", f"listen 127.0.0.1:{port};")
    temp = " ".join(f"{kind}_temp_path {tmp_path / kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    (tmp_path / "nginx.conf").write_text(
        f"daemon off; worker_processes 1; pid {tmp_path / 'nginx.pid'}; error_log {tmp_path / 'error.log'};\n"
        f"events {{ worker_connections 64; }}\nhttp {{ access_log off; {temp}\n{upstream(site, server)}}}\n")
    behind([nginx, "-c", str(tmp_path / "nginx.conf"), "-p", str(tmp_path)], port, None)


@pytest.mark.slow
def test_behind_the_readmes_caddy_each_client_has_its_own_share(server, tmp_path):
    caddy = shutil.which("caddy")
    if caddy is None:
        pytest.skip("caddy is not installed (Debian package caddy; .ci/run installs it)")
    port = free_port()
    site = readme_block("hashi.example.org {").replace("hashi.example.org", f"http://127.0.0.1:{port}")
    (tmp_path / "Caddyfile").write_text("{\n\tadmin off\n}\n" + upstream(site, server))
    env = dict(os.environ, HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path))
    behind([caddy, "run", "--config", str(tmp_path / "Caddyfile"), "--adapter", "caddyfile"], port, env)


def upstream(site: str, server) -> str:
    """The README's configuration pointed at the test's server instead of port 8000."""
    server.wait()
    return site.replace("127.0.0.1:8000", f"127.0.0.1:{server.port}")


def behind(command: list[str], port: int, env) -> None:
    """Run the proxy ``command`` (listening on ``port``) and check each client's share through it."""
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    try:
        up(port, proc)
        each_client_its_own_share(port)
    finally:
        proc.terminate()
        proc.wait(10)


def up(port: int, proc) -> None:
    end = time.monotonic() + loaded(15)
    while time.monotonic() < end:
        if proc.poll() is not None:
            pytest.fail(f"the proxy ended: {proc.stderr.read()[-2000:]}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    pytest.fail("the proxy did not start")
