"""The course speaks the learner's language: language plumbing, and the pseudo-locale ``qps``.

``qps`` wraps every catalogue message as ``⟦id⟧…⟦/⟧``. Run with it, whatever a learner reads
outside the wrappers did not come from the catalogue, so a translation could never reach it:
hard-coded English. One notebook's test cells (in the live kernel of tests/harness/executed.py,
passing and, through one mutant, failing) and one feedback page and class report are checked.
Code values (tensors, shapes, numbers, names) are allowed; three plain words in a row are not.
The mixed-language class (same scores, each page in its language) is a case of the hostile class
in tests/test_grader.py, which is graded once anyway.

The Chinese copies of day2/04 and day3/01 are checked here, in their English notebook's live kernel
(the same code byte for byte, tests/test_i18n.py), speaking the language their folder's
``.ptcourse-lang`` names: every check line is Chinese. The browser runs day1/00's Chinese copy.
"""

from __future__ import annotations

import dataclasses
import html
import re

import pytest

from ptcourse import messages
from tests.harness.executed import executed
from tools import mutants as mutant_catalogue
from tools.notebooks import ROOT, SOLUTIONS, exercises, nb_key

NB = SOLUTIONS / "day1" / "00_environment.ipynb"
WRAPPED = re.compile(r"⟦[\w.]+⟧((?:(?!⟦).)*?)⟦/⟧", re.S)  # an innermost wrapped message
PROSE = re.compile(r"(?<![\w.'\"`])[A-Za-z]{2,}(?:[ ,;:]+[A-Za-z]{2,}){2,}(?![\w(.\[=])")


def outside_wrappers(text: str) -> str:
    """``text`` without its wrapped messages (nested ones included)."""
    while True:
        reduced = WRAPPED.sub(" ", text)
        if reduced == text:
            return text
        text = reduced


def english(text: str) -> list[str]:
    """Runs of three or more plain words outside the wrappers: text that bypassed the catalogue."""
    return [m.group(0) for m in PROSE.finditer(outside_wrappers(text))]


