"""ptcourse.peak: peak live bytes on the CPU, through backward and checkpoint recomputation."""

import torch
from torch import nn
from torch.utils.checkpoint import checkpoint

from ptcourse.peak import peak_bytes


def stack(seed=0):
    torch.manual_seed(seed)
    return nn.Sequential(*[nn.Sequential(nn.Linear(16, 64), nn.GELU(), nn.Linear(64, 16)) for _ in range(6)])


def test_counts_a_single_allocation_once():
    assert peak_bytes(lambda: torch.zeros(1000).view(10, 100)) == 4000


def test_freed_tensors_do_not_add_up():
    def make_and_drop():
        for _ in range(5):
            torch.ones(1000)
    assert peak_bytes(make_and_drop) == 4000


def test_checkpointing_each_block_lowers_the_backward_peak_but_the_whole_stack_does_not():
    model, x = stack(), torch.randn(256, 16)

    def per_block():
        h = x
        for block in model:
            h = checkpoint(block, h, use_reentrant=False)
        h.pow(2).sum().backward()

    plain = peak_bytes(lambda: model(x).pow(2).sum().backward())
    each = peak_bytes(per_block)
    whole = peak_bytes(lambda: checkpoint(model, x, use_reentrant=False).pow(2).sum().backward())
    assert each * 2 < plain
    assert whole * 10 > plain * 9
