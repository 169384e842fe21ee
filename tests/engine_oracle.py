"""One comparison of an engine with the brute-force oracle (:mod:`oracle`), shared by the tests of
the SAT engine's paths: on ``n`` random boards, the solutions it lists (up to ``cap``), whether it
calls the list complete, and its uniqueness answer, against the oracle's count; every solution
through the rule checker."""

from __future__ import annotations

import random

from hashikit.model import Puzzle
from hashikit.solvers import solve

from oracle import count_solutions, random_board
from test_oracle import valid


def disagreements(n: int, seed: int, no_loops: bool, options: dict | None = None, cap: int = 12,
                  before=None, also=None) -> list[str]:
    """What went wrong on each board, as sentences naming the board.  ``options``: the ``sat``
    engine's; ``before()`` runs before each board's solves; ``also(puzzle, solutions)``, given the
    oracle's solutions (all of them, up to 1000), returns a further complaint or None."""
    options = dict(options or {})
    rng = random.Random(seed)
    bad = []
    for _ in range(n):
        grid, mb = random_board(rng, trees=0.5 if no_loops else 0.0)
        puzzle = Puzzle.from_grid(grid, mb, no_loops=no_loops)
        want, solutions = count_solutions(grid, mb, no_loops=no_loops, cap=1000 if also else cap + 1)
        if before is not None:
            before()
        res = solve(puzzle, engine="sat", max_solutions=cap, implied=False, **options)
        why = None
        if (want > 0) != res.solved or len(res.solutions) != min(want, cap):
            why = f"{len(res.solutions)} solutions ({res.status.value}), oracle {want}"
        elif len(set(res.solutions)) != len(res.solutions) or not all(valid(puzzle, s) for s in res.solutions):
            why = "a repeated or invalid solution"
        elif want < cap and want and not res.complete:
            why = f"all {want} found but not called complete"
        elif want and solve(puzzle, engine="sat", max_solutions=2, implied=False, **options).unique is not (want == 1):
            why = f"uniqueness wrong, oracle {want}"
        elif also is not None and want < 1000:
            why = also(puzzle, solutions)
        if why:
            bad.append(f"{why}: maxbridges {mb}, no_loops {no_loops}, grid {grid}")
    return bad
