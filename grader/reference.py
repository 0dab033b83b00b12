"""The reference run of the second key: the course's solution, graded once per run and notebook.

Before the learners' jobs, each notebook of the run whose solution observes something
(``observe(`` in a test cell) is graded like a hand-in, in its own jailed kernel, with the run's
secret: its observations on the fresh inputs are the expected values (grader/observations.py).
They never leave the grader's processes: the learners' jobs receive them in memory. A notebook
whose solution observes nothing costs nothing and is graded exactly as before.

When a reference run fails (the course's own notebook: a time limit on a slow machine, say) that
notebook is graded without the second key, and the run says so in its warnings and its log.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import nbformat

from grader import jobs
from grader.observations import ObserveSpec, new_secret
from ptcourse import nbmodel

STUDENT = "reference"  # the reference job's student id (its private gradebook only)


def observes(solution: Path) -> bool:
    """Whether any test cell of the course's solution notebook (hidden tests included) calls ``observe(``."""
    nb = nbformat.read(str(solution), as_version=4)
    return any(nbmodel.role(c) == "test" and "observe(" in c.source for c in nb.cells)


def second_keys(specs: list[jobs.JobSpec], masters: dict[str, nbmodel.CourseNotebook], source: Path, *,
                run: Callable[[jobs.JobSpec], jobs.JobOutcome], warn, workers: int = 1) -> dict[str, ObserveSpec]:
    """For each notebook of ``specs`` that observes: its :class:`ObserveSpec` (the secret and the
    reference's observations). The reference jobs run here with ``run`` (the local pool's ``run_here``,
    or :func:`grader.jobs.run_spec` with the driver's folders), ``workers`` at a time, before the class."""
    secret = new_secret()
    first: dict[str, jobs.JobSpec] = {}
    for spec in specs:
        first.setdefault(spec.notebook, spec)
    refs = {}
    for notebook, spec in first.items():
        solution = source / f"{notebook}.ipynb"
        if notebook in masters and solution.is_file() and observes(solution):
            refs[notebook] = dataclasses.replace(spec, student=STUDENT, nb_bytes=solution.read_bytes(),
                                                 timestamp=None, due=None, allow_unsandboxed=True,
                                                 observe=ObserveSpec(secret, None))
    if not refs:
        return {}
    with ThreadPoolExecutor(max_workers=max(1, min(workers, len(refs)))) as pool:
        outcomes = dict(zip(refs, pool.map(run, refs.values()), strict=True))
    out: dict[str, ObserveSpec] = {}
    for notebook, outcome in outcomes.items():  # in the class's order, whichever finished first
        if outcome.status != "graded" or outcome.observed is None:
            warn(f"the reference run of {notebook} failed ({outcome.status}: "
                 f"{(outcome.detail or '').splitlines()[0][:200] if outcome.detail else 'no observations'}); "
                 f"{notebook} was graded without the second key")
            continue
        out[notebook] = ObserveSpec(secret, outcome.observed)
    return out
