"""Every relative link of the course repository's pages resolves inside the repository: the
notebooks (markdown cells) and Markdown files git knows, except translation sources (``i18n/``,
whose links are the built pages' links) and templates (``tools/edition-files/``, checked in the
built student editions by tests/test_edition.py). No kernel, about a second."""

from __future__ import annotations

import sys

import pytest

from tests.harness.links import dead_links, pages, relative_links
from tools.notebooks import ROOT

sys.path.insert(0, str(ROOT / "tools"))
import edition  # noqa: E402  (tools/edition.py)

SOURCES = ("i18n/", "tools/edition-files/")
PAGES = [p for p in pages(ROOT, edition.course_files(ROOT)) if not str(p.relative_to(ROOT)).startswith(SOURCES)]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_resolve_in_the_repository(page):
    assert not dead_links(page, ROOT), f"{page.relative_to(ROOT)}: dead links {dead_links(page, ROOT)}"


def test_the_pages_are_found_and_the_check_sees_a_dead_link(tmp_path):
    names = {str(p.relative_to(ROOT)) for p in PAGES}
    assert {"README.md", "HOME.ipynb", "zh-CN/HOME.ipynb", "day1/01_tensors.ipynb"} <= names
    assert relative_links("[a](day1/x.ipynb) [b](https://x.org/y) [c](#top) `[d](no.md)` ![e](img.png)") == \
        ["day1/x.ipynb", "img.png"]
    (tmp_path / "sub").mkdir()
    page = tmp_path / "sub" / "page.md"
    page.write_text("[up](../page.md) [out](../../HOME.ipynb) [here](page.md) [gone](x.md)\n")
    assert dead_links(page, tmp_path) == ["../page.md (no such file)", "../../HOME.ipynb (outside "
                                          f"{tmp_path.name}/)", "x.md (no such file)"]
