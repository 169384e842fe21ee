"""The web API's contract beyond tests/test_web_api.py: the geometry in /api/parse, /api/analyze,
"marks", the limits of hashikit.limits.WEB on every endpoint, and a Schemathesis fuzz run from
the generated OpenAPI description (no 5xx, no answer slower than its limit)."""

from __future__ import annotations

import os
import time
import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from hashikit.checker import check
from hashikit.formats.jsonfmt import puzzle_from_data
from hashikit.limits import TIME_MARGIN, WEB
from hashikit.model import Solution
from hashikit.web.app import create_app

from conftest import loaded, ROOT
from oracle import count_solutions

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

EXAMPLE = (ROOT / "examples" / "prob-bridges.txt").read_text()
TWO = "3.3\n...\n3.3\n"


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app()) as c:
        yield c


def parse(client, text):
    r = client.post("/api/parse", json={"text": text})
    assert r.status_code == 200, r.text
    return r.json()


def error(r, code=400) -> str:
    assert r.status_code == code, r.text
    return r.json()["error"]


def test_parse_answers_the_models_links_and_crossings(client):
    out = parse(client, ".1.\n1.1\n.1.\n")
    puzzle = puzzle_from_data(out["puzzle"], "test")
    isl = puzzle.islands
    assert out["links"] == [[*isl[ln.a].pos, *isl[ln.b].pos] for ln in puzzle.links]
    assert out["crossings"] == [list(c) for c in puzzle.crossings] and len(out["crossings"]) == 1
    h, v = out["crossings"][0]
    assert {out["links"][h][0], out["links"][v][0]} == {1, 0}  # a horizontal and a vertical link cross


def test_analyze_unique_several_infeasible(client):
    unique = client.post("/api/analyze", json={"puzzle": parse(client, EXAMPLE)["puzzle"]}).json()
    p = parse(client, EXAMPLE)["puzzle"]
    assert unique["status"] == "unique" and unique["grade"] in ("easy", "medium", "hard", "expert")
    assert unique["score"] > 0 and len(unique["solutions"]) == 1
    assert check(puzzle_from_data(p, "t"), Solution.from_list(unique["solutions"][0])).ok

    two = parse(client, TWO)["puzzle"]
    assert count_solutions([[3, 0, 3], [0, 0, 0], [3, 0, 3]], 2)[0] == 2
    several = client.post("/api/analyze", json={"puzzle": two}).json()
    assert several["status"] == "several" and len(several["solutions"]) == 2
    a, b = (Solution.from_list(s) for s in several["solutions"])
    assert a != b and check(puzzle_from_data(two, "t"), a).ok and check(puzzle_from_data(two, "t"), b).ok
    differ = {tuple(d) for d in several["differ"]}
    assert differ == {k[0] + k[1] for k in set(a.bridges) | set(b.bridges)
                      if a.bridges.get(k, 0) != b.bridges.get(k, 0)} and differ

    apart = parse(client, "1.1\n...\n1.1\n")["puzzle"]
    none = client.post("/api/analyze", json={"puzzle": apart}).json()
    assert none["status"] == "infeasible" and none["reason"] and none["solutions"] == []


def test_marks_narrow_the_hint_and_are_checked(client):
    p = parse(client, EXAMPLE)["puzzle"]
    truth = client.post("/api/solve", json={"puzzle": p}).json()["bridges"]
    used = truth[0][:4]
    out = client.post("/api/hint", json={"puzzle": p, "bridges": [], "marks": [used]}).json()
    assert out["status"] == "conflict" and out["problems"]  # the mark leaves an island short, or the solution has a bridge there
    links = parse(client, EXAMPLE)["links"]
    unused = next(ln for ln in links if ln not in [b[:4] for b in truth])
    ok = client.post("/api/hint", json={"puzzle": p, "bridges": [], "marks": [unused]}).json()
    assert ok["status"] == "hint"
    checked = client.post("/api/check", json={"puzzle": p, "bridges": [truth[0]], "marks": [used]}).json()
    assert checked["valid"] is False and [v["rule"] for v in checked["violations"]] == ["marked"]
    assert "no link" in error(client.post("/api/hint", json={"puzzle": p, "marks": [[0, 0, 5, 5]]}))
    error(client.post("/api/check", json={"puzzle": p, "bridges": [], "marks": [[0, 0, 0]]}))


