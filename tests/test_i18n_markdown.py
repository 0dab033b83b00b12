"""Chinese Markdown as JupyterLab and GitHub render it: no literal ``**``, ``__`` or ``*``.

CommonMark (marked in JupyterLab, cmark-gfm on GitHub) does not close bold whose closing ``**``
follows full-width punctuation and precedes a CJK letter (tests/harness/mdmarkers.py says why and
what to write instead). Every markdown cell of the built Chinese notebooks and every entry of the
translation files is rendered with mistune (same rules) and must show no emphasis marker. No
kernel, about a second. The browser suite checks the same in JupyterLab itself
(tests/browser/test_lab.py, ``test_chinese_markdown_renders_without_literal_markers``).
"""

from __future__ import annotations

import json
import sys

import pytest

from tests.harness.mdmarkers import unrendered
from tools.notebooks import ROOT

sys.path.insert(0, str(ROOT / "tools"))
import i18n  # noqa: E402  (tools/i18n.py)

LANG = "zh-CN"
BUILT = sorted((ROOT / LANG).rglob("*.ipynb"))
TRANSLATIONS = sorted((ROOT / "i18n" / LANG).rglob("*.md"))


def _rel(path) -> str:
    return str(path.relative_to(ROOT))


@pytest.mark.parametrize("notebook", BUILT, ids=_rel)
def test_built_chinese_notebook_renders_without_literal_markers(notebook):
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    found = [f"cell {cell['id']}: «{hit}»" for cell in nb["cells"] if cell["cell_type"] == "markdown"
             for hit in unrendered(i18n._source(cell))]
    assert not found, (f"{_rel(notebook)}: Markdown markers shown as literal characters (move full-width punctuation "
                       "outside the bold: **术语**（term）, or put a space before the opening marker):\n"
                       + "\n".join(found))


@pytest.mark.parametrize("translation", TRANSLATIONS, ids=_rel)
def test_translation_entries_render_without_literal_markers(translation):
    text = translation.read_text(encoding="utf-8")
    entries = i18n.parse(text).values() if i18n.HEADER.search(text) else [i18n.Entry("-", "", False, text)]
    found = [f"cell {e.cell}: «{hit}»" for e in entries if not e.code for hit in unrendered(e.text)]
    assert not found, f"{_rel(translation)}: Markdown markers shown as literal characters:\n" + "\n".join(found)


@pytest.mark.parametrize("markdown", ["PyTorch 的**自动求导（autograd）**会替你", "一个*映射式（map-style）*数据集",
                                      "只在**`with` 代码块里**放行", "**注意：**这是", "__提示：__这是"])
def test_the_check_sees_literal_markers(markdown):
    assert unrendered(markdown)


@pytest.mark.parametrize("markdown", ["PyTorch 的**自动求导**（autograd）会替你", "一个*映射式*（map-style）数据集",
                                      "只在 **`with` 代码块里**放行", "`a**b` 与 $a*b$ 与 a * b", "`__init__`",
                                      "的<strong>自动求导（autograd）</strong>会"])
def test_the_check_passes_rendered_emphasis(markdown):
    assert unrendered(markdown) == []


def test_chinese_readme_and_home_help_learners_in_mainland_china():
    """Mirrors for pip and conda, running locally when Binder can't be reached, port 8888 taken."""
    readme = i18n.translated_readme(LANG) or ""
    home = "".join(i18n._source(c) for c in json.loads((ROOT / LANG / "HOME.ipynb").read_text())["cells"])
    for name, text in (("i18n/zh-CN/README.md", readme), ("zh-CN/HOME.ipynb", home)):
        assert "## 在中国大陆学习" in text, f"{name}: no section for learners in mainland China"
        for needed in ("pip config set global.index-url https://pypi.tuna.tsinghua.edu.cn/simple",
                       "conda config --set custom_channels.conda-forge", "make lab LAB_ARGS=--port=8889",
                       "jupyter lab list", "make lab"):
            assert needed in text, f"{name}: the mainland China section should say {needed!r}"
