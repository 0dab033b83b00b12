"""Finding a class's submissions and checking each file before any code of it runs.

Two layouts are read:

* nbgrader's: ``<folder>/<student>/<day>/<notebook>.ipynb`` (a ``timestamp.txt`` beside the
  notebooks gives the hand-in time);
* a Canvas or Moodle bulk download (:mod:`grader.lms.platforms`), zipped or unzipped: files are
  grouped by the platform's student id, the newest resubmission of a file is graded (the older
  ones are named in a note), and a file whose name says no student is a "needs a human" entry,
  never a new student;
* flat: ``<folder>/<name>.ipynb`` where ``<name>`` is the student, optionally with the
  notebook's name in it (``alice.ipynb``, ``alice_01_tensors.ipynb``, ``01_tensors - Alice
  Smith.ipynb``). A flat file's notebook is recognised by its cells.

A zip (``--submissions download.zip``, or zips in the folder that are no student's hand-in) is
unpacked first (:mod:`grader.intake.downloads`). A ``.zip`` a student uploaded is opened too, under the
same limits; a damaged one is a note on that student's row, never the end of the run.

With groups (:mod:`grader.lms.groups`), a group's submission is graded for every member: each gets
a copy with a note saying whose submission it was. Files that name nobody, a damaged archive or
two files for one notebook are ``intake_problem``: the run grades the rest and exits non-zero.
A download in which no file names a student stops the run (:class:`LayoutError`), naming what
it holds: an empty class is never reported as graded.

Every file is read here, in the grader's own process, and never executed: invalid JSON, an
unknown or renamed notebook, a link, a special file or a file over the size cap become plain-words
entries in the student's report. Files are opened without following links (a link could point at
the course's solutions), and nothing bigger than the cap is read.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import os
import stat
import zipfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

import nbformat

from grader import settings
from grader.intake import downloads, repair
from grader.jail import bounds
from grader.lms import groups as groups_mod
from grader.lms import platforms, registry
from ptcourse.messages import LANGS, PSEUDO, msg, normalise_lang, speaking
from ptcourse.nbmodel import CourseNotebook, notebook_text

MAX_NOTEBOOK_BYTES = 50 * 1024**2


@dataclass
class Submission:
    """One notebook handed in by one student."""

    student: str
    notebook: str | None  # the assignment's notebook name; None if unrecognised
    path: Path
    nb: nbformat.NotebookNode | None = None
    timestamp: str | None = None
    notes: list[str] = field(default_factory=list)  # plain-words report entries
    error: str | None = None  # why it cannot be graded at all
    findings: list[str] = field(default_factory=list)  # reasons for manual review (grader.intake.scan)
    lang: str = "en"  # the notebook's language (metadata.ptcourse.lang): its kernel's and its feedback's
    origin: platforms.Handin | None = None  # who the platform's download says handed it in
    attributed: bool = True  # False: no student could be told from the file; never graded as one
    intake_problem: str | None = None  # what an instructor must look at (the run exits non-zero)


class LayoutError(downloads.DownloadError):
    """The submissions follow no layout the grader reads, or name no student: nothing would be graded."""


def notebook_lang(nb) -> str:
    """The language a notebook records, ``metadata.ptcourse.lang`` (absent: English)."""
    meta = nb.get("metadata", {}).get("ptcourse", {}) if nb is not None else {}
    lang = meta.get("lang") if isinstance(meta, dict) else None
    known = isinstance(lang, str) and normalise_lang(lang) in (*LANGS, PSEUDO)
    return normalise_lang(lang) if known else "en"


def slug(text: str) -> str:
    """A student id nbgrader and file systems accept, keeping letters of any script (grader.lms.names)."""
    from grader.lms.names import student_id

    return student_id(text)


def read_bytes_safely(path: Path, max_bytes: int = MAX_NOTEBOOK_BYTES) -> tuple[bytes | None, str | None]:
    """A regular file's bytes, read without following a link and never past ``max_bytes``."""
    name = Path(path).name
    try:
        info = os.lstat(path)
    except OSError as exc:
        return None, msg("grader.file.unreadable", reason=exc.strerror)
    if stat.S_ISLNK(info.st_mode):
        return None, msg("grader.file.link", file=name)
    if not stat.S_ISREG(info.st_mode):
        return None, msg("grader.file.special", file=name)
    if info.st_size > max_bytes:
        return None, msg("grader.file.too_big", file=name, size=f"{info.st_size / 1024**2:.0f}",
                         limit=f"{max_bytes / 1024**2:.0f}")
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        return None, msg("grader.file.unreadable", reason=exc.strerror)
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):  # swapped after the check
            return None, msg("grader.file.special", file=name)
        data = f.read(max_bytes + 1)
    if len(data) > max_bytes:
        return None, msg("grader.file.too_big", file=name, size=f"{len(data) / 1024**2:.0f}",
                         limit=f"{max_bytes / 1024**2:.0f}")
    return data, None