def test_marks_with_a_most_are_read_checked_and_refused_out_of_range(client):
    p = parse(client, EXAMPLE)["puzzle"]
    truth = client.post("/api/solve", json={"puzzle": p}).json()["bridges"]
    two = next(b for b in truth if b[4] == 2)  # the example's solution has a double bridge
    capped = client.post("/api/check", json={"puzzle": p, "bridges": [two], "marks": [[*two[:4], 1]]}).json()
    assert [v["rule"] for v in capped["violations"]] == ["marked"] and "at most 1" in capped["violations"][0]["message"]
    fine = client.post("/api/check", json={"puzzle": p, "bridges": [two], "marks": [[*two[:4], 2]]}).json()
    assert fine["valid"] is True
    out = client.post("/api/hint", json={"puzzle": p, "bridges": [], "marks": [[*two[:4], 1]]}).json()
    assert out["status"] == "conflict" and out["problems"]  # an island left short, or the solution has 2 there
    assert "0 to 2" in error(client.post("/api/hint", json={"puzzle": p, "marks": [[*two[:4], 3]]}))
    assert "0 to 2" in error(client.post("/api/check", json={"puzzle": p, "bridges": [], "marks": [[*two[:4], -1]]}))


def follow_hints(client, p: dict, limit: int = 2000) -> tuple[dict, int]:
    """Play ``p`` from an empty board by /api/hint alone, applying each answer's ``bridges``
    and sending its ``marks`` back; the last answer and how many hints it took."""
    bridges, marks = {}, {}
    for taken in range(limit):
        h = client.post("/api/hint", json={"puzzle": p, "bridges": [[*k, n] for k, n in bridges.items()],
                                           "marks": [[*k, m] for k, m in marks.items()]}).json()
        if h["status"] != "hint":
            return {**h, "board": [[*k, n] for k, n in bridges.items()]}, taken
        assert h["bridges"] or h["marks"], f"a hint that puts nothing on the board: {h['sentence']}"
        for *key, count in h["bridges"]:
            bridges[tuple(key)] = count
        for *key, most in h["marks"]:
            marks[tuple(key)] = most
    raise AssertionError(f"{limit} hints did not finish the puzzle")


def _islands(rec: dict) -> int:
    return sum(1 for row in rec["grid"] for v in row if v)


def _published(small: bool):
    from conftest import real_records

    recs = [(n, r) for n, r in real_records() if r.get("unique") and r.get("maxb", 2) == 2]
    if not recs:
        pytest.skip("published puzzles not found under ../shared/puzzles/real")
    return [(n, r) for n, r in recs if (_islands(r) <= 40) == small]


def _representative(recs, tiny: int = 12, big: int = 100, sources: int = 3):
    """Every puzzle of up to ``tiny`` islands, and the largest puzzle (up to ``big`` islands) of
    each of the ``sources`` sources whose largest boards are biggest."""
    largest: dict[str, tuple] = {}
    for name, rec in recs:
        source, n = name.split("/")[0], _islands(rec)
        if n <= big and n > largest.get(source, (0,))[0]:
            largest[source] = (n, name, rec)
    chosen = sorted(largest.values(), key=lambda t: t[0], reverse=True)[:sources]
    return [(n, r) for n, r in recs if _islands(r) <= tiny] + [(name, rec) for _n, name, rec in chosen]


