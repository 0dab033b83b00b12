"""ruff passes over the package, the tests, the tools and the source notebooks."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from tools.notebooks import ROOT


def test_ruff_clean():
    ruff = shutil.which("ruff") or str(Path(sys.executable).parent / "ruff")
    proc = subprocess.run([ruff, "check", "src", "tests", "tools", "grader", "solutions", "data"],
                          cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
