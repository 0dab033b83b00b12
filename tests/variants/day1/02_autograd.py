"""Honest variants for day1/02_autograd."""

from tools.variants import Kind, Variant

VARIANTS = [
    Variant("autograd_classic_grad", "torch.autograd.grad", Kind.API, code=(
        "def classic_grad(values):\n"
        "    x = values.detach().clone().requires_grad_()\n"
        "    y = x ** 2 + 3 * x + 1\n"
        "    (grad,) = torch.autograd.grad(y.sum(), x)\n"
        "    return grad\n")),
    Variant("autograd_batch_grads", "grad set to None between batches", Kind.API,
            replace=[("        if w.grad is not None:\n            w.grad.zero_()\n", "        w.grad = None\n")]),
    Variant("autograd_mse_grad", "computed in float64, returned in the input's dtype", Kind.DTYPE, code=(
        "def mse_grad(X, w, y):\n"
        "    X64, w64, y64 = X.double(), w.double(), y.double()\n"
        "    return (2.0 / X.shape[0] * (X64.T @ (X64 @ w64 - y64))).to(X.dtype)\n")),
    Variant("autograd_softplus", "logaddexp with zero", Kind.API, code=(
        "def softplus(x):\n"
        "    return torch.logaddexp(x, torch.zeros_like(x))\n")),
    Variant("autograd_stop_gradient_loss", "no_grad target, F.mse_loss", Kind.IMPORT, code=(
        "import torch.nn.functional as F\n\n\n"
        "def stop_gradient_loss(w, x_a, x_b):\n"
        "    with torch.no_grad():\n"
        "        target = torch.tanh(x_b @ w)\n"
        "    return F.mse_loss(torch.tanh(x_a @ w), target)\n")),
]
