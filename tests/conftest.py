"""Shared pytest set-up: keep every test of one notebook together so its kernel is reused."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# Tests run the notebooks on the CPU with a fixed thread count, whatever the machine has.
os.environ.setdefault("PTCOURSE_DEVICE", "cpu")
os.environ.setdefault("MPLBACKEND", "module://matplotlib_inline.backend_inline")


def _shared_fixtures(item) -> set[str]:
    """The module-scoped fixtures defined in the test's own file that it uses, with their parameter."""
    params = item.callspec.params if hasattr(item, "callspec") else {}
    shared = set()
    for name, defs in item._fixtureinfo.name2fixturedefs.items():
        fixture = defs[-1]
        base = fixture.baseid
        if fixture.scope != "function" and base.endswith(".py") and item.nodeid.startswith(base + "::"):
            shared.add(f"{base}:{name}[{params.get(name, '')}]")
    return shared


def _groups(items) -> dict[int, str]:
    """xdist groups: tests that share a kernel, a class grading or a server stay in one process.

    ``make test`` runs the suite on two processes (pytest-xdist, ``--dist loadgroup``). Tests of one
    day's notebooks share live kernels (tests/harness/executed.py) and write into one folder: one
    group per day. Browser tests share one JupyterLab: one group. Otherwise tests that use the same
    module-scoped fixture (a class graded once, say) are one group; the rest go wherever is free.
    """
    out: dict[int, str] = {}
    for item in items:
        params = item.callspec.params if hasattr(item, "callspec") else {}
        path = params.get("path")
        if path is not None and hasattr(path, "parent"):
            out[id(item)] = f"notebooks-{Path(path).parent.name}"
        elif "browser" in Path(str(item.fspath)).parts:
            out[id(item)] = "browser"
    pending = [it for it in items if id(it) not in out]
    links = {id(it): _shared_fixtures(it) for it in pending}
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.setdefault(x, x) != x:
            x = parent[x]
        return x

    for shared in links.values():
        shared = sorted(shared)
        for other in shared[1:]:
            parent[find(other)] = find(shared[0])
    for item in pending:
        shared = links[id(item)]
        if shared:
            out[id(item)] = find(sorted(shared)[0])
    return out


def pytest_collection_modifyitems(config, items):
    """Group tests parametrized by ``path`` by notebook, keeping their order otherwise; mark xdist groups."""
    def key(item):
        callspec = getattr(item, "callspec", None)
        path = callspec.params.get("path") if callspec else None
        return (str(path) if path is not None else "", )
    order = {id(item): i for i, item in enumerate(items)}
    items.sort(key=lambda it: (key(it), order[id(it)]))
    groups = _groups(items)
    for item in items:
        if id(item) in groups:
            item.add_marker(pytest.mark.xdist_group(groups[id(item)]))
