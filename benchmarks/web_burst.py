"""A burst of concurrent /api/solve requests against `hashikit serve`'s app.

Starts the web app under uvicorn in a child process on a free 127.0.0.1 port, sends
N solve requests for 15x15 puzzles (the paper's generator, 45 islands) all at once
with httpx.AsyncClient, checks every returned solution with hashikit.checker, and
writes latency percentiles and errors to benchmarks/results/web_burst.md.

    python benchmarks/web_burst.py [--requests 200] [--puzzles 20] [--out benchmarks/results/web_burst.md]

Side by side (one sitting, runs alternating, ratios to the first tree): the server runs from each
source tree in turn (``PYTHONPATH=TREE``; e.g. ``git worktree add --detach /tmp/wb-before 64e3c91``),
the client and the checker from this one, and a table of every run is added to the report:

    python benchmarks/web_burst.py --side-by-side before=/tmp/wb-before main=/tmp/wb-main now=. --rounds 2

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
from hashikit.formats.jsonfmt import puzzle_data
from hashikit.generate import coelho
from hashikit.model import Solution

HERE = Path(__file__).resolve().parent
SERVER = ("import sys, uvicorn; from hashikit.web.app import create_app; "
          "uvicorn.run(create_app(), host='127.0.0.1', port=int(sys.argv[1]), log_level='warning')")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def tree_cpu(pid: int) -> float | None:
    """CPU seconds (user + system) of process ``pid`` and every process under it, the reaped
    ones included (a child's time joins its parent's when it is reaped); None without /proc."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return None
    own = sum(int(f) for f in fields[11:15]) / os.sysconf("SC_CLK_TCK")  # utime stime cutime cstime
    return own + sum(tree_cpu(int(c)) or 0.0 for c in children)


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
                r = await client.post("/api/solve", json={"puzzle": puzzle_data(puzzle)})
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


