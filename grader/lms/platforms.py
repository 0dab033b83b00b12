"""Hand-ins as learning platforms download them: Canvas's and Moodle's file names, read.

Each rule below is read from the platform's own code; the source file is named beside it.

**Canvas** ("Download Submissions"), from ``lib/content_zipper.rb`` (instructure/canvas-lms, commit
05e9653c: ``add_upload_submission``, ``get_filename``, ``sanitize_*``): one flat zip; each uploaded
file is written as ``<prefix>_<attachment id>_<display name>`` where ``<prefix>`` is

* ``<sortable name>_<user id>``: the sortable name ("Smith, Alice") lower-cased with everything but
  letters, digits and ``_`` removed (``smithalice``; letters of any script are kept);
* ``<name>_LATE_<user id>`` for a late hand-in (Canvas before 2019 lower-cased the whole prefix:
  ``_late_``);
* ``anon_<anonymous id>`` or ``LATE_anon_<anonymous id>`` when the assignment grades anonymously
  (no name; the anonymous id is the submission's, not a user id: no roster row is ever guessed).

The user id is the ``ID`` column of a Canvas gradebook export. The attachment id grows with every
upload, so of two uploads of one file the higher id is the newer. A group assignment's download
holds one submission per group, under the group's name and one member's id
(``Assignment#representatives`` in ``app/models/assignment.rb``: ``group1_10001_...``).
A file a student uploaded again under a name already taken is renamed by
``Attachment.make_unique_filename`` (``app/models/attachment.rb``): ``name-1.ipynb`` ...
``name-7.ipynb``, then ``name-<uuid>.ipynb``. Only those suffixes are versions: ``lab-2023.ipynb``
is a file named ``lab-2023``.

**Moodle** ("Download all submissions"). Moodle 4.1 and later, from
``mod/assign/classes/downloader.php`` (``get_student_prefix``, ``load_submissionplugin_filelist``);
Moodle 3.1 to 4.0, from ``mod/assign/locallib.php`` ``download_submissions`` (moodle/moodle). The
prefix is the full name with ``_`` turned into spaces, then ``_<participant id>``:

* "Download submissions in folders" on: ``<prefix>_assignsubmission_file/<file>`` (4.1+; a
  sub-folder the student made is kept) or ``<prefix>_assignsubmission_file_/<file>`` (3.1-4.0);
* off: ``<prefix>_assignsubmission_file_<file>`` (every version);
* blind marking: the name is ``Participant`` (``Participant_<id>_...``);
* team submissions, 4.1+: one folder per group, ``<group name>_<group id>_assignsubmission_file/``
  (the id is the group's, not a participant's), and ``Default group_assignsubmission_file/`` with
  no id for students in no group (Moodle writes only one of them); 3.1-4.0: one folder per member,
  ``<group name>-<full name>_<participant id>_...``.

The participant id is the ``Identifier`` column (``Participant <id>``) of the assignment's grading
worksheet; the worksheet has a ``Group`` column when the assignment takes team submissions
(:mod:`grader.lms.groups` reads it). Moodle downloads only each student's latest attempt; two files
of one name in it were renamed on upload by ``file_storage::get_unused_filename``
(``lib/filestorage/file_storage.php``): ``name (1).ipynb``, ``name (2).ipynb`` ...

:func:`parse_canvas` and :func:`parse_moodle` turn a path (relative to the download's root) into a
:class:`Handin`, or None when the name does not follow that platform's naming; each platform's module
(:mod:`grader.lms.canvas`, :mod:`grader.lms.moodle`) uses its own, and :func:`grader.lms.registry.parse`
asks every platform. Nothing here reads a file.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import asdict, dataclass
from enum import Enum
from pathlib import Path, PurePosixPath

IDENTITIES = "identities.json"  # in reports/<day>/: each student's Handin, for the grade exports


class Platform(str, Enum):
    CANVAS = "canvas"
    MOODLE = "moodle"


class Layout(str, Enum):
    """The download naming a hand-in was read from (for the report and the layout error)."""

    CANVAS = "Canvas"
    CANVAS_ANONYMOUS = "Canvas, anonymous grading"
    MOODLE_FOLDERS = "Moodle 4.1+, in folders"
    MOODLE_3_FOLDERS = "Moodle 3.x, in folders"
    MOODLE_FILES = "Moodle, not in folders"


@dataclass(frozen=True)
class Handin:
    """Who handed a file in, as the platform's download names it."""

    platform: Platform
    platform_id: str  # Canvas user id (anon_<id> when anonymous), Moodle participant id (or group id)
    name: str  # "smithalice" (Canvas) or "Alice Smith" (Moodle)
    original: str  # the file's name as the student uploaded it, without a resubmission suffix
    late: bool = False  # Canvas's LATE mark
    version: int = 0  # Canvas's -1, -2 ..., Moodle's " (1)", " (2)" ...: a later upload of the same name
    file_id: int = 0  # Canvas's attachment id: higher is newer
    anonymous: bool = False  # Canvas anonymous grading, Moodle blind marking
    group: str = ""  # the group the hand-in is for (a team folder, or a group file's group)
    layout: str = ""  # Layout's value

    @property
    def student(self) -> str:
        """The grader's id for this student: the name (letters of any script) and the platform's id, file-system safe."""
        from grader.lms.names import student_id

        if self.platform_id.startswith("anon_"):  # nothing but the anonymous id is known
            return self.platform_id
        return f"{student_id(self.name, 'student')}_{self.platform_id}"


