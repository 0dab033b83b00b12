"""The learner's and the instructor's path in a real browser (JupyterLab in headless Chromium).

One JupyterLab serves a throw-away copy of the course for the whole browser group (conftest.py). Screenshots of
every step: ``artifacts/browser/NN_*.png``.
"""

from __future__ import annotations

import re

import nbformat
import pytest

from tests.browser import ui
from tests.browser.conftest import EN_NOTEBOOKS, NOTEBOOKS
from tests.harness.mdmarkers import literal_markers
from tools.notebooks import DAYS, ROOT, points, solution_notebooks

pytestmark = pytest.mark.slow
KERNEL = "PyTorch course (Python 3.11)"


@pytest.fixture(scope="module", autouse=True)
def _grading_in_the_background(zh_grading):
    """The Chinese submission's class grading starts with the module, so it runs while the other
    tests use the browser (test_chinese_submission_feedback_page and the a11y of its pages wait for it)."""


def _home_links(day, nb) -> int:
    """How often the home links a notebook: once in its day's table, and Day 1's first once more
    ("Where to start")."""
    return 2 if (day, nb.name) == ("day1", "00_environment.ipynb") else 1


def test_home_page_opens_first(page, lab, artifacts):
    """`make lab`'s URL lands on the rendered course home, with no pop-up in the way."""
    ui.open_lab(page, lab, "/")
    page.wait_for_timeout(3000)  # JupyterLab shows its news/update toasts shortly after start
    ui.shot(page, artifacts, "01_home")
    assert "/lab/tree/HOME.ipynb" in page.url, f"make lab should open the course home, opened {page.url}"
    panel = page.locator(ui.CURRENT)
    assert panel.locator(".jp-RenderedMarkdown h1").first.inner_text() == "PyTorch in Three Days"
    text = panel.inner_text()
    for day in DAYS:
        for nb in solution_notebooks(day):
            link = panel.locator(f'.jp-RenderedMarkdown a[href*="/files/{day}/{nb.name}"]')
            assert link.count() == _home_links(day, nb), f"the home page should link {day}/{nb.name} once"
    assert "make check NB=day1/01_tensors.ipynb" in text, "the home page should name the self-check command"
    toasts = page.locator(".jp-Notification-Toast, .Toastify__toast").all_inner_texts()
    assert not [t for t in toasts if "news" in t.lower() or "update" in t.lower()], f"pop-ups shown: {toasts}"
    assert KERNEL in page.locator("#jp-main-statusbar").inner_text(), f"the kernel should be named {KERNEL!r}"
    panel.locator(".jp-RenderedMarkdown td a", has_text="Is PyTorch ready?").click()  # opens in JupyterLab
    page.locator(".lm-TabBar-tab.lm-mod-current", has_text="00_environment.ipynb").wait_for()
    page.locator(f"{ui.CURRENT} .jp-RenderedMarkdown h1").first.wait_for()
    ui.shot(page, artifacts, "01b_home_link_opens_notebook")


def test_home_opens_unmodified(page, lab, artifacts):
    """Opening the course home leaves it unmodified: no unsaved-changes dot, no "save?" prompt.

    JupyterLab writes the kernel's spec and language_info into the notebook it opens; the
    page's metadata must already be what the course kernel reports (tools/home.py).
    """
    ui.open_lab(page, lab, "/lab/tree/HOME.ipynb")
    # The kernel's info and spec replies come after "Idle"; JupyterLab writes them into the notebook
    # as each arrives (its own handlers run first: they were attached first). Then two frames: the tab.
    dirty = page.evaluate("""async () => {
        const panel = window.jupyterapp.shell.currentWidget;
        const kernel = panel.sessionContext.session.kernel;
        await kernel.info; await kernel.spec;
        for (let i = 0; i < 2; i++) await new Promise(r => requestAnimationFrame(r));
        return panel.context.model.dirty;
    }""")
    tab = page.locator("#jp-main-dock-panel .lm-TabBar-tab", has_text="HOME.ipynb")
    ui.shot(page, artifacts, "01c_home_unmodified")
    classes = tab.get_attribute("class") or ""
    assert "jp-mod-dirty" not in classes, f"HOME.ipynb is marked modified on open (tab classes: {classes})"
    assert dirty is False, "HOME.ipynb's notebook model is marked modified once the kernel's replies came"


