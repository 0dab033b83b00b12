"""What a run leaves in the temporary folder: nothing of the grader's or the course's, and nothing another
user could read. Used by the ``private_tmp`` fixture (tests/conftest.py): a test points the processes
it starts at a fresh temporary folder (``TMPDIR``) and, when it ends, the fixture checks that folder,
and the zygotes' parent folder for the processes' own slots.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

# Names the grader, the course's notebooks, multiprocessing and torch give what they leave in a temporary folder.
LEFTOVER_PREFIXES = ("ptg-", "ptgrade-", "ptcourse-", "pymp-", "pytorch-errorfile-", "torchelastic_", "j-")


def new_private_tmp() -> Path:
    """A fresh temporary folder, short enough for Unix sockets inside (so not pytest's tmp_path)."""
    return Path(tempfile.mkdtemp(prefix="ptt-", dir="/tmp"))


def readable_by_others(folder: Path) -> list[str]:
    """Entries under ``folder`` that another user could reach and read (every folder on the way open to
    others, the entry itself readable by them)."""
    found = []
    for root, dirs, files in os.walk(folder):
        if not os.stat(root).st_mode & stat.S_IXOTH:
            dirs[:] = []  # nothing below can be reached by another user
            continue
        for name in dirs + files:
            path = Path(root, name)
            try:
                mode = path.lstat().st_mode
            except OSError:
                continue
            if mode & stat.S_IROTH and not stat.S_ISLNK(mode):
                found.append(str(path))
    return found


def leftovers(folder: Path) -> list[str]:
    """What a run left directly in ``folder`` that bears a grader's, the course's or torch's name."""
    try:
        return sorted(p.name for p in folder.iterdir() if p.name.startswith(LEFTOVER_PREFIXES))
    except FileNotFoundError:
        return []


def zygote_slots_of(pids: set[int], parent: str = "/var/tmp") -> list[str]:
    """Zygote folders (grader/jail/zygote.py) that the processes ``pids`` made and left."""
    try:
        names = os.listdir(parent)
    except OSError:
        return []
    return sorted(n for n in names if n.startswith("ptg-zygote-") and n.split("-")[2].isdigit()
                  and int(n.split("-")[2]) in pids)
