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

Without a roster the student ids are the grader's (nbgrader's student folders or the names in
the uploaded files): Canvas gets them as ``SIS Login ID``, Moodle as ``Username``. With
``--lms-roster FILE`` (the gradebook exported from Canvas or Moodle, a CSV) each student is
matched to a row of it by login, SIS id, e-mail (or the part before ``@``), ID number or full
name, and the row's identity columns are copied; a roster column named like ``--lms-column``
(the assignment, with its Canvas id) is used as the grade column.
"""

from __future__ import annotations

import csv
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path

from grader import gradebook

CANVAS_IDENTITY = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
MOODLE_IDENTITY = ["First name", "Last name", "ID number", "Email address"]
POINTS_POSSIBLE = "    Points Possible"
FORMATS = ("canvas", "moodle")


@dataclass
class Grade:
    """One student's result for the day."""

    student: str
    points: float  # after the late penalty
    max_points: float
    late_penalty: float = 0.0


def day_grades(db_url: str, day: str) -> list[Grade]:
    """Each student's total for ``day`` from the gradebook, after the late penalty."""
    scores = gradebook.scores(db_url, day)
    late = gradebook.penalties(db_url, day)
    out = []
    for student in sorted(scores):
        total = sum(s for s, _ in scores[student].values())
        max_total = sum(m for _, m in scores[student].values())
        penalty = sum(late.get(student, {}).values())
        out.append(Grade(student, max(0.0, total - penalty), max_total, penalty))
    return out


def key(text: str) -> str:
    """A name or id reduced for matching: lower case, letters and digits only."""
    return re.sub(r"[^a-z0-9]+", "", str(text).lower())


def read_roster(path: Path) -> tuple[list[str], list[dict[str, str]]]:
    """The header and student rows of a gradebook exported as CSV (Canvas's extra rows skipped)."""
    with open(path, newline="", encoding="utf-8-sig") as f:
        reader = csv.DictReader(f)
        header = list(reader.fieldnames or [])
        rows = [r for r in reader if not str(r.get(header[0], "")).startswith(" ")
                and "Points Possible" not in str(r.get(header[0], ""))]
    return header, rows


def _names(row: dict[str, str]) -> list[str]:
    """Every way a roster row may be named by a student id."""
    names = []
    for column in ("SIS Login ID", "SIS User ID", "ID", "Email address", "ID number", "Username"):
        value = (row.get(column) or "").strip()
        if value:
            names += [value, value.split("@")[0]]
    student = (row.get("Student") or "").strip()
    if student:
        names.append(student)
        if "," in student:  # Canvas writes "Last, First"
            last, first = (p.strip() for p in student.split(",", 1))
            names += [f"{first} {last}", f"{last} {first}"]
    first, last = (row.get("First name") or "").strip(), (row.get("Last name") or "").strip()
    if first or last:
        names += [f"{first} {last}", f"{last} {first}"]
    return [key(n) for n in names if key(n)]


def match(grades: list[Grade], rows: list[dict[str, str]]) -> tuple[dict[str, dict[str, str]], list[str]]:
    """``{student: roster row}`` and the students no row matches."""
    index: dict[str, dict[str, str]] = {}
    for row in rows:
        for name in _names(row):
            index.setdefault(name, row)
    found, missing = {}, []
    for g in grades:
        row = index.get(key(g.student))
        if row is None:
            missing.append(g.student)
        else:
            found[g.student] = row
    return found, missing


def _column(header: list[str], wanted: str) -> str:
    """The roster's column for assignment ``wanted`` (``Name (id)``), else ``wanted`` itself."""
    for name in header:
        if name == wanted or re.sub(r"\s*\(\d+\)$", "", name) == wanted:
            return name
    return wanted


def _roster_for(roster: Path | None, needed: str) -> Path | None:
    """``roster`` if it is the platform's own export (has column ``needed``), else None."""
    if roster is None:
        return None
    header, _ = read_roster(roster)
    return roster if needed in header else None


def write_canvas(path: Path, grades: list[Grade], column: str, roster: Path | None = None) -> list[str]:
    """Canvas's gradebook import CSV; returns the students the roster lacks.

    ``roster`` is used when it is a Canvas export (has ``SIS Login ID``)."""
    roster = _roster_for(roster, "SIS Login ID")
    header, rows = read_roster(roster) if roster else ([], [])
    found, missing = match(grades, rows) if roster else ({}, [])
    column = _column(header, column)
    max_points = max((g.max_points for g in grades), default=0.0)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow([*CANVAS_IDENTITY, column])
        writer.writerow([POINTS_POSSIBLE, "", "", "", "", f"{max_points:g}"])
        for g in grades:
            row = found.get(g.student)
            identity = [row.get(c, "") for c in CANVAS_IDENTITY] if row else [g.student, "", "", g.student, ""]
            writer.writerow([*identity, f"{g.points:g}"])
    return missing


def write_moodle(path: Path, grades: list[Grade], column: str, roster: Path | None = None) -> list[str]:
    """Moodle's grade import CSV; returns the students the roster lacks.

    ``roster`` is used when it is a Moodle export (has ``Email address``)."""
    roster = _roster_for(roster, "Email address")
    header, rows = read_roster(roster) if roster else ([], [])
    found, missing = match(grades, rows) if roster else ({}, [])
    column = _column(header, column)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        if roster:
            writer.writerow([*MOODLE_IDENTITY, column])
            for g in grades:
                row = found.get(g.student)
                identity = [row.get(c, "") for c in MOODLE_IDENTITY] if row else ["", "", "", g.student]
                writer.writerow([*identity, f"{g.points:g}"])
        else:
            writer.writerow(["Username", column])
            for g in grades:
                writer.writerow([g.student, f"{g.points:g}"])
    return missing


def export(kind: str, db_url: str, day: str, reports: Path, column: str | None = None,
           roster: Path | None = None) -> tuple[Path, list[str]]:
    """Write ``reports/<kind>.csv``; its path and the students the roster lacks."""
    grades = day_grades(db_url, day)
    column = column or f"PyTorch in Three Days: {day}"
    path = Path(reports) / f"{kind}.csv"
    writer = {"canvas": write_canvas, "moodle": write_moodle}[kind]
    return path, writer(path, grades, column, roster)


def feedback_zips(out: Path, day: str) -> list[Path]:
    """``feedback-zip/<day>/<student>.zip`` holding ``<day>/<notebook>.html``, one per student."""
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
        made.append(target)
    return made
