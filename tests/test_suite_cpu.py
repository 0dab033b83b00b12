"""tools/suite_cpu.py, the suite's CPU meter: what each test's CPU is added to, and a meter that counts
the processes a test starts, however they end (a cpuacct cgroup where one can be made)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tools import suite_cpu
from tools.notebooks import ROOT


@pytest.mark.parametrize(("nodeid", "where"), [
    ("tests/test_grader.py::test_sizes[512M-536870912]", "tests/test_grader.py"),
    ("tests/test_notebooks.py::test_solution_runs_clean[day3/06_export]", "tests/test_notebooks.py[day3/06_export]"),
    ("tests/test_notebooks.py::test_mutant_is_caught[day1/01_tensors::tensors_make_grid::a]",
     "tests/test_notebooks.py[day1/01_tensors]"),
    ("tests/test_roundtrip.py::test_solutions_score_full_marks[day2]", "tests/test_roundtrip.py"),
])
def test_bucket(nodeid, where):
    assert suite_cpu.bucket(nodeid) == where


# In a process of its own: the meter moves the process that starts it into its cgroup.
METERED = """
import os, subprocess, sys, time
from tools import suite_cpu
from tools.notebooks import ROOT
meter = suite_cpu.Meter.start("test-" + str(os.getpid()))
if meter.cgroup is None:
    print("skip", meter.why_not)
    sys.exit()
before = meter.seconds()
burn = "import os, time\\nif os.fork() == 0:\\n    t = time.process_time()\\n    while time.process_time() - t < 0.5: pass\\n"
subprocess.run([sys.executable, "-c", burn], check=True)
deadline = time.monotonic() + 10
while meter.seconds() - before < 0.5 and time.monotonic() < deadline:
    time.sleep(0.05)
print("counted", meter.seconds() - before)
suite_cpu._close(meter)
"""


def test_a_child_that_outlives_its_parent_is_counted():
    """A grandchild left running by a child that exits at once (as a forked kernel can be): getrusage
    never sees its CPU; the cgroup does."""
    out = subprocess.run([sys.executable, "-c", METERED], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    if out.startswith("skip"):
        pytest.skip(out)
    assert float(out.split()[-1]) >= 0.5, out


def test_costliest_lists_the_dearest_tests_first():
    totals = [("a", 1.0, 2.0), ("b", 5.04, 6.0), ("c", 3.0, 1.0)]
    assert suite_cpu.costliest(totals, n=2) == [{"test": "b", "cpu_s": 5.0, "wall_s": 6.0},
                                                {"test": "c", "cpu_s": 3.0, "wall_s": 1.0}]
