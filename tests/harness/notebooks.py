"""The course's notebooks and their nbgrader structure (exercises, graded cells, points)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[2]
SOLUTIONS = ROOT / "solutions"
DAYS = ("day1", "day2", "day3")
SOLUTION_BLOCK = re.compile(r"^[ \t]*### (BEGIN|END) SOLUTION[ \t]*\n?", re.M)


@dataclass
class TestCell:
    """A graded test cell."""

    index: int
    grade_id: str
    points: float
    source: str


@dataclass
class Exercise:
    """A solution cell and the graded cells that check it (those that follow it)."""

    grade_id: str
    index: int
    source: str
    tests: list[TestCell] = field(default_factory=list)

    @property
    def points(self) -> float:
        return sum(t.points for t in self.tests)


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


def nbgrader_meta(cell) -> dict:
    return cell.get("metadata", {}).get("nbgrader", {})


def exercises(nb: nbformat.NotebookNode) -> list[Exercise]:
    """Each solution cell with the graded cells after it, up to the next solution cell."""
    found: list[Exercise] = []
    for i, cell in enumerate(nb.cells):
        meta = nbgrader_meta(cell)
        if cell.cell_type != "code":
            continue
        if meta.get("solution"):
            found.append(Exercise(meta["grade_id"], i, cell.source))
        elif meta.get("grade"):
            if not found:
                raise ValueError(f"graded cell {meta['grade_id']!r} comes before any solution cell")
            found[-1].tests.append(TestCell(i, meta["grade_id"], float(meta.get("points", 0)), cell.source))
    return found


def strip_solution_markers(source: str) -> str:
    """A solution cell as a learner who solved it would have it (markers removed)."""
    return SOLUTION_BLOCK.sub("", source)


def points(path: Path) -> float:
    """Total points of a notebook."""
    return sum(e.points for e in exercises(read(path)))
