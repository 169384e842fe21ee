"""The web app's JSON API (hashikit serve), through Starlette's TestClient."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
pytest.importorskip("httpx", reason="httpx (for starlette's TestClient) is not installed")

import warnings  # noqa: E402

with warnings.catch_warnings():  # newer Starlette prefers httpx2 for its TestClient
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from hashikit.checker import check  # noqa: E402
from hashikit.formats.jsonfmt import puzzle_from_data  # noqa: E402
from hashikit.model import Solution  # noqa: E402
from hashikit.web.app import MAX_BODY, create_app  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = (ROOT / "examples" / "prob-bridges.txt").read_text()
TATHAM = "7x7m2:4d2b1b4a26b3m1c3c3c2d3"
TWO_SOLUTIONS = "3.3\n...\n3.3\n"  # a square of 3s: doubles across or down


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(), raise_server_exceptions=True) as c:
        yield c


def parse(client, text, **kw):
    r = client.post("/api/parse", json={"text": text, **kw})
    assert r.status_code == 200, r.text
    return r.json()["puzzle"]


def is_solution(puzzle_json, bridges) -> bool:
    return check(puzzle_from_data(puzzle_json, "test"), Solution.from_list(bridges)).ok


def assert_error(r, code):
    assert r.status_code == code, r.text
    body = r.json()
    assert isinstance(body.get("error"), str) and body["error"], body
    return body["error"]


# -- success paths --------------------------------------------------------------
@pytest.mark.parametrize("text, fmt", [(EXAMPLE, None), (TATHAM, None), (TATHAM, "tatham"),
                                       ("https://puzz.link/p?hashikake/3/3/2g2g2g2", None)])
def test_parse_reads_text_formats(client, text, fmt):
    body = {"text": text} if fmt is None else {"text": text, "format": fmt}
    r = client.post("/api/parse", json=body)
    assert r.status_code == 200, r.text
    p = r.json()["puzzle"]
    assert {"rows", "cols", "maxbridges", "islands"} <= set(p)
    assert all(len(i) == 3 for i in p["islands"])


def test_parse_json_puzzle_round_trips(client):
    p = parse(client, EXAMPLE)
    again = parse(client, json.dumps(p))
    assert again == p


def test_solve_returns_a_checked_unique_solution(client):
    p = parse(client, EXAMPLE)
    r = client.post("/api/solve", json={"puzzle": p})
    assert r.status_code == 200
    out = r.json()
    assert out["status"] == "solved" and out["unique"] is True and "second" not in out
    assert is_solution(p, out["bridges"])


def test_solve_reports_a_second_solution(client):
    p = parse(client, TWO_SOLUTIONS)
    out = client.post("/api/solve", json={"puzzle": p}).json()
    assert out["status"] == "solved" and out["unique"] is False
    assert is_solution(p, out["bridges"]) and is_solution(p, out["second"])
    assert out["bridges"] != out["second"]


def test_solve_infeasible(client):
    p = parse(client, "1.1\n...\n1.1\n")  # four 1s: two pairs, never one group
    out = client.post("/api/solve", json={"puzzle": p}).json()
    assert out["status"] == "infeasible" and out["bridges"] == [] and out["reason"]


def test_numbers_alone_impossible_is_400_everywhere(client):
    p = parse(client, "1.2\n")  # the 2 has one neighbour, a 1: at most one bridge
    for path, body in (("/api/solve", {"puzzle": p}), ("/api/hint", {"puzzle": p}),
                       ("/api/analyze", {"puzzle": p})):
        assert "at most 1 bridge" in assert_error(client.post(path, json=body), 400), path


def test_check_complete_partial_and_broken(client):
    p = parse(client, EXAMPLE)
    sol = client.post("/api/solve", json={"puzzle": p}).json()["bridges"]
    assert client.post("/api/check", json={"puzzle": p, "bridges": sol}).json() == {
        "complete": True, "valid": True, "violations": []}
    partial = client.post("/api/check", json={"puzzle": p, "bridges": sol[:4]}).json()
    assert partial == {"complete": False, "valid": True, "violations": []}
    # the 1 at row 2, column 2 joined to the 4 beside it by two bridges: over its number
    over = client.post("/api/check", json={"puzzle": p, "bridges": [[1, 1, 1, 2, 2]]}).json()
    assert over["valid"] is False and over["complete"] is False
    assert [v["rule"] for v in over["violations"]] == ["island-count"]
    assert over["violations"][0]["cells"] == [[1, 1]]
    # crossing: (1,2)-(3,2) vertical against (2,3)... use a 3x3 cross
    cross = parse(client, ".1.\n1.1\n.1.\n")
    out = client.post("/api/check", json={"puzzle": cross, "bridges": [[1, 0, 1, 2, 1], [0, 1, 2, 1, 1]]}).json()
    assert out["valid"] is False and "crossing" in [v["rule"] for v in out["violations"]]
    many = client.post("/api/check", json={"puzzle": p, "bridges": [[0, 0, 0, 5, 3]]}).json()
    assert "too-many-bridges" in [v["rule"] for v in many["violations"]]
    off = client.post("/api/check", json={"puzzle": p, "bridges": [[0, 0, 1, 1, 1]]}).json()
    assert off["valid"] is False and off["violations"][0]["rule"] == "not-straight"


def test_hint_statuses(client):
    p = parse(client, EXAMPLE)
    first = client.post("/api/hint", json={"puzzle": p, "bridges": []}).json()
    assert first["status"] == "hint" and first["sentence"] and first["islands"] and first["links"]
    assert first["problems"] == []
    sol = client.post("/api/solve", json={"puzzle": p}).json()["bridges"]
    done = client.post("/api/hint", json={"puzzle": p, "bridges": sol}).json()
    assert done["status"] == "complete"
    # a bridge the unique solution lacks: (1,2)-(1,4) has 1 in the solution; a double is wrong,
    # but 1 (row 2, column 2) to 4 beside it twice breaks the 1 outright
    bad = client.post("/api/hint", json={"puzzle": p, "bridges": [[1, 1, 1, 2, 2]]}).json()
    assert bad["status"] == "conflict" and bad["problems"] and bad["sentence"]
    puzzle, have = puzzle_from_data(p, "test"), {tuple(b[:4]) for b in sol}
    ends = [(*puzzle.islands[ln.a].pos, *puzzle.islands[ln.b].pos) for ln in puzzle.links]
    wrong = [[*next(e for e in ends if e not in have), 1]]  # a bridge on a link the solution leaves empty
    mistaken = client.post("/api/hint", json={"puzzle": p, "bridges": wrong}).json()
    assert mistaken["status"] == "conflict"
    assert "not part of the solution" in " ".join(mistaken["problems"])
    ring = [[0, 0, 0, 2, 1], [0, 0, 2, 0, 1], [0, 2, 2, 2, 1], [2, 0, 2, 2, 1]]
    stuck = client.post("/api/hint", json={"puzzle": parse(client, TWO_SOLUTIONS), "bridges": ring}).json()
    assert stuck["status"] == "stuck" and stuck["sentence"]


def test_generate_unique_graded(client):
    r = client.post("/api/generate", json={"rows": 7, "cols": 7, "difficulty": "easy", "seed": 5})
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["grade"] == "easy" and out["seed"] == 5
    p = out["puzzle"]
    assert (p["rows"], p["cols"]) == (7, 7)
    solved = client.post("/api/solve", json={"puzzle": p}).json()
    assert solved["unique"] is True and is_solution(p, solved["bridges"])
    again = client.post("/api/generate", json={"rows": 7, "cols": 7, "difficulty": "easy", "seed": 5}).json()
    assert again["puzzle"] == p


def test_generate_options_maxbridges_no_loops_density(client):
    from oracle import count_solutions

    doc = client.get("/api/openapi.json").json()
    props = doc["components"]["schemas"]["GenerateRequest"]["properties"]
    assert props["maxbridges"]["maximum"] == 4 and props["no_loops"]["type"] == "boolean" and "density" in props
    r = client.post("/api/generate", json={"rows": 6, "cols": 6, "difficulty": "easy", "seed": 3,
                                           "maxbridges": 3, "no_loops": True, "density": 0.3})
    assert r.status_code == 200, r.text
    p = r.json()["puzzle"]
    assert p["maxbridges"] == 3 and p["no_loops"] is True
    grid = [[0] * p["cols"] for _ in range(p["rows"])]
    for row, col, n in p["islands"]:
        grid[row][col] = n
    assert count_solutions(grid, 3, no_loops=True)[0] == 1
    parsed = client.post("/api/parse", json={"text": json.dumps(p)}).json()["puzzle"]
    assert parsed["no_loops"] is True  # the puzzle model holds the variant, and the API takes it back
    hinted = client.post("/api/hint", json={"puzzle": p}).json()
    assert hinted["status"] == "hint"
    solved = client.post("/api/solve", json={"puzzle": p}).json()  # a no-loops puzzle is accepted, solved, checked
    assert solved["status"] == "solved" and is_solution(p, solved["bridges"])
    for body in ({"maxbridges": 5}, {"maxbridges": 0}, {"no_loops": "yes"}, {"density": 0.9}, {"density": 0},
                 {"difficulty": "medium", "maxbridges": 1}):
        assert_error(client.post("/api/generate", json={"rows": 6, "difficulty": "easy", **body}), 400)


def test_generate_gives_up_with_503_saying_so_once():
    app = create_app(generate_time_limit=1e-6, pool_size=0)  # no puzzle can be made in a microsecond
    with TestClient(app) as c:
        r = c.post("/api/generate", json={"rows": 12, "cols": 12, "difficulty": "expert", "seed": 1})
        message = assert_error(r, 503)
        assert r.json()["status"] == "timeout"
    assert message.count("puzzle found") == 1 and "1e-06 s" in message, message
    with TestClient(create_app(pool_size=0)) as c:  # the generator gives up early: it says when, and why
        r = c.post("/api/generate", json={"rows": 3, "difficulty": "expert", "seed": 1})
    message = assert_error(r, 503)
    assert message.count("puzzle found") == 1 and "gave up after 200 layouts" in message, message
    assert "within" not in message, message


def test_openapi_and_page(client):
    r = client.get("/api/openapi.json")
    assert r.status_code == 200 and r.json() == client.app.openapi()  # generated from the models
    doc = r.json()
    assert set(doc["paths"]) == {"/api/limits", "/api/style", "/api/parse", "/api/solve", "/api/check", "/api/hint",
                                 "/api/analyze", "/api/convert", "/api/generate", "/api/read-picture", "/api/sheets"}
    gets = {"/api/limits": "LimitsReport", "/api/style": "StyleReport"}
    for path, item in doc["paths"].items():
        if path in gets:
            assert set(item) == {"get"} and item["get"]["responses"]["200"]["content"]["application/json"]["schema"] \
                == {"$ref": f"#/components/schemas/{gets[path]}"}
            continue
        assert set(item) == {"post"} and {"200", "400", "413", "415"} <= set(item["post"]["responses"]), path
    page = client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert "default-src 'self'" in page.headers["content-security-policy"]
    for asset in ("app.js", "style.css"):
        assert client.get(f"/static/{asset}").status_code == 200


def test_every_module_the_page_imports_is_served(client):
    seen, todo = set(), ["app.js"]          # the page's modules, followed from app.js through their imports
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        r = client.get(f"/static/{name}")
        assert r.status_code == 200 and "javascript" in r.headers["content-type"], name
        todo += re.findall(r'^import (?:[^;]*? from )?"\./([\w-]+\.js)";', r.text, re.M)
    assert {"store.js", "referee.js", "server.js", "board.js", "moves.js", "input.js", "build.js"} <= seen


def test_answer_shapes_reach_the_openapi_description_with_their_field_docs(client):
    from hashikit.records import fields
    from hashikit.service import shapes

    schemas = client.get("/api/openapi.json").json()["components"]["schemas"]
    for cls in (shapes.SolveReport, shapes.BoardCheckReport, shapes.ParseReport, shapes.PuzzleModel):
        assert set(schemas[cls.__name__]["properties"]) == set(fields(cls)), cls
    assert schemas["SolveReport"]["required"] == ["status"]
    assert schemas["SolveReport"]["properties"]["status"]["enum"] == ["solved", "infeasible", "unknown"]
    assert schemas["PuzzleModel"]["properties"]["islands"]["description"] == "[row, col, number]"
    assert schemas["ParseReport"]["properties"]["crossings"]["description"] == "pairs of indices into links that cross"


def test_the_puzzle_a_request_carries_has_the_json_shapes_fields_and_descriptions(client):
    """One source for the puzzle's JSON shape: the request's puzzle is PuzzleModel's fields (each
    optional, strict) plus ``grid``; the JSON format's writer writes exactly those fields."""
    from hashikit.formats.jsonfmt import puzzle_data
    from hashikit.model import Puzzle
    from hashikit.records import fields
    from hashikit.service import shapes

    schemas = client.get("/api/openapi.json").json()["components"]["schemas"]
    model, request = schemas["PuzzleModel"]["properties"], schemas["PuzzleIn"]["properties"]
    assert set(request) == set(fields(shapes.PuzzleModel)) | {"grid"}
    for name, prop in model.items():
        assert request[name]["description"] == prop["description"], name
    written = puzzle_data(Puzzle.from_grid([[1, 0, 1]], no_loops=True))
    assert set(written) <= set(model) and {"rows", "cols", "islands", "no_loops"} <= set(written)
    bad = client.post("/api/solve", json={"puzzle": {"rows": "1", "cols": 3, "islands": [[0, 0, 1], [0, 2, 1]]}})
    assert bad.status_code == 400 and '"rows"' in bad.json()["error"]  # strict: a string is not a number
    good = client.post("/api/solve", json={"puzzle": {"rows": 1, "cols": 3, "islands": [[0, 0, 1], [0, 2, 1]]}})
    assert good.json()["status"] == "solved"


