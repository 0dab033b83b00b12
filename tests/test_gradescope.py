"""Gradescope: the autograder zip follows the platform's contract, and ``run_autograder``, run in
an emulated ``/autograder`` tree, writes a valid ``results.json`` with the grader's own scores.

The contract (gradescope-autograders.readthedocs.io, "Autograder Specifications"): ``setup.sh``
and ``run_autograder`` at the zip's root; the zip unpacked in ``/autograder/source``; the
submission in ``/autograder/submission``; ``/autograder/results/results.json`` written by
``run_autograder``. The emulation sets ``PTGRADE_GRADESCOPE_ROOT`` to a temporary tree and
``PTGRADE_GRADESCOPE_PYTHON`` to this interpreter (on Gradescope, setup.sh's ``.venv``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import nbformat
import pytest

from grader.records import CellResult, NotebookRecord
from grader.results import gradescope_zip
from grader.run import gradescope
from tests.harness import shared_class
from tools.classroom import solved, untouched
from tools.notebooks import ROOT

DAY, NB = "day1", "00_environment"

# The documented fields of results.json and of each test (Gradescope's "Output format").
TOP_FIELDS = {"score", "execution_time", "output", "output_format", "test_output_format", "test_name_format",
              "visibility", "stdout_visibility", "extra_data", "tests", "leaderboard"}
TEST_FIELDS = {"score", "max_score", "status", "name", "name_format", "number", "output", "output_format",
               "tags", "visibility", "extra_data"}
VISIBILITIES = {"visible", "hidden", "after_due_date", "after_published"}


def assert_valid_results(data: dict) -> None:
    """``data`` holds only documented fields, with the documented types and values."""
    assert set(data) <= TOP_FIELDS, set(data) - TOP_FIELDS
    assert isinstance(data["score"], (int, float))
    assert isinstance(data.get("output", ""), str)
    assert data.get("visibility", "visible") in VISIBILITIES
    assert data.get("stdout_visibility", "hidden") in VISIBILITIES
    for test in data["tests"]:
        assert set(test) <= TEST_FIELDS, set(test) - TEST_FIELDS
        assert isinstance(test["name"], str) and test["name"]
        assert isinstance(test["score"], (int, float)) and isinstance(test["max_score"], (int, float))
        assert 0 <= test["score"] <= test["max_score"]
        assert test["status"] in ("passed", "failed")
        assert test["visibility"] in VISIBILITIES
        assert isinstance(test["output"], str)
    assert data["score"] == pytest.approx(sum(t["score"] for t in data["tests"]))


def test_zip_has_the_contracts_layout(tmp_path):
    path = gradescope_zip.build(DAY, tmp_path)
    with zipfile.ZipFile(path) as zf:
        names = set(zf.namelist())
        modes = {i.filename: (i.external_attr >> 16) & 0o777 for i in zf.infolist()}
        reqs = zf.read("requirements.txt").decode()
        run = zf.read("run_autograder").decode()
    assert {"setup.sh", "run_autograder", "requirements.txt"} <= names  # at the root, not in a folder
    assert modes["setup.sh"] & 0o111 and modes["run_autograder"] & 0o111
    assert run.startswith("#!") and f"--day {DAY}" in run
    assert {"grader/run/gradescope.py", "grader/run/engine.py", "src/ptcourse/checks.py", "pyproject.toml"} <= names
    assert {f"solutions/{DAY}/{p.name}" for p in (ROOT / "solutions" / DAY).glob("*.ipynb")} <= names
    assert not any(n.startswith(("solutions/day2", "solutions/day3", "tests/")) for n in names)
    assert not any(n.endswith((".db", ".pyc")) or "__pycache__" in n or ".cache" in n for n in names)
    assert "torch==" in reqs and "nbgrader==" in reqs and "pytest" not in reqs and "playwright" not in reqs
    assert "jupyter_client==" in reqs and "-r " not in reqs  # the grader's pins too, as plain lines


def _record(notebook: str, cells: dict[str, tuple[float, float, str | None]], lang="en") -> NotebookRecord:
    return NotebookRecord(student="s", notebook=notebook, status="graded", lang=lang,
                          score=sum(c[0] for c in cells.values()), max_score=sum(c[1] for c in cells.values()),
                          cells={g: CellResult(s, m, text) for g, (s, m, text) in cells.items()})


def test_results_one_test_per_check_hidden_after_published_missing_zero():
    maxes = {"00_environment": {"a_visible": 1.0, "a_hidden": 2.0}, "01_tensors": {"b_visible": 1.0}}
    rec = _record("00_environment", {"a_visible": (1.0, 1.0, None), "a_hidden": (0.0, 2.0, "expected 3, got 4")})
    results = gradescope.to_results(DAY, [rec], maxes, {}, hidden={"a_hidden"}).to_json()
    assert_valid_results(results)
    tests = {t["extra_data"]["grade_id"]: t for t in results["tests"]}
    assert [t["number"] for t in results["tests"]] == ["1.1", "1.2", "2.1"]
    assert tests["a_visible"]["visibility"] == "visible" and tests["a_visible"]["status"] == "passed"
    assert tests["a_hidden"]["visibility"] == "after_published"
    assert tests["a_hidden"]["output"] == "expected 3, got 4" and tests["a_hidden"]["max_score"] == 2.0
    assert tests["b_visible"]["score"] == 0 and "01_tensors.ipynb" in tests["b_visible"]["output"]
    assert results["score"] == 1.0 and "1 / 2 points from the checks shown now" in results["output"]
    assert "/ 4" not in results["output"] and "/ 3" not in results["output"]  # no total that counts hidden points


def test_visible_output_never_tells_hidden_points():
    """Before publishing, the always-visible top-level output names no hidden check's points: the hidden
    check passed (2 points) must not change a single character of it."""
    maxes = {"00_environment": {"a_visible": 1.0, "a_hidden": 2.0}}
    outputs = []
    for hidden_score in (0.0, 2.0):
        rec = _record("00_environment", {"a_visible": (1.0, 1.0, None), "a_hidden": (hidden_score, 2.0, None)})
        results = gradescope.to_results(DAY, [rec], maxes, {}, hidden={"a_hidden"}).to_json()
        assert results["score"] == 1.0 + hidden_score  # Gradescope's own score: the whole grade
        visible = [t for t in results["tests"] if t["visibility"] == "visible"]
        outputs.append((results["output"], json.dumps(visible)))
    assert outputs[0] == outputs[1]
    assert "1 / 1" in outputs[0][0] and "3" not in outputs[0][0]
    without_hidden = gradescope.to_results(DAY, [_record("00_environment", {"a_visible": (1.0, 1.0, None)})],
                                           {"00_environment": {"a_visible": 1.0}}, {}, hidden=set()).to_json()
    assert without_hidden["output"].startswith(f"{DAY}: 1 / 1 points.")  # nothing hidden: the plain total


def test_hidden_checks_are_the_cells_with_hidden_tests(tmp_path):
    from ptcourse.nbmodel import nbgrader_meta, strip_hidden_tests

    # Every graded cell of day1 now has a hidden part (the second key's observations): take one away.
    nb = nbformat.read(str(ROOT / "solutions" / DAY / f"{NB}.ipynb"), as_version=4)
    for cell in nb.cells:
        if nbgrader_meta(cell).get("grade_id") == "env_pick_device_here":
            cell.source = strip_hidden_tests(cell.source)
    nbformat.write(nb, str(tmp_path / f"{NB}.ipynb"))
    hidden = gradescope.hidden_checks(tmp_path)
    assert "env_pick_device_priority" in hidden and "env_pick_device_here" not in hidden
    assert "env_pick_device_here" in gradescope.hidden_checks(ROOT / "solutions" / DAY)


def test_no_notebook_in_the_submission_still_writes_results(tmp_path, monkeypatch):
    (tmp_path / "submission").mkdir()
    (tmp_path / "submission" / "notes.txt").write_text("hello")
    monkeypatch.setenv(gradescope.ROOT_ENV, str(tmp_path))
    assert gradescope.main(["run", "--day", DAY]) == 0
    data = json.loads((tmp_path / "results" / "results.json").read_text())
    assert_valid_results(data)
    assert data["score"] == 0 and ".ipynb" in data["output"]
    assert "Traceback" not in data["output"] and str(tmp_path) not in json.dumps(data)


# -- slow: the contract emulated, against the class grader -------------------------------------
def _run_autograder(tree: Path, zip_path: Path, nb: nbformat.NotebookNode) -> dict:
    for part in ("source", "submission", "results"):
        (tree / part).mkdir(parents=True)
    with zipfile.ZipFile(zip_path) as zf:
        zf.extractall(tree / "source")
    nbformat.write(nb, str(tree / "submission" / f"{NB}.ipynb"))
    script = tree / "source" / "run_autograder"
    proc = subprocess.run(["bash", str(script)], cwd=tree, capture_output=True, text=True, timeout=900,
                          env={**os.environ, gradescope.ROOT_ENV: str(tree), "PTGRADE_GRADESCOPE_PYTHON": sys.executable})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return json.loads((tree / "results" / "results.json").read_text())


# ``python -m grader grade`` on the same two notebooks, in the shared Day 1 class (tests/harness/shared_class.py).
shared_class.hand_in("gradescope", lambda folder: {"solved": {NB: solved(DAY, NB)}, "blank": {NB: untouched(DAY, NB)}})


def _grader_cells(graded: shared_class.GradedClass) -> dict[str, dict[str, float]]:
    """The class grader's scores of the two notebooks: ``{student: {grade_id: score}}``."""
    out = graded.out
    assert "Similar answers" in (out / "reports" / DAY / "report.html").read_text()  # grader.results.similarity's section
    assert (out / "reports" / DAY / "similarity.html").is_file()
    found = {}
    for student, notebooks in graded.of("gradescope").items():
        rec = notebooks[NB]
        found[student] = {g: c["score"] for g, c in rec["cells"].items()}
    return found


