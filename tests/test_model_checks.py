"""The model-level checks the grader judges in its own process (grader/judge/model_checks.py, issue 32 item 2).

``cnn_trained_accuracy`` and ``cnn_make_optimizer_learns`` used to rest on the learner's kernel alone.
Their test cells now observe weights; the grader evaluates the course's architecture on the course's
digits itself. Here, without a kernel: the NumPy architecture gives PyTorch's scores, the starting
weights are the cell's, each outcome (passed, failed with a catalogue message, not judgeable and
flagged) is reached, and the verdict travels to the notebook's findings.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from torch import nn

from grader.judge import model_checks
from grader.judge.observations import Observer, ObserveSpec, cell_seed
from grader.records import Integrity
from grader.run import engine, jobs
from ptcourse.messages import msg
from ptcourse.observe import encode


class SimpleCNN(nn.Module):  # the course's recipe (day2/03's solution)
    def __init__(self, c1=32, c2=64, hidden=128):
        super().__init__()
        self.conv1, self.conv2, self.pool = nn.Conv2d(1, c1, 3), nn.Conv2d(c1, c2, 3), nn.MaxPool2d(2)
        self.fc1, self.fc2 = nn.Linear(c2 * 25, hidden), nn.Linear(hidden, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        return self.fc2(F.relu(self.fc1(torch.flatten(x, 1))))


class NormCNN(SimpleCNN):  # the notebook's trained model
    def __init__(self, c1=12, c2=24, hidden=64):
        super().__init__(c1, c2, hidden)
        self.bn1, self.bn2 = nn.BatchNorm2d(c1), nn.BatchNorm2d(c2)

    def forward(self, x):
        x = self.pool(F.relu(self.bn1(self.conv1(x))))
        x = self.pool(F.relu(self.bn2(self.conv2(x))))
        return self.fc2(F.relu(self.fc1(torch.flatten(x, 1))))


def tiny():
    return nn.Sequential(nn.Conv2d(1, 4, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(), nn.Linear(4 * 13 * 13, 10))


def arrays(model: nn.Module, prefix: str = "") -> dict[str, np.ndarray]:
    return {f"state.{prefix}{k}": v.detach().numpy().copy() for k, v in model.state_dict().items()}


def payloads(model: nn.Module) -> dict[str, dict]:
    return {f"state.{k}": encode(v) for k, v in model.state_dict().items()}


def fake_mnist(root, labels: np.ndarray, train: bool) -> None:
    """An MNIST folder of blank digits with ``labels``, in the idx format."""
    raw = root / "MNIST" / "raw"
    raw.mkdir(parents=True, exist_ok=True)
    prefix = "train" if train else "t10k"
    n = len(labels)
    (raw / f"{prefix}-images-idx3-ubyte").write_bytes(bytes([0, 0, 8, 3]) + b"".join(
        d.to_bytes(4, "big") for d in (n, 28, 28)) + bytes(n * 28 * 28))
    (raw / f"{prefix}-labels-idx1-ubyte").write_bytes(bytes([0, 0, 8, 1]) + n.to_bytes(4, "big")
                                                      + labels.astype(np.uint8).tobytes())


@pytest.mark.parametrize("make", [SimpleCNN, NormCNN])
def test_numpy_architecture_gives_pytorchs_scores(make):
    torch.manual_seed(0)
    model = make().eval()
    for bn in (getattr(model, "bn1", None), getattr(model, "bn2", None)):
        if bn is not None:
            bn.running_mean.uniform_(-1, 1)
            bn.running_var.uniform_(0.5, 2)
            bn.weight.data.uniform_(0.5, 2)
    images = torch.randn(7, 1, 28, 28)
    with torch.no_grad():
        want = model(images).numpy()
    got = model_checks.cnn_logits(model_checks.state_of(arrays(model, "_orig_mod.")), images.numpy())
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


def test_tiny_start_is_the_cells_draw():
    """The cell's own code (solutions/day2/03, cnn_make_optimizer_learns) draws what the grader draws."""
    seed = cell_seed("secret", "cnn_make_optimizer_learns")
    draw = np.random.default_rng(torch.Generator().manual_seed(seed).initial_seed())
    little = tiny()
    with torch.no_grad():
        for name, param in little.named_parameters():
            bound = 1 / math.sqrt(9 if name.startswith("0.") else 4 * 13 * 13)
            param.copy_(torch.from_numpy(draw.uniform(-1, 1, tuple(param.shape)).astype(np.float32) * np.float32(bound)))
    start = model_checks.tiny_start(seed)
    assert all(np.array_equal(start[k], v.numpy()) for k, v in little.state_dict().items())


