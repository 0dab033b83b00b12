"""The grade files Canvas and Moodle import, written so that no row can land on the wrong student.

With a roster (:mod:`grader.lms.roster`) every row of the import file is a roster row, its identity
columns copied unchanged: a graded student is written only on the one row they matched, a
roster student with no hand-in is written as missing (an empty grade, or 0 with
``missing_as_zero``), and a graded student no row matches goes to ``<kind>-unmatched.csv``
beside it, never into the import file. Without a roster Canvas gets the platform's user id
where the download named it (Canvas matches ``ID`` first), else the grader's id as ``SIS
Login ID``; Moodle gets ``Username``, and students known only by a Moodle participant id (not
a user field Moodle's import can map) are unmatched.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

from grader.lms import roster as roster_mod
from grader.lms.platforms import Handin, Platform
from grader.lms.roster import Roster, RosterKind, Unmatched

CANVAS_IDENTITY = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
MOODLE_IDENTITY = ["First name", "Last name", "ID number", "Email address"]
POINTS_POSSIBLE = "    Points Possible"
WORKSHEET_GRADE = "Grade"


@dataclass
class Grade:
    """One student's result for the day."""

    student: str
    points: float  # after the late penalty
    max_points: float
    late_penalty: float = 0.0


@dataclass(frozen=True)
class ExportResult:
    """What one export wrote, for the command line and the class report."""

    kind: str
    path: Path
    unmatched: tuple[Unmatched, ...] = ()
    unmatched_path: Path | None = None
    missing: tuple[str, ...] = ()  # roster students with no hand-in, as the roster names them
    roster: Path | None = None
    missing_as_zero: bool = False
    roster_encoding: str = ""  # how the roster file was read (grader.lms.text_files)
    scaled: tuple[float, float] | None = None  # (the course's maximum, the platform's): the points were scaled to it
    anonymous: int = 0  # graded hand-ins known by an anonymous id only: no roster row can be told missing


def on_scale(grades: list[Grade], maximum: float | None) -> tuple[list[Grade], tuple[float, float] | None]:
    """The grades on the platform's scale, where its ``maximum`` for the assignment is not the course's (Moodle
    drops a grade above it without a word; Canvas would read the points out of its own maximum), to 2 decimals;
    and (the course's maximum, the platform's), or None where nothing was scaled."""
    course = max((g.max_points for g in grades), default=0.0)
    if not maximum or not course or abs(maximum - course) < 1e-9:
        return grades, None
    factor = maximum / course
    return [Grade(g.student, min(maximum, round(g.points * factor, 2)), maximum, round(g.late_penalty * factor, 2))
            for g in grades], (course, maximum)


def column_of(header: tuple[str, ...] | list[str], wanted: str) -> str:
    """The roster's column for assignment ``wanted`` (``Name (id)``), else ``wanted`` itself."""
    import re

    for name in header:
        if name == wanted or re.sub(r"\s*\(\d+\)$", "", name) == wanted:
            return name
    return wanted


def _missing_value(missing_as_zero: bool) -> str:
    return "0" if missing_as_zero else ""


def _loaded(roster: Roster | Path | None) -> Roster | None:
    return roster_mod.load(roster) if isinstance(roster, (str, Path)) else roster


def canvas_rows(grades: list[Grade], roster: Roster | None, identities: dict[str, Handin],
                missing_as_zero: bool) -> tuple[list[list[str]], roster_mod.Matching | None]:
    """Identity columns and the grade of each row Canvas will import."""
    if roster is None:
        out = []
        for g in grades:
            h = identities.get(g.student)
            ident = ([h.name, h.platform_id, "", "", ""] if h is not None and h.platform is Platform.CANVAS
                     else [g.student, "", "", g.student, ""])
            out.append([*ident, f"{g.points:g}"])
        return out, None
    matching = roster_mod.match([g.student for g in grades], roster, identities)
    points = {g.student: f"{g.points:g}" for g in grades}
    by_row = {id(row): points[s] for s, row in matching.found.items()}
    missing = {id(r) for r in matching.missing}
    rows = [[row.get(c, "") for c in CANVAS_IDENTITY] + [by_row.get(id(row), _missing_value(missing_as_zero))]
            for row in roster.rows if id(row) in by_row or id(row) in missing]
    return rows, matching


