"""Per-student extensions: a small CSV file the instructor gives with ``--extensions FILE``.

One row per student, with a header::

    student,due,extra
    alice,2027-01-17 23:59 Europe/Berlin,
    Bob Jones,,2 days

* ``student``: the grader's id (as ``grades.csv`` writes it), or the name or id the platform's
  download gives (Canvas's user id, Moodle's full name or participant id); compared with Unicode
  normalisation and case folding (:func:`grader.lms.names.key`);
* ``due`` (or ``new_due``, ``due_date``): the student's own due date, written as ``--due`` is
  (a time zone is required, :func:`grader.grades.late.parse_due`);
* ``extra`` (or ``extra_time``, ``extension``): time added to the assignment's due date
  (``2 days``, ``36h``, ``1 day 12 hours``; :func:`grader.grades.late.parse_extra`).

Separated by commas, semicolons or tabs, in any encoding :mod:`grader.lms.text_files` reads. A file
without these columns is refused before grading; a row that cannot be used (no date, a bad date,
both or neither value, two rows for one student) affects that student alone: graded against the
assignment's due date, with a note saying which line and why (:mod:`grader.intake.class_intake`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from grader.grades import late
from grader.lms import text_files
from ptcourse.messages import msg

STUDENT = ("student",)
DUE = ("due", "new_due", "due_date", "new due date")
EXTRA = ("extra", "extra_time", "extra time", "extension")
SEPARATORS = ",;\t"


class ExtensionsError(ValueError):
    """The extensions file as a whole cannot be used (the message says why and what to do)."""


@dataclass(frozen=True)
class Extension:
    """One row: who, and either a new due date or extra time (or why the row cannot be used)."""

    file: str  # the file's name, for notes
    line: int
    student: str  # as written
    due: datetime | None = None  # naive UTC, as nbgrader stores dates
    extra: timedelta | None = None
    error: str = ""  # why the row cannot be used, in words ("" when it can)

    def due_for(self, class_due: datetime | None) -> datetime | None:
        """The student's due date: the row's own, else the assignment's plus the extra time."""
        if self.due is not None:
            return self.due
        return None if class_due is None or self.extra is None else class_due + self.extra


def _column(header: list[str], names: tuple[str, ...]) -> str | None:
    return next((h for h in header if h.strip().lower() in names), None)


def _separator(first: str) -> str:
    wanted = set(STUDENT + DUE + EXTRA)
    return max(SEPARATORS, key=lambda sep: sum(c.strip().lower() in wanted for c in first.split(sep)))


def _row(file: str, line: int, student: str, due_text: str, extra_text: str) -> Extension:
    if due_text and extra_text:
        return Extension(file, line, student, error=msg("grader.extensions.both"))
    if not due_text and not extra_text:
        return Extension(file, line, student, error=msg("grader.extensions.neither"))
    try:
        if due_text:
            return Extension(file, line, student, due=late.parse_due(due_text))
        return Extension(file, line, student, extra=late.parse_extra(extra_text))
    except ValueError as exc:
        return Extension(file, line, student, error=str(exc))


def load(path: Path) -> list[Extension]:
    """Every row of the extensions file at ``path``; :class:`ExtensionsError` if the file cannot be used."""
    try:
        text = text_files.read_text(Path(path)).text
        first = text.splitlines()[0] if text.strip() else ""
        header, raws = text_files.read_csv(text, _separator(first), Path(path))
    except text_files.TextFileError as exc:
        raise ExtensionsError(str(exc)) from None
    student, due, extra = _column(header, STUDENT), _column(header, DUE), _column(header, EXTRA)
    if student is None or (due is None and extra is None):
        raise ExtensionsError(msg("grader.extensions.columns", file=Path(path).name,
                                  found=", ".join(h.strip() for h in header) or "—"))
    rows = []
    for line, raw in raws:
        value = {k: (v or "").strip() if isinstance(v, str) else "" for k, v in raw.items()}
        if not any(value.values()):
            continue
        rows.append(_row(Path(path).name, line, value.get(student, ""), value.get(due or "", ""),
                         value.get(extra or "", "")))
    return rows
