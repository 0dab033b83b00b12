"""Worked solutions for learners, after the due date (``grade --solutions-after-due``).

A worked solution is the learner's own copy of a notebook (``dayN/`` or, in Chinese, ``zh-CN/dayN/``)
with every answer filled in from ``solutions/dayN/``: the explanations and visible checks the learner
had, the model answers, and no hidden test (the student copy never holds one). They are released
only once every student's due date, extensions included, has passed: a solution handed out while one
student may still hand in would give that student the answers.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

import nbformat

from grader import settings
from ptcourse.nbmodel import nbgrader_meta, strip_solution_markers

LANG_FOLDERS = {"en": "", "zh-CN": "zh-CN"}  # where each edition's student copies live in the course


def worked_copy(student_nb: nbformat.NotebookNode, source_nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """The student notebook with every answer filled in from the source, as a learner would."""
    answers = {nbgrader_meta(c)["grade_id"]: strip_solution_markers(c.source)
               for c in source_nb.cells if nbgrader_meta(c).get("solution")}
    nb = nbformat.from_dict(student_nb)
    for cell in nb.cells:
        meta = nbgrader_meta(cell)
        if meta.get("solution"):
            cell.source = answers[meta["grade_id"]]
    return nb


@dataclass(frozen=True)
class Release:
    """Whether worked solutions may go out now, and if not, why (``held_by``: students still working)."""

    allowed: bool
    last_due: datetime | None
    held_by: tuple[str, ...] = ()


def release(due: datetime | None, dues: dict[str, str | None], now: datetime | None = None) -> Release:
    """Solutions go out once the class due date and every student's own (extensions) have passed."""
    now = _utc(now or datetime.now(timezone.utc))
    if due is None:
        return Release(False, None)
    due = _utc(due)
    own = {student: _utc(datetime.fromisoformat(d)) for student, d in dues.items() if d}
    last = max([due, *own.values()])
    held = tuple(sorted(s for s, d in own.items() if d > now)) if due <= now else ()
    return Release(last <= now, last, held)


def _utc(moment: datetime) -> datetime:
    """The grader keeps due dates in UTC, with or without the zone written: always with it here."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=timezone.utc)


def write(day: str, out: Path, langs: set[str], root: Path = settings.COURSE_ROOT) -> list[Path]:
    """``out/solutions/<day>/[zh-CN/]<notebook>.ipynb``: each notebook's worked solution in ``langs``."""
    written = []
    for source in sorted((root / "solutions" / day).glob("*.ipynb")):
        for lang in sorted(langs):
            student = root / LANG_FOLDERS.get(lang, "") / day / source.name
            if not student.exists():
                continue
            target = out / "solutions" / day / LANG_FOLDERS.get(lang, "") / source.name
            target.parent.mkdir(parents=True, exist_ok=True)
            nbformat.write(worked_copy(nbformat.read(str(student), as_version=4),
                                       nbformat.read(str(source), as_version=4)), str(target))
            written.append(target)
    return written
