"""The grader's settings, each defined once with its default: the course's folders, the limits per
notebook, and every environment variable the grader and the course package read.

Standard library only: ``grader/nbgrader_config.py`` and ``grader/worker_setup.py`` (which runs
before the course's packages are installed) read it too.
"""

from __future__ import annotations

from pathlib import Path

GRADER_DIR = Path(__file__).resolve().parent
COURSE_ROOT = GRADER_DIR.parent
CACHE = GRADER_DIR / ".cache"  # what the grader makes once per machine: template gradebooks, Inductor seeds
COURSE_ID = "pytorch-in-three-days"  # nbgrader's course id

# -- limits per notebook (the defaults of grader.jobs.Limits and of the command line's options) --
CELL_TIMEOUT_S = 120  # a cell past it is interrupted (nbgrader's Execute.timeout; the learner's self-check too)
NOTEBOOK_TIMEOUT_S = 600
MEMORY_BYTES = 2 * 1024**3  # the kernel and everything it starts, as on Binder
OUTPUT_BYTES = 1024**2  # what one cell may print
DISK_BYTES = 1024**3  # files the kernel may write (its folder, and a warm kernel's /tmp)
IOPUB_TIMEOUT_S = 30  # how long a cell's last output messages may lag behind its reply (grader.jobs)

# -- environment variables: name -> what it does (the README's table lists the same) -----------------
ENVIRONMENT = {
    # the grader (the instructor's environment; never passed to a learner's kernel)
    "PTGRADE_GPU": "1: grade with --gpu by default (the kernels see the NVIDIA GPU)",
    "PTGRADE_CPUS": "CPUs a cluster worker may use (workers sharing one machine); default: its CPU quota",
    "PTGRADE_COURSE_SOURCES": "where a cluster worker finds the course sources (<dir>/<day>); default: solutions/",
    "PTGRADE_HIDE": "more folders, separated by ':', hidden from kernels even inside what the jail shows",
    "PTGRADE_KEEP": "1: keep each job's folder (to debug the grader itself)",
    "PTGRADE_ZYGOTE": "off: no warm kernels, every kernel starts the classic way",
    "PTGRADE_CGROUP": "off: no cgroups (the polling watchdog); memory: a memory cgroup only (tests)",
    "PTGRADE_GUARD": "off: no integrity guard (tests that show what a cheat earns without it)",
    "PTGRADE_SECOND_KEY": "off: no second key, the kernel's checks alone (tests that show what a cheat earns without it)",
    "PTGRADE_JAIL": "set by the grader for each job's nbgrader process: the job's jail description",
    "PTGRADE_GRADESCOPE_ROOT": "where run_autograder finds submission/ and writes results/ (Gradescope: /autograder)",
    "PTGRADE_GRADESCOPE_PYTHON": "the Python run_autograder grades with; default: the one setup.sh chose",
    # the course package (learners' kernels may receive these)
    "PTCOURSE_LANG": "the language of messages (en, zh-CN; qps: pseudo-localised); default: .ptcourse-lang, en",
    "PTCOURSE_DEVICE": "the device ptcourse.setup picks (cpu, cuda, mps); default: the best available",
    "PTCOURSE_THREADS": "PyTorch threads; default: the CPUs really available",
    "PTCOURSE_DATA": "the data/ folder",
    "PTCOURSE_MNIST_ROOT": "a folder with the full MNIST (torchvision's layout); default: the bundled sample",
    "PTCOURSE_PROGRESS": "the progress file (.ptcourse-progress.json) of the course home",
    "PTCOURSE_MEMORY_CHECK": "0: no memory warning when a notebook starts",
    # the tests and maintainer tools
    "PTCOURSE_MUTANT_RECORD": "a .jsonl file: the mutant tests record what each mutant showed",
    "PTCOURSE_XDIST_GROUPS": "set by the test suite: where test processes write their groups",
    "PTCOURSE_SOAK_TAG": "set by make soak: marks every process of a soak run, to find leftovers",
}
