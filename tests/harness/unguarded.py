"""What a hand-in earns with no guard and no second key: its notebook replayed in a live kernel as
nbgrader's autograde runs it, and scored by nbgrader's own rule.

tests/test_integrity.py shows that each cheat the guard or the second key stops would have earned points
without them. It used to grade the red team a second time through the class grader with both switched
off (``PTGRADE_GUARD=off PTGRADE_SECOND_KEY=off``); with both off that grader is nbgrader's autograde in a
jail, so the same verdict comes from a live kernel per hand-in, without a class grading's driver, fork
server, zygotes and reference run (issue 34):

* the graded and read-only cells are the course's (nbgrader's ``OverwriteCells``: the test cells with their
  hidden tests, whatever the hand-in did to them);
* every code cell runs in order in a fresh kernel in an empty folder, errors allowed (nbgrader's
  ``Execute``: nbclient, the library nbgrader runs notebooks with);
* each test cell scores what ``nbgrader.utils.determine_grade`` gives its outputs, without its stderr
  streams as the class grader judges (``grader.compat.warnings_never_fail``: a warning is no failure).
"""

from __future__ import annotations

import copy
import os
import tempfile

import nbformat
from jupyter_client.manager import KernelManager
from nbclient import NotebookClient
from nbgrader import utils

from ptcourse.nbmodel import nbgrader_meta, role


def _course_cells(source: nbformat.NotebookNode) -> dict[str, nbformat.NotebookNode]:
    """The cells nbgrader puts back from its gradebook, by grade id: the tests and the read-only cells."""
    return {nbgrader_meta(c)["grade_id"]: c for c in source.cells
            if role(c) in ("test", "locked") and nbgrader_meta(c).get("grade_id")}


def _score(cell: nbformat.NotebookNode) -> float:
    kept = [o for o in cell.get("outputs", []) if not (o.get("output_type") == "stream" and o.get("name") == "stderr")]
    score, _ = utils.determine_grade(nbformat.NotebookNode({**cell, "outputs": kept}))
    return float(score or 0)


def scores(handed_in: nbformat.NotebookNode, source: nbformat.NotebookNode, timeout: int = 120) -> dict:
    """``{"score": total, "cells": {grade_id: {"score": points}}}`` for each test cell with points, as a
    grade record's JSON holds them, for ``handed_in`` graded against the course notebook ``source``."""
    nb = copy.deepcopy(handed_in)
    course = _course_cells(source)
    for i, cell in enumerate(nb.cells):
        grade_id = nbgrader_meta(cell).get("grade_id")
        if grade_id in course:
            nb.cells[i] = copy.deepcopy(course[grade_id])
    with tempfile.TemporaryDirectory(prefix="ptg-unguarded-") as folder:
        os.mkdir(os.path.join(folder, "tmp"))
        os.mkdir(os.path.join(folder, "work"))
        # local IPC sockets, as tools/kernel.py's kernels: no TCP port, no "running over TCP" warning
        km = KernelManager(kernel_name="python3", transport="ipc", ip=os.path.join(folder, "k"))
        client = NotebookClient(nb, km=km, timeout=timeout, kernel_name="python3", allow_errors=True,
                                shutdown_kernel="immediate", resources={"metadata": {"path": os.path.join(folder, "work")}})
        try:
            client.execute(cleanup_kc=True, env={**os.environ, "TMPDIR": os.path.join(folder, "tmp")})
        finally:
            if km.has_kernel:
                km.shutdown_kernel(now=True)
    cells = {nbgrader_meta(c)["grade_id"]: {"score": _score(c)} for c in nb.cells
             if role(c) == "test" and nbgrader_meta(c).get("points")}
    return {"score": sum(c["score"] for c in cells.values()), "cells": cells}
