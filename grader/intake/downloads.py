"""A platform's zipped download, unpacked safely before the grader reads it.

Canvas and Moodle hand out a class's submissions as one zip. :func:`unpack` extracts it into a
fresh private folder without trusting its member names: absolute paths, ``..``, links and
special files are skipped, as are members it cannot read (damaged, encrypted, an unknown
compression); each is listed with why (:class:`Skipped`), for the class's intake to say
(grader.intake.submissions). Each member is cut off past the notebook size cap (the reader then
reports it as too big), and the whole archive stops at a total size and a member count.
The same function, with the same caps, opens a ``.zip`` a student uploaded (grader.intake.submissions).

Member names are the students' names. Canvas and Moodle mark theirs as UTF-8 (bit 11 of a member's
flags), but a zip a teacher made again on their own machine may not: macOS's Archive Utility writes
UTF-8 unmarked, Windows' "Send to compressed folder" its OEM code page (cp437 in the West, GBK on a
Simplified-Chinese Windows), and an unmarked name is read as cp437. :func:`names_encoding` works out,
once for the archive, which of these its unmarked names are in, so that ``张伟`` is not graded as
``σ╝áΣ╝ƒ``; the run tells the instructor which (grader.intake.submissions.names_read).
"""

from __future__ import annotations

import stat
import zipfile
import zlib
from dataclasses import dataclass
from enum import Enum
from pathlib import Path, PurePosixPath

from grader import scratch

MAX_TOTAL_BYTES = 8 * 1024**3
MAX_MEMBERS = 50_000  # a class download of 1,000 students with dozens of files each; more is a zip bomb
CHUNK = 1024**2
UTF8_NAMES = 0x800  # a member's flag: its name is UTF-8
# What an unmarked name may be in, besides UTF-8: the zip standard's cp437, and GBK (read as GB18030).
CODE_PAGES = ("cp437", "gb18030")
ENCODING_NAMES = {"utf-8": "UTF-8", "cp437": "DOS (cp437)", "gb18030": "GBK (GB18030)"}  # for the instructor


class SkipReason(str, Enum):
    """Why a member of a zip was not extracted (its words: ``grader.intake.skip.<value>``)."""

    LINK = "link"  # a link or a special file: no contents of its own
    UNSAFE = "unsafe"  # an absolute name, or one that climbs out of the folder with ".."
    DAMAGED = "damaged"  # damaged, encrypted, or compressed in a way zipfile cannot read


@dataclass(frozen=True)
class Skipped:
    """A member of a zip that was not extracted (folders and macOS's ``__MACOSX`` metadata are not listed)."""

    name: str
    reason: SkipReason


@dataclass(frozen=True)
class Unpacked:
    """Where a zip went, and the members it held that were not extracted."""

    root: Path
    skipped: tuple[Skipped, ...] = ()


class DownloadError(ValueError):
    """The zip cannot be read at all (the message says why, in plain words)."""


def unmarked(infos: list[zipfile.ZipInfo]) -> bytes:
    """The archive's non-ASCII names without the UTF-8 mark, as their maker wrote them, one a line."""
    return b"\n".join(n for n in (i.filename.encode("cp437") for i in infos if not i.flag_bits & UTF8_NAMES)
                      if not n.isascii())


def names_encoding(infos: list[zipfile.ZipInfo]) -> str:
    """The encoding of the archive's unmarked non-ASCII names: UTF-8 if they all read as UTF-8, else the
    code page charset-normalizer finds coherent for them all together (cp437 where it cannot tell)."""
    raw = unmarked(infos)
    if not raw:
        return "cp437"
    for codec in ("utf-8", "gb18030"):  # cp437 reads any bytes
        try:
            raw.decode(codec)
        except UnicodeDecodeError:
            continue
        if codec == "gb18030":
            import charset_normalizer

            best = charset_normalizer.from_bytes(raw, cp_isolation=list(CODE_PAGES)).best()
            codec = best.encoding if best is not None and best.encoding in CODE_PAGES else "cp437"
        return codec
    return "cp437"


def member_name(info: zipfile.ZipInfo, encoding: str) -> str:
    """The member's name as its maker wrote it (an unmarked one in the archive's ``encoding``)."""
    if info.flag_bits & UTF8_NAMES or encoding == "cp437":
        return info.filename
    return info.filename.encode("cp437").decode(encoding)


def _place(info: zipfile.ZipInfo, encoding: str = "cp437") -> PurePosixPath | SkipReason | None:
    """The member's relative path; why it is skipped (a link, an absolute or escaping name); or None for a
    folder or macOS's ``__MACOSX`` metadata, which hold nothing of anyone's."""
    name = member_name(info, encoding).replace("\\", "/")
    path = PurePosixPath(name)
    if info.is_dir() or (path.parts and path.parts[0] == "__MACOSX"):
        return None
    if stat.S_IFMT(info.external_attr >> 16) not in (0, stat.S_IFREG):  # 0: the zip says nothing (Windows)
        return SkipReason.LINK
    if path.is_absolute() or ".." in path.parts or not path.parts:
        return SkipReason.UNSAFE
    return path


def _copy(source, target: Path, limit: int) -> int:
    """Copy at most ``limit + 1`` bytes (one more than the cap, so the reader knows it is too big)."""
    written = 0
    with open(target, "wb") as out:
        while written <= limit:
            chunk = source.read(min(CHUNK, limit + 1 - written))
            if not chunk:
                break
            out.write(chunk)
            written += len(chunk)
    return written


def unpack(archive: Path, max_member_bytes: int, into: Path | None = None) -> Unpacked:
    """Extract ``archive`` into ``into`` (default: a private folder removed when the process ends)."""
    if into is None:
        into = scratch.make("download").path / "files"  # private; removed when the process ends (grader/scratch.py)
        into.mkdir()
    try:
        zf = zipfile.ZipFile(archive)
    except (OSError, zipfile.BadZipFile) as exc:
        raise DownloadError(f"{Path(archive).name} is not a readable zip file ({exc})") from exc
    skipped, total = [], 0
    with zf:
        if len(zf.infolist()) > MAX_MEMBERS:
            raise DownloadError(f"{Path(archive).name} holds more than {MAX_MEMBERS} files; unpack it yourself "
                                "and pass the folder")
        encoding = names_encoding(zf.infolist())
        for info in zf.infolist():
            path = _place(info, encoding)
            if not isinstance(path, PurePosixPath):
                if path is not None:
                    skipped.append(Skipped(member_name(info, encoding), path))
                continue
            target = into.joinpath(*path.parts)
            target.parent.mkdir(parents=True, exist_ok=True)
            try:
                with zf.open(info) as source:
                    total += _copy(source, target, max_member_bytes)
            except (OSError, zipfile.BadZipFile, zlib.error, EOFError, RuntimeError, NotImplementedError,
                    ValueError):  # damaged, encrypted or an unknown compression: listed, not fatal
                target.unlink(missing_ok=True)
                skipped.append(Skipped(member_name(info, encoding), SkipReason.DAMAGED))
            if total > MAX_TOTAL_BYTES:
                raise DownloadError(f"{Path(archive).name} unpacks to more than "
                                    f"{MAX_TOTAL_BYTES // 1024**3} GB; unpack it yourself and pass the folder")
    return Unpacked(into, tuple(skipped))
