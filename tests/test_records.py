"""The records between the grader's stages (grader/records.py): the resume file's JSON round trip,
an older grader's file read, anything else refused in plain words, and the integrity summary."""

from __future__ import annotations

import json

import pytest

from grader.records import (
    CellKind,
    CellResult,
    Disagreed,
    Integrity,
    NotebookRecord,
    RecordError,
    Status,
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
    assert record.cells["env_b"] == CellResult(0.0, 1.0, "wrong", CellKind.MISTAKE)
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
    from grader import engine

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
    from grader import engine

    (tmp_path / "templates").mkdir()
    (tmp_path / "code.py").write_text("x = 1\n")
    page = tmp_path / "templates" / "base.html"
    page.write_text("<main></main>")
    before = engine.grader_digest((tmp_path,))
    page.write_text("<main>changed</main>")
    assert engine.grader_digest((tmp_path,)) != before
    assert engine.grader_digest() != before  # the grader's own folders by default
