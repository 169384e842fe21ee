"""`hashikit generate --count K --cluster local:N --catalog c.db`: the same puzzles as the local pool
for the same seeds, a second run adds nothing, a worker killed mid-run loses nothing (issue 12)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

pytest.importorskip("distributed", reason="Dask is not installed (pip install 'hashikit[cluster]')")

from hashikit.run import cluster  # noqa: E402
from hashikit.publish.catalog import Catalog  # noqa: E402
from hashikit.cli import main  # noqa: E402


def generate(tmp_path, name: str, count: int, size: str, level: str, *extra: str) -> tuple[int, set[str]]:
    db = tmp_path / f"{name}.db"
    code = main(["generate", "--size", size, "--difficulty", level, "--count", str(count), "--seed", "12",
                 "--out-dir", str(tmp_path / name), "--catalog", str(db), *extra])
    with Catalog(db) as cat:
        return code, cat.fingerprints()


def generate_apart(tmp_path, name: str, count: int, size: str, level: str, *extra: str) -> tuple[int, set[str], str]:
    """:func:`generate` as a command of its own: a local Dask cluster started inside the test process
    leaves process objects whose late clean-up can close descriptors later tests have reused."""
    db = tmp_path / f"{name}.db"
    proc = subprocess.run([sys.executable, "-m", "hashikit", "generate", "--size", size, "--difficulty", level,
                           "--count", str(count), "--seed", "12", "--out-dir", str(tmp_path / name),
                           "--catalog", str(db), *extra], capture_output=True, text=True, timeout=300)
    with Catalog(db) as cat:
        return proc.returncode, cat.fingerprints(), proc.stderr


def test_cluster_and_local_pool_make_the_same_puzzles_and_a_rerun_adds_nothing(tmp_path):
    code, local, _ = generate_apart(tmp_path, "local", 12, "7x7", "easy", "--jobs", "2")
    assert code == 0 and len(local) == 12
    code, on_cluster, err = generate_apart(tmp_path, "cluster", 12, "7x7", "easy", "--cluster", "local:2")
    assert code == 0 and on_cluster == local, err
    assert "Dask cluster local:2" in err and "12 added" in err
    # the same command again: every job is resumed from the results file, nothing new is stored
    code, again, err = generate_apart(tmp_path, "cluster", 12, "7x7", "easy", "--cluster", "local:2")
    assert code == 0 and again == local, err
    assert "0 added" in err


def test_cluster_needs_count(tmp_path, capsys):
    code = main(["generate", "--size", "7x7", "--difficulty", "easy", "--cluster", "local:2",
                 "-o", str(tmp_path / "p.txt")])
    assert code == 2 and "--cluster go with --count" in capsys.readouterr().err


@pytest.mark.slow
def test_a_worker_killed_mid_run_still_ends_with_every_puzzle(tmp_path, monkeypatch):
    """40 puzzles on local:2; once 5 results are on disk one Dask worker is SIGKILLed."""
    real = cluster.executor
    state = {"killed_at": None}

    @contextlib.contextmanager
    def killing_executor(spec, **kw):
        with real(spec, **kw) as pool:
            results = tmp_path / "cluster" / "generate.jsonl"

            def kill_one():
                deadline = time.monotonic() + 120
                while time.monotonic() < deadline:
                    done = results.read_text().count("\n") if results.exists() else 0
                    if done >= 5:
                        os.kill(next(iter(cluster.workers_of(pool).values())), signal.SIGKILL)
                        state["killed_at"] = done
                        return
                    time.sleep(0.02)

            killer = threading.Thread(target=kill_one, daemon=True)
            killer.start()
            yield pool
            killer.join(5)

    monkeypatch.setattr(cluster, "executor", killing_executor)
    code, on_cluster = generate(tmp_path, "cluster", 40, "12x12", "hard", "--cluster", "local:2")
    assert state["killed_at"] is not None and state["killed_at"] < 40, state
    assert code == 0 and len(on_cluster) == 40
    monkeypatch.setattr(cluster, "executor", real)
    code, local = generate(tmp_path, "local", 40, "12x12", "hard", "--jobs", "2")
    assert code == 0 and local == on_cluster
