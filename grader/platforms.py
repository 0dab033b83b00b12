"""Hand-ins as learning platforms download them: Canvas's and Moodle's file names, read.

* **Canvas** ("Download Submissions"): one flat zip; each file is renamed
  ``lastnamefirstname_<user id>_<submission id>_<original name>``. A late hand-in has ``LATE_``
  after the name part (``lastnamefirstname_LATE_<user id>_...``), and a resubmitted file whose
  name was taken gets ``-1``, ``-2`` ... before its extension. The user id is Canvas's, the
  ``ID`` column of a Canvas gradebook export.
* **Moodle** ("Download all submissions"): one folder per student (``Full Name_<participant
  id>_assignsubmission_file_/<original name>``, with "Download submissions in folders") or the
  same text as a prefix of each file name. The participant id is the assignment's, the
  ``Identifier`` column (``Participant <id>``) of the assignment's grading worksheet.

:func:`parse` turns a path (relative to the download's root) into a :class:`Handin`, or None
when the name follows neither platform. Nothing here reads a file.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass
from enum import Enum
from pathlib import Path, PurePosixPath

IDENTITIES = "identities.json"  # in reports/<day>/: each student's Handin, for the grade exports


class Platform(str, Enum):
    CANVAS = "canvas"
    MOODLE = "moodle"


@dataclass(frozen=True)
class Handin:
    """Who handed a file in, as the platform's download names it."""

    platform: Platform
    platform_id: str  # Canvas user id, or Moodle participant id
    name: str  # "smithalice" (Canvas) or "Alice Smith" (Moodle)
    original: str  # the file's name as the student uploaded it
    late: bool = False  # Canvas's LATE mark
    version: int = 0  # Canvas's -1, -2 ... for a resubmitted file name

    @property
    def student(self) -> str:
        """The grader's id for this student: the name (letters of any script) and the platform's id, file-system safe."""
        from grader.names import student_id

        return f"{student_id(self.name, 'student')}_{self.platform_id}"


CANVAS = re.compile(r"(?P<name>[^_/]+?)_(?:(?P<late>LATE)_)?(?P<uid>\d+)_(?P<sid>\d+)_(?P<original>.+)")
MOODLE = re.compile(r"(?P<name>.+?)_(?P<pid>\d+)_assignsubmission_(?:file|onlinetext)_(?P<rest>.*)")
VERSION = re.compile(r"(?P<stem>.+)-(?P<n>\d+)(?P<ext>\.[A-Za-z0-9]+)")


def parse_canvas(file_name: str) -> Handin | None:
    """``smithalice_LATE_10001_5551_01_tensors-1.ipynb`` → its student, id, LATE mark and version."""
    match = CANVAS.fullmatch(file_name)
    if match is None:
        return None
    original, version = match["original"], 0
    resubmitted = VERSION.fullmatch(original)
    if resubmitted is not None:
        original, version = resubmitted["stem"] + resubmitted["ext"], int(resubmitted["n"])
    return Handin(Platform.CANVAS, match["uid"], match["name"], original, late=bool(match["late"]),
                  version=version)


def parse_moodle(relative: str) -> Handin | None:
    """``Bob Jones_123457_assignsubmission_file_/nb.ipynb`` or the same as one file name."""
    parts = PurePosixPath(relative).parts
    for i, part in enumerate(parts):
        match = MOODLE.fullmatch(part)
        if match is None:
            continue
        rest = "/".join([match["rest"], *parts[i + 1:]]).strip("/")
        if not rest:
            return None
        return Handin(Platform.MOODLE, match["pid"], match["name"], PurePosixPath(rest).name)
    return None


def names_a_student(name: str) -> bool:
    """Is ``name`` (one file or folder name) in Canvas's or Moodle's download naming?"""
    return CANVAS.fullmatch(name) is not None or MOODLE.fullmatch(name) is not None


def parse(relative: str) -> Handin | None:
    """The hand-in a path in a download names (Moodle's folders first, then Canvas's file names)."""
    relative = relative.replace("\\", "/")
    return parse_moodle(relative) or (parse_canvas(PurePosixPath(relative).name)
                                      if "/" not in relative.strip("/") else None)


def save_identities(path: Path, handins: dict[str, Handin]) -> None:
    """Add ``{student: Handin}`` to ``path`` (JSON), which the grade exports read to match a roster."""
    known = {s: asdict(h) for s, h in load_identities(path).items()}
    known.update({s: asdict(h) for s, h in handins.items()})
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(known, indent=1, sort_keys=True, default=str))


def load_identities(path: Path) -> dict[str, Handin]:
    """What :func:`save_identities` wrote (nothing if there is no such file)."""
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, ValueError):
        return {}
    out = {}
    for student, fields in data.items() if isinstance(data, dict) else ():
        try:
            out[student] = Handin(**{**fields, "platform": Platform(fields["platform"])})
        except (TypeError, KeyError, ValueError):
            continue
    return out
