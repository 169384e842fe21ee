"""The answers' JSON shapes (``service.shapes``): ``as_json`` tells "asked, not known" (null) from
"not asked" (absent), keeps list fields always, and dumps nested shapes whole."""

from hashikit.service import BoardCheckReport, GenerateReport, PuzzleModel, SolveReport, ViolationModel


def test_optional_fields_appear_only_when_set():
    report = SolveReport(status="solved", bridges=[[0, 0, 0, 2, 1]])
    assert report.as_json() == {"status": "solved", "bridges": [[0, 0, 0, 2, 1]]}
    asked = SolveReport(status="solved", unique=None)
    assert asked.as_json() == {"status": "solved", "bridges": [], "unique": None}


def test_a_field_set_after_the_answer_is_made_is_kept():
    report = SolveReport(status="unknown")
    report.message = "no answer within the time limit of 1 s"
    assert report.as_json() == {"status": "unknown", "bridges": [],
                                "message": "no answer within the time limit of 1 s"}


def test_nested_shapes_are_dumped_whole():
    check = BoardCheckReport(complete=False, valid=False,
                        violations=[ViolationModel(rule="bad-count", message="island (1, 1) has 1 of 2")])
    assert check.as_json()["violations"] == [{"rule": "bad-count", "message": "island (1, 1) has 1 of 2", "cells": []}]
    made = GenerateReport(puzzle=PuzzleModel(rows=2, cols=2, islands=[[0, 0, 1], [0, 1, 1]]), seed=7)
    assert made.as_json() == {"puzzle": {"rows": 2, "cols": 2, "maxbridges": 2, "no_loops": False,
                                         "islands": [[0, 0, 1], [0, 1, 1]], "ignore": [], "format": None},
                              "seed": 7}
    assert made.dump()["grade"] is None and made.dump()["score"] is None


def test_a_shape_takes_keywords_only():
    import pytest

    with pytest.raises(TypeError):
        SolveReport("solved")
