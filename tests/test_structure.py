"""Checks that need no kernel: metadata, grade ids, stripped outputs, skeleton, README points."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from tools.notebooks import (
    ROOT,
    exercises,
    nb_key,
    nbgrader_meta,
    read,
    solution_notebooks,
    student_copy,
)
from tools.points import points_table

NOTEBOOKS = solution_notebooks()
GRADE_ID = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)+$")  # e.g. linreg_converges


def test_there_are_notebooks():
    assert NOTEBOOKS, "no source notebooks found under solutions/"


def test_grade_ids_unique_and_descriptive():
    ids = [nbgrader_meta(c)["grade_id"] for p in NOTEBOOKS for c in read(p).cells if nbgrader_meta(c)]
    ids = [i for i in ids if i != "setup"]  # every notebook's locked set-up cell
    twice = [i for i, n in Counter(ids).items() if n > 1]
    assert not twice, f"grade_ids used more than once: {twice}"
    vague = [i for i in ids if not GRADE_ID.match(i) or re.match(r"^cell", i)]
    assert not vague, f"grade_ids should be descriptive snake_case like 'linreg_converges': {vague}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=nb_key)
def test_outputs_stripped(path):
    for nb_path in (path, student_copy(path)):
        if not nb_path.exists():
            continue
        dirty = [i for i, c in enumerate(read(nb_path).cells)
                 if c.cell_type == "code" and (c.get("outputs") or c.get("execution_count"))]
        assert not dirty, f"{nb_path.relative_to(ROOT)}: cells {dirty} keep outputs or execution counts"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=nb_key)
def test_skeleton(path):
    """Title, what you will learn, prerequisites, set-up cell, exercises, summary, going further."""
    nb = read(path)
    markdown = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    assert nb.cells[0].cell_type == "markdown" and nb.cells[0].source.startswith("# "), "first cell: a title"
    for needed in ("What you will learn", "Prerequisites", "## Summary", "## Going further"):
        assert needed.lower() in markdown.lower(), f"missing section: {needed}"
    setup = [c for c in nb.cells if nbgrader_meta(c).get("grade_id") == "setup"]
    assert setup and "ptcourse.setup(" in setup[0].source, "needs a locked set-up cell calling ptcourse.setup()"
    found = exercises(nb)
    assert found, "no graded exercises"
    headings = re.findall(r"^### Exercise (\d+) \((\d+) points?\)", markdown, re.M)
    assert [int(n) for n, _ in headings] == list(range(1, len(found) + 1)), "exercise headings numbered 1..N"
    for (number, pts), ex in zip(headings, found, strict=True):
        assert ex.tests, f"exercise {number} ({ex.grade_id}) has no graded test cell"
        assert int(pts) == ex.points, f"Exercise {number} says {pts} points, its tests give {ex.points:g}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=nb_key)
def test_test_cells_start_with_docstring(path):
    for ex in exercises(read(path)):
        for t in ex.tests:
            assert t.source.lstrip().startswith('"""'), f"{t.grade_id}: first line should be a docstring"
            assert "assert " not in t.source, f"{t.grade_id}: use ptcourse.checks, not a bare assert"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=nb_key)
def test_student_copy_has_no_answers(path):
    copy = student_copy(path)
    assert copy.exists(), f"{copy.relative_to(ROOT)} missing: run 'make release'"
    text = "\n".join(c.source for c in read(copy).cells)
    for marker in ("BEGIN SOLUTION", "BEGIN HIDDEN TESTS"):
        assert marker not in text


def test_readme_points_table_is_current():
    readme = (ROOT / "README.md").read_text()
    assert points_table() in readme, "README's points table is stale: run 'make points' (it rewrites the table)"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=nb_key)
def test_notebook_metadata_is_the_course_kernels(path):
    """Source and student copy carry the course kernel's spec and language_info, as JupyterLab
    writes them on opening: otherwise every notebook opens marked modified (an unsaved-changes dot)."""
    import sys

    sys.path.insert(0, str(ROOT / "tools"))
    from lab_setup import home_metadata

    wanted = home_metadata()
    for nb_path in (path, student_copy(path)):
        meta = read(nb_path).metadata
        for key, value in wanted.items():
            assert meta.get(key) == value, f"{nb_path.relative_to(ROOT)}: {key} is {meta.get(key)}, want {value}"
