"""Every graded test cell of the course is judged in the grader's own process, or is listed, with the
reason, among the cells the grader flags for review.

A check that compares inside the learner's kernel only can be fooled from that kernel (a frame read,
a tensor subclass, a patched helper). So each graded test cell of a solution notebook observes the
answer's outputs on fresh inputs (``ptcourse.observe``), which the grader compares with the course's
solution (grader/judge/observations.py). Where no single reference output exists (the learner's own
optimizer, the model the learner trained), the cell observes the model's weights and the grader
evaluates the course's architecture on the course's digits itself (``grader.judge.model_checks.JUDGES``).
A cell the grader cannot judge in its own process at all is listed in ``grader.judge.model_checks.KERNEL_ONLY``
with its reason: the grader flags every notebook graded with it (tests/test_model_checks.py), and the
README's "Honest" section lists it. None is left.
"""

from __future__ import annotations

import pytest

from grader.judge.model_checks import JUDGES, KERNEL_ONLY, STATE_PREFIX
from ptcourse.nbmodel import role
from tools.notebooks import ROOT, read

IN_KERNEL_ONLY = KERNEL_ONLY  # grade_id -> why the grader cannot judge the cell itself (flagged)

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
    assert not set(IN_KERNEL_ONLY) & set(JUDGES)


def test_model_judged_cells_observe_the_weights():
    """A cell the grader judges from weights (grader/judge/model_checks.py) is a real graded cell whose hidden
    part observes ``state.*`` entries: without them the grader fails the cell, so they must be sent."""
    every = {}
    for path in SOLUTIONS:
        every.update(_test_cells(path))
    for grade_id in JUDGES:
        assert grade_id in every, f"{grade_id}: no such graded cell"
        hidden = every[grade_id].split("### BEGIN HIDDEN TESTS", 1)[-1]
        assert f'observe(f"{STATE_PREFIX}' in hidden and ".state_dict()" in hidden, grade_id
