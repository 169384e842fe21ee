"""Benchmark runs: the puzzle files to solve, the engines' options, one run of one engine on one
file (checked by the rule checker), many runs on the batch runner with a CSV row each, and the
CSV read back.  :mod:`.tables` turns the rows into tables."""

from __future__ import annotations

import csv
import json
import os
import random
import re
import time
from collections import defaultdict
from dataclasses import dataclass, field

from ..run.batch import CsvSink, Job, Result, run_batch


HS_NAME = re.compile(r"^Hs_(\d+)_(\d+)_(\d+)_(\d+)_(\d+)$")

CSV_FIELDS = ["file", "group", "n", "alpha", "beta", "engine", "status", "time", "rounds", "cuts",
              "nodes", "valid", "islands", "message"]


class BenchError(Exception):
    """Bad input for the bench command: one line, exit 2."""


# -- finding files ---------------------------------------------------------------------
def puzzle_extensions() -> tuple[str, ...]:
    """File endings a hashikit reader accepts (longest first, so ``.sol.json`` wins over ``.json``)."""
    from ..formats import formats

    exts = {ext for f in formats().values() if f.read for ext in f.extensions}
    return tuple(sorted(exts, key=len, reverse=True))


#: tables that hashikit writes beside puzzles (generate's index): about puzzles, never puzzles
INDEX_NAMES = ("index.csv", "index.json")


def is_result_table(path: str) -> bool:
    """generate's ``index.csv``/``index.json``, or a CSV whose header starts ``file,`` (bench's own rows)."""
    name = os.path.basename(path).lower()
    if name in INDEX_NAMES:
        return True
    if not name.endswith(".csv"):
        return False
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            return fh.readline(200).startswith("file,")
    except OSError:
        return False


def find_puzzles(paths: list[str]) -> list[str]:
    """Files named on the command line, and every readable puzzle file under named folders (recursively).

    In folders, README files and the tables hashikit writes (:func:`is_result_table`) are skipped.
    """
    exts = puzzle_extensions()
    found: list[str] = []
    for p in paths:
        if os.path.isdir(p):
            for root, dirs, files in os.walk(p):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                for name in sorted(files):
                    low = name.lower()
                    if name.startswith(".") or low.startswith("readme"):
                        continue
                    path = os.path.join(root, name)
                    if low.endswith(exts) and not is_result_table(path):
                        found.append(path)
        elif os.path.isfile(p):
            found.append(p)
        else:
            raise BenchError(f"{p}: no such file or folder")
    seen: set[str] = set()
    out = []
    for f in found:
        key = os.path.realpath(f)
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out


def hs_fields(path: str) -> tuple[int, int, int, int] | None:
    """(side, n, alpha, beta) of a file named ``Hs_<side>_<n>_<alpha>_<beta>_<idx>.has``, else None."""
    name = os.path.basename(path)
    stem = name.split(".", 1)[0]
    m = HS_NAME.match(stem)
    if not m:
        return None
    side, n, alpha, beta, _ = map(int, m.groups())
    return side, n, alpha, beta


def hs_group(path: str) -> str | None:
    f = hs_fields(path)
    return None if f is None else f"{f[1]}_{f[2]:02d}_{f[3]:02d}"


def sample_files(files: list[str], k: int, seed: int | None) -> list[str]:
    """``k`` files per Hs group (files without an Hs name count as one group), chosen with ``seed``."""
    rng = random.Random(seed)
    groups: dict[str, list[str]] = defaultdict(list)
    for f in files:
        groups[hs_group(f) or "other"].append(f)
    chosen: set[str] = set()
    for g in sorted(groups):
        members = groups[g]
        chosen.update(rng.sample(members, min(k, len(members))))
    return [f for f in files if f in chosen]


# -- engine options --------------------------------------------------------------------
_TRUE, _FALSE = ("true", "yes", "on", "1"), ("false", "no", "off", "0")


def _literal(text: str):
    """A value's type guessed from its text: only where the engine registry declares no options yet."""
    low = text.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    if low in ("none", "null"):
        return None
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return text


def _as_type(text: str, kind: type, item: str):
    """``text`` read as the type the engine declares for the option (a bad value is bad input)."""
    low = text.strip().lower()
    try:
        if kind is bool:
            if low in _TRUE or low in _FALSE:
                return low in _TRUE
            raise ValueError
        if kind is int:
            return int(text)
        if kind is float:
            return float(text)
        if kind is dict:
            value = json.loads(text)
            if not isinstance(value, dict):
                raise ValueError
            return value
        if kind is str:
            return text
    except ValueError:
        what = {bool: "true or false", int: "a whole number", float: "a number",
                dict: 'a JSON object such as {"key": 1}'}.get(kind, kind.__name__)
        raise BenchError(f"--engine-option {item!r}: the value must be {what}") from None
    return _literal(text)


def declared_options(engine: str) -> dict[str, type] | None:
    """The options ``engine`` declares (``solvers.capabilities``), or None where the registry has none."""
    from .. import solvers

    if not hasattr(solvers, "capabilities"):  # the engine contract not landed: options are not checked here
        return None
    return dict(solvers.capabilities(engine).options)


