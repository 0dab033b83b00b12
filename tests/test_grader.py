"""The class grader (``python -m grader``): fast checks of its parts, then whole classes graded.

The slow tests grade small classes of ``day1/00_environment`` (the cheapest notebook) through
the command line, as an instructor would: one class holds every failure mode the grader must
survive, and five of its students (solved, untouched, two mistakes, edited tests) are graded again by
sequential ``nbgrader autograde``: the scores are equal cell by cell.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import nbformat
import pytest

from grader.intake import repair, scan, submissions
from grader.jail import sandbox
from grader.records import CellResult, NotebookRecord
from grader.results import report
from grader.run import cli
from grader.run.jobs import error_text
from tools.bench_grading import compare_with_nbgrader, stderr_only_failures
from tools.classroom import mutated, solved, untouched, with_code, write_class
from tools.course import TempCourse
from tools.notebooks import ROOT, SOLUTIONS, exercises, nbgrader_meta, read

DAY, NB = "day1", "00_environment"
ISO = sandbox.probe()
NEEDS_BWRAP = pytest.mark.skipif(
    not ISO.bwrap and os.environ.get("CI") != "true",
    reason="bubblewrap is not installed (apt-get install bubblewrap); .ci/run installs it",
)


def masters():
    from grader.run.engine import masters_of

    return masters_of(ROOT / "solutions" / DAY)[0]


# -- fast: the parts ---------------------------------------------------------------------------
def test_help_lists_both_commands():
    """`python -m grader --help` documents grade and check."""
    text = cli.build_parser().format_help()
    assert "grade" in text and "check" in text


@pytest.mark.parametrize("text,expected", [("2G", 2 * 1024**3), ("512M", 512 * 1024**2), ("1000", 1000)])
def test_sizes(text, expected):
    assert cli.size(text) == expected


def test_scan_accepts_every_solution():
    """No solution notebook is flagged: the honesty scan has no false alarm on the course itself."""
    flagged = {}
    for path in sorted((ROOT / "solutions").glob("day*/*.ipynb")):
        found = scan.scan(nbformat.read(str(path), as_version=4))
        if found:
            flagged[path.name] = [str(f) for f in found]
    assert not flagged, f"solutions flagged for review: {flagged}"


@pytest.mark.parametrize("code,kind,words", [
    ("torch.allclose = lambda *a, **k: True", "tampering", "torch.allclose"),
    ("import torch.testing as tt\ntt.assert_close = print", "tampering", "torch.testing.assert_close"),
    ("from ptcourse import checks\nchecks.check_close = lambda *a: None", "tampering", "ptcourse.checks.check_close"),
    ("def check_shape(*args):\n    pass", "tampering", "check_shape"),
    ("AssertionError = Warning", "tampering", "AssertionError"),
    ("import builtins\nbuiltins.isinstance = lambda *a: True", "tampering", "builtins.isinstance"),
    ("setattr(torch, 'equal', lambda *a: True)", "tampering", "setattr"),
    ("get_ipython().set_custom_exc((Exception,), lambda *a, **k: None)", "tampering", "set_custom_exc"),
    ("import os\nGRADED = os.environ.get('NBGRADER_EXECUTION')", "grader-detection", "NBGRADER_EXECUTION"),
    ("open('../../solutions/day1/00_environment.ipynb')", "outside-access", "solutions"),
    ("import urllib.request\nurllib.request.urlopen('http://example.com')", "outside-access", "network"),
])
def test_scan_flags(code, kind, words):
    """Each way of cheating or escaping is flagged, with words that say what was seen."""
    nb = with_code(solved(DAY, NB), "env_pick_device", code)
    found = scan.scan(nb)
    assert any(f.kind == kind and words in f.detail for f in found), f"expected a {kind} finding about {words}, got {found}"


def test_scan_ignores_settings_notebooks_may_change():
    nb = with_code(solved(DAY, NB), "env_pick_device", "torch.backends.cudnn.benchmark = False")
    assert scan.scan(nb) == []


def test_invalid_json_is_explained(tmp_path):
    path = tmp_path / "alice.ipynb"
    path.write_text('{"cells": [')
    nb, error = submissions.read_notebook(path)
    assert nb is None and "not valid notebook JSON" in error and "line 1" in error


def test_flat_names_and_renames(tmp_path):
    """Platform exports are recognised by name or, failing that, by their cells."""
    nbformat.write(solved(DAY, NB), str(tmp_path / "alice.ipynb"))
    nbformat.write(untouched(DAY, NB), str(tmp_path / f"Bob Smith_{NB}.ipynb"))
    nbformat.write(untouched(DAY, "01_tensors"), str(tmp_path / "carol_00_environment.ipynb"))
    subs = {s.student: s for s in submissions.discover(tmp_path, DAY, masters())}
    assert set(subs) == {"alice", "Bob_Smith", "carol"}
    assert subs["alice"].notebook == NB and subs["Bob_Smith"].notebook == NB
    assert subs["carol"].notebook == "01_tensors"
    assert any("graded as 01_tensors.ipynb" in n for n in subs["carol"].notes)


def test_missing_test_cells_are_noted(tmp_path):
    nb = solved(DAY, NB)
    nb.cells = [c for c in nb.cells if nbgrader_meta(c).get("grade_id") != "env_diagnose_cases"]
    write_class(tmp_path, DAY, {"dave": {NB: nb}})
    (sub,) = submissions.discover(tmp_path, DAY, masters())
    fixed = repair.repair(sub.nb, masters()[sub.notebook])
    assert any("env_diagnose_cases" in n and "put back" in n for n in fixed.notes)


def test_error_text_keeps_the_plain_words():
    out = {"ename": "CheckFailed", "evalue": "`x` should have shape (64, 10), got (64, 1600)."}
    assert error_text(out) == out["evalue"]
    assert error_text({"ename": "NameError", "evalue": "name 'y' is not defined"}) == "NameError: name 'y' is not defined"


def test_feedback_page_hides_test_source():
    record = NotebookRecord(student="amy", day=DAY, notebook=NB, status="graded", score=1.0, max_score=2.0,
                            cells={"env_pick_device_here": CellResult(1.0, 1.0),
                                   "env_pick_device_priority": CellResult(0.0, 1.0, "should return 'cuda', got 'cpu'")})
    page = report.feedback_html(record, {})
    assert "should return &#39;cuda&#39;, got &#39;cpu&#39;" in page and "✘ failed" in page
    assert "BEGIN HIDDEN" not in page and "assert" not in page


def test_pages_escape_what_students_write():
    """A name or a message that holds markup is shown as text on the feedback page and the class
    report: the templates autoescape (grader/templates/), nothing is escaped by hand."""
    evil = "<script>alert(1)</script>"
    record = NotebookRecord(student=evil, day=DAY, notebook=NB, status="timeout", detail=evil, notes=(evil,),
                            findings=(evil,), score=0.0, max_score=1.0, feedback=f"{evil}.html",
                            cells={"env_pick_device_here": CellResult(0.0, 1.0, evil, "mistake")})
    pages = {"feedback": report.feedback_html(record, {}),
             "report": report.class_report_html(DAY, [record], ["env_pick_device_here"],
                                                report.ClassFacts(max_total=1.0, warnings=(evil,)))}
    for name, page in pages.items():
        assert "<script>" not in page, name
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page, name
        assert "<main>" in page and "</main>" in page, name


def test_jail_command_hides_and_confines():
    jail = sandbox.KernelJail(cwd="/w/cwd", runtime="/w/rt", hide=["/course", "/tmp"], read_only=["/course/.venv"],
                              bwrap="/usr/bin/bwrap", cgroup="/sys/fs/cgroup/memory/x")
    cmd = jail.wrap(["python", "-m", "ipykernel_launcher"])
    text = " ".join(cmd)
    for piece in ("--tmpfs /course", "--ro-bind /course/.venv", "--unshare-net", "--die-with-parent",
                  "--bind /w/cwd /w/cwd", "/sys/fs/cgroup/memory/x/cgroup.procs"):
        assert piece in text, f"{piece!r} missing from {text}"
    assert cmd[-3:] == ["python", "-m", "ipykernel_launcher"]


# -- slow: whole classes through the command line ----------------------------------------------
def grade(submitted: Path, out: Path, db: Path, *extra: str, check: bool = True,
          env: dict | None = None) -> subprocess.CompletedProcess:
    proc = subprocess.run(
        [sys.executable, "-m", "grader", "grade", DAY, "--submissions", str(submitted), "--out", str(out),
         "--gradebook", f"sqlite:///{db}", "--workers", "2", *extra],
        cwd=ROOT, capture_output=True, text=True, timeout=900, env={**os.environ, **(env or {})},
    )
    if check:
        assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc


def gradebook_scores(db: Path) -> dict:
    from tests.harness import grades

    return grades.cell_table(grades.read(f"sqlite:///{db}", DAY))


def records(out: Path) -> dict[str, dict]:
    return {p.parent.name: json.loads(p.read_text()) for p in (out / "reports" / DAY / "results").glob("*/*.json")}


def _sequential_class() -> dict:
    """The hostile class's students that sequential `nbgrader autograde` grades too
    (test_scores_equal_sequential_nbgrader): solved, untouched, two mistakes, edited tests."""
    return {"good": solved(DAY, NB), "untouched": untouched(DAY, NB), "mutant_1": mutated(DAY, NB, 1)[0],
            "mutant_6": mutated(DAY, NB, 6)[0], "edited": _edited_tests(), "warns": _warns()}


def _warns():
    """A correct answer that makes PyTorch print a UserWarning in the first test cell that calls it (an
    honest variant, tests/variants/day1/00_environment.py)."""
    from tools import variants

    source = SOLUTIONS / DAY / f"{NB}.ipynb"
    variant = next(v for v in variants.load(source) if v.kind == variants.Kind.WARNS and v.exercise == FUNC)
    exercise = next(e for e in exercises(read(source)) if e.grade_id == FUNC)
    nb = solved(DAY, NB)
    for cell in nb.cells:
        if nbgrader_meta(cell).get("grade_id") == FUNC:
            cell.source = variant.apply(exercise)
    return nb


@pytest.mark.slow
def test_scores_equal_sequential_nbgrader(hostile, tmp_path):
    """The parallel grader's gradebook equals plain `nbgrader autograde` on the same class, cell by cell.

    The parallel side is the hostile class's grading (its solved, untouched, two mutant and edited
    students, graded among the others); plain nbgrader grades those five notebooks again.
    """
    students = _sequential_class()
    course = TempCourse(tmp_path / "course")
    course.release(DAY)
    write_class(course.root / "submitted", DAY, {s: {NB: nb} for s, nb in students.items()})
    course.autograde(DAY)
    sequential = _cell_scores(course.root / "gradebook.db")

    parallel = {s: v for s, v in hostile["scores"].items() if s in students}
    same, stricter, not_failed = compare_with_nbgrader(sequential, parallel,
                                                       stderr_only_failures(course.root / "autograded", DAY))
    assert same and not stricter, f"parallel {parallel}\nsequential {sequential}"
    # the one deliberate difference here: the cells nbgrader fails for a warning on stderr score in full
    # (the copy-construct warning shows in each cell that calls pick_device() anew)
    assert not_failed == [f"warns {NB} env_pick_device_here", f"warns {NB} env_pick_device_priority"], not_failed
    totals = {s: sum(sum(c[0] for c in nb.values()) for nb in v.values()) for s, v in parallel.items()}
    assert totals["good"] == 8 and totals["warns"] == 8 and totals["untouched"] == 0 and 0 < totals["mutant_1"] < 8
    stderr = hostile["proc"].stderr
    assert "grading day1" in stderr and "mutant_6" in stderr, "no progress bar or per-student line"


def _cell_scores(db: Path) -> dict:
    from nbgrader.api import Gradebook

    from grader.grades.gradebook import COURSE_ID

    with Gradebook(f"sqlite:///{db}", COURSE_ID) as gb:
        return {sub.student.id: {nb.name: {g.name: (float(g.score), float(g.max_score)) for g in nb.grades}
                                 for nb in sub.notebooks} for sub in gb.assignment_submissions(DAY)}


def _edited_tests():
    """A wrong answer whose author also emptied one test cell and deleted another."""
    nb, _ = mutated(DAY, NB, 1)
    for cell in nb.cells:
        if nbgrader_meta(cell).get("grade_id") == "env_pick_device_here":
            cell.source = "pass"
    nb.cells = [c for c in nb.cells if nbgrader_meta(c).get("grade_id") != "env_pick_device_priority"]
    return nb


class Listener:
    """A TCP server on this machine's loopback that counts connections (for the network test)."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(5)
        self.sock.settimeout(0.5)
        self.port = self.sock.getsockname()[1]
        self.connections = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self):
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
                self.connections += 1
                conn.close()
            except OSError:
                continue

    def close(self):
        self.stop.set()
        self.thread.join()
        self.sock.close()


