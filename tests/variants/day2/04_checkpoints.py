"""Honest variants for day2/04_checkpoints."""

from tools.variants import Kind, Variant

VARIANTS = [
    Variant("ckpt_save_load", "from torch import load, save", Kind.IMPORT,
            replace=[("def save_checkpoint", "from torch import load, save\n\n\ndef save_checkpoint"),
                     ("    torch.save({", "    save({"),
                     ("torch.load(path, map_location=\"cpu\", weights_only=True)",
                      "load(path, map_location=torch.device(\"cpu\"), weights_only=True)")]),
]
