"""What a worker process does to itself: caps its memory and lowers its priority, hands back to
the system the heap a finished job freed, and ends when the process that owns it has gone.  Like
:mod:`.workers`, it imports nothing of hashikit."""

from __future__ import annotations

import os
import time
from typing import Any


def limit_self(memory: int | None = None, nice: int = 0) -> None:
    """Cap this process's address space at ``memory`` bytes (``RLIMIT_AS``: an allocation past it
    raises ``MemoryError``; never above the hard limit already set) and lower its CPU priority by
    ``nice``.  A cap or priority the system refuses is left as it is."""
    if memory is not None:
        try:
            import resource

            _, hard = resource.getrlimit(resource.RLIMIT_AS)
            cap = memory if hard == resource.RLIM_INFINITY else min(memory, hard)
            resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
        except (ImportError, ValueError, OSError):
            pass
    if nice:
        try:
            os.nice(nice)
        except OSError:
            pass


_trim: Any = None


def release_memory() -> None:
    """Hand back to the system the heap a finished job freed (glibc's ``malloc_trim``; elsewhere
    nothing).  glibc otherwise keeps it for the process: a worker that once read a large picture
    would hold that much for good, and a pool of them the sum."""
    global _trim
    if _trim is None:
        try:
            import ctypes

            _trim = ctypes.CDLL("libc.so.6").malloc_trim
        except (OSError, AttributeError):
            _trim = False
    if _trim:
        _trim(0)


def process_gone(pid: int) -> bool:
    """True once process ``pid`` has ended (a zombie, dead but not yet reaped, counts as ended)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as fh:
            return fh.read().rsplit(")", 1)[-1].split()[0] == "Z"
    except OSError:
        return False


def watch_owner(pid: int, every: float = 1.0) -> None:  # pragma: no cover - in the workers
    while not process_gone(pid):
        time.sleep(every)
    os._exit(70)
