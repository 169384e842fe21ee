"""``hashikit bench``: solve many puzzles with one or more engines, verify every answer, tabulate.

Each (instance, engine) pair runs in a worker process (``--jobs``); the time
reported is the engine's own in-process ``stats["time"]`` (model building
included, process start-up and file reading excluded).  Every solution is
checked by :func:`hashikit.checker.check`; a solution that breaks a rule, or an
"infeasible" answer for a puzzle another engine solved (with a checked
solution), is a *wrong answer*: it is marked ``valid = False`` and makes the
exit code 1.

Files named like the Coelho et al. (2019) benchmark, ``Hs_<side>_<n>_<alpha>_<beta>_<idx>.has``,
are tabulated like the paper's Table 1 (rows n x alpha, columns beta) beside the
paper's published means; other files are grouped by island count.

Exit codes: 0 every answer verified; 1 a wrong answer or an engine crash; 2 bad
input (no puzzle files, unknown or missing engine, an option the engine does not declare,
unreadable files).

The jobs run on :mod:`hashikit.run.batch` (the one runner: crashed workers become error rows, rows
are streamed to the CSV as they finish, ``--resume`` skips the pairs already in it, Ctrl-C ends
the workers).  The library part (finding files, running, tables) comes first; the command
(``add_parser``, ``run``) is the small part at the end.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import random
import re
import statistics
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from .argtypes import positive_int, time_limit as time_limit_arg
from ..run.batch import CsvSink, Job, Result, run_batch
from .common import EXIT_BAD, EXIT_NO, EXIT_OK  # bench: verified, a wrong answer or crash, bad input

# -- the paper's published numbers ---------------------------------------------------
# L. C. Coelho, G. Laporte, A. Lindbeck, T. Vidal, "Benchmark Instances and
# Branch-and-Cut Algorithm for the Hashiwokakero Puzzle", arXiv:1905.00973 (2019).
# Gurobi 8.0 branch-and-cut.  Only the aggregate numbers below were available to
# us (from the benchmark's README); the paper's per-group (n x alpha x beta) cells
# of Table 1 could not be found in our reference search, so they are NOT given
# here and no per-cell comparison is made.
#: Table 1 (with the weak connectivity constraint): mean time (s) per island count n.
PAPER_TABLE1_MEAN_TIME = {100: 0.16, 200: 1.13, 300: 6.32, 400: 36.94}
#: Table 1 over all 1440 instances: mean time (s) and mean number of connectivity cuts.
PAPER_TABLE1_OVERALL_TIME = 11.14
PAPER_TABLE1_OVERALL_CUTS = 31.90
#: Table 1: the hardest group, n = 400 and alpha = 75, mean time (s).
PAPER_HARDEST_GROUP = (400, 75)
PAPER_HARDEST_GROUP_TIME = 103.43
#: Table 2 (without the weak connectivity constraint), over all 1440 instances.
PAPER_TABLE2_OVERALL_TIME = 13.86
PAPER_TABLE2_OVERALL_CUTS = 54.33
PAPER_FOOTNOTE = (
    "Paper: Coelho, Laporte, Lindbeck & Vidal (2019), arXiv:1905.00973, Gurobi 8.0 branch-and-cut "
    "on the authors' machine. Only the published per-n means, the overall means and the hardest "
    "group's mean are reproduced here; the paper's per-cell (n x alpha x beta) numbers of Table 1 "
    "were not available to us, so cells are shown without a paper value.")

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


def check_engines(names: list[str]) -> None:
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

    def exit_code(self) -> int:
        if self.wrong() or self.errors():
            return EXIT_NO
        if self.unreadable():
            return EXIT_BAD
        return EXIT_OK


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


def csv_sink(path: str) -> CsvSink:
    """The bench CSV as the batch runner's sink: a row appended and flushed per finished pair."""
    return CsvSink(path, CSV_FIELDS, row_of=lambda r: _csv_record(row_of(r)),
                   key_of=lambda row: job_key(row["file"], row["engine"]),
                   result_of=lambda row: (True, _typed_row(row)))


