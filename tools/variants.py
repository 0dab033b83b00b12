"""Honest variants: correct answers written another way, which must earn every point.

Each notebook may have a catalogue, ``tests/variants/<day>/<notebook>.py``, defining ``VARIANTS``: a
list of :class:`Variant`. A variant names the exercise (the solution cell's ``grade_id``), what sets
it apart (``kind``: another import style, a dtype the lesson allows, an equivalent API, or code that
warns) and its code: ``replace`` edits of the solution source, or ``code`` for the whole cell.

``tests/test_variants.py`` puts each variant in place in the notebook's live kernel (the one the
mutant tests use, tests/harness/executed.py) and runs every test cell of its exercise whole, armed as
the grader arms it: no cell may fail (the kernel's verdict; what a cell writes to stderr is a note,
never a failure, as in the grader) and every observation must match the solution's (the second
key's verdict, ``grader.judge.observations.judge``). The mutants are the other side of the same coin:
wrong answers that must lose points (tools/mutants.py).
"""

from __future__ import annotations

import ast
import importlib.util
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from tools.notebooks import ROOT, Exercise, strip_solution_markers

CATALOGUES = ROOT / "tests" / "variants"


class Kind(StrEnum):
    """What sets an honest variant apart from the solution."""

    IMPORT = "import"  # from torch import save, import torch.nn.functional as F, ...
    DTYPE = "dtype"  # a dtype the lesson allows (float32 counts, a float64 detour, long for int64)
    API = "api"  # an equivalent API: inference_mode for no_grad, view for reshape, optim built otherwise
    WARNS = "warns"  # correct, and PyTorch (or the code itself) prints a warning


@dataclass
class Variant:
    """A correct answer to one exercise, written otherwise than the solution."""

    exercise: str
    name: str
    kind: Kind
    replace: list[tuple[str, str]] = field(default_factory=list)
    code: str | None = None

    def apply(self, exercise: Exercise) -> str:
        """The variant's cell source."""
        if self.code is not None:
            source = self.code
        else:
            source = strip_solution_markers(exercise.source)
            for old, new in self.replace:
                if old not in source:
                    raise ValueError(f"variant {self.name!r}: {old!r} not found in {exercise.grade_id}")
                source = source.replace(old, new)
        if source.strip() == strip_solution_markers(exercise.source).strip():
            raise ValueError(f"variant {self.name!r} changes nothing")
        ast.parse(source)
        return source


def catalogue_path(notebook: Path) -> Path:
    return CATALOGUES / notebook.parent.name / f"{notebook.stem}.py"


def load(notebook: Path) -> list[Variant]:
    """The honest variants of one notebook (empty if it has no catalogue)."""
    path = catalogue_path(notebook)
    if not path.exists():
        return []
    spec = importlib.util.spec_from_file_location(f"variants_{notebook.parent.name}_{notebook.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return list(module.VARIANTS)
