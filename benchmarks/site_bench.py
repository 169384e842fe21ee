"""The page that needs no server (``hashikit site``), timed as a player meets it, in Chromium.

The site is written by ``hashikit site`` and served by ``python -m http.server``'s handler (no
hashikit server), counting the bytes it sends.  Chromium (Debian's, driven by Playwright) runs
with its CPU throttled through the DevTools protocol (``Emulation.setCPUThrottlingRate``, 4x:
Lighthouse's phone-like setting), the same rate on every page; the network is not throttled (the
bytes are given instead).  Measured, per round:

- first visit (a fresh browser profile): the bytes the site sends, the time from the start of
  navigation to a playable board (islands drawn, the page ready: the puzzle of the day, made by
  Python in the page), and to Python ready;
- repeat visit (the same profile, a new page, the service worker's copy): the time to a playable
  board (the game saved, its board kept in the browser) and to Python ready;
- hints (the Hint button's first press until the islands light up: Python asked), one after
  another from the daily 10x10's empty board, each hint's move made before the next;
- a new 10x10 medium puzzle with the network off (``set_offline``): the Generate button until
  the puzzle is on the board;
- a probe: one loop timed on the page's main thread and in a Web Worker.

Chromium throttles only the page's main thread (the protocol refuses the throttling for a
worker), so Python's work, in a Web Worker, runs unthrottled; the table states it, and gives
Python's times at the phone-like CPU as the unthrottled times times the rate (an estimate).

    python benchmarks/site_bench.py [--rounds 3] [--rates 4,1] [--site FOLDER] [--pyodide PATH]

Writes benchmarks/results/site.md.  Targets (issue 34): repeat visit playable < 1 s, hint < 300 ms,
new 10x10 medium offline < 2 s, at the throttled CPU.
"""

from __future__ import annotations

import argparse
import gzip
import http.server
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _runinfo import git_state  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "benchmarks" / "results" / "site.md"
CHROMIUM = os.environ.get("HASHIKIT_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
LONG_MS = 600_000


class Counted(http.server.SimpleHTTPRequestHandler):
    """http.server's handler, counting the bytes of each answer's body."""

    sent: list[int] = [0]

    def copyfile(self, source, outputfile):
        data = source.read()
        outputfile.write(data)
        Counted.sent[0] += len(data)

    def log_message(self, *args):
        pass


def serve(folder: Path):
    handler = lambda *a, **k: Counted(*a, directory=str(folder), **k)  # noqa: E731
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def throttled(page, rate: float):
    cdp = page.context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
    return cdp


READY_JS = """async () => {
  const server = await import('./static/server.js');
  await server.whenReady();
  return performance.now();
}"""

BOARD_JS = "() => document.body.dataset.ready === 'true' && !!document.querySelector('#board .island')"


def visit(page, url: str) -> dict:
    """Open the site: ms from navigation start to a playable board and to Python ready."""
    page.goto(url, wait_until="commit")
    page.wait_for_function(BOARD_JS, timeout=LONG_MS, polling=20)
    board = page.evaluate("performance.now()")
    python = page.evaluate(READY_JS)
    return {"board": board, "python": python}


HINT_JS = """async () => {
  const status = document.getElementById('status');
  status.classList.remove('hinted');
  const t = performance.now();
  const lit = new Promise((resolve) => {
    const seen = new MutationObserver(() => {
      if (status.classList.contains('hinted')) { seen.disconnect(); resolve(performance.now() - t); }
    });
    seen.observe(status, { attributes: true, childList: true, subtree: true });
  });
  document.getElementById('hint').click();
  return await lit;
}"""

# the same loop on the page's main thread and in a Web Worker: what the throttling slows
PROBE_JS = """async () => {
  const loop = "const t = performance.now(); let x = 0; for (let i = 0; i < 6e7; i++) x += i % 7; return performance.now() - t;";
  const main = new Function(loop)();
  const src = `onmessage = () => postMessage((() => { ${loop} })());`;
  const w = new Worker(URL.createObjectURL(new Blob([src], { type: "text/javascript" })));
  const inWorker = await new Promise((f) => { w.onmessage = (e) => f(e.data); w.postMessage(0); });
  w.terminate();
  return [main, inWorker];
}"""

# the hint's other two presses (its reason, then its move made): the next hint is on a new board
HINT_DONE_JS = """async () => {
  const { state } = await import('./static/store.js');
  const hint = document.getElementById('hint');
  while (state.pendingHint) {
    if (!hint.disabled) hint.click();
    await new Promise((f) => setTimeout(f, 10));
  }
}"""

GENERATE_JS = """async (side) => {
  const status = document.getElementById('status');
  document.getElementById('gen-rows').value = side;
  document.getElementById('gen-cols').value = side;
  document.getElementById('gen-difficulty').value = 'medium';
  document.getElementById('gen-seed').value = '';
  const t = performance.now();
  const done = new Promise((resolve) => {
    const seen = new MutationObserver(() => {
      if (status.textContent.startsWith('A new') || status.classList.contains('error')) {
        seen.disconnect(); resolve([performance.now() - t, status.textContent]);
      }
    });
    seen.observe(status, { attributes: true, childList: true, subtree: true, characterData: true });
  });
  document.getElementById('generate').click();
  return await done;
}"""


def one_round(browser, url: str, rate: float, hints: int, generations: int) -> dict:
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        page = ctx.new_page()
        throttled(page, rate)
        Counted.sent[0] = 0
        first = visit(page, url + "/")
        page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=LONG_MS)
        # the service worker's own copy of every file, fetched at its install, counts too
        page.evaluate("""async () => { const r = await navigator.serviceWorker.ready;
                                       while (r.installing) await new Promise((f) => setTimeout(f, 50)); }""")
        time.sleep(0.5)
        first["bytes"] = Counted.sent[0]
        page.close()
        page = ctx.new_page()
        throttled(page, rate)
        Counted.sent[0] = 0
        repeat = visit(page, url + "/")
        repeat["bytes"] = Counted.sent[0]
        hint_ms = []
        page.evaluate("document.getElementById('restart').click()")
        for _ in range(hints):  # each on the board the hint before left: a new question for Python
            hint_ms.append(page.evaluate(HINT_JS))
            page.evaluate(HINT_DONE_JS)
        probe = page.evaluate(PROBE_JS)
        ctx.set_offline(True)
        made = []
        for _ in range(generations):
            ms, said = page.evaluate(GENERATE_JS, 10)
            if not said.startswith("A new"):
                raise RuntimeError(f"generation failed offline: {said}")
            made.append(ms)
        ctx.set_offline(False)
        return {"first": first, "repeat": repeat, "hint": hint_ms, "generate": made, "probe": probe}
    finally:
        ctx.close()


