#!/usr/bin/env python3
"""Does ``hashikit.generate.coelho`` make puzzles like the published Coelho et al. (2019) ones?

    python benchmarks/coelho_calibration.py [--k 10] [--jobs 2] [--data PATH] [--out PATH] [--old COMMIT]

For each of the 48 groups (n = 100, 200, 300, 400 islands on square boards of side
16, 24, 29, 34; alpha = 25, 50, 75; beta = 0, 5, 10, 15) the 30 published instances,
read in place from ../shared/benchmarks/coelho2019 (nothing is copied), are set
beside K puzzles from ``coelho_with_solution`` with fixed seeds (seed =
100000 * n + 1000 * alpha + 10 * beta + k, k = 0..K-1).  Per instance:

- islands, board side;
- bridges: the total number of bridges in a solution.  This is half the sum of the
  island numbers, so it is the same in every solution; for the published files it
  is counted on the solution ``hashikit.solve`` finds (and checked against the sum);
- links: candidate links (pairs of islands that see each other), ``len(puzzle.links)``;
- crossings: pairs of candidate links that cross, ``len(puzzle.crossings)``;
- doubled: share of the links used in a solution that carry two bridges.  The
  published instances are not unique, so this is "of one solution": the solver's.
  For the generated ones it is given both for the construction's own solution
  (``coelho_with_solution``) and for the solver's solution of the generated puzzle;
  only the solver-vs-solver pair compares like with like;
- length: mean length (cells from island to island) of the candidate links;
- adjacent: share of candidate links that join islands in neighbouring cells.

Before/after: every generated instance is also made by the old quadratic generator
(``coelho_with_solution`` of hashikit/generate.py at ``--old``, default c89cf40, read
from git) and the two puzzles and construction solutions are compared; the new
module draws the same random numbers, so they must be identical and every number of
the generated columns equals the old run's.

Writes benchmarks/results/coelho_calibration.md; prints the same tables.
"""

from __future__ import annotations

import argparse
import collections
import datetime as _dt
import os
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from _runinfo import git_state  # noqa: E402  (this folder is on sys.path when run as a script)

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hashikit import check, solve# noqa: E402
from hashikit.formats import read_file  # noqa: E402
from hashikit.generate.coelho import coelho_with_solution  # noqa: E402

DATA = ROOT.parent / "shared" / "benchmarks" / "coelho2019"
OUT = Path(__file__).resolve().parent / "results" / "coelho_calibration.md"

SIDES = {100: 16, 200: 24, 300: 29, 400: 34}
ALPHAS = (25, 50, 75)
BETAS = (0, 5, 10, 15)
GROUPS = [(n, a, b) for n in SIDES for a in ALPHAS for b in BETAS]

# Tolerances, fixed before the run.  "rel": |ours - published| / published on the group means;
# "abs": |ours - published| on shares.  The group verdict uses the primary ones only.
TOL = {
    "islands": ("exact", 0.0),
    "side": ("exact", 0.0),
    "bridges": ("rel", 0.05),
    "links": ("rel", 0.10),
    "crossings": ("rel", 0.20),
    "length": ("rel", 0.10),
    "adjacent": ("abs", 0.05),
    "doubled_solver": ("abs", 0.05),
}
PRIMARY = ("islands", "side", "bridges", "links")
SECONDARY = ("crossings", "length", "adjacent", "doubled_solver")


def stats_of(puzzle, solution) -> dict:
    isl = puzzle.islands
    lengths = [abs(isl[ln.a].row - isl[ln.b].row) + abs(isl[ln.a].col - isl[ln.b].col) for ln in puzzle.links]
    used = [c for _, c in solution]
    return {
        "islands": len(isl),
        "side": max(puzzle.rows, puzzle.cols),
        "bridges": solution.total(),
        "links": len(puzzle.links),
        "crossings": len(puzzle.crossings),
        "doubled": sum(1 for c in used if c == 2) / len(used) if used else 0.0,
        "length": statistics.fmean(lengths) if lengths else 0.0,
        "adjacent": sum(1 for x in lengths if x == 1) / len(lengths) if lengths else 0.0,
    }


def _solved(puzzle, where: str):
    result = solve(puzzle)
    if result.solution is None or not check(puzzle, result.solution).ok:
        raise RuntimeError(f"{where}: no checked solution ({result.status})")
    return result.solution


