"""Chinese figure text renders with no missing glyph (the zh-CN edition's fonts, issue 15).

matplotlib warns "Glyph ... missing from font(s)" when no font in its list has a character:
that warning is an error here. Without a CJK font installed (Debian: fonts-noto-cjk) the test
skips on a laptop and fails under CI (.ci/run installs the font).
"""

from __future__ import annotations

import io
import os
import warnings

import matplotlib
import pytest

matplotlib.use("Agg")

from matplotlib import font_manager  # noqa: E402

from ptcourse import plotting  # noqa: E402


def _has_cjk_font() -> bool:
    for name in plotting.CJK_FONTS:
        try:
            font_manager.findfont(font_manager.FontProperties(family=name), fallback_to_default=False)
            return True
        except ValueError:
            continue
    return False


def _draw_chinese() -> None:
    import matplotlib.pyplot as plt

    plt.close("all")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # "Glyph 25439 (\N{...}) missing from font(s) DejaVu Sans." fails
            ax = plotting.plot_curves({"训练": [1.0, 0.5, 0.25], "验证": [1.1, 0.7, 0.5]}, xlabel="轮（epoch）",
                                      ylabel="损失", title="损失随训练下降")
            ax.figure.savefig(io.BytesIO(), format="png")
    finally:
        plt.close("all")


def test_chinese_title_and_labels_have_every_glyph():
    with matplotlib.rc_context():
        fonts = plotting.use_language_fonts("zh-CN")
        if not _has_cjk_font():
            if os.environ.get("CI"):
                pytest.fail("no CJK font: install fonts-noto-cjk (.ci/run does, Binder's apt.txt does)")
            pytest.skip("no CJK font installed (apt-get install fonts-noto-cjk)")
        assert fonts[0] == "DejaVu Sans" and set(fonts[1:]) <= set(plotting.CJK_FONTS) and len(fonts) > 1, fonts
        _draw_chinese()


def test_without_the_cjk_fonts_the_glyphs_are_missing():
    """The check can fail: with English's font list only, matplotlib warns of missing glyphs."""
    with matplotlib.rc_context({"font.family": ["sans-serif"], "font.sans-serif": ["DejaVu Sans"]}):
        assert plotting.use_language_fonts("en") == ["sans-serif"]
        with pytest.raises(UserWarning, match="missing from font"):
            _draw_chinese()
