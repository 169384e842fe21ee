"""Commands built on the deduction engine and the generators:
``hint``, ``explain``, ``grade``, ``generate`` and ``generate-suite``.

They use the same conventions as :mod:`hashikit.cli`: exit 0 on success, 1 when
the answer is "no" (ungraded, a wrong board), 2 for bad input.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from .cli import EXIT_BAD, EXIT_NO, EXIT_OK, BadInput, _load_puzzle, _positive_int, _read, _write_output

LEVEL_CHOICES = ("easy", "medium", "hard", "expert")


# -- grade / explain ----------------------------------------------------------
def cmd_grade(args) -> int:
    from .logic import grade

    puzzle = _load_puzzle(args.file, args.from_format).puzzle
    g = grade(puzzle, args.max_level)
    if args.format == "json":
        print(json.dumps({"grade": g.level, "score": g.score, "steps": g.steps_per_level,
                          "undecided": g.undecided}))
    else:
        steps = ", ".join(f"{lvl} {n}" for lvl, n in g.steps_per_level.items() if n)
        print(f"{g}" + (f"; steps: {steps}" if steps else ""))
    return EXIT_OK if g.level is not None else EXIT_NO


def cmd_explain(args) -> int:
    from .logic import solve_logically

    puzzle = _load_puzzle(args.file, args.from_format).puzzle
    state, steps, stuck = solve_logically(puzzle, args.max_level)
    if args.format == "json":
        print(json.dumps({"solved": not stuck, "steps": [_step_json(puzzle, s) for s in steps],
                          "undecided": len(state.undecided())}))
        return EXIT_OK if not stuck else EXIT_NO
    for n, step in enumerate(steps, 1):
        print(f"{n:3d}. [{step.level}] {step.sentence}")
    if stuck:
        print(f"stuck after {len(steps)} steps: no rule up to '{args.max_level}' applies; "
              f"{len(state.undecided())} links are still open (the puzzle needs search, or has several solutions)")
        return EXIT_NO
    print(f"solved by logic in {len(steps)} steps")
    return EXIT_OK


def _step_json(puzzle, step) -> dict:
    isl = puzzle.islands
    return {"rule": step.rule, "level": step.level, "sentence": step.sentence,
            "islands": [list(isl[i].pos) for i in step.islands],
            "links": [[*isl[puzzle.links[k].a].pos, *isl[puzzle.links[k].b].pos] for k in step.links],
            "changes": [[*isl[puzzle.links[k].a].pos, *isl[puzzle.links[k].b].pos, lo, hi]
                        for k, lo, hi in step.changes]}


# -- hint ---------------------------------------------------------------------
def player_mistakes(puzzle, partial) -> list[str]:
    """Bridges of a partial board that the puzzle's unique solution does not have (empty if not unique)."""
    from .model import describe_cell
    from .solvers import solve

    result = solve(puzzle, max_solutions=2)
    if result.unique is not True:
        return []
    truth = result.solution.bridges
    out = []
    for (p, q), k in partial.bridges.items():
        if k > truth.get((p, q), 0):
            out.append(f"the bridge{'s' if k > 1 else ''} from {describe_cell(*p)} to {describe_cell(*q)} "
                       f"({k}) {'are' if k > 1 else 'is'} not part of the solution"
                       + (f" (it has {truth[(p, q)]})" if (p, q) in truth else ""))
    return out


def cmd_hint(args) -> int:
    from .checker import check
    from .logic import State, contradictions, next_step

    puzzle = _load_puzzle(args.file, args.from_format).puzzle
    partial = None
    if args.state:
        sdoc = _read(args.state, args.state_format)
        if sdoc.solution is None:
            raise BadInput(f"{args.state}: holds no bridges")
        partial = sdoc.solution
        try:
            partial.counts(puzzle)
        except Exception as exc:  # a bridge on no link: the board does not fit this puzzle
            raise BadInput(f"{args.state}: {exc}") from None
    state = State.from_solution(puzzle, partial) if partial is not None else State(puzzle)
    problems = contradictions(state)
    if partial is not None and not problems and args.check_solution:
        problems = player_mistakes(puzzle, partial)
    if problems:
        if args.format == "json":
            print(json.dumps({"status": "conflict", "problems": problems}))
        else:
            print("Your board has a problem:")
            for p in problems:
                print(f"  - {p}")
        return EXIT_NO
    if partial is not None and check(puzzle, partial).ok:
        print(json.dumps({"status": "complete"}) if args.format == "json"
              else "The board is complete: every rule holds.")
        return EXIT_OK
    step = next_step(state, args.max_level)
    if step is None:
        text = (f"No step up to level '{args.max_level}' applies here: the puzzle needs a guess "
                f"(or has several solutions).")
        print(json.dumps({"status": "stuck", "message": text}) if args.format == "json" else text)
        return EXIT_NO
    if args.format == "json":
        print(json.dumps({"status": "hint", **_step_json(puzzle, step)}))
    else:
        print(f"[{step.level}] {step.sentence}")
    if args.svg:
        from . import render

        isl = puzzle.islands
        marks = [isl[i].pos for i in step.islands]
        marks += [(isl[puzzle.links[k].a].pos, isl[puzzle.links[k].b].pos) for k in step.links]
        render.write(args.svg, puzzle, partial, highlight=marks)
    return EXIT_OK


