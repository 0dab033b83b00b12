"""The grader's folders in a shared temporary folder: private, held while in use, never left behind.

A grading host's temporary folder is shared by every user. Each folder the grader makes there (a
run's work area, a Dask worker's, a zygote's slots) is made by :func:`make`:

* private: ``mkdtemp`` makes it mode 0700, so nothing in it (a student's notebook, a job's
  gradebook) can be read by another user, whatever the files' own modes;
* held: its process holds an exclusive ``flock`` on the ``.ptg-lock`` file inside for as long as
  it uses the folder (the kernel drops a dead process's locks, and a reused pid holds none);
* removed by :meth:`Scratch.close` when its work ends, and at the latest when the process exits
  normally (multiprocessing's exit hook).

A process killed on the way (a Dask worker lost, the OOM killer, a driver stopped with SIGKILL)
leaves its folders behind: :func:`sweep`, called when a grader or worker starts, removes the folders
of this user whose lock nobody holds. A concurrently running grader's folders are held, so they stay.

:func:`process_folder` is one such folder for the whole process, where what the process's libraries
write to the temporary folder goes too (multiprocessing's ``pymp-*``: :func:`keep_multiprocessing_inside`).
"""

from __future__ import annotations

import fcntl
import multiprocessing.util
import os
import shutil
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from grader import settings

PREFIX = "ptg-"  # every folder the grader makes in a temporary folder
LOCK = ".ptg-lock"
GRACE_S = 30  # a folder with no lock yet that is younger may be one being made: never swept
UNLOCKED_STALE_S = 24 * 3600  # a grader folder with no lock (an older grader's): swept after a day
SOCKET_PATH_MAX = 107  # a Unix socket's path, in bytes (Linux: sun_path[108], its last one a NUL)
ZYGOTE_PARENT = "/var/tmp"  # where grader/jail/zygote.py keeps its slots (outside /tmp)


@dataclass
class Scratch:
    """A private folder and the lock that marks it in use."""

    path: Path
    fd: int

    def close(self) -> None:
        """Remove the folder (unless ``PTGRADE_KEEP`` asks to keep it for debugging), then let the lock go."""
        if self.fd < 0:
            return
        if not settings.environment().keep:
            shutil.rmtree(self.path, ignore_errors=True)
        os.close(self.fd)
        self.fd = -1


def make(kind: str, parent: str | os.PathLike | None = None) -> Scratch:
    """A new private folder ``ptg-<kind>-<pid>-*`` in ``parent`` (the temporary folder), held by this process."""
    path = Path(tempfile.mkdtemp(prefix=f"{PREFIX}{kind}-{os.getpid()}-", dir=parent))  # mode 0700
    fd = os.open(path / (LOCK + ".new"), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    os.rename(path / (LOCK + ".new"), path / LOCK)  # it appears held: no sweeper sees it free in between
    scratch = Scratch(path, fd)
    # At exit, after multiprocessing removed its own folders (exitpriority -100), which may lie inside.
    multiprocessing.util.Finalize(None, scratch.close, exitpriority=-200)
    return scratch


_PROCESS: dict[int, Scratch] = {}
_PROCESS_LOCK = threading.Lock()


def process_folder(kind: str = "proc") -> Path:
    """This process's own private folder (made once; removed when it exits)."""
    with _PROCESS_LOCK:
        held = _PROCESS.get(os.getpid())
        if held is None or not held.path.is_dir():
            held = _PROCESS[os.getpid()] = make(kind)
        return held.path


def keep_multiprocessing_inside(folder: Path) -> None:
    """Make multiprocessing's folder of this process (``pymp-*``: a fork server's socket) inside ``folder``,
    unless it has one already. A killed process would otherwise leave it in the shared temporary folder."""
    if len(os.fsencode(folder)) + len("/pymp-12345678/listener-12345678") > SOCKET_PATH_MAX:
        return  # its sockets would not fit there: multiprocessing's own place then
    with _PROCESS_LOCK:
        saved = tempfile.tempdir
        tempfile.tempdir = str(folder)  # read by mkdtemp in get_temp_dir, this once
        try:
            multiprocessing.util.get_temp_dir()
        finally:
            tempfile.tempdir = saved


# -- sweeping what killed processes left ---------------------------------------------------------------
def _held(lock: Path) -> bool:
    """Whether a live process holds ``lock`` (a file we cannot open counts as held: leave it)."""
    try:
        fd = os.open(lock, os.O_RDWR | os.O_CLOEXEC | os.O_NOFOLLOW)
    except OSError:
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)  # releases the lock we may have taken
    return False


def stale(path: Path, now: float | None = None) -> bool:
    """Whether a grader folder of this user is left over: its lock is held by nobody; with no lock (one
    being made, or an older grader's folder), it is not brand new and its process is gone
    (``ptg-<kind>-<pid>[-random]``) or it was not touched for a day."""
    now = time.time() if now is None else now
    try:
        info = path.lstat()
        lock = (path / LOCK).lstat()
    except FileNotFoundError:
        return _stale_unlocked(path, now)
    except OSError:
        return False
    if info.st_uid != os.getuid() or lock.st_uid != os.getuid():
        return False
    return not _held(path / LOCK)


def _stale_unlocked(path: Path, now: float) -> bool:
    try:
        info = path.lstat()
    except OSError:
        return False
    if info.st_uid != os.getuid() or now - info.st_mtime < GRACE_S:
        return False
    pid = _owner_pid(path.name)
    if pid is not None:
        return not Path(f"/proc/{pid}").exists()
    return now - info.st_mtime > UNLOCKED_STALE_S


def _owner_pid(name: str) -> int | None:
    """The process a grader folder's name says made it: ``ptg-<kind>-<pid>`` (an older grader's) or
    ``ptg-<kind>-<pid>-<random>`` (:func:`make`'s, whose lock went with a removal that raced a job still
    writing into it); ``None`` for any other name."""
    parts = name[len(PREFIX):].split("-")
    return int(parts[1]) if len(parts) >= 2 and parts[1].isdigit() else None


def sweep(parents: tuple[str | os.PathLike, ...] | None = None, now: float | None = None) -> list[Path]:
    """Remove this user's grader folders that a killed process left (see :func:`stale`); returns them."""
    removed: list[Path] = []
    if settings.environment().keep:  # folders kept to debug the grader stay until it is unset
        return removed
    for parent in parents or (tempfile.gettempdir(), ZYGOTE_PARENT):
        try:
            entries = list(os.scandir(parent))
        except OSError:
            continue
        for entry in entries:
            if not entry.name.startswith(PREFIX) or not entry.is_dir(follow_symlinks=False):
                continue
            try:
                if entry.stat(follow_symlinks=False).st_uid != os.getuid():
                    continue
            except OSError:
                continue
            if stale(Path(entry.path), now):
                shutil.rmtree(entry.path, ignore_errors=True)
                removed.append(Path(entry.path))
    return removed
