"""The first model of a large board under CaDiCaL options: one line per (board, options).

    python benchmarks/first_options.py BOARD [OPTIONS_JSON ...]

Each OPTIONS_JSON (default ``{}``) is laid over ``sat.FIRST_OPTIONS``; every run solves
``sat.encode``'s formula (no connectivity) on a CaDiCaL 1.9.5 of its own, in this process, one
after the other, and prints the CPU seconds of loading and solving, CaDiCaL's own counts
(restarts, conflicts, decisions, propagations) and the load average.  The formula is encoded once
per board.  CaDiCaL is deterministic: one configuration on one board always runs the same search,
so its conflicts compare across sittings where its seconds do not.  Tables: ``results/scale_first.md``.
"""

from __future__ import annotations

import json
import os
import sys
import time

import pysolvers

from hashikit.formats import read_file
from hashikit.solvers import sat
from hashikit.solvers.cadical import CADICAL, open_solver


def main(argv: list[str]) -> None:
    if not argv:
        sys.exit(__doc__)
    board, specs = argv[0], argv[1:] or ["{}"]
    puzzle = read_file(board).puzzle
    began = time.process_time()
    enc = sat.encode(puzzle)
    encoded = time.process_time() - began
    for spec in specs:
        options = {**sat.FIRST_OPTIONS, **json.loads(spec)}
        began = time.process_time()
        solver = open_solver(CADICAL, enc.clauses, options)
        loaded = time.process_time()
        answer = solver.solve()
        solved = time.process_time()
        counts = pysolvers.cadical195_acc_stats(solver._solver)
        solver.delete()
        print(f"{os.path.basename(board)} {spec} encode {encoded:.2f} load {loaded - began:.2f} "
              f"solve {solved - loaded:.2f} sat {answer} {json.dumps(counts)} "
              f"loadavg {os.getloadavg()[0]:.1f}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
