"""Finding a class's submissions and checking each file before any code of it runs.

Two layouts are read:

* nbgrader's: ``<folder>/<student>/<day>/<notebook>.ipynb`` (a ``timestamp.txt`` beside the
  notebooks gives the hand-in time);
* a Canvas or Moodle bulk download (:mod:`grader.platforms`), zipped or unzipped: files are
  grouped by the platform's student id, the newest resubmission of a file is graded (the older
  ones are named in a note), and a file whose name says no student is a "needs a human" entry,
  never a new student;
* flat: ``<folder>/<name>.ipynb`` where ``<name>`` is the student, optionally with the
  notebook's name in it (``alice.ipynb``, ``alice_01_tensors.ipynb``, ``01_tensors - Alice
  Smith.ipynb``). A flat file's notebook is recognised by its cells.

A zip (``--submissions download.zip``, or zips in the folder that are no student's hand-in) is
unpacked first (:mod:`grader.downloads`).

Every file is read here, in the grader's own process, and never executed: invalid JSON, an
unknown or renamed notebook, a link, a special file or a file over the size cap become plain-words
entries in the student's report. Files are opened without following links (a link could point at
the course's solutions), and nothing bigger than the cap is read.
"""

from __future__ import annotations

import json
import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

from grader import bounds, downloads, platforms, repair, settings
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
    findings: list[str] = field(default_factory=list)  # reasons for manual review (grader.scan)
    lang: str = "en"  # the notebook's language (metadata.ptcourse.lang): its kernel's and its feedback's
    origin: platforms.Handin | None = None  # who the platform's download says handed it in
    attributed: bool = True  # False: no student could be told from the file; never graded as one


def notebook_lang(nb) -> str:
    """The language a notebook records, ``metadata.ptcourse.lang`` (absent: English)."""
    meta = nb.get("metadata", {}).get("ptcourse", {}) if nb is not None else {}
    lang = meta.get("lang") if isinstance(meta, dict) else None
    known = isinstance(lang, str) and normalise_lang(lang) in (*LANGS, PSEUDO)
    return normalise_lang(lang) if known else "en"


def slug(text: str) -> str:
    """A student id nbgrader and file systems accept."""
    text = re.sub(r"[^A-Za-z0-9._-]+", "_", text.strip()).strip("._-")
    return text or "unnamed"


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
    return any(platforms.names_a_student(p.name) for p in folder.iterdir())


def _unattributed(path: Path, relative: str) -> Submission:
    return Submission(student=relative, notebook=None, path=path, attributed=False,
                      error=msg("grader.intake.unattributed", file=relative))


def from_platform_download(folder: Path, masters: dict[str, CourseNotebook],
                           max_bytes: int = MAX_NOTEBOOK_BYTES) -> list[Submission]:
    """A Canvas or Moodle download: one student per platform id, the newest of each resubmitted file."""
    newest: dict[tuple[str, str], list[tuple[platforms.Handin, Path]]] = {}
    subs = []
    for path in _files(folder):
        relative = path.relative_to(folder).as_posix()
        handin = platforms.parse(relative)
        if handin is None:
            subs.append(_unattributed(path, relative))
        elif not handin.original.lower().endswith(".ipynb"):
            subs.append(Submission(student=handin.student, notebook=None, path=path, origin=handin,
                                   error=msg("grader.intake.not_notebook", file=handin.original)))
        else:
            newest.setdefault((handin.student, handin.original), []).append((handin, path))
    for versions in newest.values():
        versions.sort(key=lambda hp: hp[0].version, reverse=True)
        handin, path = versions[0]
        named = Path(handin.original).stem
        sub = Submission(student=handin.student, notebook=named if named in masters else None, path=path,
                         origin=handin)
        _check(sub, masters, named if named in masters else None, max_bytes)
        if len(versions) > 1:
            with speaking(sub.lang):
                sub.notes.append(msg("grader.intake.newest", file=path.name,
                                     older=", ".join(p.name for _, p in versions[1:])))
        subs.append(sub)
    return subs


def _roots(folder: Path, max_bytes: int) -> list[Path]:
    """``folder``, or the unpacked zip it is, plus the zips in it that are nobody's hand-in."""
    if folder.is_file():
        return [downloads.unpack(folder, max_bytes).root]
    zips = [p for p in sorted(folder.glob("*.zip")) if p.is_file() and platforms.parse(p.name) is None]
    return [folder, *(downloads.unpack(z, max_bytes).root for z in zips)]


def _discover_one(folder: Path, day: str, masters: dict[str, CourseNotebook], max_bytes: int) -> list[Submission]:
    if any(p.is_dir() and (p / day).is_dir() for p in folder.iterdir()):
        return from_nbgrader_layout(folder, day, masters, max_bytes)
    entries = [p for p in folder.iterdir() if p.name != "__MACOSX"]
    if len(entries) == 1 and entries[0].is_dir() and not entries[0].is_symlink():
        return _discover_one(entries[0], day, masters, max_bytes)  # a download unpacked into a folder of its own
    if is_platform_download(folder):
        return from_platform_download(folder, masters, max_bytes)
    return from_flat_folder(folder, masters, max_bytes)


def discover(folder: Path, day: str, masters: dict[str, CourseNotebook],
             max_bytes: int = MAX_NOTEBOOK_BYTES) -> list[Submission]:
    """All submissions in ``folder`` (or in the zip it is), whichever layout it uses."""
    subs = []
    for root in _roots(Path(folder), max_bytes):
        subs += _discover_one(root, day, masters, max_bytes)
    return dedupe(subs)


def dedupe(subs: list[Submission]) -> list[Submission]:
    """One submission per (student, notebook): a second file for the same notebook is reported."""
    seen: dict[tuple[str, str], Submission] = {}
    out = []
    for sub in subs:
        if sub.notebook is None:
            out.append(sub)
            continue
        key = (sub.student, sub.notebook)
        if key in seen:
            with speaking(seen[key].lang):
                seen[key].notes.append(msg("grader.file.duplicate", file=sub.path.name, notebook=sub.notebook))
            continue
        seen[key] = sub
        out.append(sub)
    return out