def read_notebook(path: Path, max_bytes: int = MAX_NOTEBOOK_BYTES) -> tuple[nbformat.NotebookNode | None, str | None]:
    """The notebook, or the reason it cannot be read, in plain words."""
    data, error = read_bytes_safely(path, max_bytes)
    if error:
        return None, error
    try:
        raw = notebook_text(data)  # a byte-order mark (some Windows editors) is read past
    except UnicodeDecodeError:
        return None, msg("grader.file.not_text")
    if bounds.json_depth(raw.encode()) > settings.NOTEBOOK_DEPTH:  # json.loads would raise RecursionError
        return None, msg("grader.file.too_deep", depth=settings.NOTEBOOK_DEPTH)
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        return None, msg("grader.file.bad_json", line=exc.lineno, column=exc.colno, error=exc.msg)
    if not isinstance(data, dict) or "cells" not in data:
        return None, msg("grader.file.not_notebook")
    try:
        nb = nbformat.reads(raw, as_version=4)
    except Exception as exc:  # nbformat raises several types for bad structure
        return None, msg("grader.file.broken", error=f"{type(exc).__name__}: {str(exc)[:200]}")
    return nb, None


def _check(sub: Submission, masters: dict[str, CourseNotebook], named_as: str | None,
           max_bytes: int = MAX_NOTEBOOK_BYTES) -> None:
    """Read the file, recognise its notebook, note renames."""
    nb, error = read_notebook(sub.path, max_bytes)
    if error:
        sub.error = error
        sub.notebook = named_as if named_as in masters else sub.notebook
        return
    sub.nb = nb
    sub.lang = notebook_lang(nb)
    found = repair.identify(nb, masters)
    if named_as in masters and (found is None or found == named_as):
        sub.notebook = named_as
    elif found is not None:
        sub.notebook = found
        if named_as is not None:
            with speaking(sub.lang):
                sub.notes.append(msg("grader.file.recognised", file=sub.path.name, notebook=found))
    else:
        sub.notebook = None
        with speaking(sub.lang):
            sub.error = msg("grader.file.no_graded_cells")


def from_nbgrader_layout(folder: Path, day: str, masters: dict[str, CourseNotebook],
                         max_bytes: int = MAX_NOTEBOOK_BYTES) -> list[Submission]:
    """``<folder>/<student>/<day>/*.ipynb``; linked folders are reported, never followed."""
    subs = []
    for student_dir in sorted(p for p in folder.iterdir() if p.is_dir()):
        day_dir = student_dir / day
        if not day_dir.is_dir():
            continue
        linked = next((p for p in (student_dir, day_dir) if p.is_symlink()), None)
        if linked is not None:
            subs.append(Submission(student=student_dir.name, notebook=None, path=linked,
                                   error=msg("grader.file.link", file=linked.name)))
            continue
        data, _ = read_bytes_safely(day_dir / "timestamp.txt", 4096)
        timestamp = data.decode("utf-8", "replace").strip() if data else None
        for path in sorted(day_dir.glob("*.ipynb")):
            sub = Submission(student=student_dir.name, notebook=None, path=path, timestamp=timestamp)
            _check(sub, masters, path.stem, max_bytes)
            subs.append(sub)
    return subs