# -- generate -----------------------------------------------------------------
def _size(text: str) -> tuple[int, int]:
    """``WxH`` (columns x rows) or a single number for a square board."""
    try:
        if "x" in text.lower():
            w, h = text.lower().split("x", 1)
            cols, rows = int(w), int(h)
        else:
            cols = rows = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a board size: {text!r} (use WxH, e.g. 15x15)") from None
    if not (2 <= cols <= 1000 and 2 <= rows <= 1000):
        raise argparse.ArgumentTypeError("board sides run from 2 to 1000")
    return rows, cols


def _percent(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 <= v <= 100:
        raise argparse.ArgumentTypeError("a percentage runs from 0 to 100")
    return v


def _write_puzzle(puzzle, path: str | None, solution=None) -> None:
    from .formats import format_for_path, write_text

    if path in (None, "-"):
        _write_output(write_text(puzzle, "grid"), None)
        return
    fmt = format_for_path(path, writing=True)
    _write_output(write_text(puzzle, fmt.name, solution if fmt.needs_solution else None), path)


def _one_unique(job):
    """Worker: one graded unique puzzle (module level so a process pool can run it)."""
    from .generate import generate_unique

    rows, cols, difficulty, seed, maxb, time_limit = job
    try:
        puzzle, solution, g = generate_unique(rows, cols, difficulty, seed, maxbridges=maxb, time_limit=time_limit)
    except RuntimeError as exc:
        return seed, None, None, str(exc)
    return seed, puzzle, g, None


def cmd_generate(args) -> int:
    rows, cols = args.size
    if args.islands is not None:
        from .generate import coelho

        if args.difficulty:
            raise BadInput("--islands (the paper's generator) and --difficulty (unique graded puzzles) "
                           "are different modes; give one")
        if args.islands > rows * cols:
            raise BadInput(f"{args.islands} islands do not fit on a {cols}x{rows} board")
        try:
            puzzle = coelho(args.islands, rows, cols, args.alpha, args.beta, args.seed, maxbridges=args.max_bridges)
        except (RuntimeError, ValueError) as exc:
            raise BadInput(str(exc)) from None
        _write_puzzle(puzzle, args.output)
        return EXIT_OK
    if not args.difficulty:
        raise BadInput("say what to generate: --difficulty LEVEL (unique, graded) or --islands N (the paper's)")
    seed0 = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "little")
    jobs = [(rows, cols, args.difficulty, seed0 + i, args.max_bridges, args.time_limit) for i in range(args.count)]
    if args.count == 1:
        seed, puzzle, g, err = _one_unique(jobs[0])
        if puzzle is None:
            print(f"hashikit: no {args.difficulty} puzzle found: {err}", file=sys.stderr)
            return EXIT_NO
        _write_puzzle(puzzle, args.output)
        print(f"{args.difficulty} {cols}x{rows}, {len(puzzle.islands)} islands, grade {g}, seed {seed}",
              file=sys.stderr)
        return EXIT_OK
    return _generate_many(args, jobs)


def _generate_many(args, jobs) -> int:
    from concurrent.futures import ProcessPoolExecutor, as_completed

    out_dir = args.out_dir or "puzzles"
    os.makedirs(out_dir, exist_ok=True)
    ext = args.ext.lstrip(".")
    index, failed = [], 0
    progress = Progress(len(jobs), "generating")
    with ProcessPoolExecutor(max_workers=args.jobs or os.cpu_count() or 1) as pool:
        futures = [pool.submit(_one_unique, job) for job in jobs]
        for fut in as_completed(futures):
            seed, puzzle, g, err = fut.result()
            if puzzle is None:
                failed += 1
            else:
                name = f"{args.difficulty}-{puzzle.cols}x{puzzle.rows}-{seed}.{ext}"
                _write_puzzle(puzzle, os.path.join(out_dir, name))
                index.append({"file": name, "grade": g.level, "score": g.score, "islands": len(puzzle.islands),
                              "rows": puzzle.rows, "cols": puzzle.cols, "seed": seed})
            progress.step()
    progress.done()
    index.sort(key=lambda r: r["seed"])
    with open(os.path.join(out_dir, "index.json"), "w", encoding="utf-8") as fh:
        json.dump(index, fh, indent=1)
    with open(os.path.join(out_dir, "index.csv"), "w", encoding="utf-8") as fh:
        fh.write("file,grade,score,islands,rows,cols,seed\n")
        for r in index:
            fh.write(f"{r['file']},{r['grade']},{r['score']},{r['islands']},{r['rows']},{r['cols']},{r['seed']}\n")
    print(f"wrote {len(index)} puzzles and index.csv/index.json to {out_dir}"
          + (f"; {failed} seeds found no puzzle in time" if failed else ""), file=sys.stderr)
    return EXIT_OK if not failed else EXIT_NO


