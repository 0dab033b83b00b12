"""The reference run of the second key: the course's solution, graded once per run and notebook.

Before the learners' jobs, each notebook of the run whose solution observes something
(``observe(`` in a test cell) is graded like a hand-in, in its own jailed kernel, with the run's
secret: its observations on the fresh inputs are the expected values (grader/judge/observations.py).
They never leave the grader's processes (but for the run's own cache, below): the learners' jobs
receive them in memory. A notebook whose solution observes nothing costs nothing and is graded
exactly as before.

A reference proves itself before any learner is graded: it is *complete*, an observation from every
graded test cell that observes (:func:`observing_cells`, the cells ``tests/test_observed_everywhere.py``
holds to it), none of them failed; a hole would accuse honest cells of forgery and leave a silenced
cheat to the kernel alone. A reference lost with a grading process (grader/jail/faults.py) runs again, up to
``settings.JOB_RETRIES`` times; one that ran out of time runs once more with its limits
``settings.REFERENCE_TIMEOUT_FACTOR`` times longer. A reference still incomplete stops the class run
(:class:`ReferenceFailed`: a plain error, a non-zero exit) before any learner's notebook is graded.

The complete references are kept with their secret in the run's reports folder (:class:`Cache`,
private to the instructor, keyed by the run's settings: the course sources' digest, the grader's,
the limits), so a run that was stopped and resumed does not pay for them twice; a run that ends
removes them, and the next one draws a new secret.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import nbformat

from grader import settings
from grader.judge.observations import ObserveSpec, Payloads, new_secret
from grader.records import CellKind, Status
from grader.run import jobs
from ptcourse import nbmodel

STUDENT = "reference"  # the reference job's student id (its private gradebook only)
CACHE_NAME = ".second-key.json"  # in the run's reports folder: a stopped run's complete references


class ReferenceFailed(Exception):
    """A reference run that could not prove itself: the class run stops, nobody is graded."""


def observing_cells(solution: Path) -> set[str]:
    """The graded test cells of the course's solution notebook (hidden tests included) that call ``observe(``."""
    nb = nbformat.read(str(solution), as_version=4)
    return {c.metadata["nbgrader"]["grade_id"] for c in nb.cells
            if nbmodel.role(c) == "test" and "observe(" in c.source and c.metadata.get("nbgrader", {}).get("points")}


def observes(solution: Path) -> bool:
    """Whether any graded test cell of the course's solution notebook calls ``observe(``."""
    return bool(observing_cells(solution))


def holes(outcome: jobs.JobOutcome, expected: set[str]) -> list[str]:
    """The cells of ``expected`` a reference run left without observations, or whose checks failed there."""
    if outcome.status != Status.GRADED:
        return sorted(expected)
    observed = outcome.record.observed or {}
    failed = {c.grade_id for c in outcome.record.checks if c.message}
    return sorted(g for g in expected if not observed.get(g) or g in failed)


def timed_out(outcome: jobs.JobOutcome) -> bool:
    """Whether a reference run ran out of time: the notebook's limit, or a cell's (a live kernel stopped)."""
    return outcome.status == Status.TIMEOUT or (
        outcome.record.kernel_death is None and any(c.kind == CellKind.STOPPED for c in outcome.record.checks))


def longer(limits: jobs.Limits) -> jobs.Limits:
    factor = settings.REFERENCE_TIMEOUT_FACTOR
    return dataclasses.replace(limits, cell_timeout=limits.cell_timeout * factor,
                               notebook_timeout=limits.notebook_timeout * factor)


@dataclasses.dataclass(frozen=True)
class Proven:
    """One notebook's reference: its observations (``None``: it never proved itself) and what it took."""

    notebook: str
    observed: Payloads | None
    retries: tuple[str, ...] = ()  # why each earlier try ran again
    why: str = ""  # why it failed, for the instructor


def prove(notebook: str, spec: jobs.JobSpec, expected: set[str],
          run: Callable[[jobs.JobSpec], jobs.JobOutcome]) -> Proven:
    """Run one reference until it is complete: again when it was lost, once more with longer limits
    when it ran out of time; else say why it failed."""
    retries: list[str] = []
    lost = extended = 0
    while True:
        try:
            outcome = run(spec)
        except Exception as exc:  # noqa: BLE001 - the grader's own failure: said, never a traceback
            outcome = jobs.JobOutcome.failed(Status.ERROR, f"grader error: {exc!r}")
        missing = holes(outcome, expected)
        if not missing:
            return Proven(notebook, outcome.record.observed, tuple(retries))
        if outcome.lost and lost < settings.JOB_RETRIES:
            lost += 1
            retries.append(f"lost ({outcome.lost})")
            continue
        if timed_out(outcome) and not extended:
            extended = 1
            spec = dataclasses.replace(spec, limits=longer(spec.limits))
            retries.append(f"out of time; run again with limits x{settings.REFERENCE_TIMEOUT_FACTOR} "
                           f"({spec.limits.cell_timeout} s a cell, {spec.limits.notebook_timeout} s in all)")
            continue
        detail = (outcome.detail or "").strip().splitlines()
        first = next((c.message for c in outcome.record.checks if c.message and c.grade_id in missing), "")
        why = (f"{outcome.status}" + (f": {detail[0][:200]}" if detail else "")
               + f"; no observations from {len(missing)} of its {len(expected)} observing cell(s): "
               + ", ".join(missing[:8]) + (f" (first: {first[:200]})" if first else ""))
        return Proven(notebook, None, tuple(retries), why)


