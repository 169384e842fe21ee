"""A batch of long jobs, more than the workers (some wait in the pool), interrupted by Ctrl-C: run
as a script by tests/test_batch.py, which sends SIGINT once it prints "go"."""

import sys
from pathlib import Path


def main() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from batch_jobs import nap

    from hashikit.run.batch import Job, run_batch

    print("go", flush=True)
    try:
        list(run_batch([Job(f"nap{i}", nap, (30,)) for i in range(8)], workers=2, progress=False))
    except KeyboardInterrupt:
        sys.exit(130)


if __name__ == "__main__":  # the fork server's children import this file without running it
    main()