def page_text(page: str) -> str:
    """What a reader sees of an HTML page: no style, tags or image data; entities decoded."""
    page = re.sub(r"<style>.*?</style>|<title>.*?</title>", " ", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def test_language_codes_and_the_lang_file(tmp_path, monkeypatch):
    monkeypatch.delenv("PTCOURSE_LANG", raising=False)
    (tmp_path / "zh-CN" / "day1").mkdir(parents=True)
    (tmp_path / "zh-CN" / ".ptcourse-lang").write_text("zh-CN\n")
    monkeypatch.chdir(tmp_path / "zh-CN" / "day1")
    assert messages.current_lang() == "zh-CN"  # a kernel in a Chinese notebook's folder
    monkeypatch.setenv("PTCOURSE_LANG", "en")
    assert messages.current_lang() == "en"  # the variable wins (the grader sets it)
    with messages.speaking("zh_CN"):
        assert messages.current_lang() == "zh-CN"
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PTCOURSE_LANG")
    assert messages.current_lang() == "en"
    assert messages.normalise_lang("zh") == "zh-CN" and messages.normalise_lang("") == "en"
    assert messages.msg_in("zh-CN", "grader.page.passed") == "✔ 通过"
    assert messages.msg_in("xx", "grader.page.passed") == "✔ passed"  # an unknown language: English
    monkeypatch.setitem(messages.catalogue("zh-CN"), "grader.page.points", "{score} / {typo} 分")
    assert messages.msg_in("zh-CN", "grader.page.points", score=1, max_score=2) == "1 / 2 points"  # broken: English
    wrapped = messages.msg_in("qps", "check.shape", name="x", expected=(2,), got=(3,))
    assert wrapped.startswith("⟦check.shape⟧") and wrapped.endswith("⟦/⟧") and "(3,)" in wrapped


def test_the_detector_finds_english_and_ignores_code():
    assert english("⟦a.b⟧✔ fine words here⟦/⟧ tensor([[0., 1.], [2., 3.]]) torch.float32 (3, 4)") == []
    assert english("⟦check.passed⟧✔ ⟦x.passed⟧all is well⟦/⟧⟦/⟧\nmake_grid(3, 4) -> shape (3, 4)") == []
    assert english("⟦a.b⟧ok⟦/⟧ but this was hard coded") == ["but this was hard coded"]


@pytest.mark.slow
@pytest.mark.parametrize("path", [NB], ids=nb_key)  # in day1/00's xdist group: its live kernel is reused
def test_qps_notebook_checks_and_pages_show_no_hard_coded_english(path):
    from grader.records import CellResult, NotebookRecord
    from grader.results import report

    run = executed(path)
    assert not run.errors(), "the notebook itself fails; see tests/test_notebooks.py"
    kernel = run.kernel
    assert kernel.run("import os as _os; _os.environ['PTCOURSE_LANG'] = 'qps'").ok
    shown, failures = [], {}
    try:
        found = {e.grade_id: e for e in exercises(run.nb)}
        for exercise in found.values():
            for test in exercise.tests:
                result = kernel.run(test.source)
                assert result.ok, f"{test.grade_id}: {result.message}"
                shown.append(result.stdout)
        mutant = mutant_catalogue.load(NB)[0]
        exercise = found[mutant.exercise]
        assert kernel.run(mutant.apply(exercise)).ok
        try:
            for test in exercise.tests:
                result = kernel.run(test.source)
                if not result.ok:
                    failures[test.grade_id] = result.evalue
        finally:
            assert kernel.run(exercise.source).ok
    finally:
        kernel.run("_os.environ.pop('PTCOURSE_LANG', None)")
    assert failures, "the mutant failed no check"
    assert all("⟦" in text for text in shown if text.strip().startswith("✔")), shown
    leaks = [w for text in shown + list(failures.values()) for w in english(text)]
    assert not leaks, f"kernel output outside the catalogue: {leaks}"

    cells = {gid: CellResult(0.0 if gid in failures else 1.0, 1.0, failures.get(gid))
             for e in found.values() for gid in (t.grade_id for t in e.tests)}
    record = NotebookRecord(
        student="ann", day="day1", notebook=NB.stem, status="graded", lang="qps",
        score=sum(c.score for c in cells.values()), max_score=float(len(cells)), cells=cells,
        notes=(messages.msg_in("qps", "grader.repair.reordered"),), late_penalty=1.0, timestamp="2026-12-03 10:00",
        findings=(messages.msg_in("qps", "grader.finding.no_guard"),))
    labels = {t.grade_id: f"Exercise {i} · {e.grade_id}" for i, e in enumerate(found.values(), 1) for t in e.tests}
    feedback = page_text(report.feedback_html(record, labels))
    assert "⟦grader.page.checks⟧" in feedback and f"⟦{next(iter(cells))}.title⟧" in feedback
    assert not english(feedback), f"the feedback page outside the catalogue: {english(feedback)}"
    assert english(page_text(report.feedback_html(record, labels, lang="en"))), "the detector is blind"
    stopped = dataclasses.replace(record, status="timeout", student="ben",
                                  detail=messages.msg_in("qps", "grader.stopped.timeout", seconds=9))
    summary = report.ClassFacts(max_total=14, timing=messages.msg_in("qps", "grader.report.timing", wall=3, cells=2,
                                                                  overhead=1))
    class_page = page_text(report.class_report_html("day1", [record, stopped],
                                                    list(cells), summary, lang="qps"))
    assert not english(class_page), f"the class report outside the catalogue: {english(class_page)}"


# The Chinese copies the browser ran besides day1/00's until it ran only that one (tests/browser/).
ZH_IN_KERNEL = [SOLUTIONS / "day2" / "04_checkpoints.ipynb", SOLUTIONS / "day3" / "01_devices.ipynb"]
CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.mark.slow
@pytest.mark.parametrize("path", ZH_IN_KERNEL, ids=nb_key)
def test_chinese_copy_checks_speak_chinese(path):
    """Run in the language the Chinese copy's folder names (``zh-CN/.ptcourse-lang``, found from
    ``zh-CN/dayN/`` as a kernel there finds it), every graded cell passes and every ✔ line it
    prints is Chinese (what the browser checked on these notebooks' Chinese copies)."""
    lang = messages.lang_file_lang(ROOT / "zh-CN" / path.parent.name)
    assert lang == "zh-CN", f"zh-CN/{path.parent.name}/ is read as {lang!r}"
    run = executed(path)
    assert not run.errors(), "the notebook itself fails; see tests/test_notebooks.py"
    kernel = run.kernel
    assert kernel.run(f"import os as _os; _os.environ['PTCOURSE_LANG'] = {lang!r}").ok
    lines, failed = [], {}
    try:
        for exercise in exercises(run.nb):
            for test in exercise.tests:
                result = kernel.run(test.source)
                if not result.ok:
                    failed[test.grade_id] = result.message
                lines += [ln for ln in result.stdout.splitlines() if ln.lstrip().startswith(("✔", "✘"))]
    finally:
        kernel.run("_os.environ.pop('PTCOURSE_LANG', None)")
    assert not failed, failed
    english = [ln for ln in lines if not CJK.search(ln)]
    assert lines and not english, f"{len(lines)} check lines, not in Chinese: {english}"