def run_bench(files: list[str], engines: list[str], jobs: int | None = None, time_limit: float | None = 60.0,
              options: dict[str, dict] | None = None, progress: bool = True, csv_path: str | None = None,
              resume: bool = False, executor=None) -> BenchResult:
    """Solve every (file, engine) pair on ``jobs`` worker processes (in this process when jobs == 1).

    ``csv_path``: rows are streamed there as they finish, and rewritten in file order with the
    cross-check's verdicts at the end; ``resume``: the pairs already in it are not run again.
    ``executor``: another concurrent.futures Executor (e.g. a cluster's) instead of the local pool.
    """
    options = options or {e: {} for e in engines}
    batch = bench_jobs(files, engines, time_limit, options)
    workers = max(1, min(jobs or os.cpu_count() or 1, len(batch) or 1))
    start = time.perf_counter()
    results = run_batch(batch, workers=workers, executor=executor, inline=(workers == 1 and executor is None),
                        sink=csv_sink(csv_path) if csv_path else None, resume=resume, progress=progress,
                        label="bench", initializer=_init_worker, preload=WORKER_PRELOAD)
    rows = [(r.index, row_of(r)) for r in results]
    rows = [row for _, row in sorted(rows, key=lambda ir: ir[0])]
    _cross_check(rows)
    if csv_path:
        write_csv(rows, csv_path)
    return BenchResult(rows, list(engines), time.perf_counter() - start, options)


# -- CSV -------------------------------------------------------------------------------
def _csv_record(row: dict) -> dict:
    rec = dict(row)
    if isinstance(rec["time"], float):
        rec["time"] = f"{rec['time']:.6f}"
    return rec


