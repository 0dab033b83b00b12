"""nbgrader round trip in a throw-away course: solutions get full marks, untouched copies zero,
and the committed student notebooks are exactly what ``nbgrader generate_assignment`` makes."""

from __future__ import annotations

import json

import pytest

from tests.harness.course import TempCourse, solved_notebooks
from tests.harness.notebooks import DAYS, ROOT, SOLUTIONS, read

DAYS_WITH_NOTEBOOKS = [d for d in DAYS if list((SOLUTIONS / d).glob("*.ipynb"))]


@pytest.fixture(scope="module", params=DAYS_WITH_NOTEBOOKS)
def graded(request, tmp_path_factory):
    """One course per day: release, submit a solved and an untouched copy, autograde."""
    day = request.param
    course = TempCourse(tmp_path_factory.mktemp(f"course-{day}"))
    release = course.release(day)
    course.submit("solved", day, solved_notebooks(release, day))
    course.submit("untouched", day, {p.name: read(p) for p in sorted(release.glob("*.ipynb"))})
    course.autograde(day)
    return day, course, release, course.scores(day)


@pytest.mark.slow
def test_release_matches_committed(graded):
    """The student notebooks in the repo equal a fresh generate_assignment of the sources."""
    day, _, release, _ = graded
    fresh = {p.name: json.loads(p.read_text()) for p in sorted(release.glob("*.ipynb"))}
    committed = {p.name: json.loads(p.read_text()) for p in sorted((ROOT / day).glob("*.ipynb"))}
    assert sorted(committed) == sorted(fresh), "run 'make release': the set of student notebooks differs"
    stale = [name for name in fresh if fresh[name] != committed[name]]
    assert not stale, f"run 'make release': {', '.join(stale)} out of date in {day}/"


@pytest.mark.slow
def test_solutions_score_full_marks(graded):
    day, _, _, scores = graded
    short = {nb: s for nb, s in scores["solved"].items() if s[0] != s[1] or s[1] == 0}
    assert not short, f"solved {day} notebooks below full marks (score, max): {short}"


@pytest.mark.slow
def test_untouched_notebooks_score_zero(graded):
    day, _, _, scores = graded
    nonzero = {nb: s for nb, s in scores["untouched"].items() if s[0] != 0}
    assert not nonzero, f"untouched {day} notebooks earn points for doing nothing (score, max): {nonzero}"
