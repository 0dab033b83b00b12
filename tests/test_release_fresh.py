"""A forgotten ``make release`` fails ``make quick``: each student copy is compared with its
source, regions that nbgrader removes removed (tools/stale.py, no nbgrader run)."""

from __future__ import annotations

import nbformat

from tools import stale
from tools.notebooks import SOLUTIONS, nbgrader_meta, read, student_copy


def test_student_copies_match_their_sources():
    found = stale.stale()
    assert not found, "student copies out of date, run 'make release':\n" + "\n".join(
        f"  {key}: {'; '.join(why[:3])}" for key, why in found.items())


def test_the_check_sees_an_edit_the_learner_would_see():
    source = SOLUTIONS / "day1" / "01_tensors.ipynb"
    src, copy = read(source), read(student_copy(source))
    assert stale.compare(src, copy) == []

    edited = nbformat.from_dict(src)
    prose = next(c for c in edited.cells if c.cell_type == "markdown")
    prose.source += "\nOne more sentence."
    assert stale.compare(edited, copy), "an edited explanation should make the student copy stale"

    edited = nbformat.from_dict(src)
    test = next(c for c in edited.cells if nbgrader_meta(c).get("grade"))
    test.source = test.source.replace('"""', '"""Also: ', 1)
    assert stale.compare(edited, copy), "an edited visible test should make the student copy stale"

    edited = nbformat.from_dict(src)
    answer = next(c for c in edited.cells if nbgrader_meta(c).get("solution"))
    answer.source = answer.source.replace("### END SOLUTION", "pass  # another answer\n    ### END SOLUTION")
    assert stale.compare(edited, copy) == [], "a changed model answer is not in the student copy"


def test_stub_follows_the_indentation_of_the_markers():
    cell = nbformat.v4.new_code_cell(
        "def f(x):\n    ### BEGIN SOLUTION\n    return x\n    ### END SOLUTION\n\n"
        "### BEGIN HIDDEN TESTS\ncheck(f(1) == 1, 'demo.id')\n### END HIDDEN TESTS")
    cell.metadata["nbgrader"] = {"solution": True, "grade_id": "demo_f"}
    assert stale.student_source(cell) == (
        "def f(x):\n    # YOUR CODE HERE\n    raise NotImplementedError()\n")


def test_stub_is_the_one_the_course_configures():
    import json

    from tools.notebooks import ROOT

    config = (ROOT / "grader" / "nbgrader_config.py").read_text()
    assert json.dumps(stale.CODE_STUB) in config, "ClearSolutions.code_stub changed: update src/ptcourse/nbmodel.py"
