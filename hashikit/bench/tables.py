"""Benchmark tables: the rows of :mod:`.running` as text and Markdown tables, Table-1 style
beside the published numbers of Coelho et al. (2019) for their instances, and a plot."""

from __future__ import annotations

import io
import statistics
import os
import sys
from collections import defaultdict

from .running import BenchResult


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
#: the picture endings a plot is written in
PLOT_ENDINGS = (".png", ".svg", ".pdf")
#: how to install what a plot needs, from a checkout
PLOT_INSTALL = 'pip install ".[plot]"'


def can_plot() -> bool:
    """Whether matplotlib is installed (the ``plot`` extra)."""
    import importlib.util

    return importlib.util.find_spec("matplotlib") is not None


def plot(result: BenchResult, out: str) -> bool:
    """Time against island count per engine, written whole to ``out`` (.png, .svg or .pdf); False
    (and a message) when matplotlib is missing."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print(f"hashikit bench: install matplotlib to plot ({PLOT_INSTALL})", file=sys.stderr)
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
    from ..files import replacing

    with replacing(out, binary=True) as fh:
        fig.savefig(fh, dpi=120, format=os.path.splitext(out)[1].lstrip(".").lower() or "png")
    plt.close(fig)
    return True
