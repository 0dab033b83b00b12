"""Where a class's jobs run: the :class:`Executor` protocol, and the local pool behind it.

An executor takes ``[(key, JobSpec)]`` and yields ``(key, JobOutcome)`` as jobs finish; the driver
(:mod:`grader.run.engine`) alone merges the outcomes and writes. Two stand behind the protocol:

* :class:`LocalPool` (the default): ``workers`` jobs at once in threads of this process, each job its
  own processes; it owns its warm kernels (a :class:`grader.jail.zygote.Pool`);
* :class:`grader.run.cluster.DaskExecutor` (``--scheduler``): the jobs on a Dask cluster's workers, each
  worker with its own sources, template, sandbox and warm kernels.

Both are used the same way, once made (``engine.Grader.executor``; a Dask cluster is started or
connected to then): :meth:`Executor.warm_up` with the run's jobs (fork servers, warm kernels,
one-notebook templates, on each worker), then :meth:`Executor.run`, then :meth:`Executor.close`. Both can
also run one job and wait for it (``run_one``: the second key's reference runs, on their warm kernels;
the engine runs them itself for an executor without it). A kernel's thread count is decided in one place, :func:`grader.run.jobs.kernel_limits`,
from the number of jobs a process runs at once (its ``slots``): the local pool's ``workers``, a Dask
worker's threads.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import Protocol, runtime_checkable

from grader import settings
from grader.jail import zygote
from grader.run import jobs

Item = tuple[Hashable, jobs.JobSpec]


@runtime_checkable
class Executor(Protocol):
    """What the driver needs of a place that runs jobs."""

    name: str  # said in the run's summary ("local pool", "dask local:2", "dask tcp://...")
    in_process: bool  # jobs run in this process, with the driver's folders, sandbox and limits

    def warm_up(self, items: Sequence[Item]) -> None:
        """Before the first job: ready what the jobs of ``items`` need (never fatal: jobs start the rest)."""

    def run(self, items: Sequence[Item]) -> Iterator[tuple[Hashable, jobs.JobOutcome]]:
        """Run every job; yield each one's key and outcome as it finishes (a failure is an outcome)."""

    def close(self) -> None:
        """Stop what the executor started (its warm kernels, its cluster)."""


def retrying(executor: Executor, items: Sequence[Item], retries: int = settings.JOB_RETRIES
             ) -> Iterator[tuple[Hashable, jobs.JobOutcome]]:
    """``executor.run(items)``, with every *lost* job (a grading process died: ``JobOutcome.lost``,
    grader/jail/faults.py) run again, in fresh processes, at most ``retries`` more times, after the others of
    its round. Each outcome carries why its earlier tries were lost (``retries``), for the report; a job
    still lost after the last try comes back lost (the driver says it could not be graded)."""
    specs = dict(items)
    history: dict[Hashable, list[str]] = {}
    batch = list(items)
    while batch:
        again = []
        for key, outcome in executor.run(batch):
            tries = history.setdefault(key, [])
            if outcome.lost and len(tries) < retries:
                tries.append(outcome.lost)
                again.append((key, specs[key]))
                continue
            outcome.retries = tuple(tries)
            yield key, outcome
        batch = again


def in_process(executor: object | None, scheduler: str | None) -> bool:
    """Whether a run's jobs run in this process: the local pool, unless an executor is passed in (then
    its ``in_process``) or a scheduler named. Worked out once per run (engine.Grader)."""
    if executor is not None:
        return bool(getattr(executor, "in_process", False))
    return not scheduler


class LocalPool:
    """The default executor: ``workers`` jobs at once in threads, each job its own processes, and the
    run's warm kernels (``zygotes``), started in :meth:`warm_up` and stopped in :meth:`close`."""

    name = "local pool"
    in_process = True

    def __init__(self, workers: int, work_root: Path, source: Path, template: Path, hide: list[Path]):
        self.workers, self.work_root, self.source, self.template, self.hide = (
            workers, work_root, source, template, hide)
        self.zygotes = zygote.Pool()

    def warm_up(self, items: Sequence[Item]) -> None:
        """The fork server and a warm zygote per worker, side by side, before the first job (the zygotes
        live until :meth:`close`: their pool starts them from a thread of its own)."""
        if items:
            jobs.warm_up(items[0][1], min(self.workers, len(items)), work_root=self.work_root, hide=self.hide,
                         template=self.template, notebooks=[spec.notebook for _, spec in items],
                         slots=self.workers, zygotes=self.zygotes, source=self.source)

    def run_one(self, spec: jobs.JobSpec) -> jobs.JobOutcome:
        """One job in the calling thread, as the pool runs it (the second key's reference runs)."""
        return jobs.run_spec(spec, work_root=self.work_root, source=self.source, template=self.template,
                             hide=self.hide, slots=self.workers, zygotes=self.zygotes)

    def run(self, items: Sequence[Item]) -> Iterator[tuple[Hashable, jobs.JobOutcome]]:
        with ThreadPoolExecutor(max_workers=self.workers) as pool:
            futures = {pool.submit(self.run_one, spec): key for key, spec in items}
            for future in as_completed(futures):
                try:
                    outcome = future.result()
                except Exception as exc:  # the grader's own failure: reported, never fatal
                    outcome = jobs.JobOutcome.failed(jobs.Status.ERROR, f"grader error: {exc!r}")
                yield futures[future], outcome

    def close(self) -> None:
        self.zygotes.close_all()  # this run's zygotes (a zygote holds torch in memory)
