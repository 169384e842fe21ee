"""A real Dask cluster under ``hashikit generate --cluster``: how many tasks its single-thread workers
hold at once, and how a scheduler killed mid-run ends the command.  Writes its section of
``benchmarks/results/scale-out.md`` (between the ``cluster_real`` markers; ``scale_out.py`` keeps it).

    python benchmarks/cluster_real.py                      # 6 workers, against main's runner too
    python benchmarks/cluster_real.py --workers 6 --count 60 --kill-count 400 --kill-after 100 --rounds 2

Processes: ``dask scheduler`` and ``dask worker --nthreads 1 --no-nanny`` on 127.0.0.1 (ports the
system picks), started by ``tests/dask_procs.py``; the scheduler loads ``tests/dask_probe.py``, which
samples every 20 ms how many workers hold a task (``busy``) and how many tasks the client has
submitted and not finished (``held``).  The command runs as a process of its own, as a person runs it.

1. Capacity: ``generate --count N --size 20x20 --difficulty hard`` on W workers, with this tree's
   runner and (``--against REV``) an older one's, the workers running the same revision.
2. A lost scheduler: ``generate --count K --size 10x10 --difficulty hard``; once A puzzles are on disk
   the scheduler gets SIGKILL; the time from the kill to the command's exit, its exit status and
   what it printed after "running on the Dask cluster"; then the same command on a new scheduler and
   new workers (round 1 only): how many puzzles it took from the first run, and that it ends with K.
3. Ctrl-C while the connection is lost (2 s after the kill): the exit status and how long it took.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(HERE), str(ROOT / "tests")]

from _runinfo import extract_package, git_state  # noqa: E402
from dask_procs import DaskProcs  # noqa: E402

BEGIN, END = "<!-- cluster_real: begin -->", "<!-- cluster_real: end -->"


def rows(out: Path) -> int:
    path = out / "generate.jsonl"
    return path.read_text().count("\n") if path.exists() else 0


def command(out: Path, address: str, count: int, size: str, env: dict) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "hashikit", "generate", "--size", size, "--difficulty", "hard",
                             "--count", str(count), "--seed", "19", "--out-dir", str(out), "--cluster", address],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env={**os.environ, **env},
                            cwd=out.parent,  # not the project folder: -m would import its hashikit before PYTHONPATH's
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def capacity(tmp: Path, label: str, env: dict, workers: int, count: int) -> dict:
    (tmp / f"cap-{label}-out").parent.mkdir(parents=True, exist_ok=True)
    where = subprocess.run([sys.executable, "-c", "import hashikit; print(hashikit.__file__)"], cwd=tmp,
                           env={**os.environ, **env}, capture_output=True, text=True, check=True).stdout.strip()
    if env.get("PYTHONPATH") and not where.startswith(env["PYTHONPATH"]):
        raise SystemExit(f"cluster_real: the {label} run would import {where}")
    with DaskProcs(tmp / f"cap-{label}", workers=workers, env=env) as cluster:
        cluster.reset_probe()
        t0 = time.perf_counter()
        proc = command(tmp / f"cap-{label}-out", cluster.address, count, "20x20", env)
        err = proc.communicate()[1]
        wall = time.perf_counter() - t0
        seen = cluster.probe()
    samples = {int(k): v for k, v in seen["busy_samples"].items()}
    total = sum(samples.values()) or 1
    return {"label": label, "code": proc.returncode, "wall": wall, "max_busy": seen["max_busy"],
            "max_held": seen["max_held"], "all_busy": samples.get(workers, 0) / total,
            "mean_busy": sum(k * v for k, v in samples.items()) / total, "samples": total,
            "traceback": "Traceback" in err}


def until(ok, proc: subprocess.Popen, what: str, limit: float = 600) -> None:
    deadline = time.monotonic() + limit
    while not ok():
        if proc.poll() is not None or time.monotonic() > deadline:
            raise SystemExit(f"cluster_real: no {what} (command ended {proc.returncode})")
        time.sleep(0.02)


def killed(tmp: Path, rnd: int, workers: int, count: int, after: int, resume: bool) -> dict:
    out = tmp / f"kill-{rnd}-out"
    with DaskProcs(tmp / f"kill-{rnd}", workers=workers) as cluster:
        proc = command(out, cluster.address, count, "10x10", {})
        until(lambda: rows(out) >= after, proc, f"{after} puzzles")
        t_kill = cluster.kill_scheduler()
        at_kill = rows(out)
        err = proc.communicate(timeout=600)[1]
        to_exit = time.monotonic() - t_kill
        lines = err.splitlines()
        start = next(i for i, line in enumerate(lines) if "running on the Dask cluster" in line)
        res = {"round": rnd, "at_kill": at_kill, "kept": rows(out), "to_exit": to_exit, "code": proc.returncode,
               "after": lines[start + 1:], "traceback": "Traceback" in err}
        if resume:
            cluster.start_scheduler()
            cluster.add_workers(workers)
            t0 = time.perf_counter()
            again = command(out, cluster.address, count, "10x10", {})
            err2 = again.communicate(timeout=1800)[1]
            m = re.search(r"wrote (\d+) puzzles .*\((\d+) from an earlier run\)", err2)
            res.update(rerun_code=again.returncode, rerun_wall=time.perf_counter() - t0,
                       rerun_wrote=int(m.group(1)) if m else None, rerun_resumed=int(m.group(2)) if m else None,
                       rerun_rows=len({json.loads(x)["key"] for x in (out / "generate.jsonl").read_text().splitlines()}))
    return res


def interrupted(tmp: Path, workers: int) -> dict:
    out = tmp / "int-out"
    with DaskProcs(tmp / "int", workers=workers) as cluster:
        proc = command(out, cluster.address, 400, "10x10", {})
        until(lambda: rows(out) >= 5, proc, "5 puzzles")
        cluster.kill_scheduler()
        time.sleep(2)  # Dask is retrying the connection now
        t0 = time.monotonic()
        proc.send_signal(signal.SIGINT)
        err = proc.communicate(timeout=600)[1]
        return {"code": proc.returncode, "seconds": time.monotonic() - t0, "last": err.splitlines()[-1],
                "traceback": "Traceback" in err}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--workers", type=int, default=6)
    ap.add_argument("--count", type=int, default=60, help="puzzles of the capacity run (20x20 hard)")
    ap.add_argument("--kill-count", type=int, default=400, help="puzzles of the lost-scheduler run (10x10 hard)")
    ap.add_argument("--kill-after", type=int, default=100, help="puzzles on disk when the scheduler is killed")
    ap.add_argument("--rounds", type=int, default=2, help="lost-scheduler rounds (round 1 also resumes)")
    ap.add_argument("--against", default="main", help="older revision for the capacity run ('' for none)")
    ap.add_argument("--out", default=str(HERE / "results" / "scale-out.md"))
    args = ap.parse_args(argv)
    load0 = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="cluster-real-") as tmpdir:
        tmp = Path(tmpdir)
        caps = [capacity(tmp, "this tree", {}, args.workers, args.count)]
        if args.against:
            src = extract_package(args.against, tmp)
            caps.append(capacity(tmp, args.against, {"PYTHONPATH": str(src)}, args.workers, args.count))
        kills = [killed(tmp, r, args.workers, args.kill_count, args.kill_after, r == 1)
                 for r in range(1, args.rounds + 1)]
        stop = interrupted(tmp, 2)
    load1 = os.getloadavg()[0]
    w = args.workers
    lines = [
        BEGIN,
        "## A real cluster: tasks at once, and a lost scheduler",
        "",
        f"Run: `python benchmarks/cluster_real.py --workers {w} --count {args.count} --kill-count {args.kill_count} "
        f"--kill-after {args.kill_after} --rounds {args.rounds}`; {git_state()}; {os.cpu_count()} CPUs, load "
        f"average {load0:.1f} before, {load1:.1f} after. `dask scheduler` and {w} `dask worker --nthreads 1 "
        "--no-nanny` processes on 127.0.0.1; the scheduler samples every 20 ms how many workers hold a task "
        "(busy) and how many tasks the client has submitted and not finished (held); the command runs as a "
        "process of its own.",
        "",
        f"### {w} single-thread workers, `generate --count {args.count} --size 20x20 --difficulty hard`",
        "",
        "| runner | exit | wall (s) | most busy at once | most held at once | samples with all busy | mean busy |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for c in caps:
        lines.append(f"| {c['label']} | {c['code']} | {c['wall']:.1f} | {c['max_busy']} of {w} | {c['max_held']} | "
                     f"{100 * c['all_busy']:.0f}% | {c['mean_busy']:.1f} |")
    lines += [
        "",
        f"Samples count while the client had any task unfinished (the run going on, its last few tasks "
        f"included, when fewer than {w} are left to run). The runner now sizes its window from the "
        "cluster's threads (2 per thread: each worker has the next task ready)"
        + (f"; {args.against}'s took twice the client machine's cores ({2 * os.cpu_count()} here)."
           if args.against else "."),
        "",
        f"### The scheduler SIGKILLed mid-run, `generate --count {args.kill_count} --size 10x10 --difficulty hard`",
        "",
        "| round | puzzles on disk at the kill | kept | kill to exit (s) | exit | stderr after 'running on' | traceback |",
        "|---:|---:|---:|---:|---:|---|---|",
    ]
    for k in kills:
        shown = "<br>".join(line.replace("|", "\\|") for line in k["after"])
        lines.append(f"| {k['round']} | {k['at_kill']} | {k['kept']} | {k['to_exit']:.1f} | {k['code']} | "
                     f"{len(k['after'])} line: `{shown}` | {'YES' if k['traceback'] else 'none'} |")
    k = kills[0]
    lines += [
        "",
        f"- The same command again on a new scheduler and {w} new workers: exit {k.get('rerun_code')}, "
        f"{k.get('rerun_resumed')} puzzles taken from the first run, {k.get('rerun_wrote')} written in all "
        f"({k.get('rerun_rows')} distinct rows in generate.jsonl), {k.get('rerun_wall', 0):.1f} s.",
        "- Kill to exit is Dask's reconnect window (the client's connect timeout, 10 s) plus the runner's "
        "next look at the client (every second), plus the command's exit.",
        f"- Ctrl-C 2 s after the kill (Dask still reconnecting): exit {stop['code']} after "
        f"{stop['seconds']:.1f} s, last line `{stop['last']}`, traceback: {'YES' if stop['traceback'] else 'none'}.",
        END,
        "",
    ]
    section = "\n".join(lines)
    path = Path(args.out)
    old = path.read_text() if path.exists() else ""
    if BEGIN in old and END in old:
        new = old[:old.index(BEGIN)] + section.rstrip("\n") + old[old.index(END) + len(END):]
    else:
        new = old.rstrip("\n") + "\n\n" + section
    path.write_text(new)
    print(section)
    return 0


if __name__ == "__main__":
    sys.exit(main())
