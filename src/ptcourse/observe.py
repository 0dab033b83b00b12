"""The grader's second key: a test cell shows the grader what the answer gave on fresh inputs.

A test cell asks :func:`fresh_generator` for a ``torch.Generator``, makes inputs with it, runs the
learner's answer on them and hands the outputs to :func:`observe` **without comparing them to
anything**: the expected outputs for those inputs never exist in the learner's kernel. In a graded
run (``python -m grader grade``) the grader seeds the generator with a secret of its own before the
cell (a silent request calls :func:`arm`), receives the observed values as plain data (a display
message of a private type that never reaches the notebook) and compares them, in its own process,
with what the course's solution gives on the same inputs (``grader/judge/observations.py``).

Everywhere else (a learner's own run, JupyterLab's Validate, ``make check``) nothing is armed:
:func:`fresh_generator` gives a generator with a fixed seed and :func:`observe` returns at once.

What travels is data, never objects: a tensor (or NumPy array) as its dtype, shape and values in
NumPy's ``.npy`` format (no pickle); ``None``, a bool, int, float or str, or a list or tuple of
those, as JSON. Anything else travels as the name of its type only, which never matches.

A test cell observes what it checks, no more (``only``): ``"values"`` when its checks compare values
but not the dtype (the values travel as float64), ``"shape"`` when they check a shape only,
``"layout"`` (shape, dtype and device type, no values) for a tensor on the ``meta`` device. Where its
checks have tolerances of their own it passes them (``rtol``, ``atol``): the grader reads them from
the reference run only (the course's solution), never from a learner's run.
"""

from __future__ import annotations

import base64
import io
import json

MIME = "application/x-ptcourse-observation+json"
FIXED_SEED = 20_241_205  # a learner's own runs: the same inputs every time
MAX_BYTES = 8 * 1024**2  # one observation's data; a bigger one travels as "too big"
_STEP = 7_919  # the seed of a cell's n-th generator: seed + n * _STEP

_armed: dict = {"key": None, "seed": FIXED_SEED, "calls": 0}


def arm(key: str, seed: int) -> str:
    """Called by the grader (a silent request before a graded test cell); returns ``key``."""
    _armed.update(key=str(key), seed=int(seed), calls=0)
    return _armed["key"]


def armed() -> bool:
    """Whether this cell's observations go to a grader."""
    return _armed["key"] is not None


def fresh_generator():
    """A ``torch.Generator`` for a test cell's fresh inputs: the grader's secret seed in a graded
    run (each call in the cell its own stream), a fixed seed otherwise."""
    import torch

    seed = (_armed["seed"] + _armed["calls"] * _STEP) % 2**63
    _armed["calls"] += 1
    return torch.Generator().manual_seed(seed)


ONLY = (None, "values", "shape", "layout")


def observe(name: str, value, *, only: str | None = None, rtol: float | None = None,
            atol: float | None = None) -> None:
    """Show the grader ``value``, the answer's output on a fresh input, under ``name`` (unique in
    the cell): all of it, or ``only`` its values, shape or layout (see the module's docstring), to be
    compared within ``rtol``/``atol`` where given. Does nothing outside a graded run."""
    if only not in ONLY:
        raise ValueError(f"only must be one of {ONLY}")
    key = _armed["key"]
    if key is None:
        return
    from IPython.display import publish_display_data

    payload = {"key": key, "name": str(name), **encode(value, only)}
    if rtol is not None or atol is not None:
        payload["tol"] = [float(rtol or 0.0), float(atol or 0.0)]
    publish_display_data({MIME: payload})


def fresh_parameters(model, generator, scale: float = 0.5):
    """Give every parameter of ``model`` fresh values from ``generator``, in the order of their shapes
    (``parameters()``'s order only among parameters of one shape): the weights a test cell observes a
    module's outputs with, the same in the reference run whatever the global random state, and whichever
    order the learner defined the layers in. Returns ``model``."""
    import torch

    with torch.no_grad():
        for parameter in sorted(model.parameters(), key=lambda p: tuple(p.shape)):  # stable: ties keep their order
            parameter.copy_(torch.randn(parameter.shape, generator=generator, dtype=parameter.dtype) * scale)
    return model


