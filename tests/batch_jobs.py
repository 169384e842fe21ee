"""Jobs for tests/test_batch.py, in a module of their own: worker processes import it, and it
imports nothing heavy (no pytest), so a restarted worker is up in milliseconds."""

from __future__ import annotations

import os
import random
import signal
import sys
import time
from pathlib import Path

from hashikit.run.batch import job_seed


def square(x):
    return x * x


def exit_hard(code):
    os._exit(code)


def kill_self():
    os.kill(os.getpid(), signal.SIGKILL)


def fail(message):
    raise ValueError(message)


def quit_job():
    sys.exit(4)


def nap(seconds):
    time.sleep(seconds)
    return seconds


def mark(folder, key):
    """Leave a file per run, so a test can count how often a job really ran."""
    Path(folder, f"{key}.{os.getpid()}.{time.perf_counter_ns()}").touch()
    return key


def seeded_draw(base, key):
    return random.Random(job_seed(base, key)).random()


def nap_noted(folder, key, seconds):
    """Leave a file named after the worker's process id, then nap (a test kills it from outside)."""
    Path(folder, f"{key}.{os.getpid()}").touch()
    time.sleep(seconds)
    return key
