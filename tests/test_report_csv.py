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


def test_a_manual_grade_of_a_late_notebook_moves_its_penalty_and_its_page(tmp_path, monkeypatch):
    """bo is 30 h late (2 started days: 20 %). An instructor takes points back by hand: the penalty is 20 % of
    the score as it now stands (nbgrader's own rule, of ``notebook.score``), not of the automatic one, and bo's
    page shows the points and the checks graded by hand, as grades.csv and the report do."""
    from nbgrader.api import Gradebook

    due = now() - timedelta(days=3)
    write_class(tmp_path / "class", {"ann": stamp(due - timedelta(hours=1)), "bo": stamp(due + timedelta(hours=30))})
    assert _grade(tmp_path, monkeypatch) == 0
    reports = tmp_path / "out" / "reports" / DAY
    before = _csv_rows(reports / "grades.csv")
    assert before["bo"][1] == round(0.8 * before["bo"][0], 4)
    with Gradebook(f"sqlite:///{tmp_path / 'gb.db'}") as gb:
        graded = [g for g in gb.find_submission_notebook(NB, DAY, "bo").grades if g.max_score]
        for grade in graded[:2]:
            grade.manual_score = 0
        gb.db.commit()
        taken = sum(g.auto_score for g in graded[:2])
        names = [g.name for g in graded[:2]]
    assert _grade(tmp_path, monkeypatch) == 0
    after = _csv_rows(reports / "grades.csv")
    assert after["bo"][0] == before["bo"][0] - taken
    assert after["bo"][1] == round(0.8 * after["bo"][0], 4), "20 % of the score as it stands"
    assert _report_rows(reports / "report.html")["bo"] == after["bo"]
    page = (tmp_path / "out" / "feedback" / "bo" / DAY / f"{NB}.html").read_text()
    assert f"{after['bo'][0]:g} / " in page and "graded these checks by hand" in page
    assert page.count("Graded by hand by your instructor: 0 / ") == len(names)


def test_grades_of_files_no_longer_handed_in_are_said(tmp_path, monkeypatch, capsys):
    """A rerun into the same gradebook after a student's folder was taken out: the earlier grade is still in
    every output (nbgrader's gradebook keeps it), so the run names it, in the report and on the terminal, and
    exits 1 for the instructor to decide; never a silent old grade."""
    import shutil

    due = now() - timedelta(days=3)
    submitted = write_class(tmp_path / "class", {"ann": stamp(due - timedelta(hours=1)),
                                                 "bo": stamp(due - timedelta(hours=2))})
    assert _grade(tmp_path, monkeypatch) == 0
    shutil.rmtree(submitted / "bo")
    capsys.readouterr()
    assert _grade(tmp_path, monkeypatch) == 1
    said = "1 notebook(s) graded by an earlier run into this gradebook are not in these submissions"
    err = capsys.readouterr().err
    assert said in err and f"bo/{NB}" in err, err
    page = (tmp_path / "out" / "reports" / DAY / "report.html").read_text()
    assert said in page and f"bo/{NB}" in page


def test_a_penalty_never_takes_more_than_its_own_notebook():
    """A late notebook graded down to 0 by hand loses nothing more: no point of another notebook goes with it."""
    from grader.records import ClassGrades, NotebookGrade, StudentGrades

    row = StudentGrades("alice", (NotebookGrade("a", 8, 8, 4.0, auto_score=8), NotebookGrade("b", 0, 14, 7.0,
                                                                                             auto_score=14)))
    grades = ClassGrades(DAY, ("a", "b"), (row,)).late_on_scores({})
    assert [n.late_penalty for n in grades.students[0].notebooks] == [4.0, 0.0]
    assert grades.students[0].final == 4.0
    raised = NotebookGrade("c", 10, 10, 0.0, auto_score=0).late_on_score(0.5)  # auto 0: this run's fraction
    assert raised.late_penalty == 5.0
    from grader.grades import late

    rule = late.CoursePenalty()  # 10 % a started day
    for due in ("2026-11-15T23:59:00", "2026-11-15T23:59:00+00:00", "2026-11-16T00:59:00+01:00"):
        assert late.fraction("2026-11-17 06:00:00.000000 UTC", due, rule) == 0.2, due  # 30 h late: 2 days
    assert late.fraction("2026-11-15 20:00:00 UTC", "2026-11-15T23:59:00", rule) == 0.0
    assert late.fraction(None, "2026-11-15T23:59:00", rule) is None and late.fraction("garbled", None, rule) is None


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