# -- plain data ----------------------------------------------------------------------------------
_SCALARS = (bool, int, float, str, type(None))


def encode(value, only: str | None = None) -> dict:
    """``value`` (or ``only`` a part of it) as plain data: ``{"kind": "tensor" | "json" | "other", ...}``.
    Whatever reading ``value`` raises, it travels as its type's name (which never matches)."""
    if only in ("shape", "layout"):
        try:
            return {"kind": "json", "value": _layout(value, only)}
        except Exception:  # noqa: BLE001 - a learner's object may raise anything
            return {"kind": "other", "type": type(value).__name__}
    try:
        array, dtype = _as_array(value)
    except Exception:  # noqa: BLE001 - a meta tensor, a string tensor, an object that raises
        return {"kind": "other", "type": type(value).__name__}
    if array is not None and only == "values":
        array = array.astype("complex128" if array.dtype.kind == "c" else "float64")
        dtype = str(array.dtype)
    if array is not None:
        data = _npy(array)
        if len(data) > MAX_BYTES:
            return {"kind": "other", "type": "too big"}
        return {"kind": "tensor", "dtype": dtype, "npy": base64.b64encode(data).decode("ascii")}
    try:
        plain = _plain(value, depth=0)
    except TypeError as exc:
        return {"kind": "other", "type": str(exc)}
    text = json.dumps(plain)
    if len(text) > MAX_BYTES:
        return {"kind": "other", "type": "too big"}
    return {"kind": "json", "value": plain}


def _as_array(value):
    """A tensor or NumPy array as a plain NumPy array and its dtype's name; (None, None) otherwise.

    A subclass of ``torch.Tensor`` is read as a plain tensor, with its ``__torch_function__`` off."""
    import numpy as np

    try:
        import torch
    except ImportError:  # pragma: no cover - the course always has torch
        torch = None
    if torch is not None and isinstance(value, torch.Tensor):
        with torch._C.DisableTorchFunctionSubclass():
            plain = torch.Tensor.as_subclass(value, torch.Tensor).detach().cpu().contiguous()
            dtype = str(plain.dtype).removeprefix("torch.")
            if plain.dtype == torch.bfloat16:
                plain = plain.float()
            if plain.is_complex() or plain.dtype.is_floating_point or plain.dtype in _TORCH_INTS(torch):
                return np.array(plain.numpy(), copy=True), dtype
        raise TypeError(dtype)
    if isinstance(value, np.ndarray) or isinstance(value, np.generic):
        array = np.array(value, copy=True)
        if array.dtype.kind not in "biufc":
            raise TypeError(str(array.dtype))
        return array, str(array.dtype)
    return None, None


def _layout(value, only: str) -> list:
    """A tensor's shape (``only="shape"``), or its shape, dtype and device type, read with its
    ``__torch_function__`` off; TypeError for anything that is not a tensor."""
    import torch

    if not isinstance(value, torch.Tensor):
        raise TypeError(type(value).__name__)
    with torch._C.DisableTorchFunctionSubclass():
        plain = torch.Tensor.as_subclass(value, torch.Tensor)
        shape = [int(n) for n in plain.shape]
        if only == "shape":
            return shape
        return [shape, str(plain.dtype).removeprefix("torch."), str(plain.device.type)]


def _TORCH_INTS(torch):  # noqa: N802 - a constant that needs torch
    return (torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64)


def _npy(array) -> bytes:
    import numpy as np

    buffer = io.BytesIO()
    np.save(buffer, array, allow_pickle=False)
    return buffer.getvalue()


def _plain(value, depth: int):
    """JSON-ready copy of ``value``: exact built-in scalars, lists and tuples of them (as lists)."""
    if type(value) in _SCALARS:
        return value
    if type(value) in (list, tuple) and depth < 8:
        return [_plain(v, depth + 1) for v in value]
    raise TypeError(type(value).__name__)
