"""The first model built by augmenting walks (``hashikit.solvers.first``) against CaDiCaL's first
solve, on one board: CPU seconds of the construction, the islands it leaves off their number, the
small-solve mending of those, and CaDiCaL (``sat.FIRST_OPTIONS``) with and without the built counts
as phases.

    python benchmarks/first_construct.py BOARD [--states N] [--no-sat]
"""

from __future__ import annotations

import argparse
import time

from hashikit.service import load_puzzle
from hashikit.solvers import first, sat
from hashikit.solvers.cadical import CADICAL, open_solver


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("board")
    ap.add_argument("--states", type=int, default=first.WALK_STATES)
    ap.add_argument("--no-sat", action="store_true", help="skip the CaDiCaL calls")
    args = ap.parse_args()
    p = load_puzzle(args.board).puzzle
    began = time.process_time()
    p.links, p.incident, p.crossing_partners, p.link_capacities
    built = time.process_time()
    counts, short = first.construct(p, list(p.link_capacities), True, args.states)
    done = time.process_time()
    print(f"{len(p.islands)} islands: structure {built - began:.2f} s, construct {done - built:.2f} s, "
          f"left {len(short)}; {first.STATS}", flush=True)
    mended = list(counts)
    ok = first.mend(p, list(p.link_capacities), mended, short)
    print(f"mend {ok} {time.process_time() - done:.2f} s: {first.STATS.get('mend')}", flush=True)
    if args.no_sat:
        return
    enc = sat.encode(p)
    for name, phases in (("no phases", None), ("built counts as phases", counts)):
        t = time.process_time()
        with open_solver(CADICAL, enc.clauses, sat.FIRST_OPTIONS) as solver:
            if phases is not None:
                solver.set_phases([enc.var(k, j) if j <= c else -enc.var(k, j)
                                   for k, c in enumerate(phases) for j in range(1, enc.capacities[k] + 1)])
            answer = solver.solve()
        print(f"CaDiCaL {name}: {time.process_time() - t:.2f} s, {answer}", flush=True)


if __name__ == "__main__":
    main()
