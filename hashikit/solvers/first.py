"""The first model of a large board from a portfolio: the same clauses on several CaDiCaLs, each
with options of its own, one forked process each; the first answer wins and the others are killed.

python-sat holds the GIL while CaDiCaL searches (two threads solving take the time of both, one after
the other), so the members are processes.  They are forked: the clauses are not copied through a
pipe, and a member starts in milliseconds.  Each member builds its solver, solves, and writes back its
answer (``b"S"`` and the model as 32-bit integers, or ``b"U"``) and the CPU seconds it spent; the
caller reads the first answer, kills the rest and reaps every member before it returns, whatever
happens (an exception, Ctrl-C, the deadline).  A member that dies (out of memory, killed from
outside) leaves the others to answer.  Every member dies with the process that forked it (Linux:
``PR_SET_PDEATHSIG``), so a caller killed at its deadline leaves nothing behind.

An answer is sound whichever member gives it: every member holds the very same clauses, so "no
model" from one is a proof.  Without ``os.fork`` (or with fewer than two members wanted)
:func:`portfolio` returns None and the caller solves in its own process.
"""

from __future__ import annotations

import gc
import os
import select
import signal
import struct
import sys
import time
from array import array
from functools import lru_cache
from itertools import chain

from .cadical import CADICAL, open_solver

#: what a member sends first: its answer (S, U or E) and the CPU seconds of its load and its solve
_HEAD = struct.Struct("<cdd")
#: the ``prctl`` option that has the kernel kill a process when its parent ends
_PR_SET_PDEATHSIG = 1


class Answer:
    """A portfolio's answer: ``sat`` (True, False, or None when no member answered in time),
    the ``model`` (a list of literals) when True, and what each member did."""

    def __init__(self, sat: bool | None, model: list[int] | None, winner: int | None, load: float, cpu: float,
                 wall: float, ended: list[str]):
        self.sat, self.model, self.winner = sat, model, winner
        self.load, self.cpu, self.wall, self.ended = load, cpu, wall, ended
        self.pids: list[int] = []  # the members' process ids (all of them ended and reaped)


def available() -> bool:
    """Members can be forked here."""
    return hasattr(os, "fork") and sys.platform.startswith("linux")


@lru_cache(maxsize=None)
def _prctl():
    """libc's ``prctl`` (looked up in the caller, once: not in every member), or None."""
    import ctypes

    try:
        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


def _die_with_parent(parent: int) -> None:
    """Have the kernel kill this process when ``parent`` ends (and end now if it already has)."""
    prctl = _prctl()
    if prctl is not None:
        prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)


def _member(flat: tuple[array, array], options: dict[str, int], out: int, parent: int) -> None:
    """A member's whole life, in the forked process: never returns.  ``flat`` is the clauses'
    lengths and their literals one after another: reading them copies none of the caller's pages,
    where walking its lists of lists would (each object read has its reference count written)."""
    try:
        _die_with_parent(parent)
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the caller's to report; it kills us
        gc.disable()  # a full collection would write to every object of the caller's heap
        began = time.process_time()
        solver = open_solver(CADICAL, [], options)
        add, lengths, literals, at = solver.add_clause, flat[0], flat[1], 0
        for n in lengths:
            add(literals[at:at + n])
            at += n
        loaded = time.process_time()
        sat = solver.solve()
        spent = time.process_time()
        if sat:
            body = array("i", solver.get_model()).tobytes()
            head = _HEAD.pack(b"S", loaded - began, spent - loaded)
        else:
            body, head = b"", _HEAD.pack(b"U", loaded - began, spent - loaded)
        view = memoryview(head + body)
        while view:
            view = view[os.write(out, view):]
    except BaseException:
        os._exit(1)
    os._exit(0)  # no cleanup: the solver's memory goes with the process


def _read_all(fd: int) -> bytes:
    chunks = []
    while True:
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def portfolio(clauses, configs: list[dict[str, int]], deadline_at: float | None = None) -> Answer | None:
    """The first answer of CaDiCaL on ``clauses`` with each of ``configs`` (its options), each in a
    forked process; None when no member can be forked here.  ``deadline_at`` (a ``time.monotonic()``
    instant): no answer by then is ``sat=None``.  Every member is killed and reaped before this returns."""
    if not available() or not configs:
        return None
    start = time.monotonic()
    parent = os.getpid()
    members: dict[int, int] = {}  # read end -> pid
    pids: list[int] = []
    order: dict[int, int] = {}  # read end -> the member's index in configs
    ended: list[str] = []
    _prctl()
    flat = (array("i", map(len, clauses)), array("i", chain.from_iterable(clauses)))
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        for index, options in enumerate(configs):
            read, write = os.pipe()
            try:
                pid = os.fork()
            except OSError:  # no process to be had (a limit on processes or memory): fewer members
                os.close(read)
                os.close(write)
                break
            if pid == 0:  # the member
                os.close(read)
                _member(flat, options, write, parent)
            os.close(write)
            members[read], order[read] = pid, index
            pids.append(pid)
        if not members:
            return None
        while members:
            wait = None if deadline_at is None else max(0.0, deadline_at - time.monotonic())
            ready, _, _ = select.select(list(members), [], [], wait)
            if not ready:
                ended.append("deadline")
                return _ended(Answer(None, None, None, 0.0, 0.0, time.monotonic() - start, ended), pids)
            for fd in ready:
                data = _read_all(fd)
                pid = members.pop(fd)
                os.close(fd)
                _reap(pid)
                if len(data) < _HEAD.size or data[:1] not in (b"S", b"U"):
                    ended.append(f"member {order[fd]} ended without an answer")
                    continue
                kind, load, cpu = _HEAD.unpack_from(data)
                model = array("i")
                model.frombytes(data[_HEAD.size:])
                ended.append(f"member {order[fd]} answered")
                return _ended(Answer(kind == b"S", model.tolist() if kind == b"S" else None, order[fd], load, cpu,
                                     time.monotonic() - start, ended), pids)
        return _ended(Answer(None, None, None, 0.0, 0.0, time.monotonic() - start, ended), pids)
    finally:
        for fd, pid in members.items():
            _kill(pid)
            os.close(fd)


def _ended(answer: Answer, pids: list[int]) -> Answer:
    answer.pids = pids
    return answer


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    _reap(pid)


def _reap(pid: int) -> None:
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass
