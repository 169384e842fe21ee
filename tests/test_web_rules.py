"""The page's own rule checks (hashikit/web/static/referee.js) against hashikit's checker, in Chromium.

A few hundred boards -- puzzles from the project's generator, from Simon Tatham's generator
(Debian's sgt-bridges) and random boards that need not be solvable, each with random bridges,
"no bridge" marks, hints' limits and locks, and boards on the way to a puzzle's solution -- are
judged in the browser by referee.js and in Python by ``checker.check`` and ``service.check``.  They
must agree on every board: the verdicts (complete; valid while in play), and the islands and links
each rule names (crossings, too many bridges, island counts, the groups, loops, marks), and the
page must refuse a bridge exactly when the checker finds the board after it breaking a rule at that
link.  The page's own deductions (an island that can no longer be finished, a finished group cut
off) must never show on a board that is part of the unique solution.

The comparison runs once more on deliberately broken copies of referee.js, and must find each one
broken: the test can fail.  ``-m slow`` runs ten times as many boards, drawn afresh.

The server and browser are those of tests/test_web_e2e.py.
"""

from __future__ import annotations

import json
import os
import random
from collections import defaultdict
from pathlib import Path

import pytest

from test_web_e2e import browser, open_page, serve, server  # noqa: F401

from hashikit import service
from hashikit.checker import check as rule_check
from hashikit.formats import read_text, write_text
from hashikit.generate.unique import generate_unique
from hashikit.limits import WEB
from hashikit.model import Puzzle, Solution
from hashikit.solvers import solve

REFEREE_JS = Path(__file__).resolve().parents[1] / "hashikit" / "web" / "static" / "referee.js"

#: made by Debian's sgt-bridges 20230122.806ae71 (``sgt-bridges --generate 2 PARAMS``): puzzles
#: from a generator no one here wrote, fixed so that every run tries the same boards
TATHAM = [
    "7x7m2:2a4c3h3c2i5d4h4d3", "7x7m2:3b6b3g5a4b2b2d1b2e3a5a4a4a2d",
    "10x10m2:4c5a5b4a4a2h1a3c1b5d6b3k3c4d5c1g2c4a3f3a1b4a5f2",
    "10x10m2:4g2b4a5c5a2n4b6a5j3j2b4b3a44b5a6b4j13a3b4b3a",
    "8x8m3L:a2b3b41h5c5a5h3a8a3f3a4j3a7d4", "8x8m3L:4a3a6a4h1a3a4b3a3h2f4b4b1i6a5a6b3",
    "6x9m1:2d1b1a1g3a3a3h2b3a2a1d1d2a3a2a", "6x9m1:1a2b1f3a4a1g3a4b2h3a2f12a2a1a",
    "12x8m4:a3i44n8d9a8a8e3p5c8b7a1d3h6a6a4e6b7",
    "12x8m4:a5e3a3a74l4iA9a5b6c4c6b3j2a8b3d7gAa81k",
    "9x9m2L:3f2c3e2i4a4b5a4s4f2f4b22a2d1a", "9x9m2L:g2a2a5b2f1d1e1c2b2c5j3a7d4j1a4e2",
    "15x15m2:b2a4b3a3d34d4b4b6a2m2a45b2e2a5a1g1a4e4a1a2e2b3b6d5e2r5j4r3e4b2a3r2b2a1a2a5a3r2e6e5a3",
    "5x5m2:1a5a4e1a3h2b4", "5x5m2:2a3a3f4b4f4a2a",
]

#: the project's generator: (rows, cols, level, MAXBRIDGES, no loops)
GENERATED = [(r, c, level, mb, nl) for r, c in ((5, 5), (7, 7), (6, 9), (9, 9))
             for level, mb, nl in (("easy", 2, False), ("easy", 1, False), ("medium", 3, True),
                                   ("hard", 4, False), ("easy", 2, True))]

