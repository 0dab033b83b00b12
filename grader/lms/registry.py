"""The learning platforms the grader knows, each once: the one list the rest of the grader asks.

``python -m grader grade --export NAME`` offers :func:`names`; a download is read by :func:`parse`,
which asks each platform in :data:`PLATFORMS` in turn (Moodle first: its names are paths with
folders, Canvas's are flat file names, and a Canvas name never holds ``_assignsubmission_``); the
grade files are written by :func:`write` through the platform's own
:meth:`~grader.lms.platform.LearningPlatform.write_grades`. A new platform: a module beside
:mod:`grader.lms.canvas` and its line here.
"""

from __future__ import annotations

from pathlib import Path

from grader.lms import roster as roster_mod
from grader.lms.canvas import CANVAS
from grader.lms.lms_files import ExportResult, Grade, column_of, on_scale, write_unmatched
from grader.lms.moodle import MOODLE
from grader.lms.platform import LearningPlatform
from grader.lms.platforms import Handin
from grader.lms.roster import Roster

PLATFORMS: tuple[LearningPlatform, ...] = (MOODLE, CANVAS)  # the order a download's path is tried in


def names() -> list[str]:
    """Every platform's name (``--export``'s choices), in a stable order."""
    return sorted(p.name for p in PLATFORMS)


def get(name: str) -> LearningPlatform:
    """The platform called ``name``; a ValueError that names the known ones otherwise."""
    for platform in PLATFORMS:
        if platform.name == name:
            return platform
    raise ValueError(f"no learning platform is called {name!r} (the grader knows {', '.join(names())})")


def parse(relative: str) -> Handin | None:
    """The hand-in a path in a download names, by the first platform whose naming it follows."""
    relative = relative.replace("\\", "/")
    return next((h for h in (p.parse(relative) for p in PLATFORMS) if h is not None), None)


def names_a_student(name: str) -> bool:
    """Is ``name`` (one file or folder name) in some platform's download naming?"""
    return any(p.names_a_student(name) for p in PLATFORMS)


def write(kind: str, reports: Path, grades: list[Grade], column: str, roster: Roster | None,
          identities: dict[str, Handin], missing_as_zero: bool = False) -> ExportResult:
    """Write ``reports/<kind>.csv`` (the platform ``kind``'s grade import file) and its unmatched list."""
    path = reports / f"{kind}.csv"
    anonymous = sum(1 for g in grades if (h := identities.get(g.student)) is not None and h.anonymous)
    if anonymous and roster is not None:  # who handed nothing in cannot be told: no row is written as 0
        missing_as_zero = False
    header = roster.header if roster is not None else ()
    grades, scaled = on_scale(grades, roster_mod.platform_max(roster, column_of(header, column)))
    matching = get(kind).write_grades(path, grades, column, roster, identities, missing_as_zero)
    unmatched = matching.unmatched if matching else ()
    missing = (tuple(roster_mod.display(r) for r in matching.missing) if matching and roster and not anonymous
               else ())
    return ExportResult(kind, path, unmatched, write_unmatched(reports / f"{kind}-unmatched.csv", grades, unmatched),
                        missing, roster.path if roster else None, missing_as_zero,
                        roster.encoding if roster else "", scaled, anonymous if roster is not None else 0)
