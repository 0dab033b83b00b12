"""Worked solutions after the due date (``grade --solutions-after-due``, grader/results/worked.py): the student
copy with the model answers and no hidden test, in each student's language, released only once the
class due date and every extension have passed; otherwise held back with a plain note. The class is
graded with the fake executor of tests/test_intake.py: no notebook runs."""

from __future__ import annotations

import zipfile
from datetime import datetime, timedelta, timezone

import nbformat
import pytest

from grader.results import worked
from tests.test_intake import DAY, NB, FakeExecutor, now, stamp, write_class
from tools.notebooks import ROOT, SOLUTIONS, nbgrader_meta, read


def test_a_worked_solution_is_the_student_copy_with_the_answers_and_no_hidden_test():
    source = read(SOLUTIONS / DAY / f"{NB}.ipynb")
    copy = worked.worked_copy(read(ROOT / DAY / f"{NB}.ipynb"), source)
    text = "\n".join(c.source for c in copy.cells)
    for marker in ("BEGIN HIDDEN TESTS", "BEGIN SOLUTION", "END SOLUTION", "NotImplementedError"):
        assert marker not in text, f"{marker} in a worked solution"
    answers = [c.source for c in copy.cells if nbgrader_meta(c).get("solution") and c.cell_type == "code"]
    assert answers and all(a.strip() for a in answers)
    assert "def pick_device" in text and "torch.device" in text


def test_solutions_wait_for_the_last_due_date_extensions_included():
    t = datetime(2026, 12, 6, 12, tzinfo=timezone.utc)
    assert not worked.release(None, {}, now=t).allowed, "no due date: nothing is released"
    assert worked.release(t - timedelta(days=1), {}, now=t).allowed
    assert not worked.release(t + timedelta(hours=1), {}, now=t).allowed
    held = worked.release(t - timedelta(days=1), {"ana": (t + timedelta(days=1)).isoformat(), "bo": None}, now=t)
    assert not held.allowed and held.held_by == ("ana",) and held.last_due == t + timedelta(days=1)
    assert worked.release(t - timedelta(days=3), {"ana": (t - timedelta(days=1)).isoformat()}, now=t).allowed


def _grade(tmp_path, monkeypatch, due: datetime, extensions: str | None = None) -> tuple[int, str, str]:
    from grader.grades import gradebook
    from grader.run import cli, engine

    subs = write_class(tmp_path / "class", {"alice": stamp(due - timedelta(hours=1)), "bo": None})
    zh = tmp_path / "class" / "submitted" / "bo" / DAY / f"{NB}.ipynb"
    nb = nbformat.read(str(zh), as_version=4)
    nb.metadata["ptcourse"] = {"lang": "zh-CN"}  # the Chinese edition's copy
    nbformat.write(nb, str(zh))
    maxes = {}

    def fake(self, workers, work_root, hide):
        maxes.update(gradebook.max_scores(self.db_url, self.day))
        return FakeExecutor(maxes), False

    monkeypatch.setattr(engine.Grader, "executor", fake)
    monkeypatch.setenv("PTGRADE_SECOND_KEY", "off")
    args = ["grade", DAY, "--submissions", str(subs), "--out", str(tmp_path / "out"), "--quiet", "--workers", "1",
            "--gradebook", f"sqlite:///{tmp_path / 'gb.db'}", "--due", f"{due:%Y-%m-%d %H:%M} UTC",
            "--feedback-zip", "--solutions-after-due"]
    if extensions:
        (tmp_path / "ext.csv").write_text(extensions, encoding="utf-8")
        args += ["--extensions", str(tmp_path / "ext.csv")]
    rc = cli.main(args)
    return rc, *_said()


def _said():
    return _said.capsys.readouterr()


@pytest.fixture(autouse=True)
def _capture(capsys):
    _said.capsys = capsys


def test_after_the_due_date_each_student_gets_the_worked_solutions_in_their_language(tmp_path, monkeypatch):
    rc, out, err = _grade(tmp_path, monkeypatch, now() - timedelta(days=2))
    assert rc == 0, out + err
    folder = tmp_path / "out" / "solutions" / DAY
    assert (folder / f"{NB}.ipynb").exists() and (folder / "zh-CN" / f"{NB}.ipynb").exists()
    assert "worked solutions:" in out
    for student, lang_word in (("alice", "Checking your environment"), ("bo", "检查你的环境")):
        with zipfile.ZipFile(tmp_path / "out" / "feedback-zip" / DAY / f"{student}.zip") as z:
            names = z.namelist()
            solution = sorted(n for n in names if n.startswith(f"{DAY}/solutions/"))
            assert solution == sorted(f"{DAY}/solutions/{p.name}" for p in (SOLUTIONS / DAY).glob("*.ipynb")), names
            text = z.read(f"{DAY}/solutions/{NB}.ipynb").decode()
        assert lang_word in text and "BEGIN HIDDEN TESTS" not in text, f"{student}: not their edition's copy"


@pytest.mark.parametrize("case", ["before the due date", "an extension still running"])
def test_before_every_due_date_has_passed_the_solutions_are_held_back_and_it_says_why(case, tmp_path, monkeypatch):
    if case == "before the due date":
        rc, out, err = _grade(tmp_path, monkeypatch, now() + timedelta(days=2))
        assert "has not passed" in err
    else:
        rc, out, err = _grade(tmp_path, monkeypatch, now() - timedelta(days=2), "student,extra\nbo,4 days\n")
        assert "extensions of bo" in err
    assert "worked solutions held back" in err
    assert not (tmp_path / "out" / "solutions").exists()
    with zipfile.ZipFile(tmp_path / "out" / "feedback-zip" / DAY / "alice.zip") as z:
        assert not [n for n in z.namelist() if "/solutions/" in n]