def serve_and_burst(puzzles: list, n: int, tree: str | None = None) -> dict:
    """Start the app (from source ``tree``, else the installed hashikit), warm it up with one
    request, send the burst, and see that it still answers."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = dict(os.environ)
    if tree is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(Path(tree).resolve()), env.get("PYTHONPATH")]))
    proc = subprocess.Popen([sys.executable, "-c", SERVER, str(port)], env=env, cwd=tree or None)
    try:
        for _ in range(600):
            try:
                httpx.get(f"{base}/api/openapi.json", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.05)
        else:
            raise RuntimeError(f"the server (tree {tree or 'installed'}) did not start")
        # one request to warm up imports (the solver, the checker) before timing
        httpx.post(f"{base}/api/solve", json={"puzzle": puzzle_data(puzzles[0])}, timeout=60)
        cpu_before = tree_cpu(proc.pid)
        latencies, errors, wall = asyncio.run(burst(base, puzzles, n))
        cpu_after = tree_cpu(proc.pid)
        alive = httpx.get(f"{base}/api/openapi.json", timeout=5).status_code == 200
    finally:
        proc.terminate()
        proc.wait(10)
    cpu = cpu_after - cpu_before if cpu_before is not None and cpu_after is not None else None
    return {"latencies": latencies, "errors": errors, "wall": wall, "alive": alive, "cpu": cpu}


def summary(args, run: dict) -> list[tuple[str, str]]:
    ms = [v * 1000 for v in run["latencies"]]
    wall, errors = run["wall"], run["errors"]
    rows = [("requests", f"{args.requests} concurrent POST /api/solve, {args.puzzles} distinct 15x15 puzzles "
                         f"(45 islands, the paper's generator, alpha 50, beta 5)"),
            ("answered 200 with a solution the checker accepts", f"{args.requests - len(errors)}"),
            ("errors", f"{len(errors)}"),
            ("wall time for the burst", f"{wall:.2f} s ({args.requests / wall:.0f} requests/s)")]
    if run.get("cpu") is not None:
        rows.append(("server CPU time for the burst (all its processes)", f"{run['cpu']:.2f} s"))
    if ms:
        rows += [("latency p50", f"{percentile(ms, 0.50):.0f} ms"),
                 ("latency p90", f"{percentile(ms, 0.90):.0f} ms"),
                 ("latency p99", f"{percentile(ms, 0.99):.0f} ms"),
                 ("latency max", f"{max(ms):.0f} ms"),
                 ("latency mean", f"{statistics.mean(ms):.0f} ms")]
    rows.append(("server still answering afterwards", "yes" if run["alive"] else "NO"))
    return rows


def side_by_side(args, puzzles) -> tuple[list[str], dict, bool]:
    """Every tree ``--rounds`` times, alternating; a markdown table with each run's wall time and
    p50, and the ratio of its wall time to the first tree's run of the same round."""
    trees = [spec.split("=", 1) for spec in args.side_by_side]
    runs: dict[str, list[dict]] = {name: [] for name, _ in trees}
    for _ in range(args.rounds):
        for name, tree in trees:
            runs[name].append(serve_and_burst(puzzles, args.requests, tree))
            r = runs[name][-1]
            print(f"{name}: {r['wall']:.2f} s, p50 {percentile(r['latencies'], 0.5) * 1000:.0f} ms, "
                  f"server CPU {r['cpu']}, {len(r['errors'])} errors", file=sys.stderr)
    first = trees[0][0]

    def cpu(r) -> str:
        return "?" if r.get("cpu") is None else f"{r['cpu']:.2f} s"

    head = "| round | " + " | ".join(f"{name}: wall, p50, server CPU" for name, _ in trees) + " | " + \
        " | ".join(f"{name} / {first} (wall)" for name, _ in trees[1:]) + " |"
    lines = [head, "|---|" + "---|" * len(trees) + "---:|" * (len(trees) - 1)]
    for k in range(args.rounds):
        cells = [f"{runs[n][k]['wall']:.2f} s, {percentile(runs[n][k]['latencies'], 0.5) * 1000:.0f} ms, "
                 f"{cpu(runs[n][k])}" for n, _ in trees]
        ratios = [f"{runs[n][k]['wall'] / runs[first][k]['wall']:.2f}" for n, _ in trees[1:]]
        lines.append(f"| {k + 1} | " + " | ".join(cells) + " | " + " | ".join(ratios) + " |")
    medians = [statistics.median(runs[n][k]["wall"] / runs[first][k]["wall"] for k in range(args.rounds))
               for n, _ in trees[1:]]
    lines.append("| median | " + " | ".join(
        f"{statistics.median(r['wall'] for r in runs[n]):.2f} s" for n, _ in trees) + " | "
        + " | ".join(f"{m:.2f}" for m in medians) + " |")
    ok = all(not r["errors"] and r["alive"] for rs in runs.values() for r in rs)
    lines += ["", "Trees: " + ", ".join(f"{n} = `{t}`" for n, t in trees) + ". Errors in all runs: "
              + str(sum(len(r["errors"]) for rs in runs.values() for r in rs)) + "."]
    return lines, runs, ok


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=200)
    ap.add_argument("--puzzles", type=int, default=20, help="distinct 15x15 puzzles to cycle through")
    ap.add_argument("--out", default=str(HERE / "results" / "web_burst.md"))
    ap.add_argument("--side-by-side", nargs="+", metavar="NAME=TREE",
                    help="serve from each source tree in turn (the first is the baseline of the ratios)")
    ap.add_argument("--rounds", type=int, default=2, help="with --side-by-side: runs of each tree")
    args = ap.parse_args()
    if args.side_by_side and not all("=" in spec for spec in args.side_by_side):
        ap.error("--side-by-side takes NAME=TREE pairs")

    puzzles = [coelho(45, 15, 15, 50, 5, seed) for seed in range(args.puzzles)]
    extra: list[str] = []
    if args.side_by_side:
        extra, runs, ok = side_by_side(args, puzzles)
        run = runs[args.side_by_side[-1].split("=", 1)[0]][-1]  # the table shows the last tree's last run
    else:
        run = serve_and_burst(puzzles, args.requests)
        ok = True
    errors = run["errors"]
    text = ["# Web burst: concurrent /api/solve", "",
            "`python benchmarks/web_burst.py` (uvicorn, one server process; requests run in Starlette's thread pool, time-limited solves in the app's worker processes).",
            "", "| what | result |", "|---|---|"]
    text += [f"| {k} | {v} |" for k, v in summary(args, run)]
    text += ["", f"Machine: {platform.platform()}, Python {platform.python_version()}, {os.cpu_count()} CPUs. "
                 f"Latency is per request from the moment all {args.requests} were sent together, so it "
                 f"includes the wait in the queue; the client runs on the same machine."]
    if errors:
        text += ["", "Errors:", ""] + [f"- {e}" for e in errors[:20]]
    if extra:
        text += ["", "## Side by side (same sitting, runs alternating)", "", *extra]
    report = "\n".join(text) + "\n"
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(report)
    print(report)
    return 0 if not errors and run["alive"] and ok else 1


if __name__ == "__main__":
    sys.exit(main())
