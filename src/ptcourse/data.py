"""The course's datasets: the bundled MNIST sample, found without any download."""

from __future__ import annotations

from pathlib import Path

from ptcourse import settings

__all__ = ["data_dir", "mnist", "mnist_root"]


def data_dir() -> Path:
    """The repository's ``data/`` folder (``PTCOURSE_DATA`` overrides it)."""
    override = settings.read().data
    if override is not None:
        return override
    return Path(__file__).resolve().parents[2] / "data"


def mnist_root() -> Path:
    """Where MNIST is read from: ``PTCOURSE_MNIST_ROOT`` (full MNIST) or the bundled sample."""
    override = settings.read().mnist_root
    return override if override is not None else data_dir()


def mnist(train: bool = True, transform=None, target_transform=None):
    """``torchvision.datasets.MNIST`` on the bundled sample (4,000 train / 1,000 test digits).

    With ``PTCOURSE_MNIST_ROOT`` set, the full dataset is used and downloaded there once.
    """
    from torchvision.datasets import MNIST

    full = settings.read().mnist_root is not None
    return MNIST(
        root=str(mnist_root()),
        train=train,
        transform=transform,
        target_transform=target_transform,
        download=full,
    )
