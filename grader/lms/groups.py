"""Who is in which group, so that one group submission grades every member (``--groups FILE``).

Two sources, each read as the platform writes it:

* a group file (``--groups``): Canvas's group set export (People → the group set → Export:
  ``name, canvas_user_id, user_id, login_id, sections, group_name, canvas_group_id, group_id``,
  the format of Canvas's ``doc/api/group_category_csv.md``), or a plain CSV with the columns
  ``group`` and ``member`` (and optionally ``name``, ``group id``). A member is the platform's
  user id (Canvas's ``ID``, Moodle's participant id) or a login, e-mail or name as the roster has it;
* Moodle's grading worksheet (``--lms-roster``) of a team assignment: its ``Group`` column
  (``get_string('submissionteam', 'assign')``, added by ``mod/assign/gradingtable.php`` when team
  submissions are on) names each participant's group.

A Canvas group submission is found by the member whose id it carries: for a group assignment
Canvas downloads one submission per group under the group's name and one member's user id
(``Assignment#representatives`` in ``app/models/assignment.rb`` sets the representative's
``sortable_name`` to the group's name: ``group1_10001_<file id>_<file>``). A Moodle 4.1+ team
folder is found by the group's name (and id, when known).
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from grader.lms import roster as roster_mod
from grader.lms.platforms import MOODLE_DEFAULT_TEAM, Handin, Platform, as_moodle_writes

GROUP = ("group_name", "group", "group name", "team")
GROUP_ID = ("canvas_group_id", "group id", "group_id")
MEMBER = ("canvas_user_id", "member", "user id", "login_id", "user_id", "email", "student")
NAME = ("name", "full name", "sortable_name")


def canvas_writes(name: str) -> str:
    """A sortable name as content_zipper.rb writes it: lower case, letters, digits and ``_`` (Jones, Bob → jonesbob)."""
    return re.sub(r"[^\w]", "", name.lower())


class GroupsError(ValueError):
    """The group file cannot be used (the message says why, in plain words)."""


@dataclass(frozen=True)
class Member:
    member: str  # a platform id (digits) or a login, e-mail or name
    name: str = ""

    def handin(self, like: Handin, group: str) -> Handin | None:
        """This member as a hand-in of the group's file (None: no platform id, matched by name)."""
        if not self.member.isdigit():
            return None
        name = canvas_writes(self.name) if like.platform is Platform.CANVAS else self.name
        return replace(like, platform_id=self.member, name=name, group=group, anonymous=False)

    def names(self) -> set[str]:
        return {roster_mod.key(v) for v in (self.member, self.member.split("@")[0], self.name) if roster_mod.key(v)}


@dataclass(frozen=True)
class Groups:
    members: dict[str, tuple[Member, ...]] = field(default_factory=dict)  # group name → its members
    ids: dict[str, str] = field(default_factory=dict)  # group name → the platform's group id, when known
    source: str = ""

    def team(self, handin: Handin) -> str | None:
        """The group whose own folder ``handin`` is (Moodle 4.1+: ``<group>_<group id>``)."""
        if handin.platform is not Platform.MOODLE:
            return None
        for group in self.members:
            known = self.ids.get(group)
            if as_moodle_writes(group) == handin.name and (known is None or known == handin.platform_id):
                return group
        return None

    def named_for_group(self, handin: Handin) -> str | None:
        """The group whose name Canvas wrote in place of the member's (a group assignment's download)."""
        if handin.platform is not Platform.CANVAS:
            return None
        return next((g for g in self.members if canvas_writes(g) == handin.name), None)

    def of(self, handin: Handin) -> str | None:
        """The group ``handin``'s submitter is a member of (by platform id, else by name)."""
        for group, members in self.members.items():
            if any(m.member == handin.platform_id for m in members):
                return group
        if self.named_for_group(handin):
            return self.named_for_group(handin)
        wanted = roster_mod.key(handin.name)
        found = [g for g, members in self.members.items() if wanted and any(wanted in m.names() for m in members)]
        return found[0] if len(found) == 1 else None

    def split_moodle3(self, handin: Handin) -> Handin:
        """Moodle 3.x writes a team member as ``<group>-<full name>``: the group, split off."""
        for group in sorted([*self.members, MOODLE_DEFAULT_TEAM], key=len, reverse=True):
            written = as_moodle_writes(group)
            if handin.platform is Platform.MOODLE and handin.name.startswith(f"{written}-"):
                return replace(handin, name=handin.name[len(written) + 1:], group=group)
        return handin


def _column(header: list[str], wanted: tuple[str, ...]) -> str | None:
    lowered = {h.strip().lower(): h for h in header}
    return next((lowered[w] for w in wanted if w in lowered), None)


def load(path: Path) -> Groups:
    """The group file at ``path``; :class:`GroupsError` names the file and what to do."""
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise GroupsError(f"cannot read the group file {Path(path).name} ({exc}); save it as UTF-8 CSV") from exc
    try:
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    reader = csv.DictReader(text.splitlines(), dialect=dialect)
    header = list(reader.fieldnames or [])
    group_col, member_col = _column(header, GROUP), _column(header, MEMBER)
    if group_col is None or member_col is None:
        raise GroupsError(f"the group file {Path(path).name} needs a group column ('group_name' or 'group') and a "
                          f"member column ('canvas_user_id' or 'member'); its first line has: {', '.join(header)}")
    id_col, name_col = _column(header, GROUP_ID), _column(header, NAME)
    members: dict[str, list[Member]] = {}
    ids: dict[str, str] = {}
    for line, row in enumerate(reader, start=2):
        group, member = (row.get(group_col) or "").strip(), (row.get(member_col) or "").strip()
        if not group:  # a student in no group (Canvas's export lists them too)
            continue
        if not member:
            raise GroupsError(f"{Path(path).name}, line {line}: group {group!r} has a row with no member; "
                              f"fill in its {member_col} or delete the row")
        members.setdefault(group, []).append(Member(member, (row.get(name_col) or "").strip() if name_col else ""))
        if id_col and (row.get(id_col) or "").strip():
            ids[group] = row[id_col].strip()
    return Groups({g: tuple(m) for g, m in members.items()}, ids, Path(path).name)


def from_worksheet(roster: roster_mod.Roster) -> Groups | None:
    """The groups of a Moodle grading worksheet with a ``Group`` column (a team assignment), else None."""
    if roster.kind is not roster_mod.RosterKind.MOODLE_WORKSHEET or "Group" not in roster.header:
        return None
    members: dict[str, list[Member]] = {}
    for row in roster.rows:
        group, pid = (row.get("Group") or "").strip(), roster_mod.participant(row)
        if group and pid and group != MOODLE_DEFAULT_TEAM:
            members.setdefault(group, []).append(Member(pid, (row.get("Full name") or "").strip()))
    return Groups({g: tuple(m) for g, m in members.items()}, {}, roster.path.name) if members else None


def gather(group_file: Path | None, roster_file: Path | None) -> Groups | None:
    """The groups the run knows: the group file's, then the worksheet's for groups the file lacks."""
    found = [load(group_file)] if group_file is not None else []
    if roster_file is not None:
        try:
            sheet = from_worksheet(roster_mod.load(roster_file))
        except roster_mod.RosterError:
            sheet = None  # the CLI has refused a bad roster before this
        found += [sheet] if sheet is not None else []
    if not found:
        return None
    members = {g: m for groups in reversed(found) for g, m in groups.members.items()}
    ids = {g: i for groups in reversed(found) for g, i in groups.ids.items()}
    return Groups(members, ids, " and ".join(g.source for g in found))
