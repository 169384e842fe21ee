"""A storm of crashing jobs through the batch runner's own pool, then the process exits: run as
a script by tests/test_batch.py (``python tests/batch_storm.py ROUNDS``).  Prints "ok" when every
round gave a row per job with the right values; the test also holds the exit in bounded time."""

import sys
from pathlib import Path


def main(rounds: int) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from batch_jobs import exit_hard, square

    from hashikit.run.batch import Job, run_batch

    for r in range(rounds):
        jobs = []
        for i in range(12):
            jobs.append(Job(f"sq{r}-{i}", square, (i,)))
            if i % 3 == 1:
                jobs.append(Job(f"exit{r}-{i}", exit_hard, (7,)))
        rows = {row.key: row for row in run_batch(jobs, workers=2, progress=False)}
        assert set(rows) == {job.key for job in jobs}, r
        assert all(rows[f"sq{r}-{i}"].value == i * i for i in range(12)), r
        assert not any(row.ok for key, row in rows.items() if key.startswith("exit")), r
    print("ok", flush=True)


if __name__ == "__main__":  # the fork server's children import this file without running it
    main(int(sys.argv[1]))
