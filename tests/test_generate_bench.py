"""benchmarks/generate_bench.py's proof split: the checker's and the SAT engine's seconds are
timed inside each puzzle's run, and the wrappers are taken away afterwards."""

from __future__ import annotations

import sys
from pathlib import Path

from conftest import pure_only

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"


@pure_only
def test_proof_split_times_both_halves_of_the_proof_and_restores_them():
    sys.path.insert(0, str(BENCH))
    try:
        import generate_bench as b
    finally:
        sys.path.remove(str(BENCH))
    import hashikit.checker as checker
    import hashikit.generate.unique as unique

    check, verify = checker.check, unique._verify
    r = b.run_cell(7, "easy", 3, 60.0, 60.0, b.PRESET, split=True)
    assert checker.check is check and unique._verify is verify
    assert r["runs"] == 3 and r["fails"] == 0
    assert r["check_mean"] > 0 and r["sat_mean"] > 0
    assert 0 < r["neither_mean"] < r["no_sat_mean"] < r["made_mean"]
    plain = b.run_cell(7, "easy", 1, 60.0, 60.0, b.PRESET)
    assert "sat_mean" not in plain