@pytest.mark.slow
def test_run_autograder_in_an_emulated_tree_scores_like_the_grader(tmp_path, day1_class):
    zip_path = gradescope_zip.build(DAY, tmp_path / "zip")
    expected = _grader_cells(day1_class)
    for student, nb in (("solved", solved(DAY, NB)), ("blank", untouched(DAY, NB))):
        data = _run_autograder(tmp_path / f"autograder-{student}", zip_path, nb)
        assert_valid_results(data)
        mine = [t for t in data["tests"] if t["name"].startswith(NB + " · ")]
        assert {t["extra_data"]["grade_id"]: t["score"] for t in mine} == expected[student]
        hidden = gradescope.hidden_checks(ROOT / "solutions" / DAY)
        assert {t["extra_data"]["grade_id"] for t in mine if t["visibility"] == "after_published"} == (
            hidden & set(expected[student]))
        if student == "solved":
            assert all(t["status"] == "passed" for t in mine) and sum(t["score"] for t in mine) > 0
        else:
            assert sum(t["score"] for t in mine) == 0
            assert all(t["output"] and "Traceback" not in t["output"] for t in mine)
        text = json.dumps(data)
        assert str(tmp_path) not in text and "/autograder" not in text
        (tmp_path / f"results-{student}.json").write_text(json.dumps(data, indent=1, ensure_ascii=False))


