"""One learning platform, as the grader meets it: the interface each platform's module implements.

A platform (Canvas, Moodle) meets the grader three times: its bulk download names each student's
files its own way (:meth:`LearningPlatform.parse`), its class list comes in its own export formats
(:attr:`LearningPlatform.roster_kinds`, read by :mod:`grader.lms.roster`), and its grade import takes
its own CSV layout (:meth:`LearningPlatform.write_grades`). Each platform is one module of this package
(:mod:`grader.lms.canvas`, :mod:`grader.lms.moodle`), listed once in :mod:`grader.lms.registry`;
the command line's ``--export`` choices, the download's reading and the grade files all go through
that registry, so a new platform is one module, its line in the registry and its tests.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from pathlib import Path

from grader.lms.lms_files import Grade
from grader.lms.platforms import Handin, Platform
from grader.lms.roster import Matching, Roster, RosterKind


class LearningPlatform(ABC):
    """A learning platform: its name, its download's naming, its class lists and its grade file."""

    key: Platform  # the platform's name (``--export NAME``, ``Handin.platform``, ``RosterKind.platform``)
    label: str  # as people write it: "Canvas"

    @property
    def name(self) -> str:
        return self.key.value

    @property
    def roster_kinds(self) -> tuple[RosterKind, ...]:
        """The class-list exports of this platform :mod:`grader.lms.roster` recognises."""
        return tuple(kind for kind in RosterKind if kind.platform == self.name)

    @abstractmethod
    def parse(self, relative: str) -> Handin | None:
        """The hand-in a path of this platform's download names (relative to its root, ``/``-separated),
        or None when the path is not in this platform's naming."""

    @abstractmethod
    def names_a_student(self, name: str) -> bool:
        """Is ``name`` (one file or folder name) in this platform's download naming?"""

    @abstractmethod
    def write_grades(self, path: Path, grades: list[Grade], column: str, roster: Roster | None,
                     identities: dict[str, Handin], missing_as_zero: bool = False) -> Matching | None:
        """Write the platform's grade import file at ``path``; the roster matching (None without a roster)."""
