"""Honest variants for day2/03_cnn_mnist."""

from tools.variants import Kind, Variant

VARIANTS = [
    Variant("cnn_evaluate", "the accuracy divided in float32", Kind.DTYPE, code=(
        "def evaluate(model, loader, device):\n"
        "    model.eval()\n"
        "    hits, seen = [], 0\n"
        "    with torch.no_grad():\n"
        "        for inputs, targets in loader:\n"
        "            inputs, targets = inputs.to(device), targets.to(device)\n"
        "            hits.append((model(inputs).argmax(dim=1) == targets).sum().item())\n"
        "            seen += targets.shape[0]\n"
        "    accuracy = torch.tensor(sum(hits), dtype=torch.float32) / torch.tensor(seen, dtype=torch.float32)\n"
        "    return accuracy.item()\n")),
    Variant("cnn_evaluate", "softmax without dim before argmax (PyTorch warns)", Kind.WARNS,
            replace=[("predictions = model(inputs).argmax(dim=1)",
                      "predictions = torch.nn.functional.softmax(model(inputs)).argmax(dim=1)")]),
    Variant("cnn_train_one_epoch", "the losses summed as a float32 tensor", Kind.DTYPE,
            replace=[("total, batches = 0.0, 0", "total, batches = torch.zeros(()), 0"),
                     ("total += loss.item()", "total += loss.detach()"),
                     ("return total / batches", "return (total / batches).item()")]),
    Variant("cnn_make_optimizer", "AdamW and OneCycleLR imported by name, lr given", Kind.IMPORT, code=(
        "from torch.optim import AdamW\n"
        "from torch.optim.lr_scheduler import OneCycleLR\n\n\n"
        "def make_optimizer(model, epochs, steps_per_epoch):\n"
        "    optimizer = AdamW([p for p in model.parameters()], lr=1e-3)\n"
        "    return optimizer, OneCycleLR(optimizer, max_lr=1e-2, epochs=epochs, steps_per_epoch=steps_per_epoch)\n")),
]