def parse_engine_options(items: list[str] | None, engines: list[str]) -> dict[str, dict]:
    """``key=value`` (every engine) or ``engine.key=value`` (that engine) -> {engine: {key: value}}.

    An option an engine does not declare is refused here, before any work, with the engine's list;
    values are read as the declared type.
    """
    out: dict[str, dict] = {e: {} for e in engines}
    for item in items or []:
        if "=" not in item:
            raise BenchError(f"--engine-option {item!r}: expected key=value or engine.key=value")
        key, value = item.split("=", 1)
        key = key.strip()
        target = engines
        if "." in key:
            eng, key = key.split(".", 1)
            if eng not in out:
                raise BenchError(f"--engine-option {item!r}: engine {eng!r} is not benchmarked "
                                 f"(--engine {','.join(engines)})")
            target = [eng]
        if not key.isidentifier():
            raise BenchError(f"--engine-option {item!r}: {key!r} is not an option name")
        if key in ("time_limit", "max_solutions"):
            raise BenchError(f"--engine-option {item!r}: {key} is set by bench itself")
        for e in target:
            declared = declared_options(e)
            if declared is None:
                out[e][key] = _literal(value)
            elif key not in declared:
                raise BenchError(f"--engine-option {item!r}: engine {e!r} has no option {key!r} "
                                 f"(its options: {', '.join(declared) or 'none'})")
            else:
                out[e][key] = _as_type(value, declared[key], item)
    return out


def validate_engines(names: list[str]) -> None:
    """Raise BenchError for an unknown engine, or one whose optional package is missing (with its install hint)."""
    from ..errors import SolverUnavailable
    from ..solvers import ENGINES, get_engine

    for name in names:
        if name not in ENGINES:
            raise BenchError(f"unknown engine {name!r}; choose from {', '.join(ENGINES)}")
        try:
            get_engine(name)
        except SolverUnavailable as exc:
            raise BenchError(str(exc)) from None


# -- one run ---------------------------------------------------------------------------
def empty_row(path: str, engine: str) -> dict:
    """The row of one (file, engine) pair before it runs: what the file name tells."""
    fields = hs_fields(path)
    return {"file": path, "group": hs_group(path) or "", "engine": engine,
            "n": fields[1] if fields else "", "alpha": fields[2] if fields else "",
            "beta": fields[3] if fields else "", "status": "", "time": "", "rounds": "",
            "cuts": "", "nodes": "", "valid": "", "islands": "", "message": ""}


