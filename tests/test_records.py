"""The records between the grader's stages (grader/records.py): the resume file's JSON round trip,
an older grader's file read, anything else refused in plain words, and the integrity summary."""

from __future__ import annotations

import json

import pytest

from grader.records import (
    GRADED_SCHEMA,
    CellKind,
    CellResult,
    CheckResult,
    ClassGrades,
    Disagreed,
    GradedNotebook,
    Integrity,
    NotebookRecord,
    RecordError,
    Status,
    Verdict,
    Voided,
)

# What the engine wrote before the record was typed (a dict of 21 keys), as a resume file holds it.
OLD = {
    "student": "ann", "day": "day1", "notebook": "00_environment", "file": "00_environment.ipynb",
    "status": "graded", "detail": "", "instructor_detail": "", "notes": ["a note"], "findings": [],
    "integrity": {"installed": True, "restored": [], "machinery": [], "harmful": [],
                  "voided": [{"grade_id": "env_b", "reason": "r", "detail": "d"}],
                  "disagreed": [{"grade_id": "env_c", "detail": "x"}]},
    "score": 1.0, "max_score": 2.0,
    "cells": {"env_a": {"score": 1.0, "max": 1.0, "message": None, "kind": None},
              "env_b": {"score": 0.0, "max": 1.0, "message": "wrong", "kind": "mistake"}},
    "fingerprint": "abc", "wall_s": 3.5, "cells_s": 1.5, "peak_bytes": None, "late_penalty": 0.0,
    "timestamp": None, "lang": "zh-CN", "feedback": "../../feedback/ann/day1/00_environment.html",
}


def test_an_older_graders_record_is_read():
    record = NotebookRecord.from_json(OLD)
    assert record.status is Status.GRADED and record.graded and record.lang == "zh-CN"
    assert record.cells["env_b"] == CellResult(0.0, 1.0, "wrong", CellKind.MISTAKE, grade_id="env_b")
    assert not record.cells["env_b"].passed and record.cells["env_a"].passed
    assert record.integrity.voided == (Voided("env_b", "r", "d"),)
    assert record.integrity.disagreed == (Disagreed("env_c", "x"),)
    assert record.notes == ("a note",) and record.attributed


def test_json_round_trip_keeps_every_key():
    record = NotebookRecord.from_json(OLD)
    data = json.loads(json.dumps(record.to_json()))
    assert {k: v for k, v in data.items() if k != "attributed"} == OLD
    assert NotebookRecord.from_json(data) == record


@pytest.mark.parametrize("bad", [
    [], "text", {"student": "ann"}, {**OLD, "status": "excellent"}, {**OLD, "cells": {"env_a": {"points": 1}}},
    {**OLD, "cells": ["env_a"]}, {**OLD, "integrity": {"voided": [{"who": "x"}]}},
])
def test_anything_else_is_refused_in_plain_words(bad):
    with pytest.raises(RecordError) as caught:
        NotebookRecord.from_json(bad)
    assert "record" in str(caught.value) or "integrity" in str(caught.value)


def test_no_integrity_summary_is_none():
    assert Integrity.from_json({}) is None and Integrity.from_json(None) is None
    assert NotebookRecord.from_json({**OLD, "integrity": {}}).to_json()["integrity"] == {}


def test_a_result_file_the_grader_cannot_read_is_left_out_with_a_warning(tmp_path, capsys):
    from grader.run import engine

    grader = engine.Grader(engine.Options(day="day1", submissions=tmp_path / "in", out=tmp_path, progress=False))
    folder = grader.results / "ann"
    folder.mkdir(parents=True)
    (folder / "00_environment.json").write_text(json.dumps(OLD))
    (folder / "01_tensors.json").write_text(json.dumps({"name": "ann", "points": 3}))  # another shape
    records = grader.read_records()
    assert [r.notebook for r in records] == ["00_environment"]
    (warning,) = grader.summary.warnings
    assert "01_tensors.json" in warning and "--regrade" in warning and "Traceback" not in warning
    assert "--regrade" in capsys.readouterr().err
    sub = type("Sub", (), {"student": "ann", "notebook": "01_tensors"})()
    assert not grader.up_to_date(sub, "abc")  # graded again
    sub.notebook = "00_environment"
    assert grader.up_to_date(sub, "abc") and not grader.up_to_date(sub, "other")


def test_a_template_change_grades_again(tmp_path):
    """The pages' templates are part of the grader's version: editing one writes every page again."""
    from grader.run import engine

    (tmp_path / "templates").mkdir()
    (tmp_path / "code.py").write_text("x = 1\n")
    page = tmp_path / "templates" / "base.html"
    page.write_text("<main></main>")
    before = engine.grader_digest((tmp_path,))
    page.write_text("<main>changed</main>")
    assert engine.grader_digest((tmp_path,)) != before
    assert engine.grader_digest() != before  # the grader's own folders by default


