"""The class report and grades.csv tell one story: with a manual grade in the gradebook (an instructor's
regrade in formgrader), both read the same totals, before and after the late penalty (one place folds
manual grades in: the gradebook's scores). Graded with the fake executor of tests/test_intake.py."""

from __future__ import annotations

import csv
import json
import re
from datetime import timedelta

from tests.test_intake import DAY, NB, FakeExecutor, now, stamp, write_class


def _grade(tmp_path, monkeypatch) -> int:
    from grader.grades import gradebook
    from grader.run import cli, engine

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


def test_every_output_reads_the_one_record(tmp_path, monkeypatch):
    """The fake executor's GradedNotebooks (tests/harness/fakes.py) are all that comes out of execution:
    the resume records, each learner's page, Gradescope's results.json, grades.csv, the class report and
    the Moodle import file tell one story from them; with an instructor's manual grade, grades.csv, the
    report and the import file all move together."""
    import html

    from nbgrader.api import Gradebook

    from grader.grades import gradebook
    from grader.records import NotebookRecord
    from grader.run import cli, gradescope
    from ptcourse.messages import msg_in
    from tests.harness import fakes
    from tools.classroom import mutated, solved, untouched
    from tools.classroom import write_class as write_students

    half = mutated(DAY, NB, 1)[0]
    table = fakes.keyed({"solved": (solved(DAY, NB), 1.0), "half": (half, 0.5), "none": (untouched(DAY, NB), 0.0)})
    write_students(tmp_path / "in", DAY, {"ann": {NB: solved(DAY, NB)}, "bo": {NB: half}, "cy": {NB: untouched(DAY, NB)}})
    made = fakes.install(monkeypatch, table)
    db = f"sqlite:///{tmp_path / 'gb.db'}"
    argv = ["grade", DAY, "--submissions", str(tmp_path / "in"), "--out", str(tmp_path / "out"), "--quiet",
            "--workers", "1", "--gradebook", db, "--export", "moodle"]
    assert cli.main(argv) == 0 and len(made[0].specs) == 3
    reports = tmp_path / "out" / "reports" / DAY
    maxes = gradebook.max_scores(db, DAY)
    full = sum(maxes[NB].values())
    records = {p.parent.name: NotebookRecord.from_json(json.loads(p.read_text())) for p in (reports / "results").glob("*/*.json")}
    scores = {s: r.score for s, r in records.items()}
    assert scores == {"ann": full, "bo": full / 2, "cy": 0.0}
    for student, record in records.items():
        page = html.unescape((reports / record.feedback).read_text())
        assert msg_in("en", "grader.page.points", score=record.score, max_score=record.max_score) in page, student
        results = gradescope.to_results(DAY, [record], {NB: maxes[NB]}, {}, set())
        assert results.score == record.score and sum(t.max_score for t in results.tests) == full
        assert [t.score for t in results.tests] == [c.score for c in record.cells.values()]
    csv_rows = _csv_rows(reports / "grades.csv")
    assert csv_rows == {s: (v, v) for s, v in scores.items()}
    assert _report_rows(reports / "report.html") == csv_rows and _moodle(reports / "moodle.csv") == scores
    with Gradebook(db) as gb:  # the instructor gives bo a point back by hand
        grade = next(g for g in gb.find_submission_notebook(NB, DAY, "bo").grades if g.max_score and g.auto_score < g.max_score)
        grade.manual_score = grade.auto_score + 1
        gb.db.commit()
    assert cli.main(argv) == 0 and len(made) == 1  # nothing graded again
    after = _csv_rows(reports / "grades.csv")
    assert after["bo"] == (full / 2 + 1, full / 2 + 1) and after["ann"] == csv_rows["ann"]
    assert _report_rows(reports / "report.html") == after
    assert _moodle(reports / "moodle.csv") == {s: final for s, (_, final) in after.items()}


def _moodle(path) -> dict[str, float]:
    with open(path, encoding="utf-8") as f:
        rows = list(csv.reader(f))
    return {row[0]: float(row[-1]) for row in rows[1:]}
