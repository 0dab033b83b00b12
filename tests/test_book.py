"""The web book (``make book``, tools/book.py): both languages build with warnings as errors, every
page links to the same page in the other language and offers the learner's copy, Binder and the
set-up, and the site's checks (links, network assets, solution lines, sizes) pass and can fail.

One build of the whole site without outputs (no kernel: about 40 CPU-seconds on 2 cores) serves
every test here; ``make book`` runs the same checks on the site with its outputs.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import re
import shutil
import threading
from pathlib import Path
from urllib.parse import quote

import pytest

from tools import book, edition

pytestmark = pytest.mark.slow

REPO = "your-org/pytorch-in-three-days"


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> tuple[Path, book.Report]:
    out = tmp_path_factory.mktemp("book") / "html"
    report = book.build(out, REPO, execute=False)
    return out, report


def links(page: Path) -> list[tuple[str, str]]:
    parser = book._Links()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser.refs


def test_both_languages_build_with_warnings_as_errors_and_pass_every_check(site):
    out, report = site
    assert report.problems == [] and report.not_run == []
    assert report.executed == [] and report.cached == []  # outputs off: no kernel started
    for code, lang in book.LANGS.items():
        names = [p.name for p in book.pages(lang)]
        assert names[0] == "HOME" and names[-1] == "GLOSSARY"
        assert [n for n in names if n.startswith("day")] == sorted(n for n in names if n.startswith("day"))
        assert len([n for n in names if n.startswith("day")]) == len(list(book.ROOT.glob("day*/*.ipynb")))
        for name in names:
            assert (out / code / f"{name}.html").is_file(), name
        assert (out / code / "searchindex.js").is_file() and (out / code / "search.html").is_file()
        assert f'lang="{code}"' in (out / code / "HOME.html").read_text(encoding="utf-8")[:400]
    assert (out / ".nojekyll").exists() and "en/HOME.html" in (out / "index.html").read_text()


def test_every_page_switches_to_the_same_page_in_the_other_language(site):
    out, _ = site
    for code, lang in book.LANGS.items():
        for page in [*book.pages(lang), book.Page("search", "")]:
            html_path = out / code / f"{page.name}.html"
            switch = re.findall(r'<a class="[^"]*book-lang-switch" href="([^"]+)" hreflang="([^"]+)"',
                                html_path.read_text(encoding="utf-8"))
            assert switch == [(switch[0][0], lang.other)], (code, page.name, switch)
            switch = [switch[0][0]]
            assert (html_path.parent / switch[0]).resolve() == (out / lang.other / f"{page.name}.html").resolve()


def test_each_notebook_page_offers_the_learners_copy_binder_and_the_set_up(site):
    out, _ = site
    for code, lang in book.LANGS.items():
        for page in book.pages(lang):
            if not page.notebook:
                continue
            text = (out / code / f"{page.name}.html").read_text(encoding="utf-8")
            hrefs = [href for tag, href in links(out / code / f"{page.name}.html") if tag == "a"]
            download = [h for h in hrefs if h.endswith(f"notebooks/{page.name}.ipynb")]
            assert len(download) == 1, page
            served = (out / code / f"{page.name}.html").parent / download[0]
            assert served.read_bytes() == (book.ROOT / page.source).read_bytes()  # the learner's copy itself
            binder = f"https://mybinder.org/v2/gh/{REPO}/HEAD?urlpath={quote('lab/tree/' + page.source, safe='')}"
            assert binder in hrefs, page
            assert f"git clone https://github.com/{REPO}.git pytorch-in-three-days" in text and "make lab" in text
    # the learner's copy: the exercises are the empty scaffold (the student edition's guarantee)
    copy = json.loads((out / "en" / "notebooks" / "day1" / "01_tensors.ipynb").read_text())
    exercise = next(c for c in copy["cells"] if c["metadata"].get("nbgrader", {}).get("solution"))
    assert "raise NotImplementedError()" in "".join(exercise["source"])


def test_a_link_out_of_the_site_goes_to_the_student_edition_or_the_other_language(site):
    out, _ = site
    home = (out / "en" / "HOME.html").read_text(encoding="utf-8")
    assert 'href="../zh-CN/HOME.html"' in home  # HOME.ipynb's link to zh-CN/HOME.ipynb
    zh_home = (out / "zh-CN" / "HOME.html").read_text(encoding="utf-8")
    assert 'href="../en/HOME.html"' in zh_home  # and back
    assert "/blob/HEAD/" not in home  # HOME links only pages of the site


def test_a_relative_link_out_of_the_site_goes_to_the_student_edition_on_github():
    en = book.LANGS["en"]
    sites = {p.source: (code, p.name) for code, lang in book.LANGS.items() for p in book.pages(lang)}
    page = book.Page("day1/00_environment", "day1/00_environment.ipynb")
    text = ("See [the data](../data/README.md#licence), [tensors](01_tensors.ipynb#exercise-1) "
            "and [中文](../zh-CN/day1/00_environment.ipynb).")
    assert book.relinked(text, page, en, sites, REPO) == (
        f"See [the data](https://github.com/{REPO}/blob/HEAD/data/README.md#licence), "
        "[tensors](01_tensors.ipynb#exercise-1) and "
        '<a href="../../zh-CN/day1/00_environment.html" hreflang="zh-CN" lang="zh-CN">中文</a>.')
    assert "data/README.md" in edition.selected(book.ROOT)  # a file the student edition ships


def test_the_link_check_finds_a_missing_page_a_missing_anchor_and_a_network_asset(site, tmp_path):
    out, _ = site
    copy = tmp_path / "site"
    shutil.copytree(out, copy)
    assert book.broken_links(copy) == []
    page = copy / "en" / "HOME.html"
    text = page.read_text(encoding="utf-8")
    page.write_text(text.replace("</body>", '<a href="day9/nothing.html">x</a><a href="GLOSSARY.html#no-such">y</a>'
                                 '<script src="https://cdn.example.org/x.js"></script></body>'), encoding="utf-8")
    found = book.broken_links(copy)
    assert any("day9/nothing.html" in f for f in found)
    assert any("GLOSSARY.html#no-such (no such anchor)" in f for f in found)
    assert any("https://cdn.example.org/x.js (loads from the network)" in f for f in found)


def test_the_leak_check_finds_a_solution_line_in_highlighted_code_and_in_a_download(site, tmp_path):
    out, _ = site
    line = sorted(book.solution_lines(), key=len)[len(book.solution_lines()) // 2]
    copy = tmp_path / "site"
    shutil.copytree(out / "en", copy / "en")
    page = copy / "en" / "day1" / "01_tensors.html"
    spans = "".join(f'<span class="n">{ch}</span>' for ch in line.replace("&", "&amp;").replace("<", "&lt;"))
    page.write_text(page.read_text(encoding="utf-8").replace("</body>", f"<pre>{spans}</pre></body>"), encoding="utf-8")
    download = copy / "en" / "notebooks" / "day1" / "02_autograd.ipynb"
    nb = json.loads(download.read_text())
    nb["cells"][0]["source"] = [line + "\n"]
    download.write_text(json.dumps(nb))
    found = book.leaks(copy)
    assert f"en/day1/01_tensors.html: {line}" in found and f"en/notebooks/day1/02_autograd.ipynb: {line}" in found


def test_the_leak_check_leaves_out_only_what_the_notebooks_prose_shows(tmp_path):
    everything, kept = edition.solution_lines(), book.solution_lines()
    assert kept <= everything and len(everything - kept) <= 5  # wrapped code in prose only
    for line in everything - kept:
        assert book._collapsed(line) in book._collapsed("\n".join(edition._cell_sources(book.ROOT)))


def test_the_size_budget_holds_and_its_check_can_fail(site):
    out, _ = site
    assert book.over_budget(out) == []
    tight = book.over_budget(out, book.Budget(page_bytes=1000, site_bytes=1000))
    assert any("HOME.html" in f for f in tight) and any(f.startswith("the site:") for f in tight)


def test_only_a_demo_cells_clean_outputs_are_kept():
    def cell(source, outputs, nbgrader=None):
        return {"cell_type": "code", "source": source, "metadata": {"nbgrader": nbgrader} if nbgrader else {},
                "outputs": outputs, "execution_count": 1}
    figure = {"output_type": "display_data", "metadata": {},
              "data": {"text/html": '<img src="data:image/png;base64,AA==" alt="A falling loss curve">',
                       "text/plain": "<Figure>"}}
    printed = {"output_type": "stream", "name": "stdout", "text": "tensor([1., 2.])\n"}
    warning = {"output_type": "stream", "name": "stderr", "text": "/home/x/.venv/lib/python3.11/warnings.py\n"}
    error = {"output_type": "error", "ename": "NameError", "evalue": "x", "traceback": ["Traceback"]}
    widget = {"output_type": "display_data", "metadata": {},
              "data": {"application/vnd.jupyter.widget-view+json": {"model_id": "1"}}}
    nb = {"metadata": {"widgets": {"state": {}}}, "cells": [
        cell("demo", [printed, figure, warning, widget]),
        cell("exercise", [error], {"solution": True}),
        cell("test", [printed], {"grade": True}),
        cell("needs the exercise", [printed, error]),
    ]}
    kept = book.kept_outputs(nb)
    assert kept["cells"][0]["outputs"] == [printed, figure]  # the figure keeps its alt text
    assert [c["outputs"] for c in kept["cells"][1:]] == [[], [], []]
    assert "widgets" not in kept["metadata"]


@pytest.fixture
def served(site):
    """The built site served on the loopback (as ``python3 -m http.server -d book/_build/html``):
    the theme's search fetches page excerpts, which a browser refuses from ``file://``."""
    out, _ = site
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(out))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_a_lesson_in_each_language_switches_language_searches_offline_and_passes_axe(served):
    """In Chromium (Debian's; Playwright downloads nothing), the site on the loopback: a lesson in
    English, its language switch to the same lesson in Chinese and back, the theme's search in
    both languages (its index is a file of the site), and axe-core's WCAG 2.1 A/AA rules on each
    lesson: no serious or critical violation."""
    from tests.browser.a11y import blocking, violations
    from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, _missing_browser

    why = _missing_browser()
    if why:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"the book's browser test cannot run under CI: {why}")
        pytest.skip(why)
    from playwright.sync_api import sync_playwright

    shots = book.ROOT / "artifacts" / "book"
    shots.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.set_default_timeout(30_000)
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{served}/en/day1/01_tensors.html")
        assert page.locator("html").get_attribute("lang") == "en"
        page.screenshot(path=str(shots / "lesson-en.png"))
        assert blocking(violations(page)) == []
        page.click("a.book-lang-switch")
        page.wait_for_url("**/zh-CN/day1/01_tensors.html")
        assert page.locator("html").get_attribute("lang") == "zh-CN"
        page.screenshot(path=str(shots / "lesson-zh-CN.png"))
        assert blocking(violations(page)) == []
        page.click("a.book-lang-switch")
        page.wait_for_url("**/en/day1/01_tensors.html")
        for lang, word in (("en", "broadcasting"), ("zh-CN", "张量")):  # Chinese words: jieba, at build time
            page.goto(f"{served}/{lang}/search.html?q={quote(word)}")
            page.wait_for_selector("#search-results li a")
            assert page.locator("#search-results li a").count() >= 1, lang
        assert errors == []
        browser.close()


