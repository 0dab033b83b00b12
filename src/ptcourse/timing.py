"""Microbenchmarks that mean something on a shared CPU, and whether this CPU has native bfloat16.

Timing demos follow three rules: **one thread** (the numbers compare the work, not how well
it spreads over cores that other processes may be using), a **warm-up** call that is not timed
(the first call allocates and initialises lazily), and the **median** of several repeats (an
occasional slow outlier does not move it). :func:`time_ms` does all three and returns a
:class:`Timing`; :func:`busy_note` says, in plain words, when the repeats scattered so much (or
the machine's load was so high) that the numbers should not be trusted::

    fp32 = time_ms(lambda: step(False))
    bf16 = time_ms(lambda: step(True))
    print(busy_note(fp32, bf16))        # "" when the machine was quiet enough

:func:`bf16_support` reads the CPU's flags (Linux ``/proc/cpuinfo``: ``avx512_bf16``,
``amx_bf16``) and PyTorch's ``torch.backends.cpu.get_cpu_capability()``.
"""

from __future__ import annotations

import contextlib
import os
import statistics
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import torch

from ptcourse.cpus import available_cpus
from ptcourse.messages import msg

__all__ = ["Bf16Support", "Timing", "bf16_note", "bf16_support", "busy_note", "one_thread", "time_ms"]

SPREAD_LIMIT = 0.5  # interquartile range over the median above which the repeats disagree too much


@dataclass(frozen=True)
class Timing:
    """The repeats of one timed call, in milliseconds, and the load average while they ran."""

    samples_ms: tuple[float, ...]
    load: float  # 1-minute load average per usable CPU, at the end (0 where unknown)

    @property
    def median_ms(self) -> float:
        return statistics.median(self.samples_ms)

    @property
    def spread(self) -> float:
        """Interquartile range divided by the median: 0.1 is steady, 1 is noise."""
        if len(self.samples_ms) < 4:
            return 0.0
        q1, _, q3 = statistics.quantiles(self.samples_ms, n=4)
        return (q3 - q1) / self.median_ms if self.median_ms > 0 else 0.0

    @property
    def busy(self) -> bool:
        return self.spread > SPREAD_LIMIT or self.load > 1.0


@contextlib.contextmanager
def one_thread() -> Iterator[None]:
    """PyTorch limited to one thread inside the block, its thread count restored after."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(before)


def _load_per_cpu() -> float:
    try:
        return os.getloadavg()[0] / available_cpus()
    except (AttributeError, OSError):
        return 0.0


def time_ms(call: Callable[[], object], repeats: int = 7, warmup: int = 1) -> Timing:
    """Time ``call()`` on one thread: ``warmup`` untimed calls, then ``repeats`` timed ones."""
    samples = []
    with one_thread():
        for _ in range(warmup):
            call()
        for _ in range(repeats):
            start = time.perf_counter()
            call()
            samples.append(1000 * (time.perf_counter() - start))
    return Timing(tuple(samples), _load_per_cpu())


def busy_note(*timings: Timing) -> str:
    """A plain-words warning if any of the timings was taken on a machine too busy to trust; else ``""``."""
    worst = max(timings, key=lambda t: (t.busy, t.spread))
    if not worst.busy:
        return ""
    return msg("timing.busy", spread=round(100 * worst.spread), load=f"{worst.load:.1f}")


@dataclass(frozen=True)
class Bf16Support:
    """What this CPU offers for bfloat16: its flags and PyTorch's view of its vector instructions."""

    capability: str  # torch.backends.cpu.get_cpu_capability(): "AVX2", "AVX512", "AMX", ...
    flags: tuple[str, ...]  # bfloat16 flags found in /proc/cpuinfo: avx512_bf16, amx_bf16

    @property
    def native(self) -> bool:
        return bool(self.flags) or "AMX" in self.capability.upper()


def bf16_support(cpuinfo: Path = Path("/proc/cpuinfo")) -> Bf16Support:
    """This CPU's native bfloat16 support (flags read from ``cpuinfo`` where it exists)."""
    try:
        words = set(cpuinfo.read_text().split())
    except OSError:
        words = set()
    flags = tuple(flag for flag in ("avx512_bf16", "amx_bf16") if flag in words)
    return Bf16Support(torch.backends.cpu.get_cpu_capability(), flags)


def bf16_note(support: Bf16Support | None = None) -> str:
    """One plain-words sentence: does this CPU compute bfloat16 natively, and what follows."""
    support = support or bf16_support()
    if support.native:
        return msg("timing.bf16_native", flags=", ".join(support.flags) or "AMX", capability=support.capability)
    return msg("timing.bf16_emulated", capability=support.capability)
