"""The course model: what nbgrader's cell metadata says a course notebook is made of.

One place reads a notebook's structure (the grader, its repair step, the test harness and the
authoring tool all use it), so the rules cannot drift apart:

* a **solution cell** (``solution: true``) holds an exercise's answer; in the source it sits
  between ``### BEGIN SOLUTION`` / ``### END SOLUTION``;
* a **test cell** (``grade: true``, not a solution) is graded and worth ``points``; its hidden
  part sits between ``### BEGIN HIDDEN TESTS`` / ``### END HIDDEN TESTS``;
* a **locked cell** (``locked: true``) is read-only course code, such as the set-up cell;
* every other cell is **free**: explanations, demos, the learner's own scratch cells.

An :class:`Exercise` is a solution cell with the test cells that follow it, up to the next
solution cell.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

SOLUTION_BLOCK = re.compile(r"^[ \t]*### (BEGIN|END) SOLUTION[ \t]*\n?", re.M)
EXERCISE_HEADING = re.compile(r"^#+\s*(Exercise\s+\d+)", re.M)
CODE_STUB = "# YOUR CODE HERE\nraise NotImplementedError()"  # as in grader/nbgrader_config.py


def nbgrader_meta(cell) -> dict:
    """A cell's nbgrader metadata (empty for a free cell); never raises on odd input."""
    meta = cell.get("metadata", {}) if isinstance(cell, dict) else {}
    found = meta.get("nbgrader", {}) if isinstance(meta, dict) else {}
    return found if isinstance(found, dict) else {}


def role(cell) -> str:
    """``solution``, ``test``, ``locked`` or ``free``, by nbgrader's rules."""
    meta = nbgrader_meta(cell)
    if cell.get("cell_type") != "code" and not meta.get("grade_id"):
        return "free"
    if meta.get("solution"):
        return "solution"
    if meta.get("grade"):
        return "test"
    if meta.get("locked") and meta.get("grade_id"):
        return "locked"
    return "free"


def defined_names(source: str) -> set[str]:
    """Top-level functions, classes and variables a code cell defines (empty if it does not parse)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        found = re.findall(r"^(?:def|class)\s+([A-Za-z_]\w*)", source, re.M)
        return set(found)
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for sub in ast.walk(target):
                    if isinstance(sub, ast.Name):
                        names.add(sub.id)
    return names


def strip_solution_markers(source: str) -> str:
    """A solution cell as a learner who solved it would have it (markers removed)."""
    return SOLUTION_BLOCK.sub("", source)


TEXT_STUB = "YOUR ANSWER HERE"  # nbgrader's default for markdown answers


def _replace_regions(source: str, begin: str, end: str, stub: list[str] | None) -> str:
    """nbgrader's line-based edit: each region from a ``begin`` line to its ``end`` line, both
    included, becomes ``stub`` (indented like the ``begin`` line) or nothing."""
    out, inside = [], False
    for line in source.split("\n"):
        if not inside and line.strip() == begin:
            inside = True
            indent = line[: len(line) - len(line.lstrip())]
            out += [indent + s for s in stub or []]
        elif inside and line.strip() == end:
            inside = False
        elif not inside:
            out.append(line)
    return "\n".join(out)


def stub_solution(source: str, markdown: bool = False) -> str:
    """A solution cell as the student copy has it: each solution block replaced by the stub."""
    stub = TEXT_STUB if markdown else CODE_STUB
    if "### BEGIN SOLUTION" not in source:
        return stub
    return _replace_regions(source, "### BEGIN SOLUTION", "### END SOLUTION", stub.split("\n"))


def strip_hidden_tests(source: str) -> str:
    """A test cell as the student copy has it (hidden tests removed)."""
    return _replace_regions(source, "### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS", None)


def student_source(cell) -> str:
    """The text ``nbgrader generate_assignment`` gives the learner for a source cell."""
    source = cell.source
    if nbgrader_meta(cell).get("solution"):
        source = stub_solution(source, markdown=cell.cell_type == "markdown")
    return strip_hidden_tests(source)


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
    heading: str = ""  # "Exercise 3", from the markdown above it
    names: set[str] = field(default_factory=set)  # what the answer defines (def/class/variables)

    @property
    def points(self) -> float:
        return sum(t.points for t in self.tests)

    @property
    def label(self) -> str:
        """How pages name it: ``Exercise 3 · autograd_softplus``."""
        return f"{self.heading} · {self.grade_id}" if self.heading else self.grade_id


def exercises(nb) -> list[Exercise]:
    """Each solution cell with the graded cells after it, up to the next solution cell."""
    found: list[Exercise] = []
    heading = ""
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "markdown":
            match = EXERCISE_HEADING.search(cell.source)
            if match:
                heading = match.group(1)
            continue
        kind, meta = role(cell), nbgrader_meta(cell)
        if kind == "solution":
            names = defined_names(stub_solution(cell.source)) or defined_names(strip_solution_markers(cell.source))
            found.append(Exercise(meta["grade_id"], i, cell.source, heading=heading, names=names))
        elif kind == "test":
            if not found:
                raise ValueError(f"graded cell {meta['grade_id']!r} comes before any solution cell")
            found[-1].tests.append(TestCell(i, meta["grade_id"], float(meta.get("points", 0)), cell.source))
    return found


def grade_ids(nb) -> set[str]:
    """Every grade id a notebook's cells carry."""
    return {nbgrader_meta(c).get("grade_id") for c in nb.get("cells", []) if nbgrader_meta(c).get("grade_id")}


