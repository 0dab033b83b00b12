"""Plausible wrong answers ("mutants") and the machinery to prove the tests reject them.

Each notebook has a catalogue, ``tests/mutants/<day>/<notebook>.py``, defining ``MUTANTS``: a
list of :class:`Mutant`. A mutant names the exercise (the solution cell's ``grade_id``), a
change to its solution code, and words that the feedback must contain so the learner is told
what is wrong in plain words.
"""

from __future__ import annotations

import importlib.util
import re
from dataclasses import dataclass, field
from pathlib import Path

from tests.harness.notebooks import ROOT, Exercise, strip_solution_markers

CATALOGUES = ROOT / "tests" / "mutants"


@dataclass
class Mutant:
    """A wrong answer to one exercise.

    ``replace`` is a list of ``(old, new)`` edits applied in order to the solution source
    (each ``old`` must occur); ``code`` replaces the whole cell instead. ``expect`` is a
    regular expression (case-insensitive) that the failing test's message must match.
    """

    exercise: str
    name: str
    expect: str
    replace: list[tuple[str, str]] = field(default_factory=list)
    code: str | None = None

    def apply(self, exercise: Exercise) -> str:
        """The mutated cell source."""
        if self.code is not None:
            return self.code
        source = strip_solution_markers(exercise.source)
        for old, new in self.replace:
            if old not in source:
                raise ValueError(f"mutant {self.name!r}: {old!r} not found in {exercise.grade_id}")
            source = source.replace(old, new)
        if source == strip_solution_markers(exercise.source):
            raise ValueError(f"mutant {self.name!r} changes nothing")
        return source

    def matches(self, message: str) -> bool:
        return re.search(self.expect, message, re.I | re.S) is not None


def catalogue_path(notebook: Path) -> Path:
    return CATALOGUES / notebook.parent.name / f"{notebook.stem}.py"


def load(notebook: Path) -> list[Mutant]:
    """The mutants of one notebook (empty if it has no catalogue)."""
    path = catalogue_path(notebook)
    if not path.exists():
        return []
    spec = importlib.util.spec_from_file_location(f"mutants_{notebook.parent.name}_{notebook.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return list(module.MUTANTS)
