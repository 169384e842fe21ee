"""A command's ``--time-limit``, kept for the whole process.

The clock starts when the process starts (:func:`hashikit.limits.process_start`: the
interpreter's start-up and the imports count), and the command makes one
:class:`~hashikit.limits.Deadline` from it that every stage takes: the engine's worker is
killed at it (plus ``limits.GRACE``), the deducer's and the generator's worker at it.
The stages that run in this process and cannot stop themselves (reading a large file, building
the puzzle, the admission checks, the rule checker on a found solution, preparing the output)
are covered by a hard stop: :func:`arm` sets a timer for the deadline plus
``limits.HARD_STOP``; if the command has not reached :func:`commit` (the point where it starts
writing its answer) by then, the timer kills this process's worker processes (grandchildren
included), writes the command's "unknown" answer and ends the process with exit 1.  So the
answer comes within the limit plus ``limits.TIME_MARGIN`` whatever stage the time went to.

The hard stop is armed only where this command is the process (``hashikit.cli.commands`` called
from the command line, in the main thread); a library or test calling ``main(argv)`` keeps the
deadline, counted from the call, without it.  ``signal`` and ``threading`` load only when a
deadline is armed: a command without ``--time-limit`` does not pay for them at start-up.
"""

from __future__ import annotations

import os
import time

from ..limits import HARD_STOP, Deadline, process_start

#: the answer the hard stop writes: (file descriptor or path, text, the temporary file beside that
#: path) triples; None when not armed
_answer: list[tuple[int | str, str, str | None]] | None = None


def begin(whole_process: bool) -> float:
    """The instant (monotonic) the command started: the process's start when it is the whole
    process, else now."""
    return process_start() if whole_process else time.monotonic()


def deadline_of(args) -> Deadline | None:
    """The command's deadline: ``--time-limit`` seconds after it started (None without one)."""
    if getattr(args, "time_limit", None) is None:
        return None
    return Deadline.after(args.time_limit, start=getattr(args, "started", None))


def arm(args, deadline: Deadline | None, answer: list[tuple[int | str, str]]) -> None:
    """Stop the command at ``deadline`` plus ``limits.HARD_STOP`` with ``answer`` (see the module's
    docstring), unless it reaches :func:`commit` first.  Does nothing without a deadline, or
    where the command is not the whole process."""
    global _answer
    if deadline is None or not getattr(args, "whole_process", False):
        return
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        return
    from ..files import part_of

    # a file answer is written beside its file and renamed over it, as every output is
    _answer = [(target, text, None if isinstance(target, int) else part_of(target)) for target, text in answer]
    signal.signal(signal.SIGALRM, _stop)
    signal.setitimer(signal.ITIMER_REAL, max(deadline.at + HARD_STOP - time.monotonic(), 1e-6))


def commit() -> None:
    """The answer is ready and about to be written: the hard stop no longer applies."""
    global _answer
    if _answer is not None:
        import signal

        _answer = None
        signal.setitimer(signal.ITIMER_REAL, 0)


def _stop(signum, frame) -> None:  # pragma: no cover - runs in a subprocess, tests see its exit
    import signal

    answer = _answer
    if answer is None:  # committed while the signal was on its way
        return
    for pid in _descendants():
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    for target, text, part in answer:
        data = (text if text.endswith("\n") else text + "\n").encode("utf-8")
        try:
            fd = target if part is None else os.open(part, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            while data:
                data = data[os.write(fd, data):]
            if part is not None:
                os.close(fd)
                os.replace(part, target)
        except OSError:
            pass
    os._exit(1)


def _descendants(root: int | None = None) -> list[int]:
    """The descendants of process ``root`` (default this one), children first, from ``/proc``;
    elsewhere this process's children as multiprocessing knows them."""
    me = os.getpid() if root is None else root
    try:
        parent_of = {}
        for name in os.listdir("/proc"):
            if name.isdigit():
                try:
                    with open(f"/proc/{name}/stat", "rb") as fh:
                        stat = fh.read()
                    parent_of[int(name)] = int(stat[stat.rindex(b")") + 2:].split()[1])
                except (OSError, ValueError, IndexError):
                    continue
    except OSError:
        import multiprocessing

        return [p.pid for p in multiprocessing.active_children() if p.pid]
    found, frontier = [], {me}
    while frontier:
        frontier = {pid for pid, ppid in parent_of.items() if ppid in frontier}
        found += frontier
    return found