class Cache:
    """The run's complete references and their secret, in one file only the grading user may read
    (``None`` path: no cache), for one run's settings (``key``)."""

    def __init__(self, path: Path | None, key: str):
        self.path, self.key = path, hashlib.sha256(key.encode()).hexdigest()[:20]
        self.secret, self.references = new_secret(), {}
        data = self._read()
        if data is not None:
            self.secret, self.references = data

    def _read(self) -> tuple[str, dict[str, Payloads]] | None:
        try:
            data = json.loads(self.path.read_text()) if self.path is not None else None
        except (OSError, ValueError):
            return None
        if (not isinstance(data, dict) or data.get("key") != self.key or not isinstance(data.get("secret"), str)
                or not isinstance(data.get("references"), dict)):
            return None
        return data["secret"], {k: v for k, v in data["references"].items() if isinstance(v, dict)}

    def save(self, notebook: str, observed: Payloads) -> None:
        self.references[notebook] = observed
        if self.path is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + ".part")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)  # the secret: the grading user's alone
        with os.fdopen(fd, "w") as f:
            json.dump({"key": self.key, "secret": self.secret, "references": self.references}, f)
        os.replace(tmp, self.path)

    def clear(self) -> None:
        if self.path is not None:
            self.path.unlink(missing_ok=True)


def second_keys(specs: list[jobs.JobSpec], masters: dict[str, nbmodel.CourseNotebook], source: Path, *,
                run: Callable[[jobs.JobSpec], jobs.JobOutcome], warn, workers: int = 1,
                cache: Cache | None = None) -> dict[str, ObserveSpec]:
    """For each notebook of ``specs`` that observes: its :class:`ObserveSpec` (the secret and the
    reference's observations). The reference jobs run with ``run`` (the executor's ``run_one``: the local
    pool's, or a Dask cluster's on its warmed workers; else :func:`grader.run.jobs.run_spec` with the
    driver's folders), ``workers`` at a time, before the class;
    those ``cache`` holds already are not run again. Raises :class:`ReferenceFailed` when any
    reference could not prove itself."""
    cache = cache or Cache(None, "")
    first: dict[str, jobs.JobSpec] = {}
    for spec in specs:
        first.setdefault(spec.notebook, spec)
    refs: dict[str, tuple[jobs.JobSpec, set[str]]] = {}
    for notebook, spec in first.items():
        solution = source / f"{notebook}.ipynb"
        expected = observing_cells(solution) if notebook in masters and solution.is_file() else set()
        if expected:
            refs[notebook] = (dataclasses.replace(spec, student=STUDENT, nb_bytes=solution.read_bytes(),
                                                  timestamp=None, due=None, allow_unsandboxed=True,
                                                  observe=ObserveSpec(cache.secret, None)), expected)
    todo = {n: r for n, r in refs.items() if n not in cache.references or holes(
        jobs.JobOutcome.failed(Status.GRADED, "", observed=cache.references[n]), r[1])}
    if todo:
        with ThreadPoolExecutor(max_workers=max(1, min(workers, len(todo)))) as pool:
            proven = list(pool.map(lambda item: prove(item[0], *item[1], run), todo.items()))
        failed = []
        for result in proven:  # in the class's order, whichever finished first
            if result.retries:
                warn(f"the reference run of {result.notebook} ran again: " + "; ".join(result.retries))
            if result.observed is None:
                failed.append(f"{result.notebook}: {result.why}")
            else:
                cache.save(result.notebook, result.observed)
        if failed:
            raise ReferenceFailed(
                "the second key's reference run failed, so no notebook was graded (a reference with holes would "
                "accuse honest answers and let forged ones through):\n  " + "\n  ".join(failed)
                + "\nFix the cause (on a slow machine, longer limits: --cell-timeout, --notebook-timeout) and "
                "run again; the references that did complete are kept for that run.")
    return {notebook: ObserveSpec(cache.secret, cache.references[notebook]) for notebook in refs}
