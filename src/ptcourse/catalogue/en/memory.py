"""Messages of the memory check (:mod:`ptcourse.memory`), shown by the set-up cell."""

MESSAGES = {
    "memory.tight": (
        "⚠ Memory is getting tight: this session uses {used} of its {limit} ({percent} %). {others}"
    ),
    "memory.critical": (
        "⚠ Memory is almost full: this session uses {used} of its {limit} ({percent} %). {others}"
        "Past the limit, a kernel is stopped and everything it holds in memory is lost."
    ),
    "memory.others_one": (
        "1 other notebook's kernel is still running: JupyterLab keeps the kernel of every "
        "notebook you opened, even after you move on. "
    ),
    "memory.others_many": (
        "{n} other notebooks' kernels are still running: JupyterLab keeps the kernel of every "
        "notebook you opened, even after you move on. "
    ),
    "memory.how_to_free": (
        "To free memory, shut down the kernels of the notebooks you are done with: open the "
        "Running panel (left sidebar, the circle with a square in it) and click Shut Down "
        "next to each of those notebooks, or in that notebook choose Kernel → Shut Down "
        "Kernel. Your saved notebooks are not touched; only what their kernels hold in memory "
        "goes (run their cells again to get it back)."
    ),
}
