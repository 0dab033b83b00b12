"""Messages of the timing helpers (:mod:`ptcourse.timing`)."""

MESSAGES = {
    "timing.busy": (
        "⚠ This machine was too busy for these timings to mean much: the repeats of one measurement "
        "differed by {spread} % of their median, and the load was {load} processes per CPU. Other programs "
        "(or other notebooks' kernels) were using the CPU. Run the cell again when the machine is quiet, "
        "and trust a ratio only if it comes out about the same twice."
    ),
    "timing.bf16_native": (
        "This CPU has native bfloat16 instructions ({flags}; PyTorch uses {capability}): bfloat16 "
        "matrix products can be faster than float32 here."
    ),
    "timing.bf16_emulated": (
        "This CPU has no native bfloat16 instructions (no avx512_bf16 or amx_bf16 flag; PyTorch uses "
        "{capability}): every bfloat16 operation is converted to float32 and back, so bfloat16 autocast is "
        "usually slower than float32 here. It still computes the right results."
    ),
}
