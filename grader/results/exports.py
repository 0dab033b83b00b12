"""Grades out of the course: the CSV files Canvas and Moodle import, and feedback zips.

``python -m grader grade DAY --export canvas --export moodle`` writes, after grading,
``reports/DAY/canvas.csv`` and ``reports/DAY/moodle.csv`` with one row per student and one
grade column: the day's points after the late penalty (``final_total`` in ``grades.csv``).

Canvas (Grades → Import): the layout of Canvas's own gradebook export, which its importer
reads back: ``Student, ID, SIS User ID, SIS Login ID, Section``, then one column per
assignment named ``Name (canvas id)``; a second row ``Points Possible`` gives the maximum.
A column without ``(id)`` makes Canvas create a new assignment on import.

Moodle (Grade administration → Import → CSV file): an identifier column, then one column per
grade item; on import you map the identifier to a user field ("Username", "Email address" or
"ID number") and the column to a grade item (or a new one).

With ``--lms-roster FILE`` (Canvas's gradebook export, Moodle's grades export or its grading
worksheet, separated by ``,``, ``;`` or tabs: :mod:`grader.lms.roster`) every row of the import file
is one roster student's row: matched by the platform's id from the download's file names, else
by login, SIS id, e-mail, ID number or full name when exactly one row carries it. Graded
students no row matches go to ``<kind>-unmatched.csv`` and the class report, never into the
import file; roster students with no hand-in are written with an empty grade, or 0 with
``--missing-as-zero`` (:mod:`grader.lms.lms_files`). Without a roster the ids are the grader's.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

from grader.lms import platforms
from grader.lms import roster as roster_mod
from grader.lms.lms_files import (  # noqa: F401
    CANVAS_IDENTITY,
    MOODLE_IDENTITY,
    POINTS_POSSIBLE,
    ExportResult,
    Grade,
    write_canvas,
    write_moodle,
)
from grader.lms.registry import write
from grader.lms.roster import key  # noqa: F401
from grader.records import ClassGrades


def day_grades(grades: ClassGrades) -> list[Grade]:
    """Each student's total for the day, after the late penalty: ``final_total`` of grades.csv."""
    return [Grade(s.student, s.final, s.max_points, s.late_penalty) for s in grades.students]


def read_roster(path: Path) -> tuple[list[str], list[dict[str, str]]]:
    """The header and student rows of a gradebook exported as CSV (see :mod:`grader.lms.roster`)."""
    found = roster_mod.load(path)
    return list(found.header), [dict(r) for r in found.rows]


def export(kind: str, grades: ClassGrades, reports: Path, column: str | None = None,
           roster: Path | None = None, missing_as_zero: bool = False) -> ExportResult:
    """Write ``reports/<kind>.csv`` (and ``<kind>-unmatched.csv`` if some student matched no roster row)
    from the class's grades."""
    day = grades.day
    identities = platforms.load_identities(Path(reports) / platforms.IDENTITIES)
    loaded = roster_mod.load(roster) if roster is not None else None
    if loaded is not None and loaded.kind.platform != kind:
        loaded = None  # the other platform's roster: this file uses the grader's ids (the CLI says so)
    return write(kind, Path(reports), day_grades(grades), column or f"PyTorch in Three Days: {day}", loaded, identities,
                 missing_as_zero)


def feedback_zips(out: Path, day: str, extra: dict[str, list[tuple[Path, str]]] | None = None) -> list[Path]:
    """``feedback-zip/<day>/<student>.zip`` holding ``<day>/<notebook>.html``, one per student, and the
    student's ``extra`` files (path, name under ``<day>/``): their worked solutions, once released."""
    root = Path(out) / "feedback"
    made = []
    for student_dir in sorted(p for p in root.iterdir() if p.is_dir()) if root.exists() else []:
        pages = sorted((student_dir / day).glob("*.html"))
        if not pages or student_dir.name == "self-check":
            continue
        target = Path(out) / "feedback-zip" / day / f"{student_dir.name}.zip"
        target.parent.mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as z:
            for page in pages:
                z.write(page, f"{day}/{page.name}")
            for path, name in (extra or {}).get(student_dir.name, []):
                z.write(path, f"{day}/{name}")
        made.append(target)
    return made
