"""Readers and writers: round trips on real and random puzzles, and error positions."""

from __future__ import annotations

import json
import random
import re

import pytest

from hashikit.checker import check
from hashikit.errors import FormatError
from hashikit.formats import formats, read_text, sniff, write_text
from hashikit.model import Puzzle, Solution

from conftest import COELHO, REAL, SHARED, need, record_puzzle
from conftest import real_records as _real_records

PROB_EXAMPLE = SHARED / "puzzles" / "prob-bridges.txt"


def jsonl(name: str) -> list[dict]:
    path = need(REAL / name)
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def real_records() -> list[dict]:
    """Every published record (skips the test where ../shared is absent)."""
    out = [rec for _, rec in _real_records()]
    if not out:
        pytest.skip(f"shared puzzles not found under {REAL}")
    return out


def record_solution(rec: dict) -> Solution | None:
    rows = rec.get("solution_bridges")
    return Solution.from_list(rows) if rows else None


def prob_puzzle() -> Puzzle:
    return read_text(need(PROB_EXAMPLE).read_text(), "grid").puzzle


PROB_SOLUTION_NAMED = ("a-b 2, a-l 2, b-c 2, b-g 2, c-j 1, d-f 1, e-h 2, f-g 2, f-k 1, g-h 2, "
                       "i-j 2, i-m 1, l-m 2, m-n 2")
PROB_NAMES = {"a": (1, 1), "b": (1, 4), "c": (1, 6), "d": (2, 2), "e": (2, 5), "f": (3, 2),
              "g": (3, 4), "h": (3, 5), "i": (4, 3), "j": (4, 6), "k": (5, 2), "l": (6, 1),
              "m": (6, 3), "n": (6, 5)}


def prob_solution() -> Solution:
    def cell(name):
        x, y = PROB_NAMES[name]
        return (y - 1, x - 1)
    items = []
    for part in PROB_SOLUTION_NAMED.split(", "):
        pair, count = part.split()
        p, q = pair.split("-")
        items.append(((cell(p), cell(q)), int(count)))
    return Solution(items)


def random_puzzle(seed: int, maxbridges: int = 2) -> tuple[Puzzle, Solution]:
    """A random solvable puzzle: grow a non-crossing bridge network, number the islands."""
    rng = random.Random(seed)
    rows, cols = rng.randint(3, 12), rng.randint(3, 12)
    occupied: dict[tuple[int, int], str] = {}  # cell -> 'I' island, 'H'/'V' bridge
    start = (rng.randrange(rows), rng.randrange(cols))
    occupied[start] = "I"
    islands = [start]
    bridges: dict[tuple, int] = {}
    for _ in range(200):
        if len(islands) > rows * cols // 4:
            break
        r, c = rng.choice(islands)
        dr, dc = rng.choice([(0, 1), (1, 0), (0, -1), (-1, 0)])
        length = rng.randint(2, 5)
        path = [(r + dr * k, c + dc * k) for k in range(1, length + 1)]
        end = path[-1]
        if not (0 <= end[0] < rows and 0 <= end[1] < cols):
            continue
        if any(p in occupied for p in path[:-1]) or occupied.get(end, "I") != "I":
            continue
        if end not in occupied:
            occupied[end] = "I"
            islands.append(end)
        for p in path[:-1]:
            occupied[p] = "H" if dr == 0 else "V"
        key = tuple(sorted([(r, c), end]))
        bridges[key] = rng.randint(1, maxbridges)
    degree: dict[tuple[int, int], int] = {p: 0 for p in islands}
    for (p, q), k in bridges.items():
        degree[p] += k
        degree[q] += k
    puzzle = Puzzle(rows, cols, [(r, c, degree[(r, c)]) for r, c in islands if degree[(r, c)]],
                    maxbridges)
    return puzzle, Solution(bridges)


def assert_error(exc: FormatError, line: int | None, column: int | None, *words: str) -> None:
    assert exc.line == line, str(exc)
    assert exc.column == column, str(exc)
    for w in words:
        assert w.lower() in exc.message.lower(), str(exc)


def bad(text: str, fmt: str, source: str = "t.in") -> FormatError:
    with pytest.raises(FormatError) as info:
        read_text(text, fmt, source)
    assert info.value.source == source
    return info.value


# -- csv ----------------------------------------------------------------------------------

def test_csv_reads_course_inputs_with_spaces():
    doc = read_text("0 , 2 , 0\n1,0,1\n", "csv")
    assert doc.puzzle == Puzzle(2, 3, [(0, 1, 2), (1, 0, 1), (1, 2, 1)])


def test_csv_reads_every_shared_input():
    files = sorted(need(REAL / "hcmus_csc14003" / "input").glob("*/*.txt"))
    records = {r["file"]: r for r in jsonl("hcmus_csc14003/verified.jsonl")}
    assert files
    for f in files:
        assert sniff(f.read_text()) == "csv"
        doc = read_text(f.read_text(), None, str(f))
        rec = records[str(f.relative_to(REAL / "hcmus_csc14003"))]
        assert doc.puzzle == record_puzzle(rec)


