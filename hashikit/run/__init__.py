"""Running work in other processes: :mod:`.workers` (one job with a deadline, in a one-off or a
pooled worker), :mod:`.batch` (many jobs, resumable, crashes become rows; its jobs, results,
seeds and sinks in :mod:`.jobs`) and :mod:`.cluster`
(the batch runner's executor on a Dask cluster).

May import: hashikit.errors and hashikit.limits only; it sits beside the model at the bottom, so the engines can use it.
"""