def write_canvas(path: Path, grades: list[Grade], column: str, roster: Roster | Path | None = None,
                 identities: dict[str, Handin] | None = None, missing_as_zero: bool = False):
    """Canvas's gradebook import CSV; the roster matching (None without a roster)."""
    roster = _loaded(roster)
    rows, matching = canvas_rows(grades, roster, identities or {}, missing_as_zero)
    column = column_of(roster.header if roster else [], column)
    max_points = max((g.max_points for g in grades), default=0.0)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow([*CANVAS_IDENTITY, column])
        writer.writerow([POINTS_POSSIBLE, "", "", "", "", f"{max_points:g}"])
        writer.writerows(rows)
    return matching


def _moodle_worksheet(writer, roster: Roster, matching: roster_mod.Matching, points: dict[str, str],
                      missing_as_zero: bool) -> None:
    """The grading worksheet as Moodle wrote it, with the Grade column filled in."""
    grade_column = WORKSHEET_GRADE if WORKSHEET_GRADE in roster.header else None
    if grade_column is None:
        raise roster_mod.RosterError("the grading worksheet has no 'Grade' column (download it again "
                                     "with the assignment's grade type set to points)")
    writer.writerow(roster.header)
    by_row = {id(row): points[s] for s, row in matching.found.items()}
    missing = {id(r) for r in matching.missing}
    for row in roster.rows:
        if id(row) in by_row or id(row) in missing:
            grade = by_row.get(id(row), _missing_value(missing_as_zero))
            writer.writerow([grade if c == grade_column else row.get(c, "") for c in roster.header])


def write_moodle(path: Path, grades: list[Grade], column: str, roster: Roster | Path | None = None,
                 identities: dict[str, Handin] | None = None, missing_as_zero: bool = False):
    """Moodle's grade import CSV (or its filled grading worksheet); the roster matching."""
    roster = _loaded(roster)
    identities = identities or {}
    points = {g.student: f"{g.points:g}" for g in grades}
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        if roster is None:
            writer.writerow(["Username", column])
            unmatched = []
            for g in grades:
                h = identities.get(g.student)
                if h is not None and h.platform is Platform.MOODLE:
                    unmatched.append(Unmatched(g.student, "no_user_field"))
                else:
                    writer.writerow([g.student, points[g.student]])
            return roster_mod.Matching({}, tuple(unmatched), ())
        matching = roster_mod.match(list(points), roster, identities)
        if roster.kind is RosterKind.MOODLE_WORKSHEET:
            _moodle_worksheet(writer, roster, matching, points, missing_as_zero)
            return matching
        writer.writerow([*MOODLE_IDENTITY, column_of(roster.header, column)])
        by_row = {id(row): points[s] for s, row in matching.found.items()}
        missing = {id(r) for r in matching.missing}
        for row in roster.rows:
            if id(row) in by_row or id(row) in missing:
                writer.writerow([*(row.get(c, "") for c in MOODLE_IDENTITY),
                                 by_row.get(id(row), _missing_value(missing_as_zero))])
        return matching


def write_unmatched(path: Path, grades: list[Grade], unmatched: tuple[Unmatched, ...]) -> Path | None:
    """``<kind>-unmatched.csv``: graded students the import file leaves out, and why (None: there are none)."""
    if not unmatched:
        path.unlink(missing_ok=True)  # a past run's list is not this run's
        return None
    by_student = {g.student: g for g in grades}
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["student", "points", "max_points", "reason"])
        for u in unmatched:
            g = by_student.get(u.student)
            writer.writerow([u.student, f"{g.points:g}" if g else "", f"{g.max_points:g}" if g else "", u.reason])
    return path