#: the checker's rules that bridges laid on the page's links can break (any other is a disagreement:
#: the page took for a link what the checker does not)
CHECKER_RULES = {"crossing", "too-many-bridges", "island-count", "disconnected", "loop"}


# ------------------------------------------------------------------ the boards
def random_board(rng: random.Random) -> Puzzle:
    """Islands anywhere (neighbours too), numbers 1 to 4 x MAXBRIDGES, sometimes an ignored island."""
    while True:
        rows, cols, mb = rng.randint(2, 9), rng.randint(2, 9), rng.randint(1, 4)
        density = rng.uniform(0.15, 0.5)
        islands = [(r, c, rng.randint(1, min(4 * mb, 8))) for r in range(rows) for c in range(cols)
                   if rng.random() < density]
        if len(islands) >= 2:
            break
    ignore = [tuple(rng.choice(islands)[:2])] if rng.random() < 0.15 and len(islands) > 3 else []
    return Puzzle(rows, cols, islands, mb, ignore=ignore, no_loops=rng.random() < 0.3)


def unique_solution(puzzle: Puzzle) -> Solution | None:
    result = solve(puzzle, max_solutions=2)
    return result.solution if result.unique else None


def puzzles(rng: random.Random, scale: int):
    """(puzzle, its unique solution or None)"""
    for k, (rows, cols, level, mb, nl) in enumerate(GENERATED * scale):
        puzzle, solution, _ = generate_unique(rows, cols, level, seed=rng.randrange(2**32) if scale > 1 else k,
                                              maxbridges=mb, no_loops=nl)
        yield puzzle, solution
    for game_id in TATHAM:
        puzzle = read_text(game_id, "tatham").puzzle
        yield puzzle, unique_solution(puzzle)
    for _ in range(40 * scale):
        yield random_board(rng), None


def cap(puzzle: Puzzle, k: int) -> int:
    link = puzzle.links[k]
    return min(puzzle.maxbridges, puzzle.islands[link.a].number, puzzle.islands[link.b].number)


def random_position(rng: random.Random, puzzle: Puzzle) -> dict:
    """Bridges on any link (now and then over its cap or MAXBRIDGES), marks, hints' limits, locks."""
    full = rng.uniform(0.1, 0.9)
    counts = []
    for k in range(len(puzzle.links)):
        n = rng.randint(1, cap(puzzle, k)) if rng.random() < full else 0
        if rng.random() < 0.04:
            n = rng.randint(cap(puzzle, k) + 1, puzzle.maxbridges + 1)
        counts.append(n)
    marks = {k for k in range(len(puzzle.links)) if rng.random() < 0.1}
    at_most = {k: rng.randint(0, puzzle.maxbridges) for k in range(len(puzzle.links)) if rng.random() < 0.06}
    locked = {i for i in range(len(puzzle.islands)) if rng.random() < 0.06}
    return {"counts": counts, "marks": marks, "at_most": at_most, "locked": locked, "part_of": None}


def part_of_solution(rng: random.Random, puzzle: Puzzle, solution: Solution, whole: bool = False) -> dict:
    """Bridges no more than the solution's, marks only where it has none: nothing to show as wrong."""
    sol = [solution.bridges.get(ends(puzzle, k), 0) for k in range(len(puzzle.links))]
    counts = sol if whole else [rng.randint(0, n) if rng.random() < 0.8 else 0 for n in sol]
    marks = {k for k, n in enumerate(sol) if n == 0 and rng.random() < 0.3}
    return {"counts": list(counts), "marks": marks, "at_most": {}, "locked": set(), "part_of": sol}


def ends(puzzle: Puzzle, k: int):
    link = puzzle.links[k]
    return puzzle.islands[link.a].pos, puzzle.islands[link.b].pos


