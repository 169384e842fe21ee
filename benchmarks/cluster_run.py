"""A real Dask cluster under `hashikit generate --count --cluster`: does it fill, and does it fail cleanly?

Starts `dask scheduler` and `dask worker --nworkers W --nthreads 1` on this machine (separate
processes, as on a real cluster) and runs the command as a person would, whole process:

- **fill**: a run on W single-thread workers, with the tasks *executing* on the workers sampled
  every 0.2 s (each worker's own count, not the scheduler's assignments): the most seen at once,
  and the mean while the queue was still full;
- **lost scheduler**: the scheduler is SIGKILLed once K puzzles are stored; how long the command
  then takes to end, its exit code, what it printed after the kill; then a fresh scheduler and
  workers and the same command again: does it resume and finish?
- **Ctrl-C after a lost scheduler**: SIGINT 1 s after the kill: exit code, lines printed;
- **no workers**: a scheduler alone; what the command says within 8 s of connecting; then Ctrl-C;
- **no port**: `--cluster tcp://127.0.0.1`: exit code and message before any work.

Every scenario runs against this tree and, with ``--before REV``, against that revision's
package (scheduler, workers and command all import it), side by side.  Writes
``benchmarks/results/cluster.md``::

    python benchmarks/cluster_run.py --before main
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _runinfo import ROOT, extract_package, git_state  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results" / "cluster.md"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    """A scheduler and W single-thread workers, as separate processes."""

    def __init__(self, env: dict, workers: int, tmp: Path):
        self.env, self.workers, self.tmp = env, workers, tmp
        self.port = free_port()
        self.address = f"tcp://127.0.0.1:{self.port}"
        self.scheduler = self.worker = None

    def start_scheduler(self):
        self.scheduler = subprocess.Popen(
            [sys.executable, "-m", "dask", "scheduler", "--host", "127.0.0.1", "--port", str(self.port),
             "--no-dashboard"], env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            cwd=self.tmp)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), timeout=1):
                return
            time.sleep(0.2)
        raise RuntimeError("the scheduler did not start")

    def start_workers(self):
        self.worker = subprocess.Popen(
            [sys.executable, "-m", "dask", "worker", self.address, "--nworkers", str(self.workers),
             "--nthreads", "1", "--no-dashboard", "--local-directory", str(self.tmp / "dask-worker-space")],
            env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=self.tmp,
            start_new_session=True)
        import distributed

        with distributed.Client(self.address, timeout=30) as c:
            c.wait_for_workers(self.workers, timeout=120)

    def stop(self):
        for p in (self.worker, self.scheduler):
            if p is not None and p.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(p.pid, signal.SIGKILL) if p is self.worker else p.kill()
                p.wait(10)
        self.worker = self.scheduler = None


def _executing(dask_worker) -> int:  # runs on each worker
    return len(dask_worker.state.executing)


def command(env, out: Path, count: int, size: str, address: str, seed: int = 1) -> list[str]:
    return [sys.executable, "-m", "hashikit", "generate", "--size", size, "--difficulty", "hard",
            "--count", str(count), "--seed", str(seed), "--out-dir", str(out), "--cluster", address]


def stored(out: Path) -> int:
    f = out / "generate.jsonl"
    return f.read_text().count("\n") if f.exists() else 0


def run_fill(env, tmp: Path, workers: int, count: int, size: str) -> dict:
    import distributed

    cl = Cluster(env, workers, tmp)
    try:
        cl.start_scheduler()
        cl.start_workers()
        samples: list[tuple[float, int, int]] = []
        out = tmp / "fill"
        t0 = time.monotonic()
        proc = subprocess.Popen(command(env, out, count, size, cl.address), env=env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True, cwd=tmp)
        with distributed.Client(cl.address, timeout=30) as c:
            while proc.poll() is None:
                with contextlib.suppress(Exception):
                    samples.append((time.monotonic() - t0, sum(c.run(_executing).values()), stored(out)))
                time.sleep(0.2)
        err = proc.stderr.read()
        wall = time.monotonic() - t0
        full = [n for _, n, done in samples if done <= count - 2 * workers]
        busy = [n for n in full if n > 0]
        return {"code": proc.returncode, "wall": wall, "max": max((n for _, n, _ in samples), default=0),
                "mean": statistics.fmean(busy) if busy else 0.0, "samples": len(busy),
                "stored": stored(out), "err": err.strip().splitlines()[-1:] }
    finally:
        cl.stop()


def run_lost(env, tmp: Path, workers: int, count: int, size: str, kill_after: int, interrupt: bool,
             cap: float) -> dict:
    cl = Cluster(env, workers, tmp)
    out = tmp / ("lost-int" if interrupt else "lost")
    res: dict = {}
    try:
        cl.start_scheduler()
        cl.start_workers()
        errf = open(tmp / f"{out.name}.err", "w+")
        proc = subprocess.Popen(command(env, out, count, size, cl.address), env=env, stdout=subprocess.DEVNULL,
                                stderr=errf, cwd=tmp)
        while proc.poll() is None and stored(out) < kill_after:
            time.sleep(0.05)
        errf.flush()
        before = Path(errf.name).read_text()
        cl.scheduler.kill()
        t_kill = time.monotonic()
        res["at_kill"] = stored(out)
        if interrupt:
            time.sleep(1.0)
            proc.send_signal(signal.SIGINT)
        try:
            proc.wait(cap)
            res["ended_after"] = time.monotonic() - t_kill
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            res["ended_after"] = None
        res["code"] = proc.returncode
        after = Path(errf.name).read_text()[len(before):]
        lines = [ln for ln in after.splitlines() if ln.strip()]
        res["lines"] = len(lines)
        res["traceback"] = sum("Traceback" in ln for ln in lines)
        res["said"] = next((ln for ln in lines if ln.startswith("hashikit")), lines[0] if lines else "")
        res["text"] = after
        res["kept"] = stored(out)
        if interrupt:
            return res
        # a fresh cluster; the same command again
        cl.stop()
        cl = Cluster(env, workers, tmp)
        cl.start_scheduler()
        cl.start_workers()
        r = subprocess.run(command(env, out, count, size, cl.address), env=env, capture_output=True, text=True,
                           cwd=tmp, timeout=600)
        res["rerun_code"] = r.returncode
        res["rerun_said"] = next((ln for ln in r.stderr.splitlines() if ln.startswith("wrote")), r.stderr[-200:])
        res["files"] = len(list(out.glob("hard-*.txt")))
        return res
    finally:
        cl.stop()


def run_no_workers(env, tmp: Path, wait_s: float = 8.0) -> dict:
    cl = Cluster(env, 0, tmp)
    try:
        cl.start_scheduler()
        errf = open(tmp / "noworkers.err", "w+")
        proc = subprocess.Popen(command(env, tmp / "noworkers", 4, "7x7", cl.address), env=env,
                                stdout=subprocess.DEVNULL, stderr=errf, cwd=tmp)
        end = time.monotonic() + 60  # counted from when the command is on the cluster (start-up under load)
        while "running on the Dask cluster" not in Path(errf.name).read_text() and time.monotonic() < end:
            time.sleep(0.1)
        time.sleep(wait_s)
        said = [ln for ln in Path(errf.name).read_text().splitlines() if ln.strip()]
        t0 = time.monotonic()
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        all_lines = [ln for ln in Path(errf.name).read_text().splitlines() if ln.strip()]
        return {"said": said, "code": proc.returncode, "ctrl_c_s": time.monotonic() - t0,
                "lines_after": len(all_lines) - len(said),
                "traceback": sum("Traceback" in ln for ln in all_lines)}
    finally:
        cl.stop()


def run_no_port(env, tmp: Path) -> dict:
    t0 = time.monotonic()
    r = subprocess.run(command(env, tmp / "noport", 4, "7x7", "tcp://127.0.0.1"), env=env, capture_output=True,
                       text=True, cwd=tmp, timeout=120)
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    return {"code": r.returncode, "s": time.monotonic() - t0, "said": lines[-1] if lines else "",
            "lines": len(lines), "work": (tmp / "noport").exists()}


SCENARIOS = {
    "fill": lambda env, tmp, a: run_fill(env, tmp, a.workers, a.count, a.size),
    "lost": lambda env, tmp, a: run_lost(env, tmp, a.workers, a.lost_count, a.lost_size, a.kill_after, False, a.cap),
    "lost_int": lambda env, tmp, a: run_lost(env, tmp, a.workers, a.lost_count, a.lost_size, a.kill_after, True,
                                             a.cap),
    "none": lambda env, tmp, a: run_no_workers(env, tmp),
    "port": lambda env, tmp, a: run_no_port(env, tmp),
}


def scenarios(runs: list[tuple[str, dict]], args) -> dict[str, dict]:
    """Each scenario for each revision; the fill runs ``--rounds`` times, the revisions alternating."""
    out: dict[str, dict] = {name: {"fills": []} for name, _ in runs}
    keys = args.only or list(SCENARIOS)
    for key in keys:
        for round_ in range(args.rounds if key == "fill" else 1):
            for name, env in runs:
                with tempfile.TemporaryDirectory(prefix=f"cluster-{name.split()[0]}-") as d:
                    print(f"[{name}] {key}", flush=True)
                    got = SCENARIOS[key](env, Path(d), args)
                    print(f"[{name}] {got}", flush=True)
                if key == "fill":
                    out[name]["fills"].append(got)
                else:
                    out[name][key] = got
    for res in out.values():
        fills = res.pop("fills")
        if fills:
            res["fill"] = {"max": max(f["max"] for f in fills), "maxes": [f["max"] for f in fills],
                           "mean": statistics.median(f["mean"] for f in fills),
                           "wall": statistics.median(f["wall"] for f in fills), "walls": [f["wall"] for f in fills],
                           "codes": sorted({f["code"] for f in fills}), "samples": sum(f["samples"] for f in fills)}
    return out


def fmt_s(x) -> str:
    return "did not end" if x is None else f"{x:.1f} s"


def table(results: dict[str, dict], args) -> str:
    names = list(results)
    head = "| | " + " | ".join(names) + " |\n|---|" + "---:|" * len(names) + "\n"
    rows = []

    def row(label, f):
        rows.append(f"| {label} | " + " | ".join(f(results[n]) for n in names) + " |")

    row(f"fill: most tasks executing at once ({args.workers} workers), per run",
        lambda r: ", ".join(map(str, r["fill"]["maxes"])))
    row("fill: mean executing while the queue was full (median of runs)",
        lambda r: f"{r['fill']['mean']:.2f} ({r['fill']['samples']} samples)")
    row(f"fill: whole command, {args.count} puzzles {args.size} hard, median (runs)",
        lambda r: f"{r['fill']['wall']:.1f} s ({', '.join(f'{w:.1f}' for w in r['fill']['walls'])}), "
                  f"exit {'/'.join(map(str, r['fill']['codes']))}")
    row("lost scheduler: puzzles stored at the kill", lambda r: str(r["lost"]["at_kill"]))
    row("lost scheduler: command ended after the kill", lambda r: fmt_s(r["lost"]["ended_after"]) + f" (cap {args.cap:g} s)")
    row("lost scheduler: exit code", lambda r: str(r["lost"]["code"]))
    row("lost scheduler: lines printed after the kill (tracebacks)", lambda r: f"{r['lost']['lines']} ({r['lost']['traceback']})")
    row("lost scheduler: fresh cluster, same command", lambda r: f"exit {r['lost']['rerun_code']}, {r['lost']['files']} files")
    row("Ctrl-C 1 s after the kill: exit code, ended after", lambda r: f"{r['lost_int']['code']}, {fmt_s(r['lost_int']['ended_after'])}")
    row("Ctrl-C 1 s after the kill: lines (tracebacks)", lambda r: f"{r['lost_int']['lines']} ({r['lost_int']['traceback']})")
    row("no workers: lines said in 8 s on the cluster", lambda r: str(len(r["none"]["said"])))
    row("no workers: Ctrl-C exit code, lines after (tracebacks)", lambda r: f"{r['none']['code']}, {r['none']['lines_after']} ({r['none']['traceback']})")
    row("`tcp://127.0.0.1` (no port): exit code, lines", lambda r: f"{r['port']['code']}, {r['port']['lines']}")
    said = []
    for n in names:
        r = results[n]
        said.append(f"**{n}**\n\n- lost scheduler: `{r['lost']['said'][:300]}`\n"
                    f"- rerun: `{r['lost']['rerun_said'][:200]}`\n"
                    f"- Ctrl-C after the kill: `{r['lost_int']['said'][:200]}`\n"
                    f"- no workers: " + ("; ".join(f"`{s[:200]}`" for s in r["none"]["said"]) or "(nothing)") + "\n"
                    f"- no port: `{r['port']['said'][:200]}`\n")
    if len(names) == 2:
        a, b = (results[n]["fill"]["wall"] for n in names)
        rows.append(f"| fill: whole-command ratio, {names[1]} / {names[0]} (medians) | | {b / a:.2f} |")
    return head + "\n".join(rows) + "\n\nWhat the command printed:\n\n" + "\n".join(said)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", metavar="REV", help="also run the package of this git revision, side by side")
    ap.add_argument("--workers", type=int, default=6)
    ap.add_argument("--count", type=int, default=60)
    ap.add_argument("--rounds", type=int, default=3, help="fill runs per revision, alternating (medians reported)")
    ap.add_argument("--size", default="25x25")
    ap.add_argument("--lost-count", type=int, default=400)
    ap.add_argument("--lost-size", default="10x10")
    ap.add_argument("--kill-after", type=int, default=100)
    ap.add_argument("--cap", type=float, default=90.0, help="seconds to wait for a command before killing it")
    ap.add_argument("--only", nargs="+", choices=list(SCENARIOS), help="these scenarios only (nothing is written)")
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="cluster-src-") as src:
        runs = [("this tree", {**os.environ, "PYTHONPATH": str(ROOT)})]
        if args.before:
            pkg = extract_package(args.before, Path(src))
            rev = subprocess.run(["git", "rev-parse", "--short", args.before], cwd=ROOT, capture_output=True,
                                 text=True).stdout.strip()
            runs.insert(0, (f"{args.before} ({rev})", {**os.environ, "PYTHONPATH": str(pkg)}))
        results = scenarios(runs, args)
    if args.only:
        return
    load = os.getloadavg()
    text = (f"# A real Dask cluster: filled, and failing cleanly\n\n"
            f"`python benchmarks/cluster_run.py{' --before ' + args.before if args.before else ''}` "
            f"({git_state()}; {os.cpu_count()} cores, load {load[0]:.1f} at the end; scheduler and "
            f"{args.workers} single-thread workers on this machine as separate processes; whole-process "
            f"runs, one sitting, revisions alternating).\n\n" + table(results, args) + "\n")
    print(text)
    if not args.no_write:
        RESULTS.write_text(text)
        print(f"wrote {RESULTS}")


if __name__ == "__main__":
    main()