# -- the job's one output: GradedNotebook ------------------------------------------------------------
GRADED = GradedNotebook(
    Status.GRADED, checks=(
        CheckResult(1.0, 1.0, grade_id="env_a", verdict=Verdict.AGREED),
        CheckResult(0.0, 2.0, "CheckFailed: not yet", CellKind.MISTAKE, "env_b", verdict=Verdict.DISAGREED),
        CheckResult(0.0, 1.0, "你还没有写", CellKind.NOT_ATTEMPTED, "env_c", "grader.cell.not_done"),
        CheckResult(0.0, 1.0, "lost", None, "env_d", "grader.cell.lost", (("score", 0.0), ("max_score", 1.0)),
                    needs_manual=True)),
    comments=(("env_a", "well done"), ("env_b", None)), late_penalty=0.5,
    integrity=Integrity(installed=True, voided=(Voided("env_e", "r", "d"),), disagreed=(Disagreed("env_b", "x"),)),
    observed={"env_a": {"x": {"kind": "json", "value": 1}}}, cells_s=1.25, kernel_death="memory", wall_s=3.0,
    peak_bytes=1024)


def test_graded_notebook_round_trip_keeps_every_field():
    data = json.loads(json.dumps(GRADED.to_json()))  # through text, as the job's file is
    assert data["schema"] == GRADED_SCHEMA == GRADED.schema
    back = GradedNotebook.from_json(data)
    assert back == GRADED
    assert [c.grade_id for c in back.checks] == ["env_a", "env_b", "env_c", "env_d"]  # the notebook's order
    assert back.check("env_b").verdict is Verdict.DISAGREED and back.check("env_c").kind is CellKind.NOT_ATTEMPTED
    assert back.score == 1.0 and back.max_score == 5.0 and back.check("nope") is None


@pytest.mark.parametrize("schema", [None, 0, GRADED_SCHEMA + 1, "1"])
def test_a_graded_notebook_of_another_schema_is_refused_in_plain_words(schema):
    data = {**GRADED.to_json(), "schema": schema}
    if schema is None:
        del data["schema"]
    with pytest.raises(RecordError) as caught:
        GradedNotebook.from_json(data)
    text = str(caught.value)
    assert f"schema {GRADED_SCHEMA}" in text and "grade the notebook again" in text and "Traceback" not in text


@pytest.mark.parametrize("bad", [
    [], "text", {"schema": GRADED_SCHEMA}, {**GRADED.to_json(), "status": "excellent"},
    {**GRADED.to_json(), "checks": ["env_a"]}, {**GRADED.to_json(), "checks": {"env_a": {"points": 1}}},
    {**GRADED.to_json(), "checks": {"env_a": {"score": 1, "max": 1, "verdict": "maybe"}}},
])
def test_a_damaged_graded_notebook_is_refused(bad):
    with pytest.raises(RecordError, match="graded-notebook record"):
        GradedNotebook.from_json(bad)


def test_scrubbing_reaches_every_learner_visible_text():
    scrubbed = GRADED.scrubbed(lambda text: text.replace("not", "<path>"))
    assert scrubbed.check("env_b").message == "CheckFailed: <path> yet"
    assert scrubbed.check("env_a").message is None and scrubbed.checks[0] == GRADED.checks[0]


def test_class_grades_fold_the_late_penalty_once_and_never_below_zero():
    records = [NotebookRecord(student="ann", notebook=n, status="graded", score=s, max_score=4.0, late_penalty=p)
               for n, s, p in (("a", 3.0, 1.0), ("b", 1.0, 0.5))]
    records.append(NotebookRecord(student="bo", notebook="a", status="graded", score=0.5, max_score=4.0, late_penalty=2.0))
    records.append(NotebookRecord(student="x.ipynb", notebook="a", status="unreadable", attributed=False))
    grades = ClassGrades.of_records("day1", records)
    assert [s.student for s in grades.students] == ["ann", "bo"] and grades.notebooks == ("a", "b")
    ann, bo = grades.students
    assert (ann.points, ann.max_points, ann.late_penalty, ann.final) == (4.0, 8.0, 1.5, 2.5)
    assert bo.final == 0.0 and ann.notebook("b").score == 1.0 and ann.notebook("c") is None


def test_a_jobs_checks_say_what_failed_and_what_the_second_key_made_of_them():
    """What the job's process puts in each CheckResult: the failing cell's words and kind from the
    graded notebook, and the guard's and the second key's verdicts."""
    import nbformat

    from grader.run import jobs

    def cell(gid, *errors):
        outputs = [nbformat.v4.new_output("error", ename=e, evalue=v, traceback=[]) for e, v in errors]
        return nbformat.v4.new_code_cell("", outputs=outputs, metadata={"nbgrader": {"grade": True, "grade_id": gid}})

    nb = nbformat.v4.new_notebook(cells=[cell("a"), cell("b", ("CheckFailed", "the shape is wrong")),
                                         cell("c", ("NotImplementedError", "")), cell("d", ("CellTimeoutError", "x"))])
    found = jobs.failures_of(nb)
    assert set(found) == {"b", "c", "d"}
    assert found["b"] == {"message": "the shape is wrong", "kind": CellKind.MISTAKE, "message_id": None}
    assert found["c"]["kind"] == CellKind.NOT_ATTEMPTED and found["c"]["message_id"] == "grader.cell.not_done"
    assert found["d"]["kind"] == CellKind.STOPPED
    integrity = Integrity(voided=(Voided("v"),), disagreed=(Disagreed("d"),), unjudged=(Disagreed("u"),))
    got = jobs.verdicts(integrity, {g: {} for g in "adu"})
    assert got == {"a": Verdict.AGREED, "d": Verdict.DISAGREED, "u": Verdict.UNJUDGED, "v": Verdict.VOIDED}
    assert jobs.verdicts(None, {}) == {}