def test_limits_document_is_typed_and_follows_the_app():
    """GET /api/limits: the caps of limits.WEB and the app's own settings as fields (the page reads
    these, never the OpenAPI prose); the generate request's bounds are the same numbers."""
    from hashikit import limits
    from hashikit.logic import LEVELS

    with TestClient(create_app(generate_time_limit=7.5, solve_time_limit=3.0, max_body=5000, pool_size=0)) as c:
        doc = c.get("/api/limits").json()
        openapi = c.get("/api/openapi.json").json()
    assert {k: doc[k] for k in ("max_side", "max_cells", "max_islands", "max_maxbridges")} == {
        "max_side": limits.WEB.max_side, "max_cells": limits.WEB.max_cells, "max_islands": limits.WEB.max_islands,
        "max_maxbridges": limits.WEB.max_maxbridges}
    assert (doc["time_limit"], doc["max_input_bytes"], doc["time_margin"]) == (3.0, 5000, limits.TIME_MARGIN)
    gen = doc["generate"]
    assert (gen["time_limit"], gen["max_side"], gen["at_once"]) == (7.5, limits.WEB_GENERATE_MAX_SIDE,
                                                                   limits.WEB_MAX_GENERATING)
    assert gen["levels"] == list(LEVELS)
    props = openapi["components"]["schemas"]["GenerateRequest"]["properties"]
    assert [props["rows"]["minimum"], props["rows"]["maximum"]] == [gen["min_side"], gen["max_side"]]
    assert [props["maxbridges"]["minimum"], props["maxbridges"]["maximum"]] == gen["maxbridges"]
    density = props["density"]["anyOf"][0]
    assert [density["exclusiveMinimum"], density["maximum"]] == [gen["min_density"], gen["max_density"]]
    for name in ("islands_percent", "expansion"):
        ranged = props[name]["anyOf"][0]
        assert [ranged["minimum"], ranged["maximum"]] == gen[name], name
    # the OpenAPI document holds bounds as floats: 2**63 - 1 would come out as 2**63, so the seed's
    # bound is the exact exclusive one
    seed = props["seed"]["anyOf"][0]
    assert [seed["minimum"], int(seed["exclusiveMaximum"]) - 1] == gen["seeds"] and "maximum" not in seed
    assert props["difficulty"]["enum"] == gen["levels"] and props["difficulty"]["default"] == gen["default_level"]
    assert props["rows"]["default"] == gen["default_side"] and props["maxbridges"]["default"] == gen["default_maxbridges"]
    assert props["density"]["description"].endswith(f"(left out: {gen['default_density']})")
    # the ranges in JSON Schema's words, never pydantic's own constraint names
    assert not {"le", "ge", "lt", "gt"} & {key for p in props.values() for part in [p, *p.get("anyOf", [])] for key in part}
    assert (doc["min_side"], doc["min_maxbridges"]) == (limits.MIN_SIDE, limits.MIN_MAXBRIDGES)
    assert set(openapi["components"]["schemas"]["LimitsReport"]["properties"]) == set(doc)


