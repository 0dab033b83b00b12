"""Every figure a notebook shows has a text alternative, in the learner's language.

A figure described by :func:`ptcourse.plotting.describe` (every ``ptcourse.plotting`` figure calls
it; a figure a cell draws with matplotlib calls it itself) is shown as an HTML ``<img alt=...>``:
JupyterLab renders it with its ``alt`` (its own PNG renderer reads no alt from anything), and so
do nbconvert's templates. A bare PNG output is a figure without words.

Each notebook that draws is executed once (its live kernel is shared with tests/test_notebooks.py
when they run in the same process): every image output must carry alt text, with no Chinese in it.
Then, in the same kernel, the cells that drew run again speaking Chinese (``PTCOURSE_LANG=zh-CN``,
as a kernel in ``zh-CN/dayN/`` reads it from ``.ptcourse-lang``): every image output must carry alt
text in Chinese.
"""

from __future__ import annotations

import html
import re

import pytest

from tests.harness.executed import executed
from tools.notebooks import SOLUTIONS, nb_key, read

CJK = re.compile(r"[\u4e00-\u9fff]")
DRAWS = re.compile(r"\bplot_\w+\(|\bshow_images\(|\bplt\.subplots\(|\bplt\.figure\(")


def _draws(path) -> bool:
    return any(c.cell_type == "code" and DRAWS.search(c.source) for c in read(path).cells)


FIGURE_NOTEBOOKS = [p for p in sorted(SOLUTIONS.glob("day*/*.ipynb")) if _draws(p)]


FIGURE = re.compile(r'^<img src="data:image/png;base64,[A-Za-z0-9+/=]+" alt="([^"]*)"')


def _images(result) -> list[dict]:
    """Each figure a cell's run showed, as ``{"alt": text}``: a described figure is an HTML ``<img>``
    whose ``alt`` is the text (what JupyterLab renders); a bare PNG output has no alt at all."""
    found = []
    for m in result.outputs:
        data = m["content"].get("data", {}) if m["msg_type"] in ("display_data", "execute_result") else {}
        if "image/png" in data or "image/jpeg" in data:
            found.append({})
        elif FIGURE.match(data.get("text/html", "")):
            found.append({"alt": html.unescape(FIGURE.match(data["text/html"]).group(1))})
    return found


def test_the_figure_notebooks_are_found():
    names = {nb_key(p) for p in FIGURE_NOTEBOOKS}
    assert {"day1/01_tensors", "day2/01_linear_regression", "day2/03_cnn_mnist", "day3/06_export"} <= names


@pytest.mark.slow
@pytest.mark.parametrize("path", FIGURE_NOTEBOOKS, ids=nb_key)
def test_every_figure_has_alt_text_in_both_languages(path):
    run = executed(path)
    assert not run.errors(), "the notebook itself fails; see tests/test_notebooks.py"
    drawn = {i: _images(r) for i, r in run.results.items() if _images(r)}
    assert drawn, f"{nb_key(path)} draws, but no image output came back"
    missing = [i for i, images in drawn.items() for meta in images if not meta.get("alt")]
    assert not missing, f"cells {missing}: a figure without alt text (ptcourse.plotting.describe)"
    chinese = [meta["alt"] for images in drawn.values() for meta in images if CJK.search(meta["alt"])]
    assert not chinese, f"Chinese in the English alt text: {chinese}"

    kernel = run.kernel
    assert kernel.run("import os as _os; _os.environ['PTCOURSE_LANG'] = 'zh-CN'\n"
                      "from ptcourse.plotting import use_language_fonts as _fonts; _fonts('zh-CN')").ok
    try:
        for i in drawn:
            result = kernel.run(run.nb.cells[i].source)
            assert result.ok, f"cell {i} fails when run again in Chinese: {result.message}"
            for meta in _images(result):
                assert CJK.search(meta.get("alt") or ""), f"cell {i}: alt text not in Chinese: {meta.get('alt')!r}"
    finally:
        kernel.run("_os.environ.pop('PTCOURSE_LANG', None)")
