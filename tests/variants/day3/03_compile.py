"""Honest variants for day3/03_compile."""

from tools.variants import Kind, Variant

VARIANTS = [
    Variant("compile_time_call", "perf_counter, median and synchronize imported by name", Kind.IMPORT, code=(
        "from statistics import median\n"
        "from time import perf_counter\n\n"
        "from torch.cuda import is_available, synchronize\n\n\n"
        "def time_call(fn, *args, warmup=3, repeats=20):\n"
        "    for _ in range(warmup):\n"
        "        fn(*args)\n"
        "    if is_available():\n"
        "        synchronize()\n"
        "    durations = []\n"
        "    for _ in range(repeats):\n"
        "        start = perf_counter()\n"
        "        fn(*args)\n"
        "        if is_available():\n"
        "            synchronize()\n"
        "        durations.append(perf_counter() - start)\n"
        "    return float(median(durations))\n")),
]
