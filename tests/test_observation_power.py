"""tools/observation_power.py, the parts that need no kernel: what it runs of a test cell, and its list
of mutants that a cell rejects but does not observe (each must name a real mutant and an observing
cell of its exercise, so the list cannot go stale silently). The tool itself executes notebooks and
is run by hand (CONTRIBUTING.md, "How to add observations to a test cell")."""

from __future__ import annotations

import ast

import pytest

from tools import mutants as catalogue
from tools.notebooks import exercises, nb_key, read, solution_notebooks
from tools.observation_power import NOT_OBSERVED, Verdict, observation_part

NOTEBOOKS = solution_notebooks()


@pytest.mark.parametrize("path", NOTEBOOKS, ids=nb_key)
def test_observation_part_runs_alone(path):
    """The part the tool runs of each observing cell parses, and starts at its imports."""
    for exercise in exercises(read(path)):
        for test in exercise.tests:
            part = observation_part(test)
            if part is None:
                assert "observe(" not in test.source.split("### BEGIN HIDDEN TESTS")[-1], test.grade_id
                continue
            ast.parse(part)
            first = next(line for line in part.splitlines() if line.strip())
            assert first.startswith(("import ", "from ")), (test.grade_id, first)
            assert "observe(" in part, test.grade_id


def test_not_observed_names_real_mutants_and_cells():
    found = {}
    for path in NOTEBOOKS:
        for exercise in exercises(read(path)):
            found[exercise.grade_id] = (exercise, {m.name for m in catalogue.load(path) if m.exercise == exercise.grade_id})
    for (exercise_id, mutant, cell), why in NOT_OBSERVED.items():
        assert exercise_id in found, exercise_id
        exercise, names = found[exercise_id]
        assert mutant in names, f"{exercise_id}: no mutant {mutant!r}"
        tests = {t.grade_id: t for t in exercise.tests}
        assert cell in tests and observation_part(tests[cell]) is not None, f"{cell}: not an observing cell of {exercise_id}"
        assert why.strip(), (exercise_id, mutant)


def test_labels():
    def verdict(caught, differs, mutant="m"):
        return Verdict("ex", mutant, "cell", caught, "", differs)

    assert verdict(True, {"a": "differs", "b": "differs"}).label == "ok"
    assert verdict(True, {"a": "differs", "b": None}).label == "MISSED"
    assert verdict(False, {"a": None}).label == "-"
    assert verdict(False, {"a": "differs"}).label == "extra"
