"""``hashikit serve``: bind the port first (a port in use is one line), then run the web app with uvicorn."""

from __future__ import annotations

import argparse
import errno
import sys

INSTALL_HINT = "hashikit serve needs starlette and uvicorn, which come with hashikit: pip install --upgrade hashikit (or: pip install starlette uvicorn)"
LOOPBACK = ("127.0.0.1", "localhost", "::1")


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError("a port runs from 0 to 65535")
    return value


def _proxy(text: str) -> str:
    """A trusted proxy's address or network (``127.0.0.1``, ``10.0.0.0/8``), checked as the app reads it."""
    import ipaddress

    try:
        ipaddress.ip_network(text.strip(), strict=False)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an address or a network: {text!r}") from None
    return text.strip()


def _root_path(text: str) -> str:
    """A path prefix the page is served under (``/hashi``): starts with ``/``, no query or fragment."""
    path = text.rstrip("/")
    if text and not text.startswith("/") or any(ch in text for ch in "?# \t\n\\"):
        raise argparse.ArgumentTypeError(f"a root path is a path such as /hashi (got {text!r})")
    return path


def allowed_hosts(host: str) -> list[str] | None:
    """Host headers to accept: on a loopback address only the local names (no DNS rebinding)."""
    if host in LOOPBACK:
        return ["127.0.0.1", "localhost", "[::1]", "::1"]
    return None


def bind(host: str, port: int):
    """A listening socket on ``host:port`` (port 0: a free one), or OSError: bound before the
    address is printed, so a port in use is one line and nothing else."""
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    infos = socket.getaddrinfo(host, port, family if ":" in host else socket.AF_UNSPEC, socket.SOCK_STREAM)
    family, _, _, _, address = infos[0]
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(2048)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def run(args) -> int:
    try:
        import starlette  # noqa: F401
        import uvicorn
    except ImportError:
        print(INSTALL_HINT, file=sys.stderr)
        return 2
    from ..limits import WEB_ADMISSION
    from .admission import proxies
    from .app import create_app
    from .serving import config as serving_config

    try:
        trusted = proxies(args.trusted_proxy)
    except ValueError as exc:
        print(f"hashikit: error: --trusted-proxy: {exc}", file=sys.stderr)
        return 2
    try:
        sock = bind(args.host, args.port)
    except OSError as exc:
        reason = "the port is in use" if exc.errno == errno.EADDRINUSE else (exc.strerror or str(exc))
        print(f"hashikit: error: cannot serve on {args.host}:{args.port}: {reason}", file=sys.stderr)
        return 2
    port = sock.getsockname()[1]
    app = create_app(allowed_hosts=allowed_hosts(args.host), trusted_proxies=trusted)
    shown = f"[{args.host}]" if ":" in args.host else args.host
    if args.host not in LOOPBACK:
        print(f"hashikit: warning: serving on {args.host}, reachable from other machines", file=sys.stderr)
    server = uvicorn.Server(serving_config(app, WEB_ADMISSION, trusted, host=args.host, port=port,
                                           root_path=args.root_path))
    if args.open:
        import threading
        import time
        import webbrowser

        def open_when_up():
            for _ in range(200):
                if server.started:
                    host = "127.0.0.1" if args.host in ("0.0.0.0", "::") else shown
                    webbrowser.open(f"http://{host}:{port}{args.root_path}/")
                    return
                time.sleep(0.05)

        threading.Thread(target=open_when_up, daemon=True).start()
    print(f"hashikit: playing at http://{shown}:{port}{args.root_path}/  (Ctrl-C stops)", file=sys.stderr, flush=True)
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
    return 0


def add_parser(sub) -> None:
    s = sub.add_parser("serve", help="play in the browser: a local web app", formatter_class=argparse.RawDescriptionHelpFormatter,
                       description="Serve a web page to play Hashi (load, generate, play with hints and checks) "
                                   "and its JSON API (described at /api/openapi.json). It binds to this machine "
                                   "(127.0.0.1) unless --host says otherwise. The server shares its workers fairly "
                                   "(each client address has a share; overload is 503, a client asking too much 429, "
                                   "both with Retry-After) and closes slow connections; GET /api/limits states how.",
                       epilog="examples:\n  hashikit serve --open\n  hashikit serve --port 9000\n"
                              "  hashikit serve --trusted-proxy 127.0.0.1   # behind nginx or Caddy on this machine\n"
                              "  hashikit serve --root-path /hashi   # behind a proxy at https://example.org/hashi/")
    s.add_argument("--host", default="127.0.0.1", help="address to bind (default: %(default)s, this machine only)")
    s.add_argument("--port", type=_port, default=8000, help="port (default: %(default)s)")
    s.add_argument("--open", action="store_true", help="open the page in a web browser")
    s.add_argument("--trusted-proxy", action="append", type=_proxy, default=[], metavar="ADDRESS",
                   help="a reverse proxy (an address or a network, e.g. 127.0.0.1 or 10.0.0.0/8) whose "
                        "X-Forwarded-For header names the client; repeat for several (default: none, the "
                        "header is ignored)")
    s.add_argument("--root-path", type=_root_path, default="", metavar="PATH",
                   help="the path a reverse proxy serves the page under (e.g. /hashi for https://example.org/hashi/); "
                        "the page's links are its players' own addresses, with this path")
    s.set_defaults(func=run)


def site_files(pyodide: str | None, daily: dict | None, log) -> dict[str, bytes]:
    """The files of the page that needs no server (:mod:`hashikit.web.site`), for ``hashikit site``
    to write: the command line's way in, as :func:`run` is ``serve``'s."""
    from . import site

    return site.build(site.pyodide_files(pyodide, log), daily)


def site_daily(level: str | None, size: tuple[int, int] | None, seed: int | None) -> dict:
    """The daily puzzle's settings, each not given (None) the site's default."""
    from . import site

    given = {"level": level, "seed": seed, **({"rows": size[0], "cols": size[1]} if size else {})}
    return site.daily_spec(**{k: v for k, v in given.items() if v is not None})


def site_refusal(folder: str) -> str | None:
    from . import site

    return site.refusal(folder)
