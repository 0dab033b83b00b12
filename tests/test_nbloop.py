"""``make nb NB=...`` (tools/nbloop.py): the notebook names it accepts, and what it refuses."""

from __future__ import annotations

import pytest

from tools import nbloop
from tools.notebooks import SOLUTIONS


@pytest.mark.parametrize("name", ["day1/01_tensors", "day1/01_tensors.ipynb", "solutions/day1/01_tensors.ipynb"])
def test_notebook_names(name):
    assert nbloop.source_of(name) == SOLUTIONS / "day1" / "01_tensors.ipynb"


def test_unknown_notebook_lists_the_known_ones():
    with pytest.raises(SystemExit, match="day1/01_tensors"):
        nbloop.source_of("day1/99_nothing")


def test_every_step_runs_and_a_failed_step_fails_the_loop(monkeypatch, capsys):
    monkeypatch.setattr(nbloop, "STEPS", (("good", lambda p: (True, "fine")), ("bad", lambda p: (False, "broken")),
                                          ("raises", lambda p: 1 / 0)))
    assert nbloop.main(["day1/01_tensors"]) == 1
    out = capsys.readouterr().out
    assert "✔ good" in out and "✘ bad" in out and "✘ raises" in out and "ZeroDivisionError" in out
