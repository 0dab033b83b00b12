"""Moodle (moodle/moodle) behind :class:`grader.lms.platform.LearningPlatform`.

Its download's names are read by :func:`grader.lms.platforms.parse_moodle` (the rules of
``mod/assign/classes/downloader.php``, 4.1+, and ``mod/assign/locallib.php``, 3.1-4.0, cited there):
a folder per student (or per team) or flat files, any of them a path; its class lists are the grades
export and the assignment's grading worksheet (:class:`grader.lms.roster.RosterKind`); its grade file
is the grade import CSV or the filled-in worksheet (:func:`grader.lms.lms_files.write_moodle`).
"""

from __future__ import annotations

from pathlib import Path

from grader.lms import lms_files, platforms
from grader.lms.lms_files import Grade
from grader.lms.platform import LearningPlatform
from grader.lms.platforms import Handin, Platform
from grader.lms.roster import Matching, Roster


class Moodle(LearningPlatform):
    key = Platform.MOODLE
    label = "Moodle"

    def parse(self, relative: str) -> Handin | None:
        return platforms.parse_moodle(relative)

    def names_a_student(self, name: str) -> bool:
        return platforms.MOODLE.fullmatch(name) is not None

    def write_grades(self, path: Path, grades: list[Grade], column: str, roster: Roster | None,
                     identities: dict[str, Handin], missing_as_zero: bool = False) -> Matching | None:
        return lms_files.write_moodle(path, grades, column, roster, identities, missing_as_zero)


MOODLE = Moodle()