def test_limits_document_lists_each_format_with_what_it_holds(client):
    """Each writable format with a plain title and the MAXBRIDGES values /api/convert writes: every
    listed value converts, every other value up to the web cap is refused (400)."""
    from hashikit.formats import formats

    doc = client.get("/api/limits").json()
    names = [f["name"] for f in doc["formats"]]
    assert sorted(names) == sorted(n for n, f in formats().items() if f.write)
    titles = {f["name"]: f["title"] for f in doc["formats"]}
    assert (titles["tatham"], titles["puzzlink"], titles["grid"]) == ("Tatham game ID", "puzz.link URL", "text grid")
    for f in doc["formats"]:
        for mb in range(1, doc["max_maxbridges"] + 1):
            puzzle = {"rows": 1, "cols": 3, "maxbridges": mb, "islands": [[0, 0, mb], [0, 2, mb]]}
            body = {"puzzle": puzzle, "format": f["name"]}
            if f["needs_solution"]:
                body["bridges"] = [[0, 0, 0, 2, mb]]
            r = client.post("/api/convert", json=body)
            assert (r.status_code == 200) == (mb in f["maxbridges"]), (f["name"], mb, r.text)
        loops = {"puzzle": {"rows": 1, "cols": 3, "no_loops": True, "islands": [[0, 0, 1], [0, 2, 1]]},
                 "format": f["name"], "bridges": [[0, 0, 0, 2, 1]]}
        assert (client.post("/api/convert", json=loops).status_code == 200) == f["no_loops"], f["name"]