def boards(seed: int, scale: int):
    """[(puzzle, position)] and the parse answers the page reads, by puzzle."""
    rng = random.Random(seed)
    out, parsed = [], []
    for puzzle, solution in puzzles(rng, scale):
        text = write_text(puzzle, "json")
        parsed.append(service.parse(text, "json", WEB).as_json())
        puzzle = read_text(text, "json").puzzle     # the puzzle as the page's server reads it
        index = len(parsed) - 1
        for _ in range(5):
            out.append((index, puzzle, random_position(rng, puzzle)))
        if solution is not None:
            for _ in range(3):
                out.append((index, puzzle, part_of_solution(rng, puzzle, solution)))
            out.append((index, puzzle, part_of_solution(rng, puzzle, solution, whole=True)))
    return out, parsed


# ------------------------------------------------------------------ the page's side
PAGE_JUDGE = """async (url) => {
  const R = await import(url), [puzzles, boards] = window.boardsToJudge;
  const graphs = puzzles.map((p) => R.graphOf(p));
  return JSON.stringify(boards.map((b) => {
    const g = graphs[b.puzzle], pos = R.emptyPosition(g);
    R.applyBridgeList(g, b.bridges, pos.counts);
    for (const m of b.marks) pos.marks[R.linkAt(g, m)] = true;
    for (const [r1, c1, r2, c2, most] of b.atMost) pos.atMost.set(R.linkAt(g, [r1, c1, r2, c2]), most);
    for (const [r, c] of b.locked) pos.locked.add(R.islandIndex(g, r, c));
    const cell = (i) => [g.islands[i].r, g.islands[i].c], ends = (k) => R.ends(g, k);
    const j = R.judge(g, pos);
    const refusals = [];
    g.links.forEach((l, k) => {
      if (pos.counts[k] + 1 > l.cap) return;
      const why = R.refusal(g, pos, k, pos.counts[k] + 1);
      refusals.push([ends(k), why && why.rule, why && why.island !== undefined ? cell(why.island) : null,
                     R.canTakeMore(g, pos, k)]);
    });
    return {
      complete: j.complete, valid: j.valid, refusals,
      violations: j.violations.map((v) => ({ rule: v.rule, islands: v.islands.map(cell), links: v.links.map(ends),
                                             over: !!v.over, groups: v.groups ? v.groups.map((p) => p.map(cell)) : null })),
      errors: { islands: [...j.errors.islands].map(cell), links: [...j.errors.links].map(ends) },
    };
  }));
}"""


def page_request(boards_, parsed):
    """The boards as the page's state holds them: bridges, marks, limits and locks by their cells."""
    out = []
    for index, puzzle, pos in boards_:
        cells = [[*a, *b] for a, b in (ends(puzzle, k) for k in range(len(puzzle.links)))]
        out.append({
            "puzzle": index,
            "bridges": [[*cells[k], n] for k, n in enumerate(pos["counts"]) if n],
            "marks": [cells[k] for k in sorted(pos["marks"])],
            "atMost": [[*cells[k], most] for k, most in sorted(pos["at_most"].items())],
            "locked": [list(puzzle.islands[i].pos) for i in sorted(pos["locked"])],
        })
    return parsed, out


def send_boards(page, boards_, parsed):
    """The boards to the page, once, as JSON (Playwright's own serialisation of a few hundred boards
    takes seconds)."""
    page.evaluate("(r) => { window.boardsToJudge = JSON.parse(r); }", json.dumps(page_request(boards_, parsed)))


def judge_in_page(page, url):
    """The judgement of each board sent by the referee at `url`."""
    return json.loads(page.evaluate(PAGE_JUDGE, url))


# ------------------------------------------------------------------ the checker's side
def link_key(cells) -> frozenset:
    r1, c1, r2, c2 = cells
    return frozenset({(r1, c1), (r2, c2)})


def solution_of(puzzle: Puzzle, counts) -> Solution:
    return Solution({ends(puzzle, k): n for k, n in enumerate(counts) if n})


