"""The two rule books: the board spec (``limits.Limits.problem``, the one check of a board's size,
and each format's cheap size check) and the generation spec (``hashikit.spec``), held to what
they promise: every entry refuses with the same words naming the same limit, and a web
generation request passes one check."""

from __future__ import annotations

import warnings

import pytest

from hashikit import limits, service
from hashikit.cli import main
from hashikit.errors import BadArgument, FormatError, PuzzleError
from hashikit.formats import declared_size, formats, read_text, write_text
from hashikit.model import Puzzle
from hashikit.spec import OPTIONS, GenerateSpec

from conftest import random_puzzle

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from hashikit.web.app import create_app

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(pool_size=0)) as c:
        yield c


# -- the board spec ---------------------------------------------------------------------------
def test_one_check_gives_one_message_from_every_layer(client):
    """A board over a limit is refused by the model, the readers, admission, the paper's generator
    and the web in the words of Limits.problem, naming the limit."""
    too_wide = limits.WEB.problem(1, 61)
    assert too_wide == "the board is 1x61 (rows x columns); sides run from 1 to 60"
    assert too_wide in str(pytest.raises(FormatError, read_text, "1" + "." * 59 + "1\n", "grid", "t",
                                         limits.WEB).value)
    assert too_wide in str(pytest.raises(FormatError, read_text, "61x1:1" + "z" * 2 + "g", "tatham", "t",
                                         limits.WEB).value)
    wide = Puzzle(1, 61, [(0, 0, 1), (0, 60, 1)])
    assert str(pytest.raises(service.BadInput, service.admit, wide, limits.WEB).value) == too_wide
    answer = client.post("/api/solve", json={"puzzle": {"rows": 1, "cols": 61, "islands": [[0, 0, 1], [0, 60, 1]]}})
    assert answer.status_code == 400 and too_wide in answer.json()["error"]

    empty = limits.MODEL.problem(0, 3)
    assert empty == "the board is 0x3 (rows x columns); sides run from 1 to 10,000"
    assert str(pytest.raises(PuzzleError, Puzzle, 0, 3, [(0, 0, 1)]).value) == empty
    from hashikit.generate import coelho

    assert str(pytest.raises(ValueError, coelho, 5, 0, 3, 50, 5).value) == empty
    assert empty in str(pytest.raises(FormatError, read_text, "0 3 1\n", "has", "t").value)

    many = limits.WEB.problem(maxbridges=9)
    assert many == "MAXBRIDGES is 9; it runs from 1 to 8"
    assert many in str(pytest.raises(FormatError, read_text, "# maxbridges: 9\n1.1\n", "grid", "t",
                                     limits.WEB).value)
    assert many in client.post("/api/parse", json={"text": "3x1m9:1a1"}).json()["error"]
    assert limits.MODEL.problem(maxbridges=10 ** 6) is None  # the model takes any MAXBRIDGES from 1
    assert limits.MODEL.problem(maxbridges=0) == "MAXBRIDGES is 0; it is at least 1"


def sample(name: str, rows: int, cols: int, seed: int) -> str:
    """A puzzle of ``rows`` x ``cols`` written in format ``name`` (with its solution where the
    format shows one; without it for ohmec, whose marks cannot show every solution)."""
    puzzle, solution = random_puzzle(rows, cols, seed)
    fmt = formats()[name]
    return write_text(puzzle, name, solution if fmt.needs_solution or name == "pzprv3" else None)


SIZED = sorted(name for name, f in formats().items() if f.size is not None)


def test_every_readable_text_format_but_json_declares_its_size():
    readable = {name for name, f in formats().items() if f.read is not None}
    assert readable - set(SIZED) == {"json", "json-solution", "picture"}


@pytest.mark.parametrize("name", SIZED)
@pytest.mark.parametrize("rows, cols, seed", [(5, 7, 1), (9, 4, 2), (1, 6, 3), (12, 12, 4)])
def test_a_formats_size_check_finds_the_board_its_reader_reads(name, rows, cols, seed):
    """Written by the format's own writer, read back: the size the cheap check finds (also after
    comment lines that push the header past the first 200 characters) is the reader's board."""
    text = sample(name, rows, cols, seed)
    read = read_text(text, name).puzzle
    assert (read.rows, read.cols) == (rows, cols)
    assert formats()[name].size(text, "t") == (rows, cols)
    if name != "pzprv3":  # (a pzprv3 file starts with its 'pzprv3' line)
        assert declared_size("#" + " comment" * 40 + "\n" * 3 + text, name) == (rows, cols)


