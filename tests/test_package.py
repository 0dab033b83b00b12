"""Unit tests of the ptcourse package: checks, messages, set-up, data."""

from __future__ import annotations

import os
from unittest import mock

import pytest
import torch

import ptcourse
from ptcourse import checks, data, env, messages


def failure(fn, *args, **kwargs) -> str:
    with pytest.raises(checks.CheckFailed) as info:
        fn(*args, **kwargs)
    return str(info.value)


def test_shape_message_shows_expected_and_got():
    text = failure(checks.check_shape, torch.zeros(64, 1600), (64, 10), "logits")
    assert text == "`logits` should have shape (64, 10), got (64, 1600)."


def test_close_names_the_worst_element():
    text = failure(checks.check_close, torch.tensor([7.0, 8.0]), [7.0, 9.0], "x.grad")
    assert "index (1,)" in text and "expected 9" in text and "got 8" in text


def test_close_accepts_within_tolerance_and_checks_shape():
    checks.check_close(torch.tensor([1.0, 2.0]) + 1e-8, [1.0, 2.0], "x")
    assert "shape" in failure(checks.check_close, torch.zeros(3), [0.0, 0.0], "x")


def test_close_rejects_nan():
    assert "wrong values" in failure(checks.check_close, torch.tensor([float("nan")]), [1.0], "x")


def test_is_close_compares_any_answer_as_numbers_and_never_raises():
    """A test looking for a known mistake before its plain check: a learner's float64, integer, boolean or complex
    answer is compared (or found not close), never a PyTorch "Double did not match Float" error."""
    want = torch.tensor([1.0, 2.0])
    assert checks.is_close(torch.tensor([1.0, 2.0], dtype=torch.float64), want)
    assert checks.is_close(torch.tensor([1, 2]), want) and not checks.is_close(torch.tensor([True, False]), want)
    assert not checks.is_close(torch.tensor([1 + 0j, 2 + 0j]), want)
    assert not checks.is_close(torch.zeros(3), want) and not checks.is_close(None, want)
    assert checks.is_close(torch.tensor([1.0, 2.0], requires_grad=True), want)


def test_not_a_tensor_and_none():
    assert "should be a torch.Tensor, got list" in failure(checks.check_shape, [1, 2], (2,), "x")
    assert "is None" in failure(checks.check_tensor, None, "x")


def test_dtype_device_requires_grad_type():
    assert "dtype torch.float32, got torch.int64" in failure(
        checks.check_dtype, torch.tensor([1]), torch.float32, "x")
    checks.check_device(torch.zeros(1), "cpu", "x")
    assert "device 'meta'" in failure(checks.check_device, torch.zeros(1), "meta", "x")
    assert "requires_grad should be True" in failure(checks.check_requires_grad, torch.zeros(1), True, "w")
    assert "should be dict, got list" in failure(checks.check_type, [], dict, "r")
    assert "int or float" in failure(checks.check_type, "a", (int, float), "r")


def test_check_failed_is_an_assertion_error():
    assert issubclass(checks.CheckFailed, AssertionError)


def test_message_ids_are_unique_and_format():
    table = messages.catalogue("en")
    assert "check.shape" in table
    assert messages.msg("check.equal", name="n", expected=1, got=2) == "`n` should be 1, got 2."


def test_unknown_language_falls_back_to_english():
    with mock.patch.dict(os.environ, {"PTCOURSE_LANG": "xx"}):
        assert messages.msg("check.passed", what="ok") == "✔ ok"


def test_unknown_message_id():
    with pytest.raises(KeyError):
        messages.msg("no.such.id")


def test_setup_seeds_threads_and_device(capsys):
    with mock.patch.dict(os.environ, {"PTCOURSE_THREADS": "1"}):
        device = ptcourse.setup(seed=3)
    assert torch.get_num_threads() == 1
    first = torch.rand(2)
    ptcourse.setup(seed=3, threads=1, quiet=True)
    assert torch.equal(first, torch.rand(2))
    assert isinstance(device, torch.device)
    assert "threads: 1" in capsys.readouterr().out


def test_setup_device_order():
    """CUDA, then MPS, then the CPU, by counting devices (not through ``is_available``: patching that,
    as day 1's pick_device checks do, leaves setup's choice alone, so setup is no answer to them)."""
    with mock.patch.dict(os.environ, {}, clear=False):
        os.environ.pop("PTCOURSE_DEVICE", None)
        with mock.patch("torch.cuda.device_count", return_value=1):
            assert env._device_here().type == "cuda"
        with mock.patch("torch.cuda.device_count", return_value=0), \
             mock.patch("torch.backends.mps.is_built", return_value=True), \
             mock.patch("torch.mps.device_count", return_value=1):
            assert env._device_here().type == "mps"
        with mock.patch("torch.cuda.device_count", return_value=0), \
             mock.patch("torch.mps.device_count", return_value=0):
            assert env._device_here().type == "cpu"
        here = env._device_here()
        with mock.patch("torch.cuda.is_available", return_value=not torch.cuda.is_available()), \
             mock.patch("torch.backends.mps.is_available", return_value=True):
            assert env._device_here() == here


