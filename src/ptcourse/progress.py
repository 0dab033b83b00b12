"""A learner's progress: the last self-check result of each notebook, shown on the course home.

Both self-checks (``python -m ptcourse.selfcheck`` in the student edition and
``python -m grader check`` in the full course) call :func:`record`, which keeps one small
JSON file in the course folder (``.ptcourse-progress.json``, git-ignored). The course home
(``HOME.ipynb``) calls :func:`show_progress` to list it. Nothing is sent anywhere.

This module imports neither torch nor the notebooks' helpers, so the home page's kernel
stays small.
"""

from __future__ import annotations

import json
import os
import re
from datetime import datetime, timezone
from pathlib import Path

from ptcourse import settings
from ptcourse.messages import msg

FILE_NAME = ".ptcourse-progress.json"
NOTEBOOK = re.compile(r"^day\d+/\d\d_\w+\.ipynb$")
EXAMPLE = "day1/01_tensors.ipynb"

__all__ = ["FILE_NAME", "course_root", "load", "record", "record_grades", "show_progress"]


def course_root(start: Path | str | None = None) -> Path:
    """The course folder holding ``start``: the nearest folder with ``HOME.ipynb`` (else ``start``)."""
    here = Path(start or Path.cwd()).resolve()
    if here.is_file():
        here = here.parent
    for folder in (here, *here.parents):
        if (folder / "HOME.ipynb").exists():
            return folder
    return here


def progress_file(root: Path | str | None = None) -> Path:
    """The progress file (``PTCOURSE_PROGRESS`` overrides its place, for tests)."""
    forced = settings.read().progress
    return forced if forced is not None else course_root(root) / FILE_NAME


def load(root: Path | str | None = None) -> dict[str, dict]:
    """``{"day1/01_tensors.ipynb": {"passed": 8, "total": 13, "checked": ISO time, ...}}``."""
    try:
        data = json.loads(progress_file(root).read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def notebook_key(notebook: Path | str, root: Path) -> str:
    """``dayN/NN_name.ipynb`` for a notebook anywhere in the course (its own name elsewhere)."""
    path = Path(notebook).resolve()
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return f"{path.parent.name}/{path.name}"


def record(notebook: Path | str, *, passed: int, total: int, source: str,
           score: float | None = None, max_score: float | None = None) -> Path:
    """Save the last check of ``notebook`` (``source``: ``"visible"`` or ``"graded"``)."""
    root = course_root(notebook)
    path = progress_file(root)
    data = load(root)
    entry: dict = {"passed": int(passed), "total": int(total), "source": source,
                   "checked": datetime.now(timezone.utc).isoformat(timespec="seconds")}
    if score is not None and max_score is not None:
        entry.update(score=float(score), max_score=float(max_score))
    data[notebook_key(notebook, root)] = entry
    tmp = path.with_name(path.name + ".part")
    tmp.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    os.replace(tmp, path)
    return path


def record_grades(notebook: Path | str, checks: list[tuple[float, float]]) -> Path:
    """Save a graded self-check (``python -m grader check``): each graded check's ``(score, max)``."""
    passed = sum(1 for score, most in checks if score >= most)
    return record(notebook, passed=passed, total=len(checks), source="graded",
                  score=sum(score for score, _ in checks), max_score=sum(most for _, most in checks))


def _when(stamp: str) -> str:
    try:
        return datetime.fromisoformat(stamp).astimezone().strftime("%Y-%m-%d %H:%M")
    except (TypeError, ValueError):
        return str(stamp)


def result_text(entry: dict | None) -> str:
    """``8/13 checks passed, last checked 2026-12-03 14:05`` (or "not checked yet")."""
    if not entry:
        return msg("progress.never")
    values = {"passed": entry.get("passed", 0), "total": entry.get("total", 0), "when": _when(entry.get("checked"))}
    if "score" in entry:
        return msg("progress.result_graded", score=entry["score"], max_score=entry["max_score"], **values)
    return msg("progress.result", **values)


class Progress:
    """The progress table; shown as Markdown in a notebook and as text in a terminal."""

    def __init__(self, rows: list[tuple[str, str]], example: str = EXAMPLE):
        self.rows = rows
        self.example = example  # the notebook path `make check NB=...` takes, from the Makefile's folder

    def _repr_markdown_(self) -> str:
        lines = [msg("progress.title"), "", msg("progress.header")]
        lines += [msg("progress.row", notebook=f"[{nb}]({nb})", result=result) for nb, result in self.rows]
        return "\n".join([*lines, "", msg("progress.how", example=self.example)])

    def __str__(self) -> str:
        width = max([len(nb) for nb, _ in self.rows] + [8])
        return "\n".join(f"{nb:<{width}}  {result}" for nb, result in self.rows)

    __repr__ = __str__


def make_folder(folder: Path) -> Path:
    """Where ``make check`` runs: the nearest folder holding ``folder`` with a ``Makefile`` (the
    course repository's root for its Chinese edition in ``zh-CN/``), else ``folder``."""
    return next((f for f in (folder, *folder.parents) if (f / "Makefile").exists()), folder)


def check_example(folder: Path) -> str:
    """The path of a notebook of the course in ``folder`` as ``make check NB=...`` takes it
    (``zh-CN/day1/01_tensors.ipynb`` for the Chinese edition inside the course repository)."""
    return (folder / EXAMPLE).relative_to(make_folder(folder)).as_posix()


def show_progress(root: Path | str | None = None) -> Progress:
    """Each notebook of the course with its last self-check result (the course home's cell)."""
    folder = course_root(root)
    data = load(folder)
    notebooks = sorted(p.relative_to(folder).as_posix() for p in folder.glob("day*/*.ipynb"))
    notebooks = [nb for nb in notebooks if NOTEBOOK.match(nb)]
    notebooks += sorted(k for k in data if k not in notebooks)
    return Progress([(nb, result_text(data.get(nb))) for nb in notebooks], check_example(folder))
