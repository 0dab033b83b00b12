"""Shared pytest set-up: keep every test of one notebook together so its kernel is reused."""

from __future__ import annotations

import os

# Tests run the notebooks on the CPU with a fixed thread count, whatever the machine has.
os.environ.setdefault("PTCOURSE_DEVICE", "cpu")
os.environ.setdefault("MPLBACKEND", "module://matplotlib_inline.backend_inline")


def pytest_collection_modifyitems(items):
    """Group tests parametrized by ``path`` by notebook, keeping their order otherwise."""
    def key(item):
        callspec = getattr(item, "callspec", None)
        path = callspec.params.get("path") if callspec else None
        return (str(path) if path is not None else "", )
    order = {id(item): i for i, item in enumerate(items)}
    items.sort(key=lambda it: (key(it), order[id(it)]))