def mark_list(puzzle: Puzzle, pos: dict) -> list:
    """The marks as the page sends them (referee.js markList)."""
    cells = lambda k: [*ends(puzzle, k)[0], *ends(puzzle, k)[1]]  # noqa: E731
    return [cells(k) for k in sorted(pos["marks"])] + \
        [[*cells(k), most] for k, most in sorted(pos["at_most"].items()) if k not in pos["marks"]]


def loop_links(puzzle: Puzzle, counts) -> set:
    """The bridged links on a cycle, by brute force: those whose ends stay joined without them."""
    bridged = [k for k, n in enumerate(counts) if n]
    out = set()
    for k in bridged:
        adj = defaultdict(list)
        for o in bridged:
            if o != k:
                a, b = puzzle.links[o].a, puzzle.links[o].b
                adj[a].append(b)
                adj[b].append(a)
        start, goal = puzzle.links[k].a, puzzle.links[k].b
        seen, todo = {start}, [start]
        while todo:
            for j in adj[todo.pop()]:
                if j not in seen:
                    seen.add(j)
                    todo.append(j)
        if goal in seen:
            out.add(frozenset(ends(puzzle, k)))
    return out


def expected(puzzle: Puzzle, pos: dict) -> dict:
    """What the checker says of a board: the verdicts and what each rule names."""
    counts, marks = pos["counts"], mark_list(puzzle, pos)
    solution = solution_of(puzzle, counts)
    report = rule_check(puzzle, solution)
    full = service.check(puzzle, solution, marks=marks)
    play = service.check(puzzle, solution, in_play=True, marks=marks)
    by_rule = defaultdict(list)
    for v in report.violations:
        by_rule[v.rule].append(tuple(tuple(c) for c in v.cells))
    return {
        "complete": full.complete, "valid": play.valid, "rules": set(by_rule),
        "crossing": {frozenset({frozenset(c[:2]), frozenset(c[2:])}) for c in by_rule["crossing"]},
        "too-many-bridges": {frozenset(c) for c in by_rule["too-many-bridges"]},
        "island-count": {c[0] for c in by_rule["island-count"]},
        "over": {tuple(v.cells[0]) for v in play.violations if v.rule == "island-count"},
        "groups": ({frozenset(map(tuple, comp)) for comp in report.components}
                   if "disconnected" in by_rule else set()),
        "loop": set(by_rule["loop"][0]) if by_rule["loop"] else set(),
        "loop_links": loop_links(puzzle, counts) if puzzle.no_loops else set(),
        "marked": {frozenset(map(tuple, (v.cells[0], v.cells[1]))) for v in play.violations if v.rule == "marked"},
        "over_cap": {frozenset(ends(puzzle, k)) for k, n in enumerate(counts) if n > cap(puzzle, k)},
        "refusals": {frozenset(ends(puzzle, k)): refusal_expected(puzzle, pos, k)
                     for k, n in enumerate(counts) if n + 1 <= cap(puzzle, k)},
    }


def refusal_expected(puzzle: Puzzle, pos: dict, k: int):
    """The rule the checker finds broken at link k once it holds one bridge more (a "no bridge" mark
    and a lock are the page's own: it refuses them first), and where: (rule or None, islands)."""
    here = frozenset(ends(puzzle, k))
    if k in pos["marks"]:
        return "marked", set()
    if here & {puzzle.islands[i].pos for i in pos["locked"]}:
        return "locked", set()
    counts = list(pos["counts"])
    counts[k] += 1
    after = service.check(puzzle, solution_of(puzzle, counts), in_play=True)
    for v in after.violations:
        cells = [tuple(c) for c in v.cells]
        if v.rule == "crossing" and here in (frozenset(cells[:2]), frozenset(cells[2:])):
            return "crossing", set()
    over = {tuple(v.cells[0]) for v in after.violations if v.rule == "island-count"} & set(here)
    return ("island-count", over) if over else (None, set())


def show(items) -> list:
    """A set of cells, links or groups, sorted to be read."""
    return sorted((show(x) if isinstance(x, frozenset) else x) for x in items)