def site_bytes(folder: Path) -> tuple[int, int, dict[str, int]]:
    """The site's bytes as files and gzipped (what a compressing host sends), and the largest files."""
    raw = packed = 0
    sizes = {}
    for path in folder.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            raw += len(data)
            packed += len(gzip.compress(data, 6))
            sizes[path.relative_to(folder).as_posix()] = len(data)
    return raw, packed, sizes


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=3, help="rounds per CPU rate (they alternate)")
    ap.add_argument("--rates", default="4,1", help="CPU throttling rates, compared side by side (default 4,1)")
    ap.add_argument("--hints", type=int, default=5, help="hints timed per round")
    ap.add_argument("--generations", type=int, default=5, help="10x10 medium puzzles generated offline per round")
    ap.add_argument("--site", help="a folder hashikit site wrote (default: write one now)")
    ap.add_argument("--pyodide", help="Pyodide's npm tarball or folder, for hashikit site")
    ap.add_argument("--out", default=str(OUT))
    args = ap.parse_args()
    rates = [float(r) for r in args.rates.split(",")]
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(args.site) if args.site else Path(tmp) / "public"
        if not args.site:
            cmd = [sys.executable, "-m", "hashikit.cli", "site", str(folder)]
            if args.pyodide:
                cmd += ["--pyodide", args.pyodide]
            subprocess.run(cmd, check=True)
        server, url = serve(folder)
        rounds: dict[float, list] = {rate: [] for rate in rates}
        loads = []
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            for r in range(args.rounds):
                for rate in rates:
                    loads.append(os.getloadavg()[0])
                    rounds[rate].append(one_round(browser, url, rate, args.hints, args.generations))
                    print(f"round {r + 1}, rate {rate:g}: {rounds[rate][-1]}", file=sys.stderr)
            version = browser.version
            browser.close()
        server.shutdown()
        raw, packed, sizes = site_bytes(folder)
    loads.append(os.getloadavg()[0])
    write(args, rates, rounds, raw, packed, sizes, version, loads)
    return 0


def _median(values) -> str:
    return f"{statistics.median(values):,.0f}"


