"""The test harness's stand-ins: the fake executor (tests/harness/fakes.py) and the shared Day 1 class
(tests/harness/shared_class.py) answer only what they know, and say so otherwise."""

from __future__ import annotations

import nbformat
import pytest

from grader.run import executors, jobs
from tests.harness import fakes, shared_class
from tools.classroom import mutated, solved, untouched

DAY, NB = "day1", "00_environment"
MAXES = {NB: {"env_pick_device_here": 1.0, "env_diagnose_cases": 2.0}}


def spec(nb, **kw) -> jobs.JobSpec:
    return jobs.JobSpec(day=DAY, student="ann", notebook=NB, nb_bytes=nbformat.writes(nb).encode(),
                        sources_digest="0" * 16, **kw)


def test_fake_executor_scores_from_its_table_and_refuses_what_it_does_not_know():
    table = fakes.keyed({"solved": (solved(DAY, NB), 1.0), "untouched": (untouched(DAY, NB), 0.0)})
    executor = fakes.FakeExecutor(table, MAXES)
    assert isinstance(executor, executors.Executor)  # behind the protocol the engine uses
    (_, full), (_, none) = executor.run([(0, spec(solved(DAY, NB))), (1, spec(untouched(DAY, NB)))])
    assert [(c.grade_id, c.score, c.max) for c in full.record.checks] == [
        ("env_pick_device_here", 1.0, 1.0), ("env_diagnose_cases", 2.0, 2.0)]
    assert [c.score for c in none.record.checks] == [0.0, 0.0] and full.status == jobs.Status.GRADED
    assert all(c.message and c.kind == "mistake" for c in none.record.checks)  # each lost point says why
    assert not any(c.message for c in full.record.checks)
    with pytest.raises(AssertionError, match="no row"):  # a hand-in the table does not know: never a guess
        list(executor.run([(2, spec(mutated(DAY, NB, 1)[0]))]))
    with pytest.raises(AssertionError, match="late penalty"):  # no fake late penalty
        list(executor.run([(3, spec(solved(DAY, NB), due="2027-01-15T23:59:00"))]))


def test_shared_class_gives_each_owner_its_own_students(tmp_path):
    graded = shared_class.GradedClass(tmp_path, DAY, "", "", {("a.solved", NB): {"score": 8}, ("b.solved", NB): {"score": 0},
                                                      ("a.blank", NB): {"score": 0}})
    assert graded.of("a") == {"solved": {NB: {"score": 8}}, "blank": {NB: {"score": 0}}}
    assert graded.student("b", "solved") == "b.solved"
    with pytest.raises(LookupError, match="handed nothing in"):
        graded.of("c")
    with pytest.raises(ValueError):
        shared_class.hand_in("a.b", lambda folder: {})
    with pytest.raises(ValueError):
        shared_class.hand_in("a", lambda folder: {}, day="day9")