# -- malformed and hostile input -----------------------------------------------------
def test_malformed_json(client):
    for body in (b"{", b"not json", b"[1, 2]", b'"text"', b"", b"\xff\xfe{}", b"[" * 100000):
        r = client.post("/api/parse", content=body, headers={"content-type": "application/json"})
        assert_error(r, 400)


def test_huge_number_and_deep_nesting_are_400(client):
    body = '{"puzzle": {"rows": ' + "9" * 5000 + ', "cols": 3, "islands": []}}'
    assert_error(client.post("/api/solve", content=body, headers={"content-type": "application/json"}), 400)
    deep = '{"puzzle": ' + "[" * 50000 + "]" * 50000 + "}"
    assert_error(client.post("/api/solve", content=deep, headers={"content-type": "application/json"}), 400)


def test_not_json_content_type_is_415(client):
    r = client.post("/api/parse", content=b'{"text": "1"}', headers={"content-type": "text/plain"})
    assert_error(r, 415)


@pytest.mark.parametrize("path, body", [
    ("/api/parse", {}),
    ("/api/parse", {"text": 5}),
    ("/api/parse", {"text": ["4..4"]}),
    ("/api/parse", {"text": "   "}),
    ("/api/parse", {"text": EXAMPLE, "format": "nonsense"}),
    ("/api/parse", {"text": EXAMPLE, "format": "prob"}),  # write-only
    ("/api/parse", {"text": EXAMPLE, "format": 3}),
    ("/api/solve", {}),
    ("/api/solve", {"puzzle": "4..4"}),
    ("/api/solve", {"puzzle": None}),
    ("/api/solve", {"puzzle": {"rows": "6", "cols": 6, "islands": []}}),
    ("/api/solve", {"puzzle": {"rows": 6, "cols": 6, "islands": [[0, 0]]}}),
    ("/api/solve", {"puzzle": {"rows": 6, "cols": 6, "islands": [[0, 0, "4"]]}}),
    ("/api/solve", {"puzzle": {"rows": 6, "cols": 6, "islands": [[9, 9, 4]]}}),
    ("/api/solve", {"puzzle": {"rows": 6, "cols": 6, "islands": [[0, 0, 99]]}}),
    ("/api/solve", {"puzzle": {"rows": 6, "cols": 6, "islands": []}}),
    ("/api/solve", {"puzzle": {"rows": -1, "cols": 6, "islands": [[0, 0, 1]]}}),
    ("/api/solve", {"puzzle": {"rows": 6, "cols": 6, "maxbridges": 0, "islands": [[0, 0, 1]]}}),
    ("/api/solve", {"puzzle": {"rows": True, "cols": 6, "islands": [[0, 0, 1]]}}),
    ("/api/check", {"puzzle": {"rows": 1, "cols": 3, "islands": [[0, 0, 1], [0, 2, 1]]}}),
    ("/api/check", {"puzzle": {"rows": 1, "cols": 3, "islands": [[0, 0, 1], [0, 2, 1]]}, "bridges": "0 0 0 2 1"}),
    ("/api/check", {"puzzle": {"rows": 1, "cols": 3, "islands": [[0, 0, 1], [0, 2, 1]]}, "bridges": [[0, 0, 0, 2]]}),
    ("/api/check", {"puzzle": {"rows": 1, "cols": 3, "islands": [[0, 0, 1], [0, 2, 1]]},
                    "bridges": [[0, 0, 0, 2, 1.5]]}),
    ("/api/check", {"puzzle": {"rows": 1, "cols": 3, "islands": [[0, 0, 1], [0, 2, 1]]},
                    "bridges": [[0, 0, 0, 2, 1], [0, 2, 0, 0, 1]]}),
    ("/api/hint", {"puzzle": {"rows": 1, "cols": 3, "islands": [[0, 0, 1], [0, 2, 1]]}, "bridges": {"a": 1}}),
    ("/api/hint", {"puzzle": {"rows": 2, "cols": 3, "islands": [[0, 0, 1], [0, 2, 1]]},
                   "bridges": [[0, 0, 1, 2, 1]]}),  # on no link
    ("/api/check", {"puzzle": {"rows": 1, "cols": 3, "islands": [[0, 0, 1], [0, 2, 1]]},
                    "bridges": [[0, 0, 0, 10**12, 1]]}),  # far off the board: refused, not walked
    ("/api/check", {"puzzle": {"rows": 1, "cols": 3, "islands": [[0, 0, 1], [0, 2, 1]]},
                    "bridges": [[0, -5, 0, 2, 1]]}),
    ("/api/check", {"puzzle": {"rows": 1, "cols": 3, "islands": [[0, 0, 1], [0, 2, 1]]},
                    "bridges": [[0, 0, 0, 2, 10**20]]}),
    ("/api/generate", {"rows": "7"}),
    ("/api/generate", {"rows": 2}),
    ("/api/generate", {"rows": 7, "cols": 7, "difficulty": "insane"}),
    ("/api/generate", {"rows": 7, "cols": 7, "seed": -1}),
    ("/api/generate", {"rows": 7, "cols": 7, "seed": "x"}),
    ("/api/generate", {"rows": 1000, "cols": 1000}),
])
def test_wrong_types_and_values_are_400(client, path, body):
    assert_error(client.post(path, json=body), 400)