def write(args, rates, rounds, raw, packed, sizes, version, loads) -> None:
    def cells(get):
        out = []
        for rate in rates:
            values = [v for r in rounds[rate] for v in get(r)]
            out.append(f"{_median(values)} ({min(values):,.0f}-{max(values):,.0f})")
        return " | ".join(out)

    top = sorted(sizes.items(), key=lambda kv: -kv[1])[:5]
    n = {rate: len(rounds[rate]) for rate in rates}
    head = " | ".join(f"throttled {rate:g}x: median (min-max)" for rate in rates)
    rows = [
        ("first visit: bytes the host sends (the page, Pyodide, hashikit's Python, once)",
         lambda r: [r["first"]["bytes"]], "as small as the design allows"),
        ("first visit: ms to a playable board (the puzzle of the day, made by Python in the page)",
         lambda r: [r["first"]["board"]], ""),
        ("first visit: ms to Python ready", lambda r: [r["first"]["python"]], ""),
        ("repeat visit: ms to a playable board (the saved game)", lambda r: [r["repeat"]["board"]], "< 1,000 (4x)"),
        ("repeat visit: ms to Python ready (it starts once the board is shown)", lambda r: [r["repeat"]["python"]], ""),
        ("repeat visit: bytes the host sends", lambda r: [r["repeat"]["bytes"]], ""),
        (f"a hint, ms (Hint pressed until the islands light up; the first {args.hints} hints of the daily 10x10, "
         "each made before the next)",
         lambda r: r["hint"], "< 300 (4x)"),
        (f"a new 10x10 medium puzzle offline, ms (Generate until it is on the board; {args.generations} a round)",
         lambda r: r["generate"], "< 2,000 (4x)"),
        ("probe: a fixed loop on the page's main thread, ms", lambda r: [r["probe"][0]], ""),
        ("probe: the same loop in a Web Worker, ms", lambda r: [r["probe"][1]], ""),
    ]
    slow, fast = max(rates), min(rates)

    def scaled(get):
        values = [v for r in rounds[fast] for v in get(r)]
        if fast != 1:
            return "", ""
        med, top_ = statistics.median(values), max(values)
        return f"{med:,.0f} ({top_:,.0f})", f"{med * slow:,.0f} ({top_ * slow:,.0f})"

    def ratio(k):
        return statistics.median(r["probe"][k] for r in rounds[slow]) / statistics.median(
            r["probe"][k] for r in rounds[fast])

    python_rows = [
        ("a hint", lambda r: r["hint"], "< 300"),
        ("a new 10x10 medium puzzle, offline", lambda r: r["generate"], "< 2,000"),
        ("first visit: Python ready", lambda r: [r["first"]["python"]], ""),
        ("repeat visit: Python ready", lambda r: [r["repeat"]["python"]], ""),
    ]
    lines = [
        "# The page that needs no server: what a player waits for",
        "",
        f"`python benchmarks/site_bench.py --rounds {args.rounds} --rates {args.rates}`: `hashikit site` served by "
        f"`python -m http.server`'s handler (no hashikit server, no compression), Chromium {version} (headless, "
        "Playwright) with its CPU throttled through the DevTools protocol (`Emulation.setCPUThrottlingRate`; 4x is "
        "Lighthouse's phone-like setting), a 390x844 phone viewport, the network not throttled (the bytes are "
        f"given). {', '.join(f'{n[rate]} rounds at {rate:g}x' for rate in rates)}, alternating, each in a fresh "
        "browser profile (its first visit, then a repeat visit in a new tab, then hints, then generations with "
        "the network off). Machine: 2 CPUs shared with other helpers' work, 1-minute load average from "
        f"{min(loads):.1f} to {max(loads):.1f} during the run: every time here is inflated by it. {git_state()}.",
        "",
        f"| what | {head} | target |",
        "|---|" + "---:|" * len(rates) + "---|",
        *[f"| {what} | {cells(get)} | {target} |" for what, get, target in rows],
        "",
        "Chromium throttles the page's main thread only: the DevTools protocol refuses "
        "`Emulation.setCPUThrottlingRate` for a worker (\"Operation is only supported for pages, not workers\"), "
        f"and the probe rows show it: the loop's median at {slow:g}x over its median at {fast:g}x is "
        f"{ratio(0):.1f} on the main thread, {ratio(1):.1f} in a worker (on a loaded machine the throttling "
        "slows the main thread less than its rate: it holds the thread back for a share of the time it runs, "
        "and the load already takes much of it). Python runs in a "
        "Web Worker, so its work above (Python's start, hints, generation) ran at the machine's speed in every "
        f"column. At a phone-like CPU it is estimated here as the unthrottled time times {slow:g} (on this loaded "
        "machine an overestimate: the unthrottled times are inflated by the load already):",
        "",
        f"| Python's work, in the Web Worker, ms | measured at {fast:g}x: median (max) | times {slow:g}: median (max), "
        "estimated | target |",
        "|---|---:|---:|---|",
        *[f"| {what} | {' | '.join(scaled(get))} | {target} |" for what, get, target in python_rows],
        "",
        f"The site as files: {raw:,} bytes; gzipped file by file (what a host that compresses sends) {packed:,} "
        "bytes. Largest: " + ", ".join(f"`{name}` {size:,}" for name, size in top) + ".",
        "",
    ]
    Path(args.out).write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    sys.exit(main())