def run_one(task: tuple[str, str, float | None, dict]) -> dict:
    """Read, solve and check one (file, engine) pair; always returns a row (never raises)."""
    path, engine, time_limit, options = task
    row = empty_row(path, engine)
    try:
        from ..errors import HashikitError
        from ..formats import read_file

        doc = read_file(path)
        if doc.puzzle is None:
            raise HashikitError(f"{path}: holds a solution without its puzzle")
    except Exception as exc:  # bad input: reported in the row, exit 2 at the end
        row.update(status="unreadable", message=str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
        return row
    puzzle = doc.puzzle
    row["islands"] = len(puzzle.islands)
    if row["n"] == "":
        row["n"] = len(puzzle.islands)
    try:
        from ..checker import check
        from ..solvers import solve

        result = solve(puzzle, engine=engine, time_limit=time_limit, **options)
        st = result.stats
        row.update(status=result.status.value, time=float(st.get("time", 0.0)),
                   rounds=st.get("rounds", ""), cuts=st.get("cuts", ""), nodes=st.get("nodes", ""))
        if result.solution is not None:
            report = check(puzzle, result.solution)
            row["valid"] = bool(report.ok)
            if not report.ok:
                row["message"] = "WRONG ANSWER: " + "; ".join(str(v) for v in report.violations[:3])
        elif result.reason:
            row["message"] = result.reason
    except Exception as exc:  # an engine crash is a failure of the run, not bad input
        row.update(status="error", message=f"{type(exc).__name__}: {exc}".splitlines()[0])
    return row


def _init_worker() -> None:  # pragma: no cover - runs in the worker processes
    import hashikit.checker  # noqa: F401  (import once per worker)
    import hashikit.formats
    import hashikit.solvers  # noqa: F401

    hashikit.formats.formats()


#: modules every worker needs, imported once by the batch runner's fork server
WORKER_PRELOAD = ("hashikit.checker", "hashikit.formats", "hashikit.solvers", "hashikit.solvers.sat")


# -- running many ----------------------------------------------------------------------
@dataclass
class BenchResult:
    rows: list[dict]
    engines: list[str]
    wall: float = 0.0
    options: dict = field(default_factory=dict)

    def wrong(self) -> list[dict]:
        return [r for r in self.rows if r["valid"] is False]

    def errors(self) -> list[dict]:
        return [r for r in self.rows if r["status"] == "error"]

    def unreadable(self) -> list[dict]:
        return [r for r in self.rows if r["status"] == "unreadable"]


def _cross_check(rows: list[dict]) -> None:
    """An engine that says infeasible where another found a checked solution gave a wrong answer."""
    by_file: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        by_file[r["file"]].append(r)
    for rs in by_file.values():
        solvers = [r["engine"] for r in rs if r["status"] == "solved" and r["valid"] is True]
        if not solvers:
            continue
        for r in rs:
            if r["status"] == "infeasible":
                r["valid"] = False
                r["message"] = f"WRONG ANSWER: infeasible, but {solvers[0]} found a checked solution"


def job_key(path: str, engine: str) -> str:
    """The batch key of one (file, engine) pair: it names the pair's CSV row for --resume."""
    return f"{engine}:{path}"


def bench_jobs(files: list[str], engines: list[str], time_limit: float | None,
               options: dict[str, dict]) -> list[Job]:
    """One batch job per (file, engine) pair, files outer: ``run_one`` keeps its own time limit."""
    return [Job(job_key(f, e), run_one, ((f, e, time_limit, options.get(e, {})),), time_limit=time_limit)
            for f in files for e in engines]


def row_of(result: Result) -> dict:
    """A bench row from a batch result: the job's own row, or an error row when its worker failed."""
    if result.ok:
        return result.value
    path, engine = result.job.args[0][:2]
    row = empty_row(path, engine)
    row.update(status="error", message=f"worker failed: {result.error}")
    return row


def progress_path(out: str) -> str:
    """Where the rows of a run writing ``out`` stream as each pair finishes: ``OUT.progress``, beside
    it (``out`` itself is written whole at the end); what ``--resume`` continues from."""
    return f"{out}.progress"


def csv_sink(path: str) -> CsvSink:
    """The bench CSV as the batch runner's sink: a row appended and flushed per finished pair."""
    return CsvSink(path, CSV_FIELDS, row_of=lambda r: _csv_record(row_of(r)),
                   key_of=lambda row: job_key(row["file"], row["engine"]),
                   result_of=lambda row: (True, _typed_row(row)))


def run_bench(files: list[str], engines: list[str], jobs: int | None = None, time_limit: float | None = 60.0,
              options: dict[str, dict] | None = None, progress: bool = True, csv_path: str | None = None,
              resume: bool = False, executor=None) -> BenchResult:
    """Solve every (file, engine) pair on ``jobs`` worker processes (in this process when jobs == 1).

    ``csv_path``: written whole at the end, in file order with the cross-check's verdicts; meanwhile
    rows stream to :func:`progress_path` as they finish (removed at the end; a stopped run leaves
    ``csv_path`` as it was).  ``resume``: the pairs already in the progress file (else in
    ``csv_path``) are not run again.
    ``executor``: another concurrent.futures Executor (e.g. a cluster's) instead of the local pool.
    """
    options = options or {e: {} for e in engines}
    batch = bench_jobs(files, engines, time_limit, options)
    workers = max(1, min(jobs or os.cpu_count() or 1, len(batch) or 1))
    start = time.perf_counter()
    progress_file = progress_path(csv_path) if csv_path else None
    if csv_path and resume and not os.path.exists(progress_file) and os.path.exists(csv_path):
        from ..files import write

        with open(csv_path, "rb") as fh:  # the finished rows of an earlier run, to go on from
            write(progress_file, fh.read())
    results = run_batch(batch, workers=workers, executor=executor, inline=(workers == 1 and executor is None),
                        sink=csv_sink(progress_file) if csv_path else None, resume=resume, progress=progress,
                        label="bench", initializer=_init_worker, preload=WORKER_PRELOAD)
    rows = [(r.index, row_of(r)) for r in results]
    rows = [row for _, row in sorted(rows, key=lambda ir: ir[0])]
    _cross_check(rows)
    if csv_path:
        write_csv(rows, csv_path)
        os.unlink(progress_file)
    return BenchResult(rows, list(engines), time.perf_counter() - start, options)


# -- CSV -------------------------------------------------------------------------------
def _csv_record(row: dict) -> dict:
    rec = dict(row)
    if isinstance(rec["time"], float):
        rec["time"] = f"{rec['time']:.6f}"
    return rec


def write_csv(rows: list[dict], out: str) -> None:
    """All rows at once, replacing ``out`` whole (a stop half-way leaves the old file, not half a new one)."""
    from ..files import replacing

    with replacing(out, newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=CSV_FIELDS)
        w.writeheader()
        for r in rows:
            w.writerow(_csv_record(r))


def _typed_row(rec: dict) -> dict:
    """A CSV row with its numbers and ``valid`` (True/False/"") typed back."""
    rec = dict(rec)
    for k in ("n", "alpha", "beta", "rounds", "cuts", "nodes", "islands"):
        if rec.get(k, "") != "":
            rec[k] = int(rec[k])
    if rec.get("time", "") != "":
        rec["time"] = float(rec["time"])
    rec["valid"] = {"True": True, "False": False}.get(rec.get("valid", ""), "")
    return rec


def read_csv(path: str) -> list[dict]:
    """Rows of a bench CSV, typed back (numbers, valid as True/False/"")."""
    with open(path, newline="", encoding="utf-8") as fh:
        return [_typed_row(rec) for rec in csv.DictReader(fh)]