FUNC = "env_pick_device"  # exercise 1: its tests come first
LATER = "env_environment_report"  # exercise 2


def _hostile_class(folder: Path, port: int, db: Path) -> None:
    """One student per failure mode; ``good`` must keep full marks through all of them."""
    probe = (
        "import os as _os\n"
        "def _can_read(p):\n"
        "    try:\n        open(p, 'rb').read(10)\n        return True\n"
        "    except OSError:\n        return False\n"
        f"_targets = [{str(ROOT / 'solutions' / DAY / (NB + '.ipynb'))!r}, {str(db)!r}, "
        f"{str(folder / 'good' / DAY / (NB + '.ipynb'))!r}, '../../solutions/day1/00_environment.ipynb']\n"
        "print('LEAK' if any(_can_read(p) for p in _targets) else 'BLOCKED')\n"
    )
    network = (
        "import socket\n"
        "try:\n"
        f"    socket.create_connection(('127.0.0.1', {port}), timeout=2).close()\n    print('NET-OPEN')\n"
        "except OSError:\n    print('NET-BLOCKED')\n"
    )
    hang = ("def pick_device():\n    while True:\n        pass\n")
    stubborn = ("import time\nwhile True:\n    try:\n        time.sleep(100)\n    except KeyboardInterrupt:\n        pass\n")
    students = {
        **_sequential_class(),  # good, edited, and the untouched and mutant notebooks nbgrader grades too
        "loop": with_code(solved(DAY, NB), FUNC, hang),
        "stubborn": with_code(solved(DAY, NB), LATER, stubborn),
        "membomb": with_code(solved(DAY, NB), LATER, bomb(2**30)),
        # holds 0.92 GB of its 1 GB and then ignores the interrupt: however slowly the limit bites
        # (paging, a busy machine), the learner is told about memory, not a hang
        # (an interrupt that lands while the 0.92 GB are still being written retries them: on a busy
        # machine that takes longer than the 3 s cell limit)
        "hoarder": with_code(solved(DAY, NB), LATER, HOARDER),
        "spawner": with_code(solved(DAY, NB), LATER, spawner(HOSTILE_MARK)),
        "filler": with_code(solved(DAY, NB), LATER, FILLER),
        "osexit": with_code(solved(DAY, NB), LATER, "import os\nos._exit(1)\n"),
        "sysexit": with_code(solved(DAY, NB), FUNC, "import sys\nsys.exit(0)\n"),
        "flood": with_code(solved(DAY, NB), FUNC, "while True:\n    print('x' * 1000)\n"),
        "snoop": with_code(solved(DAY, NB), FUNC, probe),
        "net": with_code(solved(DAY, NB), FUNC, network),
        "tamper": with_code(solved(DAY, NB), FUNC, "torch.allclose = lambda *a, **k: True\n"),
        "good_zh": _in_chinese(solved(DAY, NB)),  # the same code as good and edited, in a Chinese copy
        "edited_zh": _in_chinese(_edited_tests()),
    }
    write_class(folder, DAY, {s: {NB: nb} for s, nb in students.items()})
    (folder / "broken" / DAY).mkdir(parents=True)
    (folder / "broken" / DAY / f"{NB}.ipynb").write_text('{"cells": [{"cell_type": "code", "sour')
    (folder / "renamed" / DAY).mkdir(parents=True)
    nbformat.write(solved(DAY, NB), str(folder / "renamed" / DAY / f"{NB}-Copy1.ipynb"))