def test_oversized_body_is_413(client):
    big = json.dumps({"text": "1" + "." * (MAX_BODY + 10)})
    assert_error(client.post("/api/parse", content=big, headers={"content-type": "application/json"}), 413)


def test_oversized_body_without_content_length_is_413(client):
    def chunks():
        for _ in range(20):
            yield b" " * 100_000
        yield b'{"text": "1"}'

    r = client.post("/api/parse", content=chunks(), headers={"content-type": "application/json"})
    assert "content-length" not in {k.lower() for k in r.request.headers}
    assert_error(r, 413)


def test_lying_content_length_is_400_or_413(client):
    r = client.post("/api/parse", content=b'{"text": "1"}',
                    headers={"content-type": "application/json", "content-length": "abc"})
    assert r.status_code in (400, 413)


@pytest.mark.parametrize("path, body", [
    ("/api/parse", {"text": ("1." * 40 + "\n") * 80}),
    ("/api/parse", {"text": "1" * 61}),
    ("/api/parse", {"text": "61x3m2:1a1" + "z" * 8}),
    ("/api/parse", {"text": ("1" * 900 + "\n") * 900}),
    ("/api/solve", {"puzzle": {"rows": 61, "cols": 5, "islands": [[0, 0, 1], [0, 2, 1]]}}),
    ("/api/solve", {"puzzle": {"rows": 10**6, "cols": 10**6, "islands": [[0, 0, 1], [0, 2, 1]]}}),
    ("/api/hint", {"puzzle": {"grid": [[1] + [0] * 70 + [1]]}}),
    ("/api/check", {"puzzle": {"rows": 5, "cols": 100, "islands": [[0, 0, 1], [0, 2, 1]]}, "bridges": []}),
])
def test_oversized_board_is_400(client, path, body):
    message = assert_error(client.post(path, json=body), 400)
    assert "60x60" in message or "board" in message


