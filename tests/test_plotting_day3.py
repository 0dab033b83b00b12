"""The Day 3 figure helpers: titled, labelled, drawing what they are given."""

from __future__ import annotations

import matplotlib
import pytest

matplotlib.use("Agg")

from ptcourse import plotting  # noqa: E402


def teardown_function():
    import matplotlib.pyplot as plt

    plt.close("all")


def test_scale_history_marks_the_skipped_steps():
    scales = [2.0**24, 2.0**23, 2.0**22, 2.0**22, 2.0**23, 2.0**22]
    skipped = [True, True, False, False, True, False]
    ax = plotting.plot_scale_history(scales, skipped, title="T")
    assert ax.get_title() == "T" and ax.get_xlabel() and ax.get_ylabel()
    assert ax.get_yscale() == "log"
    lines = {line.get_label(): line for line in ax.get_lines()}
    assert list(lines["skipped step"].get_xdata()) == [1, 2, 5]
    assert list(lines["skipped step"].get_ydata()) == [2.0**24, 2.0**23, 2.0**23]
    assert list(lines["step taken"].get_xdata()) == [3, 4, 6]


def test_scale_history_without_skips_and_mismatched_lengths():
    ax = plotting.plot_scale_history([1.0, 1.0], [False, False])
    assert "skipped step" not in {line.get_label() for line in ax.get_lines()}
    with pytest.raises(ValueError, match="2 scales but 1"):
        plotting.plot_scale_history([1.0, 2.0], [False])


def test_memory_vs_batch_draws_activations_total_and_budget_in_mib():
    mib = 2**20
    ax = plotting.plot_memory_vs_batch([8, 16, 32], [1 * mib, 2 * mib, 4 * mib], fixed_bytes=3 * mib,
                                       budget_bytes=6 * mib)
    assert ax.get_title() and ax.get_xlabel() == "batch size" and "MiB" in ax.get_ylabel()
    lines = {line.get_label(): line for line in ax.get_lines()}
    assert list(lines["activations"].get_ydata()) == [1, 2, 4]
    assert list(lines["fixed + activations"].get_ydata()) == [4, 5, 7]
    assert list(lines["budget"].get_ydata()) == [6, 6]
    assert list(lines["fixed (weights, grads, optimizer)"].get_ydata()) == [3, 3]


def test_memory_vs_batch_alone_and_mismatched_lengths():
    ax = plotting.plot_memory_vs_batch([1, 2], [10.0, 20.0])
    assert {line.get_label() for line in ax.get_lines()} == {"activations"}
    with pytest.raises(ValueError, match="2 batch sizes but 1"):
        plotting.plot_memory_vs_batch([1, 2], [3.0])