def disagreements(puzzle: Puzzle, pos: dict, want: dict, got: dict) -> list[str]:
    """Every way the page's judgement of one board differs from the checker's."""
    out = []

    def differ(what, page_side, checker_side):
        if page_side != checker_side:
            out.append(f"{what}: page {show(page_side)}, checker {show(checker_side)}")

    by_rule = defaultdict(list)
    for v in got["violations"]:
        by_rule[v["rule"]].append(v)
    cells = lambda v: {tuple(c) for c in v["islands"]}  # noqa: E731
    if got["complete"] != want["complete"]:
        out.append(f"complete: page {got['complete']}, checker {want['complete']}")
    if got["valid"] != want["valid"]:
        out.append(f"valid in play: page {got['valid']}, checker {want['valid']}")
    if want["rules"] - CHECKER_RULES:
        out.append(f"the checker finds {sorted(want['rules'] - CHECKER_RULES)} on the page's links")
    differ("crossings", {frozenset(link_key(c) for c in v["links"]) for v in by_rule["crossing"]}, want["crossing"])
    differ("too many bridges", {link_key(v["links"][0]) for v in by_rule["too-many-bridges"]}, want["too-many-bridges"])
    differ("island counts", set().union(*map(cells, by_rule["island-count"])), want["island-count"])
    differ("islands over their number", set().union(*(cells(v) for v in by_rule["island-count"] if v["over"])), want["over"])
    differ("groups", {frozenset(tuple(c) for c in part) for v in by_rule["disconnected"] for part in v["groups"]},
           want["groups"])
    page_loop = {link_key(c) for v in by_rule["loop"] for c in v["links"]}
    differ("links on a loop", page_loop, want["loop_links"])
    if want["loop"] and not want["loop"] <= set().union(*map(cells, by_rule["loop"])):
        out.append(f"the checker's loop {sorted(want['loop'])} is not among the page's loop islands")
    differ("marked links with bridges", {link_key(v["links"][0]) for v in by_rule["marked"]}, want["marked"])
    counted = want["island-count"]
    for v in by_rule["cut-off"]:
        if frozenset(cells(v)) not in want["groups"] or cells(v) & counted:
            out.append(f"cut off: {sorted(cells(v))} is not a finished group of the checker's")
    errors = {link_key(c) for c in got["errors"]["links"]}
    shown = {k for v in by_rule["crossing"] for k in map(link_key, v["links"])} | want["marked"] | want["loop_links"] \
        | want["over_cap"]
    differ("links shown as errors", errors, shown)
    if not want["over"] <= {tuple(c) for c in got["errors"]["islands"]}:
        out.append("an island over its number is not shown as an error")
    link_of = {frozenset(ends(puzzle, k)): k for k in range(len(puzzle.links))}
    # the page's refusal of one bridge more, against the checker on the board after it
    if {link_key(r[0]) for r in got["refusals"]} != set(want["refusals"]):
        out.append("the page tries one bridge more on other links than those below their cap")
    for link, rule, island, more in got["refusals"]:
        if more != (rule is None):
            out.append(f"link {link}: can take more {more}, refusal {rule}")
        want_rule, where = want["refusals"].get(link_key(link), (None, set()))
        if rule != want_rule or (where and tuple(island) not in where):
            out.append(f"link {link}: page refuses {rule} at {island}, checker {want_rule} at {sorted(where)}")
    if pos["part_of"] is not None:
        for v in got["violations"]:
            if v["rule"] in ("stuck", "cut-off"):
                out.append(f"on the way to the solution, the page calls {sorted(cells(v))} {v['rule']}")
        if got["errors"]["islands"] or got["errors"]["links"]:
            out.append(f"on the way to the solution, the page shows errors {got['errors']}")
        for link, rule, _, _ in got["refusals"]:
            k = link_of[link_key(link)]
            if rule is not None and pos["counts"][k] < pos["part_of"][k]:
                out.append(f"on the way to the solution, a bridge of the solution on {link} is refused ({rule})")
    return out


