"""The notebooks' set-up: seed, thread count and device in one call."""

from __future__ import annotations

import random

import numpy as np
import torch

from ptcourse import memory, settings
from ptcourse.cpus import available_cpus
from ptcourse.messages import msg

__all__ = ["available_cpus", "default_device", "seed_everything", "setup"]


def default_device() -> torch.device:
    """The best device here: CUDA, then Apple's MPS, then the CPU.

    ``PTCOURSE_DEVICE`` (for example ``cpu``) overrides the choice.
    """
    forced = settings.read().device
    if forced:
        return torch.device(forced)
    if torch.cuda.is_available():
        return torch.device("cuda")
    mps = getattr(torch.backends, "mps", None)
    if mps is not None and mps.is_available():
        return torch.device("mps")
    return torch.device("cpu")


def seed_everything(seed: int) -> None:
    """Seed Python's, NumPy's and PyTorch's random generators (CPU and every GPU)."""
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def setup(seed: int = 0, threads: int | None = None, quiet: bool = False) -> torch.device:
    """Seed everything, choose a sensible thread count, and return the device to use.

    ``threads`` defaults to ``PTCOURSE_THREADS`` or, failing that, the CPUs really available
    (see :func:`available_cpus`). Where the session has a memory limit (Binder: 2 GB for the
    server and every kernel), it also warns when that limit is close and keeps checking after
    each cell (:mod:`ptcourse.memory`).
    """
    seed_everything(seed)
    if threads is None:
        forced_threads = settings.read().threads
        threads = available_cpus() if forced_threads is None else forced_threads
    torch.set_num_threads(max(1, threads))
    device = default_device()
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
