"""The class report and grades.csv tell one story: with a manual grade in the gradebook (an instructor's
regrade in formgrader), both read the same totals, before and after the late penalty (one place folds
manual grades in: the gradebook's scores). Graded with the fake executor of tests/test_intake.py."""

from __future__ import annotations

import csv
import re
from datetime import timedelta

from tests.test_intake import DAY, NB, FakeExecutor, now, stamp, write_class


def _grade(tmp_path, monkeypatch) -> int:
    from grader import cli, engine, gradebook

    maxes = {}

    def fake(self, workers, work_root, hide):
        maxes.update(gradebook.max_scores(self.db_url, self.day))
        return FakeExecutor(maxes), False

    monkeypatch.setattr(engine.Grader, "executor", fake)
    monkeypatch.setenv("PTGRADE_SECOND_KEY", "off")
    due = now() - timedelta(days=3)
    return cli.main(["grade", DAY, "--submissions", str(tmp_path / "class" / "submitted"), "--out",
                     str(tmp_path / "out"), "--quiet", "--workers", "1", "--gradebook",
                     f"sqlite:///{tmp_path / 'gb.db'}", "--due", f"{due:%Y-%m-%d %H:%M} UTC"])


def _report_rows(path) -> dict[str, tuple[float, float]]:
    rows = re.findall(r"<tr><td>([^<]+)</td><td>([\d.]+)</td><td>[^<]*</td><td>([\d.]+)</td>", path.read_text())
    return {student: (float(points), float(final)) for student, points, final in rows}


def _csv_rows(path) -> dict[str, tuple[float, float]]:
    with open(path, encoding="utf-8") as f:
        return {r["student"]: (float(r["total"]), float(r["final_total"])) for r in csv.DictReader(f)}


def test_report_and_csv_agree_with_a_manual_grade(tmp_path, monkeypatch):
    from nbgrader.api import Gradebook

    due = now() - timedelta(days=3)
    write_class(tmp_path / "class", {"ann": stamp(due - timedelta(hours=1)), "bo": stamp(due + timedelta(hours=30))})
    assert _grade(tmp_path, monkeypatch) == 0
    reports = tmp_path / "out" / "reports" / DAY
    before = _csv_rows(reports / "grades.csv")
    assert _report_rows(reports / "report.html") == before and before["bo"][1] < before["bo"][0]  # late
    with Gradebook(f"sqlite:///{tmp_path / 'gb.db'}") as gb:  # the instructor takes a point back by hand
        grade = next(g for g in gb.find_submission_notebook(NB, DAY, "ann").grades if g.max_score)
        grade.manual_score = grade.auto_score - 1
        gb.db.commit()
    assert _grade(tmp_path, monkeypatch) == 0  # nothing to grade again: the outputs are written anew
    after = _csv_rows(reports / "grades.csv")
    assert after["ann"][0] == before["ann"][0] - 1, "grades.csv reads the manual grade"
    assert _report_rows(reports / "report.html") == after, "the report's totals are grades.csv's"