def _follow_published(client, records):
    for name, rec in records:
        grid = rec["grid"]
        p = {"rows": len(grid), "cols": len(grid[0]), "maxbridges": 2,
             "islands": [[r, c, v] for r, row in enumerate(grid) for c, v in enumerate(row) if v]}
        last, _taken = follow_hints(client, p)
        assert last["status"] == "complete", (name, last)
        assert check(puzzle_from_data(p, name), Solution.from_list(last["board"])).ok, name


def test_following_api_hints_solves_published_puzzles_up_to_40_islands(client):
    """Every 20th published puzzle of up to 40 islands (5 of 86, 10-15 s: each hint is a request
    with a solve in a child process, 60-150 ms; a representative sample is the slow test below,
    all published puzzles the one after it)."""
    _follow_published(client, _published(small=True)[::20])


@pytest.mark.slow
def test_following_api_hints_solves_a_representative_sample_of_published_puzzles(client):
    """The 23 published puzzles of up to 12 islands and the largest board (96-100 islands) of the
    three sources with the biggest ones: about 940 hints, ~2 min on a quiet machine."""
    everything = _published(small=True) + _published(small=False)
    sample = _representative(everything)
    assert len(sample) >= 20 and len({n.split("/")[0] for n, _r in sample[-3:]}) == 3
    _follow_published(client, sample)


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("HASHIKIT_ALL_HINTS"),
                    reason="all 118 published puzzles take ~19 min (8600 hints); set HASHIKIT_ALL_HINTS=1")
def test_following_api_hints_solves_every_published_puzzle(client):
    _follow_published(client, _published(small=True) + _published(small=False))


def test_convert_writes_every_writable_format_and_reads_back(client):
    from hashikit.formats import formats, read_text

    doc = client.get("/api/openapi.json").json()
    schema = doc["components"]["schemas"]["ConvertRequest"]["properties"]["format"]
    assert sorted(schema["enum"]) == sorted(n for n, f in formats().items() if f.write)
    p = parse(client, EXAMPLE)["puzzle"]
    truth = client.post("/api/solve", json={"puzzle": p}).json()["bridges"]
    puzzle = puzzle_from_data(p, "t")
    for name in ("tatham", "puzzlink", "json", "grid", "json-solution"):
        body = {"puzzle": p, "format": name, **({"bridges": truth} if formats()[name].needs_solution else {})}
        out = client.post("/api/convert", json=body).json()
        back = read_text(out["text"], name)
        assert back.puzzle == puzzle, name
        if formats()[name].needs_solution:
            assert check(back.puzzle, back.solution).ok
    assert "bridges" in error(client.post("/api/convert", json={"puzzle": p, "format": "json-solution"}))
    error(client.post("/api/convert", json={"puzzle": p, "format": "nope"}))


@pytest.mark.parametrize("path, body", [
    ("/api/solve", {"puzzle": {"rows": 3, "cols": 3, "maxbridges": 1000,
                               "islands": [[0, 0, 1000], [0, 2, 1000], [2, 0, 1000], [2, 2, 1000]]}}),
    ("/api/solve", {"puzzle": {"rows": 3, "cols": 3, "maxbridges": 100000,
                               "islands": [[0, 0, 1], [0, 2, 1]]}}),
    ("/api/hint", {"puzzle": {"rows": 3, "cols": 3, "maxbridges": WEB.max_maxbridges + 1,
                              "islands": [[0, 0, 1], [0, 2, 1]]}}),
    ("/api/analyze", {"puzzle": {"rows": 3, "cols": 3, "maxbridges": WEB.max_maxbridges + 1,
                                 "islands": [[0, 0, 1], [0, 2, 1]]}}),
    ("/api/check", {"puzzle": {"rows": 3, "cols": 3, "maxbridges": 10**6, "islands": [[0, 0, 1], [0, 2, 1]]},
                    "bridges": []}),
    ("/api/parse", {"text": "3x3m99:1a1f"}),
    ("/api/parse", {"text": "7x7m99:4d2b1b4a26b3m1c3c3c2d3"}),
])
def test_size_caps_are_400_in_well_under_a_second(client, path, body):
    start = time.perf_counter()
    message = error(client.post(path, json=body))
    assert time.perf_counter() - start < 1.0
    assert "MAXBRIDGES" in message or "maxbridges" in message.lower()


