"""Device-placement checks that mean something on a CPU-only machine.

A lesson that says "move the batch to the device" or "autocast on the model's device" cannot be
graded by running it on the CPU alone: there, forgetting ``.to(device)`` changes nothing. This
module gives test cells a *pretend accelerator*. Inside :func:`watch`, ``torch.device("cuda")``
(the default pretend type) is simulated on the CPU, and every tensor carries where it would be:

- ``t.to(dev)``, ``t.cuda()``, ``model.to(dev)``, ``model.cuda()`` and factories with
  ``device=dev`` compute on the CPU but mark their results as **on the device**; ``t.device``
  of such a tensor reports ``dev``. A move returns a new tensor object, as it would on real
  hardware, so ``images.to(dev)`` without assigning it moves nothing;
- :meth:`Placement.host` marks tensors, modules (their parameters and buffers) and the batches of
  a loader (:meth:`Placement.host_loader`) as **on the host** (the CPU);
- every PyTorch call whose tensor arguments mix the two (a 0-dim tensor excepted, as CUDA
  allows) is recorded as a :class:`Mix`; results carry the device if any argument did;
- ``torch.autocast`` / ``torch.amp.autocast`` (however imported) are spied on: each call is recorded as an
  :class:`AutocastCall` (device type, dtype, ``enabled``). Autocast for the pretend device type
  runs the real CPU autocast; autocast for any *other* device type does nothing to the pretend
  device's work, exactly as ``torch.autocast("cpu")`` does nothing to CUDA kernels.

Tensors nobody marked (the grader's own, those loaded from a file) are neutral: they never
count as a mix, so optimizer steps, checkpoints and test helpers run unchanged.

Use in a test cell::

    from ptcourse.placement import watch

    with watch() as where:                       # where.device == torch.device("cuda")
        run = make_run(0, data, epochs=1, device=where.device)
        run.loader = where.host_loader(run.loader)
        fit(run, 1, path)
    where.check_moved()                          # data and model both on the device
    where.check_autocast(dtype=torch.bfloat16)   # autocast on the model's device, enabled

The checks raise :class:`ptcourse.checks.CheckFailed` with plain-words catalogue messages
(``placement.*``, in ``catalogue/en/placement.py``): which call got which tensor on which side.
"""

from __future__ import annotations

import contextlib
import enum
import weakref
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import torch
from torch import nn
from torch.overrides import TorchFunctionMode
from torch.utils._pytree import tree_flatten, tree_map

from ptcourse.checks import fail

__all__ = ["AutocastCall", "Mix", "Placement", "Where", "watch"]

# The torch this pretend accelerator was written against (requirements.txt pins it). It replaces
# torch.autocast's constructor and nn.Module.to/.cuda/.cpu while watching: tests/test_compat.py
# checks the version and the source of each function replaced, and fails on an upgrade that changes
# one. Then re-read that source, bring _patched up to date, record the new hash.
WRITTEN_AGAINST = {"torch": "2.14.1"}

_REAL_AUTOCAST = torch.amp.autocast_mode.autocast
_REAL_MODULE_TO = nn.Module.to
_DEVICE_GET = torch.Tensor.device.__get__


class Where(enum.Enum):
    """Where a marked tensor would be on real hardware."""

    HOST = "host"
    DEVICE = "device"


@dataclass(frozen=True)
class Tag:
    """A tensor's place and what it is, in words (``"a batch from the loader"``)."""

    where: Where
    label: str


@dataclass(frozen=True)
class Mix:
    """One call that got tensors from both sides: on real hardware, a device-mismatch error."""

    op: str
    host: str  # label of the first host tensor it got
    device: str  # label of the first device tensor it got
    host_is_model: bool  # the host tensor is a module's parameter or buffer


@dataclass(frozen=True)
class AutocastCall:
    """The arguments of one ``torch.autocast(...)``."""

    device_type: str
    dtype: torch.dtype | None
    enabled: bool


