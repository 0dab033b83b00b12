"""The class list a platform exports (``--lms-roster``), read and matched to graded students.

Three files are understood, each recognised by its header:

* Canvas's gradebook export: ``Student, ID, SIS User ID, SIS Login ID, Section, <assignments>``
  and a ``Points Possible`` row (``ID`` is Canvas's user id, the one in its download's names);
* Moodle's grades export: ``First name, Last name, ID number, ..., Email address, <items>``;
* Moodle's assignment grading worksheet: ``Identifier`` (``Participant <id>``, the id in its
  download's names), ``Full name``, ``Email address``, ``Status``, ``Grade``, ...

Both platforms may separate columns with ``;`` (Canvas in some locales, Moodle by choice) or
tabs: the separator is detected, and a file whose header has none of these columns is refused
in plain words, never read as something else.

Matching gives every graded student at most one roster row and every row at most one student:
the platform's id first (from the download's file names), then names, ids and e-mails when
exactly one row carries them. A student with no row, or with a row another student also
claims, is unmatched: reported, and kept out of the import file.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from grader.lms import names as names_mod
from grader.lms import text_files
from grader.lms.platforms import MOODLE_PARTICIPANT, Handin, Platform, moodle_cleaned


class RosterError(ValueError):
    """The roster cannot be used (the message says why, in plain words)."""


class RosterKind(Enum):
    CANVAS = ("canvas", "ID")
    MOODLE_GRADES = ("moodle", "Email address")
    MOODLE_WORKSHEET = ("moodle", "Identifier")

    @property
    def platform(self) -> str:
        return self.value[0]

    @property
    def id_column(self) -> str:
        return self.value[1]


@dataclass(frozen=True)
class Roster:
    path: Path
    kind: RosterKind
    header: tuple[str, ...]
    rows: tuple[dict[str, str], ...]
    delimiter: str
    encoding: str = "UTF-8"  # how the file was read (grader.lms.text_files): said on the command line and in the report
    points_possible: tuple[tuple[str, str], ...] = ()  # Canvas's "Points Possible" row: (column, value)


@dataclass(frozen=True)
class Unmatched:
    student: str
    reason: str  # "not_on_roster", "ambiguous", "shared_row", "no_user_field", "other_name"


@dataclass(frozen=True)
class Matching:
    found: dict[str, dict[str, str]]  # graded student → their roster row
    unmatched: tuple[Unmatched, ...]
    missing: tuple[dict[str, str], ...]  # roster rows nobody graded matched


SEPARATORS = ",;\t"
KNOWN = {"Student", "ID", "SIS Login ID", "Email address", "Identifier", "Full name", "First name"}


def key(text: str) -> str:
    """A name or id reduced for matching: NFKC, case-folded, letters and digits of any script
    (:func:`grader.lms.names.key`): a Chinese or accented name matches the platform's export."""
    return names_mod.key(text)


def _separator(text: str) -> str:
    """The separator of ``text``'s header: csv.Sniffer's guess if it splits out known columns, else the best one."""
    first = text.splitlines()[0] if text else ""
    try:
        sniffed = csv.Sniffer().sniff(text[:8192], delimiters=SEPARATORS).delimiter
    except csv.Error:
        sniffed = ","
    score = {sep: len(KNOWN & {c.strip() for c in next(csv.reader([first], delimiter=sep), [])})
             for sep in SEPARATORS}
    return sniffed if score.get(sniffed) else max(SEPARATORS, key=lambda sep: score[sep])


# gradebook_exporter.rb: "Student" (sortable name), or "LastName", "FirstName" with show_student_first_last_name.
CANVAS_SPLIT_NAME = ("LastName", "FirstName")


def _kind(header: list[str]) -> RosterKind | None:
    names = set(header)
    if "ID" in names and ("Student" in names or set(CANVAS_SPLIT_NAME) <= names):
        return RosterKind.CANVAS
    if "Identifier" in names:
        return RosterKind.MOODLE_WORKSHEET
    if "Email address" in names:
        return RosterKind.MOODLE_GRADES
    return None


def load(path: Path) -> Roster:
    """The roster at ``path``; :class:`RosterError` if it is no platform's export this grader knows."""
    try:
        read = text_files.read_text(Path(path))
    except text_files.TextFileError as exc:
        raise RosterError(str(exc)) from None
    sep = _separator(read.text)
    try:
        fieldnames, raws = text_files.read_csv(read.text, sep, Path(path))
    except text_files.TextFileError as exc:
        raise RosterError(str(exc)) from None
    header = [h.strip() for h in fieldnames]
    kind = _kind(header)
    if kind is None:
        shown = {",": "commas", ";": "semicolons", "\t": "tabs"}[sep]
        raise RosterError(
            f"the roster {Path(path).name} is not a gradebook exported from Canvas (columns Student, or "
            f"LastName and FirstName, ID, "
            f"SIS User ID, SIS Login ID, Section) or Moodle (Email address, or the grading worksheet's "
            f"Identifier); read with {shown}, its first line has: {', '.join(header[:8]) or 'nothing'}")
    rows, possible = [], ()
    for _, raw in raws:
        row = {(k or "").strip(): (v or "").strip() if isinstance(v, str) else "" for k, v in raw.items()}
        if kind is RosterKind.CANVAS:
            if "Points Possible" in row.get(header[0], ""):
                possible = tuple((c, v) for c, v in row.items() if v)
            if not row.get("ID"):  # the "Points Possible" row, or the "Manual Posting" one: no student's
                continue
            if "Student" not in row:  # the split-name layout: the sortable name Canvas writes elsewhere
                row = {"Student": ", ".join(n for n in (row.get("LastName"), row.get("FirstName")) if n), **row}
        first = row.get("Student", row.get(header[0], ""))
        if not any(row.values()) or "Points Possible" in first or first.startswith("Student, Test"):
            continue
        rows.append(row)
    return Roster(Path(path), kind, tuple(header), tuple(rows), sep, read.encoding, possible)


