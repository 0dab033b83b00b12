"""Small, general helpers around a trained classifier: predictions, accuracy, confusion matrix.

They are the course's *reference* implementations: notebooks use them to look at a model the
learner trained (plots, hidden tests), never in place of the learner's own training loop::

    logits = predict(model, test_x, device)
    print(accuracy(logits, test_y))
    counts = confusion_matrix(logits.argmax(dim=1), test_y, num_classes=10)
"""

from __future__ import annotations

import torch
from torch import nn

__all__ = ["accuracy", "confusion_matrix", "predict"]


def predict(model: nn.Module, inputs: torch.Tensor, device: torch.device | str = "cpu",
            batch_size: int = 500) -> torch.Tensor:
    """The model's outputs for ``inputs`` (a tensor, first dimension the samples), on the CPU.

    Runs in evaluation mode without autograd, in batches of ``batch_size`` on ``device``, and
    puts the model back in the mode it was in.
    """
    was_training = model.training
    model.eval()
    outputs = []
    try:
        with torch.no_grad():
            for start in range(0, len(inputs), batch_size):
                batch = inputs[start:start + batch_size].to(device)
                outputs.append(model(batch).cpu())
    finally:
        model.train(was_training)
    return torch.cat(outputs)


def accuracy(logits: torch.Tensor, targets: torch.Tensor) -> float:
    """Fraction (0 to 1) of rows of ``logits`` whose largest entry is at the target class."""
    predictions = logits.argmax(dim=1)
    return (predictions == targets.to(predictions.device)).sum().item() / len(targets)


def confusion_matrix(predictions: torch.Tensor, targets: torch.Tensor, num_classes: int) -> torch.Tensor:
    """``counts[t, p]``: how many samples of true class ``t`` were predicted as class ``p``."""
    pairs = targets.long().cpu() * num_classes + predictions.long().cpu()
    return torch.bincount(pairs, minlength=num_classes * num_classes).reshape(num_classes, num_classes)
