"""Honest variants (tools/variants.py, tests/variants/): correct answers written otherwise earn every point.

Fast: the catalogue holds at least 25 variants, on every day, of every kind (import styles, dtypes the
lesson allows, equivalent APIs, code that warns), and each applies to its exercise.
Slow, per notebook, in its live kernel (the one its mutant tests use: tests/harness/executed.py):
each variant in place, every test cell of its exercise runs whole, armed with a secret as the grader
arms it. No cell may fail (the kernel's verdict: an exception or a failed check; a warning is a note,
never a failure) and every observation must match the solution's (the second key's verdict,
``grader.judge.observations.judge``). A variant of the WARNS kind must really print a warning.
"""

from __future__ import annotations

from collections import Counter

import pytest

from grader.judge import observations as ob
from ptcourse.observe import MIME
from tests.harness.executed import executed
from tools import mutants
from tools import variants as catalogue
from tools.notebooks import exercises, nb_key, read, solution_notebooks

NOTEBOOKS = [p for p in solution_notebooks() if catalogue.load(p)]
SECRET = "variants-0"  # one secret: the same every run
MIN_VARIANTS = 25


def test_catalogue_covers_every_day_and_kind():
    found = [(p, v) for p in NOTEBOOKS for v in catalogue.load(p)]
    assert len(found) >= MIN_VARIANTS, f"{len(found)} honest variants, fewer than {MIN_VARIANTS}"
    assert {p.parent.name for p, _ in found} == {"day1", "day2", "day3"}
    kinds = Counter(v.kind for _, v in found)
    assert set(kinds) == set(catalogue.Kind), f"kinds without a variant: {set(catalogue.Kind) - set(kinds)}"
    names = Counter((p, v.exercise, v.name) for p, v in found)
    assert max(names.values()) == 1, "two variants of one exercise share a name"
    for path, variant in found:
        exercise = {e.grade_id: e for e in exercises(read(path))}.get(variant.exercise)
        assert exercise is not None, f"{nb_key(path)}: no exercise {variant.exercise!r}"
        variant.apply(exercise)  # raises when an edit does not apply, changes nothing or does not parse


def _armed(kernel, grade_id: str, source: str):
    """The whole test cell armed as the grader arms it: (its observations, the kernel's result)."""
    seed = ob.cell_seed(SECRET, grade_id)
    kernel.run(f"__import__('ptcourse.observe', fromlist=['arm']).arm('variants', {seed})")
    try:
        result = kernel.run(source)
    finally:
        kernel.run("__import__('ptcourse.observe', fromlist=['arm'])._armed.update(key=None)")
    observed = {}
    for message in result.outputs:
        payload = message["content"].get("data", {}).get(MIME)
        if isinstance(payload, dict):
            name = str(payload.get("name", ""))
            observed[name] = ({"kind": "other", "type": "observed twice"} if name in observed
                              else {k: v for k, v in payload.items() if k not in ("key", "name")})
    return observed, result


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=nb_key)
def test_honest_variants_earn_every_point(path):
    run = executed(path)
    if run.errors():
        pytest.skip("the solution notebook itself fails (tests/test_notebooks.py says why)")
    by_id = {e.grade_id: e for e in exercises(run.nb)}
    problems = []
    for exercise_id in dict.fromkeys(v.exercise for v in catalogue.load(path)):
        exercise = by_id[exercise_id]
        reference = {t.grade_id: _armed(run.kernel, t.grade_id, t.source)[0] for t in exercise.tests}
        for variant in [v for v in catalogue.load(path) if v.exercise == exercise_id]:
            run.kernel.run(exercise.source)  # the solution's helpers first, then the variant over it
            defined = run.kernel.run(variant.apply(exercise))
            label = f"{exercise_id}: {variant.name!r}"
            if not defined.ok:
                problems.append(f"{label}: its own cell raised {defined.message}")
                continue
            warned = "Warning" in defined.stderr
            for test in exercise.tests:
                observed, result = _armed(run.kernel, test.grade_id, test.source)
                warned = warned or "Warning" in result.stderr
                if not result.ok:
                    problems.append(f"{label}: {test.grade_id} fails in the kernel: {result.message[:300]}")
                elif (why := ob.judge(test.grade_id, reference[test.grade_id], observed)) is not None:
                    problems.append(f"{label}: {test.grade_id}: the second key disagrees: {why.detail[:300]}")
            if variant.kind == catalogue.Kind.WARNS and not warned:
                problems.append(f"{label}: a WARNS variant that printed no warning")
        problems += mutants.restore(run.kernel, exercise)
    assert not problems, "\n".join(problems)
