"""Shared pytest set-up: keep every test of one notebook together so its kernel is reused."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest

# Tests run the notebooks on the CPU with a fixed thread count, whatever the machine has.
os.environ.setdefault("PTCOURSE_DEVICE", "cpu")
# One PyTorch thread per kernel (ptcourse.setup reads it): ``make test`` runs two test processes on
# two cores, beside the grader's own kernels (one thread each). A kernel with a thread per core
# beside them oversubscribes the CPUs, and OpenMP's spinning threads then run a notebook up to
# ten times slower (day2/03: 98 s in the suite, 9 s alone). The budgets are stated on one thread.
os.environ.setdefault("PTCOURSE_THREADS", "1")
os.environ.setdefault("MPLBACKEND", "module://matplotlib_inline.backend_inline")


# Session fixtures that grade once for tests of several files: their tests are one xdist group.
SESSION_SHARED = ("day1_class", "day2_class")


@pytest.fixture(scope="session")
def day1_class(tmp_path_factory):
    """The default Day 1 class (``--workers 2 --quiet``), graded once for every module that hands in to it
    (tests/harness/shared_class.py): the round trip's solved Day 1, the second key's cheats, Gradescope's pair."""
    from tests.harness import shared_class

    return shared_class.grade(tmp_path_factory.mktemp("day1-class"), "day1")


@pytest.fixture(scope="session")
def day2_class(tmp_path_factory):
    """The default Day 2 class, the same way: the round trip's solved Day 2, the second key's Day 2 answer."""
    from tests.harness import shared_class

    return shared_class.grade(tmp_path_factory.mktemp("day2-class"), "day2")


def _shared_fixtures(item) -> set[str]:
    """The module-scoped fixtures defined in the test's own file that it uses, with their parameter, and
    the session fixtures of SESSION_SHARED it uses (or names with ``@pytest.mark.shares``)."""
    params = item.callspec.params if hasattr(item, "callspec") else {}
    shared = set()
    for name, defs in item._fixtureinfo.name2fixturedefs.items():
        fixture = defs[-1]
        base = fixture.baseid
        if fixture.scope != "function" and base.endswith(".py") and item.nodeid.startswith(base + "::"):
            shared.add(f"{base}:{name}[{params.get(name, '')}]")
        elif fixture.scope == "session" and name in SESSION_SHARED:
            shared.add(f"session:{name}")
    for mark in item.iter_markers("shares"):  # reached through request.getfixturevalue
        shared.update(f"session:{name}" for name in mark.args)
    return shared


def _groups(items) -> dict[int, str]:
    """xdist groups: tests that share a kernel, a class grading or a server stay in one process.

    ``make test`` runs the suite on two processes (pytest-xdist, ``--dist loadgroup``). Tests of one
    notebook share its live kernel (tests/harness/executed.py): one group per notebook (notebooks
    write their files into temporary folders, so two of one day may run side by side). Browser tests share one JupyterLab: one group. Otherwise tests that use the same
    module-scoped fixture (a class graded once, say) are one group; the rest go wherever is free.
    """
    out: dict[int, str] = {}
    for item in items:
        params = item.callspec.params if hasattr(item, "callspec") else {}
        path = params.get("path")
        if path is not None and hasattr(path, "parent"):
            out[id(item)] = f"notebook-{Path(path).parent.name}/{Path(path).stem}"
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


# The longest single pieces of work start first, so two processes finish together (xdist hands
# out groups in collection order: see pytest_configure). Longest first, as measured in a full run
# (seconds at load 5): the hostile class 155, the browser 130, the red-team class 120, the Day 3
# round trip 100, day3/05 80, Binder 65, the accident class 50, the Day 2 round trip 50, day2/03 45,
# the cluster 45, day3/07 and 06 35 each, then the Day 1 round trip, the classroom, the student
# edition and isolation (20-30 each); the other notebooks follow, Day 3 first.
LONG_FIRST = ("test_grader.py", "browser/", "test_integrity.py::test_cheat", "test_roundtrip.py::*[day3]",
              "[day3/05_distributed", "test_binder_memory.py", "test_integrity.py", "test_roundtrip.py::*[day2]",
              "[day2/03_cnn_mnist", "test_cluster.py", "[day3/07_capstone", "[day3/06_export", "test_roundtrip.py",
              "test_classroom.py", "test_edition.py", "test_isolation.py")


def _first(item) -> int:
    """Where a test's group goes in the queue: the known long ones first, then every other test marked
    ``slow`` (each grades a class or runs notebooks: 10 to 70 s), notebooks (Day 3 first) next, and the
    quick tests last. The quick ones (a second or less, most of the suite's tests) fill the end of the
    run evenly: a slow test handed out last would keep one process busy while the other has nothing."""
    nodeid = item.nodeid
    for rank, pattern in enumerate(LONG_FIRST):
        head, _, param = pattern.partition("::*")
        if head in nodeid and (not param or nodeid.endswith(param)):
            return rank
    params = item.callspec.params if hasattr(item, "callspec") else {}
    path = params.get("path")
    if path is not None and hasattr(path, "parent"):
        return len(LONG_FIRST) + 4 - int(Path(path).parent.name[-1])
    if item.get_closest_marker("slow") is not None:
        return len(LONG_FIRST)
    return len(LONG_FIRST) + 4


