"""The records that flow between the grader's stages, typed: a notebook's status, a graded cell's
result, what the integrity guard saw, and the record of one graded notebook.

:class:`NotebookRecord` is what :mod:`grader.engine` makes of a finished job and hands to the pages
(:mod:`grader.report`), the command line, Gradescope's results and the resume file
(``reports/<day>/results/<student>/<notebook>.json``, :meth:`NotebookRecord.to_json` and
:meth:`NotebookRecord.from_json`). Nothing here imports the rest of the grader.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import Enum

try:
    from enum import StrEnum
except ImportError:  # Python 3.10
    class StrEnum(str, Enum):
        def __str__(self) -> str:
            return str(self.value)

        def __format__(self, spec: str) -> str:
            return str(self.value).__format__(spec)


class Status(StrEnum):
    """A notebook's outcome (its words: the catalogue's ``grader.status.*``)."""

    GRADED = "graded"
    TIMEOUT = "timeout"  # the notebook ran past its time limit
    ERROR = "error"  # the grader's own trouble: nbgrader failed, its result unreadable
    UNREADABLE = "unreadable"  # the file: not read (a link, not JSON, too big...), nothing run
    REFUSED = "refused"  # the worker would not run the job (other sources, no sandbox): never recorded
    UNATTRIBUTED = "unattributed"  # a platform's file that names no student: a human's, never graded


class CellKind(StrEnum):
    """Why a graded cell lost its points."""

    MISTAKE = "mistake"
    NOT_ATTEMPTED = "not_attempted"
    STOPPED = "stopped"  # by the grader: a time-out, a dead kernel, a cell not run
    INTEGRITY = "integrity"  # the guard could not prove the check passed


class RecordError(ValueError):
    """A record file this grader cannot read (another version's, or damaged): its notebook is graded again."""


@dataclass(frozen=True)
class CellResult:
    """One graded check of a notebook: its points and, when it lost them, why in words."""

    score: float
    max: float
    message: str | None = None
    kind: str | None = None  # a CellKind

    @property
    def passed(self) -> bool:
        return self.score >= self.max


@dataclass(frozen=True)
class Voided:
    """A check the guard would not count (grader/guard.py)."""

    grade_id: str
    reason: str = ""  # a catalogue message
    detail: str = ""  # for the instructor


@dataclass(frozen=True)
class Disagreed:
    """A check the kernel passed and the grader's second key did not (grader/observations.py)."""

    grade_id: str
    detail: str = ""


@dataclass(frozen=True)
class Integrity:
    """What the guard saw in one notebook's kernel, and where the second key disagreed."""

    installed: bool = False
    restored: tuple[str, ...] = ()  # protected objects the notebook had replaced (put back)
    machinery: tuple[str, ...] = ()  # execution machinery switched off for the checks
    harmful: tuple[str, ...] = ()  # of that, what would have changed or hidden a check
    voided: tuple[Voided, ...] = ()
    disagreed: tuple[Disagreed, ...] = ()
    unjudged: tuple[Disagreed, ...] = ()  # model checks the grader could not evaluate: the kernel's verdict, flagged

    def to_json(self) -> dict:
        data = {"installed": self.installed, "restored": list(self.restored), "machinery": list(self.machinery),
                "harmful": list(self.harmful),
                "voided": [{"grade_id": v.grade_id, "reason": v.reason, "detail": v.detail} for v in self.voided]}
        if self.disagreed:
            data["disagreed"] = [{"grade_id": d.grade_id, "detail": d.detail} for d in self.disagreed]
        if self.unjudged:
            data["unjudged"] = [{"grade_id": d.grade_id, "detail": d.detail} for d in self.unjudged]
        return data

    @classmethod
    def from_json(cls, data) -> Integrity | None:
        """From :meth:`to_json` (``{}`` or ``None``: nothing was seen)."""
        if not data:
            return None
        try:
            return cls(installed=bool(data.get("installed")), restored=_strings(data.get("restored")),
                       machinery=_strings(data.get("machinery")), harmful=_strings(data.get("harmful")),
                       voided=tuple(Voided(**v) for v in data.get("voided") or ()),
                       disagreed=tuple(Disagreed(**d) for d in data.get("disagreed") or ()),
                       unjudged=tuple(Disagreed(**d) for d in data.get("unjudged") or ()))
        except (AttributeError, TypeError) as exc:
            raise RecordError(f"an integrity summary of another shape ({exc})") from None

    def with_disagreed(self, disagreed: tuple[Disagreed, ...], unjudged: tuple[Disagreed, ...] = ()) -> Integrity:
        return Integrity(self.installed, self.restored, self.machinery, self.harmful, self.voided, disagreed, unjudged)


def _strings(value) -> tuple[str, ...]:
    return tuple(str(v) for v in value or ())


@dataclass(frozen=True)
class NotebookRecord:
    """One student's notebook, graded (or not): what its feedback page, the class report, ``check``,
    Gradescope's results and a resumed run read. Learner-visible texts (``detail``, ``notes``,
    ``findings``, cell messages) are scrubbed of the grading machine's paths before they get here;
    ``instructor_detail`` is for the instructor's report and log only."""

    student: str
    notebook: str
    status: str  # a Status
    day: str = ""
    file: str = ""  # the handed-in file's name
    detail: str = ""
    instructor_detail: str = ""
    notes: tuple = ()  # plain strings (or {"id", "values"} notes, see grader.report.note_text)
    findings: tuple = ()  # reasons to review, in words
    integrity: Integrity | None = None
    score: float = 0.0
    max_score: float = 0.0
    cells: dict[str, CellResult] = field(default_factory=dict)  # grade id -> result, in course order
    fingerprint: str = ""  # grader.engine.fingerprint: a rerun skips the notebook while it matches
    wall_s: float = 0.0
    cells_s: float | None = None
    peak_bytes: int | None = None
    late_penalty: float = 0.0
    timestamp: str | None = None
    lang: str = "en"
    feedback: str | None = None  # the feedback page, relative to the class report
    attributed: bool = True  # False: a platform's file that names no student

    @property
    def graded(self) -> bool:
        return self.status == Status.GRADED

    def to_json(self) -> dict:
        """The resume file's JSON (the same keys as every earlier version wrote)."""
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data.update(status=str(self.status), notes=list(self.notes), findings=list(self.findings),
                    integrity=self.integrity.to_json() if self.integrity else {},
                    cells={gid: {"score": c.score, "max": c.max, "message": c.message,
                                 "kind": None if c.kind is None else str(c.kind)} for gid, c in self.cells.items()})
        return data

    @classmethod
    def from_json(cls, data) -> NotebookRecord:
        """A record from :meth:`to_json`, an older grader's included; :class:`RecordError` in plain
        words for anything else."""
        if not isinstance(data, dict):
            raise RecordError("not a notebook record (no JSON object)")
        missing = [k for k in ("student", "notebook", "status") if not isinstance(data.get(k), str)]
        if missing:
            raise RecordError(f"a notebook record without {', '.join(missing)}")
        known = {f.name for f in fields(cls)}
        values = {k: v for k, v in data.items() if k in known and v is not None}
        try:
            values["status"] = Status(data["status"])
            values["cells"] = {str(gid): CellResult(float(c["score"]), float(c["max"]), c.get("message"), c.get("kind"))
                               for gid, c in (data.get("cells") or {}).items()}
            values["notes"] = tuple(data.get("notes") or ())
            values["findings"] = tuple(data.get("findings") or ())
            values["integrity"] = Integrity.from_json(data.get("integrity"))
            return cls(**values)
        except (AttributeError, KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"a notebook record of another shape ({exc!r})") from None