def compare(boards_, wants, results, shown: int = 8) -> tuple[int, list[str]]:
    """How many disagreements, and the first `shown` of them, with their boards."""
    count, first = 0, []
    for (index, puzzle, pos), want, got in zip(boards_, wants, results):
        found = disagreements(puzzle, pos, want, got)
        count += len(found)
        for d in found[:max(0, shown - len(first))]:
            name = write_text(puzzle, "tatham").strip() if puzzle.maxbridges <= 4 and not puzzle.ignored else "json"
            first.append(f"puzzle {index} ({name}), bridges {pos['counts']}, marks {sorted(pos['marks'])}: {d}")
    return count, first


# ------------------------------------------------------------------ the tests
@pytest.fixture(scope="module")
def cases(request):
    slow = request.config.getoption("markexpr") == "slow"
    seed = int(os.environ.get("HASHIKIT_RULES_SEED", "0")) or (random.randrange(1, 2**31) if slow else 28)
    boards_, parsed = boards(seed, 10 if slow else 1)
    return seed, boards_, parsed, [expected(puzzle, pos) for _, puzzle, pos in boards_]


@pytest.fixture(scope="module")
def page(browser, server):  # noqa: F811
    page, errors = open_page(browser, server)
    yield page
    assert errors == []
    page.context.close()


def test_the_pages_rules_agree_with_the_checker(page, cases):
    seed, boards_, parsed, wants = cases
    send_boards(page, boards_, parsed)
    results = judge_in_page(page, "/static/referee.js")
    assert len(results) == len(boards_) >= 300
    kinds = defaultdict(int)
    for want in wants:
        for rule in want["rules"]:
            kinds[rule] += 1
        kinds["complete"] += want["complete"]
    assert all(kinds[rule] >= 5 for rule in (*CHECKER_RULES, "complete")), kinds   # every rule is tried
    count, first = compare(boards_, wants, results)
    assert not count, f"{count} disagreements (seed {seed}); the first:\n" + "\n".join(first)


#: ways to break referee.js; the comparison must catch each one
BROKEN = {
    "a crossing of a double bridge unseen": ("if (o > k && counts[o])", "if (o > k && counts[o] === 1)"),
    "islands short of their number unnamed": ("if (deg[i] !== s.n) violations", "if (deg[i] > s.n) violations"),
    "too many bridges from MAXBRIDGES on": ("counts[k] > g.maxbridges", "counts[k] >= g.maxbridges"),
    "a bridge on a loop missed": ("if (low[i] > order[up]) cut.add(via);", "if (low[i] >= order[up]) cut.add(via);"),
    "double bridges only join groups": ("if (pos.counts[k]) parent[find(l.a)]", "if (pos.counts[k] > 1) parent[find(l.a)]"),
    "a move one bridge over refused late": ("if (d > g.islands[i].n) return", "if (d > g.islands[i].n + 1) return"),
    "an island with just enough room stuck": ("if (room < s.n)", "if (room <= s.n)"),
    "a hint's limit ignored": ("const most = marks[k] ? 0 : pos.atMost.get(k);", "const most = marks[k] ? 0 : undefined;"),
}


def test_a_broken_rule_check_is_caught(page, cases):
    seed, boards_, parsed, wants = cases
    source = REFEREE_JS.read_text(encoding="utf-8")
    boards_, wants = boards_[::2], wants[::2]        # half the boards catch each one
    caught = {}
    send_boards(page, boards_, parsed)
    for name, (good, bad) in BROKEN.items():
        assert source.count(good) == 1, f"{name}: {good!r} is not once in referee.js"
        url = page.evaluate("(src) => URL.createObjectURL(new Blob([src], {type: 'text/javascript'}))",
                            source.replace(good, bad))
        caught[name] = compare(boards_, wants, judge_in_page(page, url), shown=0)[0]
    assert all(caught.values()), f"broken copies of referee.js that agree with the checker (seed {seed}): " \
        f"{[name for name, n in caught.items() if not n]}"


