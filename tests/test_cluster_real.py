"""`hashikit generate --cluster tcp://...` on a real cluster: ``dask scheduler`` and ``dask worker``
processes (127.0.0.1, ports the system picks, see :mod:`dask_procs`), the command run as a command
of its own (issue 19).

- N single-thread workers get N tasks processing at once and the runner keeps 2 N submitted,
  observed in the scheduler (its probe), not by timing;
- a scheduler SIGKILLed mid-run: exit 1, one line (no traceback), the puzzles made so far kept,
  and the same command resumes them on a new cluster;
- a malformed address: exit 2 before any work;
- no worker attached: said after a few seconds, and the run goes on once one attaches;
- Ctrl-C while the connection is lost: exit 130, no traceback.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("distributed", reason="Dask is not installed (pip install '.[cluster]')")

from dask_procs import DaskProcs  # noqa: E402

from hashikit.publish.catalog import Catalog  # noqa: E402
from hashikit.cli import main  # noqa: E402

#: a guard against a hang, never a timing: every step here normally takes seconds
HANG = 300


class Run:
    """``hashikit generate ... --cluster ADDRESS`` as a command of its own, its standard error read
    line by line as it comes (SIGINT as a terminal's Ctrl-C delivers it: not ignored)."""

    def __init__(self, out: Path, address: str, count: int, size: str = "10x10", level: str = "hard", *extra: str,
                 env: dict | None = None):
        self.out = out
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "hashikit", "generate", "--size", size, "--difficulty", level, "--count",
             str(count), "--seed", "19", "--out-dir", str(out), "--cluster", address, *extra],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env={**os.environ, **(env or {})},
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        self.lines: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        for line in self.proc.stderr:
            self.lines.append(line.rstrip("\n"))

    def rows(self) -> list[dict]:
        path = self.out / "generate.jsonl"
        if not path.exists():
            return []
        return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]

    def until(self, ok, what: str) -> None:
        deadline = time.monotonic() + HANG
        while not ok():
            assert self.proc.poll() is None, f"the command ended ({self.proc.returncode}) before {what}: {self.lines}"
            assert time.monotonic() < deadline, f"no {what} after {HANG} s: {self.lines}"
            time.sleep(0.02)

    def wait(self) -> int:
        try:
            code = self.proc.wait(HANG)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise AssertionError(f"the command hung: {self.lines}") from None
        self._reader.join(10)
        return code


def no_traceback(lines: list[str]) -> None:
    text = "\n".join(lines)
    assert "Traceback" not in text and "internal error" not in text and " - ERROR - " not in text, text


def test_n_single_thread_workers_run_n_tasks_at_once(tmp_path):
    """3 workers: every one holds a task at once, and the runner keeps 6 (two per worker) submitted;
    sized from the executor's pool before, the window was 2 x the client's cores (4 on 2 cores)."""
    with DaskProcs(tmp_path / "cluster", workers=3) as cluster:
        run = Run(tmp_path / "out", cluster.address, 24)
        assert run.wait() == 0, run.lines
        seen = cluster.probe()
    no_traceback(run.lines)
    assert len({r["key"] for r in run.rows() if r["ok"]}) == 24
    assert seen["workers"] == 3 and seen["max_busy"] == 3, seen
    assert seen["max_held"] == 6, seen


@pytest.mark.slow
def test_six_single_thread_workers_keep_six_tasks_processing(tmp_path):
    with DaskProcs(tmp_path / "cluster", workers=6) as cluster:
        run = Run(tmp_path / "out", cluster.address, 60, "20x20")
        assert run.wait() == 0, run.lines
        seen = cluster.probe()
    no_traceback(run.lines)
    assert seen["max_busy"] == 6 and seen["max_held"] == 12, seen