def _flat_student(stem: str, masters: dict[str, CourseNotebook]) -> tuple[str, str | None]:
    """Split ``alice_01_tensors`` into the student and the notebook named in the file name."""
    for name in sorted(masters, key=len, reverse=True):
        if name in stem:
            rest = stem.replace(name, " ")
            return slug(rest), name
    return slug(stem), None


def from_flat_folder(folder: Path, masters: dict[str, CourseNotebook],
                     max_bytes: int = MAX_NOTEBOOK_BYTES) -> list[Submission]:
    """``<folder>/<student>[_<notebook>].ipynb``."""
    subs = []
    for path in sorted(folder.glob("*.ipynb")):
        student, named = _flat_student(path.stem, masters)
        sub = Submission(student=student, notebook=named, path=path)
        _check(sub, masters, named, max_bytes)
        subs.append(sub)
    return subs


def _files(folder: Path) -> list[Path]:
    """Every file under ``folder``, in order; linked folders are not entered."""
    found = []
    for root, dirs, files in os.walk(folder):
        dirs.sort()
        found += [Path(root) / name for name in sorted(files)]
    return found


def is_platform_download(folder: Path) -> bool:
    """Does any file or folder name in ``folder`` follow Canvas's or Moodle's download naming?"""
    return any(registry.names_a_student(p.name) for p in folder.iterdir())


def _unattributed(path: Path, relative: str, message: str = "grader.intake.unattributed") -> Submission:
    text = msg(message, file=relative)
    return Submission(student=relative, notebook=None, path=path, attributed=False, error=text,
                      intake_problem=text)


def _problem(path: Path, handin: platforms.Handin, text: str) -> Submission:
    """A file of a known student that cannot be graded and needs the instructor."""
    return Submission(student=handin.student, notebook=None, path=path, origin=handin, error=text,
                      intake_problem=text)


Candidate = tuple[platforms.Handin, Path]


def _opened(path: Path, handin: platforms.Handin, max_bytes: int) -> tuple[list[Candidate], list[Submission]]:
    """The notebooks in a ``.zip`` a student uploaded (same limits as the download's), or why there are none;
    a notebook in it that could not be unpacked is a problem on the student's row."""
    try:
        unpacked = downloads.unpack(path, max_bytes)
    except downloads.DownloadError:
        return [], [_problem(path, handin, msg("grader.intake.bad_archive", file=handin.original))]
    lost = _not_unpacked(handin.original, unpacked, handin)
    inner = [(dataclasses.replace(handin, original=p.name, version=0), p) for p in _files(unpacked.root)
             if p.suffix.lower() == ".ipynb" and ".ipynb_checkpoints" not in p.parts]
    if not inner and not lost:
        return [], [_problem(path, handin, msg("grader.intake.archive_no_notebook", file=handin.original))]
    return inner, lost


def _reads_as_notebook(path: Path, max_bytes: int) -> bool:
    """Whether a file whose name does not end in ``.ipynb`` (``00_environment``, ``lab.ipynb.txt``: a platform keeps
    the name it was uploaded with) is a notebook all the same."""
    return read_notebook(path, max_bytes)[0] is not None


def _read_download(folder: Path, groups: groups_mod.Groups | None,
                   max_bytes: int) -> tuple[list[Candidate], list[Submission]]:
    """Every notebook the download names a student for; the other files as plain-words entries."""
    found: list[Candidate] = []
    subs: list[Submission] = []
    for path in _files(folder):
        relative = path.relative_to(folder).as_posix()
        handin = registry.parse(relative)
        if handin is None:
            subs.append(_unattributed(path, relative))
        elif not handin.platform_id:  # Moodle 4.1+'s "Default group": one member's files, whose unknown
            subs.append(_unattributed(path, relative, "grader.intake.default_group"))
        else:
            handin = groups.split_moodle3(handin) if groups is not None else handin
            if handin.original.lower().endswith(".zip"):
                inner, problems = _opened(path, handin, max_bytes)
                found, subs = found + inner, subs + problems
            elif handin.original.lower().endswith(".ipynb") or _reads_as_notebook(path, max_bytes):
                found.append((handin, path))  # a notebook uploaded without its ".ipynb" is one too (graded by its cells)
            else:
                subs.append(Submission(student=handin.student, notebook=None, path=path, origin=handin,
                                       error=msg("grader.intake.not_notebook", file=handin.original)))
    return found, subs


