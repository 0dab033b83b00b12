"""Honest variants for day1/01_tensors."""

from tools.variants import Kind, Variant

VARIANTS = [
    Variant("tensors_make_grid", "view of a float arange", Kind.API, code=(
        "def make_grid(rows, cols):\n"
        "    return torch.arange(float(rows * cols)).view(rows, cols)\n")),
    Variant("tensors_make_grid", "the default dtype, named", Kind.DTYPE,
            replace=[("dtype=torch.float32", "dtype=torch.get_default_dtype()")]),
    Variant("tensors_pairwise_sq_dists", "unsqueeze and pow", Kind.API, code=(
        "def pairwise_sq_dists(a, b):\n"
        "    return (a.unsqueeze(1) - b.unsqueeze(0)).pow(2).sum(-1)\n")),
    Variant("tensors_zero_negatives", "clamp and count_nonzero", Kind.API, code=(
        "def zero_negatives(x):\n"
        "    return x.clamp(min=0), int(torch.count_nonzero(x < 0))\n")),
    Variant("tensors_flatten_images", "torch.flatten from dimension 1", Kind.API, code=(
        "def flatten_images(x):\n"
        "    return torch.flatten(x, start_dim=1)\n")),
    Variant("tensors_apply_weights", "matmul, and .to(tensor)", Kind.API,
            replace=[("counts.to(device=weights.device, dtype=weights.dtype) @ weights",
                      "torch.matmul(counts.to(weights), weights)")]),
]
