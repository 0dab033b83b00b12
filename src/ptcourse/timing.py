"""Honest micro-benchmarks: one thread, warm-up calls, the median, and a word when the machine is too busy.

A shared or busy machine makes single timings meaningless (a 64×64 product "taking" 23 ms).
``measure`` times one call many times after a warm-up and keeps the median and the spread of
the repeats; ``busy_warning`` says, in the learner's language, when that spread is too large
for the numbers to be compared. ``one_thread`` pins PyTorch to one thread while timing, so
that two engines are compared on the same footing (give ONNX Runtime one thread too).
"""

from __future__ import annotations

import contextlib
import dataclasses
import statistics
import time
from collections.abc import Callable, Iterable, Iterator

import torch

from ptcourse.messages import msg

__all__ = ["BUSY_SPREAD", "Timing", "busy_warning", "measure", "one_thread"]

BUSY_SPREAD = 0.5
"""Largest relative spread, (90th − 10th percentile) / median, of repeats worth comparing."""


@dataclasses.dataclass(frozen=True)
class Timing:
    """The median seconds of one call, and how much the repeats spread around it."""

    median_s: float
    spread: float
    repeats: int

    @property
    def median_ms(self) -> float:
        return 1000 * self.median_s

    @property
    def busy(self) -> bool:
        """True when the repeats spread too much for the median to mean much."""
        return self.spread > BUSY_SPREAD


@contextlib.contextmanager
def one_thread() -> Iterator[None]:
    """PyTorch on one intra-op thread inside the block; the previous count afterwards."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(before)


def _sync() -> None:
    if torch.cuda.is_available():
        torch.cuda.synchronize()


def measure(fn: Callable[[], object], *, warmup: int = 3, repeats: int = 21) -> Timing:
    """Time ``fn()``: ``warmup`` untimed calls, then ``repeats`` timed ones; the median and the spread."""
    if repeats < 3:
        raise ValueError("measure() needs at least 3 repeats to judge their spread")
    for _ in range(warmup):
        fn()
    _sync()
    durations = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        _sync()
        durations.append(time.perf_counter() - start)
    median = statistics.median(durations)
    deciles = statistics.quantiles(durations, n=10)
    spread = (deciles[-1] - deciles[0]) / median if median > 0 else 0.0
    return Timing(median_s=float(median), spread=float(spread), repeats=repeats)


def busy_warning(timings: Iterable[tuple[str, Timing]]) -> str | None:
    """A plain-words warning naming the noisiest measurement, or None when all are steady."""
    noisy = [(what, timing) for what, timing in timings if timing.busy]
    if not noisy:
        return None
    what, worst = max(noisy, key=lambda item: item[1].spread)
    return msg("timing.busy", what=what, spread=worst.spread, limit=BUSY_SPREAD, count=len(noisy))
