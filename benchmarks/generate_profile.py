"""Where the instructions of a generated puzzle go: ``generate_unique`` by part, counted by
valgrind's callgrind (the machine's load does not move an instruction count).

A run of N puzzles records what each part of the generator was handed (the layout drawings'
random states, the boards drawn, the deducer's runs from scratch, the repairs' batches with the
state they start from, the finished puzzles), then each part is run again on what it was handed
under callgrind, less a run that loads the same records and runs nothing: the instructions the
part took, per puzzle.  What no part holds (the loop's own bookkeeping, the grade, the frame,
the final checked puzzle) is the rest of the total.

    python benchmarks/generate_profile.py --cells 15:easy 15:hard --tatham --seeds 30
"""

from __future__ import annotations

import argparse
import os
import pickle
import random
import subprocess
import sys
import tempfile
from pathlib import Path

from generate_bench import _collected  # (this folder is on the path when a script here runs)

HERE = Path(__file__).resolve().parent
PRESET = {"islands_percent": 30, "expansion": 10}

#: the parts, in the order a puzzle meets them; a repair's parts are cumulative stops of one replay
PARTS = ("drawing", "construction", "from scratch", "repair: choose", "repair: rebuild", "repair: carry",
         "repair: run", "proof: checker", "proof: SAT")


def record(size: int, level: str, seeds: int, options: dict, into: Path, first: int = 0) -> None:
    """Run seeds ``first``.. (``seeds`` of them, after an untimed first puzzle), recording each
    part's inputs."""
    from hashikit.generate import generate_unique, layouts
    from hashikit.generate import unique as U

    generate_unique(size, size, level, seed=10**6, **options)
    rec: dict[str, list] = {"drawing": [], "construction": [], "from scratch": [], "repair": [], "proof": []}
    board_t, board_r, scratch, batch, verify = (layouts._tatham_board, layouts._random_board, U._from_scratch,
                                                U._batch, U._verify)

    def drawn(fn, name):
        def wrapper(rows, cols, rng, *rest):
            state = rng.getstate()
            board = fn(rows, cols, rng, *rest)
            rec["drawing"].append((name, rows, cols, state, rest[:-1]))  # (the deadline left out)
            maxbridges = rest[2] if name == "tatham" else rest[3]
            rec["construction"].append(pickle.dumps((board, maxbridges, options.get("no_loops", False))))
            return board
        return wrapper

    def from_scratch(puzzle, difficulty, target, deadline, Deducer, State, quick, geo=None):
        rec["from scratch"].append(pickle.dumps((puzzle, difficulty, target, quick)))
        return scratch(puzzle, difficulty, target, deadline, Deducer, State, quick, geo)

    def repair(puzzle, counts, deducer, rng, *rest):
        rec["repair"].append(pickle.dumps((puzzle, counts, deducer, rng.getstate(), rest)))
        return batch(puzzle, counts, deducer, rng, *rest)

    def proof(puzzle, solution, deadline, counts=None):
        rec["proof"].append(pickle.dumps((puzzle, solution, counts)))
        return verify(puzzle, solution, deadline, counts)

    U._tatham_board, U._random_board = drawn(board_t, "tatham"), drawn(board_r, "random")
    U._from_scratch, U._batch, U._verify = from_scratch, repair, proof
    for seed in range(first, first + seeds):
        generate_unique(size, size, level, seed=seed, **options)
    rec["level"] = level
    into.write_bytes(pickle.dumps(rec))


