"""The course home page (HOME.ipynb): markdown only, every notebook listed with its current times and points."""

from __future__ import annotations

import re

from tools.home import HOME, ROW, read_home, rendered, rows, tables
from tools.notebooks import DAYS, ROOT, solution_notebooks

PROGRESS_CELL = "import ptcourse\n\nptcourse.show_progress()"


def test_home_is_markdown_and_the_progress_cell():
    """HOME opens rendered: markdown, plus one code cell that shows the learner's progress."""
    code = [c for c in read_home().cells if c.cell_type != "markdown"]
    assert [c.source for c in code] == [PROGRESS_CELL], (
        f"HOME.ipynb should hold one code cell, {PROGRESS_CELL!r}; has {[c.source for c in code]}")
    assert not code[0].outputs and code[0].execution_count is None, "HOME's progress cell should be stored without output"


def test_progress_cell_runs_without_torch(tmp_path):
    """The home page's cell lists every notebook and does not load torch (Binder's memory)."""
    import subprocess
    import sys

    env = {"PTCOURSE_PROGRESS": str(tmp_path / "progress.json"), "PATH": ""}
    code = PROGRESS_CELL.replace("ptcourse.show_progress()", "print(ptcourse.show_progress())") + (
        "\nimport sys\nassert 'torch' not in sys.modules, 'the progress cell imported torch'")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    for day in DAYS:
        for nb in solution_notebooks(day):
            assert re.search(rf"^{day}/{nb.name} +not checked yet$", out.stdout, re.M), out.stdout


def test_every_notebook_listed_once_per_day():
    found = tables(read_home())
    assert list(found) == list(DAYS), f"HOME.ipynb should have one table per day, found {list(found)}"
    for day, body in found.items():
        listed = [r.path for r in rows(body)]
        expected = [f"{day}/{p.name}" for p in solution_notebooks(day)]
        assert listed == expected, f"HOME.ipynb, {day}: lists {listed}, the course has {expected}"


def test_links_open_existing_notebooks():
    for body in tables(read_home()).values():
        for row in rows(body):
            assert (ROOT / row.path).exists(), f"HOME.ipynb links to {row.path}, which does not exist"


def test_times_are_sensible():
    for body in tables(read_home()).values():
        for row in rows(body):
            assert 10 <= row.minutes <= 120, f"{row.path}: {row.minutes} min is not a sensible estimate"


def test_points_and_totals_current():
    page, fresh = read_home(), rendered(read_home())
    stale = [i for i, (a, b) in enumerate(zip(page.cells, fresh.cells, strict=True)) if a.source != b.source]
    assert not stale, f"times, points or totals in {HOME.name} are stale (cells {stale}): run 'make points' (it rewrites them)"


def test_rows_parse():
    """Every table line that links a notebook is a row the tool understands."""
    for body in tables(read_home()).values():
        linked = [line for line in body.splitlines() if "](day" in line]
        assert len(linked) == len(ROW.findall(body)), f"a row does not match 'title | what | N min | points': {linked}"


def test_row_with_optional_reading_parses():
    """A notebook with "(optional)" sections shows their reading apart: '45 min (+8 optional)'."""
    line = "| [01 · Tensors](day1/01_tensors.ipynb) | tensors | 45 min (+8 optional) | 13 |"
    assert [r.minutes for r in rows(line)] == [45]


def test_metadata_is_the_course_kernels():
    """JupyterLab writes the kernel's spec and language_info into a notebook it opens: when they
    differ from the file, the course home opens marked modified (an unsaved-changes dot)."""
    page, fresh = read_home(), rendered(read_home())
    for key in ("kernelspec", "language_info"):
        assert page.metadata.get(key) == fresh.metadata[key], (
            f"HOME.ipynb metadata {key} is {page.metadata.get(key)}, the course kernel reports "
            f"{fresh.metadata[key]}: run 'make points'"
        )


def _opening(path=HOME) -> str:
    import nbformat

    return nbformat.read(str(path), as_version=4).cells[0].source


def test_home_opens_with_where_to_start_how_long_how_to_check_and_where_to_ask():
    """The opening cell says, in plain words and in each edition's language: where to start (Day 1's first
    notebook), how long each day takes (the computed totals, no estimating rule's jargon: that is in
    CONTRIBUTING), how to check your work, and where to ask."""
    from tools import home
    from tools.times import day_totals, duration

    for path, lang, words in ((HOME, "en", ("Where to start", "How long it takes", "Checking your work",
                                            "Where to ask")),
                              (ROOT / "zh-CN" / "HOME.ipynb", "zh-CN", ("从哪里开始", "要花多长时间", "怎样检查你的答案",
                                                                       "到哪里提问"))):
        text = _opening(path)
        assert all(w in text for w in words), f"{path.name} ({lang}) should say {words}"
        assert "day1/00_environment.ipynb" in text, "where to start: the first notebook, linked"
        assert home.days_sentence(lang) in text and home.ask_sentence(lang) in text
        for jargon in ("words a minute", "words per minute", "个英文词", "lines a minute"):
            assert jargon not in text, f"{path.name}: the times' rule belongs in CONTRIBUTING, not on the home page"
    for day, (minutes, _) in day_totals().items():
        assert f"Day {day[-1]} about {duration(minutes)}" in _opening(), f"{day}'s total on HOME"


def test_where_to_ask_comes_from_one_setting(tmp_path):
    """`[tool.ptcourse] ask-url` in pyproject.toml is the one place: set, both editions link it; empty,
    learners are sent to their instructor."""
    from tools import home

    (tmp_path / "pyproject.toml").write_text('[tool.ptcourse]\nask-url = "https://forum.example.edu/pytorch"\n')
    url = home.ask_url(tmp_path)
    assert url == "https://forum.example.edu/pytorch"
    assert f"]({url})" in home.ask_sentence("en", url) and f"]({url})" in home.ask_sentence("zh-CN", url)
    assert "instructor" in home.ask_sentence("en", "") and "老师" in home.ask_sentence("zh-CN", "")
    (tmp_path / "pyproject.toml").write_text("[tool.ruff]\nline-length = 120\n")
    assert home.ask_url(tmp_path) == ""
    assert home.ask_url() == "" or home.ask_url().startswith("https://"), "the course's own setting is a web address"
