"""Honest variants for day3/04_memory."""

from tools.variants import Kind, Variant

VARIANTS = [
    Variant("memory_training_bytes", "nelement and a helper", Kind.API, code=(
        "def training_memory_bytes(model, optimizer_name):\n"
        "    copies = {\"sgd\": 1, \"sgd_momentum\": 2, \"adam\": 3}[optimizer_name]\n\n"
        "    def size(tensors):\n"
        "        return sum(t.nelement() * t.element_size() for t in tensors)\n\n"
        "    trainable = size(p for p in model.parameters() if p.requires_grad)\n"
        "    return size(model.parameters()) + size(model.buffers()) + copies * trainable\n")),
]