def _in_chinese(nb):
    """The notebook as a Chinese copy records itself (``metadata.ptcourse.lang``)."""
    nb.metadata.setdefault("ptcourse", {})["lang"] = "zh-CN"
    return nb


FILLER = (  # writes files until stopped (at most 3 GB, so a broken limit cannot fill the machine's disk)
    "_chunk = b'x' * (32 * 2**20)\n"
    "with open('fill.bin', 'wb') as _f:\n    for _ in range(96):\n        _f.write(_chunk)\n        _f.flush()\n"
)
def spawner(mark: str) -> str:
    """A cell that starts processes until it cannot (a fork bomb, bounded so a broken limit cannot hurt
    the machine). Its children are ``sleep MARK``: found by that argument if any outlived the run.
    Each class uses a mark of its own: two classes are graded side by side in the test suite, and one's
    live children are not the other's leftovers."""
    return ("import subprocess\n_kids = []\n"
            "try:\n    for _ in range(1500):\n"
            f"        _kids.append(subprocess.Popen(['sleep', '{mark}']))\n"
            "except OSError:\n    pass\n"
            "print('SPAWNED', len(_kids))\n")


HOSTILE_MARK = "600.25"  # the hostile class's spawner; test_limits_without_some_cgroups uses its own


def spawned(record_cells_text: str) -> int | None:
    """How many processes the spawner says it started (None: its kernel was stopped first)."""
    import re

    found = re.search(r"SPAWNED (\d+)", record_cells_text)
    return int(found.group(1)) if found else None


