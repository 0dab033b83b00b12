"""Settings defined once: the limits' defaults, the cell time-out, the environment variables."""

from __future__ import annotations

import ast
import dataclasses
import json
import re

import pytest

from grader import settings
from grader.jail import sandbox
from grader.run import cli, jobs
from ptcourse import selfcheck
from ptcourse import settings as course_settings
from tools.notebooks import ROOT

VARIABLE = re.compile(r"\b(PT(?:GRADE|COURSE)_[A-Z_]+)\b")
LISTED = {**settings.ENVIRONMENT, **course_settings.ENVIRONMENT}


def test_every_environment_variable_is_listed_in_settings_and_the_readme():
    """Each PTGRADE_*/PTCOURSE_* name the code reads or sets is in grader.settings.ENVIRONMENT or
    ptcourse.settings.ENVIRONMENT, and in the README."""
    files = [*(ROOT / "grader").rglob("*.py"), *(ROOT / "src" / "ptcourse").rglob("*.py"), *(ROOT / "tools").glob("*.py"),
             *(ROOT / "tests" / "harness").glob("*.py"), ROOT / "tests" / "conftest.py", ROOT / "Makefile"]
    named = {m for f in files for m in VARIABLE.findall(f.read_text())}
    assert named - set(LISTED) == set()
    readme = (ROOT / "README.md").read_text()
    assert [v for v in LISTED if f"`{v}`" not in readme] == []


# -- read in one place -------------------------------------------------------------------------------
# Reads of os.environ outside the settings modules that are not settings, each with its reason.
# Copying the whole environment for a child process ({**os.environ, ...}, dict(os.environ)) is no read.
ALLOWED_READS = {
    ("grader/grades/gradebook.py", "os.environ.get('PATH', '')"): "PATH extended for nbgrader's child processes (alembic)",
}
SETTINGS_MODULES = ("grader/settings.py", "src/ptcourse/settings.py")
READ_CALLS = {"os.environ.get", "os.getenv", "os.environ.pop", "os.environ.setdefault", "environ.get", "getenv"}


