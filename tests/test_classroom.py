"""A class, start to finish (README "Teaching a class"): late hand-ins, grade exports for Canvas
and Moodle, feedback back to students. The edition step is tests/test_edition.py.

Fast tests check each part against the sample files in ``tests/data/`` (each platform's
documented layout); one slow test grades a small class through the command line the way the
guide says, in nbgrader's layout with hand-in times, and one a flat folder as a learning
platform's download gives it.
"""

from __future__ import annotations

import csv
import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import nbformat
import pytest

from grader.grades import late
from grader.results import exports
from grader.run import cli
from tests.harness import fakes
from tools.classroom import solved, untouched, write_class
from tools.notebooks import ROOT

DATA = ROOT / "tests" / "data"
DAY, NB = "day1", "00_environment"
CANVAS_COLUMN = "Day 1: PyTorch's building blocks"


def rows(path: Path) -> list[list[str]]:
    with open(path, newline="", encoding="utf-8-sig") as f:
        return list(csv.reader(f))


# -- fast: the parts ---------------------------------------------------------------------------
def test_late_penalty_is_the_courses_policy():
    """10 % of the notebook's score per day or part of a day late, at most all of it."""
    policy = late.policy()
    assert (policy.per_day, policy.max_fraction) == (0.1, 1.0)
    assert policy.late_submission_penalty("a", 8.0, 0) is None
    assert policy.late_submission_penalty("a", 8.0, 60) == pytest.approx(0.8)
    assert policy.late_submission_penalty("a", 8.0, 86400 + 1) == pytest.approx(1.6)
    assert policy.late_submission_penalty("a", 8.0, 30 * 86400) == pytest.approx(8.0)
    assert late.parse_due("2027-01-15 23:59 UTC").isoformat() == "2027-01-15T23:59:00"
    with pytest.raises(ValueError, match="expected a date"):
        late.parse_due("next friday-ish")


def test_nbgrader_uses_the_course_penalty():
    """nbgrader's AssignLatePenalties is configured with the course's plugin."""
    from traitlets.config.loader import PyFileConfigLoader

    config = PyFileConfigLoader("nbgrader_config.py", path=str(ROOT / "grader")).load_config()
    assert config.AssignLatePenalties.plugin_class == "grader.grades.late.CoursePenalty"


GRADES = [exports.Grade("alice", 47, 47), exports.Grade("bob", 37.6, 47, 9.4), exports.Grade("Dan_Brown", 0, 47)]


def test_canvas_csv_has_canvas_import_layout(tmp_path):
    """Without a roster: Canvas's identity columns, one assignment column, the Points Possible row."""
    sample = rows(DATA / "canvas-gradebook-export.csv")
    out = tmp_path / "canvas.csv"
    exports.write_canvas(out, GRADES, CANVAS_COLUMN)
    got = rows(out)
    assert got[0][:5] == sample[0][:5] == exports.CANVAS_IDENTITY
    assert got[0][5] == CANVAS_COLUMN and len(got[0]) == 6
    assert got[1][0] == sample[1][0] and got[1][0].strip() == "Points Possible" and got[1][5] == "47"
    assert got[2] == ["alice", "", "", "alice", "", "47"] and got[3][-1] == "37.6"


def test_canvas_csv_with_roster_takes_ids_and_the_assignment_column(tmp_path):
    """With Canvas's export as roster: its ids, names and sections, and its 'Name (id)' column; a
    student the roster lacks is left out of the file (tests/test_platforms.py), never given a row."""
    out = tmp_path / "canvas.csv"
    matching = exports.write_canvas(out, GRADES, CANVAS_COLUMN, roster=DATA / "canvas-gradebook-export.csv")
    got = rows(out)
    assert got[0] == [*exports.CANVAS_IDENTITY, f"{CANVAS_COLUMN} (4711)"]
    assert got[2] == ["Smith, Alice", "10001", "S2027-001", "alice", "PyTorch in Three Days 2027", "47"]
    assert got[3][:2] == ["Jones, Bob", "10002"] and got[3][-1] == "37.6"
    assert [u.student for u in matching.unmatched] == ["Dan_Brown"] and got[4][:2] == ["Lee, Carol", "10003"]
    assert got[4][-1] == "" and len(got) == 5


