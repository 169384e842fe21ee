"""The test suite itself: the README's test command passes or fails the same way on every run."""

import os

import pytest


def test_the_default_run_tries_the_same_property_examples_every_time(pytestconfig):
    from hypothesis import settings

    marks = pytestconfig.getoption("markexpr") or ""
    if os.environ.get("HASHIKIT_EXPLORE") == "1" or "not slow" not in marks:
        pytest.skip("a long or exploring run draws new examples on purpose")
    assert settings.default.derandomize