def test_closing_a_notebook_shuts_its_kernel_down(page, lab, artifacts):
    """Closing a notebook's tab gives its kernel's memory back (Binder: 2 GB for all kernels)."""
    import json
    import time
    import urllib.request

    def kernels() -> list:
        with urllib.request.urlopen(lab.url("/api/kernels"), timeout=10) as r:
            return json.load(r)

    ui.open_lab(page, lab, "/lab/tree/day1/00_environment.ipynb")
    assert len(kernels()) == 1, f"one notebook open, kernels: {kernels()}"
    ui.menu(page, "File", "Close Tab")
    # The student copies open marked modified (their kernel metadata is nbgrader's): JupyterLab
    # asks whether to save. The learner only looked at it: discard.
    page.wait_for_timeout(1000)
    if page.locator(".jp-Dialog").count():
        ui.shot(page, artifacts, "01d_close_asks_to_save")
        page.locator(".jp-Dialog .jp-mod-warn").click()
    page.locator(ui.CURRENT).wait_for(state="detached")
    deadline = time.monotonic() + 30
    while kernels() and time.monotonic() < deadline:
        time.sleep(0.5)
    ui.shot(page, artifacts, "01e_notebook_closed")
    assert not kernels(), f"the closed notebook's kernel is still running: {kernels()}"


def test_plots_and_progress_bars_render(page, lab, course, artifacts):
    """Plots appear inline and tqdm draws a widget progress bar, with nothing on stderr."""
    nb = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_code_cell("from tqdm.auto import tqdm\nfor _ in tqdm(range(50), desc='epochs'):\n    pass"),
            nbformat.v4.new_code_cell("import matplotlib.pyplot as plt\nplt.plot([0, 1, 4, 9])\nplt.show()"),
            nbformat.v4.new_code_cell(FIGURE_CELL),
        ],
        metadata={"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
    )
    nbformat.write(nb, str(course / "widgets-check.ipynb"))
    ui.open_lab(page, lab, "/lab/tree/widgets-check.ipynb")
    ui.run_all(page)
    panel = page.locator(ui.CURRENT)
    panel.locator(".widget-progress, .jupyter-widgets .progress-bar").first.wait_for(timeout=30_000)
    ui.shot(page, artifacts, "02_plot_and_progress_bar")
    assert panel.locator('.jp-OutputArea-output[data-mime-type="image/png"] img').count() == 1, "no inline plot"
    assert "epochs" in panel.inner_text(), "the tqdm widget should show its description"
    assert not ui.stderr_outputs(page), f"stderr output: {ui.stderr_outputs(page)}"
    _assert_figures_have_words(page, artifacts, "widgets-check.ipynb", "train")


FIGURE_CELL = "from ptcourse.plotting import plot_curves\nplot_curves({'train': [2.0, 1.0, 0.5]});"
FIGURE_IMG = '.jp-OutputArea-output[data-mime-type="text/html"] img'


def _assert_figures_have_words(page, artifacts, rel: str, *words: str) -> None:
    """The course's figure on the page is an ``<img>`` whose alt text holds ``words``, and axe-core's
    ``image-alt`` rule (with the other WCAG A/AA rules) passes on the figures' outputs."""
    from tests.browser import a11y

    figures = page.locator(f"{ui.CURRENT} {FIGURE_IMG}")
    assert figures.count() == 1, f"{rel}: the course figure is not shown as an <img> with words"
    alt = figures.first.get_attribute("alt") or ""
    assert all(w in alt for w in words), f"{rel}: alt text {alt!r} should name {words}"
    found = a11y.blocking(a11y.violations(page, context={"include": [f"{ui.CURRENT} .jp-OutputArea-output[data-mime-type='text/html']"]}))
    assert not found, f"accessibility of {rel}'s figures: " + " | ".join(str(v) for v in found)


