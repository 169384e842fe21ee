"""The batch runner's vocabulary (:mod:`hashikit.run.batch` runs them): a **job** and its
**result**, the one seeding scheme (:func:`job_seed`), and the **sinks** that store one row per
result as it comes, so that a stopped run can be resumed."""

from __future__ import annotations

import csv
import hashlib
import json
import os
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Sequence

from ..limits import validate_seconds

__all__ = ["Job", "Result", "BatchError", "JsonLinesSink", "CsvSink", "jobs_from_records", "job_seed", "base_seed"]


class BatchError(Exception):
    """Bad use of the runner (duplicate keys, an output that cannot be resumed): one line for a person."""


# -- jobs and results --------------------------------------------------------------------------
@dataclass(frozen=True)
class Job:
    """One unit of work: ``fn(*args, **kwargs)`` in a worker; ``fn`` must be a module-level function.

    ``time_limit`` (seconds, optional) is the job's own limit: pass it to ``fn`` in ``args`` or
    ``kwargs`` as ``fn`` expects (the runner does not know its name).  The runner enforces it as a
    hard deadline only on its own process pool, ``grace`` seconds later, by ending its worker: a
    backstop for a job that does not keep its limit, never the normal way a job stops.
    """

    key: str
    fn: Callable[..., Any]
    args: tuple = ()
    kwargs: Mapping[str, Any] = field(default_factory=dict)
    time_limit: float | None = None

    def __post_init__(self) -> None:
        if self.time_limit is not None:  # a bad limit is refused where the job is made
            object.__setattr__(self, "time_limit", validate_seconds(self.time_limit))


@dataclass
class Result:
    """What one job gave.  ``seconds`` is the job's own run time in its worker (0 when unknown)."""

    key: str
    index: int
    ok: bool
    value: Any = None
    error: str = ""
    seconds: float = 0.0
    resumed: bool = False
    job: Job | None = None


def jobs_from_records(fn: Callable[..., Any], records: Iterable[Any], key: Callable[[Any], str] | None = None,
                      time_limit: float | None = None, **common) -> list[Job]:
    """One job ``fn(record, **common)`` per record; ``key(record)`` names it (default: the record's JSON)."""
    keyf = key or (lambda rec: json.dumps(rec, sort_keys=True, separators=(",", ":"), default=str))
    return [Job(keyf(rec), fn, (rec,), dict(common), time_limit) for rec in records]


# -- seeds -------------------------------------------------------------------------------------
def job_seed(base: int, *parts: int | str) -> int:
    """The seed of one job: a stable 63-bit hash of (base seed, the job's key parts).

    The one seeding scheme for every batch (generate --count, generate-suite, a cluster): the
    same on every run, machine, Python (no hash randomisation), worker count and job order, and
    different jobs get unrelated seeds (63 bits: no collision to expect below ~10^9 jobs).
    """
    text = json.dumps([int(base), *parts], separators=(",", ":"))
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big") >> 1


def base_seed(seed: int | None) -> int:
    """``seed`` itself, or a fresh random one (print it so the run can be repeated)."""
    return int(seed) if seed is not None else int.from_bytes(os.urandom(4), "big")


# -- sinks: one row per result, appended and flushed ------------------------------------------
def _repair_tail(path: str) -> None:
    """A run killed mid-write can leave a last line without its newline: end it before appending."""
    try:
        with open(path, "rb") as fh:
            fh.seek(0, os.SEEK_END)
            if fh.tell() == 0:
                return
            fh.seek(-1, os.SEEK_END)
            last = fh.read(1)
    except FileNotFoundError:
        return
    if last != b"\n":
        with open(path, "ab") as fh:
            fh.write(b"\n")


class JsonLinesSink:
    """Results as JSON lines ``{"key", "ok", "value", "error", "seconds"}``; values must be JSON data."""

    def __init__(self, path: str):
        self.path = path
        self._fh = None

    def load(self) -> dict[str, Result]:
        """The stored results by key (a later row of the same key wins; torn or foreign lines are skipped)."""
        out: dict[str, Result] = {}
        if not os.path.exists(self.path):
            return out
        with open(self.path, encoding="utf-8") as fh:
            for line in fh:
                try:
                    rec = json.loads(line)
                    key = rec["key"]
                except (ValueError, KeyError, TypeError):
                    continue
                out[str(key)] = Result(str(key), -1, bool(rec.get("ok")), rec.get("value"),
                                       rec.get("error") or "", float(rec.get("seconds") or 0.0), resumed=True)
        return out

    def open(self, append: bool) -> None:
        if append:
            _repair_tail(self.path)
        self._fh = open(self.path, "a" if append else "w", encoding="utf-8")

    def write(self, result: Result) -> None:
        rec = {"key": result.key, "ok": result.ok, "value": result.value, "error": result.error,
               "seconds": round(result.seconds, 6)}
        self._fh.write(json.dumps(rec, default=str) + "\n")
        self._fh.flush()

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None


class CsvSink:
    """Results as CSV rows with the caller's columns.

    ``row_of(result) -> dict`` makes the row of a result (an error result too); ``key_of(row)``
    gives back the job key from a stored row; ``result_of(row) -> (ok, value)`` reads a stored row
    back (default: ok, and the row itself as the value).
    """

    def __init__(self, path: str, fields: Sequence[str], row_of: Callable[[Result], dict],
                 key_of: Callable[[dict], str], result_of: Callable[[dict], tuple[bool, Any]] | None = None):
        self.path = path
        self.fields = list(fields)
        self.row_of = row_of
        self.key_of = key_of
        self.result_of = result_of or (lambda row: (True, row))
        self._fh = None
        self._writer = None

    def load(self) -> dict[str, Result]:
        out: dict[str, Result] = {}
        if not os.path.exists(self.path) or os.path.getsize(self.path) == 0:
            return out
        with open(self.path, newline="", encoding="utf-8") as fh:
            reader = csv.DictReader(fh)
            if reader.fieldnames != self.fields:
                raise BatchError(f"{self.path}: its columns are not {','.join(self.fields)}; "
                                 f"cannot resume into it (write to a new file)")
            for row in reader:
                if None in row or any(v is None for v in row.values()):
                    continue  # a torn last line, or a foreign one
                try:
                    ok, value = self.result_of(row)
                    key = self.key_of(row)
                except (ValueError, KeyError, TypeError):
                    continue
                out[key] = Result(key, -1, ok, value, resumed=True)
        return out

    def open(self, append: bool) -> None:
        fresh = not append or not os.path.exists(self.path) or os.path.getsize(self.path) == 0
        if not fresh:
            _repair_tail(self.path)
        self._fh = open(self.path, "w" if fresh else "a", newline="", encoding="utf-8")
        self._writer = csv.DictWriter(self._fh, fieldnames=self.fields, extrasaction="ignore")
        if fresh:
            self._writer.writeheader()
            self._fh.flush()

    def write(self, result: Result) -> None:
        self._writer.writerow(self.row_of(result))
        self._fh.flush()

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None