def published_task(path: str) -> dict:
    puzzle = read_file(path).puzzle
    sol = _solved(puzzle, path)
    out = stats_of(puzzle, sol)
    assert out["bridges"] * 2 == sum(i.number for i in puzzle.islands)
    out["doubled_solver"] = out["doubled"]
    return out


def generated_task(args: tuple) -> dict:
    n, alpha, beta, k, old_commit = args
    seed = 100000 * n + 1000 * alpha + 10 * beta + k
    puzzle, construction = coelho_with_solution(n, SIDES[n], SIDES[n], alpha, beta, seed)
    out = stats_of(puzzle, construction)  # doubled here: of the construction's solution
    if old_commit:
        from coelho_speed import load_old_generator

        old_puzzle, old_construction = load_old_generator(old_commit)(n, SIDES[n], SIDES[n], alpha, beta, seed)
        out["same_as_old"] = old_puzzle == puzzle and old_construction.bridges == construction.bridges
    sol = _solved(puzzle, f"generated n={n} alpha={alpha} beta={beta} seed={seed}")
    out["doubled_solver"] = stats_of(puzzle, sol)["doubled"]
    return out


def _group_of(name: str) -> tuple[int, int, int]:
    parts = name.split("_")  # Hs_<side>_<n>_<alpha>_<beta>_<idx>.has
    return int(parts[2]), int(parts[3]), int(parts[4])


def within(key: str, pub: float, ours: float) -> bool:
    kind, tol = TOL[key]
    if kind == "exact":
        return pub == ours
    if kind == "rel":
        return abs(ours - pub) <= tol * abs(pub)
    return abs(ours - pub) <= tol


