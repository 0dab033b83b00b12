"""The figures ptcourse.plotting draws take their default titles, axis labels and legends from
the catalogue (catalogue/*/plotting.py): English for the English edition, Chinese for the Chinese
one. No kernel; matplotlib's Agg backend, a few seconds."""

from __future__ import annotations

import re

import matplotlib
import pytest
import torch

from ptcourse import plotting
from ptcourse.messages import speaking

matplotlib.use("Agg")
CJK = re.compile(r"[\u4e00-\u9fff]")


def _words(fig_or_ax) -> list[str]:
    """Every title, axis label, tick label, legend entry and text the figure shows."""
    fig = getattr(fig_or_ax, "figure", fig_or_ax)
    out = []
    for ax in fig.axes:
        out += [ax.get_title(), ax.get_xlabel(), ax.get_ylabel()]
        out += [t.get_text() for t in ax.texts]
        out += [t.get_text() for t in ax.get_yticklabels()]
        legend = ax.get_legend()
        out += [t.get_text() for t in legend.get_texts()] if legend else []
    return [w for w in out if w]


FIGURES = {
    "curves": lambda: plotting.plot_curves({"a": [3.0, 2.0], "b": [2.0, 1.0]}),
    "latency": lambda: plotting.plot_latency({"eager": {1: 0.1, 8: 0.5}}),
    "broadcast": lambda: plotting.plot_broadcast((3,), (3, 1)),
    "storage": lambda: plotting.plot_storage(torch.arange(6.0).reshape(2, 3), {"t": torch.arange(6.0).reshape(2, 3).t()}),
    "grad_graph": lambda: plotting.plot_grad_graph((torch.ones(2, requires_grad=True) * 2).sum()),
    "scale": lambda: plotting.plot_scale_history([4.0, 2.0, 2.0], [False, True, False]),
    "memory": lambda: plotting.plot_memory_vs_batch([1, 2], [2**20, 2**21], fixed_bytes=2**20, budget_bytes=2**22),
}


@pytest.mark.parametrize("name", FIGURES)
def test_default_labels_follow_the_learners_language(name):
    import matplotlib.pyplot as plt

    with speaking("zh-CN"), matplotlib.rc_context():
        plotting.use_language_fonts("zh-CN")  # as the Chinese notebooks do (no missing-glyph warnings)
        chinese = _words(FIGURES[name]())
    with speaking("en"):
        english = _words(FIGURES[name]())
    plt.close("all")
    assert CJK.search(chinese[0]) or any(CJK.search(w) for w in chinese), f"{name}: no Chinese in {chinese}"
    assert not any(CJK.search(w) for w in english), f"{name}: Chinese in the English figure {english}"
    assert chinese != english


def test_labels_given_by_the_caller_are_kept():
    import matplotlib.pyplot as plt

    with speaking("zh-CN"), matplotlib.rc_context():
        plotting.use_language_fonts("zh-CN")
        ax = plotting.plot_curves({"a": [1.0]}, xlabel="X", ylabel="Y", title="T")
        assert (ax.get_title(), ax.get_xlabel(), ax.get_ylabel()) == ("T", "X", "Y")
        assert plotting.plot_curves({"a": [1.0]}).get_xlabel() == "轮（epoch）"
    plt.close("all")


@pytest.mark.parametrize("lang", ["en", "zh-CN"])
def test_show_images_refuses_what_is_no_batch_of_images_before_drawing(lang):
    """A (1000, 1) tensor is no batch of images: show_images says so in the learner's language at once, not
    after a figure of 1000 empty axes (about a minute of CPU, tests/test_package_answers.py's costliest
    candidate) and matplotlib's own error."""
    import matplotlib.pyplot as plt

    before = plt.get_fignums()
    with speaking(lang), pytest.raises(ValueError, match=r"\(1000, 1\)") as raised:
        plotting.show_images(torch.rand(1000, 1))
    assert "show_images()" in str(raised.value) and bool(CJK.search(str(raised.value))) == (lang == "zh-CN")
    assert plt.get_fignums() == before, "a figure was made before the shape was refused"
