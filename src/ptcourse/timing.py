"""Microbenchmarks that mean something on a shared CPU, and whether this CPU has native bfloat16.

A shared or busy machine makes single timings meaningless (a 64×64 product "taking" 23 ms).
Timing demos follow three rules: **one thread** (the numbers compare the work, not how well it
spreads over cores other processes may be using; give ONNX Runtime one thread too), **warm-up**
calls that are not timed (the first call allocates and initialises lazily), and the **median**
of several repeats (an occasional slow outlier does not move it).

- :func:`measure` times ``fn()`` after a warm-up and returns a :class:`Timing` (its repeats, their
  median and spread, and the machine's load); :func:`time_ms` does the same on one thread.
- :func:`busy_warning` (with a label per timing) and :func:`busy_note` say, in the learner's
  language, when the repeats scattered so much, or the machine was so loaded, that the numbers
  should not be trusted::

      fp32 = time_ms(lambda: step(False))
      bf16 = time_ms(lambda: step(True))
      print(busy_note(fp32, bf16))        # "" when the machine was quiet enough

- :func:`bf16_support` reads the CPU's flags (Linux ``/proc/cpuinfo``: ``avx512_bf16``,
  ``amx_bf16``) and ``torch.backends.cpu.get_cpu_capability()``; :func:`bf16_note` says what follows.
"""

from __future__ import annotations

import contextlib
import os
import statistics
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import torch

from ptcourse.cpus import available_cpus
from ptcourse.messages import msg

__all__ = ["Bf16Support", "Timing", "bf16_note", "bf16_support", "busy_note", "busy_warning", "measure",
           "one_thread", "time_ms"]

SPREAD_LIMIT = 0.5  # interquartile range over the median above which the repeats disagree too much
LOAD_LIMIT = 2.0  # runnable processes per usable CPU above which other programs own the machine


@dataclass(frozen=True)
class Timing:
    """The repeats of one timed call, in milliseconds, and the load average per CPU when they ended."""

    samples_ms: tuple[float, ...]
    load: float = 0.0  # 1-minute load average per usable CPU (0 where unknown)

    @property
    def repeats(self) -> int:
        return len(self.samples_ms)

    @property
    def median_ms(self) -> float:
        return statistics.median(self.samples_ms)

    @property
    def median_s(self) -> float:
        return self.median_ms / 1000

    @property
    def spread(self) -> float:
        """Interquartile range divided by the median: 0.1 is steady, 1 is noise."""
        if len(self.samples_ms) < 4:
            return 0.0
        q1, _, q3 = statistics.quantiles(self.samples_ms, n=4)
        return (q3 - q1) / self.median_ms if self.median_ms > 0 else 0.0

    @property
    def busy(self) -> bool:
        """True when the repeats spread too much, or the machine was too loaded, for the median to mean much."""
        return self.spread > SPREAD_LIMIT or self.load > LOAD_LIMIT


@contextlib.contextmanager
def one_thread() -> Iterator[None]:
    """PyTorch limited to one intra-op thread inside the block, its thread count restored after."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(before)


def _sync() -> None:
    if torch.cuda.is_available():
        torch.cuda.synchronize()


def _load_per_cpu() -> float:
    try:
        return os.getloadavg()[0] / available_cpus()
    except (AttributeError, OSError):
        return 0.0


def measure(fn: Callable[[], object], *, warmup: int = 3, repeats: int = 21) -> Timing:
    """Time ``fn()``: ``warmup`` untimed calls, then ``repeats`` timed ones (the GPU synchronised)."""
    if repeats < 3:
        raise ValueError("measure() needs at least 3 repeats to judge their spread")
    for _ in range(warmup):
        fn()
    _sync()
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        _sync()
        samples.append(1000 * (time.perf_counter() - start))
    return Timing(tuple(samples), _load_per_cpu())


def time_ms(call: Callable[[], object], repeats: int = 7, warmup: int = 1) -> Timing:
    """:func:`measure` on one thread."""
    with one_thread():
        return measure(call, warmup=warmup, repeats=repeats)


def busy_warning(timings: Iterable[tuple[str, Timing]]) -> str | None:
    """A plain-words warning naming the least trustworthy measurement, or None when all are steady."""
    noisy = [(what, timing) for what, timing in timings if timing.busy]
    if not noisy:
        return None
    what, worst = max(noisy, key=lambda item: (item[1].spread, item[1].load))
    return msg("timing.busy", what=what, spread=worst.spread, limit=SPREAD_LIMIT, load=worst.load,
               count=len(noisy))


def busy_note(*timings: Timing) -> str:
    """Like :func:`busy_warning` for unnamed timings: a warning, or ``""`` when the machine was quiet enough."""
    worst = max(timings, key=lambda t: (t.busy, t.spread))
    if not worst.busy:
        return ""
    return msg("timing.busy_unnamed", spread=worst.spread, limit=SPREAD_LIMIT, load=worst.load)


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
