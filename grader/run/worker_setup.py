"""Set up and check a grading worker: the one script the worker image and the tests both use.

``python -m grader.run.worker_setup install`` installs the pinned environment and the course package
into the running Python and writes the Dask settings a grading worker needs
(:data:`DASK_CONFIG`); ``Dockerfile.worker`` runs exactly this. ``python -m grader.run.worker_setup
check`` prints what a worker holds (the course-sources digest of each day, its sandbox layers,
its CPUs) and fails when it could not grade; ``--scheduler local:N`` starts its workers with
the same :data:`DASK_CONFIG` and :func:`worker_env`, and the cluster tests run :func:`check` on
every worker. So the image and the tests cannot drift apart.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import subprocess
import sys
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from grader import settings
from grader.settings import COURSE_ROOT  # standard library only: `install` runs before nbgrader exists

# nbgrader runs as a child process of the job: a daemonic worker may not have children. A worker's
# death hands its jobs back to the grader at once, which retries them itself and says so in the
# report (grader/jail/faults.py, settings.JOB_RETRIES): the scheduler retrying them too would go unreported.
# Dask's statistical profiler (every worker samples every thread's stack 100 times a second, for the
# dashboard's profile page, which grading never reads) is off: on a worker with one CPU per job it took
# CPU from the jobs' kernels, a cost each notebook paid. Dask's event-loop health check (``admin.tick``, a
# warning when a loop is blocked past ``tick.limit``, 3 s) ticks every 200 ms instead of 20 ms, and its system
# monitor (the dashboard's CPU, memory and I/O history; the memory limits read the process's memory
# themselves) samples every 2 s instead of 0.5 s: an idle ``local:2`` cluster (scheduler, nannies, two
# workers) took 1.5-1.7 CPU-s every 20 s with Dask's defaults, 0.6 with these (distributed 2026.8.0,
# distributed.yaml; its own test suite ticks at 500 ms).
DASK_CONFIG = {"distributed.worker.daemon": False, "distributed.scheduler.allowed-failures": 0,
               "distributed.worker.profile.enabled": False, "distributed.admin.tick.interval": "200ms",
               "distributed.admin.system-monitor.interval": "2s"}


def config_yaml() -> str:
    """:data:`DASK_CONFIG` as a Dask YAML file (for ``/etc/dask/`` or ``~/.config/dask/``), nested as
    Dask's own files are. PyYAML comes with Dask: it is imported here, after :func:`install`'s pip."""
    import yaml

    nested: dict = {}
    for dotted, value in DASK_CONFIG.items():
        *parents, leaf = dotted.split(".")
        node = nested
        for key in parents:
            node = node.setdefault(key, {})
        node[leaf] = value
    return yaml.safe_dump(nested, default_flow_style=False, sort_keys=False)


def worker_env(cpus: int | None = None, hide: list[str] | None = None) -> dict[str, str]:
    """Environment for a worker process: its share of the CPUs and the driver's folders to hide."""
    env = {"DASK_DISTRIBUTED__WORKER__DAEMON": "False", "PYTHONPATH": os.pathsep.join(
        filter(None, [str(COURSE_ROOT), settings.environment().python_path]))}
    if cpus:
        env["PTGRADE_CPUS"] = str(cpus)
    if hide:
        env["PTGRADE_HIDE"] = os.pathsep.join(hide)
    return env