def rel(pub: float, ours: float) -> str:
    return f"{(ours - pub) / pub * 100:+.1f}%" if pub else "n/a"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--k", type=int, default=10, help="generated puzzles per group (default 10)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--old", default="c89cf40", help="the commit whose generate.py is the old generator "
                    "(before/after comparison; '' to skip)")
    args = ap.parse_args()

    if not args.data.is_dir():
        print(f"coelho_calibration: the published instances are not at {args.data}\n"
              "(expected ../shared/benchmarks/coelho2019 beside the project folder; --data points elsewhere)",
              file=sys.stderr)
        return 2
    files = sorted(str(p) for p in args.data.rglob("Hs_*.has"))
    if not files:
        print(f"coelho_calibration: no Hs_*.has files under {args.data}", file=sys.stderr)
        return 2

    t0 = time.perf_counter()
    gen_tasks = [(n, a, b, k, args.old) for n, a, b in GROUPS for k in range(args.k)]
    with Pool(args.jobs) as pool:
        pub_res = pool.map(published_task, files, chunksize=8)
        gen_res = pool.map(generated_task, gen_tasks, chunksize=4)
    wall = time.perf_counter() - t0

    pub: dict[tuple, list[dict]] = {g: [] for g in GROUPS}
    for f, s in zip(files, pub_res):
        pub.setdefault(_group_of(Path(f).name), []).append(s)
    gen: dict[tuple, list[dict]] = {g: [] for g in GROUPS}
    for (n, a, b, _, _), s in zip(gen_tasks, gen_res):
        gen[(n, a, b)].append(s)

    keys = ("islands", "side", "bridges", "links", "crossings", "length", "adjacent", "doubled", "doubled_solver")

    def means(rows):
        return {k: statistics.fmean(r[k] for r in rows) for k in keys}

    lines = [
        "# Calibration of `coelho` against the published Coelho et al. (2019) instances",
        "",
        f"- command: `python benchmarks/coelho_calibration.py --k {args.k} --jobs {args.jobs}`",
        f"- published: {len(files)} instances read in place from `../shared/benchmarks/coelho2019` "
        f"({min(len(v) for v in pub.values())}-{max(len(v) for v in pub.values())} per group); "
        f"generated: {args.k} per group, `hashikit.coelho.coelho_with_solution(n, side, side, alpha, beta, seed)` with the "
        "defaults (maxbridges=2, adjacent=True, exact=True), seed = 100000 n + 1000 alpha + 10 beta + k",
        f"- every published and generated puzzle was solved by `hashikit.solve` and the solution checked; "
        f"wall time {wall:.0f} s with {args.jobs} worker processes ({os.cpu_count()} cores); "
        f"{_dt.date.today().isoformat()}; {git_state()}",
        "",
        "Columns: published mean / ours mean (relative difference).  `bridges` is half the sum of the island",
        "numbers, the same in every solution.  `doubled` (share of used links that carry 2 bridges) depends on",
        "the solution, and the published instances are not unique: `pub` is of the solver's solution; `ours",
        "constr.` is of the construction's own solution and differs in kind (it is the planted solution, with",
        "exactly round(beta% n) doublings after the cycle bridges); `ours solver` is of the solver's solution",
        "of our puzzle, the like-with-like comparison.  `length`: mean candidate-link length in cells;",
        "`adjacent`: share of candidate links between neighbouring cells.",
        "",
        "Tolerances (fixed before the run; on the group means): islands and board side exact; bridges within",
        "5%; candidate links within 10% (primary: a group is **within** when all four hold); secondary:",
        "crossing pairs within 20%, mean link length within 10%, adjacent share and doubled share (solver",
        "vs solver) within 0.05 absolute.",
        "",
    ]

    # -------- verdict summary
    per_key_pass = {k: 0 for k in TOL}
    verdicts = {}
    for g in GROUPS:
        mp, mg = means(pub[g]), means(gen[g])
        ok = {k: within(k, mp[k], mg[k]) for k in TOL}
        # islands/side exact per instance, not only on the mean
        ok["islands"] = all(r["islands"] == g[0] for r in pub[g] + gen[g])
        ok["side"] = all(r["side"] == SIDES[g[0]] for r in pub[g] + gen[g])
        for k in TOL:
            per_key_pass[k] += ok[k]
        verdicts[g] = ok
    n_within = sum(all(v[k] for k in PRIMARY) for v in verdicts.values())
    n_all = sum(all(v.values()) for v in verdicts.values())

    # -------- main table
    lines += ["## Per group", "",
              "| n | side | alpha | beta | bridges pub / ours | links pub / ours | crossings pub / ours | "
              "doubled pub / ours constr. / ours solver | length pub / ours | adjacent pub / ours | within |",
              "|---:|---:|---:|---:|---|---|---|---|---|---|---|"]
    for g in GROUPS:
        n, a, b = g
        mp, mg = means(pub[g]), means(gen[g])
        v = verdicts[g]
        miss = [k for k in SECONDARY if not v[k]]
        verdict = ("yes" if all(v[k] for k in PRIMARY) else "**no** (" + ", ".join(k for k in PRIMARY if not v[k]) + ")")
        if miss:
            verdict += "; outside: " + ", ".join(m.replace("doubled_solver", "doubled") for m in miss)
        lines.append(
            f"| {n} | {SIDES[n]} | {a} | {b} "
            f"| {mp['bridges']:.1f} / {mg['bridges']:.1f} ({rel(mp['bridges'], mg['bridges'])}) "
            f"| {mp['links']:.1f} / {mg['links']:.1f} ({rel(mp['links'], mg['links'])}) "
            f"| {mp['crossings']:.1f} / {mg['crossings']:.1f} ({rel(mp['crossings'], mg['crossings'])}) "
            f"| {mp['doubled']:.3f} / {mg['doubled']:.3f} / {mg['doubled_solver']:.3f} "
            f"| {mp['length']:.2f} / {mg['length']:.2f} ({rel(mp['length'], mg['length'])}) "
            f"| {mp['adjacent']:.3f} / {mg['adjacent']:.3f} | {verdict} |")

    # -------- by n (pooled)
    lines += ["", "## Pooled by n (all alpha, beta)", "",
              "| n | islands pub / ours | bridges | links | crossings | doubled pub / ours constr. / ours solver "
              "| length | adjacent |", "|---:|---|---|---|---|---|---|---|"]
    for n in SIDES:
        P = [r for g in GROUPS if g[0] == n for r in pub[g]]
        G = [r for g in GROUPS if g[0] == n for r in gen[g]]
        mp, mg = means(P), means(G)
        lines.append(
            f"| {n} | {mp['islands']:.1f} / {mg['islands']:.1f} "
            f"| {mp['bridges']:.1f} / {mg['bridges']:.1f} ({rel(mp['bridges'], mg['bridges'])}) "
            f"| {mp['links']:.1f} / {mg['links']:.1f} ({rel(mp['links'], mg['links'])}) "
            f"| {mp['crossings']:.1f} / {mg['crossings']:.1f} ({rel(mp['crossings'], mg['crossings'])}) "
            f"| {mp['doubled']:.3f} / {mg['doubled']:.3f} / {mg['doubled_solver']:.3f} "
            f"| {mp['length']:.2f} / {mg['length']:.2f} | {mp['adjacent']:.3f} / {mg['adjacent']:.3f} |")

    # -------- spread: is a difference bigger than the noise?
    lines += ["", "## Spread of the group means", "",
              "Standard deviation across instances within a group, averaged over the 48 groups (published / ours),",
              f"and the standard error of a difference of means with 30 and {args.k} instances, relative to the",
              "published mean: a relative difference well inside this is noise.", "",
              "| statistic | mean within-group SD pub / ours | typical SE of the difference | groups ours higher / lower |",
              "|---|---|---|---|"]
    for k in ("bridges", "links", "crossings", "length", "adjacent", "doubled_solver"):
        sdp = statistics.fmean(statistics.stdev([r[k] for r in pub[g]]) for g in GROUPS)
        sdg = statistics.fmean(statistics.stdev([r[k] for r in gen[g]]) for g in GROUPS) if args.k > 1 else 0.0
        se_rel = statistics.fmean(
            ((statistics.stdev([r[k] for r in pub[g]]) ** 2 / len(pub[g])
              + (statistics.stdev([r[k] for r in gen[g]]) ** 2 / len(gen[g]) if args.k > 1 else 0)) ** 0.5)
            / (means(pub[g])[k] or 1) for g in GROUPS)
        name = k.replace("doubled_solver", "doubled (solver)")
        higher = sum(means(gen[g])[k] > means(pub[g])[k] for g in GROUPS)
        lower = sum(means(gen[g])[k] < means(pub[g])[k] for g in GROUPS)
        lines.append(f"| {name} | {sdp:.3f} / {sdg:.3f} | {se_rel * 100:.2f}% of the published mean "
                     f"| {higher} / {lower} |")

    # -------- the cycle-bridge count: bridges - (n - 1) tree bridges - round(beta% n) doublings
    lines += ["", "## Cycle bridges per instance", "",
              "bridges - (n - 1) - round(beta% of n): the bridges added in the cycle step, if the published",
              "generator works as `coelho_with_solution` does (tree, then cycles, then exactly round(beta% n)",
              "doublings).  Counts of instances per value (pooled over beta 5-15, which agree with each other):",
              "",
              "| n | alpha | ours (every instance) | published, beta 0 | published, beta 5-15 |",
              "|---:|---:|---|---|---|"]

    def cyc(rows, n, b):
        return [round(r["bridges"]) - (n - 1) - round(b * n / 100) for r in rows]

    def hist(values):
        c = collections.Counter(values)
        return ", ".join(f"{v}: {c[v]}" for v in sorted(c))

    for n in SIDES:
        for a in ALPHAS:
            ours = sorted(set(v for b in BETAS for v in cyc(gen[(n, a, b)], n, b)))
            p0 = hist(cyc(pub[(n, a, 0)], n, 0))
            p1 = hist(v for b in BETAS[1:] for v in cyc(pub[(n, a, b)], n, b))
            lines.append(f"| {n} | {a} | {', '.join(map(str, ours))} | {p0} | {p1} |")

    same = [r.get("same_as_old") for r in gen_res]
    before_after = (f"- before/after: {sum(1 for x in same if x)} of {len(same)} generated instances identical "
                    f"(puzzle and construction) to the old generator's (generate.py at {args.old}) for the "
                    "same seed" if args.old else "- before/after: not compared (--old '')")
    lines += ["", "## Verdict", "", before_after,
              f"- **{n_within} of 48 groups within the primary tolerance** (islands and side exact, bridges 5%, "
              f"links 10%); {n_all} of 48 within every tolerance, secondary ones included.",
              "- groups within each tolerance: " + ", ".join(
                  f"{k.replace('doubled_solver', 'doubled (solver)')} {per_key_pass[k]}/48" for k in TOL) + "."]
    outside = [g for g in GROUPS if not all(verdicts[g][k] for k in PRIMARY)]
    if outside:
        lines.append("- outside the primary tolerance: " + ", ".join(
            f"n={n} alpha={a} beta={b} ({', '.join(k for k in PRIMARY if not verdicts[(n, a, b)][k])})"
            for n, a, b in outside) + ".")
    text = "\n".join(lines) + "\n"
    args.out.parent.mkdir(exist_ok=True)
    args.out.write_text(text)
    print(text)
    print(f"wrote {args.out} ({wall:.0f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