@dataclass
class CourseNotebook:
    """A course notebook as the course defines it, in its student form (no answers, no hidden tests)."""

    name: str
    nb: nbformat.NotebookNode  # the student form
    exercises: list[Exercise]

    @property
    def grade_ids(self) -> set[str]:
        return grade_ids(self.nb)

    @property
    def test_order(self) -> list[str]:
        """Graded cells in course order."""
        return [t.grade_id for e in self.exercises for t in e.tests]

    def exercise_labels(self) -> dict[str, str]:
        """``{grade id: label}`` for every solution and test cell."""
        out = {}
        for e in self.exercises:
            out[e.grade_id] = e.label
            for t in e.tests:
                out[t.grade_id] = e.label
        return out


def student_form(nb) -> nbformat.NotebookNode:
    """The notebook as ``generate_assignment`` releases it: answers stubbed, hidden tests removed.

    Idempotent: a student copy comes back unchanged (apart from nbgrader's checksums); the same
    line-based edits as nbgrader's, so the text equals the released copy's.
    """
    out = nbformat.from_dict(nb)
    for cell in out.cells:
        cell.source = student_source(cell)
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    return out


BOM = "\ufeff"  # the UTF-8 byte-order mark some Windows editors write first


def notebook_text(data: bytes | str) -> str:
    """A notebook file's JSON text: UTF-8, without the byte-order mark some editors write (JSON
    parsers refuse one; it says nothing about the notebook). Raises UnicodeDecodeError."""
    text = data.decode("utf-8") if isinstance(data, bytes) else data
    return text[1:] if text.startswith(BOM) else text


def read_notebook(path: Path | str) -> nbformat.NotebookNode:
    """``nbformat.read`` that also reads a notebook saved with a byte-order mark."""
    return nbformat.reads(notebook_text(Path(path).read_bytes()), as_version=4)


def course_notebook(path: Path) -> CourseNotebook:
    """Read a source (or student) notebook into the course model."""
    nb = read_notebook(path)
    form = student_form(nb)
    return CourseNotebook(Path(path).stem, form, exercises(nb))


def course_notebooks(folder: Path) -> dict[str, CourseNotebook]:
    """Every notebook of one day, by name, in course order."""
    return {p.stem: course_notebook(p) for p in sorted(Path(folder).glob("*.ipynb"))}
