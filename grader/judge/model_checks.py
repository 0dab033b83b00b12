"""Model-level checks judged in the grader's own process, from plain data (issue 32).

Two test cells of day2/03_cnn_mnist have no single reference output: the learner chooses the
optimizer, the schedule and the training run, and each gives other numbers. Their points used to
rest on the learner's kernel alone. Here the grader judges them itself, from the weights the cell
observed (plain arrays, read by :mod:`grader.judge.observations` without unpickling anything) and data
the grader reads from the course's own files:

* ``cnn_trained_accuracy``: the trained CNN's ``state_dict`` is evaluated here, by the course's
  architecture written in NumPy (SimpleCNN, with or without NormCNN's batch normalisation, any
  channel and hidden sizes), on the 1,000 test digits; at least :data:`ACCURACY_FLOOR` correct.
  A model of another architecture cannot be evaluated here: its points keep the kernel's verdict
  and the notebook is flagged for review (:attr:`Outcome.UNJUDGED`).
* ``cnn_make_optimizer_learns``: the tiny CNN's starting weights come from the cell's secret seed
  (the grader draws the same ones here); the cell observes the weights after its 30 steps of the
  learner's optimizer and schedule. The grader computes both losses on the 320 digits itself; the
  last must be finite and below :data:`LOSS_FACTOR` times the first.

Nothing of the learner's runs here: no object, no code, no graph; only arrays whose shapes are
checked against the architecture before any arithmetic.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

import numpy as np

from ptcourse.messages import msg

ACCURACY_FLOOR = 0.97  # the course's cell: "at least 97 % of the 1,000 test digits"
LOSS_FACTOR = 0.9  # the course's cell: the loss "falls clearly", to below 90 % of its start
LEARN_SAMPLES = 320  # the first training digits the optimizer cell trains on
MEAN, STD = 0.1307, 0.3081  # MNIST's normalisation, as in the notebook
BN_EPS = 1e-5  # nn.BatchNorm2d's default
STATE_PREFIX = "state."  # the observation names of a state_dict's entries
STRIPPED = ("_orig_mod.", "module.")  # torch.compile's and DataParallel's wrappers
TINY_SHAPES = {"0.weight": (4, 1, 3, 3), "0.bias": (4,), "4.weight": (10, 4 * 13 * 13), "4.bias": (10,)}


class Outcome(StrEnum):
    PASSED = "passed"
    FAILED = "failed"
    UNJUDGED = "unjudged"  # the grader cannot evaluate this model: the kernel's verdict stands, flagged


@dataclass(frozen=True)
class Verdict:
    outcome: Outcome
    message: str = ""  # a catalogue message, for the learner (FAILED)
    detail: str = ""  # for the instructor


# -- the course's data, read here ------------------------------------------------------------------
def _idx(path: Path) -> np.ndarray:
    """An MNIST idx file (big-endian header: magic, then one size per dimension)."""
    raw = path.read_bytes()
    dims = raw[3]
    shape = tuple(int.from_bytes(raw[4 + 4 * i:8 + 4 * i], "big") for i in range(dims))
    return np.frombuffer(raw, dtype=np.uint8, offset=4 + 4 * dims).reshape(shape)


def mnist(train: bool, root: Path | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The course's MNIST digits as (float32 images (N, 1, 28, 28) normalised as in the notebook, int labels)."""
    from ptcourse.data import mnist_root

    raw = (root or mnist_root()) / "MNIST" / "raw"
    prefix = "train" if train else "t10k"
    images = _idx(raw / f"{prefix}-images-idx3-ubyte").astype(np.float32)
    labels = _idx(raw / f"{prefix}-labels-idx1-ubyte").astype(np.int64)
    return ((images / 255 - MEAN) / STD)[:, None], labels


