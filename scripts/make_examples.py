"""Make the files of ``examples/`` that the README's and the ``--help`` examples use, the same every
time (fixed seeds): a puzzle, a wrong solution of it, a game state, a screenshot of the game drawn
by hashikit's renderer, folders of easy and hard puzzles, and a catalogue of them.

    python scripts/make_examples.py            # writes examples/ beside this folder
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hashikit import render  # noqa: E402
from hashikit.formats import write_text  # noqa: E402
from hashikit.generate import generate_unique  # noqa: E402
from hashikit.model import Solution  # noqa: E402
from hashikit.publish.catalog import Catalog  # noqa: E402


def main(out: Path = ROOT / "examples") -> None:
    out.mkdir(exist_ok=True)
    puzzle, solution, _ = generate_unique(7, 7, "easy", seed=7)
    (out / "puzzle.txt").write_text(write_text(puzzle, "grid"))
    # a wrong solution: one bridge left out (two islands short of their numbers, and the board falls
    # apart in two groups)
    wrong = dict(solution.bridges)
    del wrong[next(pair for pair, k in sorted(wrong.items()) if k == 1)]
    (out / "my-solution.sol").write_text(write_text(puzzle, "solved", Solution(wrong)))
    # a game so far: the first four bridges of the solution
    partial = Solution(dict(sorted(solution.bridges.items())[:4]))
    (out / "my-board.json").write_text(json.dumps({"format": "hashikit-solution", "bridges": partial.to_list()})
                                       + "\n")
    (out / "screenshot.png").write_bytes(render.png(puzzle, partial, cell=48))
    # folders of easy and hard puzzles, and a catalogue of them
    catalogue = out / "puzzles.db"
    catalogue.unlink(missing_ok=True)
    with Catalog(catalogue) as cat:
        for level, side, seeds in (("easy", 10, range(1, 6)), ("hard", 15, range(1, 4))):
            folder = out / level
            folder.mkdir(exist_ok=True)
            for seed in seeds:
                p, s, g = generate_unique(side, side, level, seed=seed)
                (folder / f"{level}-{side}x{side}-{seed}.txt").write_text(write_text(p, "grid"))
                cat.add(p, s, level=g.level, score=g.score, seed=seed, source=f"{level}-{side}x{side}-{seed}.txt")


if __name__ == "__main__":
    main()
