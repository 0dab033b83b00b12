"""Peak memory of a computation on the CPU, counted tensor by tensor (no CUDA needed).

``torch.cuda.max_memory_allocated()`` answers "how much memory did this take at its worst?" on
a GPU; the CPU has no such counter. :func:`peak_bytes` runs a function under a
``TorchDispatchMode`` that sees every tensor any PyTorch operation creates, forward, backward
and checkpoint's recomputation included, keeps a *weak* reference to its storage, and after
each operation adds up the bytes of the storages still alive. The largest sum is the peak::

    peak = peak_bytes(lambda: model(x).sum().backward())

Tensors that existed before the call (weights, the input) are not counted: the peak is what
the computation itself added. Storages are counted once however many views share them.

The same count makes a **pretend GPU with little memory**, so that out-of-memory and cuDNN failures
can be met, diagnosed and repaired on a CPU-only machine. Inside :func:`pretend_gpu`, an operation
that takes the live bytes past ``capacity`` raises ``torch.OutOfMemoryError`` with a message shaped
like CUDA's, and a convolution whose cuDNN workspace (taken as the size of its output) does not fit
next to what is alive raises ``RuntimeError: cuDNN error: CUDNN_STATUS_INTERNAL_ERROR``, as cuDNN
does when it cannot get its workspace; with ``torch.backends.cudnn.enabled = False`` (or inside
``torch.backends.cudnn.flags(enabled=False)``) convolutions ask for no workspace, so the plain
out-of-memory error shows instead::

    with pretend_gpu(capacity=1_000_000):
        model(images)            # raises like a 1 MB GPU would
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator

import torch
from torch.multiprocessing.reductions import StorageWeakRef
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_flatten

from ptcourse.messages import msg

__all__ = ["peak_bytes", "pretend_gpu"]

_CONVOLUTIONS = (torch.ops.aten.convolution.default,)


class _LiveBytes(TorchDispatchMode):
    """Tracks the storages created inside it and the largest total of those alive at once."""

    def __init__(self):
        super().__init__()
        self.live: dict[int, tuple[StorageWeakRef, int]] = {}
        self.peak = 0
        self.now = 0

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        for tensor in tree_flatten(out)[0]:
            if isinstance(tensor, torch.Tensor) and tensor.device.type != "meta":
                storage = tensor.untyped_storage()
                key = storage.data_ptr()
                if key and key not in self.live:
                    self.live[key] = (StorageWeakRef(storage), storage.nbytes())
        for key in [key for key, (ref, _) in self.live.items() if ref.expired()]:
            del self.live[key]
        self.now = sum(size for _, size in self.live.values())
        self.peak = max(self.peak, self.now)
        return out


def _size(n: int) -> str:
    return f"{n / 2**20:.2f} MiB"


class _PretendGPU(_LiveBytes):
    """Live bytes capped at ``capacity``: past it, the errors a GPU of that size would raise."""

    def __init__(self, capacity: int):
        super().__init__()
        self.capacity = capacity

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        before = self.now
        out = super().__torch_dispatch__(func, types, args, kwargs)
        asked = max(0, self.now - before)
        if func in _CONVOLUTIONS and torch.backends.cudnn.enabled and self.now + asked > self.capacity:
            raise RuntimeError(msg("peak.cudnn_internal_error"))
        if self.now > self.capacity:
            raise torch.OutOfMemoryError(msg("peak.out_of_memory", asked=_size(asked), capacity=_size(self.capacity),
                                             free=_size(max(0, self.capacity - before)), used=_size(before)))
        return out


@contextlib.contextmanager
def pretend_gpu(capacity: int) -> Iterator[_LiveBytes]:
    """Run the block as if on a GPU with ``capacity`` bytes free (see the module docstring)."""
    with _PretendGPU(capacity) as mode:
        yield mode


def peak_bytes(compute: Callable[[], object]) -> int:
    """The largest number of bytes of tensors alive at once while ``compute()`` ran."""
    counter = _LiveBytes()
    with counter:
        compute()
    return counter.peak