@pytest.mark.parametrize("where", ["", "zh-CN/"])
def test_saved_figure_keeps_its_words_when_reopened(page, lab, course, artifacts, where):
    """A notebook run, saved and opened again (untrusted: JupyterLab sanitizes its HTML): the figure
    still shows, with its alt text in the edition's language, and passes axe-core's image-alt."""
    from nbclient import NotebookClient

    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(FIGURE_CELL)], metadata={
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}})
    folder = course / where
    NotebookClient(nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(folder)}}).execute()
    nbformat.write(nb, str(folder / "figure-saved.ipynb"))
    ui.open_page(page, lab, f"{where}figure-saved.ipynb", kernel=False)  # only read: its outputs are saved
    page.wait_for_selector(f"{ui.CURRENT} {FIGURE_IMG}")  # the figure, once rendered
    ui.shot(page, artifacts, f"03_{where.strip('/') or 'en'}_saved_figure")
    words = ("train", "2", "0.5")
    _assert_figures_have_words(page, artifacts, f"{where}figure-saved.ipynb", *words)
    if where:
        assert CJK.search(page.locator(f"{ui.CURRENT} {FIGURE_IMG}").first.get_attribute("alt")), "alt not in Chinese"


@pytest.mark.parametrize("key", EN_NOTEBOOKS)
def test_solved_notebook_runs_and_validates(page, lab, artifacts, key):
    """A notebook with every answer filled in runs without an error and Validate says Success."""
    name = key.replace("/", "_")
    ui.open_lab(page, lab, f"/lab/tree/{key}-solved.ipynb")
    ui.run_all(page)
    total, ran = ui.code_cells(page)
    ui.shot(page, artifacts, f"10_{name}_solved_ran")
    errors = ui.stderr_outputs(page)
    assert not errors, f"{key} (solved) printed errors or warnings:\n" + "\n---\n".join(errors)
    assert ran == total > 0, f"{key}: {ran} of {total} code cells ran"
    kind, text = ui.validate(page)
    ui.shot(page, artifacts, f"11_{name}_solved_validate")
    ui.close_dialog(page)
    assert kind == "validation-success" and "Success" in text, f"Validate on solved {key} said: {text}"


@pytest.mark.parametrize("key", EN_NOTEBOOKS)
def test_untouched_notebook_fails_visibly(page, lab, artifacts, key):
    """The student copy as handed out: running it stops at the first exercise with
    NotImplementedError in red, and Validate lists the failing cells."""
    name = key.replace("/", "_")
    ui.open_lab(page, lab, f"/lab/tree/{key}.ipynb")
    ui.run_all(page)
    errors = ui.stderr_outputs(page)
    if errors:
        page.locator(f"{ui.CURRENT} {ui.STDERR}").first.scroll_into_view_if_needed()
    ui.shot(page, artifacts, f"12_{name}_untouched_ran")
    assert any("NotImplementedError" in e for e in errors), f"untouched {key} should show NotImplementedError: {errors}"
    kind, text = ui.validate(page)
    ui.shot(page, artifacts, f"13_{name}_untouched_validate")
    ui.close_dialog(page)
    assert kind == "validation-failed", f"Validate on untouched {key} should list failing cells, said: {text}"
    assert "NotImplementedError" in text and "The following cell failed" in text, text


def _wrong_answer_copy(course, lang: str) -> str:
    """day1/00 with its first mutant (a plausible wrong answer) in the ``lang`` edition, written into
    the course copy; returns its path for JupyterLab."""
    from tools import classroom
    from tools.course import solved_translated
    from tools.notebooks import SOLUTIONS, nbgrader_meta

    mutant, _ = classroom.mutated("day1", "00_environment", 0)
    if lang == "en":
        rel = "day1/00_environment-wrong.ipynb"
        nbformat.write(mutant, str(course / rel))
        return rel
    code = {nbgrader_meta(c)["grade_id"]: c.source for c in mutant.cells if nbgrader_meta(c).get("solution")}
    zh = solved_translated(SOLUTIONS / "day1" / "00_environment.ipynb")
    for cell in zh.cells:
        if nbgrader_meta(cell).get("solution"):
            cell.source = code[nbgrader_meta(cell)["grade_id"]]
    rel = "zh-CN/day1/00_environment-wrong.ipynb"
    nbformat.write(zh, str(course / rel))
    return rel