#: the published set's layout: islands -> board side
SUITE_SIDES = {100: 16, 200: 24, 300: 29, 400: 34}
SUITE_ALPHAS = (25, 50, 75)
SUITE_BETAS = (0, 5, 10, 15)


def cmd_generate_suite(args) -> int:
    from .formats import write_text
    from .generate import coelho

    sizes = args.islands or sorted(SUITE_SIDES)
    for n in sizes:
        if n not in SUITE_SIDES:
            raise BadInput(f"--islands {n}: the suite has 100, 200, 300 and 400 islands")
    total = len(sizes) * len(SUITE_ALPHAS) * len(SUITE_BETAS) * args.per_group
    progress = Progress(total, "generating suite")
    for n in sizes:
        side = SUITE_SIDES[n]
        folder = os.path.join(args.out_dir, str(n))
        os.makedirs(folder, exist_ok=True)
        for alpha in SUITE_ALPHAS:
            for beta in SUITE_BETAS:
                for idx in range(1, args.per_group + 1):
                    seed = (_stable_seed(args.seed, n, alpha, beta, idx) if args.seed is not None
                            else int.from_bytes(os.urandom(4), "little"))
                    puzzle = coelho(n, side, side, alpha, beta, seed)
                    name = f"Hs_{side}_{n}_{alpha:02d}_{beta:02d}_{idx:03d}.has"
                    with open(os.path.join(folder, name), "w", encoding="utf-8") as fh:
                        fh.write(write_text(puzzle, "has"))
                    progress.step()
    progress.done()
    print(f"wrote {total} instances under {args.out_dir}", file=sys.stderr)
    return EXIT_OK


def _stable_seed(seed: int, *parts: int) -> int:
    """A per-instance seed that is the same on every run and every Python (no hash randomisation)."""
    import zlib

    return zlib.crc32(repr((seed, *parts)).encode()) & 0x7FFFFFFF


class Progress:
    """A one-line progress counter on standard error (in place on a terminal, every 10% otherwise)."""

    def __init__(self, total: int, what: str):
        self.total, self.what, self.n = total, what, 0
        self.tty = sys.stderr.isatty()
        self.last_decile = -1

    def step(self) -> None:
        self.n += 1
        if self.tty:
            print(f"\r{self.what}: {self.n}/{self.total}", end="", file=sys.stderr, flush=True)
        else:
            decile = self.n * 10 // max(1, self.total)
            if decile != self.last_decile:
                self.last_decile = decile
                print(f"{self.what}: {self.n}/{self.total}", file=sys.stderr, flush=True)

    def done(self) -> None:
        if self.tty:
            print(file=sys.stderr)