def replay(path: str, part: str) -> None:
    """Run ``part`` again on what was recorded (``none``: load the records, run nothing)."""
    from hashikit.checker import check
    from hashikit.generate import layouts
    from hashikit.generate import unique as U
    from hashikit.logic.deducer import Deducer
    from hashikit.logic.state import State
    from hashikit.solvers.proof import unique_proof

    rec = pickle.loads(Path(path).read_bytes())
    level = rec["level"]
    def loaded(records):  # each pickled as the part found it (a puzzle with what it had worked out)
        return [pickle.loads(b) for b in records]

    def rng_at(state):
        rng = random.Random()
        rng.setstate(state)
        return rng

    # what every run does, the one that runs nothing too: load the records, make their random
    # generators, and run each part once on other records (what a first call loads and caches)
    warm = pickle.loads(Path(path + ".warm").read_bytes())
    drawings = [(name, rows, cols, rng_at(state), rest) for name, rows, cols, state, rest in rec["drawing"]]
    boards, scratch, proofs = loaded(rec["construction"]), loaded(rec["from scratch"]), loaded(rec["proof"])
    repairs = [(p, c, d, rng_at(state), rest) for p, c, d, state, rest in loaded(rec["repair"])]
    for name, rows, cols, state, rest in warm["drawing"][:1]:
        (layouts._tatham_board if name == "tatham" else layouts._random_board)(rows, cols, rng_at(state), *rest, None)
    for puzzle, difficulty, target, quick in loaded(warm["from scratch"])[:2]:
        U._from_scratch(puzzle, difficulty, target, None, Deducer, State, quick)
    for puzzle, solution, counts in loaded(warm["proof"])[:1]:
        check(puzzle, solution)
        if not puzzle.no_loops:
            unique_proof(puzzle, solution.counts(puzzle), solver=U._PROOF_SOLVER)
    if part == "drawing":
        for name, rows, cols, rng, rest in drawings:
            (layouts._tatham_board if name == "tatham" else layouts._random_board)(rows, cols, rng, *rest, None)
    elif part == "construction":
        for board, maxbridges, no_loops in boards:
            board.construction(maxbridges, no_loops)
    elif part == "from scratch":
        for puzzle, difficulty, target, quick in scratch:
            U._from_scratch(puzzle, difficulty, target, None, Deducer, State, quick)
    elif part.startswith("repair"):
        stop = PARTS.index(part)
        for puzzle, counts, deducer, rng, rest in repairs:
            chosen, _left = U._batch(puzzle, counts, deducer, rng, *rest)
            if stop == PARTS.index("repair: choose") or not chosen:
                continue
            new, _counts, where = U._apply(puzzle, counts, chosen, rest[2])
            if stop == PARTS.index("repair: rebuild"):
                continue
            trial = U._carry(deducer, puzzle, new, where)
            if stop == PARTS.index("repair: run"):
                trial.run(level)
    elif part.startswith("proof"):
        for puzzle, solution, counts in proofs:
            check(puzzle, solution)
            if part == "proof: SAT" and not puzzle.no_loops:
                unique_proof(puzzle, solution.counts(puzzle) if counts is None else counts, solver=U._PROOF_SOLVER)


def profile(size: int, level: str, seeds: int, options: dict) -> dict[str, float]:
    """Instructions a puzzle: the whole run and each part (cumulative parts made single)."""
    me = [sys.executable, str(Path(__file__).resolve())]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "rec.pickle"
        code = ("import sys; sys.path.insert(0, %r); import generate_bench as b; b.count_run(%d, %r, %%d, %r)"
                % (str(HERE), size, level, options or None))
        total = (_collected([sys.executable, "-c", code % seeds]) - _collected([sys.executable, "-c", code % 0]))
        subprocess.run(me + ["--record", str(path), f"{size}:{level}", str(seeds), repr(options)], check=True)
        # the warm-up records: two more puzzles of other seeds
        code = ("import sys; sys.path.insert(0, %r); import generate_profile as g; "
                "g.record(%d, %r, 2, %r, g.Path(%r), first=10**7)" % (str(HERE), size, level, options, str(path) + ".warm"))
        subprocess.run([sys.executable, "-c", code], check=True)
        none = _collected(me + ["--replay", str(path), "none"])
        got = {part: (_collected(me + ["--replay", str(path), part]) - none) / seeds for part in PARTS}
    for later, earlier in (("repair: run", "repair: carry"), ("repair: carry", "repair: rebuild"),
                           ("repair: rebuild", "repair: choose"), ("proof: SAT", "proof: checker")):
        got[later] -= got[earlier]
    got["total"] = total / seeds
    got["the rest"] = got["total"] - sum(got[p] for p in PARTS)
    return got


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cells", nargs="+", default=["15:easy", "15:medium", "15:hard"], help="SIZE:LEVEL cells")
    ap.add_argument("--tatham", action="store_true", help="Tatham's preset layout (else the default one)")
    ap.add_argument("--seeds", type=int, default=30)
    ap.add_argument("--record", nargs=4, metavar=("PATH", "CELL", "SEEDS", "OPTIONS"), help=argparse.SUPPRESS)
    ap.add_argument("--replay", nargs=2, metavar=("PATH", "PART"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.record:
        path, cell, seeds, options = args.record
        size, level = cell.split(":")
        record(int(size), level, int(seeds), eval(options), Path(path))  # (our own repr of a dict)
        return 0
    if args.replay:
        replay(*args.replay)
        return 0
    options = PRESET if args.tatham else {}
    rows = []
    for cell in args.cells:
        size, level = cell.split(":")
        got = profile(int(size), level, args.seeds, options)
        rows.append((cell, got))
        print(cell, " ".join(f"{k}={v / 1e6:.2f}M" for k, v in got.items()), flush=True)
    print(f"\nInstructions a puzzle, millions ({'Tatham' if args.tatham else 'default'} layout, seeds 0.."
          f"{args.seeds - 1}; load average {os.getloadavg()[0]:.1f}, which callgrind's counts do not see):\n")
    print("| part | " + " | ".join(c for c, _ in rows) + " |")
    print("| --- | " + " | ".join("---:" for _ in rows) + " |")
    for part in (*PARTS, "the rest", "total"):
        print(f"| {part} | " + " | ".join(f"{got[part] / 1e6:.2f} ({100 * got[part] / got['total']:.0f}%)"
                                          for _c, got in rows) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