def leftover_sleepers(mark: str) -> list[int]:
    import psutil

    return [p.pid for p in psutil.process_iter(["cmdline"]) if (p.info["cmdline"] or [])[-1:] == [mark]]


def check_spawner(rec: dict, printed_text: str, capped: bool, mark: str, interrupted: bool = False) -> None:
    """With a pids cgroup the spawner's starts fail at the cap and the notebook goes on; without,
    the watchdog stops its kernel and says why. Either way no child outlives the job.

    ``interrupted``: the spawner's cell was stopped by the cell time limit (a KeyboardInterrupt in
    its output). On a loaded machine the starts up to the cap can take longer than the hostile
    class's 3 s limit: the loop is then stopped by time before the cap, which is as good."""
    from grader.jail.sandbox import TASKS_PER_KERNEL

    if capped:
        count = spawned(printed_text)
        assert count is not None and count < TASKS_PER_KERNEL or count is None and interrupted, (count, rec["notes"])
        assert rec["cells"]["env_pick_device_here"]["score"] == 1
    else:
        assert any("too many processes" in n for n in rec["notes"]), rec["notes"]
    assert not leftover_sleepers(mark), "the spawner's processes outlived its job"


HOSTILE_LIMITS = ("--cell-timeout", "3", "--notebook-timeout", "120", "--memory", "1G", "--output-cap", "200K",
                  "--disk", "64M")


def bomb(floats: int) -> str:
    """A cell that allocates ``floats`` float32 numbers and keeps trying when interrupted: a busy
    machine can take longer than the cell limit to write them, and the limit under test must be the
    memory one, not the cell's time."""
    return (f"import torch\nwhile True:\n    try:\n        _big = torch.ones({floats})\n        break\n"
            "    except KeyboardInterrupt:\n        pass\n")


# Holds 0.92 GB of its 1 GB and then ignores every interrupt (also one landing mid-allocation).
HOARDER = ("import torch, time\n_kept = None\nwhile True:\n    try:\n        if _kept is None:\n"
           "            _kept = torch.ones(int(0.92 * 2**28))\n        time.sleep(100)\n"
           "    except KeyboardInterrupt:\n        pass\n")


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    from tests.harness import hygiene

    tmp = tmp_path_factory.mktemp("hostile")
    listener = Listener()
    private = hygiene.new_private_tmp()  # the grader's TMPDIR: what the hostile class leaves there is checked
    try:
        _hostile_class(tmp / "submitted", listener.port, tmp / "gb.db")
        proc = grade(tmp / "submitted", tmp / "out", tmp / "gb.db", *HOSTILE_LIMITS, env={"TMPDIR": str(private)})
    finally:
        listener.close()
    yield {"proc": proc, "out": tmp / "out", "db": tmp / "gb.db", "records": records(tmp / "out"),
           "scores": gradebook_scores(tmp / "gb.db"), "connections": listener.connections, "tmp": tmp,
           "private_tmp": private}
    shutil.rmtree(private, ignore_errors=True)


