"""Each student's intake, checked before grading: hand-in times and extensions.

One student's bad file never stops the class. For every graded student:

* a ``timestamp.txt`` that is no date, or one in the future, cannot decide a late penalty: the
  student is graded without one (nbgrader never sees the time, so it cannot crash on it), and needs
  a human; a missing time, when a due date is in force, is noted (no penalty could be judged);
* an extension (:mod:`grader.intake.extensions`) gives the student's own due date, which their jobs use;
  a row that cannot be used leaves the assignment's date in force, and the student needs a human.

What is found is an :class:`Intake`: notes per student for the class report, ``grades.csv`` and
the command line (which exits non-zero when a student needs a human), and a learner's note on the
student's feedback pages where the late penalty was affected.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timezone
from enum import Enum

from grader.grades import late
from grader.intake.extensions import Extension
from grader.lms import names
from ptcourse.messages import msg, msg_in, speaking


class IntakeKind(str, Enum):
    TIME_MISSING = "time_missing"
    TIME_GARBLED = "time_garbled"
    TIME_FUTURE = "time_future"
    EXTENSION = "extension"
    EXTENSION_BAD = "extension_bad"
    EXTENSION_NOBODY = "extension_nobody"  # a row that names none of the graded students


NEEDS_HUMAN = {IntakeKind.TIME_GARBLED, IntakeKind.TIME_FUTURE, IntakeKind.EXTENSION_BAD}


@dataclass(frozen=True)
class IntakeNote:
    """One thing found about one student's intake ("" for a row that names nobody)."""

    student: str
    kind: IntakeKind
    values: tuple[tuple[str, str], ...] = ()

    @property
    def needs_human(self) -> bool:
        return self.kind in NEEDS_HUMAN

    def text(self, lang: str = "en") -> str:
        return msg_in(lang, f"grader.intake.{self.kind.value}", **dict(self.values))


@dataclass
class Intake:
    notes: list[IntakeNote] = field(default_factory=list)
    dues: dict[str, str] = field(default_factory=dict)  # student -> their own due date (ISO, UTC)

    def due_for(self, student: str, class_due: str | None) -> str | None:
        return self.dues.get(student, class_due)

    def of(self, student: str) -> list[IntakeNote]:
        return [n for n in self.notes if n.student == student]

    def needing_human(self) -> list[str]:
        return sorted({n.student for n in self.notes if n.needs_human})

    def by_student(self, lang: str = "en") -> dict[str, list[str]]:
        out: dict[str, list[str]] = defaultdict(list)
        for note in self.notes:
            if note.student:
                out[note.student].append(note.text(lang))
        return dict(out)


def _when(moment: datetime | None) -> str:
    return f"{moment:%Y-%m-%d %H:%M} UTC" if moment is not None else msg("grader.intake.no_due")


def check_times(subs: list, due_of, now: datetime) -> list[IntakeNote]:
    """Each attributed student's hand-in time; a garbled or future one is taken off their submissions
    (graded without a late penalty) with a note for them in their notebook's language. ``due_of(student)``:
    the due date in force for the student (a missing time matters only then)."""
    notes, seen = [], set()
    for sub in subs:
        if not sub.attributed:
            continue
        found = late.handin_time(sub.timestamp, now)
        if found.problem in (late.TimeProblem.GARBLED, late.TimeProblem.FUTURE):
            sub.timestamp = None  # nbgrader never reads it: no crash, no penalty from a wrong time
            with speaking(sub.lang):
                sub.notes.append(msg(f"grader.intake.learner_time_{found.problem.value}"))
        if sub.student in seen or found.problem is None:
            continue
        seen.add(sub.student)
        if found.problem is late.TimeProblem.MISSING and due_of(sub.student) is None:
            continue
        notes.append(IntakeNote(sub.student, IntakeKind(f"time_{found.problem.value}"),
                                (("text", late.shown(found.text)), ("now", _when(now)))))
    return notes


def _keys(sub) -> set[str]:
    """Every way an extensions file may name the student of ``sub``."""
    out = {names.key(sub.student)}
    origin = getattr(sub, "origin", None)
    if origin is not None:
        out |= {names.key(origin.name), names.key(origin.platform_id)}
    return out - {""}


def _matches(extensions: list[Extension], subs: list) -> dict[int, set[str]]:
    """Row index -> the graded students its ``student`` names."""
    keys: dict[str, set[str]] = defaultdict(set)
    for sub in subs:
        if sub.attributed:
            for k in _keys(sub):
                keys[k].add(sub.student)
    return {i: set(keys.get(names.key(ext.student), set())) for i, ext in enumerate(extensions)}


def _values(ext: Extension, **more: str) -> tuple[tuple[str, str], ...]:
    return (("file", ext.file), ("line", str(ext.line)), *more.items())


def apply_extensions(extensions: list[Extension], subs: list, due: str | None) -> Intake:
    """Each student's own due date from the extensions file, and a note for every row."""
    intake = Intake()
    class_due = datetime.fromisoformat(due) if due else None
    matched = _matches(extensions, subs)
    rows_of: dict[str, list[int]] = defaultdict(list)
    for i, ext in enumerate(extensions):
        students = matched[i]
        if not students:
            intake.notes.append(IntakeNote("", IntakeKind.EXTENSION_NOBODY, _values(ext, name=ext.student)))
        for student in students:
            rows_of[student].append(i)
    for student, rows in sorted(rows_of.items()):
        ext = extensions[rows[0]]
        why = ext.error
        if len(rows) > 1:
            why = msg("grader.extensions.twice", count=len(rows), lines=", ".join(str(extensions[r].line) for r in rows))
        elif len(matched[rows[0]]) > 1:
            why = msg("grader.extensions.several", name=ext.student, students=", ".join(sorted(matched[rows[0]])))
        elif ext.due_for(class_due) is None:
            why = why or msg("grader.extensions.no_class_due")
        if why:
            intake.notes.append(IntakeNote(student, IntakeKind.EXTENSION_BAD, _values(ext, why=why)))
            continue
        own = ext.due_for(class_due)
        intake.dues[student] = own.isoformat()
        intake.notes.append(IntakeNote(student, IntakeKind.EXTENSION, _values(
            ext, due=_when(own), class_due=_when(class_due))))
    return intake


def check(subs: list, due: str | None, extensions: list[Extension] | None = None,
          now: datetime | None = None) -> Intake:
    """The class's intake: extensions first (a student's own date decides whether a missing time matters)."""
    now = now or datetime.now(timezone.utc).replace(tzinfo=None)
    intake = apply_extensions(extensions or [], subs, due)
    for sub in subs:
        if sub.student in intake.dues:
            with speaking(sub.lang):
                sub.notes.append(msg("grader.intake.learner_extension",
                                     due=_when(datetime.fromisoformat(intake.dues[sub.student]))))
    intake.notes = [*check_times(subs, lambda student: intake.due_for(student, due), now), *intake.notes]
    return intake