@dataclass
class Placement:
    """What one :func:`watch` block saw. ``device`` is the pretend device to hand to the code."""

    device: torch.device
    mixes: list[Mix] = field(default_factory=list)
    autocasts: list[AutocastCall] = field(default_factory=list)
    _tags: dict[int, tuple[weakref.ref, Tag]] = field(default_factory=dict, repr=False)

    # -- marking -------------------------------------------------------------------------
    def tag(self, tensor: torch.Tensor, where: Where, label: str) -> None:
        key = id(tensor)
        self._tags[key] = (weakref.ref(tensor, lambda ref, k=key: self._forget(k, ref)), Tag(where, label))

    def _forget(self, key: int, ref: weakref.ref) -> None:
        entry = self._tags.get(key)
        if entry is not None and entry[0] is ref:
            del self._tags[key]

    def tag_of(self, tensor: torch.Tensor) -> Tag | None:
        entry = self._tags.get(id(tensor))
        return entry[1] if entry is not None and entry[0]() is tensor else None

    def host(self, *things: Any, label: str = "a tensor made on the CPU") -> None:
        """Mark tensors, and modules' parameters and buffers, as on the host (not moved)."""
        for thing in things:
            if isinstance(thing, nn.Module):
                self._tag_module(thing, Where.HOST, "the model's")
            elif isinstance(thing, torch.Tensor):
                self.tag(thing, Where.HOST, label)

    def _tag_module(self, module: nn.Module, where: Where, whose: str) -> None:
        for name, tensor in [*module.named_parameters(), *module.named_buffers()]:
            self.tag(tensor, where, f"{whose} {name}")

    def host_loader(self, loader: Iterable) -> _HostLoader:
        """A wrapper of ``loader`` whose batches are marked as on the host, as a DataLoader's are."""
        return _HostLoader(loader, self)

    # -- checks --------------------------------------------------------------------------
    def check_moved(self) -> None:
        """Fail, naming the call and the tensor, if any call mixed host and device tensors."""
        for mix in self.mixes:
            if mix.host_is_model:
                fail("placement.model_not_moved", op=mix.op, tensor=mix.host, device=self.device.type)
            fail("placement.data_not_moved", op=mix.op, tensor=mix.host, device=self.device.type)

    def check_autocast(self, dtype: torch.dtype | None) -> None:
        """Fail unless autocast ran on the device's type with ``dtype`` (or was off, for ``None``)."""
        kind = self.device.type
        for call in self.autocasts:
            if call.device_type != kind:
                fail("placement.autocast_device", got=call.device_type, device=kind)
        enabled = [call for call in self.autocasts if call.enabled]
        if dtype is None:
            if enabled:
                fail("placement.autocast_not_disabled", got=str(enabled[0].dtype or torch.get_autocast_dtype("cpu")))
            return
        if not enabled:
            fail("placement.autocast_missing", dtype=str(dtype), device=kind)
        wrong = [call for call in enabled if call.dtype not in (dtype, None)]
        if wrong:
            fail("placement.autocast_dtype", expected=str(dtype), got=str(wrong[0].dtype))


class _HostLoader:
    """Yields the batches of a loader, each tensor marked as on the host."""

    def __init__(self, loader: Iterable, placement: Placement):
        self.loader, self.placement = loader, placement

    def __iter__(self) -> Iterator:
        for batch in self.loader:
            for tensor in tree_flatten(batch)[0]:
                if isinstance(tensor, torch.Tensor):
                    shape = "×".join(str(s) for s in tensor.shape)
                    self.placement.tag(tensor, Where.HOST, f"a batch from the loader ({shape})")
            yield batch

    def __len__(self) -> int:
        return len(self.loader)

    def __getattr__(self, name: str) -> Any:  # dataset, batch_size, ... of the real loader
        return getattr(self.loader, name)


def _is_pretend(device: Any, kind: str) -> bool:
    if device is None:
        return False
    try:
        return torch.device(device).type == kind
    except (RuntimeError, TypeError):
        return False


