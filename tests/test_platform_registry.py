"""Each learning platform is one object behind one interface (grader/lms/platform.py), listed once in
grader/lms/registry.py: the command line's choices, the download's reading and the grade files all ask it,
so a new platform is one module plus its tests."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from grader.lms import canvas, lms_files, moodle, registry
from grader.lms.platform import LearningPlatform
from grader.lms.platforms import Handin, Platform
from grader.lms.roster import RosterKind
from grader.run import cli

GRADES = [lms_files.Grade("smithalice_10001", 30, 47)]


def test_the_registry_lists_each_platform_once():
    assert registry.names() == ["canvas", "moodle"]
    assert [p.name for p in registry.PLATFORMS] == ["moodle", "canvas"]  # Moodle's paths are tried first
    assert registry.get("canvas") is canvas.CANVAS and registry.get("moodle") is moodle.MOODLE
    assert {p.key for p in registry.PLATFORMS} == set(Platform)


def test_an_unknown_platform_is_named_in_plain_words():
    with pytest.raises(ValueError, match="no learning platform is called 'blackboard'.*canvas, moodle"):
        registry.get("blackboard")


def test_every_roster_kind_belongs_to_a_platform():
    assert {kind for p in registry.PLATFORMS for kind in p.roster_kinds} == set(RosterKind)
    assert canvas.CANVAS.roster_kinds == (RosterKind.CANVAS,)


def test_the_command_line_offers_the_registry(monkeypatch):
    args = cli.build_parser().parse_args(["grade", "day1", "--export", "canvas", "--export", "moodle"])
    assert args.export == ["canvas", "moodle"]
    with pytest.raises(SystemExit):
        cli.build_parser().parse_args(["grade", "day1", "--export", "blackboard"])
    monkeypatch.setattr(registry, "PLATFORMS", (*registry.PLATFORMS, Toy()))
    assert cli.build_parser().parse_args(["grade", "day1", "--export", "toy"]).export == ["toy"]


@pytest.mark.parametrize(("path", "platform"), [
    ("smithalice_10001_5551_01_tensors.ipynb", "canvas"),
    ("anon_a1b2_5551_01_tensors.ipynb", "canvas"),
    ("Bob Jones_123457_assignsubmission_file/01_tensors.ipynb", "moodle"),
    ("Bob Jones_123457_assignsubmission_file_01_tensors.ipynb", "moodle"),
    ("Bob Jones_123457_assignsubmission_file_\\01_tensors.ipynb", "moodle"),
])
def test_each_path_is_read_by_its_own_platform(path, platform):
    handin = registry.parse(path)
    assert handin is not None and handin.platform.value == platform
    assert registry.get(platform).parse(path.replace("\\", "/")) == handin
    other = next(p for p in registry.PLATFORMS if p.name != platform)
    assert other.parse(path.replace("\\", "/")) is None


def test_a_canvas_name_in_a_folder_is_nobodys():
    assert canvas.CANVAS.parse("folder/smithalice_10001_5551_01_tensors.ipynb") is None
    assert registry.parse("folder/smithalice_10001_5551_01_tensors.ipynb") is None


def test_names_a_student_asks_every_platform():
    assert canvas.CANVAS.names_a_student("smithalice_10001_5551_x.ipynb")
    assert not moodle.MOODLE.names_a_student("smithalice_10001_5551_x.ipynb")
    assert moodle.MOODLE.names_a_student("Bob Jones_123457_assignsubmission_file")
    assert registry.names_a_student("Bob Jones_123457_assignsubmission_file")
    assert not registry.names_a_student("notes.txt")


def test_the_grade_file_is_the_platforms_own(tmp_path):
    result = registry.write("canvas", tmp_path, GRADES, "Day 1", None, {})
    with open(result.path, newline="", encoding="utf-8") as f:
        header = next(csv.reader(f))
    assert header[:len(lms_files.CANVAS_IDENTITY)] == lms_files.CANVAS_IDENTITY
    moodle_file = registry.write("moodle", tmp_path, GRADES, "Day 1", None, {}).path
    assert moodle_file.name == "moodle.csv" and "Username" in moodle_file.read_text()


def test_an_interface_member_left_out_is_refused():
    class Half(LearningPlatform):
        key = Platform.CANVAS
        label = "Half"

        def parse(self, relative):
            return None

    with pytest.raises(TypeError, match="abstract"):
        Half()


class Toy(LearningPlatform):
    """A new platform, as a module would add it: one class, then its line in the registry."""

    key = type("ToyKey", (), {"value": "toy"})()
    label = "Toy"

    def parse(self, relative: str) -> Handin | None:
        if not relative.startswith("toy-"):
            return None
        student, _, original = relative[4:].partition("-")
        return Handin(Platform.CANVAS, student, student, original, layout="Toy")

    def names_a_student(self, name: str) -> bool:
        return name.startswith("toy-")

    def write_grades(self, path: Path, grades, column, roster, identities, missing_as_zero=False):
        path.write_text("".join(f"{g.student},{g.points:g}\n" for g in grades))
        return None


def test_a_new_platform_is_one_class_in_the_registry(monkeypatch, tmp_path):
    monkeypatch.setattr(registry, "PLATFORMS", (*registry.PLATFORMS, Toy()))
    assert "toy" in registry.names()
    assert registry.parse("toy-42-01_tensors.ipynb").original == "01_tensors.ipynb"
    assert registry.names_a_student("toy-42-01_tensors.ipynb")
    assert registry.write("toy", tmp_path, GRADES, "Day 1", None, {}).path.read_text() == "smithalice_10001,30\n"
