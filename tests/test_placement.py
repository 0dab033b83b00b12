"""The CPU-only device-placement harness (ptcourse.placement) catches each placement mistake."""

import pytest
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

from ptcourse.checks import CheckFailed
from ptcourse.placement import Where, watch

DATA = TensorDataset(torch.randn(20, 4), torch.randint(0, 3, (20,)))


def train(model, loader, device, move=True, autocast_type=None, enabled=True, dtype=torch.bfloat16, assign=True):
    optimizer = torch.optim.Adam(model.parameters())
    for x, y in loader:
        if move and assign:
            x, y = x.to(device), y.to(device)
        elif move:
            x.to(device)
            y.to(device)
        optimizer.zero_grad()
        with torch.autocast(autocast_type or device.type, dtype=dtype, enabled=enabled):
            loss = nn.functional.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
    return loss.item()


def run(move_model=True, **kwargs):
    with watch() as where:
        model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))
        where.host(model)
        if move_model:
            model.to(where.device)
        train(model, where.host_loader(DataLoader(DATA, batch_size=8)), where.device, **kwargs)
    return where


def message(check):
    with pytest.raises(CheckFailed) as caught:
        check()
    return caught.value.message_id, str(caught.value)


def test_right_answer_passes():
    where = run()
    where.check_moved()
    where.check_autocast(torch.bfloat16)
    assert where.device == torch.device("cuda")


def test_float32_run_with_autocast_off_passes():
    run(enabled=False, dtype=None).check_autocast(None)


def test_batch_not_moved():
    msgid, text = message(run(move=False).check_moved)
    assert msgid == "placement.data_not_moved"
    assert "a batch from the loader (8×4)" in text and "linear()" in text


def test_move_not_assigned_moves_nothing():
    assert message(run(assign=False).check_moved)[0] == "placement.data_not_moved"


def test_model_not_moved():
    msgid, text = message(run(move_model=False).check_moved)
    assert msgid == "placement.model_not_moved"
    assert "the model's 0.weight" in text


def test_autocast_hard_coded_cpu():
    where = run(autocast_type="cpu")
    where.check_moved()
    msgid, text = message(lambda: where.check_autocast(torch.bfloat16))
    assert msgid == "placement.autocast_device" and "'cpu'" in text and "'cuda'" in text


def test_enabled_ignored():
    assert message(lambda: run(enabled=True, dtype=None).check_autocast(None))[0] == "placement.autocast_not_disabled"


def test_autocast_missing_and_wrong_dtype():
    assert message(lambda: run(enabled=False).check_autocast(torch.bfloat16))[0] == "placement.autocast_missing"
    assert message(lambda: run(dtype=torch.float16).check_autocast(torch.bfloat16))[0] == "placement.autocast_dtype"


def test_hard_coded_cpu_autocast_does_not_cast_device_work():
    with watch() as where:
        layer = nn.Linear(4, 2).to(where.device)
        with torch.autocast("cpu", dtype=torch.bfloat16):
            out = layer(torch.randn(3, 4).to(where.device))
    assert out.dtype == torch.float32


def test_device_of_moved_tensor_and_factories():
    with watch() as where:
        x = torch.ones(2).to(where.device)
        made = torch.zeros(2, device=where.device)
        host = torch.ones(2)
        assert x.device == where.device and made.device == where.device and host.device.type == "cpu"
        assert where.tag_of(x + made).where is Where.DEVICE
        back = x.cpu()
        assert where.tag_of(back).where is Where.HOST and where.tag_of(x).where is Where.DEVICE
        x + torch.tensor(2.0)                            # a 0-dim CPU tensor is allowed, as on CUDA
    assert where.mixes == []


def test_neutral_tensors_never_mix():
    with watch() as where:
        moved = torch.ones(3).to(where.device)
        moved + torch.ones(3)                            # an unmarked tensor: neutral
    assert where.mixes == []


def test_autocast_imported_before_the_block_is_seen():
    from torch import autocast

    with watch() as where:
        with autocast("cpu", dtype=torch.bfloat16):
            pass
    assert [call.device_type for call in where.autocasts] == ["cpu"]


def test_module_cuda_and_patches_restored():
    real_to, real_init = nn.Module.to, torch.autocast.__init__
    with watch() as where:
        layer = nn.Linear(2, 2)
        where.host(layer)
        layer.cuda()
        assert layer.weight.device == where.device
    assert nn.Module.to is real_to and torch.autocast.__init__ is real_init


def test_data_assignment_moves_the_parameter():
    with watch() as where:
        layer = nn.Linear(2, 2)
        where.host(layer)
        for param in layer.parameters():
            param.data = param.data.to(where.device)
        layer(torch.ones(1, 2).to(where.device))
        assert layer.weight.device == where.device
    where.check_moved()


def test_loader_wrapper_keeps_the_loader_interface():
    loader = DataLoader(DATA, batch_size=8)
    with watch() as where:
        wrapped = where.host_loader(loader)
    assert len(wrapped) == 3 and wrapped.batch_size == 8