def test_the_alt_text_check_finds_a_figure_without_words(site, tmp_path):
    out, _ = site
    copy = tmp_path / "site"
    shutil.copytree(out / "en" / "day1", copy / "en" / "day1")
    assert book.missing_alt(copy) == []
    page = copy / "en" / "day1" / "02_autograd.html"
    page.write_text(page.read_text(encoding="utf-8").replace(
        "</body>", '<img src="data:image/png;base64,AA==" alt=""><img src="x.png" alt="A loss curve"></body>'),
        encoding="utf-8")
    assert book.missing_alt(copy) == ["en/day1/02_autograd.html: data:image/png;base64,AA=="]


def test_a_notebook_runs_again_only_when_it_changed_and_a_failed_run_is_named(monkeypatch, tmp_path):
    runs = []

    def fake_run(text, folder):
        runs.append(text)
        if "boom" in text:
            raise RuntimeError("Kernel died\nmore")
        if "leak-path" in text:
            return json.dumps({"cells": [], "path": str(book.ROOT / "day1")})
        return text + "-ran"

    monkeypatch.setattr(book, "run_notebook", fake_run)
    page, report = book.Page("day1/01_tensors", "day1/01_tensors.ipynb"), book.Report()
    assert book.executed(page, "v1", book.ROOT, tmp_path, "env", report) == "v1-ran"
    assert book.executed(page, "v1", book.ROOT, tmp_path, "env", report) == "v1-ran"  # from the cache
    assert book.executed(page, "v2", book.ROOT, tmp_path, "env", report) == "v2-ran"  # changed: runs
    assert book.executed(page, "v2", book.ROOT, tmp_path, "env2", report) == "v2-ran"  # ptcourse changed: runs
    assert runs == ["v1", "v2", "v2"] and report.cached == ["day1/01_tensors.ipynb"] and report.ok
    assert book.executed(page, "boom", book.ROOT, tmp_path, "env", report) is None
    assert book.executed(page, "leak-path", book.ROOT, tmp_path, "env", report) is None
    assert report.not_run == ["day1/01_tensors.ipynb: RuntimeError: Kernel died",
                              "day1/01_tensors.ipynb: an output shows a path of this machine; shown without outputs"]
    assert not report.ok  # make book exits 1
