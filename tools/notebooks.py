"""The course's notebooks and their nbgrader structure (exercises, graded cells, points)."""

from __future__ import annotations

from pathlib import Path

import nbformat

from ptcourse.nbmodel import (  # noqa: F401 - the course model, re-exported for the tests
    Exercise,
    TestCell,
    defined_names,
    exercises,
    nbgrader_meta,
    strip_solution_markers,
)

ROOT = Path(__file__).resolve().parents[1]
SOLUTIONS = ROOT / "solutions"
DAYS = ("day1", "day2", "day3")


def solution_notebooks(day: str | None = None) -> list[Path]:
    """Source notebooks, in course order."""
    days = [day] if day else list(DAYS)
    return [p for d in days for p in sorted((SOLUTIONS / d).glob("*.ipynb"))]


def student_copy(source: Path) -> Path:
    """The generated student notebook for a source notebook."""
    return ROOT / source.relative_to(SOLUTIONS)


def nb_key(path: Path) -> str:
    """A short stable name, e.g. ``day1/02_autograd``."""
    return f"{path.parent.name}/{path.stem}"


def read(path: Path) -> nbformat.NotebookNode:
    return nbformat.read(str(path), as_version=4)


def points(path: Path) -> float:
    """Total points of a notebook."""
    return sum(e.points for e in exercises(read(path)))
