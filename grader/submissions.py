"""Finding a class's submissions and checking each file before any code of it runs.

Two layouts are read:

* nbgrader's: ``<folder>/<student>/<day>/<notebook>.ipynb`` (a ``timestamp.txt`` beside the
  notebooks gives the hand-in time);
* flat, as learning platforms export: ``<folder>/<name>.ipynb`` where ``<name>`` is the student,
  optionally with the notebook's name in it (``alice.ipynb``, ``alice_01_tensors.ipynb``,
  ``01_tensors - Alice Smith.ipynb``). A flat file's notebook is recognised by its cells.

Every file is read here, in the grader's own process, and never executed: invalid JSON, an
unknown or renamed notebook and missing test cells become notes in the student's report.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import nbformat


@dataclass
class Submission:
    """One notebook handed in by one student."""

    student: str
    notebook: str | None  # the assignment's notebook name; None if unrecognised
    path: Path
    nb: nbformat.NotebookNode | None = None
    timestamp: str | None = None
    notes: list[str] = field(default_factory=list)  # plain-words report entries
    error: str | None = None  # why it cannot be graded at all
    findings: list[str] = field(default_factory=list)  # reasons for manual review (grader.scan)


def slug(text: str) -> str:
    """A student id nbgrader and file systems accept."""
    text = re.sub(r"[^A-Za-z0-9._-]+", "_", text.strip()).strip("._-")
    return text or "unnamed"


def grade_ids(nb) -> set[str]:
    return {
        c.get("metadata", {}).get("nbgrader", {}).get("grade_id")
        for c in nb.get("cells", [])
        if c.get("metadata", {}).get("nbgrader", {}).get("grade_id")
    }


def read_notebook(path: Path) -> tuple[nbformat.NotebookNode | None, str | None]:
    """The notebook, or the reason it cannot be read, in plain words."""
    try:
        raw = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return None, "the file is not text (is it really a notebook?)"
    except OSError as exc:
        return None, f"the file could not be read ({exc.strerror})"
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        return None, (f"the file is not valid notebook JSON (line {exc.lineno}, column {exc.colno}: "
                      f"{exc.msg}); it was probably edited outside Jupyter or cut short")
    if not isinstance(data, dict) or "cells" not in data:
        return None, "the file is JSON but not a Jupyter notebook (no cells)"
    try:
        nb = nbformat.reads(raw, as_version=4)
    except Exception as exc:  # nbformat raises several types for bad structure
        return None, f"the notebook's structure is broken ({type(exc).__name__}: {str(exc)[:200]})"
    return nb, None


def identify(nb, masters: dict[str, set[str]]) -> str | None:
    """The assignment notebook whose graded cells this notebook shares most (None if none)."""
    ids = grade_ids(nb)
    best, best_overlap = None, 0
    for name, master_ids in masters.items():
        overlap = len(ids & master_ids)
        if overlap > best_overlap:
            best, best_overlap = name, overlap
    return best


def _check(sub: Submission, masters: dict[str, set[str]], named_as: str | None) -> None:
    """Read the file, recognise its notebook, note renames and removed test cells."""
    nb, error = read_notebook(sub.path)
    if error:
        sub.error = error
        sub.notebook = named_as if named_as in masters else sub.notebook
        return
    sub.nb = nb
    found = identify(nb, masters)
    if named_as in masters and (found is None or found == named_as):
        sub.notebook = named_as
    elif found is not None:
        sub.notebook = found
        if named_as is not None:
            sub.notes.append(f"The file {sub.path.name!r} was graded as {found}.ipynb (recognised by its cells).")
    else:
        sub.notebook = None
        sub.error = "no graded cell of this assignment was found in it (wrong file or a different assignment?)"
        return
    missing = sorted(masters[sub.notebook] - grade_ids(nb))
    if missing:
        sub.notes.append(
            "These graded cells were missing and were put back from the course before grading: "
            + ", ".join(missing) + "."
        )


def from_nbgrader_layout(folder: Path, day: str, masters: dict[str, set[str]]) -> list[Submission]:
    """``<folder>/<student>/<day>/*.ipynb``."""
    subs = []
    for student_dir in sorted(p for p in folder.iterdir() if p.is_dir()):
        day_dir = student_dir / day
        if not day_dir.is_dir():
            continue
        ts_file = day_dir / "timestamp.txt"
        timestamp = ts_file.read_text().strip() if ts_file.exists() else None
        for path in sorted(day_dir.glob("*.ipynb")):
            sub = Submission(student=student_dir.name, notebook=None, path=path, timestamp=timestamp)
            _check(sub, masters, path.stem)
            subs.append(sub)
    return subs


def _flat_student(stem: str, masters: dict[str, set[str]]) -> tuple[str, str | None]:
    """Split ``alice_01_tensors`` into the student and the notebook named in the file name."""
    for name in sorted(masters, key=len, reverse=True):
        if name in stem:
            rest = stem.replace(name, " ")
            return slug(rest), name
    return slug(stem), None


def from_flat_folder(folder: Path, masters: dict[str, set[str]]) -> list[Submission]:
    """``<folder>/<student>[_<notebook>].ipynb``."""
    subs = []
    for path in sorted(folder.glob("*.ipynb")):
        student, named = _flat_student(path.stem, masters)
        sub = Submission(student=student, notebook=named, path=path)
        _check(sub, masters, named)
        subs.append(sub)
    return subs


def discover(folder: Path, day: str, masters: dict[str, set[str]]) -> list[Submission]:
    """All submissions in ``folder``, whichever of the two layouts it uses."""
    folder = Path(folder)
    if any(p.is_dir() and (p / day).is_dir() for p in folder.iterdir()):
        subs = from_nbgrader_layout(folder, day, masters)
    else:
        subs = from_flat_folder(folder, masters)
    return dedupe(subs)


def dedupe(subs: list[Submission]) -> list[Submission]:
    """One submission per (student, notebook): a second file for the same notebook is reported."""
    seen: dict[tuple[str, str], Submission] = {}
    out = []
    for sub in subs:
        if sub.notebook is None:
            out.append(sub)
            continue
        key = (sub.student, sub.notebook)
        if key in seen:
            seen[key].notes.append(f"Another file, {sub.path.name!r}, was also a {sub.notebook} notebook: "
                                   "it was not graded.")
            continue
        seen[key] = sub
        out.append(sub)
    return out
