"""Time-to-accuracy of day2/03's CNN recipe against the commonly copied MNIST recipe.

Both train on the course's MNIST sample (4,000 training digits) and are scored on its 1,000
test digits after every epoch; the clock runs from the first data access until the epoch at
which the test accuracy first reaches ``--target``::

    .venv/bin/python tools/bench_cnn.py                # 2 threads, target 0.95, seed 0
    .venv/bin/python tools/bench_cnn.py --threads 1 --breakdown

Recipes:

* ``common``: ``SimpleCNN(32, 64, 128)`` (conv 1→32 → pool → conv 32→64 → pool →
  ``Linear(64 * 5 * 5, 128)`` → ``Linear(128, 10)``), images decoded by the transforms in every
  epoch (``DataLoader`` over the torchvision dataset), batch 64, ``Adam`` at a constant 1e-3,
  epoch by epoch up to ``--max-epochs``;
* ``common_on_tensors`` (with ``--breakdown``): the same, but on images decoded once, which
  separates the cost of decoding in every epoch from the cost of the bigger network;
* ``notebook``: the notebook's recipe: images decoded once, ``SimpleCNN(8, 16, 64)`` in
  ``channels_last``, batch 128, ``AdamW`` with ``OneCycleLR`` (max_lr 1e-2) over 4 epochs.

Prints one JSON object: the seconds of each recipe, the epochs it needed, its accuracy per
epoch, and ``ratio`` = common seconds / notebook seconds.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, TensorDataset
from torchvision import transforms

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from ptcourse.data import mnist  # noqa: E402

MEAN, STD = 0.1307, 0.3081


class SimpleCNN(nn.Module):
    """conv(1→c1, 3) → ReLU → pool → conv(c1→c2, 3) → ReLU → pool → Linear → ReLU → Linear."""

    def __init__(self, c1: int = 32, c2: int = 64, hidden: int = 128):
        super().__init__()
        self.conv1 = nn.Conv2d(1, c1, kernel_size=3)
        self.conv2 = nn.Conv2d(c1, c2, kernel_size=3)
        self.pool = nn.MaxPool2d(2)
        self.fc1 = nn.Linear(c2 * 5 * 5, hidden)
        self.fc2 = nn.Linear(hidden, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        return self.fc2(F.relu(self.fc1(torch.flatten(x, 1))))


def prepare(dataset) -> tuple[torch.Tensor, torch.Tensor]:
    """Every image of a torchvision MNIST decoded once, as ToTensor + Normalize would."""
    return (dataset.data.unsqueeze(1).float() / 255 - MEAN) / STD, dataset.targets


def test_accuracy(model: nn.Module, loader) -> float:
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for inputs, targets in loader:
            correct += (model(inputs).argmax(dim=1) == targets).sum().item()
            total += len(targets)
    return correct / total


def run(name: str, target: float, max_epochs: int, seed: int) -> dict:
    """Train one recipe epoch by epoch until the test accuracy reaches ``target``."""
    torch.manual_seed(seed)
    start = time.perf_counter()
    if name == "common":
        transform = transforms.Compose([transforms.ToTensor(), transforms.Normalize((MEAN,), (STD,))])
        train_loader = DataLoader(mnist(train=True, transform=transform), batch_size=64, shuffle=True)
        test_loader = DataLoader(mnist(train=False, transform=transform), batch_size=1000)
    else:
        batch = 128 if name == "notebook" else 64
        train_loader = DataLoader(TensorDataset(*prepare(mnist(train=True))), batch_size=batch, shuffle=True)
        test_loader = DataLoader(TensorDataset(*prepare(mnist(train=False))), batch_size=500)
    if name == "notebook":
        epochs = 4
        model = SimpleCNN(8, 16, 64).to(memory_format=torch.channels_last)
        optimizer = torch.optim.AdamW(model.parameters())
        scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=1e-2, epochs=epochs,
                                                        steps_per_epoch=len(train_loader))
    else:
        epochs = max_epochs
        model = SimpleCNN(32, 64, 128)
        optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
        scheduler = None
    history = []
    for _ in range(epochs):
        model.train()
        for inputs, targets in train_loader:
            optimizer.zero_grad()
            F.cross_entropy(model(inputs), targets).backward()
            optimizer.step()
            if scheduler is not None:
                scheduler.step()
        history.append(round(test_accuracy(model, test_loader), 4))
        if history[-1] >= target:
            break
    seconds = time.perf_counter() - start
    return {"seconds": round(seconds, 2), "epochs": len(history), "reached": history[-1] >= target,
            "accuracy_per_epoch": history}


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--target", type=float, default=0.95)
    parser.add_argument("--max-epochs", type=int, default=6)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--breakdown", action="store_true", help="also time the common recipe on decoded tensors")
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    warm_up = SimpleCNN(8, 16, 64)  # first calls pay one-off set-up costs: keep them off the clock
    F.cross_entropy(warm_up(torch.zeros(2, 1, 28, 28)), torch.zeros(2, dtype=torch.long)).backward()
    results = {name: run(name, args.target, args.max_epochs, args.seed)
               for name in ("notebook", "common") + (("common_on_tensors",) if args.breakdown else ())}
    fast, slow = results["notebook"]["seconds"], results["common"]["seconds"]
    report = {
        "target": args.target, "threads": args.threads, "seed": args.seed,
        "notebook_s": fast, "common_s": slow, "ratio": round(slow / fast, 2),
        "ratio_is_lower_bound": not results["common"]["reached"],
        **results,
    }
    print(json.dumps(report, indent=2))
    return report


if __name__ == "__main__":
    main()
