"""Messages of the timing helpers (:mod:`ptcourse.timing`)."""

MESSAGES = {
    "timing.busy": (
        "⚠ This machine is too busy for these timings to mean much: the repeats of {what} spread "
        "by {spread:.0%} of their median (more than {limit:.0%} is noise; the load was {load:.1f} "
        "processes per CPU), and {count} measurement(s) were that unsteady. Other programs are taking "
        "the CPU. Close other notebooks' kernels, run the cell again, and trust only differences much "
        "larger than that spread."
    ),
    "timing.busy_unnamed": (
        "⚠ This machine was too busy for these timings to mean much: the repeats of one measurement "
        "differed by {spread:.0%} of their median (more than {limit:.0%} is noise), and the load was "
        "{load:.1f} processes per CPU. Other programs (or other notebooks' kernels) were using the CPU. "
        "Run the cell again when the machine is quiet, and trust a ratio only if it comes out about the "
        "same twice."
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
