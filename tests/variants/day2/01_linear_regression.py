"""Honest variants for day2/01_linear_regression."""

from tools.variants import Kind, Variant

VARIANTS = [
    Variant("linreg_train", "F.mse_loss, SGD by keyword, model.zero_grad", Kind.IMPORT, code=(
        "import torch.nn.functional as F\n"
        "from torch.optim import SGD\n\n\n"
        "def train(model, x, y, lr, epochs):\n"
        "    optimizer = SGD(params=list(model.parameters()), lr=lr)\n"
        "    losses = []\n"
        "    for _ in range(epochs):\n"
        "        model.zero_grad()\n"
        "        loss = F.mse_loss(model(x), y)\n"
        "        loss.backward()\n"
        "        optimizer.step()\n"
        "        losses.append(float(loss))\n"
        "    return losses\n")),
    Variant("linreg_train", "a parameter group, gradients set to None", Kind.API,
            replace=[("optimizer = torch.optim.SGD(model.parameters(), lr=lr)",
                      "optimizer = torch.optim.SGD([{\"params\": model.parameters(), \"lr\": lr}])"),
                     ("optimizer.zero_grad()", "optimizer.zero_grad(set_to_none=True)")]),
]
