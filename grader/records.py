"""The records that flow between the grader's stages, typed: a notebook's status, a graded check's
result, what the integrity guard saw, what a grading job found, a graded notebook's record and the
class's grades.

:class:`GradedNotebook` is a grading job's one output (:mod:`grader.run.jobs`): per check a
:class:`CheckResult`, with what the guard and the second key saw and the timings, written once as
versioned JSON by the job's process and read back by the driver, which merges it into the gradebook.
:class:`NotebookRecord` is what :mod:`grader.run.engine` builds from it (with what intake knows of the
hand-in) and hands to the pages (:mod:`grader.results.report`), the command line, Gradescope's results and the
resume file (``reports/<day>/results/<student>/<notebook>.json``, :meth:`NotebookRecord.to_json` and
:meth:`NotebookRecord.from_json`). :class:`ClassGrades` is the class's view that grades.csv, the class
report and the LMS exports read, manual grades included and the late penalty taken off in one place
(:func:`final_points`). Nothing here imports the rest of the grader.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
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


class Verdict(StrEnum):
    """What the second key (grader/judge/observations.py) and the guard (grader/judge/guard.py) made of one check."""

    AGREED = "agreed"  # its observations matched the reference's
    DISAGREED = "disagreed"  # the kernel passed it, the observations did not match: flagged
    UNJUDGED = "unjudged"  # a model check the grader could not evaluate: the kernel's verdict, flagged
    VOIDED = "voided"  # the guard would not count it


@dataclass(frozen=True)
class CheckResult:
    """One graded check of a notebook: its points and, when it lost them, why in words.

    ``message`` is the words a learner reads (already in the notebook's language); ``message_id`` and
    ``values`` name the catalogue message they came from where the grader wrote them itself (``None``:
    the check's own words, from the kernel). ``needs_manual``: nbgrader left it for a human."""

    score: float
    max: float
    message: str | None = None
    kind: str | None = None  # a CellKind
    grade_id: str = ""
    message_id: str | None = None
    values: tuple[tuple[str, object], ...] = ()  # the catalogue message's values, as (name, value) pairs
    verdict: str | None = None  # a Verdict; None: the second key did not look at it
    needs_manual: bool = False

    @property
    def passed(self) -> bool:
        return self.score >= self.max

    @property
    def max_score(self) -> float:
        return self.max

    def to_json(self) -> dict:
        """The four keys every grader wrote, and the others where they say something; the grade id is
        the key this is written under (:meth:`from_json` takes it back from there)."""
        data = {"score": self.score, "max": self.max, "message": self.message,
                "kind": None if self.kind is None else str(self.kind)}
        extra = {"message_id": self.message_id,
                 "values": [list(v) for v in self.values], "needs_manual": self.needs_manual,
                 "verdict": None if self.verdict is None else str(self.verdict)}
        data.update({k: v for k, v in extra.items() if v})
        return data

    @classmethod
    def from_json(cls, data, grade_id: str = "") -> CheckResult:
        """From :meth:`to_json` (an older grader's four keys included); ``KeyError``, ``TypeError`` or
        ``ValueError`` for anything else (the callers say it in words)."""
        verdict = data.get("verdict")
        return cls(float(data["score"]), float(data["max"]), data.get("message"),
                   None if data.get("kind") is None else CellKind(data["kind"]),
                   grade_id, data.get("message_id"),
                   tuple((str(k), v) for k, v in data.get("values") or ()),
                   None if verdict is None else Verdict(verdict), bool(data.get("needs_manual")))


CellResult = CheckResult  # the name the pages and tests knew it by: one class


@dataclass(frozen=True)
class Voided:
    """A check the guard would not count (grader/judge/guard.py)."""

    grade_id: str
    reason: str = ""  # a catalogue message
    detail: str = ""  # for the instructor


@dataclass(frozen=True)
class Disagreed:
    """A check the kernel passed and the grader's second key did not (grader/judge/observations.py)."""

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
    settings: tuple[str, ...] = ()  # the learner's settings put back for the checks (a default dtype): said, no forge

    def to_json(self) -> dict:
        data = {"installed": self.installed, "restored": list(self.restored), "machinery": list(self.machinery),
                "harmful": list(self.harmful),
                "voided": [{"grade_id": v.grade_id, "reason": v.reason, "detail": v.detail} for v in self.voided]}
        if self.settings:
            data["settings"] = list(self.settings)
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
                       unjudged=tuple(Disagreed(**d) for d in data.get("unjudged") or ()),
                       settings=_strings(data.get("settings")))
        except (AttributeError, TypeError) as exc:
            raise RecordError(f"an integrity summary of another shape ({exc})") from None

    def with_disagreed(self, disagreed: tuple[Disagreed, ...], unjudged: tuple[Disagreed, ...] = ()) -> Integrity:
        return Integrity(self.installed, self.restored, self.machinery, self.harmful, self.voided, disagreed, unjudged,
                         self.settings)


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
    notes: tuple = ()  # plain strings (or {"id", "values"} notes, see grader.results.report.note_text)
    findings: tuple = ()  # reasons to review, in words
    integrity: Integrity | None = None
    score: float = 0.0
    max_score: float = 0.0
    cells: dict[str, CheckResult] = field(default_factory=dict)  # grade id -> result, in course order
    fingerprint: str = ""  # grader.run.engine.fingerprint: a rerun skips the notebook while it matches
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
                    cells={gid: c.to_json() for gid, c in self.cells.items()})
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
            values["cells"] = {str(gid): CheckResult.from_json(c, str(gid)) for gid, c in (data.get("cells") or {}).items()}
            values["notes"] = tuple(data.get("notes") or ())
            values["findings"] = tuple(data.get("findings") or ())
            values["integrity"] = Integrity.from_json(data.get("integrity"))
            return cls(**values)
        except (AttributeError, KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"a notebook record of another shape ({exc!r})") from None