@pytest.mark.slow
def test_the_pages_rules_agree_on_ten_times_as_many_fresh_boards(page, cases):
    test_the_pages_rules_agree_with_the_checker(page, cases)


# ------------------------------------------------------------------ links and impossible numbers
PAGE_LINKS = """async ([url, words]) => {
  const R = await import(url), W = await import(words), [puzzles] = window.boardsToJudge;
  return JSON.stringify(puzzles.map((p) => {
    const own = R.linksOf(p.puzzle), g = R.graphOf(p), built = R.graphOf({ puzzle: p.puzzle, links: own });
    return { links: own, parsed: W.capacityText(g, R.capacityProblems(g)),
             built: W.capacityText(built, R.capacityProblems(built)) };
  }));
}"""

#: ways to break the page's links and its check of the numbers; the comparison must catch each one
BROKEN_NUMBERS = {
    "MAXBRIDGES taken for a link's cap": ("(sum, k) => sum + g.links[k].cap", "(sum, k) => sum + g.maxbridges"),
    "the columns' links missed": ("if (byCol[i][1] === byCol[i + 1][1])", "if (byCol[i][1] === byCol[i + 1][1] + 1)"),
    "an island with no neighbour counted as one": ("const first = !neighbours", "const first = neighbours < 0"),
}


def numbers_disagreements(parsed, results) -> list[str]:
    """Where the page's links (of a puzzle it has not parsed) or its words for impossible numbers
    differ from the server's links and the model's refusal."""
    out = []
    for doc, got in zip(parsed, results):
        puzzle = read_text(json.dumps(doc["puzzle"]), "json").puzzle
        problems = puzzle.capacity_problems()
        want = problems[0] + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else "") if problems else None
        name = json.dumps(doc["puzzle"])[:120]
        if got["parsed"] != want:
            out.append(f"{name}: page {got['parsed']!r}, model {want!r}")
        if not doc["puzzle"].get("ignore"):
            if got["links"] != doc["links"]:
                out.append(f"{name}: links of its own {got['links']}, the server's {doc['links']}")
            if got["built"] != want:
                out.append(f"{name}: from its own links {got['built']!r}, model {want!r}")
    return out


def test_the_pages_links_and_impossible_numbers_agree_with_the_model(page, cases):
    seed, boards_, parsed, _ = cases
    send_boards(page, boards_[:1], parsed)
    results = json.loads(page.evaluate(PAGE_LINKS, ["/static/referee.js", "/static/words.js"]))
    impossible = sum(1 for doc in parsed if read_text(json.dumps(doc["puzzle"]), "json").puzzle.capacity_problems())
    assert len(results) == len(parsed) >= 60 and impossible >= 10, impossible
    found = numbers_disagreements(parsed, results)
    assert not found, f"{len(found)} disagreements (seed {seed}); the first:\n" + "\n".join(found[:8])
    referee, words = REFEREE_JS.read_text(encoding="utf-8"), REFEREE_JS.with_name("words.js").read_text(encoding="utf-8")
    for name, (good, bad) in BROKEN_NUMBERS.items():
        in_referee = good in referee
        assert (referee if in_referee else words).count(good) == 1, f"{name}: {good!r} is not once in the page"
        url = page.evaluate("(src) => URL.createObjectURL(new Blob([src], {type: 'text/javascript'}))",
                            (referee.replace(good, bad) if in_referee else referee))
        # words.js imports nothing; a broken copy of it is judged with the page's referee
        wurl = "/static/words.js" if in_referee else page.evaluate(
            "(src) => URL.createObjectURL(new Blob([src], {type: 'text/javascript'}))", words.replace(good, bad))
        assert numbers_disagreements(parsed, json.loads(page.evaluate(PAGE_LINKS, [url, wurl]))), name
