"""The first model built band by band (tried, slower than one CaDiCaL: ``results/scale_first.md``).

    python benchmarks/first_bands.py BOARD ROWS MARGIN [HOPS]

The board is cut into bands of ROWS rows, solved top to bottom, each on a CaDiCaL of its own
(``sat.FIRST_OPTIONS``).  Band [start, end) frees every link that reaches a row of
[start - MARGIN, end); links wholly above are held at their values so far as assumptions; a clause
enters when it has a free variable and none of a link wholly below the band (it is met when the
last of its variables is freed).  A band without a model under its assumptions frees every link of
the islands within HOPS links of the failed assumptions (CaDiCaL's core) and solves again, on the
same solver.  The result is checked against every clause of the formula.  Needs numpy.
"""

from __future__ import annotations

import json
import os
import sys
import time
from itertools import chain

import numpy as np
import pysolvers

from hashikit.formats import read_file
from hashikit.solvers import sat
from hashikit.solvers.cadical import CADICAL, open_solver


def bands_model(enc, rows_per_band: int, margin: int, hops: int = 1, options=None):
    """A model of ``enc.clauses`` as a list of literals, or False when a band without assumptions
    has none (then the formula has none)."""
    puzzle = enc.puzzle
    nlinks = len(enc.capacities)
    if enc.base[-1] + enc.capacities[-1] != enc.nvars:
        raise SystemExit("only the unary encoding without auxiliary variables")
    var_link = np.zeros(enc.nvars + 1, dtype=np.int64)
    var_link[1:] = np.repeat(np.arange(nlinks), np.array(enc.capacities, dtype=np.int64))
    rows = np.array([island.row for island in puzzle.islands], dtype=np.int64)
    end_a = np.array([link[0] for link in puzzle.links])
    end_b = np.array([link[1] for link in puzzle.links])
    top, bottom = np.minimum(rows[end_a], rows[end_b]), np.maximum(rows[end_a], rows[end_b])
    incident = [np.array(links, dtype=np.int64) for links in puzzle.incident]
    clauses = enc.clauses
    lengths = np.fromiter(map(len, clauses), dtype=np.int64, count=len(clauses))
    literals = np.fromiter(chain.from_iterable(clauses), dtype=np.int64, count=int(lengths.sum()))
    offsets = np.zeros(len(clauses), dtype=np.int64)
    offsets[1:] = np.cumsum(lengths)[:-1]
    literal_link = var_link[np.abs(literals)]
    lowest_top = np.maximum.reduceat(top[literal_link], offsets)  # > end: a link wholly below
    value = np.zeros(enc.nvars + 1, dtype=np.int64)
    nrows = int(rows.max()) + 1
    start = 0
    while start < nrows:
        end = min(nrows, start + rows_per_band)
        free = (top < end) & (bottom >= start - margin)
        below = lowest_top >= end
        added = np.zeros(len(clauses), dtype=bool)
        solver = open_solver(CADICAL, [], options or sat.FIRST_OPTIONS)
        tries = 0
        while True:
            began = time.process_time()
            new = np.nonzero(np.logical_or.reduceat(free[literal_link], offsets) & ~below & ~added)[0]
            added[new] = True
            for i in new.tolist():
                solver.add_clause(clauses[i])
            used = np.unique(np.abs(literals[np.repeat(added, lengths)]))
            held = used[~free[var_link[used]]]
            answer = solver.solve(value[held].tolist())
            counts = pysolvers.cadical195_acc_stats(solver._solver)
            print(f"band {start}-{end} try {tries}: {int(added.sum())} clauses, {len(held)} held, "
                  f"{time.process_time() - began:.2f} s, {answer}, {counts['conflicts']} conflicts", flush=True)
            if answer:
                model = np.array(solver.get_model(), dtype=np.int64)
                solver.delete()
                mine = np.nonzero(free[var_link])[0]
                mine = mine[(mine > 0) & (mine <= len(model))]
                value[mine] = model[mine - 1]
                break
            core = solver.get_core()
            if not core:
                solver.delete()
                return False
            tries += 1
            links = np.unique(var_link[np.abs(np.array(core))])
            for _ in range(hops):
                ends = np.unique(np.concatenate([end_a[links], end_b[links]]))
                links = np.unique(np.concatenate([incident[i] for i in ends.tolist()]))
            free[links] = True
        start = end
    return [int(v) if v else -i for i, v in enumerate(value.tolist())][1:]


def main(argv: list[str]) -> None:
    if len(argv) < 3:
        sys.exit(__doc__)
    enc = sat.encode(read_file(argv[0]).puzzle)
    hops = int(argv[3]) if len(argv) > 3 else 1
    options = {**sat.FIRST_OPTIONS, **(json.loads(argv[4]) if len(argv) > 4 else {})}
    began = time.process_time()
    model = bands_model(enc, int(argv[1]), int(argv[2]), hops, options)
    print(f"CPU {time.process_time() - began:.2f} s; meets every clause: "
          f"{model is not False and sat.satisfies(model, enc.clauses)}; load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main(sys.argv[1:])
