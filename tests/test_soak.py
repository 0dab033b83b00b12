"""The lost grade under load: a small class graded 20 times in a row under CPU pressure, nothing lost.

The stress test is marked ``soak`` (and ``slow``): it runs only when asked for, ``make stress`` or
``pytest -m soak tests/test_soak.py`` (12-15 minutes on two busy cores); ``make soak`` grades
a few hundred notebooks in one run. The checks it relies on are tested here on made-up records.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tools import soak


def _record(score: float, status: str = "graded", kind: str | None = None, findings=()) -> dict:
    return {"status": status, "score": score, "max_score": 8.0, "findings": list(findings),
            "instructor_detail": "nbgrader could not grade this notebook.",
            "cells": {"a": {"score": score, "kind": kind, "message": "stopped" if kind else None}}}


def test_lost_grades_names_each_kind_of_loss():
    kinds = {"ok": soak.HONEST, "lost": soak.HONEST, "stopped": soak.HONEST, "flagged": soak.HONEST,
             "low": soak.HONEST, "mutant": "mutant", "missing": soak.HONEST}
    records = {"ok": _record(8), "lost": _record(0, status="error"), "stopped": _record(0, kind="stopped"),
               "flagged": _record(8, findings=["tampering"]), "low": _record(6), "mutant": _record(3)}
    problems = soak.lost_grades(records, kinds, {"mutant": {"a": 5.0}})
    assert [p.split(":")[0] for p in problems] == ["missing", "flagged", "lost", "low", "mutant", "stopped"]
    assert soak.lost_grades({"ok": _record(8), "mutant": _record(5)}, {"ok": soak.HONEST, "mutant": "mutant"},
                            {"mutant": {"a": 5.0}}) == []


def test_memory_growth_is_measured_while_grading():
    """Start-up (imports) and the final report are left out; growth in between is measured."""
    proc = subprocess.Popen(["true"])
    proc.wait()
    mb = 2**20
    flat = soak.Driver(Path("."), proc, rss=[50 * mb] * 10 + [100 * mb] * 20 + [160 * mb] * 4)
    growing = soak.Driver(Path("."), proc, rss=[50 * mb] * 10 + [100 * mb] * 10 + [200 * mb] * 10 + [200 * mb] * 4)
    assert soak.memory_growth(flat) == 0 and soak.memory_growth(growing) == 100


@pytest.mark.slow
@pytest.mark.soak
def test_twenty_runs_under_cpu_pressure():
    """Two grading processes side by side, two jobs each, two busy loops: 20 runs, no lost grade, no
    leftover process, folder or cgroup, flat driver memory."""
    reports = soak.soak(soak.SoakConfig(runs=20, students=6, concurrent=2, workers=2, hogs=2))
    assert [r for r in reports if r.problems] == []
