"""Spies for graded training loops: which steps a loop took, in which order, and its losses.

A test cell runs the learner's loop inside :func:`watch_training` and then compares what the
loop *returned* with what it *did*::

    with watch_training() as trace:
        losses = run(7, epochs=2)
    check(trace.count("step") == 16, ...)
    check_close(losses, trace.epoch_means(256), "run(7, epochs=2)")

The spy records calls of the cross-entropy and MSE losses at the bottom of
``torch.nn.functional.cross_entropy``/``mse_loss`` (``torch._C._nn``), so it sees them however
the learner reached them (``nn.functional.cross_entropy``, a name imported from it, or the
``nn.CrossEntropyLoss``/``nn.MSELoss`` modules),
``torch.autograd.backward`` (which ``loss.backward()`` calls), ``zero_grad`` of optimizers and
modules, and every optimizer's ``step`` (a global step hook). It changes no result.
"""

from __future__ import annotations

import pkgutil
import sys
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from enum import Enum
from unittest import mock

import torch
from torch import nn
from torch.optim.optimizer import register_optimizer_step_pre_hook

__all__ = ["Event", "LossCall", "TrainingTrace", "patched", "watch_training"]

LOSS_FUNCTIONS = ("cross_entropy_loss", "mse_loss")  # in torch._C._nn, called by nn.functional
# The torch these spies were written against (requirements.txt pins it). They wrap torch's own
# functions where torch looks them up (torch._C._nn's losses, torch.autograd.backward, zero_grad):
# tests/test_compat.py checks the version and the source of each function wrapped or relied on, and
# fails on an upgrade that changes one. Then re-read that source, fix the spy, record the new hash.
WRITTEN_AGAINST = {"torch": "2.14.1"}


class Event(Enum):
    """One step of a training loop, as the spy saw it."""

    LOSS = "loss"
    ZERO_GRAD = "zero_grad"
    BACKWARD = "backward"
    STEP = "step"


@dataclass(frozen=True)
class LossCall:
    """One call of a loss function: its value, its batch size and whether autograd was on."""

    value: float
    batch: int
    grad_enabled: bool


@dataclass
class TrainingTrace:
    """What a training loop did, in order."""

    events: list[Event] = field(default_factory=list)
    losses: list[LossCall] = field(default_factory=list)
    clean_at_backward: list[bool] = field(default_factory=list)  # no gradient left over, per backward
    fresh_at_step: list[bool] = field(default_factory=list)  # a backward's gradients there, per step
    params: dict[int, torch.Tensor] = field(default_factory=dict, repr=False)  # the optimizers' parameters

    def count(self, event: Event) -> int:
        """How many times ``event`` happened."""
        return self.events.count(event)

    def order_problem(self) -> Event | None:
        """The step missing between two updates, or ``None`` if every update was complete.

        Judged by effect, so any way of zeroing counts (``optimizer.zero_grad()``,
        ``model.zero_grad()``, ``p.grad = None``): ``ZERO_GRAD`` if a ``backward`` found the
        gradients of an earlier one still there (they add up); ``BACKWARD`` if a ``step`` came with
        no backward since the previous step, or with the gradients zeroed after it.
        """
        backwards = steps = 0
        backward_since_step = False
        for event in self.events:
            if event is Event.BACKWARD:
                if not self.clean_at_backward[backwards]:
                    return Event.ZERO_GRAD
                backwards += 1
                backward_since_step = True
            elif event is Event.STEP:
                if not (backward_since_step and self.fresh_at_step[steps]):
                    return Event.BACKWARD
                steps += 1
                backward_since_step = False
        return None

    def _any_gradient(self, params) -> bool:
        return any(p.grad is not None and bool(p.grad.detach().any()) for p in params)

    def _on_backward(self) -> None:
        self.events.append(Event.BACKWARD)
        self.clean_at_backward.append(not self._any_gradient(self.params.values()))

    def _on_step(self, optimizer: torch.optim.Optimizer) -> None:
        params = [p for group in optimizer.param_groups for p in group["params"]]
        self.params.update((id(p), p) for p in params)
        self.events.append(Event.STEP)
        self.fresh_at_step.append(self._any_gradient(params))

    def training_losses(self) -> list[LossCall]:
        """The loss calls made with autograd on (the ones a training step can learn from)."""
        return [call for call in self.losses if call.grad_enabled]

    def epoch_means(self, samples: int, weighted: bool = True) -> list[float]:
        """Each epoch's mean training loss, an epoch being ``samples`` samples seen.

        ``weighted``: each batch counts by its size (the mean over samples); else the mean of
        the batch losses.
        """
        means: list[float] = []
        seen, total, batches = 0, 0.0, 0
        for call in self.training_losses():
            seen += call.batch
            batches += 1
            total += call.value * call.batch if weighted else call.value
            if seen >= samples:
                means.append(total / (seen if weighted else batches))
                seen, total, batches = 0, 0.0, 0
        return means


