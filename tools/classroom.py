"""Synthetic classes for the grader's tests and benchmark: solved, untouched and mutant notebooks."""

from __future__ import annotations

from pathlib import Path

import nbformat

from tools import mutants as mutant_lib
from tools.course import solved_copy
from tools.notebooks import ROOT, SOLUTIONS, exercises, nbgrader_meta, read


def solved(day: str, name: str) -> nbformat.NotebookNode:
    """The student copy of ``day/name`` with every answer filled in."""
    return solved_copy(read(ROOT / day / f"{name}.ipynb"), read(SOLUTIONS / day / f"{name}.ipynb"))


def untouched(day: str, name: str) -> nbformat.NotebookNode:
    return read(ROOT / day / f"{name}.ipynb")


def mutated(day: str, name: str, index: int) -> tuple[nbformat.NotebookNode, str]:
    """The solved notebook with mutant number ``index`` (modulo the catalogue) in place."""
    source_path = SOLUTIONS / day / f"{name}.ipynb"
    catalogue = mutant_lib.load(source_path)
    mutant = catalogue[index % len(catalogue)]
    exercise = next(e for e in exercises(read(source_path)) if e.grade_id == mutant.exercise)
    nb = solved(day, name)
    for cell in nb.cells:
        if nbgrader_meta(cell).get("grade_id") == mutant.exercise:
            cell.source = mutant.apply(exercise)
    return nb, mutant.name


def with_code(nb: nbformat.NotebookNode, grade_id: str, code: str) -> nbformat.NotebookNode:
    """A copy of ``nb`` with ``code`` appended to the cell ``grade_id``."""
    nb = nbformat.from_dict(nb)
    for cell in nb.cells:
        if nbgrader_meta(cell).get("grade_id") == grade_id:
            cell.source = cell.source + "\n" + code
    return nb


def write_class(folder: Path, day: str, students: dict[str, dict[str, nbformat.NotebookNode]]) -> Path:
    """Write ``{student: {notebook: nb}}`` in nbgrader's ``submitted/`` layout."""
    for student, notebooks in students.items():
        target = folder / student / day
        target.mkdir(parents=True, exist_ok=True)
        for name, nb in notebooks.items():
            nbformat.write(nb, str(target / f"{name}.ipynb"))
    return folder


def mixed_class(day: str, size: int, notebooks: list[str] | None = None) -> dict[str, dict[str, nbformat.NotebookNode]]:
    """``size`` students: a third solved, a third untouched, a third with one mutant per notebook."""
    names = notebooks or [p.stem for p in sorted((SOLUTIONS / day).glob("*.ipynb"))]
    out = {}
    for i in range(size):
        kind = ("solved", "untouched", "mutant")[i % 3]
        student = f"s{i:02d}_{kind}"
        if kind == "solved":
            out[student] = {n: solved(day, n) for n in names}
        elif kind == "untouched":
            out[student] = {n: untouched(day, n) for n in names}
        else:
            out[student] = {n: mutated(day, n, i)[0] for n in names}
    return out
