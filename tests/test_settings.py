"""Settings defined once: the limits' defaults, the cell time-out, the environment variables."""

from __future__ import annotations

import dataclasses
import re

from grader import cli, jobs, sandbox, settings
from ptcourse import selfcheck
from tools.notebooks import ROOT

VARIABLE = re.compile(r"\b(PT(?:GRADE|COURSE)_[A-Z_]+)\b")


def test_every_environment_variable_is_listed_in_settings_and_the_readme():
    """Each PTGRADE_*/PTCOURSE_* name the code reads or sets is in settings.ENVIRONMENT and the README."""
    files = [*(ROOT / "grader").glob("*.py"), *(ROOT / "src" / "ptcourse").rglob("*.py"),
             *(ROOT / "tests" / "harness").glob("*.py"), ROOT / "tests" / "conftest.py", ROOT / "Makefile"]
    named = {m for f in files for m in VARIABLE.findall(f.read_text())}
    assert named - set(settings.ENVIRONMENT) == set()
    readme = (ROOT / "README.md").read_text()
    assert [v for v in settings.ENVIRONMENT if f"`{v}`" not in readme] == []


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