def test_sixty_by_sixty_is_played(client):
    row = "2" + "." * 58 + "2"
    text = "\n".join([row] + ["." * 60] * 58 + [row]) + "\n"
    p = parse(client, text)
    assert (p["rows"], p["cols"]) == (60, 60)
    out = client.post("/api/solve", json={"puzzle": p}).json()
    assert out["status"] == "solved" and is_solution(p, out["bridges"])


@pytest.mark.parametrize("text", ["/etc/passwd", "../../etc/passwd", "file:///etc/passwd", "~/.ssh/id_rsa",
                                  str(ROOT / "examples" / "prob-bridges.txt"), "C:\\Windows\\win.ini", "\x00"])
def test_paths_are_text_not_files(client, text):
    message = assert_error(client.post("/api/parse", json={"text": text}), 400)
    assert "root:" not in message and "4....4" not in message


def test_unknown_endpoint_and_method_are_json(client):
    assert_error(client.get("/api/nothing"), 404)
    assert_error(client.get("/api/solve"), 405)
    assert_error(client.post("/api/openapi.json", json={}), 405)
    assert client.get("/static/../app.py").status_code == 404


def test_server_keeps_serving_after_errors(client):
    p = parse(client, EXAMPLE)
    for _ in range(3):
        client.post("/api/parse", content=b"{", headers={"content-type": "application/json"})
        client.post("/api/solve", json={"puzzle": {"rows": 10**6}})
        client.post("/api/check", json={"puzzle": p, "bridges": [[0, 0, 9, 9, 9]]})
    out = client.post("/api/solve", json={"puzzle": p}).json()
    assert out["status"] == "solved" and is_solution(p, out["bridges"])