def install_commands(python: str = sys.executable) -> list[list[str]]:
    """The commands :func:`install` runs (pip only; the system packages are the image's)."""
    pip = [python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    # rfc3987-syntax costs every nbgrader process 1.5-2.5 s of import and checks nothing the course uses
    # (the Makefile's SLOW_IMPORT says why).
    slow = [python, "-m", "pip", "uninstall", "--quiet", "--yes", "rfc3987-syntax"]
    return [[*pip, "-r", str(COURSE_ROOT / "requirements-grader.txt")], [*pip, "--no-deps", "-e", str(COURSE_ROOT)], slow]


def install(config_dir: Path | None = None, dry_run: bool = False) -> list[list[str]]:
    """Install the pinned environment and the course package, and write the Dask settings."""
    commands = install_commands()
    target = Path(config_dir or settings.environment().dask_config or Path.home() / ".config" / "dask") / "ptgrader.yaml"
    if not dry_run:
        for cmd in commands:
            subprocess.run(cmd, check=True)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(config_yaml())
    return [*commands, ["write", str(target)]]


@dataclass(frozen=True)
class WorkerCheck:
    """What a worker holds and whether it can grade (``python -m grader.run.worker_setup check`` prints it as JSON)."""

    worker: str  # host:pid
    python: str
    sources: str  # the folder of the course sources
    digests: dict[str, str]  # day -> sources digest
    bwrap: str | None  # bubblewrap's path
    cgroup: str | None  # "v2", "v1" or None
    pids_cgroup: str | None
    cpus: int
    dask_worker_daemon: bool
    daemonic_now: bool
    problems: tuple[str, ...]
    course_digest: str = ""

    def to_json(self) -> dict:
        return {**asdict(self), "problems": list(self.problems)}


def check(build: bool = False) -> WorkerCheck:
    """What this worker holds and whether it can grade: digests per day, sandbox, CPUs, problems.

    ``build=True`` (inside ``docker build``) skips the sandbox, which only a running container has.
    """
    import dask

    from grader.grades import gradebook
    from grader.jail import sandbox
    from grader.run import jobs

    days = {}
    root = jobs.worker_sources("day1").parent
    for folder in sorted(root.glob("day*")):
        if any(folder.glob("*.ipynb")):
            days[folder.name] = gradebook.sources_digest(folder)
    iso = sandbox.probe()
    problems = []
    if not days:
        problems.append(f"no course sources in {root}")
    if not build:
        problems += iso.warnings()
    daemon = dask.config.get("distributed.worker.daemon", True)
    if daemon:
        problems.append("distributed.worker.daemon is true: nbgrader cannot start in a daemonic worker")
    return WorkerCheck(worker=jobs.whoami(), python=sys.executable, sources=str(root), digests=days, bwrap=iso.bwrap,
                       cgroup=iso.cgroup, pids_cgroup=iso.pids, cpus=jobs.worker_cpus(),
                       dask_worker_daemon=bool(daemon), daemonic_now=multiprocessing.current_process().daemon,
                       problems=tuple(problems))


def course_digest() -> str:
    """One digest of every day's course sources: the worker image's tag."""
    import hashlib

    from grader.grades import gradebook
    from grader.run import jobs

    root = jobs.worker_sources("day1").parent
    digest = hashlib.sha256()
    for folder in sorted(root.glob("day*")):
        if any(folder.glob("*.ipynb")):
            digest.update(f"{folder.name}={gradebook.sources_digest(folder)}\n".encode())
    return digest.hexdigest()[:16]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m grader.run.worker_setup", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    inst = sub.add_parser("install", help="pip install the pinned environment and the course; write the Dask settings")
    inst.add_argument("--config-dir", type=Path, help="where ptgrader.yaml goes (default $DASK_CONFIG or ~/.config/dask)")
    inst.add_argument("--dry-run", action="store_true", help="print the commands only")
    chk = sub.add_parser("check", help="print what this worker holds; exit 1 if it could not grade")
    chk.add_argument("--build", action="store_true", help="inside docker build: skip the sandbox checks")
    chk.add_argument("--digest", default="", help="fail unless the course sources have this digest (the image tag)")
    sub.add_parser("digest", help="print the course-sources digest (tag the worker image with it)")
    args = parser.parse_args(argv)
    if args.command == "digest":
        print(course_digest())
        return 0
    if args.command == "install":
        for cmd in install(args.config_dir, args.dry_run):
            print(" ".join(cmd))
        return 0
    report = replace(check(build=args.build), course_digest=course_digest())
    if args.digest and args.digest != report.course_digest:
        report = replace(report, problems=(*report.problems,
                                           f"course digest {report.course_digest}, expected {args.digest}"))
    print(json.dumps(report.to_json(), indent=1))
    return 1 if report.problems else 0


if __name__ == "__main__":
    sys.exit(main())
