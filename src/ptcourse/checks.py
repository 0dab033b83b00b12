"""Check helpers for test cells: each raises :class:`CheckFailed` with a plain-words message.

A test cell reads like a sentence::

    check_shape(logits, (64, 10), "logits")
    check_close(x.grad, torch.tensor([7.0, 9.0]), "x.grad")
    check(loss_fell, "linreg.no_progress", first=..., last=...)

Messages come from the catalogue (:mod:`ptcourse.messages`), so they can be translated.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import torch

from ptcourse.messages import has, msg

__all__ = [
    "CheckFailed",
    "check",
    "check_close",
    "check_device",
    "check_dtype",
    "check_equal",
    "check_finite",
    "check_requires_grad",
    "check_shape",
    "check_tensor",
    "check_type",
    "fail",
    "passed",
]


class CheckFailed(AssertionError):
    """A learner's answer failed a check; the message says what was expected and what came.

    ``message_id`` is the catalogue id of the message (``None`` if raised by hand). The course's
    own tests read it after a failed cell (IPython keeps the last error as ``sys.last_value``)
    to record which message a mistake produces, so every language's catalogue can be checked
    for it.
    """

    def __init__(self, text: str = "", message_id: str | None = None):
        super().__init__(text)
        self.message_id = message_id

    def _render_traceback_(self) -> list[str]:
        """What IPython shows for a failed check: the message alone, in red, and no frame of the
        course's code. IPython calls this instead of drawing a traceback; the error output keeps
        ``ename``/``evalue`` (what graders read), and nbgrader's Validate shows these lines."""
        text = msg("check.failed", message=str(self) or type(self).__name__)
        return [f"\x1b[0;31m{line}\x1b[0m" for line in text.splitlines()]


def fail(message_id: str, /, **values: Any) -> None:
    """Raise :class:`CheckFailed` with catalogue message ``message_id``."""
    raise CheckFailed(msg(message_id, **values), message_id) from None


def check(condition: Any, message_id: str, /, **values: Any) -> None:
    """Raise :class:`CheckFailed` with message ``message_id`` unless ``condition`` is true."""
    if not condition:
        fail(message_id, **values)


def passed(message_id: str, /, **values: Any) -> None:
    """Print a one-line success note, catalogue message ``message_id`` (visible test cells end with one).

    Test cells name an id (``passed("tensors_make_grid_basic.passed")``); prose that is not an id
    still prints as it is, so a cell from an unconverted branch runs, but tests/test_msgids.py
    fails on it (tools/msgify.py converts it).
    """
    text = msg(message_id, **values) if has(message_id) else message_id
    print(msg("check.passed", what=text))


def _shape(shape: Sequence[int] | torch.Size) -> tuple[int, ...]:
    return tuple(int(s) for s in shape)


def check_tensor(value: Any, name: str) -> torch.Tensor:
    """``value`` must be a tensor; returns it so calls can be chained."""
    if value is None:
        fail("check.not_none", name=name)
    if not isinstance(value, torch.Tensor):
        fail("check.not_tensor", name=name, got_type=type(value).__name__)
    return value


def check_type(value: Any, expected: type | tuple[type, ...], name: str) -> None:
    """``value`` must be an instance of ``expected``."""
    if not isinstance(value, expected):
        names = (
            " or ".join(t.__name__ for t in expected)
            if isinstance(expected, tuple)
            else expected.__name__
        )
        fail("check.wrong_type", name=name, expected=names, got_type=type(value).__name__)


def check_shape(value: Any, expected: Sequence[int] | torch.Size, name: str) -> None:
    """``value`` must be a tensor of shape ``expected``."""
    check_tensor(value, name)
    got, want = _shape(value.shape), _shape(expected)
    if got != want:
        fail("check.shape", name=name, expected=want, got=got)


def check_dtype(value: Any, expected: torch.dtype, name: str) -> None:
    """``value`` must be a tensor of dtype ``expected``."""
    check_tensor(value, name)
    if value.dtype != expected:
        fail("check.dtype", name=name, expected=expected, got=value.dtype)


def check_device(value: Any, expected: torch.device | str, name: str) -> None:
    """``value`` must be a tensor on ``expected`` (``"cuda"`` matches any CUDA index)."""
    check_tensor(value, name)
    want = torch.device(expected)
    got = value.device
    same = got.type == want.type and (want.index is None or got.index == want.index)
    if not same:
        fail("check.device", name=name, expected=want, got=got)


def check_requires_grad(value: Any, expected: bool, name: str) -> None:
    """``value.requires_grad`` must equal ``expected``."""
    check_tensor(value, name)
    if bool(value.requires_grad) != expected:
        fail("check.requires_grad", name=name, expected=expected, got=value.requires_grad)


def check_finite(value: Any, name: str) -> None:
    """``value`` must contain no NaN or infinity."""
    check_tensor(value, name)
    if not bool(torch.isfinite(value.detach()).all()):
        fail("check.finite", name=name)


def is_close(got: Any, expected: Any, *, atol: float = 1e-6, rtol: float = 1e-5) -> bool:
    """Whether ``got`` is within tolerance of ``expected``, compared as numbers whatever ``got``'s dtype or
    device (a learner's float64, integer or boolean answer): for a test that looks for a known mistake before
    its plain check, never a PyTorch dtype error. A complex answer, or one of another shape, is not close."""
    if not isinstance(got, torch.Tensor) or got.is_complex():
        return False
    want = torch.as_tensor(expected)
    if tuple(got.shape) != tuple(want.shape):
        return False
    return bool(torch.allclose(got.detach().to("cpu", torch.float64), want.detach().to("cpu", torch.float64),
                               atol=atol, rtol=rtol))


def check_close(
    got: Any,
    expected: Any,
    name: str,
    *,
    atol: float = 1e-6,
    rtol: float = 1e-5,
    check_dtype_too: bool = False,
) -> None:
    """``got`` must match ``expected`` in shape and, within tolerance, in value.

    ``expected`` may be a tensor, a number or a nested list. On a mismatch the message names
    the largest difference and where it is.
    """
    check_tensor(got, name)
    want = torch.as_tensor(expected)
    if want.dim() > 0 or got.dim() > 0:
        check_shape(got, want.shape, name)
    if check_dtype_too:
        check_dtype(got, want.dtype, name)
    a = got.detach().to("cpu", torch.float64)
    b = want.detach().to("cpu", torch.float64)
    bad = ~torch.isclose(a, b, atol=atol, rtol=rtol, equal_nan=False)
    if bool(bad.any()):
        diff = (a - b).abs().nan_to_num(float("inf"))
        flat = int(diff.reshape(-1).argmax())
        where = tuple(int(i) for i in torch.unravel_index(torch.tensor(flat), a.shape)) if a.dim() else ()
        fail(
            "check.values",
            name=name,
            max_diff=float(diff.reshape(-1)[flat]),
            where=where,
            expected_value=_fmt(b.reshape(-1)[flat]),
            got_value=_fmt(a.reshape(-1)[flat]),
        )


def check_equal(got: Any, expected: Any, name: str) -> None:
    """``got == expected`` for plain Python values (ints, strings, tuples...)."""
    if got != expected:
        fail("check.equal", name=name, expected=expected, got=got)


def _fmt(x: torch.Tensor) -> str:
    return f"{float(x):.6g}"
