"""tools/bench_cnn.py is honest about targets missed: no ratio unless both recipes reached the target."""

import importlib.util
import sys

from tools.notebooks import ROOT

spec = importlib.util.spec_from_file_location("bench_cnn", ROOT / "tools" / "bench_cnn.py")
bench_cnn = importlib.util.module_from_spec(spec)
sys.modules["bench_cnn"] = bench_cnn  # dataclasses look their module up there
spec.loader.exec_module(bench_cnn)

# [(accuracy, seconds)] after each epoch, for two seeds
FAST = [[(0.95, 1.0), (0.98, 2.0)], [(0.96, 1.1), (0.981, 2.1)]]
SLOW = [[(0.96, 4.0), (0.975, 8.0), (0.97, 12.0)], [(0.965, 4.2), (0.976, 8.4), (0.97, 12.6)]]


def test_ratio_when_both_reach_the_target():
    out = bench_cnn.versus({"notebook": FAST, "common": SLOW}, None)  # target: the common recipe's best
    assert out["ratio"] == 4.0 and "missed" not in out
    assert out["notebook_seconds_to_target"] == 2.05 and out["common_seconds_to_target"] == 8.2


def test_no_ratio_when_a_recipe_misses():
    out = bench_cnn.versus({"notebook": SLOW, "common": FAST}, 0.98)
    assert "ratio" not in out and out["missed"] == ["notebook"]
    assert out["notebook_seconds_to_target"] is None and out["common_seconds_to_target"] == 2.05
    assert "notebook 97.5% in 8.2 s" in out["note"] and "common 98.0% in 2.0 s" in out["note"], out["note"]


def test_both_miss():
    out = bench_cnn.versus({"notebook": SLOW, "common": SLOW}, 0.99)
    assert "ratio" not in out and out["missed"] == ["notebook", "common"]
