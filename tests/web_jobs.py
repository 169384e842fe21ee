"""Stand-ins for the web's jobs (hashikit/web/jobs.py) in tests/test_web_fair.py, in a module of
their own: the app's warm workers import them by name, and this imports nothing heavy."""

from __future__ import annotations

import os
import signal
import time


def nap_check(data, bridges, marks, seconds=0.5):
    time.sleep(seconds)
    return {"complete": False, "valid": True, "violations": []}


#: how long ``nap_hint`` sleeps (a test may stretch it with the machine's load, in this process)
NAP = 0.8


def nap_hint(data, bridges, marks, deadline):
    time.sleep(NAP)
    return {"status": "hint", "sentence": f"{deadline.left():.2f} s left"}


def hog_check(data, bridges, marks):
    block = bytearray(2 * 1024 ** 3)  # past a worker's memory cap
    return {"complete": len(block) == 0, "valid": True, "violations": []}


def die_check(data, bridges, marks):
    os.kill(os.getpid(), signal.SIGKILL)


def where_solve(data, deadline):
    """jobs.solve's stand-in: where its engine would run (in this worker, killed at the deadline,
    or in a process of its own that hands back what it found)."""
    from hashikit.solvers import process

    return {"status": "unknown", "in_worker": process._killed_at_deadline, "seconds": deadline.seconds}