GRADED_SCHEMA = 1  # GradedNotebook's JSON: a new shape is a new number, and an old file is refused, never guessed at


@dataclass(frozen=True)
class GradedNotebook:
    """A grading job's one output (grader/run/jobs.py): what nbgrader and the job's kernel made of one
    notebook, per check and as a whole. Written once, by the job's process, as JSON (:meth:`to_json`);
    read back by the driver (:meth:`from_json`), which merges it into the gradebook and builds the
    notebook's :class:`NotebookRecord` from it. A job that never finished (its time ran out) gets one
    from the process that ran it, with what the job left."""

    status: str  # a Status
    detail: str = ""
    checks: tuple[CheckResult, ...] = ()  # nbgrader's automatic scores, in the notebook's order
    comments: tuple[tuple[str, str | None], ...] = ()  # nbgrader's automatic comments, by cell name
    late_penalty: float | None = None  # nbgrader's, from the hand-in time and the due date
    integrity: Integrity | None = None  # what the guard saw, and where the second key disagreed
    observed: dict | None = None  # a reference run's observations (grader/run/reference.py)
    cells_s: float | None = None  # the kernel's time running cells
    kernel_death: str | None = None  # why the jail stopped the kernel ("memory", "stuck", ...)
    wall_s: float = 0.0
    peak_bytes: int | None = None
    schema: int = GRADED_SCHEMA

    @property
    def score(self) -> float:
        return sum(c.score for c in self.checks)

    @property
    def max_score(self) -> float:
        return sum(c.max for c in self.checks)

    def check(self, grade_id: str) -> CheckResult | None:
        return next((c for c in self.checks if c.grade_id == grade_id), None)

    def scrubbed(self, scrub) -> GradedNotebook:
        """The same record with ``scrub`` (a grading machine's paths out of a text) applied to every
        text a learner may read."""
        checks = tuple(c if c.message is None else replace(c, message=scrub(c.message)) for c in self.checks)
        return replace(self, detail=scrub(self.detail), checks=checks)

    def to_json(self) -> dict:
        return {"schema": self.schema, "status": str(self.status), "detail": self.detail,
                "checks": {c.grade_id: c.to_json() for c in self.checks},
                "comments": [[name, text] for name, text in self.comments], "late_penalty": self.late_penalty,
                "integrity": self.integrity.to_json() if self.integrity else {}, "observed": self.observed,
                "cells_s": self.cells_s, "kernel_death": self.kernel_death, "wall_s": self.wall_s,
                "peak_bytes": self.peak_bytes}

    @classmethod
    def from_json(cls, data) -> GradedNotebook:
        """From :meth:`to_json` of this schema; :class:`RecordError` in plain words for anything else
        (another grader version's record included: its notebook is graded again)."""
        if not isinstance(data, dict):
            raise RecordError("not a graded-notebook record (no JSON object)")
        if data.get("schema") != GRADED_SCHEMA:
            raise RecordError(f"a graded-notebook record of schema {data.get('schema')!r}, and this grader reads "
                              f"schema {GRADED_SCHEMA} only: grade the notebook again with this grader")
        try:
            observed = data.get("observed")
            return cls(status=Status(data["status"]), detail=str(data.get("detail") or ""),
                       checks=tuple(CheckResult.from_json(c, str(g)) for g, c in data["checks"].items()),
                       comments=tuple((str(n), t) for n, t in data.get("comments") or ()),
                       late_penalty=_number(data.get("late_penalty")), integrity=Integrity.from_json(data.get("integrity")),
                       observed=observed if isinstance(observed, dict) else None, cells_s=_number(data.get("cells_s")),
                       kernel_death=data.get("kernel_death"), wall_s=float(data.get("wall_s") or 0.0),
                       peak_bytes=data.get("peak_bytes"))
        except (AttributeError, KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"a graded-notebook record of another shape ({exc!r})") from None


