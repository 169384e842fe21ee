"""Guard for the deduction rules: the same puzzles must get the same steps before and after a speed-up.

The levels are a contract (easy/medium/hard are Tatham's stages 1-3, expert hashikit's
rules), so a change that only makes the rules or the engine cheaper must leave every
step the same.  ``--record FILE`` grades a fixed set of puzzles and writes, per puzzle,
the grade (level, score, steps per level) and a digest of the whole step sequence
(rule, level, changed intervals, sentence); ``--compare FILE`` grades the same puzzles
(read back from FILE, so the set does not depend on the code under test) and lists
every difference.

The set: every published puzzle under ``shared/puzzles/real``; puzzles made by
``generate_unique`` at 7x7..25x25, every level, fixed seeds; and random (mostly not
unique) layouts, where the rules get stuck and the ``contradiction`` rule runs.  With
``--generate`` the generator's output for the same seeds is compared too (it steers by
the engine's stuck states, so it should make the very same puzzles).

    python benchmarks/grade_guard.py --record /tmp/grades.json      # before the change
    python benchmarks/grade_guard.py --compare /tmp/grades.json     # after it
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from pathlib import Path

from hashikit.generate import generate_unique, random_solution
from hashikit.logic.deducer import solve_logically
from hashikit.logic.grade import WEIGHTS
from hashikit.logic.state import LEVELS
from hashikit.model import Puzzle

HERE = Path(__file__).resolve().parent
REAL = HERE.parents[1] / "shared" / "puzzles" / "real"
SIZES = (7, 10, 15, 20, 25)


def published() -> list[tuple[str, Puzzle]]:
    out = []
    for f in sorted(REAL.glob("*/*.jsonl")):
        for n, line in enumerate(f.read_text().splitlines(), 1):
            if line.strip():
                rec = json.loads(line)
                out.append((f"real/{f.parent.name}#{n}", Puzzle.from_grid(rec["grid"], rec.get("maxb", 2))))
    return out


def generated(seeds: int) -> list[tuple[str, Puzzle]]:
    out = []
    for size in SIZES:
        for level in LEVELS:
            for seed in range(seeds):
                try:
                    puzzle, _sol, _g = generate_unique(size, size, level, seed=seed, time_limit=60, verify=False)
                except RuntimeError:
                    continue
                out.append((f"gen/{size}:{level}:{seed}", puzzle))
    for seed in range(seeds):  # the no-loops variant
        puzzle, _sol, _g = generate_unique(10, 10, LEVELS[seed % 4], seed=seed, no_loops=True, verify=False)
        out.append((f"genL/10:{LEVELS[seed % 4]}:{seed}", puzzle))
    return out


def layouts(count: int) -> list[tuple[str, Puzzle]]:
    out = []
    for seed in range(count):
        size = 7 + seed % 9
        rng = random.Random(1000 + seed)
        puzzle, _sol = random_solution(size, size, rng, allow_adjacent=bool(seed % 2),
                                       maxbridges=1 + seed % 4, cycles=0 if seed % 5 == 4 else 0.25)
        if seed % 5 == 4:  # the no-loops variant
            puzzle = Puzzle(puzzle.rows, puzzle.cols, puzzle.islands, puzzle.maxbridges, no_loops=True)
        out.append((f"layout/{size}:{seed}", puzzle))
    return out


def grade_record(puzzle: Puzzle) -> dict:
    """Grade, steps per level and a digest of every step (the run ``grade`` does)."""
    state, steps, stuck = solve_logically(puzzle, "expert")
    per = {level: 0 for level in LEVELS}
    digest = hashlib.sha256()
    for s in steps:
        per[s.level] += 1
        digest.update(repr((s.rule, s.level, s.islands, s.links, s.changes, s.sentence)).encode())
    used = [level for level in LEVELS if per[level]]
    level = None if stuck else (used[-1] if used else "easy")
    return {"level": level, "score": sum(WEIGHTS[s.level] for s in steps), "per": per,
            "steps": len(steps), "digest": digest.hexdigest(), "undecided": len(state.undecided())}


def puzzle_data(p: Puzzle) -> dict:
    return {"rows": p.rows, "cols": p.cols, "islands": [list(i) for i in p.islands], "maxb": p.maxbridges,
            "no_loops": p.no_loops}


def from_data(d: dict) -> Puzzle:
    return Puzzle(d["rows"], d["cols"], [tuple(i) for i in d["islands"]], d["maxb"], no_loops=d["no_loops"])


def run(puzzles: list[tuple[str, Puzzle]]) -> tuple[dict, float]:
    out, start = {}, time.perf_counter()
    for name, p in puzzles:
        out[name] = {"puzzle": puzzle_data(p), "grade": grade_record(p)}
    return out, time.perf_counter() - start


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    group = ap.add_mutually_exclusive_group(required=True)
    group.add_argument("--record", type=Path, help="grade the set and write it to this file")
    group.add_argument("--compare", type=Path, help="grade the set stored in this file and compare")
    ap.add_argument("--seeds", type=int, default=10, help="generated puzzles per size and level (default 10)")
    ap.add_argument("--layouts", type=int, default=60, help="random layouts (default 60)")
    ap.add_argument("--generate", action="store_true",
                    help="with --compare: also check that generate_unique makes the same puzzles")
    args = ap.parse_args(argv)
    if args.record:
        puzzles = published() + generated(args.seeds) + layouts(args.layouts)
        data, took = run(puzzles)
        args.record.write_text(json.dumps(data))
        print(f"recorded {len(data)} puzzles in {took:.1f} s (grading) -> {args.record}")
        return 0
    stored = json.loads(args.compare.read_text())
    puzzles = [(name, from_data(rec["puzzle"])) for name, rec in stored.items()]
    data, took = run(puzzles)
    bad = [name for name in stored if stored[name]["grade"] != data[name]["grade"]]
    for name in bad:
        print(f"DIFFERENT {name}: before {stored[name]['grade']} now {data[name]['grade']}")
    if args.generate:
        for name, rec in stored.items():
            if not name.startswith("gen/"):
                continue
            size, level, seed = name[4:].split(":")
            p, _s, _g = generate_unique(int(size), int(size), level, seed=int(seed), time_limit=60, verify=False)
            if puzzle_data(p) != rec["puzzle"]:
                bad.append(name)
                print(f"GENERATED DIFFERENTLY {name}")
    print(f"{len(stored) - len(bad)}/{len(stored)} puzzles the same; grading took {took:.1f} s")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
