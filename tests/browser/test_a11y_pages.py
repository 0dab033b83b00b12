"""axe-core on *executed* notebook pages of both editions (issue 35): every figure carries words
(``image-alt``) and no serious or critical WCAG 2.1 A/AA violation is in what the course writes,
its rendered markdown and every output of its solved notebooks.

Each page is the solved student copy (English: ``dayN/``; Chinese: ``zh-CN/dayN/``), executed in
its own folder with nbclient as a learner's kernel would run it, saved with its outputs into the browser group's
copy of the course and opened in its one JupyterLab (conftest.py), loaded once: each page opens by JupyterLab's own
``docmanager:open`` command (the app is exposed with ``--LabApp.expose_app_in_browser``).

The suite checks a sample, one notebook per day in each language. ``make a11y`` checks every
notebook of both editions (``PTCOURSE_A11Y_ALL=1``) and writes ``artifacts/a11y/summary.txt``.
JupyterLab's own widgets are upstream's and not judged (tests/browser/test_lab.py says the same).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import nbformat
import pytest

from tests.browser import ui
from tools.course import solved_copy, solved_translated
from tools.notebooks import DAYS, ROOT, SOLUTIONS, nb_key, read, solution_notebooks, student_copy

pytestmark = pytest.mark.slow

ARTIFACTS = ROOT / "artifacts" / "a11y"
SAMPLE = ("day1/00_environment", "day2/01_linear_regression", "day3/01_devices")
ALL = os.environ.get("PTCOURSE_A11Y_ALL", "") == "1"
KEYS = [nb_key(p) for day in DAYS for p in solution_notebooks(day)] if ALL else list(SAMPLE)
PAGES = [(key, lang) for key in KEYS for lang in ("en", "zh-CN")]
# What the course writes on a page: its rendered markdown and every output of its code cells.
CONTENT = [f"{ui.CURRENT} .jp-RenderedMarkdown", f"{ui.CURRENT} .jp-OutputArea-output"]


@pytest.fixture(scope="module")
def summary(browser_ready) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "summary.txt").write_text("")
    return ARTIFACTS / "summary.txt"


@pytest.fixture(scope="module")
def lab_page(page, lab, summary):
    """The browser with JupyterLab loaded once, on the course home, with no kernel (the browser group's
    one JupyterLab and Chromium, conftest.py: its course copy's ``*-a11y.ipynb`` pages are this module's own)."""
    ui.open_page(page, lab, "HOME.ipynb", kernel=False)
    page.wait_for_selector(f"{ui.CURRENT} .jp-Cell")
    page.wait_for_function("() => !!window.jupyterapp", timeout=60_000, polling=ui.POLL)
    return page


def executed_page(course: Path, key: str, lang: str) -> str:
    """The solved notebook ``key`` in ``lang``, executed in its folder of ``course`` and saved with
    its outputs there; returns its path relative to the course."""
    from nbclient import NotebookClient

    source = SOLUTIONS / f"{key}.ipynb"
    nb = solved_copy(read(student_copy(source)), read(source)) if lang == "en" else solved_translated(source)
    rel = f"{'' if lang == 'en' else 'zh-CN/'}{key}-a11y.ipynb"
    path = course / rel
    saved = {k: os.environ.pop(k) for k in ("PTCOURSE_LANG", "MPLBACKEND") if k in os.environ}
    try:  # the kernel inherits this process's environment: its language comes from the page's folder
        NotebookClient(nb, timeout=900, kernel_name="python3", allow_errors=False,
                       resources={"metadata": {"path": str(path.parent)}}).execute()
    finally:
        os.environ.update(saved)
    nbformat.write(nb, str(path))
    return rel


def open_by_command(page, rel: str, markdown_cells: int) -> None:
    """Open ``rel`` with JupyterLab's ``docmanager:open``, with no kernel (the page is only read: its
    outputs are saved in it), and render every markdown cell."""
    ui.open_document(page, rel, kernel=False)
    name = rel.rsplit("/", 1)[-1]
    page.locator(".lm-TabBar-tab.lm-mod-current", has_text=name).wait_for(timeout=60_000)
    page.wait_for_selector(f"{ui.CURRENT} .jp-Cell")
    ui.rendered_markdown(page, markdown_cells)


def close_all(page, lab) -> None:
    lab.shutdown_kernels()
    page.evaluate("() => window.jupyterapp.commands.execute('application:close-all')")
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and page.locator(ui.CURRENT).count():
        if page.locator(".jp-Dialog .jp-mod-warn").count():  # "save before closing?": the copy is ours
            page.locator(".jp-Dialog .jp-mod-warn").first.click()
        page.wait_for_timeout(300)


@pytest.mark.parametrize("key, lang", PAGES, ids=[f"{lang}:{key}" for key, lang in PAGES])
def test_executed_page_is_accessible(lab_page, lab, course, key, lang):
    """An executed page: its figures are <img> with alt text, and axe-core finds no serious or
    critical violation (``image-alt`` included) in its markdown and outputs."""
    from tests.browser import a11y

    rel = executed_page(course, key, lang)
    nb = nbformat.read(str(course / rel), as_version=4)
    bare = sum(1 for c in nb.cells for o in c.get("outputs", [])  # JupyterLab draws these with no alt
               if "image/png" in o.get("data", {}) and "text/html" not in o.get("data", {}))
    open_by_command(lab_page, rel, sum(c.cell_type == "markdown" for c in nb.cells))
    try:
        started = lab.kernels()  # none: the page is only read (a kernel here would be a wasted start)
        found = a11y.violations(lab_page, context={"include": CONTENT})
        blocking = a11y.blocking(found)
        shown = lab_page.locator(f"{ui.CURRENT} .jp-OutputArea-output img").evaluate_all(
            "els => els.map(e => e.getAttribute('alt') || '')")
        ui.shot(lab_page, ARTIFACTS, f"{lang}_{key.replace('/', '_')}")
        with open(ARTIFACTS / "summary.txt", "a") as f:
            f.write(f"{lang} {key}: {len(shown)} figure(s), {len(blocking)} serious/critical, "
                    f"{len(found) - len(blocking)} minor/moderate" + "".join(f"\n    {v}" for v in found) + "\n")
    finally:
        close_all(lab_page, lab)
    assert not started, f"{rel} was opened to be read, yet a kernel started: {started}"
    assert not blocking, f"accessibility of {rel}: " + " | ".join(str(v) for v in blocking)
    assert all(alt.strip() for alt in shown), f"{rel}: a figure without words: {shown}"
    assert bare == 0, f"{rel}: {bare} figure(s) shown as a bare image/png, which JupyterLab draws with no alt"
