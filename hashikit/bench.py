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
input (no puzzle files, unknown or missing engine, unreadable files).
"""

from __future__ import annotations

import argparse
import csv
import io
import os
import random
import re
import statistics
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from .cli import EXIT_BAD, EXIT_NO, EXIT_OK, _positive_float, _positive_int

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
    from .formats import formats

    exts = {ext for f in formats().values() if f.read for ext in f.extensions}
    return tuple(sorted(exts, key=len, reverse=True))


def find_puzzles(paths: list[str]) -> list[str]:
    """Files named on the command line, and every readable puzzle file under named folders (recursively)."""
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
                    if low.endswith(exts):
                        found.append(os.path.join(root, name))
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
def _literal(text: str):
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


def parse_engine_options(items: list[str] | None, engines: list[str]) -> dict[str, dict]:
    """``key=value`` (every engine) or ``engine.key=value`` (that engine) -> {engine: {key: value}}."""
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
            out[e][key] = _literal(value)
    return out


def check_engines(names: list[str]) -> None:
    """Raise BenchError for an unknown engine, or one whose optional package is missing (with its install hint)."""
    from .errors import SolverUnavailable
    from .solvers import ENGINES, get_engine

    for name in names:
        if name not in ENGINES:
            raise BenchError(f"unknown engine {name!r}; choose from {', '.join(ENGINES)}")
        try:
            get_engine(name)
        except SolverUnavailable as exc:
            raise BenchError(str(exc)) from None


# -- one run ---------------------------------------------------------------------------
def run_one(task: tuple[str, str, float | None, dict]) -> dict:
    """Read, solve and check one (file, engine) pair; always returns a row (never raises)."""
    path, engine, time_limit, options = task
    fields = hs_fields(path)
    row: dict = {"file": path, "group": hs_group(path) or "", "engine": engine,
                 "n": fields[1] if fields else "", "alpha": fields[2] if fields else "",
                 "beta": fields[3] if fields else "", "status": "", "time": "", "rounds": "",
                 "cuts": "", "nodes": "", "valid": "", "islands": "", "message": ""}
    try:
        from .errors import HashikitError
        from .formats import read_file

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
        from .checker import check
        from .solvers import solve

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


# -- progress --------------------------------------------------------------------------
class Progress:
    """A tiny progress line on stderr: in place (\\r) on a terminal, else a line every 10 %."""

    def __init__(self, total: int, stream=None, enabled: bool = True):
        self.total = total
        self.done = 0
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled and total > 0
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.start = time.perf_counter()
        self.next_mark = 10
        self.bad = 0

    def _line(self) -> str:
        pct = 100 * self.done // self.total
        el = time.perf_counter() - self.start
        eta = el / self.done * (self.total - self.done) if self.done else 0.0
        extra = f", {self.bad} failed" if self.bad else ""
        return f"bench: {self.done}/{self.total} ({pct}%) {el:.0f}s elapsed, ~{eta:.0f}s left{extra}"

    def update(self, ok: bool = True) -> None:
        self.done += 1
        self.bad += 0 if ok else 1
        if not self.enabled:
            return
        if self.tty:
            self.stream.write("\r" + self._line() + "\x1b[K")
            if self.done == self.total:
                self.stream.write("\n")
            self.stream.flush()
        else:
            pct = 100 * self.done // self.total
            if pct >= self.next_mark or self.done == self.total:
                self.stream.write(self._line() + "\n")
                self.stream.flush()
                while self.next_mark <= pct:
                    self.next_mark += 10


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


def run_bench(files: list[str], engines: list[str], jobs: int | None = None, time_limit: float | None = 60.0,
              options: dict[str, dict] | None = None, progress: bool = True, stream=None) -> BenchResult:
    """Solve every (file, engine) pair in ``jobs`` worker processes (in this process when jobs == 1)."""
    options = options or {e: {} for e in engines}
    tasks = [(f, e, time_limit, options.get(e, {})) for f in files for e in engines]
    jobs = max(1, min(jobs or os.cpu_count() or 1, len(tasks) or 1))
    bar = Progress(len(tasks), stream=stream, enabled=progress)
    start = time.perf_counter()
    rows: list[dict] = []
    if jobs == 1:
        for t in tasks:
            row = run_one(t)
            rows.append(row)
            bar.update(row["valid"] is not False and row["status"] not in ("error", "unreadable"))
    else:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor, as_completed

        # spawn: fresh workers that import hashikit once, unaffected by the parent's threads
        ctx = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx, initializer=_init_worker) as pool:
            futures = {pool.submit(run_one, t): t for t in tasks}
            for fut in as_completed(futures):
                try:
                    row = fut.result()
                except Exception as exc:  # a worker died (e.g. out of memory, a solver's crash)
                    f, e, _, _ = futures[fut]
                    row = {
                        "file": f, "group": hs_group(f) or "", "engine": e, "n": "", "alpha": "", "beta": "",
                        "status": "error", "time": "", "rounds": "", "cuts": "", "nodes": "", "valid": "",
                        "islands": "", "message": f"worker failed: {type(exc).__name__}: {exc}"}
                rows.append(row)
                bar.update(row["valid"] is not False and row["status"] not in ("error", "unreadable"))
    order = {(f, e): i for i, (f, e, _, _) in enumerate(tasks)}
    rows.sort(key=lambda r: order[(r["file"], r["engine"])])
    _cross_check(rows)
    return BenchResult(rows, list(engines), time.perf_counter() - start, options)


# -- CSV -------------------------------------------------------------------------------
def write_csv(rows: list[dict], out: str) -> None:
    with open(out, "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=CSV_FIELDS)
        w.writeheader()
        for r in rows:
            rec = dict(r)
            if isinstance(rec["time"], float):
                rec["time"] = f"{rec['time']:.6f}"
            w.writerow(rec)


def read_csv(path: str) -> list[dict]:
    """Rows of a bench CSV, typed back (numbers, valid as True/False/"")."""
    rows = []
    with open(path, newline="", encoding="utf-8") as fh:
        for rec in csv.DictReader(fh):
            for k in ("n", "alpha", "beta", "rounds", "cuts", "nodes", "islands"):
                if rec.get(k, "") != "":
                    rec[k] = int(rec[k])
            if rec.get("time", "") != "":
                rec["time"] = float(rec["time"])
            rec["valid"] = {"True": True, "False": False}.get(rec.get("valid", ""), "")
            rows.append(rec)
    return rows


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
    b.add_argument("--jobs", "-j", type=_positive_int, default=None, metavar="N",
                   help=f"worker processes (default: the number of cores, {os.cpu_count()})")
    b.add_argument("--time-limit", type=_positive_float, default=60.0, metavar="S",
                   help="seconds per instance and engine (default: %(default)s); status 'unknown' past it")
    b.add_argument("--no-time-limit", dest="time_limit", action="store_const", const=None,
                   help="no time limit (the sat engine then uses CaDiCaL; under a limit it uses Glucose)")
    b.add_argument("--csv", metavar="OUT.csv", help="write one row per (instance, engine)")
    b.add_argument("--md", metavar="OUT.md", help="write the tables in Markdown")
    b.add_argument("--plot", metavar="OUT.png", help="plot time against island count (needs matplotlib)")
    b.add_argument("--sample", type=_positive_int, metavar="K",
                   help="only K instances per Hs group (other files count as one group)")
    b.add_argument("--seed", type=int, default=None, metavar="S", help="random seed for --sample")
    b.add_argument("--engine-option", action="append", default=[], metavar="KEY=VALUE",
                   help="engine keyword option, e.g. weak=False; engine.key=value for one engine only; repeatable")
    b.add_argument("-q", "--quiet", action="store_true", help="no progress line")
    b.set_defaults(func=run)
    return b


def _err(message: str) -> int:
    print(f"hashikit: error: {message}", file=sys.stderr)
    return EXIT_BAD


def run(args) -> int:
    """The ``bench`` command; returns the exit code."""
    try:
        engines = [e.strip() for e in (args.engine or "sat").split(",") if e.strip()]
        if not engines:
            raise BenchError("--engine: name at least one engine")
        engines = list(dict.fromkeys(engines))
        check_engines(engines)
        options = parse_engine_options(getattr(args, "engine_option", None), engines)
        files = find_puzzles(args.paths)
        if not files:
            raise BenchError(f"no puzzle files found in {', '.join(args.paths)} "
                             f"(looked for {' '.join(sorted(puzzle_extensions()))})")
        if getattr(args, "sample", None):
            files = sample_files(files, args.sample, getattr(args, "seed", None))
        for out in (getattr(args, "csv", None), getattr(args, "md", None), getattr(args, "plot", None)):
            if out:
                parent = os.path.dirname(os.path.abspath(out))
                if not os.path.isdir(parent):
                    raise BenchError(f"{out}: folder {parent} does not exist")
    except BenchError as exc:
        return _err(str(exc))

    jobs = getattr(args, "jobs", None) or os.cpu_count() or 1
    quiet = getattr(args, "quiet", False)
    if not quiet:
        print(f"bench: {len(files)} file(s) x {len(engines)} engine(s) on {min(jobs, len(files) * len(engines))} "
              f"worker(s), " + (f"time limit {args.time_limit:g} s" if args.time_limit else "no time limit"),
              file=sys.stderr)
    result = run_bench(files, engines, jobs=jobs, time_limit=args.time_limit, options=options,
                       progress=not quiet)
    sys.stdout.write(render_text(result))
    print(f"wall time {result.wall:.1f} s on {max(1, min(jobs, len(result.rows)))} worker(s)")
    try:
        if args.csv:
            write_csv(result.rows, args.csv)
        if args.md:
            Path(args.md).write_text(render_markdown(result), encoding="utf-8")
    except OSError as exc:
        return _err(f"cannot write: {exc}")
    if getattr(args, "plot", None):
        plot(result, args.plot)
    for line in problem_lines(result):
        print(f"hashikit bench: {line}", file=sys.stderr)
    code = result.exit_code()
    if result.wrong():
        print(f"hashikit bench: {len(result.wrong())} WRONG ANSWER(S)", file=sys.stderr)
    return code


def main(argv: list[str] | None = None) -> int:
    """Stand-alone entry (``python -m hashikit.bench``) until the command is wired into the CLI."""
    p = argparse.ArgumentParser(prog="hashikit")
    add_parser(p.add_subparsers(dest="command"))
    args = p.parse_args(["bench"] + list(sys.argv[1:] if argv is None else argv))
    return args.func(args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