def test_moodle_csv_has_moodle_import_layout(tmp_path):
    """Without a roster: Username and one grade column; with Moodle's export: its user fields."""
    out = tmp_path / "moodle.csv"
    exports.write_moodle(out, GRADES, CANVAS_COLUMN)
    assert rows(out)[:3] == [["Username", CANVAS_COLUMN], ["alice", "47"], ["bob", "37.6"]]
    sample = rows(DATA / "moodle-grades-export.csv")
    matching = exports.write_moodle(out, GRADES, CANVAS_COLUMN, roster=DATA / "moodle-grades-export.csv")
    got = rows(out)
    assert set(got[0][:4]) <= set(sample[0]) and got[0][:4] == exports.MOODLE_IDENTITY
    assert got[1] == ["Alice", "Smith", "S2027-001", "alice@example.edu", "47"]
    assert got[2][3] == "bob@example.edu" and [u.student for u in matching.unmatched] == ["Dan_Brown"]
    assert all(r[3] for r in got[1:]), "every row names a roster student"


def test_roster_matches_names_from_uploaded_file_names():
    """A platform's download names files after the student ('Alice Smith'): matched to 'Smith, Alice'."""
    from grader.lms import roster

    found = roster.match(["Alice_Smith", "carol_lee"], roster.load(DATA / "canvas-gradebook-export.csv")).found
    assert found["Alice_Smith"]["ID"] == "10001" and found["carol_lee"]["ID"] == "10003"


def test_feedback_zips_one_per_student(tmp_path):
    for student in ("alice", "bob"):
        page = tmp_path / "feedback" / student / DAY / f"{NB}.html"
        page.parent.mkdir(parents=True)
        page.write_text(f"<p>{student}</p>")
    (tmp_path / "feedback" / "self-check" / DAY).mkdir(parents=True)
    (tmp_path / "feedback" / "self-check" / DAY / "x.html").write_text("mine")
    zips = exports.feedback_zips(tmp_path, DAY)
    assert [z.name for z in zips] == ["alice.zip", "bob.zip"]
    with zipfile.ZipFile(zips[1]) as z:
        assert z.namelist() == [f"{DAY}/{NB}.html"] and z.read(f"{DAY}/{NB}.html") == b"<p>bob</p>"


def test_class_guide_names_working_commands():
    """Each step of the README's class guide names a command or flag that exists."""
    readme = (ROOT / "README.md").read_text()
    guide = readme[readme.index("## Teaching a class"):]
    guide = guide[: guide.index("\n## ", 5)]
    for words in ("make student-edition OUT=", "mybinder.org", "JupyterHub", "nbgrader collect",
                  "python -m grader grade day1 --submissions", "--feedback-zip", "nbgrader release_feedback",
                  "--export canvas", "--export moodle", "--due", "timestamp.txt", "--lms-roster"):
        assert words in guide, f"the class guide should say {words!r}"
    flags = cli.build_parser()._subparsers._group_actions[0].choices["grade"].format_help()
    for flag in ("--due", "--export", "--lms-roster", "--lms-column", "--feedback-zip"):
        assert flag in flags
    assert "student-edition:" in (ROOT / "Makefile").read_text()


