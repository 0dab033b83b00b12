"""ptcourse.peak: peak live bytes on the CPU, through backward and checkpoint recomputation."""

import pytest
import torch
from torch import nn
from torch.utils.checkpoint import checkpoint

from ptcourse.peak import peak_bytes, pretend_gpu


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


# -- the pretend small GPU (pretend_gpu) -------------------------------------------------------

def conv_net():
    torch.manual_seed(0)
    return nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())


def test_pretend_gpu_raises_cudas_out_of_memory_error_past_its_capacity():
    with pytest.raises(torch.OutOfMemoryError, match=r"CUDA out of memory\. Tried to allocate 0\.04 MiB"):
        with pretend_gpu(capacity=100_000):
            [torch.ones(10_000) for _ in range(3)]  # 40 kB each, all alive: the third does not fit
    with pretend_gpu(capacity=100_000) as gpu:
        for _ in range(10):
            torch.ones(10_000)                          # freed at once: never more than one alive
    assert gpu.peak == 40_000


def test_pretend_gpu_does_not_count_what_existed_before():
    before = [torch.ones(100_000) for _ in range(3)]
    with pretend_gpu(capacity=50_000):
        torch.ones(10_000)
    assert len(before) == 3


def test_a_convolution_without_room_for_its_workspace_is_a_cudnn_error_and_without_cudnn_out_of_memory():
    net, images = conv_net(), torch.randn(64, 3, 16, 16)     # the convolution's output: 1 MiB
    with pytest.raises(RuntimeError, match="CUDNN_STATUS_INTERNAL_ERROR") as caught, torch.no_grad():
        with pretend_gpu(capacity=1_500_000):
            net(images)
    assert not isinstance(caught.value, torch.OutOfMemoryError)
    with pytest.raises(torch.OutOfMemoryError), torch.no_grad(), torch.backends.cudnn.flags(enabled=False):
        with pretend_gpu(capacity=1_500_000):
            net(images)
    with torch.no_grad(), pretend_gpu(capacity=1_500_000):
        parts = torch.cat([net(part) for part in images.split(16)])
    with torch.no_grad():
        assert torch.allclose(parts, net(images), atol=1e-6)


def test_pretend_gpu_messages_are_in_the_learners_language(monkeypatch):
    monkeypatch.setenv("PTCOURSE_LANG", "zh-CN")
    with pytest.raises(torch.OutOfMemoryError, match="显存不足"):
        with pretend_gpu(capacity=1_000):
            torch.ones(1_000)
