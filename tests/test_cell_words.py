"""A graded cell fails on an exception or a failed check, never on a warning; every lost point says why.

Fast tests of the pieces (grader/judge/cell_words.py, the job's messages, the engine's notes, the feedback
page, Gradescope's results and JupyterLab's Validate); the whole path, a class graded through the
command line, is in tests/test_grader.py (the hostile class's ``warns`` student) and
tests/test_variants.py (correct answers that warn, in the kernel and the second key).
"""

from __future__ import annotations

import json

import nbformat
from nbformat.v4 import new_code_cell, new_notebook, new_output

from grader.intake import validate
from grader.judge import cell_words
from grader.records import CellResult, NotebookRecord
from grader.results import report
from grader.run import engine, gradescope, jobs
from ptcourse.messages import catalogue

SOFTMAX = ("/home/grader/course/.venv/lib/python3.11/site-packages/torch/nn/functional.py:2140: UserWarning: "
           "Implicit dimension choice for softmax has been deprecated. Change the call to include dim=X as an "
           "argument.\n  return F.softmax(x)\n")


def graded(grade_id: str, *outputs, points: int = 1):
    cell = new_code_cell("check()")
    cell.metadata["nbgrader"] = {"grade": True, "grade_id": grade_id, "points": points, "solution": False,
                                 "locked": True, "schema_version": 3}
    cell.outputs = list(outputs)
    return cell


def stderr(text: str):
    return new_output("stream", name="stderr", text=text)


def error(ename: str, evalue: str):
    return new_output("error", ename=ename, evalue=evalue, traceback=[f"\x1b[31m{ename}\x1b[0m: {evalue}"])


def test_an_exception_in_plain_words_without_machine_paths():
    text = jobs.error_text(error("FileNotFoundError",
                                 "[Errno 2] No such file or directory: '/srv/grading/job-7/cwd/weights.pt'"))
    assert text == "FileNotFoundError: [Errno 2] No such file or directory: 'weights.pt'"
    assert jobs.error_text(error("RuntimeError", "shapes (2x3) and (4x5)\n  at /opt/x/y.py:3")) == (
        "RuntimeError: shapes (2x3) and (4x5)")
    assert cell_words.strip_paths("see https://pytorch.org/docs/stable/x.html or ./data/x") == (
        "see https://pytorch.org/docs/stable/x.html or ./data/x")


def test_an_exception_with_no_message_still_gets_a_sentence():
    for lang in ("en", "zh_CN"):
        text = jobs.error_text(error("AssertionError", ""), lang)
        assert "AssertionError" in text and len(text) > len("AssertionError") + 10
    assert jobs.error_text(error("CheckFailed", "The shape is wrong.")) == "The shape is wrong."  # catalogued


def test_a_warning_is_one_plain_line():
    assert cell_words.warning_text([stderr(SOFTMAX)]) == (
        "UserWarning: Implicit dimension choice for softmax has been deprecated. Change the call to include "
        "dim=X as an argument.")
    assert cell_words.warning_text([stderr("printed to stderr from /home/x/y.py\n")]) == "printed to stderr from y.py"
    assert cell_words.warning_text([new_output("stream", name="stdout", text="hello\n")]) is None


def test_a_warning_read_from_a_notebook_file_is_one_plain_line_too():
    """A graded notebook as its file holds it (multi-line text as a list of lines): the note is the warning's
    ``Category: message``, never the list's repr, nor the source line Python prints under it (a hidden test's)."""
    hidden = ("/tmp/ipykernel_7/123.py:17: UserWarning: big grids are slow\n",
              '  observe(f"make_grid_sizes_fresh_{case}", make_grid(fresh_rows, fresh_cols))\n')
    as_saved = {"output_type": "stream", "name": "stderr", "text": list(hidden)}
    assert cell_words.warning_text([as_saved]) == "UserWarning: big grids are slow"
    nb = json.loads(json.dumps(new_notebook(cells=[graded("warns", stderr("".join(hidden)))])))
    nb["cells"][0]["outputs"][0]["text"] = list(hidden)
    notes = engine.warning_notes(json.dumps(nb).encode(), {"warns": CellResult(1, 1)}, "en")
    assert len(notes) == 1 and "UserWarning: big grids are slow" in notes[0], notes
    assert "observe(" not in notes[0] and "['" not in notes[0]


def test_only_passing_graded_cells_get_a_warning_note():
    nb = new_notebook(cells=[graded("warns", stderr(SOFTMAX)), graded("fails", stderr(SOFTMAX), error("CheckFailed", "x")),
                             graded("quiet"), new_code_cell("x = 1", outputs=[stderr(SOFTMAX)])])
    assert set(cell_words.passed_with_warnings(nb)) == {"warns"}
    cells = {"warns": CellResult(1, 1), "fails": CellResult(0, 1, "x"), "quiet": CellResult(1, 1)}
    notes = engine.warning_notes(json.dumps(nb).encode(), cells, "en")
    assert len(notes) == 1 and "Implicit dimension choice for softmax" in notes[0] and "no points" in notes[0]
    assert "/home/grader" not in notes[0]
    assert "没有" not in engine.warning_notes(json.dumps(nb).encode(), cells, "zh_CN")[0][:0]  # renders in zh_CN
    assert engine.warning_notes(b"not json", cells, "en") == [] and engine.warning_notes(None, cells, "en") == []


def test_no_page_says_no_message():
    """A lost point without a kept message (an older record) still says what was lost, in the learner's language."""
    for lang in ("en", "zh_CN"):
        record = NotebookRecord(student="s", day="day1", notebook="00_environment", status="graded", lang=lang,
                                score=0.0, max_score=2.0, cells={"a": CellResult(0.0, 2.0, None)})
        page = report.feedback_html(record, {})
        tests = gradescope.to_results("day1", [record], {"00_environment": {"a": 2.0}}, {}, hidden=set()).tests
        for text in (page, tests[0].output):
            assert "no message" not in text and "没有说明" not in text
            assert ("scored 0 of 2 points" if lang == "en" else "0 / 2 分") in text
    for lang in ("en", "zh_CN"):
        assert not [k for k, v in catalogue(lang).items() if "no message" in v.lower() or v == "没有说明"]


def test_validate_passes_a_graded_cell_that_only_warned():
    nb = new_notebook(cells=[graded("warns", stderr(SOFTMAX)), graded("fails", stderr(SOFTMAX), error("E", "x")),
                             new_code_cell("x = 1", outputs=[stderr(SOFTMAX)])])
    nb = nbformat.from_dict(nb)
    validate.warnings_as_output(nb)
    names = [[o.get("name") for o in c.outputs if o.output_type == "stream"] for c in nb.cells]
    assert names == [["stdout"], ["stderr"], ["stderr"]]