def from_platform_download(folder: Path, masters: dict[str, CourseNotebook],
                           max_bytes: int = MAX_NOTEBOOK_BYTES,
                           groups: groups_mod.Groups | None = None) -> list[Submission]:
    """A Canvas or Moodle download: one student per platform id, the newest of each resubmitted file."""
    found, subs = _read_download(folder, groups, max_bytes)
    newest: dict[tuple[str, str], list[Candidate]] = {}
    for handin, path in found:
        newest.setdefault((handin.student, handin.original), []).append((handin, path))
    for versions in newest.values():
        versions.sort(key=lambda hp: (hp[0].version, hp[0].file_id), reverse=True)  # Canvas's ids grow
        handin, path = versions[0]
        named = Path(handin.original).stem
        sub = Submission(student=handin.student, notebook=named if named in masters else None, path=path,
                         origin=handin)
        told = named in masters or not handin.original.lower().endswith(".ipynb")  # a note if graded as another
        _check(sub, masters, named if told else None, max_bytes)
        if len(versions) > 1:
            with speaking(sub.lang):
                sub.notes.append(msg("grader.intake.newest", file=path.name,
                                     older=", ".join(p.name for _, p in versions[1:])))
        subs.append(sub)
    return subs


def _copy_for(sub: Submission, member: groups_mod.Member, group: str, note: str,
              known: dict[str, str]) -> Submission:
    """``sub`` graded again as ``member``'s, with ``note`` on their row (under the id their own files have)."""
    handin = member.handin(sub.origin, group)
    student = (known.get(handin.platform_id, handin.student) if handin is not None else slug(member.member))
    return dataclasses.replace(sub, student=student, origin=handin, nb=copy.deepcopy(sub.nb),
                               notes=[*sub.notes, note], findings=[])


def _submitted_by(member: groups_mod.Member, handin: platforms.Handin) -> bool:
    return member.member == handin.platform_id or groups_mod.roster_mod.key(handin.name) in member.names()


def _canvas_group(sub: Submission, group: str, groups: groups_mod.Groups,
                  known: dict[str, str]) -> tuple[Submission, list[Submission]]:
    """A Canvas group submission: the submitter's row (under their own id, not the group's name Canvas put
    in the file name) and a copy for every other member of ``group``."""
    handin = sub.origin
    members = groups.members[group]
    submitter = next((m for m in members if _submitted_by(m, handin)), None)
    renamed = groups.named_for_group(handin) is not None
    who = (submitter.name or submitter.member) if submitter is not None and renamed else handin.name
    note = msg("grader.group.by_member", group=group, member=who or handin.platform_id)
    first = _copy_for(sub, submitter, group, note, known) if renamed and submitter is not None else sub
    return first, [_copy_for(sub, m, group, note, known) for m in members if m is not submitter]


def with_groups(subs: list[Submission], groups: groups_mod.Groups | None) -> list[Submission]:
    """Each group submission graded for every member: a Moodle team folder becomes its members' copies,
    a Canvas submission by one member gains a copy for each other member (after everyone's own files)."""
    if groups is None:
        return subs
    own, copies = [], []
    known = {s.origin.platform_id: s.student for s in subs if s.origin is not None and s.attributed
             and groups.team(s.origin) is None and groups.named_for_group(s.origin) is None}
    for sub in subs:
        handin = sub.origin
        team = groups.team(handin) if handin is not None and sub.attributed else None
        group = None if handin is None or team or not sub.attributed else groups.of(handin)
        with speaking(sub.lang):
            if team is not None:
                note = msg("grader.group.team", group=team)
                own += [_copy_for(sub, m, team, note, known) for m in groups.members[team]]
            elif group is not None and sub.path.suffix.lower() == ".ipynb":
                first, others = _canvas_group(sub, group, groups, known)
                own.append(first)
                copies += others
            else:
                own.append(sub)
    return own + copies