# -- slow: a class graded as the guide says ----------------------------------------------------
def grade(*args: str) -> subprocess.CompletedProcess:
    proc = subprocess.run([sys.executable, "-m", "grader", "grade", DAY, "--workers", "2", "--quiet", *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc


@pytest.mark.slow
def test_class_with_late_hand_in_exports_and_feedback(tmp_path):
    """nbgrader layout with hand-in times: the late one loses 10 %/day, shown everywhere it counts."""
    subs = write_class(tmp_path / "submitted", DAY, {
        "alice": {NB: solved(DAY, NB)}, "bob": {NB: solved(DAY, NB)}, "carol.lee": {NB: untouched(DAY, NB)},
    })
    (subs / "alice" / DAY / "timestamp.txt").write_text("2026-01-15 20:00:00.000000 UTC")
    (subs / "bob" / DAY / "timestamp.txt").write_text("2026-01-17 08:00:00.000000 UTC")  # 32 h late: 2 days
    out, db = tmp_path / "out", tmp_path / "gradebook.db"
    proc = grade("--submissions", str(subs), "--out", str(out), "--gradebook", f"sqlite:///{db}",
                 "--due", "2026-01-15 23:59 UTC", "--export", "canvas", "--export", "moodle",
                 "--lms-roster", str(DATA / "canvas-gradebook-export.csv"), "--lms-column", CANVAS_COLUMN,
                 "--feedback-zip")
    assert "due:     2026-01-15 23:59 UTC" in proc.stdout, proc.stdout
    reports = out / "reports" / DAY
    table = {r["student"]: r for r in csv.DictReader(open(reports / "grades.csv"))}
    full = float(table["alice"]["total"])
    assert full > 0 and table["alice"]["late_penalty"] == "0" and float(table["alice"]["final_total"]) == full
    assert float(table["bob"]["total"]) == full
    assert float(table["bob"]["late_penalty"]) == pytest.approx(0.2 * full), table["bob"]
    assert float(table["bob"]["final_total"]) == pytest.approx(0.8 * full)
    canvas = {r[3]: r for r in rows(reports / "canvas.csv")[2:]}
    on_canvas = 47 / float(table["alice"]["max_total"])  # the roster's Points Possible: the grades are scaled to it
    assert canvas["bob"][1] == "10002" and float(canvas["bob"][5]) == pytest.approx(0.8 * full * on_canvas, abs=0.01)
    assert float(canvas["alice"][5]) == round(full * on_canvas, 2) and canvas["carol.lee"][5] == "0"
    assert rows(reports / "canvas.csv")[0][5] == f"{CANVAS_COLUMN} (4711)" and rows(reports / "canvas.csv")[1][5] == "47"
    assert "scaled to 47" in proc.stderr, proc.stderr
    moodle = rows(reports / "moodle.csv")  # no Moodle roster: the course's own points
    assert moodle[0] == ["Username", CANVAS_COLUMN] and float(moodle[2][1]) == pytest.approx(0.8 * full), moodle
    page = (reports / "report.html").read_text()
    assert "Late hand-ins" in page and "bob: −" in page
    feedback = (out / "feedback" / "bob" / DAY / f"{NB}.html").read_text()
    assert "Handed in late" in feedback and "BEGIN HIDDEN" not in feedback
    record = json.loads((reports / "results" / "bob" / f"{NB}.json").read_text())
    assert record["late_penalty"] == pytest.approx(0.2 * full)
    zips = sorted(p.name for p in (out / "feedback-zip" / DAY).glob("*.zip"))
    assert zips == ["alice.zip", "bob.zip", "carol.lee.zip"]
    from nbgrader.api import Gradebook

    from grader.grades.gradebook import COURSE_ID

    with Gradebook(f"sqlite:///{db}", COURSE_ID) as gb:  # Formgrader and `nbgrader export` see the same
        assert gb.find_assignment(DAY).duedate.isoformat() == "2026-01-15T23:59:00"
        assert gb.find_submission(DAY, "bob").late_submission_penalty == pytest.approx(0.2 * full)


def test_flat_download_from_a_platform_is_graded_and_exported(tmp_path, monkeypatch, capsys):
    """Hand-in by upload: a platform's download names files after students; graded and matched. The job is
    scored by tests/harness/fakes.py (no kernel): a solved notebook's real score is proved in test_roundtrip.py."""
    folder = tmp_path / "download"
    folder.mkdir()
    nbformat.write(solved(DAY, NB), str(folder / f"{NB} - Alice Smith.ipynb"))
    out, db = tmp_path / "out", tmp_path / "gradebook.db"
    fakes.install(monkeypatch, fakes.keyed({"solved": (solved(DAY, NB), 1.0)}))
    code = cli.main(["grade", DAY, "--workers", "2", "--quiet", "--submissions", str(folder), "--out", str(out),
                     "--gradebook", f"sqlite:///{db}", "--export", "canvas",
                     "--lms-roster", str(DATA / "canvas-gradebook-export.csv")])
    assert code == 0, capsys.readouterr()
    got = rows(out / "reports" / DAY / "canvas.csv")
    assert got[2][:2] == ["Smith, Alice", "10001"] and float(got[2][5]) > 0, got
    assert re.fullmatch(r"PyTorch in Three Days: day1", got[0][5])


def test_due_date_does_not_leak_into_a_new_gradebook(tmp_path):
    """A due date given once (--due) stays in that run's gradebook: the cached template every job
    copies holds none, and a later run with a new gradebook and no due date does not inherit it."""
    import sqlite3

    from grader.grades import gradebook

    due = late.parse_due("2027-01-15 23:59 UTC")
    assert late.apply_due(DAY, due, f"sqlite:///{tmp_path / 'a.db'}")[0] == due
    template = gradebook.build_template(DAY, ROOT / "solutions" / DAY, ROOT / "grader" / ".cache")
    with sqlite3.connect(str(template)) as db:
        assert db.execute("SELECT duedate FROM assignment").fetchall() == [(None,)], "the template holds no date"
    assert gradebook.read_due(f"sqlite:///{tmp_path / 'a.db'}", DAY) == "2027-01-15T23:59:00"
    copy = tmp_path / "job.db"  # what a job does with its private copy
    copy.write_bytes(template.read_bytes())
    gradebook.write_due(copy, DAY, "2027-01-15T23:59:00+01:00")
    assert gradebook.read_due(f"sqlite:///{copy}", DAY) == "2027-01-15T22:59:00"
    assert late.apply_due(DAY, None, f"sqlite:///{tmp_path / 'b.db'}") == (None, None)
    assert late.apply_due(DAY, None, f"sqlite:///{tmp_path / 'a.db'}") == (due, due), "a gradebook keeps its date"


@pytest.mark.slow
def test_nbgrader_exchange_round_trip(tmp_path):
    """On a JupyterHub: release, fetch, submit, collect, grade, release_feedback, fetch_feedback."""
    import os
    import shutil

    from grader.grades.gradebook import nbgrader_env
    from tools.course import TempCourse

    exchange, home = tmp_path / "exchange", tmp_path / "student"
    exchange.mkdir()
    home.mkdir()
    course = TempCourse(tmp_path / "course")
    shutil.copytree(ROOT / "solutions" / DAY, course.root / "source" / DAY)
    config = course.root / "nbgrader_config.py"
    config.write_text(config.read_text() + 'c.CourseDirectory.source_directory = "source"\n'
                      'c.CourseDirectory.release_directory = "release"\n' f"c.Exchange.root = {str(exchange)!r}\n")
    (home / "nbgrader_config.py").write_text("c = get_config()\nc.CourseDirectory.course_id = "
                                             f"'pytorch-in-three-days'\nc.Exchange.root = {str(exchange)!r}\n")
    course.nbgrader("generate_assignment", DAY, "--force")
    course.nbgrader("release_assignment", DAY, "--force")

    def student(*args: str) -> str:
        proc = subprocess.run([sys.executable, "-m", "nbgrader", *args, "--course", "pytorch-in-three-days"],
                              cwd=home, capture_output=True, text=True, env=nbgrader_env(), timeout=300)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        return proc.stdout + proc.stderr

    student("fetch_assignment", DAY)
    for other in (home / DAY).glob("*.ipynb"):  # this student hands in one notebook, solved
        other.unlink()
    nbformat.write(solved(DAY, NB), str(home / DAY / f"{NB}.ipynb"))
    student("submit", DAY)
    course.nbgrader("collect", DAY)
    me = next(p.name for p in (course.root / "submitted").iterdir())
    assert me == os.environ.get("USER", me)
    grade("--submissions", str(course.root / "submitted"), "--out", str(course.root),
          "--gradebook", f"sqlite:///{course.root / 'gradebook.db'}")
    course.nbgrader("release_feedback", DAY)
    assert "Fetched feedback" in student("fetch_feedback", DAY)
    pages = list((home / DAY / "feedback").glob(f"*/{NB}.html"))
    assert len(pages) == 1 and "8 / 8 points" in pages[0].read_text(), pages