def environment_reads(source: str) -> list[str]:
    """Each read of one variable from the environment in ``source``: ``os.environ.get(...)``,
    ``os.getenv(...)``, ``os.environ[...]`` (not an assignment), ``... in os.environ``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and ast.unparse(node.func) in READ_CALLS:
            found.append(ast.unparse(node))
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) and ast.unparse(node.value) in (
                "os.environ", "environ"):
            found.append(ast.unparse(node))
        elif isinstance(node, ast.Compare) and any(ast.unparse(c) in ("os.environ", "environ") for c in node.comparators):
            found.append(ast.unparse(node))
    return found


def test_the_environment_is_read_in_the_settings_modules_only():
    """grader/ and src/ptcourse/ read environment variables through grader.settings.environment() and
    ptcourse.settings.read() alone (typed, with their defaults, defined once)."""
    found = []
    for path in sorted([*(ROOT / "grader").rglob("*.py"), *(ROOT / "src" / "ptcourse").rglob("*.py")]):
        where = str(path.relative_to(ROOT))
        if where not in SETTINGS_MODULES:
            found += [f"{where}: {r}" for r in environment_reads(path.read_text()) if (where, r) not in ALLOWED_READS]
    assert not found, f"read these through grader/settings.py or src/ptcourse/settings.py: {found}"


def test_environment_reads_are_found():
    code = ("import os\nfrom os import environ\na = os.environ.get('A')\nb = os.getenv('B', '')\n"
            "c = os.environ['C']\nd = 'D' in os.environ\ne = environ.get('E')\n"
            "os.environ['F'] = '1'\nchild = {**os.environ, 'G': '1'}\nos.environ.update(child)\n")
    assert environment_reads(code) == ["os.environ.get('A')", "os.getenv('B', '')", "os.environ['C']",
                                       "'D' in os.environ", "environ.get('E')"]


@pytest.mark.parametrize("module", [settings, course_settings])
def test_every_setting_says_whether_it_changes_grades(module):
    record = settings.Environment if module is settings else course_settings.Settings
    for f in dataclasses.fields(record):
        assert isinstance(f.metadata.get("grades"), bool) and f.metadata.get("env") and f.metadata.get("doc"), f.name


def test_a_bad_value_names_its_variable():
    with pytest.raises(settings.SettingError, match="PTGRADE_CPUS='many'"):
        settings.environment({"PTGRADE_CPUS": "many"})
    with pytest.raises(settings.SettingError, match="PTGRADE_CGROUP='on'"):
        settings.environment({"PTGRADE_CGROUP": "on"})
    with pytest.raises(course_settings.SettingError, match="PTCOURSE_THREADS='x'"):
        course_settings.read({"PTCOURSE_THREADS": "x"})


def test_settings_read_as_before():
    """The values the code used to read by hand, and their defaults."""
    default, course = settings.environment({}), course_settings.read({})
    assert (default.gpu, default.guard, default.second_key, default.zygote, default.cgroup, default.keep) == (
        False, True, True, True, "all", False)
    assert (default.cpus, default.hide, default.jail) == (None, (), None)
    assert (course.lang, course.device, course.threads, course.mnist_root, course.memory_check) == (
        None, None, None, None, True)
    on = settings.environment({"PTGRADE_GPU": "1", "PTGRADE_GUARD": "off", "PTGRADE_SECOND_KEY": "off",
                               "PTGRADE_ZYGOTE": "off", "PTGRADE_KEEP": "yes", "PTGRADE_CPUS": "0",
                               "PTGRADE_HIDE": "/a:/b", "PTGRADE_CGROUP": "memory"})
    assert (on.gpu, on.guard, on.second_key, on.zygote, on.keep, on.cpus, on.hide, on.cgroup) == (
        True, False, False, False, True, 1, ("/a", "/b"), "memory")
    assert course_settings.read({"PTCOURSE_MEMORY_CHECK": "0", "PTCOURSE_THREADS": "3"}).memory_check is False


def test_limit_defaults_come_from_settings():
    args = cli.build_parser().parse_args(["grade", "day1"])
    assert cli._limits(args) == dataclasses.replace(jobs.Limits(), threads=0)
    limits, jail = jobs.Limits(), sandbox.KernelJail(cwd="c", runtime="r")
    assert (limits.cell_timeout, limits.notebook_timeout) == (settings.CELL_TIMEOUT_S, settings.NOTEBOOK_TIMEOUT_S)
    assert (jail.memory_bytes, jail.output_bytes, jail.disk_bytes) == (
        limits.memory_bytes, limits.output_bytes, limits.disk_bytes)


def test_one_cell_timeout_for_grader_self_check_and_student_edition():
    """The learner's package and the student edition cannot import the grader: they state the same
    number, checked here."""
    assert selfcheck.CELL_TIMEOUT == settings.CELL_TIMEOUT_S
    edition = (ROOT / "tools" / "edition-files" / "nbgrader_config.py").read_text()
    assert set(re.findall(r"timeout = (\d+)", edition)) == {str(settings.CELL_TIMEOUT_S)}


# -- the run's fingerprint ---------------------------------------------------------------------------
RECORDS = {"grader": settings.Environment, "course": course_settings.Settings}
CANDIDATES = ("off", "0", "1", "memory", "/elsewhere", "cuda", "2", "qps")  # raw values to try, in turn


def fields_of(grades: bool) -> list[tuple[str, str]]:
    return [(which, f.name) for which, record in RECORDS.items() for f in dataclasses.fields(record)
            if f.metadata["grades"] is grades]


def another_value(which: str, name: str):
    """A value of the setting other than its default, as its variable would give (the first
    candidate its parser takes)."""
    f = next(f for f in dataclasses.fields(RECORDS[which]) if f.name == name)
    for raw in CANDIDATES:
        try:
            value = f.metadata["parse"](raw)
        except ValueError:
            continue
        if value != f.default:
            return value
    raise AssertionError(f"{f.metadata['env']}: add a value it takes to CANDIDATES")


def run_fingerprints(tmp_path, which: str, name: str) -> tuple[str, str]:
    """The fingerprint of one hand-in under the default settings, and with ``name`` changed."""
    from grader.intake import submissions
    from grader.run import engine

    (tmp_path / "a.ipynb").write_text("{}")
    sub, template = submissions.Submission("amy", "01_tensors", tmp_path / "a.ipynb"), tmp_path / "template-x.db"
    opts = engine.Options(day="day1", submissions=tmp_path)
    base = {"grader": settings.environment({}), "course": course_settings.read({})}
    changed = {**base, which: dataclasses.replace(base[which], **{name: another_value(which, name)})}
    return tuple(engine.fingerprint(sub, template, engine.RunSettings.of(
        opts, "sources", None, grader_env=env["grader"], course_env=env["course"]).text()) for env in (base, changed))


@pytest.mark.parametrize(("which", "name"), fields_of(True))
def test_each_grade_changing_setting_changes_the_fingerprint(tmp_path, which, name):
    """A rerun with another value of a setting marked grades=True grades again (a setting added later
    is tested here without anyone listing it)."""
    before, after = run_fingerprints(tmp_path, which, name)
    assert before != after


@pytest.mark.parametrize(("which", "name"), fields_of(False))
def test_other_settings_leave_the_fingerprint(tmp_path, which, name):
    before, after = run_fingerprints(tmp_path, which, name)
    assert before == after


def test_the_guard_changes_grades():
    """The bug this fixed: PTGRADE_GUARD was left out of the fingerprint by a hand-kept list."""
    marked = {f.metadata["env"] for f in dataclasses.fields(settings.Environment) if f.metadata["grades"]}
    assert {"PTGRADE_GUARD", "PTGRADE_SECOND_KEY", "PTGRADE_GPU", "PTGRADE_CGROUP"} <= marked


def test_a_resume_after_a_guard_off_run_grades_again(tmp_path, monkeypatch):
    """A run with PTGRADE_GUARD=off leaves its records; the next run, with the guard, finds them out
    of date (and a second guard-off run finds them up to date): the engine's own resume check."""
    from grader.records import NotebookRecord, Status
    from grader.run import engine
    from tools.classroom import solved, write_class

    write_class(tmp_path / "in", "day1", {"amy": {"01_tensors": solved("day1", "01_tensors")}})
    opts = engine.Options(day="day1", submissions=tmp_path / "in", out=tmp_path / "out",
                          db_url=f"sqlite:///{tmp_path / 'gb.db'}", progress=False)

    def prepared():
        grader = engine.Grader(opts)
        (sub,) = grader.prepare()
        return grader, sub, engine.fingerprint(sub, grader.template, grader.settings)

    monkeypatch.setenv("PTGRADE_GUARD", "off")
    unguarded, sub, fp = prepared()
    path = unguarded.record_path(sub.student, sub.notebook)
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(NotebookRecord(sub.student, sub.notebook, Status.GRADED, fingerprint=fp).to_json()))
    assert unguarded.up_to_date(sub, fp)
    again, _, fp_again = prepared()
    assert again.up_to_date(sub, fp_again)  # guard off again: skipped, as before
    monkeypatch.delenv("PTGRADE_GUARD")
    guarded, sub, fp = prepared()
    assert not guarded.up_to_date(sub, fp)


def test_a_bad_value_stops_the_grader_in_plain_words(monkeypatch, capsys):
    monkeypatch.setenv("PTGRADE_CGROUP", "on")
    assert cli.main(["grade", "day1", "--submissions", "/nonexistent"]) == 2
    assert capsys.readouterr().err.startswith("error: PTGRADE_CGROUP='on': off: no cgroups")
