"""A platform's zipped download, unpacked safely before the grader reads it.

Canvas and Moodle hand out a class's submissions as one zip. :func:`unpack` extracts it into a
fresh private folder without trusting its member names: absolute paths, ``..``, links and
special files are skipped (and listed), each member is cut off past the notebook size cap (the
reader then reports it as too big), and the whole archive stops at a total size and a member count.
The same function, with the same caps, opens a ``.zip`` a student uploaded (grader.intake.submissions).
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


@dataclass(frozen=True)
class Unpacked:
    """Where a zip went, and the member names it held that were not extracted."""

    root: Path
    skipped: tuple[str, ...] = ()


class DownloadError(ValueError):
    """The zip cannot be read at all (the message says why, in plain words)."""


def _safe_name(info: zipfile.ZipInfo) -> PurePosixPath | None:
    """The member's relative path, or None for a folder, a link, an absolute or escaping name."""
    name = info.filename.replace("\\", "/")
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
        for info in zf.infolist():
            path = _safe_name(info)
            if path is None:
                if not info.is_dir():
                    skipped.append(info.filename)
                continue
            target = into.joinpath(*path.parts)
            target.parent.mkdir(parents=True, exist_ok=True)
            try:
                with zf.open(info) as source:
                    total += _copy(source, target, max_member_bytes)
            except (OSError, zipfile.BadZipFile, zlib.error, EOFError, RuntimeError, NotImplementedError,
                    ValueError):  # damaged, encrypted or an unknown compression: listed, not fatal
                target.unlink(missing_ok=True)
                skipped.append(info.filename)
            if total > MAX_TOTAL_BYTES:
                raise DownloadError(f"{Path(archive).name} unpacks to more than "
                                    f"{MAX_TOTAL_BYTES // 1024**3} GB; unpack it yourself and pass the folder")
    return Unpacked(into, tuple(skipped))
