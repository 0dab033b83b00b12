"""The limits' command-line flags (``--cell-timeout``, ``--memory``, ``--gpu``...), shared by
``python -m grader grade``/``check`` and Gradescope's ``run_autograder``; defaults from
:mod:`grader.settings`."""

from __future__ import annotations

import argparse
import re

from grader import settings

UNITS = {"": 1, "K": 1024, "M": 1024**2, "G": 1024**3}


def size(text: str) -> int:
    """``2G``, ``512M``, ``800K`` or a number of bytes."""
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([KMG]?)B?\s*", text, re.I)
    if not match:
        raise argparse.ArgumentTypeError(f"expected a size like 2G or 512M, got {text!r}")
    return int(float(match.group(1)) * UNITS[match.group(2).upper()])


def shown(size_bytes: int) -> str:
    """``2G``, ``1M``: a size as the options take it."""
    for unit in ("G", "M", "K"):
        if size_bytes % UNITS[unit] == 0:
            return f"{size_bytes // UNITS[unit]}{unit}"
    return str(size_bytes)


def limits_args(parser: argparse.ArgumentParser) -> None:
    """The limits' flags, in their own group of ``parser``'s help."""
    group = parser.add_argument_group("limits (per notebook)")
    group.add_argument("--cell-timeout", type=int, default=settings.CELL_TIMEOUT_S, metavar="S",
                       help=f"seconds one cell may run before it is interrupted (default {settings.CELL_TIMEOUT_S})")
    group.add_argument("--notebook-timeout", type=int, default=settings.NOTEBOOK_TIMEOUT_S, metavar="S",
                       help="seconds a whole notebook may take before it is stopped "
                            f"(default {settings.NOTEBOOK_TIMEOUT_S})")
    group.add_argument("--memory", type=size, default=settings.MEMORY_BYTES, metavar="SIZE",
                       help="memory for the kernel and everything it starts "
                            f"(default {shown(settings.MEMORY_BYTES)}, like Binder)")
    group.add_argument("--disk", type=size, default=settings.DISK_BYTES, metavar="SIZE",
                       help=f"files the kernel may write before it is stopped (default {shown(settings.DISK_BYTES)})")
    group.add_argument("--output-cap", type=size, default=settings.OUTPUT_BYTES, metavar="SIZE",
                       help="output one cell may print before it is cut off and interrupted "
                            f"(default {shown(settings.OUTPUT_BYTES)})")
    group.add_argument("--threads", type=int, default=0, metavar="N",
                       help="PyTorch threads per kernel (default: CPUs / workers)")
    group.add_argument("--gpu", action="store_true", default=settings.environment().gpu,
                       help="let the kernels use the NVIDIA GPU: /dev/nvidia* is exposed inside the sandbox "
                            "(default off; PTGRADE_GPU=1 turns it on)")
    group.add_argument("--no-sandbox", action="store_true",
                       help="run student code without bubblewrap (not recommended)")


def limits_from_args(args):
    """The :class:`grader.run.jobs.Limits` the parsed flags ask for."""
    from grader.run.jobs import Limits

    return Limits(cell_timeout=args.cell_timeout, notebook_timeout=args.notebook_timeout,
                  memory_bytes=args.memory, output_bytes=args.output_cap, threads=args.threads, disk_bytes=args.disk,
                  gpu=args.gpu)