def test_csv_errors():
    assert_error(bad("1,2\n1,x\n", "csv"), 2, 3, "'x'", "whole number")
    assert_error(bad("1,2\n1,2,3\n", "csv"), 2, 5, "row 2 has 3 cells", "row 1 has 2")
    assert_error(bad("1,0,99\n", "csv"), 1, 5, "number 99", "1 to 8")
    assert_error(bad("1, ,2\n", "csv"), 1, 3, "empty cell")


# -- has ----------------------------------------------------------------------------------

def test_has_writes_like_the_originals():
    files = sorted(need(COELHO / "100").glob("*.has"))[:3]
    for f in files:
        text = f.read_text()
        doc = read_text(text, None, str(f))
        assert write_text(doc.puzzle, "has") == text


def test_has_errors():
    assert_error(bad("2 3 3\n1 0 1\n0 0 0\n", "has"), 1, 5, "says 3 islands", "has 2")
    assert_error(bad("2 3 2\n1 0 1\n0 0\n", "has"), 3, 3, "row 2 has 2 cells", "3 columns")
    assert_error(bad("2 3 2\n1 0 1\n0 x 0\n", "has"), 3, 3, "'x'")
    assert_error(bad("2 3 2\n1 0 1\n0 0 0\n1 1 1\n", "has"), 4, 1, "extra line")
    assert_error(bad("2 3 2\n1 0 1\n", "has"), 3, None, "2 rows", "has 1")
    assert_error(bad("2 3\n1 0 1\n0 0 0\n", "has"), 1, 1, "3 numbers")
    assert_error(bad("1 3 2\n1 0 9\n", "has"), 2, 5, "number 9")


# -- solved -------------------------------------------------------------------------------

def adjacent_bridge(solution: Solution) -> bool:
    return any(abs(p[0] - q[0]) + abs(p[1] - q[1]) == 1 for (p, q), _ in solution)


def test_solved_reads_shared_solution_texts_and_they_check():
    seen = 0
    for rec in real_records():
        if not rec.get("solution_text"):
            continue
        doc = read_text("\n".join(rec["solution_text"]), "solved")
        puzzle, solution = record_puzzle(rec), record_solution(rec)
        assert doc.puzzle == puzzle
        if adjacent_bridge(solution):  # drawn in the spaced layout: cells on every other column
            text = write_text(puzzle, "solved", solution)
            assert text.startswith("# spaced")
            back = read_text(text, "solved")
            assert (back.puzzle, back.solution) == (puzzle, solution)
            continue
        assert doc.solution == solution
        assert check(puzzle, doc.solution).ok
        seen += 1
    assert seen > 100


def test_solved_reads_pzprjs_answer_and_unicode():
    text = need(REAL / "pzprjs" / "hashikake_test_5x5.txt").read_text()
    answer = text.split("# Solution")[1].split("\n", 1)[1]
    doc = read_text(answer, None)
    assert check(doc.puzzle, doc.solution).ok
    uni = write_text(doc.puzzle, "solved-unicode", doc.solution)
    assert "═" in uni and "║" in uni
    assert read_text(uni, None).solution == doc.solution


def test_solved_writer_refuses_what_text_cannot_show():
    p = Puzzle(1, 3, [(0, 0, 3), (0, 2, 3)], maxbridges=3)
    with pytest.raises(FormatError, match="at most 2"):
        write_text(p, "solved", Solution({((0, 0), (0, 2)): 3}))
    p = Puzzle(3, 3, [(1, 0, 1), (1, 2, 1), (0, 1, 1), (2, 1, 1)])
    with pytest.raises(FormatError, match="cross"):
        write_text(p, "solved", Solution({((1, 0), (1, 2)): 1, ((0, 1), (2, 1)): 1}))
    with pytest.raises(FormatError, match="shows a solution"):
        write_text(p, "solved")


def test_solved_errors():
    assert_error(bad("2-=2\n", "solved"), 1, 3, "mixes single and double")
    assert_error(bad("2-|2\n", "solved"), 1, 3, "vertical bridge mark inside a horizontal")
    assert_error(bad("2--.\n", "solved"), 1, 4, "does not end at an island")
    assert_error(bad("2.\n|.\n..\n", "solved"), 3, 1, "vertical bridge does not end at an island")
    assert_error(bad("2\n-\n2\n", "solved"), 2, 1, "runs off the board")
    assert_error(bad("2.2\n|\n2.2\n", "solved"), 2, 2, "row 2 has 1 cells")
    assert_error(bad("# note\n2x2\n", "solved"), 2, 2, "unknown character 'x'")
    assert_error(bad("2-9\n", "solved"), 1, 3, "number 9")


# -- tatham -------------------------------------------------------------------------------

def test_tatham_ids_from_the_thesis():
    for rec in jsonl("ricotewechel/ids_from_ricotewechel_thesis.jsonl"):
        assert sniff(rec["id"]) == "tatham"
        doc = read_text(rec["id"], None)
        assert doc.puzzle == record_puzzle(rec)
        again = write_text(doc.puzzle, "tatham")
        assert read_text(again, "tatham").puzzle == doc.puzzle
        assert again.strip() == rec["id"]  # the writer uses Tatham's own short form


