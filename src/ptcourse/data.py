"""The course's datasets: the bundled MNIST sample, found without any download."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["data_dir", "mnist", "mnist_root"]


def data_dir() -> Path:
    """The repository's ``data/`` folder (``PTCOURSE_DATA`` overrides it)."""
    override = os.environ.get("PTCOURSE_DATA")
    if override:
        return Path(override).expanduser()
    return Path(__file__).resolve().parents[2] / "data"


def mnist_root() -> Path:
    """Where MNIST is read from: ``PTCOURSE_MNIST_ROOT`` (full MNIST) or the bundled sample."""
    override = os.environ.get("PTCOURSE_MNIST_ROOT")
    return Path(override).expanduser() if override else data_dir()


def mnist(train: bool = True, transform=None, target_transform=None):
    """``torchvision.datasets.MNIST`` on the bundled sample (4,000 train / 1,000 test digits).

    With ``PTCOURSE_MNIST_ROOT`` set, the full dataset is used and downloaded there once.
    """
    from torchvision.datasets import MNIST

    full = "PTCOURSE_MNIST_ROOT" in os.environ
    return MNIST(
        root=str(mnist_root()),
        train=train,
        transform=transform,
        target_transform=target_transform,
        download=full,
    )