def _number(text: str) -> float | None:
    """``47.00``, or ``47,00`` as a platform in another locale writes it; None for anything else."""
    text = text.strip()
    try:
        return float(text.replace(",", ".") if "." not in text else text)
    except ValueError:
        return None


def platform_max(roster: Roster | None, column: str) -> float | None:
    """The assignment's maximum on the platform, where its roster says it: Canvas's "Points Possible" for the
    assignment's column, the grading worksheet's "Maximum Grade" (None: it does not say, or says 0)."""
    if roster is None:
        return None
    if roster.kind is RosterKind.CANVAS:
        value = dict(roster.points_possible).get(column, "")
    elif roster.kind is RosterKind.MOODLE_WORKSHEET:
        value = next((r.get("Maximum Grade", "") for r in roster.rows if r.get("Maximum Grade")), "")
    else:
        return None
    found = _number(value)
    return found if found else None


def participant(row: dict[str, str]) -> str:
    """The participant id in a Moodle worksheet's ``Identifier`` (``Participant 123457``)."""
    match = re.search(r"(\d+)\s*$", row.get("Identifier", ""))
    return match.group(1) if match else ""


def names(row: dict[str, str]) -> list[str]:
    """Every way a roster row may be named by a student id (reduced with :func:`key`)."""
    out = []
    for column in ("SIS Login ID", "SIS User ID", "ID", "Email address", "ID number", "Username"):
        value = (row.get(column) or "").strip()
        if value:
            out += [value, value.split("@")[0]]
    for column in ("Student", "Full name"):
        student = (row.get(column) or "").strip()
        if student:
            out.append(student)
            if "," in student:  # Canvas writes "Last, First"
                last, first = (p.strip() for p in student.split(",", 1))
                out += [f"{first} {last}", f"{last} {first}"]
    first, last = (row.get("First name") or "").strip(), (row.get("Last name") or "").strip()
    if first or last:
        out += [f"{first} {last}", f"{last} {first}"]
    return list(dict.fromkeys(key(n) for n in out if key(n)))


def _by_platform_id(roster: Roster, handin: Handin) -> list[int]:
    if roster.kind is RosterKind.CANVAS and handin.platform is Platform.CANVAS:
        return [i for i, r in enumerate(roster.rows) if r.get("ID") == handin.platform_id]
    if roster.kind is RosterKind.MOODLE_WORKSHEET and handin.platform is Platform.MOODLE:
        return [i for i, r in enumerate(roster.rows) if participant(r) == handin.platform_id]
    return []


def _names_agree(row: dict[str, str], handin: Handin) -> bool:
    """Whether a grading worksheet's row is the person the download names for its participant id: Moodle writes
    both from one user. A team's folder read as a participant's (its group not recognised) names a group, and its
    group id may be some participant's id: that row is never taken for it. Blind marking names nobody."""
    if handin.anonymous or handin.name in ("", MOODLE_PARTICIPANT) or not row.get("Full name"):
        return True
    return key(moodle_cleaned(row["Full name"])) == key(handin.name)


def _candidates(roster: Roster, student: str, handin: Handin | None, index: dict[str, set[int]]) -> set[int]:
    if handin is not None:
        by_id = _by_platform_id(roster, handin)
        if by_id or roster.kind is not RosterKind.MOODLE_GRADES:  # an id the platform gave decides
            return set(by_id)
        return set(index.get(key(handin.name), set()))  # Moodle's grades export has no participant id
    return set(index.get(key(student), set()))


def match(students: list[str], roster: Roster, identities: dict[str, Handin] | None = None) -> Matching:
    """Each student's one roster row; the unmatched students and the rows nobody matched."""
    identities = identities or {}
    index: dict[str, set[int]] = {}
    for i, row in enumerate(roster.rows):
        for name in names(row):
            index.setdefault(name, set()).add(i)
    chosen: dict[str, int] = {}
    unmatched: list[Unmatched] = []
    claimed: set[int] = set()  # rows some graded student fits: never "no hand-in"
    for student in students:
        handin = identities.get(student)
        rows = _candidates(roster, student, handin, index)
        claimed |= rows
        if (rows and handin is not None and roster.kind is RosterKind.MOODLE_WORKSHEET
                and not all(_names_agree(roster.rows[i], handin) for i in rows)):
            unmatched.append(Unmatched(student, "other_name"))
        elif len(rows) == 1:
            chosen[student] = rows.pop()
        else:
            unmatched.append(Unmatched(student, "ambiguous" if rows else "not_on_roster"))
    claims: dict[int, list[str]] = {}
    for student, i in chosen.items():
        claims.setdefault(i, []).append(student)
    found = {}
    for i, claimants in claims.items():
        if len(claimants) == 1:
            found[claimants[0]] = roster.rows[i]
        else:
            unmatched += [Unmatched(s, "shared_row") for s in claimants]
    # A row a graded student fits (matched, shared or one of several) is never announced as "no hand-in":
    # that student did hand in, and a human decides which row is theirs.
    missing = tuple(r for i, r in enumerate(roster.rows) if i not in claimed)
    return Matching(found, tuple(sorted(unmatched, key=lambda u: u.student)), missing)


def display(row: dict[str, str]) -> str:
    """A roster row's student, for the report: the name, else the first id."""
    name = row.get("Student") or row.get("Full name") or " ".join(
        filter(None, (row.get("First name"), row.get("Last name"))))
    return name or next((v for v in row.values() if v), "?")