def test_tatham_parameters():
    full = read_text("7x7i30e10m2d0:4d2b1b4a26b3m1c3c3c2d3\n", None).puzzle
    short = read_text("7x7m2:4d2b1b4a26b3m1c3c3c2d3", "tatham").puzzle
    bare = read_text("7x7:4d2b1b4a26b3m1c3c3c2d3", "tatham").puzzle
    loops = read_text("7x7m2L:4d2b1b4a26b3m1c3c3c2d3", "tatham").puzzle
    assert full == short == bare
    assert not full.no_loops and loops.no_loops  # the L flag is the no-loops variant
    assert (loops.rows, loops.cols, loops.islands) == (full.rows, full.cols, full.islands)
    assert write_text(loops, "tatham") == "7x7m2L:4d2b1b4a26b3m1c3c3c2d3\n"
    wide = read_text("4x2m3:CbC3c", "tatham").puzzle  # W is columns, H rows; C = 12
    assert (wide.rows, wide.cols, wide.maxbridges) == (2, 4, 3)
    assert [i.number for i in wide.islands] == [12, 12, 3]
    assert write_text(wide, "tatham") == "4x2m3:CbC3c\n"


def test_tatham_long_runs():
    p = Puzzle(3, 20, [(0, 0, 1), (2, 19, 1)], maxbridges=2)
    text = write_text(p, "tatham")
    assert text == "20x3m2:1zxa1\n" or read_text(text, "tatham").puzzle == p
    assert read_text(text, "tatham").puzzle == p


def test_tatham_errors():
    assert_error(bad("3x3m2:2a2c2a", "tatham"), 1, 13, "shorter", "8 of 9")
    assert_error(bad("3x3m2:2a2c2a22", "tatham"), 1, 14, "longer")
    assert_error(bad("3x3m2:2a2c2?2", "tatham"), 1, 12, "unexpected character '?'")
    assert_error(bad("# id\n  3x3m2:9a2c2a2", "tatham"), 2, 9, "number 9", "1 to 8")
    assert_error(bad("3x3q2:2a2c2a2", "tatham"), 1, 4, "unknown parameter 'q'")
    assert_error(bad("3x3#1234", "tatham"), 1, 4, "random-seed")
    assert_error(bad("3x3m2:2a2c2a2\nfoo", "tatham"), 2, 1, "extra text")


# -- puzzlink -----------------------------------------------------------------------------

def pzprjs_sample() -> tuple[str, str, list[str]]:
    text = need(REAL / "pzprjs" / "hashikake_test_5x5.txt").read_text().splitlines()
    url = next(ln for ln in text if ln.startswith("https://"))
    pzprv3 = next(ln for ln in text if ln.startswith("pzprv3"))
    grid_at = next(i for i, ln in enumerate(text) if ln.startswith("# Grid"))
    return url, pzprv3, text[grid_at + 1:grid_at + 6]


def test_puzzlink_pzprjs_sample():
    url, _, grid = pzprjs_sample()
    assert sniff(url) == "puzzlink"
    puzzle = read_text(url, None).puzzle
    assert puzzle == read_text("\n".join(grid), "grid").puzzle
    assert write_text(puzzle, "puzzlink").strip() == url
    body = url.rsplit("/", 1)[1]
    for alias in (f"puzz.link/p?hashi/5/5/{body}", f"http://pzv.jp/p.html?bridges/5/5/{body}",
                  f"https://puzz.link/p?hashikake/5/5/{body}#anchor"):
        assert read_text(alias, "puzzlink").puzzle == puzzle


def test_puzzlink_long_runs_and_big_numbers():
    p = Puzzle(3, 30, [(0, 0, 1), (0, 29, 3), (2, 29, 2)])
    url = write_text(p, "puzzlink")
    assert "z" in url
    assert read_text(url, "puzzlink").puzzle == p
    with pytest.raises(FormatError, match="MAXBRIDGES 2"):
        write_text(Puzzle(1, 3, [(0, 0, 3), (0, 2, 3)], 3), "puzzlink")


def test_puzzlink_errors():
    base = "https://puzz.link/p?hashikake/5/5/"
    assert_error(bad("https://puzz.link/p?nurikabe/5/5/4g", "puzzlink"), 1, 21, "not hashikake")
    assert_error(bad(base.replace("5/5", "5/x") + "4g", "puzzlink"), 1, 33, "rows", "'x'")
    assert_error(bad(base + "4g2i3h23k3g1g3g4g3zz", "puzzlink"), 1, 53, "longer")
    assert_error(bad(base + "4g.", "puzzlink"), 1, 37, "unknown number")
    assert_error(bad(base + "4g9", "puzzlink"), 1, 37, "number 9")
    assert_error(bad(base + "4G", "puzzlink"), 1, 36, "unexpected character 'G'")
    assert_error(bad("https://example.com/p?hashikake/5/5/4", "puzzlink"), 1, 1, "not a puzz.link")
    assert_error(bad("https://puzz.link/p?hashikake/5", "puzzlink"), 1, 32, "<cols>/<rows>/<body>")
    assert_error(bad("puzz.link/p/hashikake/5/5/4", "puzzlink"), 1, 1, "no '?'")


