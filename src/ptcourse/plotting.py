"""Small plotting helpers (matplotlib), so notebooks don't repeat figure boilerplate."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

__all__ = ["plot_curves", "show_images"]


def plot_curves(curves: Mapping[str, Sequence[float]], xlabel: str = "epoch", ylabel: str = "loss",
                logy: bool = False, title: str | None = None):
    """One line per named series, e.g. ``plot_curves({"train": losses})``; returns the axes."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5, 3))
    for label, values in curves.items():
        ax.plot(range(1, len(values) + 1), list(values), label=label)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if logy:
        ax.set_yscale("log")
    if title:
        ax.set_title(title)
    if len(curves) > 1:
        ax.legend()
    fig.tight_layout()
    return ax


def show_images(images, titles: Sequence[str] | None = None, ncols: int = 8):
    """A grid of grey-scale images (a tensor ``(N, 1, H, W)`` or ``(N, H, W)``); returns the figure."""
    import matplotlib.pyplot as plt

    images = images.detach().cpu()
    if images.dim() == 4:
        images = images[:, 0]
    n = len(images)
    nrows = max(1, -(-n // ncols))
    fig, axes = plt.subplots(nrows, ncols, figsize=(ncols * 1.2, nrows * 1.4), squeeze=False)
    for i, ax in enumerate(axes.flat):
        ax.axis("off")
        if i < n:
            ax.imshow(images[i].numpy(), cmap="gray")
            if titles is not None:
                ax.set_title(titles[i], fontsize=8)
    fig.tight_layout()
    return fig