@pytest.mark.parametrize("lang", ["en", "zh-CN"])
def test_failed_check_shows_the_message_not_the_course_code(page, lab, course, artifacts, lang):
    """A wrong answer, run as the learner runs it: the failed test cell shows the check's message
    (behind ✘, in the edition's language) and no traceback, frame or path of the course's code."""
    ui.open_lab(page, lab, f"/lab/tree/{_wrong_answer_copy(course, lang)}")
    ui.run_all(page)
    errors = ui.stderr_outputs(page)
    if errors:
        page.locator(f"{ui.CURRENT} {ui.STDERR}").first.scroll_into_view_if_needed()
    ui.shot(page, artifacts, f"14_{lang}_failed_check")
    assert len(errors) == 1, f"one failed check expected, shown: {errors}"
    shown = errors[0].strip()
    assert shown.startswith("✘") and "torch.device" in shown, shown
    for leak in ("Traceback", "ptcourse", "checks.py", "File ", "site-packages", str(ROOT)):
        assert leak not in shown, f"{leak!r} on the learner's screen: {shown}"
    if lang == "zh-CN":
        assert CJK.search(shown), f"the message is not in Chinese: {shown}"


LEARNER_ERROR = [
    "import ptcourse\nimport torch\nfrom torch import nn\nfrom ptcourse.training import predict\n"
    "device = ptcourse.setup()",
    "class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(3, 2)\n\n"
    "    def forward(self, x):\n        return self.fc(x.T)",
    "predict(Net(), torch.zeros(4, 3))",
]


@pytest.mark.parametrize("lang", ["en", "zh-CN"])
def test_learner_error_shows_only_the_learners_frames(page, lab, course, artifacts, lang):
    """An error in the learner's own model, reached through a course helper (``predict``) and
    ``nn.Linear``, as the browser shows it: the traceback keeps the learner's two lines, and no
    frame of the course package, torch, IPython or ipykernel (ptcourse/tracebacks.py)."""
    rel = ("" if lang == "en" else "zh-CN/") + "day1/learner-error.ipynb"
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in LEARNER_ERROR],
                                  metadata={"kernelspec": {"name": "python3", "display_name": KERNEL,
                                                           "language": "python"}})
    nbformat.write(nb, str(course / rel))
    ui.open_lab(page, lab, f"/lab/tree/{rel}")
    ui.run_all(page)
    errors = ui.stderr_outputs(page)
    if errors:
        page.locator(f"{ui.CURRENT} {ui.STDERR}").last.scroll_into_view_if_needed()
    ui.shot(page, artifacts, f"14b_{lang}_learner_error")
    shown = errors[-1] if errors else ""
    assert "return self.fc(x.T)" in shown and "predict(Net(), torch.zeros(4, 3))" in shown, shown
    assert "RuntimeError: mat1 and mat2 shapes cannot be multiplied" in shown, shown
    for leak in ("ptcourse", "training.py", "module.py", "_call_impl", "site-packages", "ipykernel",
                 "interactiveshell", str(ROOT)):
        assert leak not in shown, f"{leak!r} on the learner's screen: {shown}"
    if lang == "zh-CN":
        assert CJK.search(page.locator(ui.CURRENT).inner_text()), "the set-up line is not in Chinese"