# -- json ---------------------------------------------------------------------------------

def test_json_reads_shared_records_with_their_solutions():
    for rec in real_records()[:60]:
        doc = read_text(json.dumps(rec), None)
        assert doc.puzzle == record_puzzle(rec)
        assert doc.solution == record_solution(rec)
        if doc.solution is not None:
            assert check(doc.puzzle, doc.solution).ok
    rec = real_records()[0]
    alt = {"grid_text": rec["grid_text"], "maxb": 2}
    assert read_text(json.dumps(alt), "json").puzzle == record_puzzle(rec)


def test_json_ignore_round_trips():
    p = Puzzle(3, 3, [(0, 0, 1), (0, 2, 1), (2, 2, 3)], 3, ignore=[(2, 2)])
    text = write_text(p, "json")
    assert read_text(text, None).puzzle == p
    obj = json.loads(text)
    assert obj["ignore"] == [[2, 2]] and [2, 2, 3] in obj["islands"]


def test_json_solution_without_puzzle():
    doc = read_text('{"format": "hashikit-solution", "bridges": [[0, 0, 0, 2, 1]]}', "json")
    assert doc.puzzle is None and doc.solution == Solution({((0, 0), (0, 2)): 1})


def test_json_solution_extension_wins_when_writing():
    from hashikit.formats import format_for_path
    assert format_for_path("out.sol.json", writing=True).name == "json-solution"
    assert format_for_path("out.json", writing=True).name == "json"


def test_json_errors():
    assert_error(bad('{"rows": 3,\n "cols": }', "json"), 2, 10, "invalid json")
    assert_error(bad("[1]", "json"), 1, 1, "must be an object")
    assert_error(bad('{"rows": 3,\n  "cols": "3", "islands": []}', "json"), 2, 3, '"cols"', "whole number")
    assert_error(bad('{"rows": 3, "cols": 3}', "json"), None, None, 'no "islands"')
    assert_error(bad('{"grid": [[1, 0], [1]]}', "json"), 1, 2, "row 2 has 1 cells")
    assert_error(bad('{"format": "hashikit-solution",\n"bridges": [[0, 0, 0, 2]]}', "json"), 2, 1,
                 '"bridges" item 1')
    assert_error(bad('{"rows": 3, "cols": 3, "islands": [[0, 0, 9]]}', "json"), None, None, "number 9")
    assert_error(bad('{"format": "x"}', "json"), 1, 2, '"format"')


# -- every format: write -> read gives the same puzzle (and solution) --------------------------

PUZZLE_FORMATS = ["grid", "csv", "has", "tatham", "puzzlink", "json", "json-solution", "solved",
                  "pzprv3"]


def sample_cases() -> list[tuple[str, Puzzle, Solution | None]]:
    cases = [("prob", prob_puzzle(), prob_solution())]
    for rec in real_records():
        cases.append((f"record {rec.get('id') or rec.get('file') or rec.get('index')}",
                      record_puzzle(rec), record_solution(rec)))
    cases.append(("maxb3", Puzzle(3, 5, [(0, 0, 3), (0, 4, 4), (2, 4, 1)], 3),
                  Solution({((0, 0), (0, 4)): 3, ((0, 4), (2, 4)): 1})))
    for seed in range(12):
        p, s = random_puzzle(seed, maxbridges=2 if seed % 3 else 3)
        cases.append((f"random {seed}", p, s))
    return cases


def can_hold(fmt: str, puzzle: Puzzle, solution: Solution | None) -> bool:
    if fmt == "puzzlink":
        return puzzle.maxbridges == 2
    if fmt == "pzprv3":
        return puzzle.maxbridges == 2 and (solution is None or max(solution.bridges.values()) <= 2)
    if fmt in ("json-solution", "solved"):
        if solution is None:
            return False
        if fmt == "solved":
            return not adjacent_bridge(solution) and max(solution.bridges.values()) <= 2
    return True


@pytest.mark.parametrize("fmt", PUZZLE_FORMATS)
def test_round_trip(fmt):
    held = 0
    for name, puzzle, solution in sample_cases():
        if solution is not None:
            assert check(puzzle, solution).ok, name
        if not can_hold(fmt, puzzle, solution):
            continue
        text = write_text(puzzle, fmt, solution)
        doc = read_text(text, fmt, f"<{name}>")
        assert doc.puzzle == puzzle, (name, text)
        if formats()[fmt].has_solution and solution is not None:
            assert doc.solution == solution, name
        held += 1
    assert held >= 10


# -- prob (write only) --------------------------------------------------------------------

def test_prob_names_match_the_wiki_example():
    from hashikit.formats.prob import island_names
    puzzle = prob_puzzle()
    names = island_names(puzzle)
    assert {n: (c + 1, r + 1) for (r, c), n in names.items()} == PROB_NAMES
    isl = puzzle.islands
    crossing = set()
    for h, v in puzzle.crossings:
        pair = []
        for k in (v, h):  # the page lists (vertical, horizontal)
            ln = puzzle.links[k]
            pair.append(f"{names[isl[ln.a].pos]}-{names[isl[ln.b].pos]}")
        crossing.add(tuple(pair))
    assert crossing == {("d-e", "b-g"), ("i-j", "h-n")}
    assert check(puzzle, prob_solution()).ok


