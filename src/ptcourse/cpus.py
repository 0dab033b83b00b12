"""How many CPUs this process may really use (no torch import: the grader's driver and workers use it)."""

from __future__ import annotations

import math
import os

__all__ = ["available_cpus"]


def available_cpus() -> int:
    """CPUs this process may really use: CPU affinity and the cgroup quota, not the host's count.

    PyTorch's default thread count follows the host's cores; in a container with a CPU quota
    (Binder gives one CPU) that oversubscribes the CPU and slows everything down.
    """
    try:
        count = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        count = os.cpu_count() or 1
    for path in ("/sys/fs/cgroup/cpu.max",):  # cgroup v2
        try:
            quota, period = open(path).read().split()[:2]
            if quota != "max":
                count = min(count, max(1, math.ceil(int(quota) / int(period))))
        except (OSError, ValueError):
            pass
    try:  # cgroup v1
        quota = int(open("/sys/fs/cgroup/cpu/cpu.cfs_quota_us").read())
        period = int(open("/sys/fs/cgroup/cpu/cpu.cfs_period_us").read())
        if quota > 0 and period > 0:
            count = min(count, max(1, math.ceil(quota / period)))
    except (OSError, ValueError):
        pass
    return max(1, count)