@pytest.mark.slow
def test_hostile_class_leaves_nothing_in_the_temporary_folder(hostile):
    """After the hostile class (bombs, floods, killed kernels), nothing of the grader's, the course's or
    torch's is left in the grader's temporary folder, and nothing it wrote is readable by another user."""
    from tests.harness import hygiene

    assert hygiene.leftovers(hostile["private_tmp"]) == [], hygiene.leftovers(hostile["private_tmp"])
    assert hygiene.readable_by_others(hostile["private_tmp"]) == []


def total(hostile, student):
    return sum(s for s, _ in hostile["scores"][student][NB].values())


def autograded_text(hostile, student) -> str:
    return (hostile["out"] / "autograded" / student / DAY / f"{NB}.ipynb").read_text()


def errors(hostile, student) -> str:
    """The names and messages of the errors the graded notebook's cells showed."""
    nb = nbformat.read(str(hostile["out"] / "autograded" / student / DAY / f"{NB}.ipynb"), as_version=4)
    return " ".join(f"{o.get('ename')}: {o.get('evalue')}" for c in nb.cells if c.cell_type == "code"
                    for o in c.outputs if o.get("output_type") == "error")


def printed(hostile, student) -> str:
    """Everything the graded notebook's cells printed (not their source)."""
    nb = nbformat.read(str(hostile["out"] / "autograded" / student / DAY / f"{NB}.ipynb"), as_version=4)
    return "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.outputs)


@pytest.mark.slow
def test_hostile_class_good_student_untouched(hostile):
    """Whatever the others did, the good student has full marks and the gradebook is sound."""
    assert total(hostile, "good") == 8
    con = sqlite3.connect(hostile["db"])
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    students = {r[0] for r in con.execute("SELECT id FROM student")}
    con.close()
    expected = {"good", "warns", "loop", "stubborn", "membomb", "hoarder", "spawner", "filler", "osexit", "sysexit", "flood", "snoop", "net", "tamper",
                "edited", "broken", "renamed", "untouched", "mutant_1", "mutant_6"}
    assert expected <= students, f"missing from the gradebook: {expected - students}"


@pytest.mark.slow
def test_hostile_warning_costs_nothing_and_is_shown(hostile):
    """A correct answer that makes PyTorch warn keeps full marks; the page shows the warning as a note."""
    assert total(hostile, "warns") == 8
    rec = hostile["records"]["warns"]
    note = [n for n in rec["notes"] if "To copy construct from a tensor" in n]
    assert note and "UserWarning" in note[0] and "costs no points" in note[0], rec["notes"]
    page = (hostile["out"] / "feedback" / "warns" / DAY / f"{NB}.html").read_text()
    assert "To copy construct from a tensor" in page.replace("&#39;", "'")
    assert "no message" not in page


@pytest.mark.slow
def test_hostile_invalid_json(hostile):
    rec = hostile["records"]["broken"]
    assert rec["status"] == "unreadable" and "not valid notebook JSON" in rec["detail"]
    assert total(hostile, "broken") == 0


@pytest.mark.slow
def test_hostile_renamed_notebook(hostile):
    rec = hostile["records"]["renamed"]
    assert total(hostile, "renamed") == 8 and any("graded as 00_environment.ipynb" in n for n in rec["notes"])


@pytest.mark.slow
def test_hostile_edited_and_deleted_tests_restored(hostile):
    """Emptied and deleted test cells are restored, so the wrong answer still loses its points."""
    rec = hostile["records"]["edited"]
    assert rec["cells"]["env_pick_device_priority"]["score"] == 0
    assert any("put back" in n for n in rec["notes"])


@pytest.mark.slow
def test_hostile_infinite_loop_hits_the_cell_limit(hostile):
    """An endless loop costs only the cells that call it; later exercises are still graded."""
    rec = hostile["records"]["loop"]
    assert rec["status"] == "graded"
    assert rec["cells"]["env_pick_device_here"]["score"] == 0
    assert "Timeout" in rec["cells"]["env_pick_device_here"]["message"]
    assert rec["cells"]["env_diagnose_cases"]["score"] == 1


@pytest.mark.slow
def test_hostile_cell_ignoring_interrupts(hostile):
    """A cell that swallows the time limit's interrupt: kernel stopped, earlier checks kept."""
    rec = hostile["records"]["stubborn"]
    assert rec["status"] == "graded" and any("ignored the time limit" in n for n in rec["notes"]), rec
    assert rec["cells"]["env_pick_device_here"]["score"] == 1 and rec["cells"]["env_diagnose_cases"]["score"] == 0


