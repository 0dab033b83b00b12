"""What the grader imports is declared and pinned: pyproject's ``grader`` extra (or the package's
dependencies) names every distribution ``grader/`` imports, and requirements*.txt pins each one,
or pins the package that brings it (:data:`COMES_WITH`, checked against that package's own
requirements)."""

from __future__ import annotations

import ast
import importlib.metadata
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
REQUIREMENTS = ("requirements.txt", "requirements-grader.txt")
# Distributions the grader imports that are not pinned by name: each comes with a pinned package
# that requires it, so its version follows that pin (the test checks that package requires it).
COMES_WITH = {
    "ipython": "nbgrader",
    "ipykernel": "jupyterlab",
    "jupyter-core": "jupyter-client",
    "traitlets": "jupyter-client",
    "pyzmq": "jupyter-client",
    "markupsafe": "jinja2",
    "python-dateutil": "jupyter-client",
    "nbconvert": "nbgrader",
    "numpy": "torchvision",
}


def norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_name(spec: str) -> str:
    return norm(re.match(r"\s*([A-Za-z0-9_.\-]+)", spec).group(1))


def imported_distributions(folder: Path) -> set[str]:
    """The distributions whose top-level modules the files of ``folder`` import (stdlib and the course left out)."""
    modules = set()
    for path in folder.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                modules |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                modules.add(node.module.split(".")[0])
    owners = importlib.metadata.packages_distributions()
    found = set()
    for module in modules - set(sys.stdlib_module_names) - {"grader", "ptcourse"}:
        assert module in owners, f"grader imports {module}, which no installed distribution provides"
        found |= {norm(d) for d in owners[module]}
    return found


def pinned() -> set[str]:
    names = set()
    for file in REQUIREMENTS:
        for line in (ROOT / file).read_text().splitlines():
            if re.match(r"\s*[A-Za-z0-9_.\-]+\s*==", line):
                names.add(requirement_name(line))
    return names


def declared() -> set[str]:
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return {requirement_name(s) for s in [*project["dependencies"], *project["optional-dependencies"]["grader"]]}


def test_the_grader_extra_declares_every_import():
    missing = sorted(imported_distributions(ROOT / "grader") - declared())
    assert not missing, f"grader/ imports these; add them to pyproject.toml's grader extra: {missing}"


def test_every_import_of_the_grader_is_pinned():
    loose = sorted(imported_distributions(ROOT / "grader") - pinned() - set(COMES_WITH))
    assert not loose, f"pin these (the installed version) in requirements-grader.txt: {loose}"


@pytest.mark.parametrize("name", sorted(COMES_WITH))
def test_an_unpinned_import_comes_with_a_pinned_package(name):
    carrier = COMES_WITH[name]
    assert carrier in pinned(), f"{carrier} (which brings {name}) is not pinned in {REQUIREMENTS}"
    needs = {requirement_name(r) for r in importlib.metadata.requires(carrier) or [] if "extra ==" not in r}
    assert name in needs, f"{carrier} no longer requires {name}: pin {name} in requirements-grader.txt"
    assert name not in pinned(), f"{name} is pinned now: take it out of COMES_WITH"


def test_imports_are_found(tmp_path):
    (tmp_path / "m.py").write_text("import os\nimport psutil\nfrom yaml import safe_load\nfrom . import x\n")
    assert imported_distributions(tmp_path) == {"psutil", "pyyaml"}