def test_a_killed_scheduler_ends_the_run_in_one_line_and_the_same_command_resumes(tmp_path):
    out, db = tmp_path / "out", tmp_path / "c.db"
    with DaskProcs(tmp_path / "cluster", workers=2) as cluster:
        run = Run(out, cluster.address, 30, "10x10", "hard", "--catalog", str(db))
        run.until(lambda: len(run.rows()) >= 3, "3 puzzles made")
        cluster.kill_scheduler()
        code = run.wait()
        kept = run.rows()
        assert code == 1, run.lines
        no_traceback(run.lines)
        after = run.lines[[i for i, line in enumerate(run.lines) if "running on the Dask cluster" in line][0] + 1:]
        assert len(after) == 1 and after[0].startswith("hashikit: generate: lost the Dask scheduler at "), run.lines
        assert f"{len(kept)} of 30 puzzles are kept in {out / 'generate.jsonl'}: run the same command again to " \
               f"resume" in after[0], after
        assert 3 <= len(kept) < 30 and all(r["ok"] for r in kept), kept
        assert len(list(out.glob("hard-10x10-*.txt"))) == len(kept)  # each puzzle's file, as it came
        with Catalog(db) as cat:
            assert len(cat) == len(kept)  # and into the catalogue

        # the same command on a new scheduler (a new address) with new workers: the rest only
        cluster.start_scheduler()
        cluster.add_workers(2)
        again = Run(out, cluster.address, 30, "10x10", "hard", "--catalog", str(db))
        assert again.wait() == 0, again.lines
    no_traceback(again.lines)
    assert f"wrote 30 puzzles and index.csv/index.json to {out} ({len(kept)} from an earlier run)" in again.lines
    assert f"{db}: {30 - len(kept)} added, {len(kept)} already there (or a mirror or rotation)" in again.lines
    rows = again.rows()
    assert rows[:len(kept)] == kept and len({r["key"] for r in rows}) == len(rows) == 30


@pytest.mark.parametrize("address, why", [("tcp://127.0.0.1", "has no port: give one, as in tcp://127.0.0.1:8786"),
                                          ("tcp://127.0.0.1:70000", "a port runs from 1 to 65535, got 70000"),
                                          ("tcp:/127.0.0.1:8786", "a cluster is 'local', 'local:WORKERS' or")])
def test_a_malformed_address_is_refused_before_any_work(tmp_path, capsys, address, why):
    with pytest.raises(SystemExit) as exc:  # argparse's refusal of the option's value
        main(["generate", "--size", "7x7", "--difficulty", "easy", "--count", "3",
              "--out-dir", str(tmp_path / "out"), "--cluster", address])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and why in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "out").exists()


def test_no_worker_attached_is_said_and_the_run_waits_for_one(tmp_path):
    """Said after 5 s; meanwhile nothing is submitted (a window of 2 x 0 threads); a worker joins: the
    run goes on, with 2 submitted (its capacity followed as it changes)."""
    with DaskProcs(tmp_path / "cluster") as cluster:
        # the client's copy of the scheduler's figures refreshed every 0.1 s (Dask's default: 2 s), so the
        # new worker is seen before a quick machine has made all 12 puzzles
        run = Run(tmp_path / "out", cluster.address, 12,
                  env={"DASK_DISTRIBUTED__CLIENT__SCHEDULER_INFO_INTERVAL": "100ms"})
        run.until(lambda: any("has no workers" in line for line in run.lines), "word of no worker")
        note = [line for line in run.lines if "has no workers" in line][0]
        assert note == (f"hashikit: generate: the Dask scheduler at {cluster.address} has no workers: waiting for "
                        f"some (start them with: dask worker {cluster.address}; Ctrl-C stops)")
        assert run.rows() == [] and cluster.probe()["max_held"] == 0, cluster.probe()
        cluster.add_workers(1)
        assert run.wait() == 0, run.lines
        seen = cluster.probe()
    no_traceback(run.lines)
    assert len(run.rows()) == 12
    assert seen["max_held"] == 2 and seen["max_busy"] == 1, seen


@pytest.mark.slow
def test_ctrl_c_gives_130_whether_the_scheduler_is_there_or_lost(tmp_path):
    with DaskProcs(tmp_path / "cluster", workers=2) as cluster:
        for lost in (False, True):
            out = tmp_path / f"out-{lost}"
            run = Run(out, cluster.address, 60)
            run.until(lambda: len(run.rows()) >= 2, "2 puzzles made")
            if lost:
                cluster.kill_scheduler()  # Dask now retries the connection for 10 s
                time.sleep(2)
            run.proc.send_signal(signal.SIGINT)
            assert run.wait() == 130, run.lines
            no_traceback(run.lines)
            assert run.lines[-1] == "hashikit: interrupted", run.lines