# -- parsers ------------------------------------------------------------------
def add_parsers(sub) -> None:
    fmt = argparse.RawDescriptionHelpFormatter

    g = sub.add_parser("grade", help="grade a puzzle's difficulty by the rules a person needs", formatter_class=fmt,
                       description="Grade = the lowest level of human-style rules (easy, medium, hard, expert) that "
                                   "finishes the puzzle with no guessing; 'ungraded' when the rules get stuck. "
                                   "The score weighs each step by its level (1, 3, 9, 27).",
                       epilog="examples:\n  hashikit grade puzzle.txt\n  hashikit grade puzzle.txt --format json")
    g.add_argument("file", help="puzzle file")
    g.add_argument("--from", dest="from_format", metavar="FORMAT", help="input format")
    g.add_argument("--max-level", choices=LEVEL_CHOICES, default="expert", help="strongest rules to try")
    g.add_argument("--format", choices=("text", "json"), default="text",
                   help='json: {"grade": ..., "score": ..., "steps": {level: count}}')
    g.set_defaults(func=cmd_grade)

    e = sub.add_parser("explain", help="print the whole logical solve path, step by step", formatter_class=fmt,
                       description="Solve as a person would, one named deduction at a time, each with a sentence.",
                       epilog="example:\n  hashikit explain puzzle.txt --max-level medium")
    e.add_argument("file", help="puzzle file")
    e.add_argument("--from", dest="from_format", metavar="FORMAT", help="input format")
    e.add_argument("--max-level", choices=LEVEL_CHOICES, default="expert", help="strongest rules to use")
    e.add_argument("--format", choices=("text", "json"), default="text", help="text or json")
    e.set_defaults(func=cmd_explain)

    h = sub.add_parser("hint", help="the next logical step, with its reason", formatter_class=fmt,
                       description="Print the next deduction a person can make, and why. With --state, start "
                                   "from the bridges you have drawn so far (a solved-grid text or JSON solution); "
                                   "a board that already breaks a rule, or has a bridge the (unique) solution "
                                   "lacks, is reported with the offending bridges.",
                       epilog="examples:\n  hashikit hint puzzle.txt\n"
                              "  hashikit hint puzzle.txt --state my-board.sol --svg hint.svg")
    h.add_argument("file", help="puzzle file")
    h.add_argument("--state", metavar="SOLUTION", help="your board so far (bridges drawn)")
    h.add_argument("--from", dest="from_format", metavar="FORMAT", help="format of the puzzle file")
    h.add_argument("--state-format", metavar="FORMAT", help="format of the state file")
    h.add_argument("--max-level", choices=LEVEL_CHOICES, default="expert", help="strongest rules to use")
    h.add_argument("--no-solution-check", dest="check_solution", action="store_false",
                   help="do not compare your bridges with the solution (only the rules)")
    h.add_argument("--svg", metavar="OUT", help="draw the board with the hint highlighted (.svg or .png)")
    h.add_argument("--format", choices=("text", "json"), default="text", help="text or json")
    h.set_defaults(func=cmd_hint)

    n = sub.add_parser("generate", help="make puzzles: unique and graded, or the paper's benchmark kind",
                       formatter_class=fmt,
                       description="Two modes. --difficulty: puzzles with exactly one solution (proved by the exact "
                                   "solver) that grade exactly at that level. --islands: the generator of Coelho et al. "
                                   "(2019): a random tree grown along free lines, extra links (alpha), doubled "
                                   "bridges (beta); solvable, not necessarily unique.",
                       epilog="examples:\n  hashikit generate --size 15x15 --difficulty hard -o hard.txt\n"
                              "  hashikit generate --size 10x10 --difficulty easy --count 50 --out-dir easy/\n"
                              "  hashikit generate --islands 100 --size 16x16 --alpha 50 --beta 5 --seed 1 -o p.has")
    n.add_argument("--size", type=_size, required=True, metavar="WxH", help="board size, columns x rows")
    n.add_argument("--difficulty", choices=LEVEL_CHOICES, help="unique puzzle graded at this level")
    n.add_argument("--islands", type=_positive_int, metavar="N", help="the paper's generator with N islands")
    n.add_argument("--alpha", type=_percent, default=50, help="paper's cycles parameter, percent (default 50)")
    n.add_argument("--beta", type=_percent, default=5, help="paper's double-bridge parameter, percent (default 5)")
    n.add_argument("--max-bridges", type=_positive_int, default=2, metavar="M", help="MAXBRIDGES (default 2)")
    n.add_argument("--seed", type=int, help="random seed (same seed, same puzzle)")
    n.add_argument("--count", type=_positive_int, default=1, metavar="K", help="with --difficulty: make K puzzles")
    n.add_argument("--jobs", type=_positive_int, metavar="N", help="worker processes for --count (default: cores)")
    n.add_argument("--time-limit", type=float, default=120.0, metavar="S", help="give up on one puzzle after S s")
    n.add_argument("-o", "--output", metavar="FILE", help="write the puzzle here (format from the extension)")
    n.add_argument("--out-dir", metavar="DIR", help="with --count: folder for the puzzles and index.csv/json")
    n.add_argument("--ext", default="txt", help="with --count: file extension, i.e. format (default txt)")
    n.set_defaults(func=cmd_generate)

    s = sub.add_parser("generate-suite", help="write a benchmark set laid out like Coelho et al.'s",
                       formatter_class=fmt,
                       description="Folders 100/ 200/ 300/ 400/ of Hs_<side>_<n>_<alpha>_<beta>_<idx>.has files, "
                                   "alpha in 25, 50, 75 and beta in 0, 5, 10, 15, as the published set.",
                       epilog="example:\n  hashikit generate-suite --out-dir mysuite --per-group 5 --seed 7")
    s.add_argument("--out-dir", required=True, metavar="DIR", help="where to write the suite")
    s.add_argument("--per-group", type=_positive_int, default=30, metavar="K", help="instances per group (30)")
    s.add_argument("--islands", type=int, nargs="+", metavar="N", help="only these sizes (100 200 300 400)")
    s.add_argument("--seed", type=int, help="base seed: the same seed writes the same suite")
    s.set_defaults(func=cmd_generate_suite)


__all__ = ["add_parsers", "player_mistakes", "Progress", "EXIT_BAD"]
