"""A platform's zipped download, unpacked safely before the grader reads it.

Canvas and Moodle hand out a class's submissions as one zip. :func:`unpack` extracts it into a
fresh private folder without trusting its member names: absolute paths, ``..``, links and
special files are skipped (and listed), each member is cut off past the notebook size cap (the
reader then reports it as too big), and the whole archive stops at a total size and a member count.
The same function, with the same caps, opens a ``.zip`` a student uploaded (grader.intake.submissions).

Member names are the students' names. Canvas and Moodle mark theirs as UTF-8 (bit 11 of a member's
flags), but a zip a teacher made again on their own machine may not: macOS's Archive Utility writes
UTF-8 unmarked, Windows' "Send to compressed folder" its OEM code page (cp437 in the West, GBK on a
Simplified-Chinese Windows), and an unmarked name is read as cp437. :func:`names_encoding` works out,
once for the archive, which of these its unmarked names are in, so that ``张伟`` is not graded as
``σ╝áΣ╝ƒ``.
"""

from __future__ import annotations

import stat
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from grader import scratch

MAX_TOTAL_BYTES = 8 * 1024**3
MAX_MEMBERS = 50_000  # a class download of 1,000 students with dozens of files each; more is a zip bomb
CHUNK = 1024**2
UTF8_NAMES = 0x800  # a member's flag: its name is UTF-8
# What an unmarked name may be in, besides UTF-8: the zip standard's cp437, and GBK (read as GB18030).
CODE_PAGES = ("cp437", "gb18030")


@dataclass(frozen=True)
class Unpacked:
    """Where a zip went, and the member names it held that were not extracted."""

    root: Path
    skipped: tuple[str, ...] = ()


class DownloadError(ValueError):
    """The zip cannot be read at all (the message says why, in plain words)."""


def names_encoding(infos: list[zipfile.ZipInfo]) -> str:
    """The encoding of the archive's unmarked non-ASCII names: UTF-8 if they all read as UTF-8, else the
    code page charset-normalizer finds coherent for them all together (cp437 where it cannot tell)."""
    raw = b"\n".join(n for n in (i.filename.encode("cp437") for i in infos if not i.flag_bits & UTF8_NAMES)
                     if not n.isascii())
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


def _safe_name(info: zipfile.ZipInfo, encoding: str = "cp437") -> PurePosixPath | None:
    """The member's relative path, or None for a folder, a link, an absolute or escaping name."""
    name = member_name(info, encoding).replace("\\", "/")
    kind = stat.S_IFMT(info.external_attr >> 16)  # 0 when the zip says nothing (Windows tools)
    if info.is_dir() or kind not in (0, stat.S_IFREG):
        return None
    path = PurePosixPath(name)
    if path.is_absolute() or ".." in path.parts or not path.parts or path.parts[0] == "__MACOSX":
        return None
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
            path = _safe_name(info, encoding)
            if path is None:
                if not info.is_dir():
                    skipped.append(member_name(info, encoding))
                continue
            target = into.joinpath(*path.parts)
            target.parent.mkdir(parents=True, exist_ok=True)
            try:
                with zf.open(info) as source:
                    total += _copy(source, target, max_member_bytes)
            except (OSError, zipfile.BadZipFile, zlib.error, EOFError, RuntimeError, NotImplementedError,
                    ValueError):  # damaged, encrypted or an unknown compression: listed, not fatal
                target.unlink(missing_ok=True)
                skipped.append(member_name(info, encoding))
            if total > MAX_TOTAL_BYTES:
                raise DownloadError(f"{Path(archive).name} unpacks to more than "
                                    f"{MAX_TOTAL_BYTES // 1024**3} GB; unpack it yourself and pass the folder")
    return Unpacked(into, tuple(skipped))
