"""`hashikit generate --count K --cluster local:N --catalog c.db`: the same puzzles as the local pool
for the same seeds, a second run adds nothing, a worker killed mid-run loses nothing (issue 12)."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

pytest.importorskip("distributed", reason="Dask is not installed (pip install '.[cluster]')")

from hashikit.publish.catalog import Catalog  # noqa: E402
from hashikit.run import batch, cluster  # noqa: E402
from hashikit.cli import main  # noqa: E402


def generate(tmp_path, name: str, count: int, size: str, level: str, *extra: str) -> tuple[int, set[str]]:
    db = tmp_path / f"{name}.db"
    code = main(["generate", "--size", size, "--difficulty", level, "--count", str(count), "--seed", "12",
                 "--out-dir", str(tmp_path / name), "--catalog", str(db), *extra])
    with Catalog(db) as cat:
        return code, cat.fingerprints()


def test_cluster_and_local_pool_make_the_same_puzzles_and_a_rerun_adds_nothing(tmp_path, capsys):
    code, local = generate(tmp_path, "local", 12, "7x7", "easy", "--jobs", "2")
    assert code == 0 and len(local) == 12
    capsys.readouterr()
    code, on_cluster = generate(tmp_path, "cluster", 12, "7x7", "easy", "--cluster", "local:2")
    err = capsys.readouterr().err
    assert code == 0 and on_cluster == local, err
    assert "Dask cluster local:2" in err and "12 added" in err
    # the same command again: every job is resumed from the results file, nothing new is stored
    code, again = generate(tmp_path, "cluster", 12, "7x7", "easy", "--cluster", "local:2")
    err = capsys.readouterr().err
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


class _Lossy(ThreadPoolExecutor):
    """Threads standing in for a cluster that tells its capacity; lost once ``lose_after`` rows are stored."""

    def __init__(self, rows_file: Path, lose_after: int | None):
        super().__init__(max_workers=2)
        self.rows_file, self.lose_after = rows_file, lose_after

    def capacity(self) -> int:
        stored = self.rows_file.read_text().count("\n") if self.rows_file.exists() else 0
        if self.lose_after is not None and stored >= self.lose_after:
            raise cluster.ClusterLost("lost the Dask scheduler at tcp://sched:8786: unreachable for 10 s")
        return 1


def test_a_lost_scheduler_is_one_line_and_exit_1_and_the_same_command_resumes(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(batch, "POLL", 0.05)
    out = tmp_path / "cluster"
    lose = {"after": 3}

    @contextlib.contextmanager
    def lossy_executor(spec, **kw):
        assert spec == "tcp://sched:8786"
        with _Lossy(out / "generate.jsonl", lose["after"]) as pool:
            yield pool

    monkeypatch.setattr(cluster, "executor", lossy_executor)
    code, first = generate(tmp_path, "cluster", 8, "7x7", "easy", "--cluster", "tcp://sched:8786")
    err = capsys.readouterr().err.strip().splitlines()
    kept = (out / "generate.jsonl").read_text().count("\n")
    assert code == 1 and 3 <= kept < 8 and len(first) == kept
    assert err[-1] == (f"hashikit: generate: lost the Dask scheduler at tcp://sched:8786: unreachable for 10 s; "
                       f"{kept} of 8 puzzles are kept in {out / 'generate.jsonl'}: run the same command again to resume")
    assert [ln for ln in err if ln.startswith("hashikit")] == err[-1:] and not (out / "index.csv").exists()
    lose["after"] = None  # the cluster is back
    code, again = generate(tmp_path, "cluster", 8, "7x7", "easy", "--cluster", "tcp://sched:8786")
    assert code == 0 and f"({kept} from an earlier run)" in capsys.readouterr().err
    code, local = generate(tmp_path, "local", 8, "7x7", "easy", "--jobs", "1")
    assert code == 0 and again == local  # the same puzzles as one process makes, none lost or doubled


def test_an_address_without_a_port_is_refused_before_any_work(tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["generate", "--size", "7x7", "--difficulty", "easy", "--count", "4", "--out-dir", str(tmp_path / "o"),
              "--cluster", "tcp://127.0.0.1"])
    err = capsys.readouterr().err.strip().splitlines()
    assert stop.value.code == 2 and not (tmp_path / "o").exists()
    assert err[-1].endswith("argument --cluster: the scheduler address 'tcp://127.0.0.1' has no port: give one, "
                            "as in tcp://127.0.0.1:8786 (dask scheduler's default) (see 'hashikit generate --help')")


# -- a real scheduler and workers, as separate processes (slow: each starts Dask afresh) ---------------------
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def real_cluster(tmp_path: Path, workers: int = 0):
    """``dask scheduler`` (and ``dask worker --nworkers N --nthreads 1``) started here, ended after."""
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    run = dict(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True, cwd=tmp_path)
    procs = [subprocess.Popen([sys.executable, "-m", "dask", "scheduler", "--host", "127.0.0.1", "--port", str(port),
                               "--no-dashboard"], **run)]
    try:
        deadline = time.monotonic() + 60
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
                break
            assert time.monotonic() < deadline, "dask scheduler did not start"
            time.sleep(0.2)
        if workers:
            procs.append(subprocess.Popen([sys.executable, "-m", "dask", "worker", address, "--nworkers", str(workers),
                                           "--nthreads", "1", "--no-dashboard"], **run))
        yield address, procs[0]
    finally:
        for p in procs:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(p.pid, signal.SIGKILL)
            p.wait(10)


def _command(tmp_path: Path, address: str, count: int, size: str, level: str, err: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "hashikit", "generate", "--size", size, "--difficulty", level,
                             "--count", str(count), "--seed", "12", "--out-dir", str(tmp_path / "out"),
                             "--cluster", address], stdout=subprocess.DEVNULL, stderr=err.open("w"), cwd=tmp_path)


def _lines(err: Path) -> list[str]:
    return [ln for ln in err.read_text().splitlines() if ln.strip()]


def _until(cond, what: str, timeout: float = 120.0) -> None:
    end = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < end, what
        time.sleep(0.1)


@pytest.mark.slow
@pytest.mark.parametrize("then", ["wait", "ctrl-c"])
def test_a_real_scheduler_without_workers_is_said_and_its_loss_ends_the_command(tmp_path, then):
    """No workers: said once after a few seconds, and waited for.  The scheduler killed then: exit 1
    and one line within the reconnect time (or Ctrl-C: exit 130 and one line); never a traceback."""
    err = tmp_path / "err.txt"
    with real_cluster(tmp_path) as (address, scheduler):
        proc = _command(tmp_path, address, 4, "7x7", "easy", err)
        _until(lambda: any("has no workers" in ln for ln in _lines(err)), "the missing workers were never said")
        scheduler.kill()
        if then == "ctrl-c":
            time.sleep(1)
            proc.send_signal(signal.SIGINT)
        code = proc.wait(cluster.CONNECT_TIMEOUT + 50)
    lines = _lines(err)
    assert lines[2] == (f"hashikit: generate: the Dask scheduler at {address} has no workers: waiting for some "
                        f"(start them with: dask worker {address}; Ctrl-C stops)")
    if then == "ctrl-c":
        assert code == 130 and lines[3:] == ["hashikit: interrupted"], lines
    else:
        assert code == 1 and len(lines) == 4, lines
        assert lines[3].startswith(f"hashikit: generate: lost the Dask scheduler at {address}: unreachable for ")
        assert lines[3].endswith("0 of 4 puzzles are kept in out/generate.jsonl: run the same command again to resume"
                                 .replace("out/", str(tmp_path / "out") + "/"))


@pytest.mark.slow
def test_a_real_scheduler_killed_mid_run_ends_the_command_and_a_fresh_cluster_resumes_it(tmp_path):
    err = tmp_path / "err.txt"
    rows = tmp_path / "out" / "generate.jsonl"
    stored = lambda: rows.read_text().count("\n") if rows.exists() else 0  # noqa: E731
    with real_cluster(tmp_path, workers=2) as (address, scheduler):
        proc = _command(tmp_path, address, 60, "9x9", "hard", err)
        _until(lambda: stored() >= 5 or proc.poll() is not None, "no puzzle was stored")
        scheduler.kill()
        code = proc.wait(cluster.CONNECT_TIMEOUT + 50)
    lines, kept = _lines(err), stored()
    assert code == 1 and 5 <= kept < 60, (code, lines)
    assert lines[-1].startswith(f"hashikit: generate: lost the Dask scheduler at {address}") and \
        f"{kept} of 60 puzzles are kept" in lines[-1], lines
    assert [ln for ln in lines if ln.startswith("hashikit")] == lines[-1:] and not any("Traceback" in ln for ln in lines)
    with real_cluster(tmp_path, workers=2) as (address, _):
        proc = _command(tmp_path, address, 60, "9x9", "hard", err)
        assert proc.wait(300) == 0, _lines(err)
    assert f"wrote 60 puzzles and index.csv/index.json to {tmp_path / 'out'} ({kept} from an earlier run)" in _lines(err)
    assert len(set((tmp_path / "out").glob("hard-9x9-*.txt"))) == 60
