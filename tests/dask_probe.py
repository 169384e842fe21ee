"""Loaded into a ``dask scheduler`` (``--preload dask_probe``) by :mod:`dask_procs`: every 20 ms it
writes to ``$HASHIKIT_DASK_PROBE`` (JSON, replaced atomically) the workers attached, their threads,
``busy`` (threads that hold a task: per worker, its tasks processing up to its threads), ``tasks``
(tasks processing), ``held`` (tasks submitted and not finished: processing, queued or waiting for
a worker; that is, the client's jobs in flight) and the most of each since the start or the last
reset (``max_busy``, ``max_tasks``, ``max_held``; a file ``probe.reset`` beside it resets them,
and the probe removes it), and ``busy_samples``: how many samples saw each ``busy`` count while
the client had any task unfinished (a run going on).  ``max_held`` is counted at every change of
a task's state (a scheduler plugin), not only in the samples: a full window can last less than
20 ms when jobs are short and the machine is busy."""

from __future__ import annotations

import json
import os


def dask_setup(scheduler) -> None:
    from tornado.ioloop import PeriodicCallback

    path = os.environ["HASHIKIT_DASK_PROBE"]
    reset = os.path.join(os.path.dirname(path), "probe.reset")
    state = {"max_busy": 0, "max_tasks": 0, "max_held": 0, "busy_samples": {}}
    unfinished = ("processing", "queued", "no-worker", "waiting")

    from distributed.diagnostics.plugin import SchedulerPlugin

    class Held(SchedulerPlugin):
        def transition(self, key, start, finish, *args, **kwargs) -> None:
            held = sum(1 for ts in scheduler.tasks.values() if ts.state in unfinished)
            state["max_held"] = max(state["max_held"], held)

    scheduler.add_plugin(Held(), name="hashikit-probe-held")

    def sample() -> None:
        if os.path.exists(reset):
            state.update(max_busy=0, max_tasks=0, max_held=0, busy_samples={})
            os.unlink(reset)
        workers = list(scheduler.workers.values())
        busy = sum(min(len(ws.processing), ws.nthreads) for ws in workers)
        tasks = sum(len(ws.processing) for ws in workers)
        state["max_busy"] = max(state["max_busy"], busy)
        held = sum(1 for ts in scheduler.tasks.values() if ts.state in unfinished)
        state["max_tasks"] = max(state["max_tasks"], tasks)
        state["max_held"] = max(state["max_held"], held)
        threads = sum(ws.nthreads for ws in workers)
        if held:
            state["busy_samples"][str(busy)] = state["busy_samples"].get(str(busy), 0) + 1
        doc = {"workers": len(workers), "threads": threads, "busy": busy,
               "tasks": tasks, "held": held, **state}
        with open(path + ".tmp", "w") as fh:
            json.dump(doc, fh)
        os.replace(path + ".tmp", path)

    scheduler._hashikit_probe = PeriodicCallback(sample, 20)
    scheduler._hashikit_probe.start()