@pytest.mark.slow
def test_notebook_time_limit(tmp_path):
    """A notebook past its whole-notebook limit is stopped and reported; the class run goes on."""
    nb = with_code(solved(DAY, NB), FUNC, "import time\ntime.sleep(60)\n")
    write_class(tmp_path / "in", DAY, {"slow": {NB: nb}})
    grade(tmp_path / "in", tmp_path / "out", tmp_path / "gb.db", "--quiet", "--notebook-timeout", "3",
          "--cell-timeout", "120")
    rec = records(tmp_path / "out")["slow"]
    assert rec["status"] == "timeout" and "did not finish within 3 s" in rec["detail"]
    assert "stopped: time limit" in (tmp_path / "out" / "feedback" / "slow" / DAY / f"{NB}.html").read_text()


@pytest.mark.slow
@pytest.mark.parametrize(("student", "note", "message"), [
    ("membomb", "memory limit", "more than 1.0 GB of memory"),
    ("hoarder", "memory limit", "more than 1.0 GB of memory"),  # stuck at its limit: memory, not a hang
    ("filler", "disk limit", "more than 64 MB of files"),
])
def test_hostile_stopped_at_a_limit(hostile, student, note, message):
    """Past a limit the kernel is stopped: the note names the limit, the checks already passed keep
    their points and the later ones say why they were not run."""
    rec = hostile["records"][student]
    assert any(note in n for n in rec["notes"]), rec["notes"]
    assert rec["cells"]["env_pick_device_here"]["score"] == 1
    assert rec["cells"]["env_diagnose_cases"]["score"] == 0
    assert message in rec["cells"]["env_environment_report_keys"]["message"]


@pytest.mark.slow
def test_hostile_spawner(hostile):
    """A notebook starting processes in a loop is capped (or stopped), and none of them outlives it."""
    check_spawner(hostile["records"]["spawner"], printed(hostile, "spawner"), bool(sandbox.probe().pids), HOSTILE_MARK,
                  interrupted="KeyboardInterrupt" in errors(hostile, "spawner"))


@pytest.mark.slow
@pytest.mark.parametrize("layers", ["off", "memory"])
def test_limits_without_some_cgroups(tmp_path, layers):
    """Where no cgroup (or no pids cgroup) can be made, the polling watchdog stops a memory bomb
    and a process spawner, and says so."""
    if layers == "memory" and not sandbox.probe().cgroup:
        pytest.skip("this machine has no writable memory cgroup")
    mark = {"off": "600.5", "memory": "600.75"}[layers]  # its own: the hostile class may be spawning meanwhile
    students = {"spawner": {NB: with_code(solved(DAY, NB), LATER, spawner(mark))}}
    if layers == "off":  # with a memory cgroup, the hostile class's bomb shows the memory limit
        # 2.5 GB against the 2G limit: past it, and no more than that if the watchdog were broken
        students["bomb"] = {NB: with_code(solved(DAY, NB), LATER, bomb(int(2.5 * 2**28)))}
    write_class(tmp_path / "in", DAY, students)
    proc = grade(tmp_path / "in", tmp_path / "out", tmp_path / "gb.db", "--quiet", "--memory", "2G",
                 "--cell-timeout", "10", env={"PTGRADE_CGROUP": layers})
    assert ("no writable memory cgroup" in proc.stderr) == (layers == "off")
    recs = records(tmp_path / "out")
    if layers == "off":
        assert any("memory limit" in n for n in recs["bomb"]["notes"]), recs["bomb"]["notes"]
        assert recs["bomb"]["cells"]["env_pick_device_here"]["score"] == 1
    check_spawner(recs["spawner"], "", capped=False, mark=mark)


@pytest.mark.slow
def test_hostile_os_exit(hostile):
    rec = hostile["records"]["osexit"]
    assert any("crash or exit" in n for n in rec["notes"]), rec["notes"]
    assert rec["cells"]["env_pick_device_here"]["score"] == 1 and rec["cells"]["env_diagnose_cases"]["score"] == 0


@pytest.mark.slow
def test_hostile_sys_exit_is_just_an_error(hostile):
    assert total(hostile, "sysexit") == 8
    assert "SystemExit" in autograded_text(hostile, "sysexit")


@pytest.mark.slow
def test_hostile_print_flood_is_capped(hostile):
    rec = hostile["records"]["flood"]
    assert total(hostile, "flood") == 8
    assert (hostile["out"] / "autograded" / "flood" / DAY / f"{NB}.ipynb").stat().st_size < 400_000
    assert "the rest of its output was dropped" in autograded_text(hostile, "flood")
    assert rec["status"] == "graded"


@pytest.mark.slow
@NEEDS_BWRAP
def test_hostile_cannot_read_course_files(hostile):
    """Solutions, the gradebook and other students' work are invisible to student code, and flagged."""
    text = printed(hostile, "snoop")
    assert "BLOCKED" in text and "LEAK" not in text
    assert hostile["records"]["snoop"]["findings"], "reading course files was not flagged"


@pytest.mark.slow
@NEEDS_BWRAP
def test_hostile_network_is_cut(hostile):
    text = printed(hostile, "net")
    assert "NET-BLOCKED" in text and hostile["connections"] == 0
    assert any("network" in f for f in hostile["records"]["net"]["findings"])