def _loss_spy(trace: TrainingTrace, original):
    def spy(input, target, *args, **kwargs):
        value = original(input, target, *args, **kwargs)
        trace.events.append(Event.LOSS)
        if value.dim() == 0:
            batch = int(target.shape[0]) if target.dim() else 1
            trace.losses.append(LossCall(float(value.detach()), batch, torch.is_grad_enabled()))
        return value
    return spy


def _recording(trace: TrainingTrace, event: Event, original):
    def spy(*args, **kwargs):
        trace.events.append(event)
        return original(*args, **kwargs)
    return spy


def _backward_spy(trace: TrainingTrace, original):
    def spy(*args, **kwargs):
        trace._on_backward()
        return original(*args, **kwargs)
    return spy


@contextmanager
def watch_training() -> Iterator[TrainingTrace]:
    """Record the steps of the training code run inside the ``with`` block."""
    trace = TrainingTrace()
    functional = torch._C._nn
    with ExitStack() as stack:
        for name in LOSS_FUNCTIONS:
            stack.enter_context(mock.patch.object(
                functional, name, _loss_spy(trace, getattr(functional, name))))
        stack.enter_context(mock.patch.object(
            torch.autograd, "backward", _backward_spy(trace, torch.autograd.backward)))
        for owner in (torch.optim.Optimizer, nn.Module):
            stack.enter_context(mock.patch.object(
                owner, "zero_grad", _recording(trace, Event.ZERO_GRAD, owner.zero_grad)))
        handle = register_optimizer_step_pre_hook(lambda optimizer, *_: trace._on_step(optimizer))
        stack.callback(handle.remove)
        yield trace


class patched:
    """``mock.patch(target, new, **kwargs)``, seen however the learner's code reached ``target``.

    ``mock.patch("torch.save", spy)`` replaces the module's attribute only: an answer written with
    ``from torch import save`` (or ``from time import perf_counter``) still calls the original, and
    a behaviour check would then tell the learner something false about their code. Here every name
    of ``namespace`` (by default the globals of the code that makes this object: a test cell's, which
    are the notebook's) bound to the very object ``target`` names is replaced too, and put back on
    exit. A test that needs the original inside its spy keeps it where no global name holds it (a
    default argument, ``def spy(*a, _real=torch.save)``), since such a global is replaced as well::

        with patched("time.perf_counter", clock):
            got = time_call(step)
    """

    def __init__(self, target: str, new=mock.DEFAULT, namespace: dict | None = None, **kwargs):
        self.target = target
        self.namespace = namespace if namespace is not None else sys._getframe(1).f_globals
        self._patch = mock.patch(target, new, **kwargs)  # return_value=..., as mock.patch takes them
        self._rebound: dict[str, object] = {}
        self._entered = None

    def __enter__(self):
        owner, attribute = self.target.rsplit(".", 1)
        before = getattr(pkgutil.resolve_name(owner), attribute)
        self._rebound = {name: value for name, value in list(self.namespace.items())
                         if value is before and not name.startswith("__")}
        self._entered = self._patch.__enter__()
        for name in self._rebound:
            self.namespace[name] = self._entered
        return self._entered

    def __exit__(self, *exc):
        for name, value in self._rebound.items():
            if self.namespace.get(name) is self._entered:
                self.namespace[name] = value
        self._rebound = {}
        return self._patch.__exit__(*exc)
