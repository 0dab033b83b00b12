"""Honest variants for day2/06_debugging."""

from tools.variants import Kind, Variant

VARIANTS = [
    Variant("debug_class_index", "as_tensor with torch.long", Kind.DTYPE,
            replace=[("torch.tensor([index_of[label] for label in raw], dtype=torch.int64)",
                      "torch.as_tensor([index_of[label] for label in raw], dtype=torch.long)")]),
]