@pytest.mark.slow
def test_hostile_tampering_flagged_for_review(hostile):
    rec = hostile["records"]["tamper"]
    assert any("torch.allclose" in f for f in rec["findings"])
    from grader.grades.gradebook import flagged

    assert ("tamper", NB) in flagged(f"sqlite:///{hostile['db']}", DAY)


@pytest.mark.slow
def test_hostile_reports(hostile):
    """grades.csv, the class report and a feedback page per student exist and say what happened."""
    out = hostile["out"]
    csv_text = (out / "reports" / DAY / "grades.csv").read_text()
    assert "good,day1,8" in csv_text and "stubborn" in csv_text
    page = (out / "reports" / DAY / "report.html").read_text()
    for words in ("Needs a human", "memory limit reached", "could not be read", "torch.allclose", "<img"):
        assert words in page, f"{words!r} missing from the class report"
    feedback = (out / "feedback" / "membomb" / DAY / f"{NB}.html").read_text()
    assert "memory" in feedback and "BEGIN HIDDEN" not in feedback


@pytest.mark.slow
def test_rerun_skips_resumes_and_keeps_manual_grades(hostile, tmp_path):
    """A second run grades nothing; a lost record is graded again; manual grades survive --regrade."""
    from nbgrader.api import Gradebook

    from grader.grades.gradebook import COURSE_ID

    db = hostile["db"]
    # an instructor's half point on a check the student failed; the student is regraded below
    failed = next(g for g, (score, _) in hostile["scores"]["mutant_1"][NB].items() if score == 0)
    with Gradebook(f"sqlite:///{db}", COURSE_ID) as gb:
        gb.find_grade(failed, NB, DAY, "mutant_1").manual_score = 0.5
        gb.db.commit()
    subs, out = hostile["tmp"] / "submitted", hostile["out"]
    for student in ("stubborn", "loop", "membomb", "osexit", "flood", "snoop", "net", "edited", "broken", "renamed"):
        (subs / student / DAY / f"{NB}.ipynb").unlink(missing_ok=True)
        (subs / student / DAY / f"{NB}-Copy1.ipynb").unlink(missing_ok=True)
    again = grade(subs, out, db, "--quiet", *HOSTILE_LIMITS, check=False)
    assert "graded 0 notebook(s)" in again.stdout, again.stdout
    # the notebooks taken out keep their earlier grades: named, and the run exits 1 for the instructor to decide
    assert again.returncode == 1 and f"stubborn/{NB}" in again.stderr and "graded by an earlier run" in again.stderr, (
        again.stderr)
    (out / "reports" / DAY / "results" / "good" / f"{NB}.json").unlink()
    resumed = grade(subs, out, db, "--quiet", *HOSTILE_LIMITS, check=False)
    assert "graded 1 notebook(s)" in resumed.stdout, resumed.stdout
    regraded = grade(subs, out, db, "--quiet", "--regrade", "--student", "mutant_1", *HOSTILE_LIMITS)
    assert "graded 1 notebook(s)" in regraded.stdout, regraded.stdout
    with Gradebook(f"sqlite:///{db}", COURSE_ID) as gb:
        assert gb.find_grade(failed, NB, DAY, "mutant_1").manual_score == 0.5


def test_flat_folder_is_graded(tmp_path, monkeypatch, capsys):
    """A flat platform export grades: each file's notebook is graded as its student's. The jobs are scored
    by tests/harness/fakes.py (no kernel), each hand-in's own share: a solved notebook's and a mistake's
    real scores are proved in kernels elsewhere (test_scores_equal_sequential_nbgrader, test_roundtrip.py)."""
    from tests.harness import fakes

    flat = tmp_path / "flat"
    flat.mkdir()
    nbformat.write(solved(DAY, NB), str(flat / "alice.ipynb"))
    nbformat.write(mutated(DAY, NB, 1)[0], str(flat / f"bob_{NB}.ipynb"))
    made = fakes.install(monkeypatch, fakes.keyed({"solved": (solved(DAY, NB), 1.0),
                                                   "mistake": (mutated(DAY, NB, 1)[0], 0.5)}))
    code = cli.main(["grade", DAY, "--submissions", str(flat), "--out", str(tmp_path / "out"),
                     "--gradebook", f"sqlite:///{tmp_path / 'gb.db'}", "--workers", "2", "--quiet"])
    assert code == 0, capsys.readouterr()
    assert sorted((spec.student, spec.notebook) for spec in made[0].specs) == [("alice", NB), ("bob", NB)]
    scores = gradebook_scores(tmp_path / "gb.db")
    assert sum(s for s, _ in scores["alice"][NB].values()) == 8
    assert sum(s for s, _ in scores["bob"][NB].values()) == 4