def test_host_check_when_asked():
    with TestClient(create_app(allowed_hosts=["127.0.0.1", "localhost"]), base_url="http://localhost") as c:
        assert c.get("/api/openapi.json").status_code == 200
    with TestClient(create_app(allowed_hosts=["127.0.0.1", "localhost"]), base_url="http://evil.example") as c:
        assert c.get("/api/openapi.json").status_code == 400


def test_serve_command_is_registered():
    from hashikit.cli import build_parser

    args = build_parser().parse_args(["serve", "--port", "0"])
    assert (args.host, args.port, args.open) == ("127.0.0.1", 0, False)


def test_serve_without_the_web_extra_prints_the_install_hint(monkeypatch, capsys):
    import argparse
    import sys

    from hashikit.web.cli import run

    monkeypatch.setitem(sys.modules, "uvicorn", None)  # import uvicorn now raises ImportError
    assert run(argparse.Namespace(host="127.0.0.1", port=0, open=False)) == 2
    err = capsys.readouterr().err.strip()
    assert "pip install" in err and "starlette" in err and "\n" not in err


# -- the worker pool (hashikit.run.workers) behind the time-limited work ------------------------------
def test_concurrent_solves_run_on_the_pool_and_every_answer_is_checked(client):
    """Several requests at once, from threads as a server sends them: each answered, each checked."""
    from concurrent.futures import ThreadPoolExecutor

    from hashikit.formats.jsonfmt import puzzle_data
    from hashikit.generate import coelho

    pools = client.app.state.pools
    assert len(pools["light"].pids()) == 3 and len(pools["heavy"].pids()) == 4
    puzzles = [puzzle_data(coelho(45, 15, 15, 50, 5, seed)) for seed in range(4)] + [parse(client, EXAMPLE)]
    with ThreadPoolExecutor(4) as threads:  # the most one client may have in flight
        answers = list(threads.map(lambda i: client.post("/api/solve", json={"puzzle": puzzles[i % 5]}), range(15)))
        hints = list(threads.map(lambda i: client.post("/api/hint", json={"puzzle": puzzles[i]}), range(5)))
    for i, r in enumerate(answers):
        assert r.status_code == 200, r.text
        assert r.json()["status"] == "solved" and is_solution(puzzles[i % 5], r.json()["bridges"])
    assert all(r.status_code == 200 and r.json()["status"] == "hint" for r in hints)


def test_shutdown_ends_the_pools_workers():
    with TestClient(create_app()) as c:
        pools = c.app.state.pools
        pids = pools["light"].pids() + pools["heavy"].pids()
        assert len(set(pids)) == 7
        out = c.post("/api/solve", json={"puzzle": parse(c, EXAMPLE)}).json()
        assert out["status"] == "solved"
    end = time.monotonic() + 5
    while any(Path(f"/proc/{p}").exists() for p in pids) and time.monotonic() < end:
        time.sleep(0.05)
    assert not [p for p in pids if Path(f"/proc/{p}").exists()]


def slow_generation(*args, **kwargs):
    time.sleep(60)


def test_a_client_that_disconnects_ends_its_generation(monkeypatch):
    """The page's Cancel aborts the request; the server notices the client is gone and kills the
    worker at once, instead of generating on until the 20 s limit."""
    import asyncio

    from hashikit.run import workers
    from hashikit.web import jobs

    monkeypatch.setattr(jobs, "generate", slow_generation)
    app = create_app(pool_size=0)
    from asgi_calls import post_scope, receiver, sender

    body = json.dumps({"rows": 7}).encode()
    sent = []

    async def drive():  # the user presses Cancel after 0.8 s
        start = time.monotonic()
        await asyncio.wait_for(app(post_scope("/api/generate", body), receiver(body, 0.8), sender(sent)), 15)
        return time.monotonic() - start

    with workers.Pool(1, name="hashikit-test-cancel") as pool:  # the app's work runs on the current pool
        workers.activate(pool)
        (before,) = pool.pids()
        took = asyncio.run(drive())
        end = time.monotonic() + 5
        while Path(f"/proc/{before}").exists() and time.monotonic() < end:
            time.sleep(0.05)
        assert not Path(f"/proc/{before}").exists()  # the generating worker was killed
        assert pool.run(len, ("abc",), deadline=time.monotonic() + 30) == 3  # and replaced
    assert took < 0.8 + 3, took  # not the 20 s generate limit
    assert sent[0]["status"] == 499