def test_setup_seeds_python_and_numpy_once_torch_every_time():
    """The set-up cell seeds all three generators; later calls only PyTorch's (day 2's set_seed is the
    learner's to write: setup must not pass its checks)."""
    import random

    import numpy as np

    ptcourse.setup(seed=11, threads=1, quiet=True)  # the process's first call happened already, or is this one
    draws = []
    for _ in range(2):
        ptcourse.setup(seed=11, threads=1, quiet=True)
        draws.append((random.random(), float(np.random.rand()), float(torch.rand(1))))
    assert draws[0][2] == draws[1][2]
    assert draws[0][0] != draws[1][0] and draws[0][1] != draws[1][1]


def test_available_cpus_respects_cgroup_quota(tmp_path):
    real_open = open

    def fake_open(path, *a, **k):
        if path == "/sys/fs/cgroup/cpu.max":
            return real_open(tmp_path / "cpu.max", *a, **k)
        return real_open(path, *a, **k)

    (tmp_path / "cpu.max").write_text("100000 100000\n")
    with mock.patch("builtins.open", fake_open):
        assert env.available_cpus() == 1


def test_bundled_mnist_reads_offline():
    train, test = data.mnist(train=True), data.mnist(train=False)
    assert (len(train), len(test)) == (4000, 1000)
    image, label = train[0]
    assert image.size == (28, 28) and 0 <= label <= 9
    counts = torch.bincount(test.targets, minlength=10)
    assert counts.tolist() == [100] * 10


def test_missing_or_unfetchable_mnist_is_said_plainly(tmp_path, monkeypatch):
    """The sample folder gone, or the full set unreachable offline: a sentence of the catalogue that names the
    folder, never torchvision's "Dataset not found. You can use download=True"."""
    monkeypatch.setattr(data, "data_dir", lambda: tmp_path)
    with pytest.raises(FileNotFoundError) as info:
        data.mnist(train=True)
    assert str(info.value) == messages.msg("data.mnist_missing", folder=str(tmp_path / "MNIST" / "raw"))
    assert "download=True" not in str(info.value)
    monkeypatch.setenv("PTCOURSE_MNIST_ROOT", str(tmp_path / "full"))
    with mock.patch("torchvision.datasets.MNIST", side_effect=RuntimeError("Error downloading: refused")):
        with pytest.raises(FileNotFoundError) as info:
            data.mnist(train=True)
    assert "Unset PTCOURSE_MNIST_ROOT" in str(info.value) and "refused" in str(info.value)


# --- Day 1 figures (ptcourse.plotting), drawn with the Agg backend --------------------------------

def _agg():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _texts(fig) -> list[str]:
    return [t.get_text() for ax in fig.axes for t in ax.texts if t.get_text()]


def test_plot_broadcast_labels_shapes_and_result():
    plt = _agg()
    from ptcourse.plotting import plot_broadcast

    fig = plot_broadcast((3,), (3, 1), names=("targets", "predictions"))
    ax = fig.axes[0]
    assert ax.get_title() == "Broadcasting (3,) with (3, 1) gives (3, 3)"
    assert "right" in ax.get_xlabel()
    assert [t.get_text() for t in ax.get_yticklabels()] == ["targets (3,)", "predictions (3, 1)", "result"]
    assert "(1)→3" in _texts(fig) and "1→3" in _texts(fig)
    plt.close(fig)
    fig = plot_broadcast((2, 3), (2,))
    assert fig.axes[0].get_title().endswith("cannot broadcast") and "✗" in _texts(fig)
    plt.close(fig)


def test_plot_storage_tells_views_from_copies():
    plt = _agg()
    from ptcourse.plotting import _storage_positions, plot_storage

    x = torch.arange(6.0).reshape(2, 3)
    assert _storage_positions(x.t(), x) == [0, 3, 1, 4, 2, 5]
    assert _storage_positions(x[1], x) == [3, 4, 5]
    assert _storage_positions(x.t().reshape(6), x) is None
    fig = plot_storage(x, {"x.t()": x.t(), "copy": x.t().reshape(6)})
    ax = fig.axes[0]
    assert ax.get_title() and "storage" in ax.get_xlabel()
    assert [t.get_text() for t in ax.get_yticklabels()] == ["x", "x.t()", "copy"]
    notes = " ".join(_texts(fig))
    assert "stride (1, 3)" in notes and "a view" in notes and "a copy" in notes
    plt.close(fig)


def test_grad_graph_walks_next_functions():
    plt = _agg()
    from ptcourse.plotting import grad_graph, plot_grad_graph

    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0, 4.0], requires_grad=True)
    z = (a * b + a.exp()).sum()
    nodes, edges = grad_graph(z, {"a": a, "b": b})
    labels = sorted(label for label, _ in nodes.values())
    assert labels == ["AddBackward0", "ExpBackward0", "MulBackward0", "SumBackward0",
                      "a\nAccumulateGrad", "b\nAccumulateGrad"]
    depth = {label: d for label, d in nodes.values()}
    assert depth["SumBackward0"] == 0 and depth["a\nAccumulateGrad"] == 3
    into_a = [e for e in edges if nodes[e[1]][0] == "a\nAccumulateGrad"]
    assert len(into_a) == 2 and len(edges) == 6
    fig = plot_grad_graph(z, {"a": a, "b": b})
    assert fig.axes[0].get_title() and set(_texts(fig)) == set(labels)
    plt.close(fig)
