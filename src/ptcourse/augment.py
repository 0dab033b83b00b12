"""Light data augmentation done on ready-made tensors, a whole batch at a time.

Random transforms of ``torchvision.transforms.v2`` draw one set of parameters per call, so on a
batch tensor every image moves the same way. :func:`random_shift` draws a shift per image and
applies all of them with one indexing operation: cheap enough to run inside the training loop
on images that were decoded once (Day 2 · 03).
"""

from __future__ import annotations

import torch
import torch.nn.functional as F

__all__ = ["random_shift"]


def random_shift(images: torch.Tensor, pixels: int = 2, generator: torch.Generator | None = None) -> torch.Tensor:
    """Each image of a ``(N, C, H, W)`` batch moved by its own random offset of up to ``pixels``.

    Offsets are whole pixels, drawn independently for rows and columns in ``-pixels..pixels``;
    the border is filled by repeating the edge pixels (background, for digits). Shape, dtype and
    device are kept; ``pixels=0`` returns the batch unchanged.
    """
    if pixels <= 0:
        return images
    n, c, h, w = images.shape
    padded = F.pad(images, (pixels, pixels, pixels, pixels), mode="replicate")
    width = w + 2 * pixels
    offsets = torch.randint(0, 2 * pixels + 1, (2, n), generator=generator).to(images.device)
    rows = offsets[0, :, None] + torch.arange(h, device=images.device)  # (N, H) rows of the padded image
    cols = offsets[1, :, None] + torch.arange(w, device=images.device)  # (N, W)
    flat = (rows[:, :, None] * width + cols[:, None, :]).reshape(n, 1, h * w).expand(n, c, h * w)
    return padded.reshape(n, c, -1).gather(2, flat).reshape(n, c, h, w)
