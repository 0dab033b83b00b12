"""A hostile class, end to end (slow): payload bombs earn 0 on what they target and are flagged, the rest
of the class is graded as before, and the grader leaves nothing behind.

One small course of the test's own (tests/test_second_key.py's tensor exercise), graded by a driver
process whose temporary folder is the test's private one (the ``private_tmp`` fixture):

1. a first run is killed (SIGKILL to its whole process group) while it grades: what it left is private
   to the grading user;
2. a second run grades the class: an honest student, a leaky one (a notebook that leaves demo folders,
   a torch error file and a multiprocessing folder in its temporary folder), and one student per kind of
   payload bomb: a deeply nested output, huge metadata, an observation whose header claims a huge array,
   a deeply nested observation, too many observations;
3. afterwards nothing of the grader's, the course's or torch's is left in the temporary folder (the
   killed run's folders were swept at the second run's start), nor any zygote slot of the killed run.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import nbformat
import pytest

from tests.harness import hygiene
from tests.test_second_key import TENSOR_COURSE
from tools.classroom import write_class
from tools.notebooks import ROOT

DAY, NB = "day1", "00_scale"
HONEST = "def scale_rows(x):\n    return x / x.sum(dim=1, keepdim=True)\n"
FORGE = '''import base64, io
import numpy as np
import ptcourse.observe as _o
from IPython.display import publish_display_data


def _deep(n, leaf=0):
    value = leaf
    for _ in range(n):
        value = [value]
    return value


def _forge(name, **payload):
    publish_display_data({_o.MIME: {"key": _o._armed["key"], "name": name, **payload}})


def _huge_header():
    out = io.BytesIO()
    np.lib.format.write_array_header_1_0(out, {"descr": "<f8", "fortran_order": False, "shape": (10**6, 10**6)})
    return base64.b64encode(out.getvalue() + bytes(8)).decode()

'''
BOMBS = {
    "deep_output": "publish_display_data({'application/json': {'a': _deep(200)}})",
    "huge_metadata": "publish_display_data({'text/plain': 'x'}, metadata={'m': 'x' * (17 * 1024**2)})",
    # The forged observation alone reaches the grader: the check's own observe is disarmed.
    "npy_bomb": "_forge('scale_rows_fresh', kind='tensor', dtype='torch.float32', npy=_huge_header()); "
                "_o._armed['key'] = None",
    "deep_observation": "_forge('scale_rows_fresh', kind='json', value=_deep(50)); _o._armed['key'] = None",
    "many_observations": "[_forge(f'n{i}', kind='json', value=i) for i in range(300)]",
}
LEAKY = '''import multiprocessing.util, tempfile

demo = tempfile.mkdtemp(prefix="ptcourse-ckpt-")
tempfile.NamedTemporaryFile(prefix="pytorch-errorfile-", suffix=".pickle", delete=False).close()
multiprocessing.util.get_temp_dir()

''' + HONEST
DRIVER = """
import json, sys
from pathlib import Path
from grader.run import engine
tmp, scheduler = Path(sys.argv[1]), sys.argv[2] or None
summary = engine.grade_class(engine.Options(day="day1", submissions=tmp / "submitted", out=tmp / "out",
                                            db_url=f"sqlite:///{tmp / 'gb.db'}", source=tmp / "source" / "day1",
                                            workers=2, progress=False, scheduler=scheduler))
(tmp / "records.json").write_text(json.dumps({r.student: r.to_json() for r in summary.records}))
"""


def _bomb(code: str) -> str:
    return FORGE + "\n\ndef scale_rows(x):\n    " + code + "\n    return x / x.sum(dim=1, keepdim=True)\n"


def _class(tmp, answers: dict[str, str]) -> None:
    (tmp / "text.py").write_text(TENSOR_COURSE)
    source = tmp / "source" / DAY
    source.mkdir(parents=True)
    subprocess.run([sys.executable, str(ROOT / "tools" / "nbtext.py"), "to-notebook", str(tmp / "text.py"),
                    str(source / f"{NB}.ipynb")], check=True, cwd=ROOT)
    course = nbformat.read(str(source / f"{NB}.ipynb"), as_version=4)
    students = {}
    for student, answer in answers.items():
        nb = nbformat.from_dict(course)
        next(c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == "obs_scale").source = answer
        students[student] = {NB: nb}
    write_class(tmp / "submitted", DAY, students)


def _driver(tmp, env, scheduler: str = "") -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", DRIVER, str(tmp), scheduler], cwd=ROOT, env=env, start_new_session=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def _kill_while_grading(tmp, env, private_tmp) -> int:
    """Start a run and SIGKILL its process group once a job is under way; returns the driver's pid."""
    proc = _driver(tmp, env)
    deadline = time.monotonic() + 300
    while not any(private_tmp.glob("ptg-run-*/j-*/submitted")) and time.monotonic() < deadline:
        assert proc.poll() is None, proc.stdout.read()
        time.sleep(0.2)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    return proc.pid


