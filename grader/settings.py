"""The grader's settings, each defined once with its default: the course's folders, the limits per
notebook, and every environment variable the grader reads (:class:`Environment`; the course
package's own are :mod:`ptcourse.settings`, which cannot import the grader).

No other module of the grader reads ``os.environ`` (tests/test_settings.py greps for it): each asks
:func:`environment` for the typed record. A setting is marked ``grades=True`` when it can change a
grade; the run's fingerprint (``grader.run.engine.RunSettings``) hashes every such setting, so a setting
added later is covered without anyone listing it there (tests/test_settings.py toggles each one).

Standard library only: ``grader/nbgrader_config.py`` and ``grader/run/worker_setup.py`` (which runs
before the course's packages are installed) read it too.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ptcourse.settings import SettingError, grade_changing, read_settings, setting  # noqa: F401 - the grader's names too

GRADER_DIR = Path(__file__).resolve().parent
COURSE_ROOT = GRADER_DIR.parent
CACHE = GRADER_DIR / ".cache"  # what the grader makes once per machine: template gradebooks, Inductor seeds
COURSE_ID = "pytorch-in-three-days"  # nbgrader's course id

# -- limits per notebook (the defaults of grader.run.jobs.Limits and of the command line's options) --
CELL_TIMEOUT_S = 120  # a cell past it is interrupted (nbgrader's Execute.timeout; the learner's self-check too)
NOTEBOOK_TIMEOUT_S = 600
MEMORY_BYTES = 2 * 1024**3  # the kernel and everything it starts, as on Binder
OUTPUT_BYTES = 1024**2  # what one cell may print
DISK_BYTES = 1024**3  # files the kernel may write (its folder, and a warm kernel's /tmp)
IOPUB_TIMEOUT_S = 30  # how long a cell's last output messages may lag behind its reply (grader.run.jobs)

# -- what the grader reads from a learner's kernel, checked before it is parsed (grader/jail/bounds.py) ---------
MESSAGE_BYTES = 16 * 1024**2  # one part of one kernel message (its header, content...), and its buffers together
MESSAGE_DEPTH = 64  # lists and dicts nested in one message part
NOTEBOOK_DEPTH = 100  # lists and dicts nested in a handed-in notebook file (grader/intake/submissions.py)
ERROR_BYTES = 64 * 1024  # an error output's traceback kept in the notebook (its last lines)
# -- observations (grader/judge/observations.py) --
OBSERVED_CELL_BYTES = 32 * 1024**2  # what one test cell may send as observations
OBSERVATIONS_PER_CELL = 256  # how many values one test cell may observe
OBSERVATION_BYTES = 16 * 1024**2  # one observed array, as its header claims it (checked before it is read)
OBSERVATION_NDIM = 32  # dimensions of one observed array
OBSERVATION_DEPTH = 32  # lists nested in one observed JSON value
OBSERVATION_NAME = 200  # characters of an observation's name

# -- the grader's own faults (grader/jail/faults.py) ------------------------------------------------------
# A job whose grading process died (its Dask worker, its fork server, the job process itself: a signal,
# the OOM killer), not through the learner's code, runs again in a fresh process, at most this many
# more times; each retry is in the class report. A notebook still lost then "could not be graded".
JOB_RETRIES = 2
# A reference run (grader/run/reference.py) that ran out of time (the notebook's limit, or a cell's) runs
# once more with both limits this many times longer, before the class run stops.
REFERENCE_TIMEOUT_FACTOR = 3

# -- environment variables ------------------------------------------------------------------------
# The record machinery (a field per variable, reading, the grade-changing ones) is the course package's,
# which cannot import the grader: both records are made the same way, by the same code.
def _flag_on(value: str) -> bool:  # "1" turns it on
    return value == "1"


def _not_off(value: str) -> bool:  # on unless "off"
    return value != "off"


def _any(value: str) -> bool:  # on when set to anything
    return value != ""


def _count(value: str) -> int:
    return max(1, int(value))


def _paths(value: str) -> tuple[str, ...]:
    return tuple(p for p in value.split(os.pathsep) if p)


def _cgroup(value: str) -> str:
    if value not in ("all", "memory", "off"):
        raise ValueError("all, memory or off")
    return value


@dataclass(frozen=True)
class Environment:
    """Every environment variable the grader reads, typed, with its default (read by :func:`environment`).

    ``grades=True``: the value can change a grade, so a rerun with another value grades again.
    The instructor's environment, never passed to a learner's kernel."""

    gpu: bool = setting("PTGRADE_GPU", "1: grade with --gpu by default (the kernels see the NVIDIA GPU)",
                        grades=True, default=False, parse=_flag_on)
    cpus: int | None = setting("PTGRADE_CPUS", "CPUs a cluster worker may use (workers sharing one machine); "
                               "default: its CPU quota", grades=False, parse=_count)
    course_sources: str | None = setting(
        "PTGRADE_COURSE_SOURCES", "where a cluster worker finds the course sources (<dir>/<day>); default: solutions/",
        grades=False)  # the driver's sources' digest is in the fingerprint already
    hide: tuple[str, ...] = setting("PTGRADE_HIDE", "more folders, separated by ':', hidden from kernels even inside what the jail shows",
                                    grades=True, default=(), parse=_paths)  # what a kernel may read
    keep: bool = setting("PTGRADE_KEEP", "1: keep each job's folder (to debug the grader itself)",
                         grades=False, default=False, parse=_any)
    zygote: bool = setting("PTGRADE_ZYGOTE", "off: no warm kernels, every kernel starts the classic way",
                           grades=False, default=True, parse=_not_off)  # the same kernel, started sooner
    cgroup: str = setting("PTGRADE_CGROUP", "off: no cgroups (the polling watchdog); memory: a memory cgroup only "
                          "(tests)", grades=True, default="all", parse=_cgroup)  # how the limits are enforced
    guard: bool = setting("PTGRADE_GUARD", "off: no integrity guard (tests that show what a cheat earns without it)",
                          grades=True, default=True, parse=_not_off)
    second_key: bool = setting(
        "PTGRADE_SECOND_KEY", "off: no second key, the kernel's checks alone (tests that show what a cheat earns "
        "without it)", grades=True, default=True, parse=_not_off)
    jail: str | None = setting("PTGRADE_JAIL", "set by the grader for each job's nbgrader process: the job's jail "
                               "description", grades=False)
    fault: str | None = setting("PTGRADE_FAULT", "tests only: a folder of files, each naming a grading process to "
                                "kill once, mid-job (grader/jail/faults.py)", grades=False)
    gradescope_root: str | None = setting(
        "PTGRADE_GRADESCOPE_ROOT", "where run_autograder finds submission/ and writes results/ (Gradescope: "
        "/autograder)", grades=False)
    # Others' variables the grader reads too (not in the README's table).
    python_path: str = setting("PYTHONPATH", "Python's: where a job's and a worker's processes also look for "
                               "modules (the course root goes first)", grades=False, default="")
    cxx: str = setting("CXX", "the C++ compiler Inductor uses: part of the Inductor seed's fingerprint",
                       grades=False, default="")
    dask_config: str | None = setting("DASK_CONFIG", "Dask's: the folder its settings live in (worker_setup "
                                      "writes ptgrader.yaml there)", grades=False)


def environment(environ: Mapping[str, str] | None = None) -> Environment:
    """The grader's environment settings, read now (a test's ``monkeypatch.setenv`` counts)."""
    return read_settings(Environment, environ)


def _documented(record_type, prefix: str) -> dict[str, str]:
    return {f.metadata["env"]: f.metadata["doc"] for f in dataclasses.fields(record_type)
            if f.metadata["env"].startswith(prefix)}


# Read outside Python (run_autograder, a shell script), or by the tests and maintainer tools alone.
OTHER_VARIABLES = {
    "PTGRADE_GRADESCOPE_PYTHON": "the Python run_autograder grades with; default: the one setup.sh chose",
    "PTCOURSE_MUTANT_RECORD": "a .jsonl file: the mutant tests record what each mutant showed",
    "PTCOURSE_XDIST_GROUPS": "set by the test suite: where test processes write their groups",
    "PTCOURSE_SOAK_TAG": "set by make soak: marks every process of a soak run, to find leftovers",
}
# name -> what it does: the grader's (the README's table lists these and ptcourse.settings.ENVIRONMENT)
ENVIRONMENT = {**_documented(Environment, "PTGRADE_"), **OTHER_VARIABLES}