def test_trained_accuracy_outcomes(tmp_path):
    fake_mnist(tmp_path, np.zeros(20, dtype=np.int64), train=False)
    model = NormCNN()
    with torch.no_grad():
        model.fc2.bias.copy_(torch.tensor([50.0] + [0.0] * 9))  # class 0, whatever the image
    passed = model_checks.trained_accuracy(arrays(model), 0, root=tmp_path)
    assert passed.outcome == model_checks.Outcome.PASSED, passed
    with torch.no_grad():
        model.fc2.bias.copy_(torch.tensor([0.0] * 9 + [50.0]))
    failed = model_checks.trained_accuracy(arrays(model), 0, root=tmp_path)
    assert failed.outcome == model_checks.Outcome.FAILED
    assert failed.message == msg("grader.model.accuracy", got="0.0%", want="97%", total=20)
    other = model_checks.trained_accuracy(arrays(nn.Sequential(nn.Flatten(), nn.Linear(784, 10))), 0, root=tmp_path)
    assert other.outcome == model_checks.Outcome.UNJUDGED and "architecture" in other.detail
    model.unused = nn.BatchNorm1d(3)  # an extra layer: named for the instructor
    extra = model_checks.trained_accuracy(arrays(model), 0, root=tmp_path)
    assert extra.outcome == model_checks.Outcome.UNJUDGED and "unexpected: unused." in extra.detail, extra.detail
    del model.unused
    wrong_shape = arrays(model)
    wrong_shape["state.fc1.weight"] = np.zeros((64, 7), dtype=np.float32)  # checked before any arithmetic
    assert model_checks.trained_accuracy(wrong_shape, 0, root=tmp_path).outcome == model_checks.Outcome.UNJUDGED


def test_optimizer_learns_outcomes():
    seed = 12345
    little = tiny()
    start = model_checks.tiny_start(seed)
    little.load_state_dict({k: torch.from_numpy(v) for k, v in start.items()})
    still = model_checks.optimizer_learns(arrays(little), seed)
    assert still.outcome == model_checks.Outcome.FAILED and still.message.startswith(msg(
        "grader.model.no_progress", first="", last="")[:40])
    images, labels = model_checks.mnist(train=True)
    x, y = torch.from_numpy(images[:320]), torch.from_numpy(labels[:320])
    optimizer = torch.optim.AdamW(little.parameters(), lr=1e-2)
    for step in range(30):
        rows = slice((step % 10) * 32, (step % 10) * 32 + 32)
        optimizer.zero_grad()
        F.cross_entropy(little(x[rows]), y[rows]).backward()
        optimizer.step()
    learned = model_checks.optimizer_learns(arrays(little), seed)
    assert learned.outcome == model_checks.Outcome.PASSED, learned
    assert model_checks.optimizer_learns({}, seed).outcome == model_checks.Outcome.FAILED


def _observer(grade_id: str, observed: dict[str, dict]) -> Observer:
    observer = Observer(ObserveSpec("secret", {grade_id: {"state.x": {"kind": "other", "type": "x"}}}))
    observer.observed[grade_id] = observed
    return observer


def test_observer_judges_model_cells_itself_and_flags_what_it_cannot():
    """Through the Observer, as a grading job calls it: the kernel's observations of a model that does not
    learn fail the cell; none at all fail it; a model of another architecture is flagged, points kept."""
    gid = "cnn_make_optimizer_learns"
    little = tiny()
    little.load_state_dict({k: torch.from_numpy(v) for k, v in model_checks.tiny_start(cell_seed("secret", gid)).items()})
    observer = _observer(gid, payloads(little))
    verdict = observer.judge(gid)
    assert verdict is not None and "loss" in verdict.detail
    observer = _observer(gid, {})
    assert observer.judge(gid).message == msg("grader.model.weights_missing")
    other = _observer("cnn_trained_accuracy", payloads(nn.Sequential(nn.Flatten(), nn.Linear(784, 10))))
    assert other.judge("cnn_trained_accuracy") is None
    summary = other.summary()
    assert [u["grade_id"] for u in summary["unjudged"]] == ["cnn_trained_accuracy"] and not summary["disagreed"]


def test_kernel_only_cells_are_always_flagged(monkeypatch):
    monkeypatch.setitem(model_checks.KERNEL_ONLY, "some_cell", "why it cannot be judged here")
    observer = _observer("some_cell", {})
    assert observer.judge("some_cell") is None
    assert observer.summary()["unjudged"] == [{"grade_id": "some_cell", "detail": "why it cannot be judged here"}]


def test_unjudged_cells_reach_the_findings(tmp_path):
    """From the job's file to the notebook's findings, on the pages and in the report."""
    path = tmp_path / "observed.json"
    path.write_text('{"disagreed": [], "unjudged": [{"grade_id": "cnn_trained_accuracy", "detail": "keys"}]}')
    _, integrity = jobs._read_observed(path, None)
    assert integrity.unjudged[0].grade_id == "cnn_trained_accuracy"
    assert Integrity.from_json(integrity.to_json()) == integrity
    notes, findings = [], []
    engine.integrity_notes(integrity, notes, findings, graded=True)
    assert any(f == msg("grader.finding.kernel_only", checks="cnn_trained_accuracy (keys)") for f in findings), findings