def test_without_a_working_bubblewrap_it_grades_with_the_fallback_and_says_so(tmp_path, monkeypatch, capsys):
    seen = {}

    def fake_grade(root, day, limits, sandbox=True):
        seen["sandbox"] = sandbox
        return gradescope.GsResults(0.0, "", (), {})

    monkeypatch.setattr(gradescope, "bwrap_works", lambda: False)
    monkeypatch.setattr(gradescope, "grade", fake_grade)
    assert gradescope.main(["run", "--day", DAY, "--root", str(tmp_path)]) == 0
    assert seen["sandbox"] is False
    out = capsys.readouterr().out  # Gradescope keeps it in /autograder/results/stdout, for staff
    assert "bubblewrap cannot run in this container" in out
    assert "bubblewrap" not in (tmp_path / "results" / "results.json").read_text()  # not on the learner's page


def test_a_chinese_submission_gets_chinese_words():
    maxes = {"00_environment": {"env_pick_device_here": 1.0}, "01_tensors": {"tensors_make_grid_basic": 1.0}}
    rec = _record("00_environment", {"env_pick_device_here": (1.0, 1.0, None)}, lang="zh-CN")
    results = gradescope.to_results(DAY, [rec], maxes, {}, hidden=set()).to_json()
    assert_valid_results(results)
    assert "分" in results["output"].splitlines()[0]
    missing = results["tests"][1]
    assert "01_tensors.ipynb" in missing["output"] and "没有" in missing["output"]


def test_kernels_get_the_package_this_environment_imports():
    """A kernel imports ptcourse the way this environment maps it (an editable install), even when the
    grader itself runs on another copy (Gradescope's source folder): that copy's folder is put back
    in the jail too (the emulated tree under /tmp failed on a fresh clone without it)."""
    from grader.run import jobs

    put_back = jobs._put_back()
    for src in jobs._editable_sources("ptcourse"):
        assert str(src) in put_back
    assert jobs._editable_sources("no_such_package") == []


def test_a_notebook_of_any_letter_case_is_collected(tmp_path):
    """``01_tensors.IPYNB`` (a Windows upload) is a notebook, as the Canvas and Moodle readers take it."""
    sub = tmp_path / "submission"
    (sub / "work").mkdir(parents=True)
    (sub / "00_environment.IPYNB").write_text("{}")
    (sub / "work" / "01_tensors.Ipynb").write_text("{}")
    (sub / "notes.txt").write_text("x")
    found = gradescope.collect(sub, tmp_path / "inbox")
    assert sorted(p.name for p in found) == ["00_environment.IPYNB", "01_tensors.Ipynb"]
