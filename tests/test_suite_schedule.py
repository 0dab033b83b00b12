"""The order in which ``make test``'s two processes are handed the suite's tests (tests/conftest.py).

The known long groups first, then every other slow test, then the notebooks' groups, and the quick
tests last: the quick ones fill the end of the run evenly, so neither process idles while the other
finishes a long test handed out last.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests import conftest


@dataclass
class Item:
    """What ``conftest._first`` reads of a collected test."""

    nodeid: str
    slow: bool = False
    params: dict = field(default_factory=dict)

    @property
    def callspec(self):
        return type("CallSpec", (), {"params": self.params})()

    def get_closest_marker(self, name: str):
        return pytest.mark.slow if name == "slow" and self.slow else None


def test_slow_tests_go_before_notebooks_and_quick_tests_last():
    known = Item("tests/test_grader.py::test_hostile_reports", slow=True)
    slow = Item("tests/test_faults.py::test_each_grading_process_killed_on_dask", slow=True)
    day3 = Item("tests/test_notebooks.py::test_solution_runs_clean[day3/05]",
                params={"path": Path("solutions/day3/05_distributed.ipynb")})
    day1 = Item("tests/test_notebooks.py::test_solution_runs_clean[day1/00]",
                params={"path": Path("solutions/day1/00_environment.ipynb")})
    quick = Item("tests/test_faults.py::test_lost_jobs_run_again_up_to_the_limit_and_say_so")
    ranks = [conftest._first(item) for item in (known, slow, day3, day1, quick)]
    assert ranks == sorted(ranks) and len(set(ranks)) == len(ranks), ranks