def test_formgrader_lists_days_notebooks_points(page, lab, artifacts):
    """Nbgrader → Formgrader shows the three days; the gradebook has each notebook and its points.
    From the JupyterLab already loaded (a reload costs Chromium seconds of CPU), the course home shown."""
    ui.open_page(page, lab, "HOME.ipynb", kernel=False)
    ui.menu(page, "Nbgrader", "Formgrader")
    frame = page.frame_locator("#formgrader iframe")
    for day in DAYS:
        frame.locator("td", has_text=day).first.wait_for()
    ui.shot(page, artifacts, "20_formgrader_assignments")

    def shown(crumb: str) -> None:
        """Wait until the formgrader shows the page whose breadcrumb ends in ``crumb``: Manage Assignments'
        table links each day too, so a click before the next page replaced it went to the wrong page."""
        frame.locator("ol.breadcrumb li.active").filter(has_text=re.compile(f"^{re.escape(crumb)}$")).wait_for()

    frame.locator("ul").get_by_role("link", name="Manual Grading").click()
    for i, day in enumerate(DAYS, start=21):
        shown("Manual Grading")
        frame.locator("table").get_by_role("link", name=day, exact=True).click()
        shown(day)
        for nb in solution_notebooks(day):
            row = frame.locator("tr", has=frame.locator("td", has_text=nb.stem))
            row.first.wait_for()
            cells = row.first.inner_text()
            assert f"/ {points(nb):g}" in cells, f"formgrader, {day}/{nb.stem}: expected max {points(nb):g}, row {cells!r}"
        ui.shot(page, artifacts, f"{i}_formgrader_{day}")
        frame.locator("ul").get_by_role("link", name="Manual Grading").click()


@pytest.fixture(scope="module")
def student_edition(tmp_path_factory, browser_ready):
    """The student edition (make student-edition), built into a temporary folder."""
    import sys

    from tools.notebooks import ROOT

    sys.path.insert(0, str(ROOT / "tools"))
    import edition

    out = tmp_path_factory.mktemp("edition") / "student"
    edition.build(out)
    return out


def edition_lab(out, log):
    """JupyterLab on a student edition, set up as its own `make lab` / Binder's postBuild set it up
    (its ``tools/lab_setup.py``), into a throw-away prefix instead of the shared .venv."""
    import importlib.util

    from tests.browser.lab import LabServer

    spec = importlib.util.spec_from_file_location(f"lab_setup_{out.parent.name}", out / "tools" / "lab_setup.py")
    setup = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(setup)
    prefix = out.parent / "prefix"
    setup.install_lab_settings(prefix), setup.install_page_config(prefix), setup.install_server_config(prefix)
    return LabServer(out, log, env={"JUPYTER_CONFIG_PATH": str(prefix / "etc" / "jupyter")},
                     args=[f"--LabApp.app_settings_dir={prefix / 'share' / 'jupyter' / 'lab' / 'settings'}"]).start()


def _menu_titles(page) -> list[str]:
    page.locator("#jp-menu-panel .lm-MenuBar-itemLabel").first.wait_for()
    return [t.strip() for t in page.locator("#jp-menu-panel .lm-MenuBar-itemLabel").all_inner_texts()]


def _nbgrader_menu(page) -> list[str]:
    """The items of the Nbgrader menu (closed again after reading)."""
    page.locator(".lm-MenuBar-itemLabel", has_text="Nbgrader").click()
    items = page.locator(".lm-Menu-content .lm-Menu-item:not(.lm-mod-hidden) .lm-Menu-itemLabel")
    items.first.wait_for()
    labels = [t.strip() for t in items.all_inner_texts() if t.strip()]
    page.keyboard.press("Escape")
    return labels