NOTEBOOK_TESTS = "tests/test_notebooks.py::"
KERNEL_LAST = "tests/test_notebooks.py::test_untouched_copy_earns_nothing"


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups (it appends them to the test ids)
def pytest_collection_modifyitems(config, items):
    """Group tests parametrized by ``path`` by notebook, keeping their order otherwise; mark xdist groups."""
    def key(item):
        callspec = getattr(item, "callspec", None)
        path = callspec.params.get("path") if callspec else None
        # a notebook's own tests (execution, mutants) first, then other files' tests of its live
        # kernel, and last the one that leaves its answers stubs (and closes the kernel)
        last = 2 if item.nodeid.startswith(KERNEL_LAST) else 0 if item.nodeid.startswith(NOTEBOOK_TESTS) else 1
        return (str(path) if path is not None else "", last if path is not None else 0)
    if "soak" not in (config.getoption("markexpr", "") or ""):  # long stress runs: only when asked for
        skip = pytest.mark.skip(reason="a soak test: run it with -m soak (make stress)")
        for item in items:
            if "soak" in item.keywords:
                item.add_marker(skip)
    order = {id(item): i for i, item in enumerate(items)}
    items.sort(key=lambda it: (_first(it), key(it), order[id(it)]))
    groups = _groups(items)
    for item in items:
        if id(item) in groups:
            item.add_marker(pytest.mark.xdist_group(groups[id(item)]))
    folder = os.environ.get(GROUPS_ENV)
    worker = getattr(config, "workerinput", {}).get("workerid")
    if folder and worker:  # a worker tells the scheduler the groups (see pytest_xdist_make_scheduler)
        (Path(folder) / f"{worker}.json").write_text(
            json.dumps({item.nodeid: groups[id(item)] for item in items if id(item) in groups}))


# xdist's own "loadgroup" reads groups from test ids it rewrites, which pytest 9 no longer lets it
# do; so the workers write the groups to a file and this scheduler (xdist's load-scope scheduling,
# a group for a scope) reads them.
GROUPS_ENV = "PTCOURSE_XDIST_GROUPS"
# Written against this pytest-xdist (requirements-dev.txt pins it): tests/test_compat.py checks the
# version and the source of the LoadScopeScheduling method GroupScheduling overrides.
XDIST_WRITTEN_AGAINST = {"pytest-xdist": "3.8.0"}


def pytest_configure(config):
    if not hasattr(config, "workerinput") and getattr(config.option, "dist", "no") == "loadgroup":
        os.environ[GROUPS_ENV] = tempfile.mkdtemp(prefix="pt-xdist-groups-")
        config.option.loadscopereorder = False  # keep the order of pytest_collection_modifyitems


def pytest_unconfigure(config):
    if not hasattr(config, "workerinput") and os.environ.get(GROUPS_ENV):
        shutil.rmtree(os.environ.pop(GROUPS_ENV), ignore_errors=True)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class GroupScheduling(LoadScopeScheduling):
        """One scope per group named by tests/conftest.py; every other test is a scope of its own."""

        _groups: dict[str, str] | None = None

        def _split_scope(self, nodeid: str) -> str:
            if self._groups is None:
                found = sorted(Path(os.environ[GROUPS_ENV]).glob("*.json"))
                self._groups = json.loads(found[0].read_text()) if found else {}
            return self._groups.get(nodeid, nodeid)

    return GroupScheduling(config, log)


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """One line on the machine's grading sandbox, so a CI log says which layers its tests ran with."""
    if hasattr(config, "workerinput"):
        return
    try:
        from grader.jail import sandbox

        iso = sandbox.probe()
    except Exception as exc:  # noqa: BLE001 - a summary line must never fail the run
        terminalreporter.write_line(f"grading sandbox: not probed ({exc})")
        return
    swap = Path("/proc/swaps").read_text().count("\n") - 1 if Path("/proc/swaps").exists() else "?"
    terminalreporter.write_line(f"grading sandbox: bubblewrap {'yes' if iso.bwrap else 'no'}, "
                                f"memory cgroup {iso.cgroup or 'none'}, pids cgroup {iso.pids or 'none'}, "
                                f"swap devices {swap}, cpus {os.cpu_count()}")


@pytest.fixture
def private_tmp():
    """A fresh temporary folder for the processes a test starts (pass ``TMPDIR=str(private_tmp)`` in their
    environment). When the test ends, it must hold nothing of the grader's, the course's or torch's, and
    nothing another user can read (tests/harness/hygiene.py); then it is removed."""
    from tests.harness import hygiene

    folder = hygiene.new_private_tmp()
    try:
        yield folder
        assert hygiene.leftovers(folder) == [], f"left in the temporary folder: {hygiene.leftovers(folder)}"
        assert hygiene.readable_by_others(folder) == [], hygiene.readable_by_others(folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
