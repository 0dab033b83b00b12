"""The latency figure of day3/06: one line per engine on log axes, plus the proportional guide."""

from __future__ import annotations

import matplotlib
import pytest

matplotlib.use("Agg")

from ptcourse import plotting  # noqa: E402


def teardown_function():
    import matplotlib.pyplot as plt

    plt.close("all")


def test_latency_draws_each_engine_and_the_guide_on_log_axes():
    latencies = {"eager": {64: 0.4, 1: 0.05, 8: 0.1}, "ONNX Runtime": {1: 0.01, 8: 0.03, 64: 0.3}}
    ax = plotting.plot_latency(latencies, title="T", xlabel="X", ylabel="Y")
    assert (ax.get_title(), ax.get_xlabel(), ax.get_ylabel()) == ("T", "X", "Y")
    assert ax.get_xscale() == "log" and ax.get_yscale() == "log"
    lines = {line.get_label(): line for line in ax.get_lines()}
    assert list(lines["eager"].get_xdata()) == [1, 8, 64]             # sorted by batch size
    assert list(lines["eager"].get_ydata()) == [0.05, 0.1, 0.4]
    assert list(lines["ONNX Runtime"].get_ydata()) == [0.01, 0.03, 0.3]
    guide = lines["proportional to the batch"]
    assert list(guide.get_ydata()) == pytest.approx([0.05, 0.4, 3.2])  # from eager at batch 1
    assert [t.get_text() for t in ax.get_xticklabels()] == ["1", "8", "64"]
    assert ax.get_legend() is not None


def test_latency_defaults_are_labelled_and_empty_engines_refused():
    ax = plotting.plot_latency({"eager": {1: 1.0, 4: 2.0}}, guide_label="G")
    assert ax.get_title() and "batch size" in ax.get_xlabel() and "ms" in ax.get_ylabel()
    assert [line.get_label() for line in ax.get_lines()] == ["eager", "G"]
    with pytest.raises(ValueError, match="no measurements for 'compiled'"):
        plotting.plot_latency({"eager": {1: 1.0}, "compiled": {}})