@pytest.mark.slow
def test_a_hostile_class_is_graded_and_leaves_nothing_behind(tmp_path, private_tmp):
    _class(tmp_path, {"honest": HONEST, "leaky": LEAKY, **{name: _bomb(code) for name, code in BOMBS.items()}})
    env = {**os.environ, "TMPDIR": str(private_tmp)}
    killed = _kill_while_grading(tmp_path, env, private_tmp)
    left = hygiene.leftovers(private_tmp)
    assert any(name.startswith(f"ptg-run-{killed}-") for name in left), left
    assert hygiene.readable_by_others(private_tmp) == []  # what a killed run leaves is private

    proc = _driver(tmp_path, env)
    out, _ = proc.communicate(timeout=900)
    assert proc.returncode == 0, out
    records = json.loads((tmp_path / "records.json").read_text())

    full = {"obs_scale_shape": 1, "obs_scale_values": 2}
    for student in ("honest", "leaky"):
        assert {g: c["score"] for g, c in records[student]["cells"].items()} == full, records[student]
        assert not records[student]["findings"], records[student]["findings"]
    for student in BOMBS:
        rec = records[student]
        assert rec["status"] == "graded", rec
        assert rec["cells"]["obs_scale_values"]["score"] == 0, (student, rec["cells"])
        assert rec["findings"], (student, rec)
        message = rec["cells"]["obs_scale_values"]["message"]
        assert message and "Traceback" not in message and "{" not in message, (student, message)
    for student in ("deep_output", "huge_metadata"):  # refused before it was read: the cell's own message
        assert "MB" in records[student]["cells"]["obs_scale_values"]["message"]
    for student in ("npy_bomb", "deep_observation", "many_observations"):
        assert "did not read" in records[student]["cells"]["obs_scale_values"]["message"], records[student]
    # The killed run's folders were swept at this run's start, its zygote slots too; the fixture checks the rest.
    assert hygiene.zygote_slots_of({killed}) == []


@pytest.mark.slow
def test_a_dask_worker_killed_mid_job_leaves_nothing_behind(tmp_path, private_tmp):
    """``--scheduler local:2``: a worker SIGKILLed while it grades a student leaves its folder (the job's
    notebooks and gradebook) private, and the run sweeps it once its workers are gone; the job is graded
    elsewhere."""
    students = [f"s{i}" for i in range(4)]
    _class(tmp_path, dict.fromkeys(students, HONEST))
    env = {**os.environ, "TMPDIR": str(private_tmp), "PTGRADE_COURSE_SOURCES": str(tmp_path / "source")}
    proc = _driver(tmp_path, env, "local:2")
    deadline, killed = time.monotonic() + 600, None
    while killed is None and time.monotonic() < deadline and proc.poll() is None:
        jobs = [p for s in students for p in private_tmp.glob(f"ptg-*/j-*/submitted/{s}")]  # a worker's folder
        if jobs:
            killed = int(jobs[0].parents[2].name.split("-")[2])
            assert killed != proc.pid
            os.kill(killed, signal.SIGKILL)
        time.sleep(0.1)
    assert killed is not None, "no worker was seen grading a student"
    assert hygiene.readable_by_others(private_tmp) == []
    out, _ = proc.communicate(timeout=900)
    assert proc.returncode == 0, out
    records = json.loads((tmp_path / "records.json").read_text())
    assert {s: r["score"] for s, r in records.items()} == dict.fromkeys(students, 3), out
    assert hygiene.zygote_slots_of({killed}) == []