def test_student_edition_lab_shows_no_solutions(tab, artifacts, student_edition):
    """JupyterLab on the student edition (its own `make lab` flags and lab set-up): the course home
    opens, and the file browser lists the days and HOME but no solutions, grader or tests folder;
    nbgrader's instructor interface (Create Assignment, Formgrader, Course List) is gone; Validate and
    the Assignment List (handing in through nbgrader's exchange) stay."""
    server = edition_lab(student_edition, artifacts / "jupyterlab-edition.log")
    try:
        ui.open_lab(tab, server, "/")
        assert "/lab/tree/HOME.ipynb" in tab.url, tab.url
        listing = tab.locator(".jp-DirListing-content .jp-DirListing-itemText")
        listing.first.wait_for()
        names = [n.strip() for n in listing.all_inner_texts()]
        ui.shot(tab, artifacts, "30_student_edition_files")
        assert {"day1", "day2", "day3", "HOME.ipynb", "data"} <= set(names), names
        assert not {"solutions", "grader", "tests"} & set(names), f"instructor folders in the edition: {names}"
        ui.open_lab(tab, server, "/lab/tree/day1/00_environment.ipynb")
        tab.locator(f"{ui.CURRENT} .validate-button").wait_for()
        ui.shot(tab, artifacts, "31_student_edition_notebook")
        menus = _menu_titles(tab)
        assert "File" in menus, f"the learner's menus: {menus}"
        assert _nbgrader_menu(tab) == ["Assignment List"], "the Nbgrader menu holds the learner's entry only"
        assert tab.get_by_text("Create Assignment").count() == 0, "nbgrader's Create Assignment sidebar is shown"
    finally:
        tab.goto("about:blank")
        server.stop()


def test_chinese_student_edition_lab_speaks_chinese(tab, artifacts, tmp_path_factory, browser_ready):
    """The Chinese student edition's JupyterLab opens in Chinese (its menus), with no instructor menu."""
    import sys

    sys.path.insert(0, str(ROOT / "tools"))
    import edition

    out = tmp_path_factory.mktemp("edition-zh") / "student"
    edition.build(out, lang="zh-CN")
    server = edition_lab(out, artifacts / "jupyterlab-edition-zh.log")
    try:
        ui.open_lab(tab, server, "/lab/tree/day1/00_environment.ipynb")
        tab.locator(f"{ui.CURRENT} .validate-button").wait_for()
        menus = _menu_titles(tab)
        ui.shot(tab, artifacts, "32_zh_student_edition_menus")
        assert "文件" in menus and "File" not in menus, f"the Chinese edition's menus: {menus}"
        assert len(_nbgrader_menu(tab)) == 1, "the Nbgrader menu holds the learner's entry (Assignment List) only"
    finally:
        tab.goto("about:blank")
        server.stop()


# -- the Chinese edition (zh-CN/, issue 15) ------------------------------------------------------
CJK = re.compile(r"[\u4e00-\u9fff]")


def zh_messages_ready() -> bool:
    """Whether the Chinese check messages can appear: a zh_CN catalogue with messages and the
    language read from ``zh-CN/.ptcourse-lang`` (branch zhmsgs). Until both are merged the
    Chinese-message assertions below xfail, clearly marked; everything else is checked now."""
    import inspect

    from ptcourse import messages

    try:
        has_ids = bool(messages.catalogue("zh_CN"))
    except ModuleNotFoundError:
        has_ids = False
    return has_ids and "ptcourse-lang" in inspect.getsource(messages)


def _check_lines(page) -> list[str]:
    outputs = ui.texts(page, f"{ui.CURRENT} .jp-OutputArea-output")
    return [ln for out in outputs for ln in out.splitlines() if ln.lstrip().startswith(("✔", "✘"))]


def test_chinese_home_opens_and_links_the_chinese_notebooks(page, lab, artifacts):
    import json

    from tools.notebooks import ROOT

    _all_markdown_shown(page, lab, "zh-CN/HOME.ipynb")  # only read: with no kernel, every cell rendered
    ui.shot(page, artifacts, "40_zh_home")
    panel = page.locator(ui.CURRENT)
    first = json.loads((ROOT / "zh-CN" / "HOME.ipynb").read_text())["cells"][0]["source"]
    title = "".join(first).splitlines()[0].removeprefix("# ").strip()
    assert panel.locator(".jp-RenderedMarkdown h1").first.inner_text() == title
    for day in DAYS:
        for nb in solution_notebooks(day):
            link = panel.locator(f'.jp-RenderedMarkdown a[href*="/files/zh-CN/{day}/{nb.name}"]')
            assert link.count() == _home_links(day, nb), f"the Chinese home should link zh-CN/{day}/{nb.name} once"
    assert CJK.search(panel.inner_text()), "the Chinese home should show Chinese text"


