"""A day's default class: graded once per test session, shared by every test module that hands in to it.

Several modules grade small classes of one day through ``python -m grader grade DAY --workers 2 --quiet``
with no other option (the round trips, the second key's cheats, Gradescope's comparison). Each such
grading pays a driver, a fork server, warm kernels and a reference run per notebook (about 20 s) for
well under a second of cells. So each module says at import time what it hands in
(:func:`hand_in`), and the session fixture ``day1_class`` or ``day2_class`` (tests/conftest.py) grades
the day's union once.
Students are graded independently (a job per notebook, its own kernel): a student's record is the
same in the shared class as in a class of the module's own. Each module reads back only its own
students (:meth:`GradedClass.of`), by the names it gave them.

Tests that use one of the fixtures run in one xdist group (tests/conftest.py ``_groups``): a test that
reaches the class through ``request.getfixturevalue`` says so with ``@pytest.mark.shares("day1_class")``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tools.classroom import write_class
from tools.notebooks import ROOT

DAYS = ("day1", "day2")  # the days with a shared class: a session fixture each (tests/conftest.py)
SEP = "."  # between the owner's name and the student's: "second_key.frame_cheat"
# An owner's hand-in: given a folder of its own, ``{student: {notebook: nb}}``.
Maker = Callable[[Path], dict]
_HANDED_IN: dict[str, dict[str, Maker]] = {day: {} for day in DAYS}


def hand_in(owner: str, make: Maker, day: str = "day1") -> None:
    """Register ``owner``'s students of ``day`` (made when the class is graded, in a folder of ``owner``'s own)."""
    if SEP in owner:
        raise ValueError(f"an owner's name holds no {SEP!r}: {owner!r}")
    if day not in _HANDED_IN:
        raise ValueError(f"no shared class of {day}: one of {DAYS}")
    _HANDED_IN[day][owner] = make


@dataclass(frozen=True)
class GradedClass:
    """The graded class: where it was graded, the command's output, and every record as written."""

    tmp: Path
    day: str
    stdout: str
    stderr: str
    records: dict[tuple[str, str], dict]  # (student, notebook) -> the record JSON

    @property
    def out(self) -> Path:
        return self.tmp / "out"

    @property
    def db_url(self) -> str:
        return f"sqlite:///{self.tmp / 'gb.db'}"

    def folder(self, owner: str) -> Path:
        """The folder ``owner``'s maker was given."""
        return self.tmp / "owners" / owner

    def student(self, owner: str, name: str) -> str:
        """The student's name in the shared class."""
        return f"{owner}{SEP}{name}"

    def of(self, owner: str) -> dict[str, dict[str, dict]]:
        """``owner``'s students: ``{student: {notebook: record}}``, by the names ``owner`` gave them."""
        prefix = owner + SEP
        mine: dict[str, dict[str, dict]] = {}
        for (student, notebook), record in self.records.items():
            if student.startswith(prefix):
                mine.setdefault(student[len(prefix):], {})[notebook] = record
        if not mine:
            raise LookupError(f"{owner} handed nothing in to the shared {self.day} class (tests/harness/shared_class.py)")
        return mine

    def scores(self, owner: str) -> dict[str, dict[str, tuple[float, float]]]:
        """``owner``'s gradebook scores, ``{student: {notebook: (score, max)}}``, by ``owner``'s names."""
        from tests.harness import grades

        prefix = owner + SEP
        table = grades.notebook_table(grades.read(self.db_url, self.day))
        return {s[len(prefix):]: v for s, v in table.items() if s.startswith(prefix)}


def grade(tmp: Path, day: str) -> GradedClass:
    """Grade every hand-in registered for ``day`` as one class: ``python -m grader grade DAY --workers 2 --quiet``."""
    if not _HANDED_IN.get(day):
        raise LookupError(f"no test module handed anything in to the shared {day} class")
    handed_in = {}
    for owner, make in sorted(_HANDED_IN[day].items()):
        folder = tmp / "owners" / owner
        folder.mkdir(parents=True)
        for student, notebooks in make(folder).items():
            handed_in[f"{owner}{SEP}{student}"] = notebooks
    write_class(tmp / "submitted", day, handed_in)
    proc = subprocess.run(
        [sys.executable, "-m", "grader", "grade", day, "--submissions", str(tmp / "submitted"), "--out",
         str(tmp / "out"), "--gradebook", f"sqlite:///{tmp / 'gb.db'}", "--workers", "2", "--quiet"],
        cwd=ROOT, capture_output=True, text=True, timeout=1800, env=dict(os.environ))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    results = tmp / "out" / "reports" / day / "results"
    records = {(p.parent.name, p.stem): json.loads(p.read_text()) for p in results.glob("*/*.json")}
    return GradedClass(tmp, day, proc.stdout, proc.stderr, records)
