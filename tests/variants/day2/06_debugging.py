"""Honest variants for day2/06_debugging."""

from tools.variants import Kind, Variant

VARIANTS = [
    Variant("debug_class_index", "as_tensor with torch.long", Kind.DTYPE,
            replace=[("torch.tensor([index_of[label] for label in raw], dtype=torch.int64)",
                      "torch.as_tensor([index_of[label] for label in raw], dtype=torch.long)")]),
    Variant("debug_clipped_step", "clip_grad_norm_ imported by name", Kind.IMPORT,
            replace=[("def clipped_step", "from torch.nn.utils import clip_grad_norm_\n\n\ndef clipped_step"),
                     ("torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)",
                      "clip_grad_norm_(model.parameters(), max_norm=max_norm)")]),
    Variant("debug_no_gradient", "a list comprehension and count_nonzero", Kind.API, code=(
        "def parameters_without_gradient(model):\n"
        "    return [name for name, p in model.named_parameters()\n"
        "            if p.requires_grad and (p.grad is None or torch.count_nonzero(p.grad) == 0)]\n")),
]
