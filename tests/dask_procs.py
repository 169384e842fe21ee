"""A real Dask cluster for tests and benchmarks: ``dask scheduler`` and ``dask worker`` processes on
127.0.0.1 (ports chosen by the system), each started in a session of its own and ended by its
process id.

The scheduler loads :mod:`dask_probe` (``--preload``), which writes what the scheduler sees to a
JSON file every 20 ms: the workers attached, their threads, how many of them hold a task and the
most that ever did at once.  So the number of tasks processing at once is observed where it is
decided, without a Dask client in the test process and without timing anything.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


class DaskProcs:
    """``with DaskProcs(tmp_dir, workers=3) as c:`` a scheduler with 3 single-thread workers; ``c.address``."""

    def __init__(self, folder: Path, workers: int = 0, start_timeout: float = 120.0, env: dict | None = None):
        self.env = dict(env or {})  # for every process (a benchmark's PYTHONPATH to an older revision)
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.nworkers = workers
        self.start_timeout = start_timeout
        self.scheduler: subprocess.Popen | None = None
        self.workers: list[subprocess.Popen] = []
        self.address = ""
        self.probe_file = self.folder / "probe.json"

    def __enter__(self) -> "DaskProcs":
        try:
            self.start_scheduler()
            self.add_workers(self.nworkers)
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def _spawn(self, name: str, *args: str, env: dict | None = None) -> subprocess.Popen:
        log = open(self.folder / f"{name}.log", "wb")
        try:
            return subprocess.Popen([sys.executable, "-m", "dask", *args], stdout=log, stderr=subprocess.STDOUT,
                                    stdin=subprocess.DEVNULL, start_new_session=True,
                                    env={**os.environ, **self.env, **(env or {})}, cwd=self.folder)
        finally:
            log.close()

    def start_scheduler(self) -> None:
        """A (new) scheduler; workers of an earlier one are ended first (they would not join this one)."""
        self.stop()
        info = self.folder / "scheduler.json"
        info.unlink(missing_ok=True)
        self.probe_file.unlink(missing_ok=True)
        self.scheduler = self._spawn("scheduler", "scheduler", "--host", "127.0.0.1", "--port", "0",
                                     "--no-dashboard", "--scheduler-file", str(info), "--preload", "dask_probe",
                                     env={"HASHIKIT_DASK_PROBE": str(self.probe_file),
                                          "PYTHONPATH": os.pathsep.join([str(HERE), self.env.get(
                                              "PYTHONPATH", os.environ.get("PYTHONPATH", ""))])})
        self._until(lambda: info.exists() and info.stat().st_size > 0 and self.probe() is not None,
                    "the scheduler to start", self.scheduler)
        self.address = json.loads(info.read_text())["address"]

    def add_workers(self, n: int) -> None:
        want = len(self.workers) + n
        for _ in range(n):
            self.workers.append(self._spawn(f"worker{len(self.workers)}", "worker", self.address, "--host",
                                            "127.0.0.1", "--nthreads", "1", "--no-nanny", "--no-dashboard",
                                            "--death-timeout", "60", "--memory-limit", "0"))
        if n:
            self._until(lambda: (self.probe() or {}).get("workers", 0) >= want, f"{want} workers to attach")

    def probe(self) -> dict | None:
        """What the scheduler saw last: workers, threads, busy (workers holding a task), max_busy, tasks."""
        try:
            return json.loads(self.probe_file.read_text())
        except (OSError, ValueError):
            return None

    def reset_probe(self) -> None:
        (self.folder / "probe.reset").write_text("")
        self._until(lambda: not (self.folder / "probe.reset").exists(), "the probe to reset")

    def kill_scheduler(self) -> float:
        """SIGKILL the scheduler; the monotonic time it was sent."""
        os.kill(self.scheduler.pid, signal.SIGKILL)
        t = time.monotonic()
        self.scheduler.wait(10)
        return t

    def _until(self, ok, what: str, proc: subprocess.Popen | None = None) -> None:
        deadline = time.monotonic() + self.start_timeout
        while not ok():
            if proc is not None and proc.poll() is not None:
                raise RuntimeError(f"{what}: the process ended ({proc.returncode}); see {self.folder}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"timed out waiting for {what}; see {self.folder}")
            time.sleep(0.05)

    def stop(self) -> None:
        """End every process started here, by its id (SIGKILL: nothing of theirs needs keeping)."""
        for proc in [*self.workers, *([self.scheduler] if self.scheduler else [])]:
            if proc.poll() is None:
                try:
                    os.kill(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                pass
        self.workers, self.scheduler = [], None
