"""Peak memory of a computation on the CPU, counted tensor by tensor (no CUDA needed).

``torch.cuda.max_memory_allocated()`` answers "how much memory did this take at its worst?" on
a GPU; the CPU has no such counter. :func:`peak_bytes` runs a function under a
``TorchDispatchMode`` that sees every tensor any PyTorch operation creates, forward, backward
and checkpoint's recomputation included, keeps a *weak* reference to its storage, and after
each operation adds up the bytes of the storages still alive. The largest sum is the peak::

    peak = peak_bytes(lambda: model(x).sum().backward())

Tensors that existed before the call (weights, the input) are not counted: the peak is what
the computation itself added. Storages are counted once however many views share them.
"""

from __future__ import annotations

from collections.abc import Callable

import torch
from torch.multiprocessing.reductions import StorageWeakRef
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_flatten

__all__ = ["peak_bytes"]


class _LiveBytes(TorchDispatchMode):
    """Tracks the storages created inside it and the largest total of those alive at once."""

    def __init__(self):
        super().__init__()
        self.live: dict[int, tuple[StorageWeakRef, int]] = {}
        self.peak = 0

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
        self.peak = max(self.peak, sum(size for _, size in self.live.values()))
        return out


def peak_bytes(compute: Callable[[], object]) -> int:
    """The largest number of bytes of tensors alive at once while ``compute()`` ran."""
    counter = _LiveBytes()
    with counter:
        compute()
    return counter.peak
