"""``hashikit serve`` as it runs (hashikit/web/serving.py): slow connections closed within the
stated timeouts, open connections capped per client address, and a short run of the load test
(benchmarks/load.py: normal players while every attack runs) on a real server."""

from __future__ import annotations

import socket
import sys
import time

import pytest

from conftest import ROOT, loaded

sys.path.insert(0, str(ROOT / "benchmarks"))
import load  # noqa: E402

#: the server's slow-client settings here: short, so that the tests wait little
SHORT = {"header_timeout": 1.0, "body_timeout": 1.0, "keep_alive": 1.0, "client_connections": 3}


@pytest.fixture(scope="module")
def server():
    s = load.Server(None, settings=SHORT)
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
    server stays under 1.5 GB.  The full run, with its p50 and p99, is benchmarks/results/load.md."""
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
    assert figures["pss"] < 1.5 * 2 ** 30, figures["pss"]
    assert figures["p99"] < 1000 * loaded(2.0), figures["p99"]


def test_serve_refuses_a_proxy_that_is_no_address(capsys):
    from hashikit.cli import build_parser

    args = build_parser().parse_args(["serve", "--port", "0", "--trusted-proxy", "10.0.0.0/8", "--trusted-proxy", "nginx"])
    assert args.func(args) == 2
    assert capsys.readouterr().err.strip() == "hashikit: error: --trusted-proxy: not an address or a network: 'nginx'"


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
