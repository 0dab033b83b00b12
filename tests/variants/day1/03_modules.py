"""Honest variants for day1/03_modules."""

from tools.variants import Kind, Variant

VARIANTS = [
    Variant("modules_deep_mlp", "F.relu", Kind.IMPORT,
            replace=[("class DeepMLP", "import torch.nn.functional as F\n\n\nclass DeepMLP"),
                     ("x = torch.relu(layer(x))", "x = F.relu(layer(x))")]),
    Variant("modules_count_parameters", "filter and torch.numel", Kind.API, code=(
        "def count_parameters(model, trainable_only=True):\n"
        "    params = model.parameters()\n"
        "    if trainable_only:\n"
        "        params = filter(lambda p: p.requires_grad, params)\n"
        "    return sum(map(torch.numel, params))\n")),
    Variant("modules_clone", "from torch import load, save", Kind.IMPORT, code=(
        "from torch import load, save\n\n\n"
        "def clone_via_state_dict(model, make_model, path):\n"
        "    save(model.state_dict(), path)\n"
        "    fresh = make_model()\n"
        "    fresh.load_state_dict(load(path, weights_only=True))\n"
        "    return fresh\n")),
    Variant("modules_predict", "inference_mode instead of no_grad", Kind.API,
            replace=[("with torch.no_grad():", "with torch.inference_mode():")]),
]
