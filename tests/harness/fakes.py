"""A table-driven executor with no kernel, for tests of what comes after execution.

Tests of intake, the gradebook merge, ``grades.csv``, the LMS exports and the pages need scores, not
kernels: that a solved notebook scores full marks and an untouched one nothing is proved with real
kernels elsewhere (tests/test_roundtrip.py, tests/test_notebooks.py, tests/test_grader.py). This
executor stands behind the :class:`grader.run.executors.Executor` protocol and answers each job from a
table keyed by the hand-in's answers (its solution cells' sources): every check of a notebook whose
answers are a row's scores that row's share of its points. A hand-in the table does not know is an
error, never a guess. Each job's answer is what a real job sends back: a
:class:`grader.records.GradedNotebook` (:func:`graded`), the one record everything downstream reads.

Use :func:`install`: it puts the executor in place of the run's own (``engine.Grader.executor``) and
turns the second key off (its reference runs would start kernels).
"""

from __future__ import annotations

import json
from collections.abc import Hashable
from dataclasses import dataclass, field

import nbformat

from ptcourse.nbmodel import nbgrader_meta


def answers(nb: nbformat.NotebookNode) -> tuple[tuple[str, str], ...]:
    """A hand-in's answers: ``(grade_id, source)`` of each solution cell, as the table's key."""
    return tuple((nbgrader_meta(c).get("grade_id", ""), c.source.strip()) for c in nb.cells
                 if c.cell_type == "code" and nbgrader_meta(c).get("solution"))


@dataclass
class FakeExecutor:
    """Each job scored from ``table`` (answers -> share of every check's points, 0 to 1); ``maxes`` are the
    gradebook's ``{notebook: {grade_id: max}}``. ``specs`` keeps every job it was given."""

    table: dict[tuple, float]
    maxes: dict[str, dict[str, float]]
    specs: list = field(default_factory=list)
    name = "fake (tests/harness/fakes.py)"
    in_process = False

    def warm_up(self, items) -> None:
        pass

    def run(self, items):
        for key, spec in items:
            self.specs.append(spec)
            yield key, self.outcome(spec)

    def outcome(self, spec) -> object:
        from grader.run import jobs

        if spec.due:
            raise AssertionError("the fake executor computes no late penalty: grade late hand-ins with real jobs")
        found = answers(nbformat.reads(spec.nb_bytes.decode(), as_version=4))
        if found not in self.table:
            raise AssertionError(f"no row of the fake executor's table for {spec.student}'s {spec.notebook}")
        return jobs.JobOutcome(graded(self.maxes[spec.notebook], self.table[found]))

    def close(self) -> None:
        pass


def graded(maxes: dict[str, float], share: float, late_penalty: float | None = None):
    """A job's record as a real job writes it: every check ``share`` of its points (the rest lost by a
    mistake, in words), nbgrader's ``late_penalty``; sent through its JSON, as the job's file is."""
    from grader.records import CellKind, CheckResult, GradedNotebook, Status

    checks = tuple(CheckResult(share * m, m, grade_id=g, **({} if share >= 1 else {
        "message": "CheckFailed: not yet", "kind": CellKind.MISTAKE})) for g, m in maxes.items())
    record = GradedNotebook(Status.GRADED, checks=checks, late_penalty=late_penalty, cells_s=0.0)
    return GradedNotebook.from_json(json.loads(json.dumps(record.to_json())))


def install(monkeypatch, table: dict[tuple, float]) -> list[FakeExecutor]:
    """Grade with a :class:`FakeExecutor` of ``table`` (in-process runs: ``grader.run.cli.main``); the executors made."""
    from grader.grades import gradebook
    from grader.run import engine

    made: list[FakeExecutor] = []

    def executor(self, workers, work_root, hide) -> tuple[FakeExecutor, bool]:
        made.append(FakeExecutor(table, gradebook.max_scores(self.db_url, self.day)))
        return made[-1], False

    monkeypatch.setattr(engine.Grader, "executor", executor)
    monkeypatch.setenv("PTGRADE_SECOND_KEY", "off")
    return made


def keyed(rows: dict[Hashable, tuple[nbformat.NotebookNode, float]]) -> dict[tuple, float]:
    """A table from named rows ``{name: (notebook, share)}`` (the names are for the reader)."""
    return {answers(nb): share for nb, share in rows.values()}
