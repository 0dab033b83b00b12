"""Fixtures of the browser tests: one course copy, one JupyterLab and one Chromium for the whole
package (test_a11y_pages.py and test_lab.py share them: a JupyterLab server start and a Chromium
launch with its JupyterLab page load cost seconds of CPU each). Package-scoped, not session-scoped:
they end with the package's last test, not idle (Chromium's JupyterLab page polls its server) until
the xdist worker's last test. Every test opens what it needs itself (``ui.open_page`` closes what
was open and ends its kernels first), so a module run alone sees the same.

Chromium is Debian's (``/usr/bin/chromium``), driven by Playwright; nothing is downloaded.
Without it the tests skip, except under CI (``CI=true``), where they fail: ``.ci/run``
installs it. Screenshots of every step go to ``artifacts/browser/``.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.browser.lab import LabServer, copy_course
from tools.course import solved_copy, solved_translated
from tools.notebooks import DAYS, ROOT, SOLUTIONS, read

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = ROOT / "artifacts" / "browser"
# Without the background-networking flags Chromium's own connections are refused, many at a
# time, on a closed network; a fresh user-data-dir keeps each run alike.
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
# The notebook run in the browser, solved and untouched, in English and in Chinese: day1/00, the
# quickest. The two editions run the same code byte for byte (tests/test_i18n.py), every notebook
# runs clean in a kernel of its own (tests/test_notebooks.py) and its untouched copy fails every
# check (test_untouched_copy_earns_nothing there); that the Chinese copies of the other days speak
# Chinese is checked in their notebook's live kernel (tests/test_i18n_messages.py). The browser
# proves what only it can: JupyterLab runs, shows and validates a notebook, in either language.
NOTEBOOKS = ("day1/00_environment",)
EN_NOTEBOOKS = NOTEBOOKS


def _missing_browser() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the Python package playwright is not installed (pip install -r requirements.txt)"
    if not CHROMIUM.exists():
        return f"{CHROMIUM} is missing (apt-get install chromium)"
    return None


@pytest.fixture(scope="package")
def browser_ready():
    why = _missing_browser()
    if why:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"browser tests cannot run under CI: {why}")
        pytest.skip(f"browser tests skipped: {why}")


@pytest.fixture(scope="package")
def artifacts() -> Path:
    shutil.rmtree(ARTIFACTS, ignore_errors=True)
    ARTIFACTS.mkdir(parents=True)
    return ARTIFACTS


@pytest.fixture(scope="package")
def course(tmp_path_factory, browser_ready) -> Path:
    """A copy of the course with the gradebook filled and a solved copy of each chosen notebook."""
    root = copy_course(tmp_path_factory.mktemp("browser") / "course")
    _record_assignments(root / "grader" / "gradebook.db")
    import nbformat

    for key in NOTEBOOKS:
        student = root / f"{key}.ipynb"
        solved = solved_copy(read(student), read(SOLUTIONS / f"{key}.ipynb"))
        nbformat.write(solved, str(root / f"{key}-solved.ipynb"))
        # the Chinese edition's (zh-CN/dayN/, tools/i18n.py): solved copies made here, never committed
        nbformat.write(solved_translated(SOLUTIONS / f"{key}.ipynb"), str(root / "zh-CN" / f"{key}-solved.ipynb"))
    return root


def _record_assignments(dest: Path) -> None:
    """The course copy's gradebook with every day's assignment, notebooks and points, as running
    ``nbgrader generate_assignment`` for each day records them: the union of the class grader's
    per-day templates (each made by that command, cached once per machine). The student notebooks
    are the committed ones, which tests/test_roundtrip.py proves equal to a fresh release."""
    import sqlite3

    from grader.grades.gradebook import build_template

    templates = [build_template(day, SOLUTIONS / day, ROOT / "grader" / ".cache")
                 for day in DAYS if list((SOLUTIONS / day).glob("*.ipynb"))]
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(templates[0], dest)
    con = sqlite3.connect(dest)
    try:
        tables = [row[0] for row in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        for template in templates[1:]:
            con.execute("ATTACH DATABASE ? AS other", (str(template),))
            for table in tables:  # the same nbgrader, the same schema; shared rows (the course) once
                con.execute(f'INSERT OR IGNORE INTO main."{table}" SELECT * FROM other."{table}"')
            con.commit()
            con.execute("DETACH DATABASE other")
    finally:
        con.close()


@pytest.fixture(scope="module")
def zh_grading(tmp_path_factory, browser_ready):
    """One Chinese submission of day1/00 with a mistake (mutant 0), graded by the class grader
    in the background from the module's start (test_lab.py asks for it first, autouse); call the
    fixture's value to wait for its feedback page."""
    import subprocess
    import sys

    import nbformat

    from tools import classroom
    from tools.notebooks import nbgrader_meta

    day, name = "day1", "00_environment"
    mutant, _ = classroom.mutated(day, name, 0)
    code = {nbgrader_meta(c)["grade_id"]: c.source for c in mutant.cells if nbgrader_meta(c).get("solution")}
    zh = solved_translated(SOLUTIONS / day / f"{name}.ipynb")
    for cell in zh.cells:
        if nbgrader_meta(cell).get("solution"):
            cell.source = code[nbgrader_meta(cell)["grade_id"]]
    tmp = tmp_path_factory.mktemp("zh-grade")
    (tmp / "in" / "mei" / day).mkdir(parents=True)
    nbformat.write(zh, str(tmp / "in" / "mei" / day / f"{name}.ipynb"))
    log = open(tmp / "grade.log", "w")  # noqa: SIM115 - closed below
    proc = subprocess.Popen([sys.executable, "-m", "grader", "grade", day, "--submissions", str(tmp / "in"),
                             "--out", str(tmp / "out"), "--gradebook", f"sqlite:///{tmp / 'gb.db'}",
                             "--workers", "1", "--quiet"], cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)

    def feedback() -> Path:
        code = proc.wait(timeout=600)
        assert code == 0, (tmp / "grade.log").read_text()
        return tmp / "out" / "feedback" / "mei" / day / f"{name}.html"

    yield feedback
    if proc.poll() is None:
        proc.kill()
    proc.wait()
    log.close()


@pytest.fixture(scope="package")
def lab(course, artifacts):
    # the app exposed to the page's scripts (window.jupyterapp): pages open by command (ui.open_page)
    server = LabServer(course, artifacts / "jupyterlab.log", args=["--LabApp.expose_app_in_browser=True"]).start()
    yield server
    server.stop()


@pytest.fixture(scope="package")
def page(lab, course, artifacts):
    """A Chromium page (1400×900) on a fresh profile."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(course / ".chromium-profile"), executable_path=str(CHROMIUM), args=CHROMIUM_ARGS,
            headless=True, viewport={"width": 1400, "height": 900},
        )
        context.set_default_timeout(60_000)
        page = context.pages[0] if context.pages else context.new_page()
        yield page
        context.close()


@pytest.fixture
def tab(page):
    """Another tab of the same Chromium, closed after the test: for what is not the group's JupyterLab
    (a student edition's JupyterLab, a feedback page), which then stays loaded in ``page``."""
    other = page.context.new_page()
    yield other
    other.close()
    page.bring_to_front()
