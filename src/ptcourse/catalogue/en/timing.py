"""Messages of the timing helper (:mod:`ptcourse.timing`), shown under timing demos."""

MESSAGES = {
    "timing.busy": (
        "⚠ This machine is too busy for these timings to mean much: the repeats of {what} spread "
        "by {spread:.0%} of their median (more than {limit:.0%} is noise), and {count} measurement(s) "
        "were that unsteady. Other programs are taking the CPU. Close other notebooks' kernels, run "
        "the cell again, and trust only differences much larger than that spread."
    ),
}