# Canvas: content_zipper.rb get_filename: [name, "LATE", id].compact.join("_"), kept to Ruby's [[:word:]] (letters,
# marks, digits, "_": :func:`_words` lets Python's \w read the marks too), then "_<attachment id>_<name>" for an
# upload, "_text.html" for a text entry and "_link.html" for a URL (add_text_or_url).
CANVAS_ANON = re.compile(r"(?:(?P<late>LATE|late)_)?anon_(?P<aid>[A-Za-z0-9]+)_(?P<fid>\d+)_(?P<original>.+)")
CANVAS = re.compile(r"(?P<name>\w+?)_(?:(?P<late>LATE|late)_)?(?P<uid>\d+)_(?P<fid>\d+)_(?P<original>.+)")
CANVAS_ONLINE_ANON = re.compile(r"(?:(?P<late>LATE|late)_)?anon_(?P<aid>[A-Za-z0-9]+)_(?P<original>(?:text|link)\.html)")
CANVAS_ONLINE = re.compile(r"(?P<name>\w+?)_(?:(?P<late>LATE|late)_)?(?P<uid>\d+)_(?P<original>(?:text|link)\.html)")
CANVAS_RULES = (CANVAS_ANON, CANVAS, CANVAS_ONLINE_ANON, CANVAS_ONLINE)
# Moodle: "<prefix>_assignsubmission_<plugin>" + "/" (4.1+ folders), "_/" (3.x folders) or "_<file>" (no folders).
MOODLE = re.compile(r"(?P<name>[^_/]+?)(?:_(?P<pid>\d+))?_assignsubmission_(?P<plugin>[a-z]+)"
                    r"(?:(?P<folder3>_)|_(?P<rest>.+))?")
MOODLE_PARTICIPANT = "Participant"  # get_string('participant', 'mod_assign') in English: blind marking
MOODLE_DEFAULT_TEAM = "Default group"  # get_string('defaultteam', 'mod_assign') in English
# attachment.rb make_unique_filename: "-1" ... "-7" (then a uuid); the extension as it reads it.
CANVAS_VERSION = re.compile(r"(?P<stem>.+)-(?P<n>[1-7]|[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12})"
                            r"(?P<ext>(?:\.[A-Za-z][A-Za-z0-9]*)*\.[A-Za-z0-9]*)")
MOODLE_VERSION = re.compile(r"(?P<stem>.+) \((?P<n>\d+)\)(?P<ext>\.[A-Za-z0-9]+)")  # file_storage.php


def split_version(original: str, platform: Platform) -> tuple[str, int]:
    """``01_tensors-2.ipynb`` → (``01_tensors.ipynb``, 2) on Canvas; ``lab-2023.ipynb`` stays itself."""
    rule = CANVAS_VERSION if platform is Platform.CANVAS else MOODLE_VERSION
    match = rule.fullmatch(original)
    if match is None:
        return original, 0
    n = match["n"]
    return match["stem"] + match["ext"], int(n) if n.isdigit() else 8  # a uuid: after -7


