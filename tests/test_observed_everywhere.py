"""Every graded test cell of the course gives the grader its second key, or says why it cannot.

A check that compares inside the learner's kernel only can be fooled from that kernel (a frame read,
a tensor subclass, a patched helper). So each graded test cell of a solution notebook observes the
answer's outputs on fresh inputs (``ptcourse.observe``), unless it is listed in ``IN_KERNEL_ONLY``
with the reason no reference output can judge it: the learner's own choice, where many answers are
right and each gives other values. Behaviour checks (call order, a mode, a device move) observe their
consequences on fresh inputs. The cells listed rely on the guard alone, as the README's "Honest"
section says.
"""

from __future__ import annotations

import pytest

from ptcourse.nbmodel import role
from tools.notebooks import ROOT, read

# grade_id -> why the cell's check stays in the kernel (under the guard).
IN_KERNEL_ONLY: dict[str, str] = {
    "cnn_make_optimizer_learns": "the learner's own optimizer and schedule: many are right, each gives "
                                 "other losses, so no single reference output exists",
    "cnn_trained_accuracy": "the accuracy of the model the learner trained above, whatever its "
                            "architecture and run: no reference output to compare with",
}

SOLUTIONS = sorted(p for p in (ROOT / "solutions").glob("day*/*.ipynb"))


def _test_cells(path):
    return {c.metadata["nbgrader"]["grade_id"]: c.source for c in read(path).cells
            if role(c) == "test" and c.metadata.get("nbgrader", {}).get("points")}


@pytest.mark.parametrize("path", SOLUTIONS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_each_graded_cell_observes_or_says_why_not(path):
    name = f"{path.parent.name}/{path.stem}"
    cells = _test_cells(path)
    unobserved = {g for g, src in cells.items() if "observe(" not in src}
    unexplained = unobserved - set(IN_KERNEL_ONLY)
    assert not unexplained, f"{name}: these cells neither observe nor say why not: {sorted(unexplained)}"
    stale = {g for g in cells if g in IN_KERNEL_ONLY} - unobserved
    assert not stale, f"{name}: these cells observe now, take them off IN_KERNEL_ONLY: {sorted(stale)}"


def test_every_exemption_names_a_real_cell():
    every = set().union(*(_test_cells(p) for p in SOLUTIONS))
    assert set(IN_KERNEL_ONLY) <= every, sorted(set(IN_KERNEL_ONLY) - every)
    assert all(reason.strip() for reason in IN_KERNEL_ONLY.values())