def _class_zips(folder: Path) -> list[Path]:
    """The zips the class's files come in: ``folder`` itself, or the zips in it that are nobody's hand-in."""
    if folder.is_file():
        return [folder]
    return [p for p in sorted(folder.glob("*.zip")) if p.is_file() and registry.parse(p.name) is None]


def _owner(name: str) -> platforms.Handin | None:
    """Whose hand-in a member of a class's zip is, by its name (or by its name inside one wrapping folder)."""
    parts = PurePosixPath(name).parts
    for relative in (name, "/".join(parts[1:])) if len(parts) > 1 else (name,):
        handin = registry.parse(relative)
        if handin is not None and handin.platform_id:
            return handin
    return None


def _not_unpacked(archive: str, unpacked: downloads.Unpacked,
                  handin: platforms.Handin | None = None) -> list[Submission]:
    """An entry that needs the instructor for each notebook (or zip) in ``archive`` that could not be unpacked:
    on its student's row (``handin``'s, for a student's own zip; else the one its name says), or nobody's."""
    entries = []
    for skipped in unpacked.skipped:
        if not skipped.name.lower().endswith((".ipynb", ".zip")):
            continue  # nothing the grader would have read
        text = msg("grader.intake.member_skipped", file=skipped.name, archive=archive,
                   why=msg(f"grader.intake.skip.{skipped.reason.value}"))
        path = Path(PurePosixPath(skipped.name.replace("\\", "/")).name or archive)  # a name, never read
        owner = handin or (_owner(skipped.name) if skipped.reason is not downloads.SkipReason.UNSAFE else None)
        entries.append(_problem(path, owner, text) if owner is not None else Submission(
            student=skipped.name, notebook=None, path=path, attributed=False, error=text, intake_problem=text))
    return entries


def _roots(folder: Path, max_bytes: int) -> tuple[list[Path], list[Submission]]:
    """``folder``, or the unpacked zip it is, plus the zips in it that are nobody's hand-in; such a zip that
    cannot be opened, or a notebook in one that cannot be unpacked, is a "needs a human" entry, never the
    end of the run."""
    roots, bad = ([] if folder.is_file() else [folder]), []
    for path in _class_zips(folder):
        try:
            unpacked = downloads.unpack(path, max_bytes)
        except downloads.DownloadError:
            if path == folder:
                raise
            bad.append(_unattributed(path, path.name, "grader.intake.bad_archive"))
            continue
        roots.append(unpacked.root)
        bad += _not_unpacked(path.name, unpacked)
    return roots, bad


def names_read(folder: Path) -> list[tuple[str, str]]:
    """``(zip, encoding's name)`` for each of the class's zips whose names are not marked as UTF-8 but hold letters
    outside ASCII: the encoding they were read in was worked out (:func:`grader.intake.downloads.names_encoding`)."""
    read = []
    for path in _class_zips(Path(folder)):
        try:
            with zipfile.ZipFile(path) as zf:
                infos = zf.infolist()
        except (OSError, zipfile.BadZipFile):
            continue
        if downloads.unmarked(infos):
            read.append((path.name, downloads.ENCODING_NAMES[downloads.names_encoding(infos)]))
    return read


def _discover_one(folder: Path, day: str, masters: dict[str, CourseNotebook], max_bytes: int,
                  groups: groups_mod.Groups | None = None) -> list[Submission]:
    if any(p.is_dir() and (p / day).is_dir() for p in folder.iterdir()):
        return from_nbgrader_layout(folder, day, masters, max_bytes)
    entries = [p for p in folder.iterdir() if p.name != "__MACOSX"]
    if (len(entries) == 1 and entries[0].is_dir() and not entries[0].is_symlink()
            and not registry.names_a_student(entries[0].name)):  # one Moodle student's folder is no wrapper
        return _discover_one(entries[0], day, masters, max_bytes, groups)  # a download unpacked into a folder
    if is_platform_download(folder):
        return from_platform_download(folder, masters, max_bytes, groups)
    return from_flat_folder(folder, masters, max_bytes)