def test_prob_machine_structure():
    puzzle = prob_puzzle()
    text = write_text(puzzle, "prob", prob_solution())
    assert text.startswith("/*") and "MACHINE Bridges" in text and text.rstrip().endswith("END")
    assert "MAXBRIDGES == 2;" in text and "COORD == 0..6;" in text
    assert "N = {a, b, c, d, e, f, g, h, i, j, k, l, m, n}" in text
    for name, (x, y) in PROB_NAMES.items():
        number = puzzle.grid()[y - 1][x - 1]
        assert f"{name}|->{number}" in text.split("nl = {")[1].split("} &")[0]
        assert f"{name}|->{x - 1}" in text.split("xc = {")[1].split("} &")[0]
        assert f"{name}|->{y - 1}" in text.split("yc = {")[1].split("} &")[0]
    for clause in ("plx =", "ply =", "pl = plx \\/ ply", "cs = {", "sol : pl --> 0..MAXBRIDGES",
                   "SIGMA", "closure1(connected \\/ connected~)", "ASSERTIONS"):
        assert clause in text
    assert "(a|->b)|->2" in text and "(d|->e)|->0" in text  # every possible link, 0 if unused
    assert len(re.findall(r"\|->\d+\)?(?:,|\})", text.split("ASSERTIONS")[1])) == len(puzzle.links)


def test_prob_ignored_and_many_islands():
    p = Puzzle(1, 61, [(0, 2 * k, 1) for k in range(31)], ignore=[(0, 0)])
    text = write_text(p, "prob")
    assert "ignore = {a} &" in text
    assert "n5" in text.split("N = {")[1].split("}")[0]  # islands 27.. are n1, n2, ...
    assert "a|->" not in text.split("nl = {")[1].split("} &")[0]


# -- dot (write only) ---------------------------------------------------------------------

def test_dot_structure():
    puzzle, solution = prob_puzzle(), prob_solution()
    text = write_text(puzzle, "dot", solution)
    assert text.startswith("graph hashi {") and text.rstrip().endswith("}")
    nodes = re.findall(r'^\s*(r\d+c\d+) \[label="(\d+)", pos="(\d+),(\d+)!"', text, re.M)
    assert len(nodes) == len(puzzle.islands)
    for node, label, x, y in nodes:
        r, c = map(int, re.match(r"r(\d+)c(\d+)", node).groups())
        assert int(label) == puzzle.grid()[r][c]
        assert (int(x), int(y)) == (c * 72, (puzzle.rows - 1 - r) * 72)
    edges = re.findall(r"^\s*(r\d+c\d+) -- (r\d+c\d+) \[(.*)\];", text, re.M)
    assert len(edges) == len(solution)
    assert sum('"black:black"' in attrs for *_, attrs in edges) == \
        sum(1 for _, k in solution if k == 2)
    candidates = write_text(puzzle, "dot")
    assert candidates.count("style=dashed") == len(puzzle.links)
    big = write_text(Puzzle(1, 3, [(0, 0, 3), (0, 2, 3)], 3), "dot", Solution({((0, 0), (0, 2)): 3}))
    assert 'label="3"' in big.split("--")[1]


# -- pzprv3 -------------------------------------------------------------------------------

def test_pzprv3_sample_answer_matches_the_solved_text():
    url, pzprv3, _ = pzprjs_sample()
    doc = read_text(pzprv3, "pzprv3")
    assert doc.puzzle == read_text(url, "puzzlink").puzzle
    text = need(REAL / "pzprjs" / "hashikake_test_5x5.txt").read_text()
    answer = read_text(text.split("# Solution")[1].split("\n", 1)[1], "solved")
    assert doc.solution == answer.solution
    assert check(doc.puzzle, doc.solution).ok
    assert read_text(pzprv3.replace("/", "\n"), "pzprv3").solution == doc.solution


def test_pzprv3_errors():
    _, t, _ = pzprjs_sample()
    assert_error(bad(t.replace("2 2 0 0 /0 1", "2 1 0 0 /0 1"), "pzprv3"), 1, 79, "same count")
    assert_error(bad(t.replace("/5/5/", "/5/x/"), "pzprv3"), 1, 20, "cols", "'x'")
    assert_error(bad(t.replace("4 . 2", "4 x 2"), "pzprv3"), 1, 24, "unexpected cell 'x'")
    assert_error(bad(t.replace("pzprv3/hashikake", "pzprv3/nurikabe"), "pzprv3"), 1, 8, "not hashikake")
    assert_error(bad(t.replace("-1 0 -1 -1 /", "0 0 0 1 /"), "pzprv3"), 1, 101, "does not start")


