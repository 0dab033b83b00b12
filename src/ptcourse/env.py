"""The notebooks' set-up: seed, thread count and device in one call."""

from __future__ import annotations

import random

import numpy as np
import torch

from ptcourse import memory, settings, tracebacks
from ptcourse.cpus import available_cpus
from ptcourse.messages import msg

__all__ = ["available_cpus", "setup"]

_seeded_once: list[int] = []  # Python's and NumPy's generators are seeded by the first setup() of a process


def _device_here() -> torch.device:
    """The best device here: CUDA, then Apple's MPS, then the CPU (``PTCOURSE_DEVICE``, for example
    ``cpu``, overrides the choice).

    It counts devices instead of asking ``is_available``: day 1's ``pick_device`` exercise is the
    learner's to write, and its checks pretend devices exist by patching ``is_available``, so this
    helper is no answer to it (tests/test_package_answers.py)."""
    forced = settings.read().device
    if forced:
        return torch.device(forced)
    if torch.cuda.device_count() > 0:
        return torch.device("cuda")
    mps = getattr(torch, "mps", None)
    if mps is not None and torch.backends.mps.is_built() and mps.device_count() > 0:
        return torch.device("mps")
    return torch.device("cpu")


def setup(seed: int = 0, threads: int | None = None, quiet: bool = False) -> torch.device:
    """Seed everything, choose a sensible thread count, and return the device to use.

    PyTorch's generators (CPU and every GPU) are seeded with ``seed`` on every call; Python's
    ``random`` and NumPy's global generator once per process, by the first call (the notebook's
    set-up cell). So ``setup`` seeds everything for a notebook without being the answer to day 2's
    ``set_seed`` exercise, which must seed all three again on every call.

    ``threads`` defaults to ``PTCOURSE_THREADS`` or, failing that, the CPUs really available
    (see :func:`available_cpus`). Where the session has a memory limit (Binder: 2 GB for the
    server and every kernel), it also warns when that limit is close and keeps checking after
    each cell (:mod:`ptcourse.memory`). In IPython, an error in the learner's code is drawn with the
    learner's frames only (:mod:`ptcourse.tracebacks`).
    """
    tracebacks.install()  # an error in the learner's code shows the learner's frames only
    torch.manual_seed(seed)  # every device's generator too
    if not _seeded_once:  # the set-up cell: later calls are no answer to day 2's set_seed exercise
        random.seed(seed)
        np.random.seed(seed)
        _seeded_once.append(seed)
    if threads is None:
        forced_threads = settings.read().threads
        threads = available_cpus() if forced_threads is None else forced_threads
    torch.set_num_threads(max(1, threads))
    device = _device_here()
    if not quiet:
        print(
            msg(
                "setup.summary",
                torch=torch.__version__,
                device=device,
                threads=torch.get_num_threads(),
                seed=seed,
            )
        )
        reading = memory.check_memory()
        memory.watch(start=memory.level(reading))
    return device