@pytest.mark.slow
def test_self_check(tmp_path):
    """`grader check` grades one learner notebook and prints feedback."""
    mine = tmp_path / "day1" / f"{NB}.ipynb"
    mine.parent.mkdir()
    nbformat.write(mutated(DAY, NB, 1)[0], str(mine))
    proc = subprocess.run([sys.executable, "-m", "grader", "check", str(mine)], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "/ 8 points" in proc.stdout and "✘" in proc.stdout and "feedback page:" in proc.stdout


@pytest.mark.slow
def test_template_built_by_two_runs_at_once(tmp_path, monkeypatch):
    """Two runs on a fresh course (no cached template yet) ask for the day's template at once: one
    builds it, the other waits for it (a clean clone's first two grader runs did collide on one
    temporary file)."""
    from concurrent.futures import ThreadPoolExecutor

    from grader.grades import gradebook
    from grader.grades.gradebook import build_template, notebook_names

    builds = []
    generate = gradebook._generate
    monkeypatch.setattr(gradebook, "_generate", lambda *a: builds.append(a) or generate(*a))

    source = tmp_path / "source" / DAY  # one notebook: the race is the same, the build quicker
    source.mkdir(parents=True)
    (source / f"{NB}.ipynb").write_bytes((ROOT / "solutions" / DAY / f"{NB}.ipynb").read_bytes())
    with ThreadPoolExecutor(2) as pool:
        built = list(pool.map(lambda _: build_template(DAY, source, tmp_path / "cache"), range(2)))
    assert built[0] == built[1] and built[0].exists()
    assert NB in notebook_names("sqlite:///" + str(built[0]), DAY)
    assert len(builds) == 1, f"built {len(builds)} times"
    left = sorted(p.name for p in (tmp_path / "cache").iterdir() if p.suffix != ".lock")
    assert left == [built[0].name], f"a temporary file was left: {left}"


def test_missing_isolation_is_said_out_loud():
    """Without bubblewrap or a cgroup the grader warns in plain words instead of staying silent."""
    iso = sandbox.Isolation(bwrap=None, cgroup=None, cgroup_base=None)
    text = " ".join(iso.warnings())
    assert "WITHOUT filesystem or network isolation" in text and "apt-get install bubblewrap" in text
    assert "memory" in text
    assert sandbox.Isolation(bwrap="/usr/bin/bwrap", cgroup="v1", cgroup_base=Path("/x")).warnings() == []


@pytest.mark.slow
def test_hostile_report_keeps_grader_stops_apart(hostile):
    """Time and memory limits and dead kernels are listed as the grader's stops, not as learning mistakes."""
    page = (hostile["out"] / "reports" / DAY / "report.html").read_text()
    mistakes = page.split("<h2>Most common mistakes</h2>")[1].split("<h2>Stopped by the grader</h2>")[0]
    stopped = page.split("<h2>Stopped by the grader</h2>")[1].split("<h2>")[0]
    for words in ("memory", "time limit", "kernel stopped", "Not run"):
        assert words not in mistakes, f"{words!r} is listed among the learning mistakes"
    for student in ("membomb", "osexit", "stubborn"):
        assert student in stopped, f"{student} missing from 'Stopped by the grader'"


@pytest.mark.slow
def test_hostile_pages_show_no_grader_internals(hostile):
    """No feedback page shows a traceback, a path of the grading machine or nbgrader's internals."""
    for page in (hostile["out"] / "feedback").rglob("*.html"):
        text = page.read_text()
        for bad in ("Traceback", "/tmp/ptg", str(ROOT), "site-packages", ".py\", line"):
            assert bad not in text, f"{page.relative_to(hostile['out'])} shows {bad!r}"


@pytest.mark.slow
def test_hostile_mixed_languages_same_scores_own_pages(hostile):
    """English and Chinese copies of the same code: the same score cell by cell; each kernel and
    feedback page speaks its notebook's language; the class report speaks --lang (en here, zh-CN below)."""
    from grader.results import report

    scores = hostile["scores"]
    assert scores["good_zh"][NB] == scores["good"][NB] and total(hostile, "good_zh") == 8
    assert scores["edited_zh"][NB] == scores["edited"][NB] and 0 < total(hostile, "edited_zh") < 8
    assert "✔ pick_device() 选择了" in printed(hostile, "good_zh"), "the kernel did not get PTCOURSE_LANG=zh-CN"
    assert "✔ pick_device() chose" in printed(hostile, "good")
    page = lambda student: (hostile["out"] / "feedback" / student / DAY / f"{NB}.html").read_text()  # noqa: E731
    for student in ("good_zh", "edited_zh"):
        zh = page(student)
        assert "lang='zh-CN'" in zh and f"{student} 的反馈" in zh and "练习 1" in zh and "检查" in zh, zh[:600]
        assert "Feedback for" not in zh and "what was wrong" not in zh
    assert "✘ 未通过" in page("edited_zh") and "✘ failed" in page("edited")
    assert "pick_device() 返回与这台机器相符的 torch.device。" in page("good_zh")  # the check's title
    en = page("good")
    assert "lang='en'" in en and "Feedback for" in en and "pick_device() returns a torch.device" in en
    class_page = (hostile["out"] / "reports" / DAY / "report.html").read_text()
    assert "lang='en'" in class_page and "Needs a human" in class_page
    records = [NotebookRecord.from_json(r) for r in hostile["records"].values()]
    chinese = report.class_report_html(DAY, records, [], report.ClassFacts(max_total=8), lang="zh-CN")
    assert "lang='zh-CN'" in chinese and "全班报告" in chinese and "需要人工处理" in chinese