def test_solved_spaced_layout_for_neighbouring_islands():
    puzzle = Puzzle.from_grid([[1, 2, 0, 1]])
    solution = Solution({((0, 0), (0, 1)): 1, ((0, 1), (0, 3)): 1})
    text = write_text(puzzle, "solved", solution)
    assert text == "# spaced: cells on every other column and line\n1-2---1\n"
    back = read_text(text, "solved")
    assert back.puzzle == puzzle and back.solution == solution
    with pytest.raises(FormatError) as exc:  # an island between cells is refused with its place
        read_text("# spaced\n1-2\n 1\n", "solved", "s.sol")
    assert exc.value.line == 3 and exc.value.column == 2


# -- one list of formats, one list of limits ------------------------------------------------

def _readme() -> str:
    from pathlib import Path

    return (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")


def test_readme_formats_table_is_the_registry():
    from hashikit.formats import formats, readme_table

    table = readme_table()
    assert table in _readme()
    for name in formats():
        assert f"| `{name}` |" in table


def test_help_table_lists_every_format_once():
    import subprocess
    import sys

    from hashikit.formats import formats, help_table

    text = help_table()
    names = [line.split()[0] for line in text.splitlines()[1:]]
    assert names == sorted(formats())
    assert "(write only)" in text and "prob" in text
    assert text in subprocess.run([sys.executable, "-m", "hashikit", "convert", "--help"], capture_output=True,
                                  text=True, timeout=60).stdout  # the table the command shows


def test_readme_limits_table_is_limits_py():
    from hashikit import limits

    readme = _readme()
    assert limits.readme_table() in readme
    section = readme.split("## Limits", 1)[1].split("\n## ", 1)[0]
    for value in (limits.CLI.max_side, limits.WEB.max_side, limits.CLI.max_cells, limits.WEB.max_cells,
                  limits.CLI.max_maxbridges, limits.WEB.max_maxbridges, limits.WEB_GENERATE_MAX_SIDE):
        assert f"{value:,}" in section


# -- issue 8: readers that never crash or blow up, each case pinned -------------------------

HUGE = "9" * 5000

HUGE_NUMBER_TEXTS = {
    "has": [f"{HUGE} 3 2\n1 0 1\n", f"1 3 2\n1 0 {HUGE}\n"],
    "csv": [f"1,0,{HUGE}\n", f"# maxbridges: {HUGE}\n1,0,1\n"],
    "grid": [f"# maxbridges: {HUGE}\n1.1\n"],
    "tatham": [f"{HUGE}x3:1b1", f"3x3m{HUGE}:1b1f", f"3x{HUGE}:1b1"],
    "ohmec": [f"{HUGE}x1:1a1", f"3x{HUGE}:1a1"],
    "puzzlink": [f"https://puzz.link/p?hashikake/{HUGE}/3/g", f"https://puzz.link/p?hashikake/3/{HUGE}/g"],
    "pzprv3": [f"pzprv3\nhashikake\n1\n3\n1 . {HUGE} \n", f"pzprv3\nhashikake\n{HUGE}\n3\n1 . 1 \n",
               "pzprv3\nhashikake\n1\n3\n1 . 1 \n" + f"{HUGE} 0 \n"],
    "json": ['{"rows": %s, "cols": 3, "islands": []}' % HUGE,
             '{"rows": 1, "cols": 3, "islands": [[0, 0, 1], [0, 2, %s]]}' % HUGE],
}


@pytest.mark.parametrize("fmt,text", [(f, t) for f, ts in HUGE_NUMBER_TEXTS.items() for t in ts])
def test_a_number_of_thousands_of_digits_is_a_format_error(fmt, text):
    for name in (fmt, None):
        with pytest.raises(FormatError):
            read_text(text, name)


@pytest.mark.parametrize("fmt,text", [
    ("pzprv3", "pzprv3\nhashikake\n1\n3\n1 . ² \n"), ("pzprv3", "pzprv3\nhashikake\n²\n3\n1 . 1 \n"),
    ("ohmec", "3x1:1٣1"), ("ohmec", "٣x1:1a1"), ("csv", "1,0,²\n"), ("has", "1 3 2\n1 0 ٣\n"),
    ("grid", "1.²\n"), ("grid", "1.٣\n"), ("tatham", "3x1:1٣1"), ("puzzlink", "https://puzz.link/p?hashikake/٣/1/1g1"),
    ("solved", "1-²\n"), ("csv", "# maxbridges: ٣\n1,0,1\n"),
])
def test_non_ascii_digits_are_refused(fmt, text):
    with pytest.raises(FormatError):
        read_text(text, fmt)


def test_a_short_url_for_a_huge_board_is_refused_before_building_it():
    url = "https://puzz.link/p?hashikake/10000/10000/1"
    assert len(url) < 50
    with pytest.raises(FormatError) as exc:
        read_text(url, None, "p.url")
    assert "100,000,000 cells; the limit is 4,000,000 cells" in str(exc.value) and exc.value.line == 1 and exc.value.column is not None


@pytest.mark.parametrize("fmt,text,what", [
    ("grid", "1" + "." * 60 + "1\n", "sides run from 1 to 60"),
    ("grid", "1\n" * 61, "more than 60 rows"),
    ("csv", ",".join(["1"] * 61) + "\n", "sides run from 1 to 60"),
    ("has", "61 1 1\n" + "1\n" + "0\n" * 60, "sides run from 1 to 60"),
    ("tatham", "61x1:1" + "z" * 2 + "g", "sides run from 1 to 60"),
    ("tatham", "3x1m9:1a1", "MAXBRIDGES is 9; it runs from 1 to 8"),
    ("json", '{"rows": 61, "cols": 1, "islands": [[0, 0, 1]]}', "sides run from 1 to 60"),
    ("json", '{"rows": 3, "cols": 1, "maxbridges": 9, "islands": [[0, 0, 1]]}', "MAXBRIDGES is 9; it runs from 1 to 8"),
    ("puzzlink", "https://puzz.link/p?hashikake/61/1/1", "sides run from 1 to 60"),
    ("ohmec", "61x1:1zzi", "sides run from 1 to 60"),
    ("pzprv3", "pzprv3\nhashikake\n61\n1\n", "sides run from 1 to 60"),
    ("solved", "1" + "-" * 60 + "1\n", "sides run from 1 to 60"),
    ("grid", "# maxbridges: 9\n1.1\n", "MAXBRIDGES is 9; it runs from 1 to 8"),
])
def test_readers_enforce_the_limits_they_are_given(fmt, text, what):
    from hashikit import limits

    with pytest.raises(FormatError, match=what):
        read_text(text, fmt, "web", limits=limits.WEB)


def test_island_and_byte_caps():
    from hashikit.limits import Limits

    tight = Limits(max_side=10, max_cells=100, max_islands=3, max_maxbridges=2, max_input_bytes=50,
                   max_time_limit=None, default_time_limit=None)
    with pytest.raises(FormatError, match="more than 3 islands") as exc:
        read_text("1.1.1.1\n", "grid", limits=tight)
    assert (exc.value.line, exc.value.column) == (1, 7)
    with pytest.raises(FormatError, match="more than 3 islands") as exc:  # the cap reached in a later row
        read_text("1.1\n...\n.11\n", "grid", limits=tight)
    assert (exc.value.line, exc.value.column) == (3, 3)
    with pytest.raises(FormatError, match="at most 50"):
        read_text("1" + "." * 60 + "\n", "grid", limits=tight)


def test_a_json_solution_far_off_the_board_is_refused_when_read():
    text = ('{"puzzle": {"rows": 1, "cols": 3, "islands": [[0, 0, 1], [0, 2, 1]]}, '
            '"bridges": [[0, 0, 0, 30000000, 1]]}')
    with pytest.raises(FormatError, match="outside the 1x3 board"):
        read_text(text, "json")


def test_check_solution_for_a_puzzle_read_elsewhere():
    from hashikit.formats import validate_solution

    puzzle = read_text("1.1\n", "grid").puzzle
    far = read_text('{"bridges": [[0, 0, 0, 30000000, 1]]}', "json").solution
    with pytest.raises(FormatError, match="outside"):
        validate_solution(puzzle, far, "s.json")
    count = read_text('{"bridges": [[0, 0, 0, 2, 9223372036854775808]]}', "json").solution
    with pytest.raises(FormatError, match="counts run from 1 to 64"):
        validate_solution(puzzle, count)


@pytest.mark.parametrize("fmt", ["pzprv3", "solved", "dot", "ohmec", "json", "prob"])
def test_writers_refuse_bridges_off_the_board(fmt):
    puzzle = read_text("1.1\n", "grid").puzzle
    with pytest.raises(FormatError, match="outside"):
        write_text(puzzle, fmt, Solution({((0, 0), (0, 30_000_000)): 1}))


def test_dot_draws_a_huge_count_in_a_few_lines():
    puzzle = Puzzle.from_grid([[8, 0, 8]], maxbridges=8)
    text = write_text(puzzle, "dot", Solution({((0, 0), (0, 2)): 8}))
    assert 'label="8"' in text and text.count("black") == 4
    with pytest.raises(FormatError, match="counts run from 1 to 64"):
        write_text(puzzle, "dot", Solution({((0, 0), (0, 2)): 2 ** 63}))


# -- issue 8: every format reads back what it writes ----------------------------------------

def test_spaced_solved_grid_with_empty_bridge_lines_reads_back():
    puzzle = Puzzle.from_grid([[1, 2, 1], [0, 0, 0], [0, 0, 0]])
    solution = Solution({((0, 0), (0, 1)): 1, ((0, 1), (0, 2)): 1})
    text = write_text(puzzle, "solved", solution)
    assert "\n\n" in text  # the bridge lines between board lines are empty
    doc = read_text(text, None)
    assert doc.puzzle == puzzle and doc.solution == solution


def test_pzprv3_one_column_keeps_its_answer():
    puzzle = Puzzle.from_grid([[1], [0], [2], [1]])
    solution = Solution({((0, 0), (2, 0)): 1, ((2, 0), (3, 0)): 1})
    text = write_text(puzzle, "pzprv3", solution)
    doc = read_text(text, "pzprv3")
    assert doc.puzzle == puzzle and doc.solution == solution
    one_line = "/".join(text.splitlines())
    assert read_text(one_line, "pzprv3").solution == solution


def test_pzprv3_is_recognised_by_content(tmp_path):
    text = write_text(Puzzle.from_grid([[1, 0, 1]]), "pzprv3", Solution({((0, 0), (0, 2)): 1}))
    from hashikit.formats import read_file, sniff

    assert sniff(text) == "pzprv3" and sniff("/".join(text.splitlines())) == "pzprv3"
    path = tmp_path / "p.txt"
    path.write_text(text)
    assert read_file(str(path)).solution == Solution({((0, 0), (0, 2)): 1})


def test_ohmec_writer_keeps_the_solution():
    puzzle = Puzzle.from_grid([[2, 0, 0, 2], [0, 0, 0, 0], [1, 0, 0, 1]])
    solution = Solution({((0, 0), (0, 3)): 2, ((2, 0), (2, 3)): 1})
    text = write_text(puzzle, "ohmec", solution)
    assert text == "4x3:2=a2.d.1_a1\n"
    assert read_text(text, "ohmec").solution == solution
    adjacent = Puzzle.from_grid([[1, 1]])
    with pytest.raises(FormatError, match="neighbouring islands"):
        write_text(adjacent, "ohmec", Solution({((0, 0), (0, 1)): 1}))


# -- issue 10: the no-loops variant in the formats -------------------------------------------

def test_no_loops_round_trips_where_the_format_holds_it():
    puzzle = Puzzle.from_grid([[2, 0, 2], [0, 0, 0], [1, 0, 1]], no_loops=True)
    solution = Solution({((0, 0), (0, 2)): 1, ((0, 0), (2, 0)): 1, ((0, 2), (2, 2)): 1})
    for fmt in ("tatham", "json", "json-solution", "grid", "csv", "has", "solved", "solved-unicode"):
        doc = read_text(write_text(puzzle, fmt, solution), fmt)
        assert doc.puzzle.no_loops and doc.puzzle == puzzle, fmt
    assert '"no_loops": true' in write_text(puzzle, "json")
    assert "no loops" in write_text(puzzle, "dot", solution)
    for fmt in ("puzzlink", "ohmec", "pzprv3", "prob"):
        with pytest.raises(FormatError, match="no-loops"):
            write_text(puzzle, fmt, solution)
    plain = Puzzle.from_grid([[2, 0, 2], [0, 0, 0], [1, 0, 1]])
    assert '"no_loops"' not in write_text(plain, "json") and "L" not in write_text(plain, "tatham")


def test_json_no_loops_must_be_a_boolean():
    with pytest.raises(FormatError, match="no_loops"):
        read_text('{"rows": 1, "cols": 3, "islands": [[0, 0, 1], [0, 2, 1]], "no_loops": 1}', "json")


def test_a_ragged_spaced_board_is_measured_before_it_is_padded():
    text = "# spaced\n1" + " " * 19_990 + "1\n" + " \n" * 19_000 + "1\n"  # 60 kB, 95M cells padded
    with pytest.raises(FormatError, match="cells"):
        read_text(text, "solved")


def test_the_registry_order_does_not_depend_on_import_order():
    code = ("import hashikit.formats.pzprv3, hashikit.formats.jsonfmt; from hashikit.formats import formats; "
            "print(' '.join(formats()))")
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["grid", "csv", "has", "tatham", "puzzlink", "json", "json-solution", "solved",
                           "solved-unicode", "prob", "dot", "ohmec", "pzprv3", "picture"]


def test_a_grid_over_the_cell_cap_is_refused_from_its_first_row():
    """2001 x 2001 cells (> limits.CLI.max_cells): refused from the first row's width and the row
    count, before every cell is read (a 2290x2290 grid once drove `grade` past gigabytes)."""
    from hashikit.errors import FormatError
    from hashikit.formats import read_text

    text = "\n".join(["1" + "." * 2000] * 2001) + "\n"
    with pytest.raises(FormatError) as info:
        read_text(text, "grid", source="big.txt")
    assert info.value.line == 1 and "4,004,001 cells" in str(info.value)


def test_the_module_table_lists_what_each_format_module_registers():
    """formats._MODULES says which module registers which formats and endings (so reading a file
    loads only its format's module); it must match the registrations themselves."""
    import hashikit.formats as registry

    registered: dict[str, dict[str, tuple]] = {}
    for fmt in registry.formats().values():
        module = (fmt.read or fmt.write).__module__.rsplit(".", 1)[1]
        registered.setdefault(module, {})[fmt.name] = fmt.extensions
    assert registered == registry._MODULES
    assert list(registry.formats()) == [n for names in registry._MODULES.values() for n in names]  # table order


def test_reading_a_file_loads_only_its_formats_module(tmp_path):
    import subprocess
    import sys

    path = tmp_path / "p.has"
    path.write_text("1 3 2\n1 0 1\n")
    script = ("import sys\nfrom hashikit.formats import read_file\nread_file(sys.argv[1])\n"
              "print(' '.join(m for m in sys.modules if m.startswith('hashikit.formats.')))")
    out = subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True, text=True, check=True).stdout
    # has reads its rows with csvgrid's helpers; no other format module loads
    assert set(out.split()) == {"hashikit.formats._common", "hashikit.formats.has", "hashikit.formats.csvgrid"}