def _seen(roots: list[Path]) -> str:
    """What a folder holds, in a few names, for the layout error."""
    count, tops = 0, set()
    for root in roots:
        for path in _files(root):
            count += 1
            tops.add(path.relative_to(root).parts[0])
    names = sorted(tops)
    shown = ", ".join(repr(n) for n in names[:4]) + (", ..." if len(names) > 4 else "")
    return f"{count} file(s) under {len(names)} name(s) at the top ({shown or 'nothing'})"


def layout_error(folder: Path, day: str, roots: list[Path], subs: list[Submission]) -> LayoutError:
    """No student in ``folder``: what it holds, and the layouts the grader reads."""
    why = (f"every file's name says no student ({len(subs)} file(s))" if subs
           else "no notebook was found where any layout puts one")
    return LayoutError(
        f"{Path(folder).name}: nothing to grade: {why}. It holds {_seen(roots)}. The grader reads nbgrader's "
        f"<student>/{day}/<notebook>.ipynb, a flat folder of <student>[_<notebook>].ipynb, Canvas's "
        "<name>_[LATE_]<user id>_<file id>_<file> (or anon_<id>_...), and Moodle's "
        "<Full name>_<id>_assignsubmission_file[_]/<file> (3.x, 4.1+, team and blind marking; "
        "README: Platforms). Nothing was graded; check that this is the right download for this day.")


def discover(folder: Path, day: str, masters: dict[str, CourseNotebook],
             max_bytes: int = MAX_NOTEBOOK_BYTES, groups: groups_mod.Groups | None = None) -> list[Submission]:
    """All submissions in ``folder`` (or in the zip it is), whichever layout it uses; :class:`LayoutError`
    when none names a student."""
    roots, subs = _roots(Path(folder), max_bytes)
    opened = {p for p in Path(folder).glob("*.zip")} if Path(folder).is_dir() else set()
    for root in roots:  # a zip the roots opened (or found broken) is not also a file of nobody's
        subs += [s for s in _discover_one(root, day, masters, max_bytes, groups)
                 if s.attributed or s.path not in opened]
    if not any(s.attributed for s in subs):
        raise layout_error(folder, day, roots, subs)
    return dedupe(with_groups(subs, groups))


def distinct_on_any_disk(subs: list[Submission]) -> None:
    """Two students whose ids differ only in letter case (``Alice.ipynb``, ``alice.ipynb`` in a flat
    folder) would share one feedback folder on a case-insensitive disk (macOS, Windows): each id after
    the first gets a number, and the student's notes say so."""
    owners: dict[str, str] = {}
    renamed: dict[str, str] = {}
    for sub in subs:
        if sub.student in renamed:
            sub.student = renamed[sub.student]
            continue
        key = sub.student.casefold()
        if owners.setdefault(key, sub.student) == sub.student:
            continue
        n = 2
        while f"{key}_{n}" in owners:
            n += 1
        new = renamed[sub.student] = owners[f"{key}_{n}"] = f"{sub.student}_{n}"
        with speaking(sub.lang):
            sub.notes.append(msg("grader.file.case_clash", student=new, other=owners[key]))
        sub.student = new


def dedupe(subs: list[Submission]) -> list[Submission]:
    """One submission per (student, notebook): a second file for the same notebook is reported; no two
    students' ids differ in letter case only (:func:`distinct_on_any_disk`)."""
    distinct_on_any_disk(subs)
    seen: dict[tuple[str, str], Submission] = {}
    out = []
    for sub in subs:
        if sub.notebook is None:
            out.append(sub)
            continue
        key = (sub.student, sub.notebook)
        if key in seen:
            with speaking(seen[key].lang):
                clash = msg("grader.file.duplicate", file=sub.path.name, notebook=sub.notebook)
                seen[key].notes.append(clash)
                seen[key].intake_problem = clash
            continue
        seen[key] = sub
        out.append(sub)
    return out
