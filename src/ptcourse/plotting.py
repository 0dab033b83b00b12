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


def plot_scale_history(scales: Sequence[float], skipped: Sequence[bool],
                       title: str = "GradScaler's scale over the steps", xlabel: str = "step",
                       ylabel: str = "scale (log₂ axis)", skipped_label: str = "skipped step",
                       stepped_label: str = "step taken"):
    """The scale a ``GradScaler`` used at each step (log₂ axis), skipped steps marked; returns the axes.

    ``scales[i]`` is ``scaler.get_scale()`` read before step ``i + 1``'s ``scaler.step``;
    ``skipped[i]`` says whether that step was skipped (its gradients held inf or NaN).
    """
    import matplotlib.pyplot as plt

    if len(scales) != len(skipped):
        raise ValueError(f"{len(scales)} scales but {len(skipped)} skipped flags")
    steps = list(range(1, len(scales) + 1))
    fig, ax = plt.subplots(figsize=(6, 3))
    ax.step(steps, list(scales), where="post", color="tab:blue", linewidth=1.2)
    ok = [(s, v) for s, v, bad in zip(steps, scales, skipped, strict=True) if not bad]
    bad = [(s, v) for s, v, b in zip(steps, scales, skipped, strict=True) if b]
    if ok:
        ax.plot(*zip(*ok, strict=True), "o", color="tab:blue", markersize=3, label=stepped_label)
    if bad:
        ax.plot(*zip(*bad, strict=True), "x", color="tab:red", markersize=8, markeredgewidth=2,
                label=skipped_label)
    ax.set_yscale("log", base=2)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    return ax


def plot_memory_vs_batch(batch_sizes: Sequence[int], activation_bytes: Sequence[float],
                         fixed_bytes: float = 0, budget_bytes: float | None = None,
                         title: str = "Training memory against batch size", xlabel: str = "batch size",
                         ylabel: str = "memory (MiB)", activations_label: str = "activations",
                         total_label: str = "fixed + activations", fixed_label: str = "fixed (weights, grads, optimizer)",
                         budget_label: str = "budget"):
    """Activation memory (and, with ``fixed_bytes``, the total) against batch size, in MiB; returns the axes.

    ``fixed_bytes`` (weights, gradients, optimizer state) does not grow with the batch and is
    drawn as a dashed line; ``budget_bytes``, if given, as a red line: the batch sizes whose
    total lies under it fit.
    """
    import matplotlib.pyplot as plt

    if len(batch_sizes) != len(activation_bytes):
        raise ValueError(f"{len(batch_sizes)} batch sizes but {len(activation_bytes)} measurements")
    mib = 2.0**20
    sizes = list(batch_sizes)
    acts = [b / mib for b in activation_bytes]
    fig, ax = plt.subplots(figsize=(6, 3.2))
    ax.plot(sizes, acts, "o-", color="tab:orange", label=activations_label)
    if fixed_bytes:
        ax.axhline(fixed_bytes / mib, color="tab:gray", linestyle="--", label=fixed_label)
        ax.plot(sizes, [a + fixed_bytes / mib for a in acts], "s-", color="tab:blue", label=total_label)
    if budget_bytes is not None:
        ax.axhline(budget_bytes / mib, color="tab:red", linewidth=1.5, label=budget_label)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.set_ylim(bottom=0)
    ax.legend(fontsize=8)
    fig.tight_layout()
    return ax


__all__ += ["plot_memory_vs_batch", "plot_scale_history"]
