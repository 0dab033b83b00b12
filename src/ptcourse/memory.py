"""How close the whole session is to its memory limit, said in plain words.

JupyterLab keeps the kernel of every notebook you opened running, and each kernel that has
imported PyTorch and trained a model holds hundreds of MB. On Binder the server and all its
kernels share one memory limit (2 GB, a container cgroup); past it, kernels are killed. The
set-up cell (:func:`ptcourse.setup`) calls :func:`check_memory`, which reads the cgroup that
contains this kernel and, when the session gets close to its limit, tells the learner how to
shut down the kernels they no longer need. :func:`watch` repeats the check after every cell
(once per level). Where there is no limit (a laptop) nothing is printed.

Readings come from the cgroup files: v2 ``memory.current``/``memory.max`` or v1
``memory.usage_in_bytes``/``memory.limit_in_bytes``, minus the file cache the kernel can drop
at once (``inactive_file`` in ``memory.stat``), as ``docker stats`` and Kubernetes count it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ptcourse import settings
from ptcourse.messages import msg

__all__ = ["Reading", "check_memory", "level", "read_memory", "warning_text", "watch"]

CGROUP_ROOT = Path("/sys/fs/cgroup")
PROC_CGROUP = Path("/proc/self/cgroup")
UNLIMITED = 2**60  # v1 reports "no limit" as a huge number (9223372036854771712)
TIGHT = 0.65  # at 2 GB: 1.3 GB in use leaves ~700 MB, about what one more notebook needs
CRITICAL = 0.85
LEVELS = ("ok", "tight", "critical")


@dataclass(frozen=True)
class Reading:
    """Memory of the cgroup that limits this kernel (the whole Binder session)."""

    used: int  # bytes in use, without the file cache that can be dropped at once
    limit: int  # the hard limit in bytes
    kernels: int = 0  # Python kernels running in it (this one included)

    @property
    def fraction(self) -> float:
        return self.used / self.limit


def _int(path: Path) -> int | None:
    try:
        text = path.read_text().strip()
    except OSError:
        return None
    if text == "max":
        return None
    try:
        value = int(text)
    except ValueError:
        return None
    return value if 0 < value < UNLIMITED else None


def _stat(path: Path, key: str) -> int:
    try:
        for line in (path / "memory.stat").read_text().splitlines():
            name, _, value = line.partition(" ")
            if name == key:
                return int(value)
    except (OSError, ValueError):
        pass
    return 0


def _own_groups(proc_cgroup: Path, root: Path) -> list[tuple[str, Path]]:
    """``(version, folder)`` of the memory cgroups holding this process, v1 first."""
    try:
        lines = proc_cgroup.read_text().splitlines()
    except OSError:
        return []
    found = []
    for line in lines:
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        _, controllers, path = parts
        if "memory" in controllers.split(","):
            found.insert(0, ("v1", root / "memory" / path.lstrip("/")))
        elif parts[0] == "0" and controllers == "":
            found.append(("v2", root / path.lstrip("/")))
    return found


def _limited(version: str, folder: Path, stop: Path) -> Reading | None:
    """The reading of ``folder`` or of its nearest ancestor (up to ``stop``) with a limit."""
    usage_file, limit_file, cache_key = (
        ("memory.current", "memory.max", "inactive_file")
        if version == "v2"
        else ("memory.usage_in_bytes", "memory.limit_in_bytes", "total_inactive_file")
    )
    while True:
        limit, usage = _int(folder / limit_file), _int(folder / usage_file)
        if limit is not None and usage is not None:
            used = max(0, usage - _stat(folder, cache_key))
            return Reading(used=used, limit=limit, kernels=_count_kernels(folder))
        if folder == stop or stop not in folder.parents:
            return None
        folder = folder.parent


def _count_kernels(folder: Path) -> int:
    """Python kernels (ipykernel) among the processes of ``folder`` and its sub-groups."""
    count = 0
    groups = [folder / "cgroup.procs", *folder.glob("*/cgroup.procs"), *folder.glob("*/*/cgroup.procs")]
    for procs in groups:
        try:
            pids = procs.read_text().split()
        except OSError:
            continue
        for pid in pids:
            try:
                cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
            except OSError:
                continue
            if b"ipykernel" in cmdline:
                count += 1
    return count


def read_memory(root: Path = CGROUP_ROOT, proc_cgroup: Path = PROC_CGROUP) -> Reading | None:
    """The memory use and limit of this process's cgroup; ``None`` where there is no limit."""
    for version, folder in _own_groups(proc_cgroup, root):
        stop = root / "memory" if version == "v1" else root
        reading = _limited(version, folder, stop)
        if reading is not None:
            return reading
    return None


def level(reading: Reading | None, tight: float = TIGHT, critical: float = CRITICAL) -> str:
    """``"ok"``, ``"tight"`` or ``"critical"``: how close ``reading`` is to its limit."""
    if reading is None:
        return "ok"
    if reading.fraction >= critical:
        return "critical"
    if reading.fraction >= tight:
        return "tight"
    return "ok"


def _mb(n: int) -> str:
    return f"{n / 1024**3:.1f} GB" if n >= 1024**3 else f"{n / 1024**2:.0f} MB"


def warning_text(reading: Reading | None) -> str | None:
    """The learner's warning for ``reading``, or ``None`` when memory is fine."""
    lvl = level(reading)
    if lvl == "ok" or reading is None:
        return None
    others = max(0, reading.kernels - 1)
    return msg(
        f"memory.{lvl}",
        used=_mb(reading.used),
        limit=_mb(reading.limit),
        percent=round(100 * reading.fraction),
        others=msg("memory.others_one" if others == 1 else "memory.others_many", n=others) if others else "",
    ) + "\n" + msg("memory.how_to_free")


def check_memory(quiet: bool = False) -> Reading | None:
    """Print a warning when the session is close to its memory limit; return the reading.

    ``PTCOURSE_MEMORY_CHECK=0`` turns the check off.
    """
    if not settings.read().memory_check:
        return None
    reading = read_memory()
    text = warning_text(reading)
    if text and not quiet:
        print(text)
    return reading


class _Watcher:
    """After each cell, warn once each time the session reaches a worse level."""

    def __init__(self, start: str):
        self.shown = LEVELS.index(start)

    def __call__(self, *_args) -> None:
        reading = read_memory()
        now = LEVELS.index(level(reading))
        if now > self.shown:
            print(warning_text(reading))
        self.shown = now


def watch(start: str = "ok") -> bool:
    """Check the memory after every cell of this IPython kernel; ``False`` outside IPython."""
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    if shell is None:
        return False
    for callback in list(shell.events.callbacks["post_run_cell"]):
        if isinstance(callback, _Watcher):
            shell.events.unregister("post_run_cell", callback)
    shell.events.register("post_run_cell", _Watcher(start))
    return True
