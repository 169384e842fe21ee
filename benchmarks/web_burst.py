"""A burst of concurrent /api/solve requests against `hashikit serve`'s app.

Starts the web app under uvicorn in a child process on a free 127.0.0.1 port, sends
N solve requests for 15x15 puzzles (the paper's generator, 45 islands) all at once
with httpx.AsyncClient, checks every returned solution with hashikit.checker, and
writes latency percentiles and errors to benchmarks/results/web_burst.md.

    python benchmarks/web_burst.py [--requests 200] [--puzzles 20] [--out benchmarks/results/web_burst.md]

Only 127.0.0.1 is ever contacted.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

import httpx

from hashikit.checker import check
from hashikit.formats.jsonfmt import puzzle_obj
from hashikit.generate import coelho
from hashikit.model import Solution

HERE = Path(__file__).resolve().parent
SERVER = ("import sys, uvicorn; from hashikit.web.app import create_app; "
          "uvicorn.run(create_app(), host='127.0.0.1', port=int(sys.argv[1]), log_level='warning')")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    k = (len(values) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


async def burst(base: str, puzzles: list, n: int) -> tuple[list[float], list[str], float]:
    latencies: list[float] = []
    errors: list[str] = []
    limits = httpx.Limits(max_connections=n, max_keepalive_connections=n)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=120) as client:
        async def one(i: int) -> None:
            puzzle = puzzles[i % len(puzzles)]
            t0 = time.perf_counter()
            try:
                r = await client.post("/api/solve", json={"puzzle": puzzle_obj(puzzle)})
            except httpx.HTTPError as exc:
                errors.append(f"request {i}: {type(exc).__name__}: {exc}")
                return
            latencies.append(time.perf_counter() - t0)
            if r.status_code != 200:
                errors.append(f"request {i}: HTTP {r.status_code}: {r.text[:100]}")
                return
            out = r.json()
            if out["status"] != "solved" or not check(puzzle, Solution.from_list(out["bridges"])).ok:
                errors.append(f"request {i}: status {out['status']}, or a solution the checker rejects")

        t0 = time.perf_counter()
        await asyncio.gather(*(one(i) for i in range(n)))
        wall = time.perf_counter() - t0
    return latencies, errors, wall


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=200)
    ap.add_argument("--puzzles", type=int, default=20, help="distinct 15x15 puzzles to cycle through")
    ap.add_argument("--out", default=str(HERE / "results" / "web_burst.md"))
    args = ap.parse_args()

    puzzles = [coelho(45, 15, 15, 50, 5, seed) for seed in range(args.puzzles)]
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen([sys.executable, "-c", SERVER, str(port)])
    try:
        for _ in range(300):
            try:
                httpx.get(f"{base}/api/openapi.json", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.05)
        else:
            print("the server did not start", file=sys.stderr)
            return 1
        # one request to warm up imports (the solver, the checker) before timing
        httpx.post(f"{base}/api/solve", json={"puzzle": puzzle_obj(puzzles[0])}, timeout=60)
        latencies, errors, wall = asyncio.run(burst(base, puzzles, args.requests))
        alive = httpx.get(f"{base}/api/openapi.json", timeout=5).status_code == 200
    finally:
        proc.terminate()
        proc.wait(10)

    ms = [v * 1000 for v in latencies]
    rows = [("requests", f"{args.requests} concurrent POST /api/solve, {args.puzzles} distinct 15x15 puzzles "
                         f"(45 islands, the paper's generator, alpha 50, beta 5)"),
            ("answered 200 with a solution the checker accepts", f"{args.requests - len(errors)}"),
            ("errors", f"{len(errors)}"),
            ("wall time for the burst", f"{wall:.2f} s ({args.requests / wall:.0f} requests/s)")]
    if ms:
        rows += [("latency p50", f"{percentile(ms, 0.50):.0f} ms"),
                 ("latency p90", f"{percentile(ms, 0.90):.0f} ms"),
                 ("latency p99", f"{percentile(ms, 0.99):.0f} ms"),
                 ("latency max", f"{max(ms):.0f} ms"),
                 ("latency mean", f"{statistics.mean(ms):.0f} ms")]
    rows.append(("server still answering afterwards", "yes" if alive else "NO"))
    text = ["# Web burst: concurrent /api/solve", "",
            "`python benchmarks/web_burst.py` (uvicorn, one worker process; solves run in Starlette's thread pool).",
            "", "| what | result |", "|---|---|"]
    text += [f"| {k} | {v} |" for k, v in rows]
    text += ["", f"Machine: {platform.platform()}, Python {platform.python_version()}, {os.cpu_count()} CPUs. "
                 f"Latency is per request from the moment all {args.requests} were sent together, so it "
                 f"includes the wait in the queue: the solves share one process (and its GIL), and the client "
                 f"runs on the same machine."]
    if errors:
        text += ["", "Errors:", ""] + [f"- {e}" for e in errors[:20]]
    report = "\n".join(text) + "\n"
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(report)
    print(report)
    return 0 if not errors and alive else 1


if __name__ == "__main__":
    sys.exit(main())