class _PlacementMode(TorchFunctionMode):
    """Runs every call on the CPU and keeps the pretend placement of its results."""

    def __init__(self, placement: Placement):
        super().__init__()
        self.placement, self.kind = placement, placement.device.type

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        name = getattr(func, "__name__", str(func))
        if func == _DEVICE_GET:
            tag = self.placement.tag_of(args[0])
            return self.placement.device if tag and tag.where is Where.DEVICE else func(*args)
        if name in ("to", "cuda", "cpu") and args and isinstance(args[0], torch.Tensor):
            return self._move(func, name, args, kwargs)
        if _is_pretend(kwargs.get("device"), self.kind):  # a factory: torch.zeros(..., device=dev)
            out = func(*args, **{**kwargs, "device": "cpu"})
            tree_map(lambda t: self._mark(t, Tag(Where.DEVICE, "a tensor made on the device")), out)
            return out
        if name == "__set__" and len(args) == 2 and isinstance(args[1], torch.Tensor):
            out = func(*args, **kwargs)
            moved = self.placement.tag_of(args[1])  # p.data = q: p now lives where q does
            if moved is not None:
                old = self.placement.tag_of(args[0])
                self._mark(args[0], Tag(moved.where, old.label if old else moved.label))
            return out
        tag = self._inputs(name, args, kwargs)
        out = func(*args, **kwargs)
        if tag is not None:
            tree_map(lambda t: self._mark(t, tag), out)
        return out

    def _mark(self, thing: Any, tag: Tag) -> Any:
        if isinstance(thing, torch.Tensor):
            self.placement.tag(thing, tag.where, tag.label)
        return thing

    def _move(self, func, name: str, args: tuple, kwargs: dict) -> torch.Tensor:
        tensor, rest = args[0], args[1:]
        if name == "to":
            other = next((a for a in rest if isinstance(a, torch.Tensor)), kwargs.get("other"))
            if other is not None:
                target = self.placement.tag_of(other)
                to_device = target is not None and target.where is Where.DEVICE
                dtype = other.dtype
            else:
                device, dtype, _, _ = torch._C._nn._parse_to(*rest, **kwargs)
                to_device = _is_pretend(device, self.kind)
                if not to_device and device is None:  # .to(dtype): stays where it is
                    out = func(*args, **kwargs)
                    old = self.placement.tag_of(tensor)
                    return self._mark(out, old) if old else out
        else:
            to_device, dtype = name == "cuda", None
        out = tensor.to(dtype) if dtype is not None else tensor
        out = out.view_as(out) if out is tensor else out  # a move gives a new tensor, as on hardware
        old = self.placement.tag_of(tensor)
        label = old.label if old else ("the tensor moved to the device" if to_device else "a tensor on the CPU")
        return self._mark(out, Tag(Where.DEVICE if to_device else Where.HOST, label))

    def _inputs(self, name: str, args: tuple, kwargs: dict) -> Tag | None:
        """The tag for the call's results; records a :class:`Mix` if it got both sides."""
        host = device = None
        for value in tree_flatten((args, kwargs))[0]:
            tag = self.placement.tag_of(value) if isinstance(value, torch.Tensor) else None
            if tag is None or (tag.where is Where.HOST and value.dim() == 0):
                continue
            if tag.where is Where.HOST:
                host = host or (tag, value)
            else:
                device = device or (tag, value)
        if host and device:
            is_param = isinstance(host[1], nn.Parameter) or host[0].label.startswith("the model's")
            self.placement.mixes.append(Mix(name, host[0].label, device[0].label, is_param))
        return (device or host or (None,))[0]


@contextlib.contextmanager
def _patched(placement: Placement) -> Iterator[None]:
    """``torch.autocast``'s constructor and ``nn.Module.to/.cuda/.cpu`` replaced by pretend versions.

    The constructor is patched on the class itself, so ``from torch import autocast`` done
    before the block, ``torch.amp.autocast`` and subclasses are all seen.
    """
    kind = placement.device.type
    real_init = _REAL_AUTOCAST.__init__

    def spy_init(self, device_type, dtype=None, enabled=True, cache_enabled=None):
        placement.autocasts.append(AutocastCall(str(device_type), dtype, bool(enabled)))
        ours = str(device_type) == kind
        real_init(self, "cpu", dtype=dtype, enabled=bool(enabled) and ours, cache_enabled=cache_enabled)

    def module_to(module, *args, **kwargs):
        device, dtype, _, _ = torch._C._nn._parse_to(*args, **kwargs)
        if device is None:
            return _REAL_MODULE_TO(module, *args, **kwargs)
        if dtype is not None:
            with torch._C.DisableTorchFunction():
                _REAL_MODULE_TO(module, dtype)
        placement._tag_module(module, Where.DEVICE if _is_pretend(device, kind) else Where.HOST, "the model's")
        return module

    saved = (nn.Module.to, nn.Module.cuda, nn.Module.cpu)
    _REAL_AUTOCAST.__init__ = spy_init
    nn.Module.to = module_to
    nn.Module.cuda = lambda module, device=None: module_to(module, kind)
    nn.Module.cpu = lambda module: module_to(module, "cpu")
    try:
        yield
    finally:
        _REAL_AUTOCAST.__init__ = real_init
        nn.Module.to, nn.Module.cuda, nn.Module.cpu = saved


@contextlib.contextmanager
def watch(device_type: str = "cuda") -> Iterator[Placement]:
    """Simulate a ``device_type`` accelerator on the CPU; yield the :class:`Placement` record."""
    placement = Placement(torch.device(device_type))
    with _patched(placement), _PlacementMode(placement):
        yield placement