@pytest.mark.parametrize("text", ["10000x10000m2:1a1", "https://puzz.link/p?hashikake/10000/10000/1g1",
                                  "99999999999x3:1"])
def test_a_declared_huge_board_is_400_before_parsing(client, text):
    start = time.perf_counter()
    assert "sides run from 1 to 60" in error(client.post("/api/parse", json={"text": text}))
    assert time.perf_counter() - start < 1.0


def test_a_hint_on_a_big_board_keeps_the_time_limit():
    from conftest import random_puzzle
    from hashikit.formats.jsonfmt import puzzle_data

    p, _ = random_puzzle(60, 60, 3)
    with TestClient(create_app(solve_time_limit=1.0)) as c:
        for path in ("/api/hint", "/api/analyze"):
            start = time.perf_counter()
            r = c.post(path, json={"puzzle": puzzle_data(p)})
            took = time.perf_counter() - start
            assert r.status_code == 200, r.text
            assert took < 1.0 + TIME_MARGIN + loaded(1.0), (path, took)  # + building the board and the request
            assert r.json()["status"] in ("unknown", "hint", "stuck", "several", "infeasible", "unique")


# -- fuzzing from the generated OpenAPI description ----------------------------------------
#: each refusal a fuzzer met, by its message, and the reason the endpoint's 400 description gives for it
DOCUMENTED = [
    (r'^"puzzle": island at row \d+, column \d+ is outside', "an island outside the board"),
    (r'^"puzzle": two islands at row', "two islands on one cell"),
    (r"numbers run from \d+ to \d+ \(\d+ x MAXBRIDGES", "an island number above 4 x MAXBRIDGES"),
    (r'^"grid" row \d+ has \d+ cells but row', "grid rows of unequal lengths"),
    (r"ignored position row \d+, column \d+ holds no island", "an ignored position that holds no island"),
    (r'^"puzzle": the puzzle has no islands', "a puzzle left without islands (every one ignored)"),
    (r"cannot reach any island|needs \d+ bridges?, but", "numbers that alone make the puzzle impossible"),
    (r'^"bridges": the bridge|^marks: no link joins|listed twice|is not straight',
     "bridges or marks not on a link of the puzzle"),
    (r"(format|game ID|Hashikake) (holds|cannot|has no|always has|has MAXBRIDGES)|cannot hold",
     "a format that cannot hold the puzzle"),
    (r"shows a solution: send the bridges", "a format that shows a solution without `bridges`"),
    (r"^cannot read the puzzle", "text that no format reads"),
    (r"sides run from|cells; the limit|islands, the limit", "a board over the caps"),
    (r"not a PNG, JPEG or WebP", "bytes that are not a PNG, JPEG or WebP picture"),
    (r"megapixels", "a picture over the pixel cap"),
    (r"no Hashi board", "a picture that holds no board"),
    (r"density shapes the default layout|allow adjacent does not apply|no puzzle is \w+", "options the rule book"),
    (r"no bridge fits", "a board on which no bridge fits"),
]


def undocumented(path: str, message: str, described: str) -> str | None:
    """Why a refusal is not documented (None: its reason is in the endpoint's 400 description)."""
    import re

    for pattern, reason in DOCUMENTED:
        if re.search(pattern, message):
            return None if reason in described else f"{reason!r} is not in {path}'s 400 description"
    return "no documented reason matches"


