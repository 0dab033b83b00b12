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


def plot_latency(latencies: Mapping[str, Mapping[int, float]], title: str = "Inference latency against batch size",
                 xlabel: str = "batch size (log scale)", ylabel: str = "median time per call, ms (log scale)",
                 guide_label: str = "proportional to the batch"):
    """Latency against batch size, one line per engine, both axes logarithmic; returns the axes.

    ``latencies`` maps an engine's name to ``{batch size: median milliseconds per call}``, e.g.
    ``plot_latency({"eager": {1: 0.05, 64: 0.4}, "ONNX Runtime": {1: 0.01, 64: 0.3}})``. A dotted
    grey line shows what "proportional to the batch size" would look like from the first
    engine's smallest batch, so the benefit of batching is visible at a glance.
    """
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.4))
    sizes_seen: set[int] = set()
    for label, points in latencies.items():
        if not points:
            raise ValueError(f"no measurements for {label!r}")
        sizes = sorted(points)
        sizes_seen.update(sizes)
        ax.plot(sizes, [points[s] for s in sizes], "o-", label=label)
    first = next(iter(latencies.values()))
    smallest = min(first)
    ticks = sorted(sizes_seen)
    ax.plot(ticks, [first[smallest] * size / smallest for size in ticks], ":", color="tab:gray",
            label=guide_label)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xticks(ticks, [str(t) for t in ticks])
    ax.minorticks_off()
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize=8)
    fig.tight_layout()
    return ax


__all__ += ["plot_latency"]


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
