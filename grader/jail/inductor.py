"""A seed for each grading kernel's Inductor cache: the CPU vector-ISA checks, made once per machine.

The first ``torch.compile`` on a CPU asks which vector instruction sets (AVX2, AVX-512, ...) this
compiler and CPU support: Inductor compiles and loads a small program for each, about 7 s on two
cores. A grading kernel starts with an empty cache (nothing one student compiled reaches the next),
so every notebook that compiles paid those 7 s again.

The answers depend on the machine only (its CPU flags, its compiler, the torch version), so the
grader asks torch once, in a process of its own that runs no student code, and keeps the answers
under ``grader/.cache/inductor-<fingerprint>``. Each job whose notebook compiles gets a copy in its
kernel's cache folder. Nothing else is ever seeded: compiled graphs and kernels stay each
student's own.
"""

from __future__ import annotations

import hashlib
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

from filelock import FileLock  # comes with torch

from grader import settings

PROBE = "from torch._inductor import cpu_vec_isa; cpu_vec_isa.valid_vec_isa_list()"
COMPILERS = ("c++", "g++", "clang++")
_LOCK = threading.Lock()
_SEEDS: dict[Path, Path | None] = {}


def fingerprint() -> str:
    """What the ISA answers depend on: torch, the CPU's flags and the compilers (path, size, date)."""
    import torch

    parts = [torch.__version__, platform.machine(), settings.environment().cxx]
    try:
        flags = next((line for line in Path("/proc/cpuinfo").read_text().splitlines()
                      if line.startswith(("flags", "Features"))), "")
    except OSError:
        flags = platform.processor()
    parts.append(flags)
    for name in COMPILERS:
        found = shutil.which(name)
        if found:
            stat = os.stat(found)
            parts.append(f"{found}:{stat.st_size}:{int(stat.st_mtime)}")
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]


def compiles(nb) -> bool:
    """Whether a notebook's code could call ``torch.compile`` (a cheap look at its source)."""
    return any(cell.cell_type == "code" and "compile" in cell.source for cell in nb.cells)


def seed(cache: Path) -> Path | None:
    """The folder of ISA answers for this machine under ``cache``, made on first use (None if
    torch's probe fails here: jobs then run with an empty cache, as before)."""
    with _LOCK:
        if cache not in _SEEDS:
            _SEEDS[cache] = _find_or_make(cache)
        return _SEEDS[cache]


def _find_or_make(cache: Path) -> Path | None:
    target = cache / f"inductor-{fingerprint()}"
    if target.is_dir():
        return target
    cache.mkdir(parents=True, exist_ok=True)
    with FileLock(str(cache / "inductor.lock")):  # one maker per machine; the others wait
        if target.is_dir():
            return target
        part = Path(tempfile.mkdtemp(prefix="inductor-part-", dir=cache))
        try:
            env = {**os.environ, "TORCHINDUCTOR_CACHE_DIR": str(part), "OMP_NUM_THREADS": "1"}
            done = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, timeout=300)
            if done.returncode != 0:
                return None
            shutil.rmtree(part / "locks", ignore_errors=True)
            part.rename(target)
            return target
        except (OSError, subprocess.SubprocessError):
            return None
        finally:
            shutil.rmtree(part, ignore_errors=True)


def plant(nb, cache: Path, folder: Path) -> bool:
    """Copy the ISA answers into a kernel's Inductor cache ``folder`` if ``nb`` may compile."""
    if not compiles(nb):
        return False
    found = seed(cache)
    if found is None:
        return False
    shutil.copytree(found, folder, dirs_exist_ok=True)
    return True
