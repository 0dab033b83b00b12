"""Canvas (instructure/canvas-lms) behind :class:`grader.lms.platform.LearningPlatform`.

Its download's file names are read by :func:`grader.lms.platforms.parse_canvas` (the rules of
``lib/content_zipper.rb`` and ``app/models/attachment.rb``, cited there); its class list is the
gradebook export (:attr:`grader.lms.roster.RosterKind.CANVAS`); its grade file is the gradebook
import CSV (:func:`grader.lms.lms_files.write_canvas`). Canvas's download is one flat zip: a path
with a folder in it is not Canvas's.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath

from grader.lms import lms_files, platforms
from grader.lms.lms_files import Grade
from grader.lms.platform import LearningPlatform
from grader.lms.platforms import Handin, Platform
from grader.lms.roster import Matching, Roster


class Canvas(LearningPlatform):
    key = Platform.CANVAS
    label = "Canvas"

    def parse(self, relative: str) -> Handin | None:
        if "/" in relative.strip("/"):
            return None
        return platforms.parse_canvas(PurePosixPath(relative).name)

    def names_a_student(self, name: str) -> bool:
        return platforms.canvas_match(name) is not None

    def write_grades(self, path: Path, grades: list[Grade], column: str, roster: Roster | None,
                     identities: dict[str, Handin], missing_as_zero: bool = False) -> Matching | None:
        return lms_files.write_canvas(path, grades, column, roster, identities, missing_as_zero)


CANVAS = Canvas()
