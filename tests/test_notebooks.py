"""Every source notebook runs clean, and every mutant of every exercise loses points.

A notebook is executed once in a fresh kernel (PyTorch deprecation warnings are errors there);
each mutant then replaces its exercise's solution cell in that same kernel, the exercise's
test cells run, and the original cell is restored (see DEVELOPERS notes on the test budget).
"""

from __future__ import annotations

import pytest

from tests.harness import mutants as mutant_catalogue
from tests.harness.executed import executed
from tests.harness.notebooks import exercises, nb_key, read, solution_notebooks

NOTEBOOKS = solution_notebooks()
CASES = [(p, m) for p in NOTEBOOKS for m in mutant_catalogue.load(p)]
MIN_MUTANTS = 3


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=nb_key)
def test_solution_runs_clean(path):
    """Top to bottom in a fresh kernel: no error, no warning printed."""
    run = executed(path)
    problems = [f"cell {i}: {r.message}\n{r.traceback[-1500:]}" for i, r in run.errors()]
    problems += [f"cell {i} printed a warning:\n{r.stderr[-800:]}"
                 for i, r in run.results.items() if "Warning" in r.stderr]
    assert not problems, "\n\n".join(problems)


@pytest.mark.slow
@pytest.mark.parametrize("path,mutant", CASES, ids=[f"{nb_key(p)}::{m.exercise}::{m.name}" for p, m in CASES])
def test_mutant_loses_points(path, mutant):
    """The mutant fails at least one graded cell of its exercise, with a message that names the mistake."""
    run = executed(path)
    assert not run.errors(), "the solution notebook itself fails; see test_solution_runs_clean"
    exercise = {e.grade_id: e for e in exercises(run.nb)}[mutant.exercise]
    kernel = run.kernel
    defined = kernel.run(mutant.apply(exercise))
    assert defined.ok, f"the mutant's own cell raised (not a plausible answer): {defined.message}"
    failures = []
    try:
        for test in exercise.tests:
            result = kernel.run(test.source)
            if not result.ok:
                failures.append((test, result))
    finally:
        restored = kernel.run(exercise.source)
        assert restored.ok, f"restoring {exercise.grade_id} failed: {restored.message}"
    lost = sum(t.points for t, _ in failures)
    assert lost > 0, f"mutant '{mutant.name}' passed every test of {exercise.grade_id}: the tests cannot catch it"
    messages = "\n".join(r.message for _, r in failures)
    assert mutant.matches(messages), (
        f"mutant '{mutant.name}' fails, but the feedback does not say why in plain words.\n"
        f"expected to match: {mutant.expect!r}\ngot:\n{messages}"
    )
    for test in exercise.tests:
        again = kernel.run(test.source)
        assert again.ok, f"after restoring the solution, {test.grade_id} fails: {again.message}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=nb_key)
def test_every_exercise_has_mutants(path):
    """At least three plausible wrong answers per graded exercise, each a real change."""
    found = {e.grade_id: e for e in exercises(read(path))}
    catalogue = mutant_catalogue.load(path)
    for m in catalogue:
        assert m.exercise in found, f"mutant '{m.name}' names unknown exercise {m.exercise!r}"
        m.apply(found[m.exercise])
    for grade_id, exercise in found.items():
        if exercise.points == 0:
            continue
        count = sum(m.exercise == grade_id for m in catalogue)
        assert count >= MIN_MUTANTS, f"{grade_id}: {count} mutants, want at least {MIN_MUTANTS}"
