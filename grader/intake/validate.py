"""JupyterLab's Validate button names the same structure problems the grader repairs.

nbgrader's Validator runs ``CheckCellMetadata`` first, which stops with an internal error on a
copied exercise cell (two cells share a ``grade_id``); the learner sees a traceback. Here the
course's repair step (:mod:`grader.intake.repair`) runs first, so Validate checks the notebook the grader
will really grade, and when something was repaired a first "failed" entry says so in plain words
(a 0-point entry: it costs nothing). The course's sources are read from ``solutions/<day>/``
beside this folder; where they are missing (a student edition), Validate is nbgrader's own.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

import nbformat
from nbgrader.preprocessors import NbGraderPreprocessor

from grader import compat
from grader.intake import repair
from grader.settings import COURSE_ROOT
from ptcourse.messages import msg
from ptcourse.nbmodel import CourseNotebook, course_notebooks

NOTES_KEY = "ptcourse_repair_notes"


@cache
def _course(day: str) -> dict[str, CourseNotebook]:
    folder = COURSE_ROOT / "solutions" / day
    return course_notebooks(folder) if folder.is_dir() else {}


class RepairForValidate(NbGraderPreprocessor):
    """Rebuild the notebook on the course's structure before nbgrader checks its metadata."""

    def preprocess(self, nb, resources):
        course = _course(Path(os.getcwd()).name)  # Validator runs in the notebook's folder
        name = repair.identify(nb, course) if course else None
        if name is None:
            return nb, resources
        fixed = repair.repair(nb, course[name])
        resources[NOTES_KEY] = fixed.notes
        return fixed.nb, resources


def warnings_as_output(nb) -> None:
    """In Validate's own copy of the notebook: what a graded cell that raised nothing wrote to stderr
    becomes plain output, so Validate passes it as the grader does (a warning is a note, never a failed
    check: grader.compat.warnings_never_fail, which only the grader's jobs install)."""
    for cell in nb.cells:
        outputs = cell.get("outputs", []) if cell.cell_type == "code" else []
        if cell.get("metadata", {}).get("nbgrader", {}).get("grade") and not any(
                o.get("output_type") == "error" for o in outputs):
            for output in outputs:
                if output.get("output_type") == "stream" and output.get("name") == "stderr":
                    output["name"] = "stdout"


class NotesForValidate(NbGraderPreprocessor):
    """Put the repair notes first in Validate's list, as a 0-point entry; graded cells' warnings pass."""

    def preprocess(self, nb, resources):
        warnings_as_output(nb)
        notes = resources.get(NOTES_KEY) or []
        if notes:
            text = msg("grader.validate.intro") + "\n" + "\n".join(f"• {n}" for n in notes)
            cell = nbformat.v4.new_code_cell("# " + msg("grader.validate.title"))
            cell.metadata["nbgrader"] = {"grade": True, "grade_id": "notebook_structure", "locked": True,
                                         "points": 0, "schema_version": 3, "solution": False, "task": False}
            cell.outputs = [nbformat.v4.new_output("error", ename="NotebookStructure", evalue=text,
                                                   traceback=[text])]
            nb.cells.insert(0, cell)
        return nb, resources


def use_in_validator() -> None:
    """Make nbgrader's Validator run the repair first and the notes last (grader.compat: its
    ``preprocessors`` is not a configurable trait, so its default is changed instead)."""
    compat.set_validator_preprocessors(RepairForValidate, NotesForValidate)
