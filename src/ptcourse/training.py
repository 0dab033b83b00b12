"""Small, general helpers around a trained classifier: predicted classes, accuracy, confusion matrix.

Notebooks use them to look at a model the learner trained (plots, hidden tests), never in place of
the learner's own code::

    predicted = predict(model, test_x, device)
    print(accuracy(predicted, test_y))
    counts = confusion_matrix(predicted, test_y, num_classes=10)

``predict`` gives class indices, not a model's outputs: day 1's ``predict`` exercise (the outputs in
evaluation mode, without gradients) is the learner's to write, and this helper is no answer to it
(tests/test_package_answers.py).
"""

from __future__ import annotations

import torch
from torch import nn

__all__ = ["accuracy", "confusion_matrix", "predict"]


def predict(model: nn.Module, inputs: torch.Tensor, device: torch.device | str = "cpu",
            batch_size: int = 500) -> torch.Tensor:
    """The class each row of ``inputs`` (a tensor, first dimension the samples) is predicted as: the
    index of the model's largest output, as a 1-D ``int64`` tensor on the CPU.

    Runs in evaluation mode without autograd, in batches of ``batch_size`` on ``device``, and
    puts the model back in the mode it was in.
    """
    was_training = model.training
    model.eval()
    classes = []
    try:
        with torch.no_grad():
            for start in range(0, len(inputs), batch_size):
                batch = inputs[start:start + batch_size].to(device)
                classes.append(model(batch).argmax(dim=1).cpu())
    finally:
        model.train(was_training)
    return torch.cat(classes)


def accuracy(predicted: torch.Tensor, targets: torch.Tensor) -> float:
    """Fraction (0 to 1) of samples predicted as their target class. ``predicted``: class indices (1-D,
    as :func:`predict` gives them) or one row of scores per sample (2-D: its largest entry is the class)."""
    classes = predicted.argmax(dim=1) if predicted.dim() == 2 else predicted
    return (classes == targets.to(classes.device)).sum().item() / len(targets)


def confusion_matrix(predictions: torch.Tensor, targets: torch.Tensor, num_classes: int) -> torch.Tensor:
    """``counts[t, p]``: how many samples of true class ``t`` were predicted as class ``p``."""
    pairs = targets.long().cpu() * num_classes + predictions.long().cpu()
    return torch.bincount(pairs, minlength=num_classes * num_classes).reshape(num_classes, num_classes)
