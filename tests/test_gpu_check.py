"""The GPU run's pieces that can be checked without a GPU: the jail's opt-in, the script's CPU exit."""

from __future__ import annotations

import subprocess
import sys

import torch

from grader.jail import sandbox
from tools.notebooks import ROOT


def jail(gpu: bool) -> list[str]:
    return sandbox.KernelJail(cwd="/w/cwd", runtime="/w/rt", bwrap="/usr/bin/bwrap", gpu=gpu).wrap(["python"])


def test_gpu_devices_reach_the_jail_only_when_asked(monkeypatch):
    monkeypatch.setattr(sandbox.glob, "glob", lambda pattern: ["/dev/nvidia0", "/dev/nvidiactl"]
                        if pattern == "/dev/nvidia*" else [])
    assert "--dev-bind" not in jail(gpu=False)
    text = " ".join(jail(gpu=True))
    assert "--dev-bind /dev/nvidia0 /dev/nvidia0" in text and "--dev-bind /dev/nvidiactl /dev/nvidiactl" in text
    assert text.index("--dev /dev") < text.index("--dev-bind"), "the devices must be bound over the fresh /dev"


def test_grader_gpu_flag_and_env(monkeypatch):
    from grader.run import cli

    assert cli._limits(cli.build_parser().parse_args(["check", "x.ipynb"])).gpu is False
    assert cli._limits(cli.build_parser().parse_args(["check", "x.ipynb", "--gpu"])).gpu is True
    monkeypatch.setenv("PTGRADE_GPU", "1")
    assert cli._limits(cli.build_parser().parse_args(["check", "x.ipynb"])).gpu is True


def test_gpu_check_says_no_cuda_and_exits_0():
    if torch.cuda.is_available():
        return  # on a GPU machine the real run is `make gpu-check`, not a fast test
    proc = subprocess.run([sys.executable, "tools/gpu_check.py"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and "no CUDA device" in proc.stdout, proc.stdout + proc.stderr
