"""The lazy loop every engine shares, written once: solve, cut, enumerate, stop at the deadline.

An engine models the degree and crossing rules; the loop adds the rest lazily.  Its vocabulary:

- *counts*: bridges per link, aligned with ``puzzle.links``;
- a *split cut* for a group ``S`` of islands: "some link leaving ``S`` carries a bridge"
  (one per group, for *every* group, whenever the bridges fall apart);
- a *cycle cut* (no-loops variant only): "not all of these links are used", for the links of
  one cycle of used links (one per link that closes a cycle);
- a *no-good*: "some link's count differs from these counts", which excludes one solution
  so that the next solve finds another (``max_solutions``: uniqueness and enumeration).

An engine plugs in through a :class:`Backend`.  The loop says "infeasible" only when the
backend proved it, and ``stopped="time limit"`` only when the deadline was actually reached.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from ..limits import Deadline
from ..model import Puzzle, Solution
from .base import SolveResult, Status
from .graph import DisjointSets, components

TIME_LIMIT = "time limit"


class Backend:
    """What an engine gives the loop (any object with these four methods)."""

    def solve(self, deadline: Deadline | None) -> tuple[Status, list[int] | None]:
        """(SOLVED, counts) for an assignment meeting every constraint added so far;
        (INFEASIBLE, None) when proved there is none; (UNKNOWN, None) at the deadline."""

    def require_one(self, links: Sequence[int]) -> None:
        """Add "some link in ``links`` carries a bridge" (an empty list makes the model infeasible)."""

    def forbid_all(self, links: Sequence[int]) -> None:
        """Add "not every link in ``links`` carries a bridge"."""

    def exclude(self, counts: Sequence[int]) -> None:
        """Add the no-good of ``counts``."""


def used_links(counts: Sequence[int]) -> list[int]:
    return [k for k, c in enumerate(counts) if c]


def split_cuts(puzzle: Puzzle, used: Sequence[int], capacities: Sequence[int] | None = None) -> list[list[int]]:
    """For every group of islands that ``used`` links join, the links leaving it that can carry a
    bridge (``capacities[k] > 0``; every link when ``capacities`` is None); ``[]`` when ``used`` joins every island.
    (Hot: called once per round on every engine, hence the plain loops.)"""
    links = puzzle.links
    groups = components(len(puzzle.islands), ((links[k].a, links[k].b) for k in used))
    if len(groups) == 1:
        return []
    group_of = [0] * len(puzzle.islands)
    for g, group in enumerate(groups):
        for i in group:
            group_of[i] = g
    incident = puzzle.incident
    cuts = []
    for g, group in enumerate(groups):
        cut = []
        for i in group:
            for k in incident[i]:
                a, b, _ = links[k]
                if group_of[b if a == i else a] != g and (capacities is None or capacities[k]):
                    cut.append(k)
        cuts.append(cut)
    return cuts


def cycle_cuts(puzzle: Puzzle, used: Sequence[int]) -> list[list[int]]:
    """One cycle of used links per used link that closes a cycle (the fundamental cycles of a
    spanning forest): the no-loops rule forbids each of them."""
    links = puzzle.links
    n = len(puzzle.islands)
    sets = DisjointSets(n)
    tree: list[list[tuple[int, int]]] = [[] for _ in range(n)]  # island -> (neighbour, link)
    closing = []
    for k in used:
        a, b = links[k].a, links[k].b
        if not sets.union(a, b):
            closing.append(k)
        else:
            tree[a].append((b, k))
            tree[b].append((a, k))
    return [[k] + _tree_path(tree, links[k].a, links[k].b) for k in closing]


def _tree_path(tree: list[list[tuple[int, int]]], start: int, goal: int) -> list[int]:
    """The links on the forest path from ``start`` to ``goal`` (breadth-first)."""
    back: dict[int, tuple[int, int]] = {start: (-1, -1)}
    queue = [start]
    for node in queue:
        if node == goal:
            break
        for nxt, k in tree[node]:
            if nxt not in back:
                back[nxt] = (node, k)
                queue.append(nxt)
    path = []
    node = goal
    while node != start:
        node, k = back[node]
        path.append(k)
    return path


def past(deadline: Deadline | None) -> bool:
    return deadline is not None and deadline.expired()


def left(deadline: Deadline | None, cap: float = 1e9) -> float | None:
    """Seconds left before ``deadline`` (None: no deadline), at most ``cap``."""
    if deadline is None:
        return None
    return min(cap, deadline.left())


def run(puzzle: Puzzle, backend: Backend, *, max_solutions: int = 1, deadline: Deadline | None = None,
        stats: dict, report: Callable[[list[int]], None] | None = None,
        capacities: Sequence[int] | None = None, enforces_splits: bool = False
        ) -> tuple[Status, list[list[int]], bool, str | None]:
    """Solve until ``max_solutions`` solutions, a proof that there are no more, or the deadline.

    Returns ``(status, counts of each solution, complete, stopped)``; ``report`` is called with each
    solution's counts as soon as it is found (so a caller that is ended at the deadline keeps them).
    ``enforces_splits``: the backend already returns only connected assignments.
    """
    stats.setdefault("rounds", 0)
    stats.setdefault("cuts", 0)
    found: list[list[int]] = []
    status = Status.UNKNOWN
    stopped = None
    while len(found) < max_solutions:
        if past(deadline):
            stopped = TIME_LIMIT
            break
        stats["rounds"] += 1
        status, counts = backend.solve(deadline)
        if counts is None:
            if status is Status.UNKNOWN:
                stopped = TIME_LIMIT if deadline is not None else "the engine stopped without an answer"
            break
        used = used_links(counts)
        cuts = [] if enforces_splits else split_cuts(puzzle, used, capacities)
        for links in cuts:
            backend.require_one(links)
        stats["cuts"] += len(cuts)
        if cuts:
            continue
        if puzzle.no_loops:
            cycles = cycle_cuts(puzzle, used)
            for links in cycles:
                backend.forbid_all(links)
            stats["cycle_cuts"] = stats.get("cycle_cuts", 0) + len(cycles)
            if cycles:
                continue
        found.append(list(counts))
        if report is not None:
            report(found[-1])
        if len(found) < max_solutions:
            backend.exclude(counts)
    complete = bool(found) and status is Status.INFEASIBLE
    if found:
        return Status.SOLVED, found, complete, stopped
    # nothing found: "infeasible" only when the last solve proved it; a deadline reached after a
    # disconnected (SOLVED-by-the-backend) assignment is "unknown", never "solved" without a solution
    return (Status.INFEASIBLE if status is Status.INFEASIBLE else Status.UNKNOWN), found, complete, stopped


def result(puzzle: Puzzle, engine: str, status: Status, found: list[list[int]], complete: bool,
           stopped: str | None, stats: dict, start: float, proved_by: str) -> SolveResult:
    """The SolveResult of a run (``stats["time"]`` counted from ``start``, a ``time.monotonic()``)."""
    stats["time"] = time.monotonic() - start
    solutions = [Solution.from_counts(puzzle, c) for c in found]
    reason = None
    if not found and status is Status.INFEASIBLE:
        reason = f"proved by {proved_by} (no assignment meets the degree, crossing and connectivity rules)"
    return SolveResult(status, solutions[0] if solutions else None, engine=engine, solutions=solutions,
                       complete=complete, reason=reason, stats=stats, stopped=stopped)


def simple_result(engine: str, reason: str, stats: dict, start: float) -> SolveResult:
    stats["time"] = time.monotonic() - start
    return SolveResult(Status.INFEASIBLE, engine=engine, reason=reason, stats=stats)


def _interrupt_can_land() -> bool:
    """A KeyboardInterrupt can be raised in this thread: the main thread, SIGINT not ignored."""
    import signal
    import threading

    return (threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGINT) is not signal.SIG_IGN)


def interruptible(call: Callable[[], object], stop: Callable[[], None]):
    """Run ``call()`` in a helper thread so that Ctrl-C reaches this thread at once: on
    KeyboardInterrupt, ``stop()`` asks the solver to stop, and the interrupt is raised again
    once it has (solvers in C would otherwise swallow it or hold it until they finish).

    Where no Ctrl-C can arrive (a thread other than the main one, or SIGINT ignored: the worker
    processes of a pool, a batch or a time-limited solve) ``call()`` runs here: a thread per
    solve costs SCIP about a third more CPU on a 400-island instance."""
    if not _interrupt_can_land():
        return call()
    import threading

    box: dict = {}

    def target() -> None:
        try:
            box["value"] = call()
        except BaseException as exc:  # handed to the calling thread
            box["error"] = exc

    worker = threading.Thread(target=target, name="hashikit-solve", daemon=True)
    worker.start()
    try:
        while worker.is_alive():
            worker.join(0.5)
    except KeyboardInterrupt:
        # asked again until the solver has stopped: a stop that comes while the solver is still
        # setting up (before its search starts) is ignored by SCIP, and the search would run on
        while worker.is_alive():
            stop()
            worker.join(0.05)
        raise
    if "error" in box:
        raise box["error"]
    return box["value"]