@pytest.mark.parametrize("text", [
    "#" + "x" * 300 + "\n10000x10000m2:1a1",
    "0" * 300 + "61x1:1zzg",
    "# a long note about the puzzle" * 10 + "\nhttps://puzz.link/p?hashikake/" + "0" * 250 + "61/1/1",
    "pzprv3\nhashikake\n" + "0" * 400 + "61\n1\n",
    "# spaced\n" + "1 " * 70 + "\n",
])
def test_a_declared_size_is_read_whole_wherever_it_stands(client, text):
    """The web refuses a board its text declares too large by the format's own size check, which
    reads the whole header (leading zeros, comment lines before it), not a prefix of the text."""
    assert "sides run from 1 to 60" in client.post("/api/parse", json={"text": text}).json()["error"]


def test_a_header_number_too_long_is_refused_by_the_size_check():
    with pytest.raises(FormatError, match="at most 12 digits"):
        declared_size("1234567890123x3:1", "tatham")


# -- the generation spec --------------------------------------------------------------------
def web_error(client, body: dict) -> str:
    answer = client.post("/api/generate", json={"rows": 6, "difficulty": "easy", "seed": 1, **body})
    assert answer.status_code == 400, answer.text
    return answer.json()["error"]


def cli_error(capsys, *argv: str) -> str:
    try:
        code = main(["generate", "--size", "6x6", "--seed", "1", *argv])
    except SystemExit as exc:  # argparse: the argument type's refusal
        code = exc.code
    assert code == 2
    return capsys.readouterr().err


@pytest.mark.parametrize("options, argv", [
    ({"maxbridges": 5}, ["--difficulty", "easy", "--maxbridges", "5"]),
    ({"maxbridges": 1, "difficulty": "medium"}, ["--difficulty", "medium", "--maxbridges", "1"]),
    ({"density": 0.9}, ["--difficulty", "easy", "--density", "0.9"]),
    ({"density": 0.0}, ["--difficulty", "easy", "--density", "0"]),
    ({"islands_percent": 31}, ["--difficulty", "easy", "--islands-percent", "31"]),
    ({"expansion": 101}, ["--difficulty", "easy", "--expansion", "101"]),
    ({"density": 0.3, "expansion": 20}, ["--difficulty", "easy", "--density", "0.3", "--expansion", "20"]),
    ({"allow_adjacent": True, "islands_percent": 20},
     ["--difficulty", "easy", "--allow-adjacent", "--islands-percent", "20"]),
    ({"seed": -1}, ["--difficulty", "easy", "--seed", "-1"]),
    ({"difficulty": "fiendish"}, None),
])
def test_every_entry_refuses_a_generation_in_the_rule_books_words(client, capsys, options, argv):
    """The library, the batch function, the command line and the web give the one message of
    GenerateSpec.validate, which names the limit."""
    asked = {"rows": 6, "difficulty": "easy", "seed": 1, **options}
    message = str(pytest.raises(BadArgument, GenerateSpec(**asked).validate).value)
    assert message
    if "seed" not in options:  # (the library's generator takes any seed random.Random does)
        from hashikit.generate import generate_unique

        library = {k: v for k, v in asked.items() if k not in ("rows", "difficulty", "seed")}
        assert str(pytest.raises(ValueError, generate_unique, 6, 6, asked["difficulty"], 1, **library).value) == message
    batch = {k: v for k, v in asked.items() if k not in ("rows", "seed")}
    assert str(pytest.raises(service.BadInput, service.generate_record, 6, 6, asked["seed"], **batch).value) == message
    assert web_error(client, options) == message
    if argv is not None:
        assert message in cli_error(capsys, *argv)


def test_each_entry_names_its_own_largest_side(client, capsys):
    assert web_error(client, {"rows": 26}) == "rows must be from 2 to 25 (got 26)"
    assert "columns must be from 2 to 1000 (got 1001)" in cli_error(capsys, "--difficulty", "easy", "--size", "5x1001")
    from hashikit.generate import generate_unique

    with pytest.raises(ValueError, match=r"^rows must be from 2 to 10000 \(got 10001\)$"):
        generate_unique(10001, 5, "easy")