def fuzz(max_examples: int, generate_examples: int):
    """Schema-valid requests for every endpoint, from the generated OpenAPI description: no 5xx but a
    503, no answer slower than its limit, and no 400 without a reason that endpoint's description
    gives (schemathesis's positive data acceptance, with the reasons JSON Schema cannot state)."""
    schemathesis = pytest.importorskip("schemathesis")
    from hypothesis import HealthCheck, Phase, given, settings

    app = create_app(solve_time_limit=2.0, generate_time_limit=2.0)
    schema = schemathesis.openapi.from_asgi("/api/openapi.json", app)
    limits = {"/api/generate": 2.0 + TIME_MARGIN + loaded(1.0)}
    spec = app.openapi()
    failures = []
    for op in schema.get_all_operations():
        operation = op.ok()
        path = operation.path
        described = spec["paths"][path]["post"]["responses"]["400"]["description"] if "post" in spec["paths"][path] else ""
        strategy = operation.as_strategy()

        @settings(max_examples=generate_examples if path == "/api/generate" else max_examples, deadline=None,
                  database=None, suppress_health_check=list(HealthCheck), phases=[Phase.generate])
        def one(case):
            start = time.perf_counter()
            response = case.call()
            took = time.perf_counter() - start
            if response.status_code >= 500 and response.status_code != 503:
                failures.append((path, response.status_code, case.body, response.text[:200]))
            if took > limits.get(path, 2.0 + TIME_MARGIN + loaded(1.0)):
                failures.append((path, f"{took:.1f} s", case.body))
            if response.status_code == 400:
                why = undocumented(path, response.json()["error"], described)
                if why:
                    failures.append((path, 400, why, response.json()["error"], case.body))
            if response.status_code in (429, 503):
                assert "retry-after" in response.headers, (path, response.text)

        given(strategy)(one)()
    assert not failures, "\n".join(map(str, failures[:8]))


NULL_PUZZLE = {"rows": None, "cols": None, "islands": None, "grid": None}
SMALL = {"rows": 1, "cols": 3, "islands": [[0, 0, 1], [0, 2, 1]]}
#: requests a fuzzer once found refused though it took them for schema-valid, each beside a valid
#: neighbour: the OpenAPI description now rules each out, and the server refuses each in words
ONCE_TAKEN_FOR_VALID = [
    *[(path, {"puzzle": NULL_PUZZLE, **extra}, {"puzzle": SMALL, **extra}) for path, extra in (
        ("/api/solve", {}), ("/api/check", {"bridges": []}), ("/api/hint", {}), ("/api/analyze", {}),
        ("/api/convert", {"format": "json"}))],
    ("/api/generate", {"density": 0.0}, {"density": 0.2}),
    ("/api/read-picture", {"image": ""}, {"image": "iVBORw0K"}),
    ("/api/parse", {"text": ""}, {"text": "3.3"}),
]


@pytest.mark.parametrize("path, body, neighbour", ONCE_TAKEN_FOR_VALID, ids=lambda v: v if isinstance(v, str) else "")
def test_what_the_schema_rules_out_is_refused_in_words_and_the_schema_says_so(client, path, body, neighbour):
    """An all-null puzzle, a density of 0, an empty picture or text: invalid by the endpoint's
    JSON Schema (so refusing them breaks no promise), and answered 400 with a sentence, no 5xx."""
    jsonschema_rs = pytest.importorskip("jsonschema_rs", reason="jsonschema_rs comes with schemathesis (the test extra)")
    spec = client.app.openapi()
    schema = {**spec, **spec["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"]}
    validator = jsonschema_rs.validator_for(schema)
    assert validator.is_valid(neighbour), [e.message for e in validator.iter_errors(neighbour)]
    assert not validator.is_valid(body)
    assert error(client.post(path, json=body)).strip()


def test_fuzz_the_api_from_its_openapi_description():
    fuzz(max_examples=4, generate_examples=1)


@pytest.mark.slow
def test_fuzz_the_api_longer():
    fuzz(max_examples=300, generate_examples=30)
