"""The class's grades (grader.records.ClassGrades) as the plain tables tests compare: a test's own view,
never passed between the grader's modules."""

from __future__ import annotations


def read(db_url: str, day: str):
    from grader.grades.gradebook import class_grades

    return class_grades(db_url, day)


def cell_table(grades) -> dict[str, dict[str, dict[str, tuple[float, float]]]]:
    """``{student: {notebook: {grade_id: (score, max)}}}``, manual grades included."""
    return {s.student: {n.notebook: {c.grade_id: (c.score, c.max) for c in n.checks} for n in s.notebooks}
            for s in grades.students}


def notebook_table(grades) -> dict[str, dict[str, tuple[float, float]]]:
    """``{student: {notebook: (score, max)}}``, manual grades included."""
    return {s.student: {n.notebook: (n.score, n.max_score) for n in s.notebooks} for s in grades.students}