ZH_PAGES = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "zh-CN").rglob("*.ipynb") if "-solved" not in p.name)


@pytest.mark.parametrize("rel", ZH_PAGES)
def test_chinese_markdown_renders_without_literal_markers(page, lab, artifacts, rel):
    """Every markdown cell of every Chinese notebook, rendered by JupyterLab: no ``**``, ``__`` or
    lone ``*`` left as characters (CommonMark's flanking rules and full-width punctuation,
    tests/harness/mdmarkers.py; tests/test_i18n_markdown.py checks the same without a browser).
    The Chinese pages of the accessibility check (``A11Y_NOTEBOOKS``) are checked here too."""
    rendered = _all_markdown_shown(page, lab, rel)
    found = [hit for text in rendered for hit in literal_markers(re.sub(r"\$[^$]*\$", " ", text))]
    if found:
        ui.shot(page, artifacts, "45_zh_markers_" + rel.replace("/", "_"))
    assert not found, f"{rel}: JupyterLab shows Markdown markers as characters: " + " | ".join(found)
    if rel.removeprefix("zh-CN/").removesuffix(".ipynb") in A11Y_NOTEBOOKS:  # the Chinese half of the a11y pages
        _assert_accessible(page, artifacts, rel)


ZH_VALIDATED = ("day1/00_environment",)  # Validate re-runs the notebook: the cheapest day's only (test time)


@pytest.mark.parametrize("key", NOTEBOOKS)
def test_chinese_solved_and_untouched_notebooks(page, lab, artifacts, key):
    """The Chinese copy, solved: runs clean, the ✔ lines are Chinese, and (``ZH_VALIDATED``)
    Validate says Success. Untouched: stops at the first exercise with NotImplementedError."""
    name = key.replace("/", "_")
    ui.open_lab(page, lab, f"/lab/tree/zh-CN/{key}-solved.ipynb")
    ui.run_all(page)
    total, ran = ui.code_cells(page)
    checks = _check_lines(page)
    ui.shot(page, artifacts, f"41_zh_{name}_solved_ran")
    errors = ui.stderr_outputs(page)
    assert not errors, f"zh-CN/{key} (solved) printed errors or warnings:\n" + "\n---\n".join(errors)
    assert ran == total > 0 and checks, f"zh-CN/{key}: {ran} of {total} code cells ran, check lines {checks}"
    if key in ZH_VALIDATED:
        kind, text = ui.validate(page)
        ui.shot(page, artifacts, f"42_zh_{name}_solved_validate")
        ui.close_dialog(page)
        assert kind == "validation-success" and "Success" in text, f"Validate on solved zh-CN/{key} said: {text}"

    ui.open_lab(page, lab, f"/lab/tree/zh-CN/{key}.ipynb")
    ui.run_all(page)
    errors = ui.stderr_outputs(page)
    ui.shot(page, artifacts, f"43_zh_{name}_untouched_ran")
    assert any("NotImplementedError" in e for e in errors), f"untouched zh-CN/{key}: {errors}"
    if not zh_messages_ready():
        pytest.xfail("PENDING zhmsgs: Chinese check messages need the zh_CN catalogue and .ptcourse-lang")
    assert all(CJK.search(ln) for ln in checks), f"zh-CN/{key}: check lines not in Chinese: {checks}"


def test_chinese_submission_feedback_page(tab, artifacts, zh_grading):
    """The feedback page of a Chinese submission graded by the class grader (conftest's
    ``zh_grading``, started with the module so it runs while the other tests use the browser)."""
    feedback = zh_grading()
    assert feedback.exists(), f"no feedback page at {feedback}"
    tab.goto(feedback.as_uri())
    tab.locator("body").wait_for()
    ui.shot(tab, artifacts, "44_zh_feedback_page")
    text = tab.locator("body").inner_text()
    assert "mei" in text or "00_environment" in text, text[:500]
    if not zh_messages_ready():
        pytest.xfail("PENDING zhmsgs: the feedback page speaks Chinese once the grader reads the notebook's language")
    assert CJK.search(text), "the feedback page of a Chinese submission should be in Chinese"


