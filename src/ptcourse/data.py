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

    from ptcourse.messages import msg

    full = settings.read().mnist_root is not None
    root = mnist_root()
    if not full and not (root / "MNIST" / "raw").is_dir():  # the bundled sample is missing: say where it belongs
        raise FileNotFoundError(msg("data.mnist_missing", folder=str(root / "MNIST" / "raw")))
    try:
        return MNIST(root=str(root), train=train, transform=transform, target_transform=target_transform,
                     download=full)
    except (RuntimeError, OSError) as err:  # the full set could not be fetched (offline?) or read
        raise FileNotFoundError(msg("data.mnist_unavailable", folder=str(root), error=str(err)[:200])) from None
