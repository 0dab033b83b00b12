"""The pip requirements and the conda environment list the same packages at the same versions."""

from __future__ import annotations

import re

import yaml

from tools.notebooks import ROOT

CONDA_TO_PIP = {"pytorch": "torch"}


def pip_pins() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "requirements.txt").read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            name, version = line.split("==")
            pins[name.lower()] = version
    return pins


def conda_pins() -> dict[str, str]:
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    pins = {}
    for dep in env["dependencies"]:
        if not isinstance(dep, str) or dep.startswith(("python=", "pip")) or dep == "pip":
            continue
        name, version = re.split(r"=+", dep)[:2]
        pins[CONDA_TO_PIP.get(name.lower(), name.lower())] = version
    for dep in pip_section(env):  # packages conda does not provide, pinned for pip
        if "==" in dep:
            name, version = dep.split("#")[0].strip().split("==")
            pins[name.lower()] = version
    return pins


def pip_section(env: dict) -> list[str]:
    return next(d["pip"] for d in env["dependencies"] if isinstance(d, dict))


def test_same_packages_and_versions():
    assert conda_pins() == pip_pins()


def test_conda_pytorch_is_cpu_only():
    text = (ROOT / "environment.yml").read_text()
    assert re.search(r"pytorch=[\d.]+=cpu_\*", text), "Binder/conda should get the CPU-only PyTorch build"


def test_conda_installs_course_package():
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    assert "-e ." in pip_section(env)