def test_a_web_generation_passes_one_check(client, monkeypatch):
    """The web checks the request once, where it enters (GenerateSpec.validate, before a generation
    slot or a worker is taken); the service and the generator take the checked spec as it is."""
    checked = []
    real = GenerateSpec.validate

    def counted(self, *args, **kwargs):
        checked.append(self)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(GenerateSpec, "validate", counted)
    answer = client.post("/api/generate", json={"rows": 5, "difficulty": "easy", "seed": 2, "maxbridges": 3})
    assert answer.status_code == 200, answer.text
    assert [spec.maxbridges for spec in checked] == [3]

    def refused(self, *args, **kwargs):
        raise AssertionError("checked again")

    monkeypatch.setattr(GenerateSpec, "validate", refused)  # below the entry nothing checks the spec again
    puzzle, report = service.generate_unique(checked[0])
    assert puzzle.maxbridges == 3 and report.seed == 2


def test_the_generate_help_states_the_rule_books_ranges(capsys):
    with pytest.raises(SystemExit):
        main(["generate", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for name in ("density", "islands_percent", "expansion"):
        option = OPTIONS[name]
        assert f"{option.help} ({option.range_words()}; default {option.implied})" in text, name
    assert f"{OPTIONS['maxbridges'].range_words()} with --difficulty" in text
    assert f"sides {OPTIONS['rows'].range_words(1000)}" in text


def test_the_limits_document_is_the_rule_books(client):
    doc = client.get("/api/limits").json()
    gen = doc["generate"]
    assert gen["levels"] == list(OPTIONS["difficulty"].choices)
    assert [gen["min_side"], gen["max_side"]] == [OPTIONS["rows"].low, limits.WEB_GENERATE_MAX_SIDE]
    assert gen["maxbridges"] == list(limits.GENERATE_MAXBRIDGES)
    assert [gen["min_density"], gen["max_density"], gen["default_density"]] == [0, limits.GENERATE_MAX_DENSITY,
                                                                              limits.GENERATE_DENSITY]
    assert [*gen["islands_percent"], gen["default_islands_percent"]] == [*limits.GENERATE_ISLANDS_PERCENT,
                                                                         limits.GENERATE_TATHAM_DEFAULTS[0]]
    assert [*gen["expansion"], gen["default_expansion"]] == [*limits.GENERATE_EXPANSION,
                                                             limits.GENERATE_TATHAM_DEFAULTS[1]]
    assert (doc["min_side"], doc["max_side"], doc["max_input_bytes"]) == (limits.MIN_SIDE, limits.WEB.max_side,
                                                                         limits.WEB.max_input_bytes)


def test_the_readme_names_the_api_fields_the_models_have():
    """The README's rows for GET /api/limits and POST /api/generate list the fields of the
    answer and the request, no more and no fewer."""
    import re

    from hashikit.web.requests import (AdmissionLimits, FormatInfo, GenerateLimits, GenerateRequest, LimitsReport,
                                       SheetsLimits)
    from conftest import ROOT

    rows = {line.split("|")[1].strip(): line for line in (ROOT / "README.md").read_text().splitlines()
            if line.startswith("| `GET /api/") or line.startswith("| `POST /api/")}

    def names(cell: str) -> set[str]:
        return set(re.findall(r'"(\w+)"', cell))

    limits_row = rows["`GET /api/limits`"].split("|")[3].split("`:")[0]
    assert names(limits_row) == set(LimitsReport.model_fields) | set(GenerateLimits.model_fields) | set(
        FormatInfo.model_fields) | set(AdmissionLimits.model_fields) | set(SheetsLimits.model_fields)
    generate_row = rows["`POST /api/generate`"].split("|")[2]
    assert names(generate_row) == set(GenerateRequest.model_fields)
    assert "MAXBRIDGES must be from 1 to 4 (got 5)" in (ROOT / "README.md").read_text()
    assert str(pytest.raises(BadArgument, GenerateSpec(maxbridges=5).validate).value) == \
        "MAXBRIDGES must be from 1 to 4 (got 5)"
