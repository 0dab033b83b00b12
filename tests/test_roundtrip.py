"""The round trip, one pass per day: release with ``nbgrader generate_assignment``, then grade a
solved copy of every notebook through the class grader, in its sandbox and with its integrity guard.

One grading proves three things at once: the committed student notebooks are what nbgrader makes,
solutions score full marks, and nothing the solutions do (Inductor, DataLoader workers, torchrun on
loopback, ONNX export, mocks of torch functions, torch's own lazy patches) is stopped by the jail or
flagged by the guard. That the class grader's scores equal plain ``nbgrader autograde``'s is proved
cell by cell in tests/test_grader.py. That an untouched copy earns nothing is proved per notebook in
its live kernel (tests/test_notebooks.py, test_untouched_copy_earns_nothing: every graded cell fails
on the released stubs), and through the class grader on day1/00 (tests/test_grader.py): grading
untouched copies here ran their worked examples in full (day3/03 and 06: about a minute each).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.harness import grades, redteam, shared_class
from tools.classroom import untouched, write_class
from tools.course import TempCourse, solved_notebooks
from tools.notebooks import DAYS, ROOT, SOLUTIONS

DAYS_WITH_NOTEBOOKS = [d for d in DAYS if list((SOLUTIONS / d).glob("*.ipynb"))]
# Day 3's cheapest notebooks, handed in by a cheat that neutralises the checks and forges the guard
# (Day 1 has the whole red team, tests/test_integrity.py; Day 2 tests/test_second_key.py).
FORGED = {"day3": ("01_devices", "02_mixed_precision")}


def _handed_in(tmp: Path, day: str) -> dict:
    """Release ``day`` in a course of its own under ``tmp``; a solved copy of each notebook (and the forged cheats)."""
    release = TempCourse(tmp / "course").release(day)
    solved = {p.removesuffix(".ipynb"): nb for p, nb in solved_notebooks(release, day).items()}
    handed_in = {"solved": solved}
    if day in FORGED:  # a notebook with no real work whose in-kernel checks and guard are both fooled
        handed_in["forged"] = {nb: redteam.hostile(untouched(day, nb), "gc_forged_guard") for nb in FORGED[day]}
    return handed_in


# Days 1 and 2 are graded in the day's shared class (tests/harness/shared_class.py), with the same options.
for _day in shared_class.DAYS:
    shared_class.hand_in("roundtrip", lambda folder, day=_day: _handed_in(folder, day), day=_day)


@pytest.fixture(scope="module", params=[pytest.param(d, marks=pytest.mark.shares(f"{d}_class"))
                                        if d in shared_class.DAYS else d for d in DAYS_WITH_NOTEBOOKS])
def graded(request, tmp_path_factory):
    """One course per day: release; grade a solved copy of each notebook in the jail."""
    day = request.param
    if day in shared_class.DAYS:
        shared = request.getfixturevalue(f"{day}_class")
        records = {(s, nb): r for s, notebooks in shared.of("roundtrip").items() for nb, r in notebooks.items()}
        return day, shared.folder("roundtrip") / "course" / day, shared.scores("roundtrip"), records
    tmp = tmp_path_factory.mktemp(f"course-{day}")
    handed_in = _handed_in(tmp, day)
    write_class(tmp / "in", day, handed_in)
    db = f"sqlite:///{tmp / 'gb.db'}"
    proc = subprocess.run(
        [sys.executable, "-m", "grader", "grade", day, "--submissions", str(tmp / "in"), "--out", str(tmp / "out"),
         "--gradebook", db, "--workers", "2", "--quiet"],
        cwd=ROOT, capture_output=True, text=True, timeout=1800,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    results = tmp / "out" / "reports" / day / "results"
    records = {(p.parent.name, p.stem): json.loads(p.read_text()) for p in results.glob("*/*.json")}
    return day, tmp / "course" / day, grades.notebook_table(grades.read(db, day)), records


@pytest.mark.slow
def test_release_matches_committed(graded):
    """The student notebooks in the repo equal a fresh generate_assignment of the sources."""
    day, release, _, _ = graded
    fresh = {p.name: json.loads(p.read_text()) for p in sorted(release.glob("*.ipynb"))}
    committed = {p.name: json.loads(p.read_text()) for p in sorted((ROOT / day).glob("*.ipynb"))}
    assert sorted(committed) == sorted(fresh), "run 'make release': the set of student notebooks differs"
    stale = [name for name in fresh if fresh[name] != committed[name]]
    assert not stale, f"run 'make release': {', '.join(stale)} out of date in {day}/"


@pytest.mark.slow
def test_solutions_score_full_marks(graded):
    """Every solved notebook, graded in the jail with the guard, earns every point."""
    day, release, scores, _ = graded
    solved = scores["solved"]
    assert sorted(solved) == sorted(p.stem for p in release.glob("*.ipynb")), f"not every {day} notebook was graded"
    short = {nb: s for nb, s in solved.items() if s[0] != s[1] or s[1] == 0}
    assert not short, f"solved {day} notebooks below full marks in the sandbox (score, max): {short}"


@pytest.mark.slow
def test_solutions_are_not_flagged(graded):
    """The guard is installed in every solved notebook and finds nothing to undo or report."""
    _, _, _, records = graded
    for (student, notebook), record in records.items():
        if student != "solved":
            continue
        guard = record["integrity"]
        assert guard.get("installed") and not guard.get("restored") and not guard.get("harmful"), (notebook, guard)
        assert not record["findings"], (notebook, record["findings"])
        assert record["status"] == "graded", (notebook, record["status"], record.get("detail"))


@pytest.mark.slow
def test_checks_fooled_in_the_kernel_earn_nothing(graded):
    """A cheat whose checks all pass in the kernel (no-op helpers, a forged guard) earns nothing: the
    second key fails each cell it fooled, with its plain message, and flags the notebook."""
    day = graded[0]
    if day not in FORGED:
        pytest.skip(f"{day}'s cheats are graded in tests/test_integrity.py and tests/test_second_key.py")
    for nb in FORGED[day]:
        record = graded[3][("forged", nb)]
        assert record["score"] == 0, {g: c["score"] for g, c in record["cells"].items()}
        disagreed = {d["grade_id"] for d in record["integrity"]["disagreed"]}
        assert disagreed, (nb, record["integrity"])
        for grade_id in disagreed:
            assert "fresh input" in record["cells"][grade_id]["message"], record["cells"][grade_id]
        assert any("second key" in f for f in record["findings"]), record["findings"]
