"""ptcourse.augment.random_shift: per-image whole-pixel shifts of a batch."""

import torch

from ptcourse.augment import random_shift


def test_each_image_is_a_shift_of_itself_within_the_limit():
    torch.manual_seed(0)
    images = torch.rand(64, 2, 9, 11)
    moved = random_shift(images, pixels=2)
    assert moved.shape == images.shape and moved.dtype == images.dtype
    padded = torch.nn.functional.pad(images, (2, 2, 2, 2), mode="replicate")
    offsets = set()
    for i in range(len(images)):
        found = [(dy, dx) for dy in range(5) for dx in range(5)
                 if torch.equal(padded[i, :, dy:dy + 9, dx:dx + 11], moved[i])]
        assert found, f"image {i} is not a shift of up to 2 pixels of itself"
        offsets.add(found[0])
    assert len(offsets) > 5, "the shifts should differ from image to image"


def test_zero_pixels_and_generator():
    images = torch.rand(4, 1, 5, 5)
    assert random_shift(images, pixels=0) is images
    one = random_shift(images, 1, generator=torch.Generator().manual_seed(3))
    two = random_shift(images, 1, generator=torch.Generator().manual_seed(3))
    assert torch.equal(one, two)
