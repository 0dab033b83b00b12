"""``make test-cpu``: the whole suite, with the CPU time every test file really costs.

``/usr/bin/time make test`` counts only the children the test processes reap: the grader's warm
kernels, the processes its zygotes fork and the browsers are not all among them, and it reported
about half of the suite's CPU (1,066 of 2,062 CPU-s, 2026-12). This pytest plugin puts each test
process (each xdist worker) in a cpuacct cgroup of its own, which counts every process it starts,
however they end, and reads the cgroup's counter around each test. The controller adds them up by
test file (the notebooks' tests by notebook) and writes ``bench-results/suite-cpu.json``, then
prints the total and the most costly files. Where no cpuacct cgroup can be made (cgroup v2 only,
or no permission), it says so and counts what ``getrusage`` sees (the undercount above).

    python -m pytest -p tools.suite_cpu -n 2 --dist loadgroup      # what make test-cpu runs
"""

from __future__ import annotations

import json
import os
import resource
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import pytest

CPUACCT = Path("/sys/fs/cgroup/cpuacct")
OUT = Path(__file__).resolve().parents[1] / "bench-results" / "suite-cpu.json"
TOP = 25
PREFIX = "ptcourse-suite-"  # the cgroups' names: PREFIX<controller's pid>-<worker>


@dataclass
class Meter:
    """Where this process reads its CPU seconds: its own cgroup's counter, or getrusage."""

    cgroup: Path | None = None
    why_not: str = ""

    @classmethod
    def start(cls, worker: str) -> Meter:
        group = CPUACCT / f"{PREFIX}{os.getppid() if worker != 'main' else os.getpid()}-{worker}"
        try:
            group.mkdir(exist_ok=True)
            (group / "cgroup.procs").write_text(str(os.getpid()))
            return cls(group)
        except OSError as exc:
            return cls(None, f"no cpuacct cgroup ({exc.strerror or exc}): getrusage counts reaped children only")

    def seconds(self) -> float:
        if self.cgroup is not None:
            return int((self.cgroup / "cpuacct.usage").read_text()) / 1e9
        own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def bucket(nodeid: str) -> str:
    """What a test's CPU is added to: its file, or for a test of one notebook, the file and notebook."""
    path, _, rest = nodeid.partition("::")
    params = rest[rest.find("[") + 1:-1] if "[" in rest else ""
    notebook = next((p for p in params.split("-") if p.startswith("day") and "/" in p), "")
    return f"{path}[{notebook.split('::')[0]}]" if notebook else path


_meter: Meter | None = None


def pytest_configure(config):
    global _meter
    worker = getattr(config, "workerinput", {}).get("workerid")
    if worker is not None or getattr(config.option, "numprocesses", None) in (None, 0):
        _meter = Meter.start(worker or "main")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    item._suite_cpu_start = (_meter.seconds(), time.monotonic()) if _meter is not None else None
    yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """After a test's teardown: its CPU and wall time (setup and teardown included), sent with the report
    (xdist hands ``user_properties`` to the controller)."""
    outcome = yield
    start = getattr(item, "_suite_cpu_start", None)
    if call.when == "teardown" and start is not None:
        outcome.get_result().user_properties.append(
            ("suite_cpu", (_meter.seconds() - start[0], time.monotonic() - start[1])))


_TOTALS: list[tuple[str, float, float]] = []  # the controller's: (test id, CPU-s, wall s)


def pytest_runtest_logreport(report):
    if report.when == "teardown":
        _TOTALS.extend((report.nodeid, *value) for key, value in report.user_properties if key == "suite_cpu")


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if hasattr(config, "workerinput") or not _TOTALS:
        return
    files: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0])
    for nodeid, cpu, wall in _TOTALS:
        entry = files[bucket(nodeid)]
        entry[0] += cpu
        entry[1] += wall
        entry[2] += 1
    total = sum(cpu for _, cpu, _ in _TOTALS)
    rows = sorted(({"where": k, "cpu_s": round(v[0], 1), "wall_s": round(v[1], 1), "tests": v[2]}
                   for k, v in files.items()), key=lambda r: -r["cpu_s"])
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(json.dumps({"cpu_s": round(total, 1), "tests": len(_TOTALS), "measured_by": _how(config),
                               "files": rows, "costliest_tests": costliest(_TOTALS)}, indent=1))
    write = terminalreporter.write_line
    write(f"suite CPU: {total:.0f} CPU-s over {len(_TOTALS)} tests ({_how(config)}); every file: {OUT}")
    for row in rows[:TOP]:
        write(f"{row['cpu_s']:8.1f} CPU-s {row['wall_s']:8.1f} s {row['tests']:5d} tests  {row['where']}")


def pytest_unconfigure(config):
    _close()
    if hasattr(config, "workerinput"):
        return
    for group in CPUACCT.glob(f"{PREFIX}{os.getpid()}-*"):  # the workers' own, now that they have ended
        try:
            group.rmdir()
        except OSError:
            pass  # a process of theirs still running: the empty group stays (it costs nothing)


def costliest(totals: list[tuple[str, float, float]], n: int = 200) -> list[dict]:
    """The ``n`` tests that cost the most CPU (a session fixture's set-up counts for the first test that uses it)."""
    top = sorted(totals, key=lambda t: -t[1])[:n]
    return [{"test": nodeid, "cpu_s": round(cpu, 1), "wall_s": round(wall, 1)} for nodeid, cpu, wall in top]


def _how(config) -> str:
    """How the figures were measured: the workers' cgroups are theirs; the controller checks it can make one."""
    probe = _meter or Meter.start("probe")
    if probe is not _meter:
        _close(probe)
    return "cpuacct cgroups" if probe.cgroup is not None else probe.why_not


def _close(meter: Meter | None = None, wait_s: float = 2.0) -> None:
    """Leave the cgroup and remove it once empty (a process started in it may take a moment to end)."""
    meter = meter or _meter
    if meter is None or meter.cgroup is None:
        return
    try:
        (CPUACCT / "cgroup.procs").write_text(str(os.getpid()))
    except OSError:
        return
    deadline = time.monotonic() + wait_s
    while (meter.cgroup / "cgroup.procs").read_text().strip() and time.monotonic() < deadline:
        time.sleep(0.05)
    try:
        meter.cgroup.rmdir()
    except OSError:
        pass  # a process of the tests still running: the empty group stays (it costs nothing)
