"""Honest variants for day3/01_devices."""

from tools.variants import Kind, Variant

VARIANTS = [
    Variant("devices_move_to", "is_tensor, and a warning for what stays", Kind.WARNS, code=(
        "import warnings\n\n\n"
        "def move_to(batch, device):\n"
        "    if torch.is_tensor(batch):\n"
        "        return batch.to(device=device)\n"
        "    if isinstance(batch, dict):\n"
        "        return dict((key, move_to(value, device)) for key, value in batch.items())\n"
        "    if isinstance(batch, (list, tuple)):\n"
        "        moved = [move_to(item, device) for item in batch]\n"
        "        return moved if isinstance(batch, list) else tuple(moved)\n"
        "    warnings.warn(f\"move_to: a {type(batch).__name__} has no device; left as it is\", stacklevel=2)\n"
        "    return batch\n")),
    Variant("devices_devices_used", "itertools.chain over parameters and buffers", Kind.API, code=(
        "import itertools\n\n\n"
        "def devices_used(model, batch):\n"
        "    found = {t.device for t in itertools.chain(model.parameters(), model.buffers())}\n"
        "    stack = [batch]\n"
        "    while stack:\n"
        "        obj = stack.pop()\n"
        "        if isinstance(obj, torch.Tensor):\n"
        "            found.add(obj.device)\n"
        "        elif isinstance(obj, dict):\n"
        "            stack.extend(obj.values())\n"
        "        elif isinstance(obj, (list, tuple)):\n"
        "            stack.extend(obj)\n"
        "    return found\n")),
]
