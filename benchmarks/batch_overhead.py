#!/usr/bin/env python3
"""What the batch runner (hashikit.run.batch) costs and how fast it recovers and stops.

    python benchmarks/batch_overhead.py [--jobs 2] [--n 2000] [--repeats 3]   -> results/batch.md

Side by side in one run, as ratios (the machine is shared and noisy):

1. overhead per job: N trivial jobs (x*x) on a plain ``ProcessPoolExecutor`` (all submitted at
   once, ``as_completed``) against ``run_batch`` on its own pool, without and with a JSON-lines
   sink (a row written and flushed per job);
2. a crash: 40 jobs of 50 ms with and without one job that SIGKILLs its worker (that job gets
   an error row and the pool starts a new worker in the dead one's place);
3. stopping: a batch of 60-second jobs in a subprocess, SIGINT once both workers run: seconds
   until the process has exited (exit 130 expected) and whether any worker is left.

Repeats alternate the variants; the table gives the median.  Nothing here reads ../shared.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import platform
import signal
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

from _runinfo import git_state

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from batch_jobs import kill_self, nap, square  # noqa: E402  (module-level jobs the workers can import)

from hashikit.run.batch import Job, JsonLinesSink, run_batch  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results"

STOP_SCRIPT = textwrap.dedent("""
    import os, sys, time
    from pathlib import Path
    from hashikit.run.batch import Job, run_batch

    def slow(folder, i):
        Path(folder, str(os.getpid())).touch()
        time.sleep(60)

    if __name__ == "__main__":
        try:
            for r in run_batch([Job(str(i), slow, (sys.argv[1], i)) for i in range(8)], workers=2, progress=False):
                pass
        except KeyboardInterrupt:
            sys.exit(130)
""")


def plain_pool(n: int, workers: int) -> float:
    start = time.perf_counter()
    ctx = multiprocessing.get_context("forkserver" if "forkserver" in multiprocessing.get_all_start_methods()
                                      else "spawn")
    with ProcessPoolExecutor(workers, mp_context=ctx) as pool:
        for fut in as_completed([pool.submit(square, i) for i in range(n)]):
            fut.result()
    return time.perf_counter() - start


def runner(n: int, workers: int, sink_dir: str | None = None) -> float:
    start = time.perf_counter()
    sink = JsonLinesSink(os.path.join(sink_dir, "rows.jsonl")) if sink_dir else None
    results = list(run_batch([Job(str(i), square, (i,)) for i in range(n)], workers=workers, sink=sink,
                             progress=False))
    assert all(r.ok for r in results)
    return time.perf_counter() - start


def with_crash(workers: int, crash: bool) -> tuple[float, int]:
    jobs = [Job(f"nap{i}", nap, (0.05,)) for i in range(40)]
    if crash:
        jobs.insert(10, Job("crash", kill_self))
    start = time.perf_counter()
    results = list(run_batch(jobs, workers=workers, progress=False))
    wall = time.perf_counter() - start
    assert sum(r.ok for r in results) == 40
    return wall, sum(not r.ok for r in results)


def stop_time() -> tuple[float, int, int]:
    with tempfile.TemporaryDirectory() as d:
        script, folder = Path(d) / "stop.py", Path(d) / "started"
        script.write_text(STOP_SCRIPT)
        folder.mkdir()
        proc = subprocess.Popen([sys.executable, str(script), str(folder)], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while len(list(folder.iterdir())) < 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        workers = [int(p.name) for p in folder.iterdir()]
        t0 = time.monotonic()
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=30)
        took = time.monotonic() - t0
        time.sleep(0.3)
        left = 0
        for pid in workers:
            try:
                os.kill(pid, 0)
                left += 1
            except ProcessLookupError:
                pass
        return took, proc.returncode, left


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    p.add_argument("--n", type=int, default=2000, help="trivial jobs per overhead run (default 2000)")
    p.add_argument("--repeats", type=int, default=3, help="alternating repeats (default 3)")
    args = p.parse_args()

    runner(10, args.jobs)  # start the fork server once, as a long batch would have it
    times: dict[str, list[float]] = {"plain": [], "runner": [], "runner+sink": []}
    crash: dict[str, list[float]] = {"no crash": [], "one SIGKILL": []}
    stops: list[tuple[float, int, int]] = []
    with tempfile.TemporaryDirectory() as d:
        for _ in range(args.repeats):
            times["plain"].append(plain_pool(args.n, args.jobs))
            times["runner"].append(runner(args.n, args.jobs))
            times["runner+sink"].append(runner(args.n, args.jobs, d))
            crash["no crash"].append(with_crash(args.jobs, False)[0])
            crash["one SIGKILL"].append(with_crash(args.jobs, True)[0])
            stops.append(stop_time())

    med = {k: statistics.median(v) for k, v in times.items()}
    cmed = {k: statistics.median(v) for k, v in crash.items()}
    lines = [
        "# Batch runner: overhead, crash recovery, stopping", "",
        f"- command: `python benchmarks/batch_overhead.py --jobs {args.jobs} --n {args.n} --repeats {args.repeats}`",
        f"- machine: {os.cpu_count()} cores, shared with other work (load average "
        f"{', '.join(f'{x:.1f}' for x in os.getloadavg())} at the end), Python {platform.python_version()}",
        f"- run: {time.strftime('%Y-%m-%d %H:%M')}, hashikit {git_state()}",
        f"- medians of {args.repeats} alternating repeats; {args.jobs} worker processes", "",
        "## Overhead per job (trivial jobs)", "",
        "| how | wall s | ms per job | vs plain pool |", "|---|---:|---:|---:|",
    ]
    for k in times:
        lines.append(f"| {k} | {med[k]:.2f} | {1000 * med[k] / args.n:.2f} | {med[k] / med['plain']:.2f}x |")
    lines += ["", "## A killed worker (40 jobs of 50 ms)", "",
              "| batch | wall s | vs no crash |", "|---|---:|---:|"]
    for k in crash:
        lines.append(f"| {k} | {cmed[k]:.2f} | {cmed[k] / cmed['no crash']:.2f}x |")
    lines += ["", "## Ctrl-C (SIGINT to a batch of 60-s jobs on 2 workers)", "",
              "| run | seconds to exit | exit status | workers left |", "|---|---:|---:|---:|"]
    for i, (took, code, left) in enumerate(stops, 1):
        lines.append(f"| {i} | {took:.2f} | {code} | {left} |")
    text = "\n".join(lines) + "\n"
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "batch.md").write_text(text, encoding="utf-8")
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
