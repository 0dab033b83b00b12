"""What `make check` prints and where it writes, in each edition's language (no kernel, < 1 s):
titles instead of grade ids, the `(0/1): ` format from the catalogue, messages clipped at a word
or character boundary, one self-check page per language, progress recorded where each edition's
home reads it, and the home's hint naming that edition's own path."""

from __future__ import annotations

import sys

import pytest

from tools.notebooks import ROOT

sys.path.insert(0, str(ROOT))
from grader.records import CellResult, NotebookRecord  # noqa: E402
from grader.results import checklines  # noqa: E402
from grader.run.cli import self_check_page  # noqa: E402
from ptcourse import progress  # noqa: E402
from ptcourse.textclip import clip, first_line  # noqa: E402

GID = "env_pick_device_here"  # a check with a title in both catalogues


def test_clip_keeps_short_text_and_cuts_at_a_boundary():
    assert clip("short") == "short"
    english = "Use the x and x.abs() functions together " * 8
    cut = clip(english)
    assert len(cut) <= 200 and cut.endswith("…") and english.startswith(cut[:-1])
    assert english[len(cut) - 1] == " ", f"cut inside a word: {cut[-20:]!r}"
    chinese = "请用 x 和 x.abs() 计算" * 30
    cut = clip(chinese)
    assert len(cut) <= 200 and cut.endswith("…")
    assert not cut[:-1].endswith(("x.ab", "x.a", "x.abs(")), f"cut inside a word: {cut[-20:]!r}"
    assert len(clip("汉" * 300)) == 200, "CJK text breaks at any character"
    assert clip("x" * 300).endswith("x…"), "one word longer than the line is cut where it must"
    assert first_line("first\nsecond") == "first" and first_line("") == ""


@pytest.mark.parametrize("lang, want", [
    ("en", "  ✘ pick_device() returns a torch.device that matches this machine (0/1): expected cuda"),
    ("zh-CN", "  ✘ pick_device() 返回与这台机器相符的 torch.device（0/1）：expected cuda"),
])
def test_check_lines_show_titles_in_the_notebooks_language(lang, want):
    assert checklines.check_line(GID, CellResult(0, 1, "expected cuda\nmore"), lang) == want
    passed = checklines.check_line(GID, CellResult(1, 1), lang)
    assert passed.startswith("  ✔ pick_device()") and GID not in passed
    assert checklines.check_line("no_title_here", CellResult(1, 1), lang).startswith("  ✔ no_title_here")


def test_check_summary_is_chinese_for_a_chinese_notebook():
    record = NotebookRecord(student="me", score=0, max_score=1, notebook="00_environment.ipynb", status="graded",
                            cells={GID: CellResult(0, 1, "错误")})
    lines = checklines.summary(record, "day1", "zh-CN")
    assert lines[1] == "day1/00_environment.ipynb：0 / 1 分", lines
    assert "(0/1)" not in "".join(lines) and GID not in "".join(lines), lines
    english = checklines.summary(record, "day1", "en")
    assert english[1] == "day1/00_environment.ipynb: 0 / 1 points", english


def test_self_check_pages_of_two_languages_do_not_collide():
    en, zh = self_check_page("day1", "01_tensors.ipynb", "en"), self_check_page("day1", "01_tensors.ipynb", "zh-CN")
    assert en != zh
    assert en.relative_to(ROOT).as_posix() == "feedback/self-check/day1/01_tensors.ipynb.html"
    assert zh.relative_to(ROOT).as_posix() == "feedback/self-check/zh-CN/day1/01_tensors.ipynb.html"


def _course(tmp_path, edition: str = ""):
    """A course folder with a Makefile, a home and day1/, and (``edition``) a translated copy inside."""
    (tmp_path / "Makefile").write_text("check:\n")
    for folder in ("", edition) if edition else ("",):
        (tmp_path / folder / "day1").mkdir(parents=True, exist_ok=True)
        (tmp_path / folder / "HOME.ipynb").write_text("{}")
        for name in ("00_environment.ipynb", "01_tensors.ipynb"):
            (tmp_path / folder / "day1" / name).write_text("{}")
    return tmp_path


def test_chinese_progress_is_recorded_where_the_chinese_home_reads_it(tmp_path, monkeypatch):
    monkeypatch.delenv("PTCOURSE_PROGRESS", raising=False)
    course = _course(tmp_path, "zh-CN")
    progress.record(course / "zh-CN" / "day1" / "01_tensors.ipynb", passed=3, total=4, source="visible")
    assert (course / "zh-CN" / progress.FILE_NAME).exists() and not (course / progress.FILE_NAME).exists()
    chinese, english = progress.show_progress(course / "zh-CN"), progress.show_progress(course)
    assert dict(chinese.rows)["day1/01_tensors.ipynb"] != dict(english.rows)["day1/01_tensors.ipynb"]
    assert chinese.example == "zh-CN/day1/01_tensors.ipynb", "the hint names the Chinese copy's path"
    assert english.example == "day1/01_tensors.ipynb"
    assert "NB=zh-CN/day1/01_tensors.ipynb" in chinese._repr_markdown_()


def test_a_student_edition_names_its_own_paths(tmp_path, monkeypatch):
    monkeypatch.delenv("PTCOURSE_PROGRESS", raising=False)
    assert progress.show_progress(_course(tmp_path)).example == "day1/01_tensors.ipynb"


def test_chinese_home_names_the_chinese_copies():
    import json

    text = "".join("".join(c["source"]) for c in json.loads((ROOT / "zh-CN" / "HOME.ipynb").read_text())["cells"])
    assert "NB=day1/" not in text and "NB=zh-CN/day1/01_tensors.ipynb" in text


@pytest.mark.parametrize("lang", ["en", "zh-CN"])
def test_a_failed_check_shows_its_message_and_no_course_frame(lang, monkeypatch):
    """What IPython draws for a failed check (its ``_render_traceback_``, the lines JupyterLab and
    nbgrader's Validate show): the message in the learner's language behind ✘, and no traceback,
    no frame, no path of the course's code. The error output's name and value stay as before."""
    import re

    from IPython.core.interactiveshell import InteractiveShell

    from ptcourse import checks

    monkeypatch.setenv("PTCOURSE_LANG", lang)
    shell = InteractiveShell.instance()
    shown = []
    monkeypatch.setattr(shell, "_showtraceback", lambda etype, value, stb: shown.append((etype, value, stb)))
    try:
        checks.check_shape(__import__("torch").zeros(2, 3), (3, 2), "logits")
    except checks.CheckFailed:
        shell.showtraceback()
    (etype, value, stb), = shown
    text = re.sub(r"\x1b\[[0-9;]*m", "", "\n".join(stb))
    assert etype is checks.CheckFailed and value.message_id == "check.shape"
    assert text == "✘ " + str(value), text
    assert "(3, 2)" in text and "(2, 3)" in text, text
    for leak in ("Traceback", "ptcourse", "checks.py", "File ", "site-packages", str(ROOT)):
        assert leak not in text, f"{leak!r} shown to the learner: {text}"
    if lang == "zh-CN":
        assert re.search(r"[\u4e00-\u9fff]", text), f"not in Chinese: {text}"