def _words(text: str) -> str:
    """``text`` with each combining mark (Unicode category M: Devanagari's vowel signs, a decomposed accent) as
    "m": one character for one, so a match's spans hold in ``text``. Ruby's ``[[:word:]]``, which Canvas keeps,
    has the marks; Python's ``\\w`` has not."""
    return "".join("m" if unicodedata.category(c).startswith("M") else c for c in text)


def canvas_match(file_name: str) -> tuple[re.Pattern, dict[str, str | None]] | None:
    """The first of :data:`CANVAS_RULES` that ``file_name`` follows, and its groups (read in ``file_name``)."""
    view = _words(file_name)
    for rule in CANVAS_RULES:
        match = rule.fullmatch(view)
        if match is not None:
            return rule, {g: file_name[match.start(g):match.end(g)] if match[g] is not None else None
                          for g in rule.groupindex}
    return None


def parse_canvas(file_name: str) -> Handin | None:
    """``smithalice_LATE_10001_5551_01_tensors-1.ipynb`` → its student, id, LATE mark and version; a text entry
    or a URL (``smithalice_10001_text.html``) → its student, with the file it is."""
    found = canvas_match(file_name)
    if found is None:
        return None
    rule, match = found
    anon = rule in (CANVAS_ANON, CANVAS_ONLINE_ANON)
    original, version = split_version(match["original"], Platform.CANVAS)
    who = {"platform_id": f"anon_{match['aid']}", "name": "", "anonymous": True,
           "layout": Layout.CANVAS_ANONYMOUS.value} if anon else {
        "platform_id": match["uid"], "name": match["name"], "layout": Layout.CANVAS.value}
    return Handin(Platform.CANVAS, original=original, late=bool(match["late"]), version=version,
                  file_id=int(match.get("fid") or 0), **who)


def moodle_cleaned(name: str) -> str:
    """A person's full name as Moodle's download writes it (mod/assign downloader.php get_student_prefix):
    ``_`` turned into a space, then ``clean_filename`` (moodlelib.php clean_param PARAM_FILE: control characters
    and ``& < > " ` | ' : \\ /`` removed; ``*`` and ``?`` are kept)."""
    return re.sub(r"[\x00-\x1f\x7f&<>\"`|':\\/]", "", name.replace("_", " ")).strip()


def as_moodle_writes(group: str) -> str:
    """A group's name as Moodle's download writes it: ``format_string`` first (an ``&`` that starts no entity
    becomes ``&amp;``: weblib.php replace_ampersands_not_followed_by_entity), then as a person's name
    (:func:`moodle_cleaned`). So ``Bob's team`` is ``Bobs team`` and ``R&D`` is ``Ramp;D``."""
    return moodle_cleaned(re.sub(r"&(?![a-zA-Z0-9#]{1,8};)", "&amp;", group))


def _moodle_part(part: str, below: list[str]) -> Handin | None:
    """One path part in Moodle's naming, and the parts below it, as a hand-in (None: not Moodle's)."""
    match = MOODLE.fullmatch(part)
    if match is None:
        return None
    if match["rest"] is not None:
        layout, rest = Layout.MOODLE_FILES, [match["rest"], *below]
    else:
        layout, rest = (Layout.MOODLE_3_FOLDERS if match["folder3"] else Layout.MOODLE_FOLDERS), below
    if not rest or not rest[-1]:
        return None
    name = match["name"].strip()
    if not match["pid"] and name != MOODLE_DEFAULT_TEAM:
        return None
    original, version = split_version(rest[-1], Platform.MOODLE)
    return Handin(Platform.MOODLE, match["pid"] or "", name, original, version=version,
                  anonymous=name == MOODLE_PARTICIPANT, layout=layout.value)


def parse_moodle(relative: str) -> Handin | None:
    """``Bob Jones_123457_assignsubmission_file/nb.ipynb`` (4.1+), ``..._file_/nb.ipynb`` (3.x), or
    ``..._file_nb.ipynb``. A hand-in with no id is Moodle's "Default group": whose, it does not say."""
    parts = list(PurePosixPath(relative).parts)
    for i, part in enumerate(parts):
        handin = _moodle_part(part, parts[i + 1:])
        if handin is not None:
            return handin
    return None


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