def _number(value) -> float | None:
    return None if value is None else float(value)


def final_points(points: float, late_penalty: float) -> float:
    """A student's points after the late penalty, never below 0: the one place a penalty is taken off
    (grades.csv, the class report and the LMS exports all read :attr:`StudentGrades.final`)."""
    return max(0.0, points - late_penalty)


@dataclass(frozen=True)
class NotebookGrade:
    """One student's notebook in the class's grades: its points (manual grades included) and late penalty."""

    notebook: str
    score: float
    max_score: float
    late_penalty: float = 0.0
    checks: tuple[CheckResult, ...] = ()  # per check: score (manual included) and max, by grade id
    auto_score: float | None = None  # the automatic score alone (None: not known), which nbgrader's penalty was of

    def late_on_score(self, fraction: float | None) -> NotebookGrade:
        """This notebook with its late penalty taken from its score as it stands, manual grades included:
        ``fraction`` of it (None: the fraction nbgrader's penalty was of the automatic score), never more than
        the notebook's own score."""
        if fraction is None:
            fraction = self.late_penalty / self.auto_score if self.auto_score else 0.0
        return replace(self, late_penalty=min(self.score, round(fraction * self.score, 4)))


@dataclass(frozen=True)
class StudentGrades:
    """One student's row of the class's grades."""

    student: str
    notebooks: tuple[NotebookGrade, ...] = ()

    def notebook(self, name: str) -> NotebookGrade | None:
        return next((n for n in self.notebooks if n.notebook == name), None)

    @property
    def points(self) -> float:
        return sum(n.score for n in self.notebooks)

    @property
    def max_points(self) -> float:
        return sum(n.max_score for n in self.notebooks)

    @property
    def late_penalty(self) -> float:
        return sum(n.late_penalty for n in self.notebooks)

    @property
    def final(self) -> float:
        return final_points(self.points, self.late_penalty)


@dataclass(frozen=True)
class ClassGrades:
    """The class's grades for one day, as grades.csv, the class report and the LMS exports read them:
    built once after a run, from the course gradebook (``grader.grades.gradebook.class_grades``: each
    notebook's automatic scores from its :class:`GradedNotebook`, with an instructor's manual grades
    folded in), or from the records alone (:meth:`of_records`, where no gradebook is at hand)."""

    day: str
    notebooks: tuple[str, ...] = ()  # the assignment's notebooks, in order
    students: tuple[StudentGrades, ...] = ()  # sorted by student

    def student(self, name: str) -> StudentGrades | None:
        return next((s for s in self.students if s.student == name), None)

    def late_on_scores(self, fractions: dict[tuple[str, str], float]) -> ClassGrades:
        """Every notebook's late penalty taken from its score as it stands (:meth:`NotebookGrade.late_on_score`):
        ``fractions[(student, notebook)]`` where this run knows how late it was, else the fraction its stored
        penalty was of its automatic score. The one place a manual grade and a late penalty meet."""
        return replace(self, students=tuple(
            replace(s, notebooks=tuple(n.late_on_score(fractions.get((s.student, n.notebook))) for n in s.notebooks))
            for s in self.students))

    @classmethod
    def of_records(cls, day: str, records) -> ClassGrades:
        """The view of attributed :class:`NotebookRecord` s alone: their automatic scores and late penalties."""
        rows: dict[str, list[NotebookGrade]] = {}
        for r in records:
            if r.attributed:
                checks = tuple(replace(c, grade_id=g) for g, c in r.cells.items())
                rows.setdefault(r.student, []).append(
                    NotebookGrade(r.notebook, r.score, r.max_score, r.late_penalty or 0.0, checks))
        names = tuple(dict.fromkeys(n.notebook for row in rows.values() for n in row))
        return cls(day, names, tuple(StudentGrades(s, tuple(rows[s])) for s in sorted(rows)))