def write_csv(rows: list[dict], out: str) -> None:
    """All rows at once, replacing ``out`` whole (a stop half-way leaves the old file, not half a new one)."""
    tmp = f"{out}.tmp{os.getpid()}"
    with open(tmp, "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=CSV_FIELDS)
        w.writeheader()
        for r in rows:
            w.writerow(_csv_record(r))
    os.replace(tmp, out)


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


# -- tables ----------------------------------------------------------------------------
def _mean(xs) -> float | None:
    xs = [x for x in xs if x != "" and x is not None]
    return statistics.fmean(xs) if xs else None


def _fmt_t(x: float | None) -> str:
    if x is None:
        return "-"
    if x >= 100:
        return f"{x:.1f}"
    if x >= 1:
        return f"{x:.2f}"
    return f"{x:.3f}"


def _fmt_c(x: float | None) -> str:
    return "-" if x is None else f"{x:.1f}"


def _ratio(paper: float | None, ours: float | None) -> str:
    if paper is None or not ours:
        return "-"
    r = paper / ours
    return f"{r:.0f}x" if r >= 100 else f"{r:.1f}x"


def _done(rows):
    return [r for r in rows if r["status"] in ("solved", "infeasible")]


class _Table:
    """Rows of cells, rendered as aligned text or as Markdown."""

    def __init__(self, title: str, header: list[str]):
        self.title = title
        self.header = header
        self.rows: list[list[str]] = []
        self.notes: list[str] = []

    def add(self, cells: list[str]) -> None:
        self.rows.append(cells)

    def text(self) -> str:
        allr = [self.header] + self.rows
        widths = [max(len(r[i]) for r in allr) for i in range(len(self.header))]
        fmt = lambda r: "  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths)))  # noqa: E731
        lines = [self.title, fmt(self.header), "  ".join("-" * w for w in widths)]
        lines += [fmt(r) for r in self.rows]
        lines += [f"  {n}" for n in self.notes]
        return "\n".join(lines) + "\n"

    def markdown(self) -> str:
        lines = [f"### {self.title}", "", "| " + " | ".join(self.header) + " |",
                 "|" + "|".join("---" if i == 0 else "---:" for i in range(len(self.header))) + "|"]
        lines += ["| " + " | ".join(r) + " |" for r in self.rows]
        if self.notes:
            lines.append("")
            lines += [n if n.startswith("- ") else f"- {n}" for n in self.notes]
        return "\n".join(lines) + "\n"


def tables_for(result: BenchResult) -> list[_Table]:
    """The summary tables: per engine, Table-1 style for Hs files, by island count for the rest."""
    tables: list[_Table] = []
    for engine in result.engines:
        rows = [r for r in result.rows if r["engine"] == engine]
        hs = [r for r in rows if r["group"]]
        other = [r for r in rows if not r["group"]]
        opts = result.options.get(engine, {}) if result.options else {}
        label = engine + (" (" + ", ".join(f"{k}={v}" for k, v in sorted(opts.items())) + ")" if opts else "")
        if hs:
            tables += _hs_tables(hs, label, engine, opts)
        if other:
            tables.append(_island_table(other, label))
    return tables


def _status_note(rows) -> str | None:
    counts = defaultdict(int)
    for r in rows:
        counts[r["status"]] += 1
    wrong = sum(1 for r in rows if r["valid"] is False)
    parts = [f"{v} {k}" for k, v in sorted(counts.items())]
    verified = sum(1 for r in rows if r["valid"] is True)
    s = f"{len(rows)} runs: " + ", ".join(parts) + f"; {verified} solutions verified by the checker"
    if wrong:
        s += f"; {wrong} WRONG ANSWERS"
    return s


def _hs_tables(rows, label: str, engine: str, opts: dict) -> list[_Table]:
    betas = sorted({r["beta"] for r in rows})
    cells: dict[tuple, list] = defaultdict(list)
    for r in rows:
        cells[(r["n"], r["alpha"], r["beta"])].append(r)
    has_rounds = any(r["rounds"] != "" for r in rows) and engine == "sat"
    t = _Table(f"{label}: mean time s (mean cuts) per group, Table 1 layout",
               ["n", "alpha"] + [f"beta={b:02d}" for b in betas] + ["all beta", "runs"])
    for n, alpha in sorted({(r["n"], r["alpha"]) for r in rows}):
        line = [str(n), str(alpha)]
        for b in betas:
            rs = cells.get((n, alpha, b), [])
            d = _done(rs)
            mark = "*" if len(d) < len(rs) else ""
            line.append(f"{_fmt_t(_mean(r['time'] for r in d))} ({_fmt_c(_mean(r['cuts'] for r in d))}){mark}"
                        if rs else "")
        allr = [r for r in rows if r["n"] == n and r["alpha"] == alpha]
        d = _done(allr)
        line.append(f"{_fmt_t(_mean(r['time'] for r in d))} ({_fmt_c(_mean(r['cuts'] for r in d))})")
        line.append(str(len(allr)))
        t.add(line)
    if any(c.endswith("*") for line in t.rows for c in line):
        t.notes.append("* = some runs in the cell did not finish (unknown/error); means are over finished runs")

    weak = opts.get("weak", True) is not False
    paper_name = "Table 1 (weak)" if weak else "Table 2 (no weak)"
    s = _Table(f"{label}: per-n summary against the paper",
               ["n", "runs", "mean time s", "max time s", "mean cuts"] + (["mean rounds"] if has_rounds else [])
               + ["paper mean s", "paper/ours"])
    for n in sorted({r["n"] for r in rows}):
        rs = [r for r in rows if r["n"] == n]
        d = _done(rs)
        ours = _mean(r["time"] for r in d)
        paper = PAPER_TABLE1_MEAN_TIME.get(n)
        line = [str(n), str(len(rs)), _fmt_t(ours), _fmt_t(max((r["time"] for r in d), default=None)),
                _fmt_c(_mean(r["cuts"] for r in d))]
        if has_rounds:
            line.append(_fmt_c(_mean(r["rounds"] for r in d)))
        line += [_fmt_t(paper) if weak and paper is not None else "-", _ratio(paper, ours) if weak else "-"]
        s.add(line)
    d = _done(rows)
    ours = _mean(r["time"] for r in d)
    ptime = PAPER_TABLE1_OVERALL_TIME if weak else PAPER_TABLE2_OVERALL_TIME
    pcuts = PAPER_TABLE1_OVERALL_CUTS if weak else PAPER_TABLE2_OVERALL_CUTS
    line = ["all", str(len(rows)), _fmt_t(ours), _fmt_t(max((r["time"] for r in d), default=None)),
            _fmt_c(_mean(r["cuts"] for r in d))]
    if has_rounds:
        line.append(_fmt_c(_mean(r["rounds"] for r in d)))
    line += [_fmt_t(ptime), _ratio(ptime, ours)]
    s.add(line)
    hn, ha = PAPER_HARDEST_GROUP
    hard = _done([r for r in rows if r["n"] == hn and r["alpha"] == ha])
    if hard:
        ho = _mean(r["time"] for r in hard)
        line = [f"{hn}, alpha {ha}", str(len([r for r in rows if r['n'] == hn and r['alpha'] == ha])),
                _fmt_t(ho), _fmt_t(max(r["time"] for r in hard)), _fmt_c(_mean(r["cuts"] for r in hard))]
        if has_rounds:
            line.append(_fmt_c(_mean(r["rounds"] for r in hard)))
        line += [_fmt_t(PAPER_HARDEST_GROUP_TIME) if weak else "-",
                 _ratio(PAPER_HARDEST_GROUP_TIME, ho) if weak else "-"]
        s.add(line)
    s.notes.append(f"paper column: {paper_name}; overall paper cuts {pcuts:.2f} per instance "
                   f"(Table 1 with weak: {PAPER_TABLE1_OVERALL_TIME:.2f} s, {PAPER_TABLE1_OVERALL_CUTS:.2f} cuts; "
                   f"Table 2 without: {PAPER_TABLE2_OVERALL_TIME:.2f} s, {PAPER_TABLE2_OVERALL_CUTS:.2f} cuts)")
    if engine != "milp":
        s.notes.append(f"'cuts' of the {engine} engine are its own lazy connectivity constraints "
                       f"(clauses / constraints added per disconnected component), not the paper's LP cuts")
    s.notes.append("ratio paper/ours > 1 means ours is faster; different machine, solver and year: "
                   "compare orders of magnitude, not digits")
    s.notes.append(PAPER_FOOTNOTE)
    note = _status_note(rows)
    if note:
        s.notes.append(note)
    return [t, s]


def _island_table(rows, label: str) -> _Table:
    counts = sorted({r["islands"] for r in rows if r["islands"] != ""})
    if len(counts) <= 15:
        bins = [(c, c) for c in counts]
    else:
        lo, hi = counts[0], counts[-1]
        width = max(1, -(-(hi - lo + 1) // 10))
        bins = [(a, min(hi, a + width - 1)) for a in range(lo, hi + 1, width)]
    t = _Table(f"{label}: by island count", ["islands", "runs", "solved", "infeasible", "unknown",
                                             "mean time s", "max time s", "mean cuts"])
    for a, b in bins:
        rs = [r for r in rows if r["islands"] != "" and a <= r["islands"] <= b]
        if not rs:
            continue
        d = _done(rs)
        t.add([str(a) if a == b else f"{a}-{b}", str(len(rs)),
               str(sum(r["status"] == "solved" for r in rs)), str(sum(r["status"] == "infeasible" for r in rs)),
               str(sum(r["status"] == "unknown" for r in rs)), _fmt_t(_mean(r["time"] for r in d)),
               _fmt_t(max((r["time"] for r in d), default=None)), _fmt_c(_mean(r["cuts"] for r in d))])
    unread = [r for r in rows if r["islands"] == ""]
    if unread:
        t.add(["unreadable/error", str(len(unread)), "", "", "", "", "", ""])
    note = _status_note(rows)
    if note:
        t.notes.append(note)
    return t


def problem_lines(result: BenchResult, limit: int = 20) -> list[str]:
    bad = [r for r in result.rows if r["valid"] is False or r["status"] in ("error", "unreadable")]
    out = [f"{r['file']} [{r['engine']}]: {r['status']}: {r['message']}" for r in bad[:limit]]
    if len(bad) > limit:
        out.append(f"... and {len(bad) - limit} more (see the CSV)")
    return out


def render_text(result: BenchResult) -> str:
    buf = io.StringIO()
    for t in tables_for(result):
        buf.write(t.text() + "\n")
    return buf.getvalue()


def render_markdown(result: BenchResult, title: str | None = None, preamble: str = "") -> str:
    out = [f"# {title or 'hashikit bench'}", ""]
    if preamble:
        out += [preamble.rstrip(), ""]
    for t in tables_for(result):
        out.append(t.markdown())
    probs = problem_lines(result, limit=50)
    if probs:
        out += ["### Problems", ""] + [f"- `{p}`" for p in probs] + [""]
    return "\n".join(out)


# -- plot ------------------------------------------------------------------------------
def plot(result: BenchResult, out: str) -> bool:
    """Time against island count per engine; False (and a message) when matplotlib is missing."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("hashikit bench: install matplotlib to plot (pip install matplotlib)", file=sys.stderr)
        return False
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for engine in result.engines:
        d = [r for r in _done(result.rows) if r["engine"] == engine and r["islands"] != ""]
        dots = ax.scatter([r["islands"] for r in d], [max(r["time"], 1e-4) for r in d], s=8, alpha=0.4,
                          label=engine)
        by_n: dict[int, list[float]] = defaultdict(list)
        for r in d:
            by_n[r["islands"]].append(r["time"])
        if 1 < len(by_n) <= 30:  # few distinct sizes (a benchmark's groups): join the means
            ns = sorted(by_n)
            ax.plot(ns, [max(statistics.fmean(by_n[n]), 1e-4) for n in ns], marker="s",
                    color=dots.get_facecolor()[0][:3], label=f"{engine} mean")
    hs_n = sorted(n for n in PAPER_TABLE1_MEAN_TIME)
    if any(r["group"] for r in result.rows):
        ax.plot(hs_n, [PAPER_TABLE1_MEAN_TIME[n] for n in hs_n], "k--", marker="o",
                label="paper Table 1 mean (Gurobi)")
    ax.set_yscale("log")
    ax.set_xlabel("islands")
    ax.set_ylabel("solve time (s, log scale)")
    ax.set_title("hashikit bench")
    ax.legend()
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)
    return True


# -- command ---------------------------------------------------------------------------
def add_parser(subparsers) -> argparse.ArgumentParser:
    """Add the ``bench`` command to ``hashikit``'s subparsers."""
    b = subparsers.add_parser(
        "bench", help="solve many puzzles with one or more engines, verify and tabulate",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Solve every puzzle file (folders are searched recursively) with each engine in parallel "
                    "worker processes, check every solution with the rule checker, and print tables: "
                    "Table-1 style beside the published numbers of Coelho et al. (2019) for "
                    "Hs_<side>_<n>_<alpha>_<beta>_<idx> files, by island count otherwise.",
        epilog="examples:\n"
               "  hashikit bench ../shared/benchmarks/coelho2019 --csv out.csv --md out.md\n"
               "  hashikit bench puzzles/ --engine sat,cpsat --time-limit 10\n"
               "  hashikit bench coelho2019/ --engine milp --sample 2 --seed 1 --engine-option weak=False\n\n"
               "times are the engines' in-process solve times (model building included).\n"
               "exit codes: 0 every answer verified, 1 a wrong answer or an engine crash, 2 bad input")
    b.add_argument("paths", nargs="+", metavar="PATH", help="puzzle files or folders")
    b.add_argument("--engine", default="sat", metavar="NAME[,NAME...]",
                   help="engines to compare, comma-separated: sat, milp, cpsat (default: sat)")
    b.add_argument("--jobs", "-j", type=positive_int, default=None, metavar="N",
                   help=f"worker processes (default: the number of cores, {os.cpu_count()}; 1 runs in this process)")
    b.add_argument("--time-limit", type=time_limit_arg, default=60.0, metavar="S",
                   help="seconds per instance and engine (default: %(default)s); status 'unknown' past it")
    b.add_argument("--no-time-limit", dest="time_limit", action="store_const", const=None,
                   help="no time limit (a limited solve runs in a child process ended at the deadline)")
    b.add_argument("--csv", metavar="OUT.csv",
                   help="one row per (instance, engine), written as each finishes")
    b.add_argument("--resume", action="store_true",
                   help="with --csv: keep the rows already in OUT.csv and run only the missing pairs")
    b.add_argument("--md", metavar="OUT.md", help="write the tables in Markdown")
    b.add_argument("--plot", metavar="OUT.png", help="plot time against island count (needs matplotlib)")
    b.add_argument("--sample", type=positive_int, metavar="K",
                   help="only K instances per Hs group (other files count as one group)")
    b.add_argument("--seed", type=int, default=None, metavar="S", help="random seed for --sample")
    b.add_argument("--engine-option", action="append", default=[], metavar="KEY=VALUE",
                   help="engine keyword option, e.g. weak=False; engine.key=value for one engine only; repeatable")
    b.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    b.set_defaults(func=run)
    return b


def _err(message: str) -> int:
    print(f"hashikit: error: {message}", file=sys.stderr)
    return EXIT_BAD


def _inputs(args) -> tuple[list[str], dict[str, dict], list[str]]:
    """Engines, their options and the files, checked before any work (BenchError: exit 2)."""
    engines = list(dict.fromkeys(e.strip() for e in (args.engine or "sat").split(",") if e.strip()))
    if not engines:
        raise BenchError("--engine: name at least one engine")
    check_engines(engines)
    options = parse_engine_options(getattr(args, "engine_option", None), engines)
    if getattr(args, "resume", False) and not getattr(args, "csv", None):
        raise BenchError("--resume needs --csv OUT.csv (the rows to resume from)")
    for out in (getattr(args, "csv", None), getattr(args, "md", None), getattr(args, "plot", None)):
        if out:
            parent = os.path.dirname(os.path.abspath(out))
            if not os.path.isdir(parent):
                raise BenchError(f"{out}: folder {parent} does not exist")
            if os.path.isdir(out):
                raise BenchError(f"{out}: is a folder")
    files = find_puzzles(args.paths)
    if not files:
        raise BenchError(f"no puzzle files found in {', '.join(args.paths)} "
                         f"(looked for {' '.join(sorted(puzzle_extensions()))})")
    if getattr(args, "sample", None):
        files = sample_files(files, args.sample, getattr(args, "seed", None))
    return engines, options, files


def run(args) -> int:
    """The ``bench`` command; returns the exit code (KeyboardInterrupt goes to the CLI: exit 130)."""
    from ..run.batch import BatchError

    try:
        engines, options, files = _inputs(args)
    except BenchError as exc:
        return _err(str(exc))
    jobs = getattr(args, "jobs", None) or os.cpu_count() or 1
    workers = max(1, min(jobs, len(files) * len(engines)))
    if not getattr(args, "quiet", False):
        print(f"bench: {len(files)} file(s) x {len(engines)} engine(s) on {workers} worker(s), "
              + (f"time limit {args.time_limit:g} s" if args.time_limit else "no time limit"), file=sys.stderr)
    try:
        result = run_bench(files, engines, jobs=jobs, time_limit=args.time_limit, options=options,
                           progress=not getattr(args, "quiet", False), csv_path=getattr(args, "csv", None),
                           resume=getattr(args, "resume", False))
    except BatchError as exc:
        return _err(str(exc))
    except OSError as exc:
        return _err(f"cannot write: {exc}")
    sys.stdout.write(render_text(result))
    print(f"wall time {result.wall:.1f} s on {workers} worker(s)")
    try:
        if args.md:
            Path(args.md).write_text(render_markdown(result), encoding="utf-8")
    except OSError as exc:
        return _err(f"cannot write: {exc}")
    if getattr(args, "plot", None):
        plot(result, args.plot)
    for line in problem_lines(result):
        print(f"hashikit bench: {line}", file=sys.stderr)
    if result.wrong():
        print(f"hashikit bench: {len(result.wrong())} WRONG ANSWER(S)", file=sys.stderr)
    return result.exit_code()


def main(argv: list[str] | None = None) -> int:
    """Stand-alone entry (``python -m hashikit.cli.bench``) until the command is wired into the CLI."""
    p = argparse.ArgumentParser(prog="hashikit")
    add_parser(p.add_subparsers(dest="command"))
    args = p.parse_args(["bench"] + list(sys.argv[1:] if argv is None else argv))
    return args.func(args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