@pytest.mark.parametrize("maxbridges", [9, 65, 10**30])
def test_a_puzzle_in_a_request_is_read_against_the_web_cap_not_the_command_lines(client, maxbridges):
    """The web reads a request's puzzle under limits.WEB, never the command line's cap (64)."""
    from hashikit.limits import WEB

    for body in ({"rows": 3, "cols": 3, "maxbridges": maxbridges, "islands": [[0, 0, 1], [0, 2, 1]]},
                 {"grid": [[1, 0, 1]], "maxbridges": maxbridges}):
        r = client.post("/api/solve", json={"puzzle": body})
        assert r.status_code == 400 and f"runs from 1 to {WEB.max_maxbridges}" in r.json()["error"], r.json()


def test_hint_analyze_and_generate_split_their_time_as_the_cli_does(monkeypatch):
    """One Deadline per request, made when its work starts, handed both to the worker that is killed
    at it and to the job inside (as the CLI's hint, grade and generate do), never a second budget
    of its own (the web once gave hint and analyze half)."""
    from hashikit.limits import HARD_STOP, Deadline
    from hashikit.run import workers
    from hashikit.solvers.process import killed_at_deadline
    from hashikit.web import jobs

    seen = []
    real = workers.run

    def spy(fn, args=(), kwargs=None, *, deadline=None, **rest):
        seen.append((fn, args, deadline))
        return real(fn, args, kwargs, deadline=deadline, **rest)

    monkeypatch.setattr(workers, "run", spy)
    with TestClient(create_app(solve_time_limit=4.0, generate_time_limit=9.0, pool_size=0)) as c:
        p = parse(c, EXAMPLE)
        assert c.post("/api/hint", json={"puzzle": p}).json()["status"] == "hint"
        assert c.post("/api/analyze", json={"puzzle": p}).json()["status"] == "unique"
        assert c.post("/api/generate", json={"rows": 5, "difficulty": "easy", "seed": 3}).status_code == 200
        assert c.post("/api/solve", json={"puzzle": p}).json()["status"] == "solved"
        wide = {"rows": 30, "cols": 30, "islands": [[0, 0, 1], [0, 29, 1]]}  # heavy: over the light cells
        assert c.post("/api/solve", json={"puzzle": wide}).json()["status"] == "solved"
    timed = [(fn, args, at) for fn, args, at in seen if fn is killed_at_deadline and args[0] is not jobs.parse]
    assert [args[0] for _, args, _ in timed] == [jobs.hint, jobs.analyze, jobs.generate, jobs.solve]
    for _, args, at in timed:  # the worker is killed at the very deadline the job keeps
        assert isinstance(args[-1], Deadline) and at == args[-1].at
    assert [args[-1].seconds for _, args, _ in timed] == [4.0, 4.0, 9.0, 4.0]
    (solve,) = [(args, at) for fn, args, at in seen if fn is jobs.solve]  # a heavy board's engine hands back what it found
    assert solve[0][-1].seconds == 4.0 and solve[1] == solve[0][-1].at + HARD_STOP


def test_a_job_hands_its_deadline_down_whole(monkeypatch):
    from hashikit import service
    from hashikit.limits import Deadline
    from hashikit.web import jobs

    seen = []
    for name in ("hint", "analyze", "solve"):
        real = getattr(service, name)
        monkeypatch.setattr(service, name, lambda *a, _real=real, _name=name, **kw: (
            seen.append((_name, kw["time_limit"])), _real(*a, **kw))[1])
    p = {"rows": 3, "cols": 3, "islands": [[0, 0, 3], [0, 2, 3], [2, 0, 3], [2, 2, 3]]}
    deadline = Deadline.after(5)
    jobs.hint(p, [], None, deadline)
    jobs.analyze(p, deadline)
    jobs.solve(p, deadline)
    assert seen == [("hint", deadline), ("analyze", deadline), ("solve", deadline)]