# -- the course's architectures, in NumPy ------------------------------------------------------------
def conv2d(x: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
    """A stride-1, unpadded convolution of (N, C, H, W) by (O, C, k, k)."""
    out_c, _in_c, k, _ = weight.shape
    windows = np.lib.stride_tricks.sliding_window_view(x, (k, k), axis=(2, 3))  # N, C, H', W', k, k
    n, _c, h, w = windows.shape[:4]
    columns = windows.transpose(0, 2, 3, 1, 4, 5).reshape(n * h * w, -1)  # one row per output pixel
    y = columns @ weight.reshape(out_c, -1).T + bias
    return y.reshape(n, h, w, out_c).transpose(0, 3, 1, 2)


def max_pool2(x: np.ndarray) -> np.ndarray:
    n, c, h, w = x.shape
    x = x[:, :, :h - h % 2, :w - w % 2]
    return x.reshape(n, c, h // 2, 2, w // 2, 2).max(axis=(3, 5))


def batch_norm(x: np.ndarray, state: dict[str, np.ndarray], name: str) -> np.ndarray:
    """``nn.BatchNorm2d`` in evaluation mode (its running statistics)."""
    scale = state[f"{name}.weight"] / np.sqrt(state[f"{name}.running_var"] + BN_EPS)
    shift = state[f"{name}.bias"] - state[f"{name}.running_mean"] * scale
    return x * scale[None, :, None, None] + shift[None, :, None, None]


def relu(x: np.ndarray) -> np.ndarray:
    return np.maximum(x, 0)


def _cnn_shapes(state: dict[str, np.ndarray]) -> dict[str, tuple[int, ...]] | None:
    """The shapes a SimpleCNN (or NormCNN) with ``state``'s sizes has, or None if ``state`` is not one."""
    try:
        c1, c2, hidden = state["conv1.weight"].shape[0], state["conv2.weight"].shape[0], state["fc1.weight"].shape[0]
    except (KeyError, IndexError):
        return None
    shapes = {"conv1.weight": (c1, 1, 3, 3), "conv1.bias": (c1,), "conv2.weight": (c2, c1, 3, 3), "conv2.bias": (c2,),
              "fc1.weight": (hidden, c2 * 5 * 5), "fc1.bias": (hidden,), "fc2.weight": (10, hidden), "fc2.bias": (10,)}
    if "bn1.weight" in state:
        for name, c in (("bn1", c1), ("bn2", c2)):
            shapes.update({f"{name}.{p}": (c,) for p in ("weight", "bias", "running_mean", "running_var")})
            shapes[f"{name}.num_batches_tracked"] = ()
    return shapes


def _fits(state: dict[str, np.ndarray], shapes: dict[str, tuple[int, ...]] | None) -> bool:
    return shapes is not None and set(state) == set(shapes) and all(
        state[k].shape == shapes[k] and state[k].dtype.kind in "fiu" for k in shapes)


def _misfit(state: dict[str, np.ndarray], shapes: dict[str, tuple[int, ...]] | None) -> str:
    """Where ``state`` differs from the architecture's entries, in a few words for the instructor."""
    if shapes is None:
        return f"state_dict keys: {', '.join(sorted(state)[:6]) or 'none'}"
    extra, missing = sorted(set(state) - set(shapes)), sorted(set(shapes) - set(state))
    shaped = sorted(k for k in set(state) & set(shapes) if state[k].shape != shapes[k])
    parts = [f"{what}: {', '.join(keys[:4])}" for what, keys in (("unexpected", extra), ("missing", missing),
                                                                  ("other shapes", shaped)) if keys]
    return "; ".join(parts) or "entries that are not numbers"


def cnn_logits(state: dict[str, np.ndarray], images: np.ndarray, batch: int = 250) -> np.ndarray:
    """The scores of SimpleCNN (NormCNN when ``state`` has ``bn1``/``bn2``) for ``images``, in evaluation mode."""
    s = {k: v.astype(np.float32) for k, v in state.items()}
    norm = "bn1.weight" in s
    out = []
    for start in range(0, len(images), batch):
        x = conv2d(images[start:start + batch].astype(np.float32), s["conv1.weight"], s["conv1.bias"])
        x = max_pool2(relu(batch_norm(x, s, "bn1") if norm else x))
        x = conv2d(x, s["conv2.weight"], s["conv2.bias"])
        x = max_pool2(relu(batch_norm(x, s, "bn2") if norm else x))
        x = relu(x.reshape(len(x), -1) @ s["fc1.weight"].T + s["fc1.bias"])
        out.append(x @ s["fc2.weight"].T + s["fc2.bias"])
    return np.concatenate(out)


def tiny_logits(state: dict[str, np.ndarray], images: np.ndarray) -> np.ndarray:
    """The optimizer cell's tiny CNN: Conv2d(1, 4, 3), ReLU, MaxPool2d(2), Flatten, Linear(676, 10)."""
    s = {k: v.astype(np.float32) for k, v in state.items()}
    x = max_pool2(relu(conv2d(images.astype(np.float32), s["0.weight"], s["0.bias"])))
    return x.reshape(len(x), -1) @ s["4.weight"].T + s["4.bias"]


def tiny_start(seed: int) -> dict[str, np.ndarray]:
    """The tiny CNN's starting weights for a cell's seed, drawn as the cell draws them (NumPy's
    generator, PyTorch's default bounds: uniform within 1/sqrt(fan-in))."""
    rng = np.random.default_rng(seed)
    out = {}
    for name, shape in TINY_SHAPES.items():
        fan_in = 9 if name.startswith("0.") else 4 * 13 * 13
        out[name] = rng.uniform(-1, 1, shape).astype(np.float32) * np.float32(1 / math.sqrt(fan_in))
    return out


def cross_entropy(logits: np.ndarray, labels: np.ndarray) -> float:
    logits = logits.astype(np.float64)
    shifted = logits - logits.max(axis=1, keepdims=True)
    log_probs = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    return float(-log_probs[np.arange(len(labels)), labels].mean())


# -- the judges ----------------------------------------------------------------------------------------
def state_of(arrays: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The observed ``state.*`` arrays as a state_dict, wrappers' prefixes removed."""
    out = {}
    for name, array in arrays.items():
        if name.startswith(STATE_PREFIX):
            key = name[len(STATE_PREFIX):]
            for prefix in STRIPPED:
                key = key.removeprefix(prefix)
            out[key] = array
    return out


def trained_accuracy(arrays: dict[str, np.ndarray], seed: int, root: Path | None = None) -> Verdict:
    state = state_of(arrays)
    shapes = _cnn_shapes(state)
    if not _fits(state, shapes):
        return Verdict(Outcome.UNJUDGED, detail=f"not the course's CNN architecture ({_misfit(state, shapes)})")
    images, labels = mnist(train=False, root=root)
    logits = cnn_logits(state, images)
    if not np.all(np.isfinite(logits)):
        return Verdict(Outcome.FAILED, msg("grader.model.not_finite"), "scores not finite")
    got = float((logits.argmax(axis=1) == labels).mean())
    if got >= ACCURACY_FLOOR:
        return Verdict(Outcome.PASSED, detail=f"accuracy {got:.4f}")
    return Verdict(Outcome.FAILED, msg("grader.model.accuracy", got=f"{got:.1%}", want=f"{ACCURACY_FLOOR:.0%}",
                                       total=len(labels)), f"accuracy {got:.4f}")


def optimizer_learns(arrays: dict[str, np.ndarray], seed: int, root: Path | None = None) -> Verdict:
    state = state_of(arrays)
    if not _fits(state, TINY_SHAPES):
        return Verdict(Outcome.FAILED, msg("grader.model.weights_missing"), f"observed: {sorted(state)[:6]}")
    images, labels = mnist(train=True, root=root)
    images, labels = images[:LEARN_SAMPLES], labels[:LEARN_SAMPLES]
    first = cross_entropy(tiny_logits(tiny_start(seed), images), labels)
    last = cross_entropy(tiny_logits(state, images), labels)
    detail = f"loss {first:.4f} -> {last:.4f}"
    if math.isfinite(last) and last < LOSS_FACTOR * first:
        return Verdict(Outcome.PASSED, detail=detail)
    return Verdict(Outcome.FAILED, msg("grader.model.no_progress", first=f"{first:.3f}", last=f"{last:.3f}"), detail)


# grade id -> the judge of its observed weights, with the cell's seed (its first fresh generator's).
JUDGES = {"cnn_trained_accuracy": trained_accuracy, "cnn_make_optimizer_learns": optimizer_learns}
# grade id -> why the grader cannot judge the cell in its own process at all: its points keep the
# kernel's verdict, and every notebook graded with it is flagged for review (tests/test_observed_everywhere.py
# and the README's "Honest" section list them). None is left.
KERNEL_ONLY: dict[str, str] = {}