# -- accessibility (WCAG 2.1 AA, axe-core): the course home and one notebook per day, in both
# languages, as JupyterLab shows them; a feedback page and the class report ---------------------
A11Y_NOTEBOOKS = ("HOME", "day1/00_environment", "day2/01_linear_regression", "day3/01_devices")


def _all_markdown_shown(page, lab, rel: str) -> list[str]:
    """Open ``rel`` in JupyterLab with no kernel (the page is only read) and render every markdown cell."""
    ui.open_page(page, lab, rel, kernel=False)
    page.wait_for_selector(f"{ui.CURRENT} .jp-RenderedMarkdown")
    cells = sum(c.cell_type == "markdown" for c in nbformat.read(str(ROOT / rel), as_version=4).cells)
    rendered = ui.rendered_markdown(page, cells)
    assert len(rendered) == cells, f"{rel}: {len(rendered)} of {cells} markdown cells rendered"
    assert not lab.kernels(), f"{rel} was opened to be read, yet a kernel started: {lab.kernels()}"
    return rendered


def _assert_accessible(page, artifacts, rel: str) -> None:
    """axe-core: no serious or critical WCAG 2.1 A/AA violation in what the course writes in the
    notebook (its rendered markdown: headings, links, tables, images, language). JupyterLab's own
    widgets (its editors, cell list and heading buttons) are upstream's: recorded, not judged."""
    from tests.browser import a11y

    found = a11y.blocking(a11y.violations(page, context={"include": [f"{ui.CURRENT} .jp-RenderedMarkdown"]}))
    upstream = a11y.violations(page, context=f"{ui.CURRENT} .jp-Notebook")
    with open(artifacts / "a11y_jupyterlab.txt", "a") as f:
        f.write("".join(f"{rel}: {v}\n" for v in upstream))
    assert not found, f"accessibility of {rel}: " + " | ".join(str(v) for v in found)


@pytest.mark.parametrize("key", A11Y_NOTEBOOKS)
def test_course_pages_are_accessible(page, lab, artifacts, key):
    """The English course home and one notebook per day, every markdown cell rendered, pass axe-core
    (the Chinese ones: test_chinese_markdown_renders_without_literal_markers)."""
    _all_markdown_shown(page, lab, f"{key}.ipynb")
    _assert_accessible(page, artifacts, f"{key}.ipynb")


def test_accessibility_check_catches_a_planted_violation(page, lab, course):
    """The check above can fail: a link with no text (a screen reader says only "link") is serious."""
    from tests.browser import a11y

    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(
        "# Planted\n\nSee [](https://example.invalid/).\n")])
    nbformat.write(nb, str(course / "a11y-planted.ipynb"))
    ui.open_page(page, lab, "a11y-planted.ipynb", kernel=False)
    page.wait_for_selector(f"{ui.CURRENT} .jp-RenderedMarkdown h1")
    found = a11y.blocking(a11y.violations(page, context={"include": [f"{ui.CURRENT} .jp-RenderedMarkdown"]}))
    assert [v.rule for v in found] == ["link-name"], [str(v) for v in found]


def test_feedback_page_and_class_report_are_accessible(tab, artifacts, zh_grading):
    """The feedback page a learner reads and the instructor's class report: no serious or critical
    violation, and every page has its language, a title and a main landmark."""
    from tests.browser import a11y

    feedback = zh_grading()
    report = feedback.parents[3] / "reports" / "day1" / "report.html"
    problems = {}
    for path in (feedback, report):
        tab.goto(path.as_uri())
        tab.locator("body").wait_for()
        found = a11y.violations(tab, best_practice=True)
        problems[path.name] = [str(v) for v in a11y.blocking(found)]
        problems[path.name] += [str(v) for v in found if v.rule in ("landmark-one-main", "region",
                                                                    "empty-table-header", "heading-order")]
    ui.shot(tab, artifacts, "51_a11y_report")
    assert not any(problems.values()), f"accessibility: {problems}"
