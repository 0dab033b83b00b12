"""A throw-away nbgrader course built from the repository's config and source notebooks."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import nbformat

from grader.grades.gradebook import course_folder_config, nbgrader_env
from grader.results.worked import worked_copy
from tools.notebooks import (
    SOLUTIONS,
    read,
)


class TempCourse:
    """An nbgrader course in ``root`` using the course's own ``grader/nbgrader_config.py``."""

    def __init__(self, root: Path):
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        (self.root / "nbgrader_config.py").write_text(
            course_folder_config(self.root, "sqlite:///" + str(self.root / "gradebook.db"))
        )

    def nbgrader(self, *args: str, timeout: float = 1800) -> subprocess.CompletedProcess:
        """Run an nbgrader command in the course; raise with its output if it fails."""
        proc = subprocess.run(
            [sys.executable, "-m", "nbgrader", *args],
            cwd=self.root, capture_output=True, text=True, timeout=timeout, env=nbgrader_env(),
        )
        if proc.returncode != 0:
            raise RuntimeError(f"nbgrader {' '.join(args)} failed:\n{proc.stdout}\n{proc.stderr}")
        return proc

    def add_source(self, day: str) -> None:
        shutil.copytree(SOLUTIONS / day, self.root / "solutions" / day, dirs_exist_ok=True)

    def release(self, day: str) -> Path:
        """``nbgrader generate_assignment``; returns the student folder."""
        self.add_source(day)
        self.nbgrader("generate_assignment", day, "--force")
        return self.root / day

    def submit(self, student: str, day: str, notebooks: dict[str, nbformat.NotebookNode]) -> None:
        folder = self.root / "submitted" / student / day
        folder.mkdir(parents=True, exist_ok=True)
        for name, nb in notebooks.items():
            nbformat.write(nb, str(folder / name))

    def autograde(self, day: str, *extra: str) -> subprocess.CompletedProcess:
        return self.nbgrader("autograde", day, "--force", *extra)

    def scores(self, day: str) -> dict[str, dict[str, tuple[float, float]]]:
        """``{student: {notebook: (score, max_score)}}`` from the gradebook."""
        from nbgrader.api import Gradebook

        out: dict[str, dict[str, tuple[float, float]]] = {}
        with Gradebook("sqlite:///" + str(self.root / "gradebook.db")) as gb:
            for sub in gb.assignment_submissions(day):
                out[sub.student.id] = {nb.name: (nb.score, nb.max_score) for nb in sub.notebooks}
        return out


def solved_copy(student_nb: nbformat.NotebookNode, source_nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """The student notebook with every answer filled in from the source, as a learner would
    (the worked solution ``grade --solutions-after-due`` hands out: grader/results/worked.py)."""
    return worked_copy(student_nb, source_nb)


def solved_translated(source: Path, lang: str = "zh-CN") -> nbformat.NotebookNode:
    """The solved copy of a notebook in ``lang``: its translated student copy (``<lang>/dayN/``,
    tools/i18n.py) with every answer filled in from ``source`` (``solutions/dayN/NN.ipynb``).
    Made on the fly for tests and grading proofs, never committed."""
    translated = SOLUTIONS.parent / lang / source.parent.name / source.name
    return solved_copy(read(translated), read(source))


def solved_notebooks(release_dir: Path, day: str) -> dict[str, nbformat.NotebookNode]:
    """Every student notebook of ``day`` with the solutions filled in."""
    return {
        p.name: solved_copy(read(p), read(SOLUTIONS / day / p.name))
        for p in sorted(release_dir.glob("*.ipynb"))
    }
