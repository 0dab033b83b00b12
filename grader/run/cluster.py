"""Grading on a Dask cluster: the executor behind ``python -m grader grade DAY --scheduler ADDRESS``.

Each job is a :class:`grader.run.jobs.JobSpec` sent to a Dask worker, which runs
:func:`run_on_worker` (:func:`grader.run.jobs.run_spec`: its own course sources checked against the
digest, its own template gradebook, its own sandbox and thread count) and sends back a
:class:`grader.run.jobs.JobOutcome`. The driver merges the outcomes as they arrive and stays the
only writer of the gradebook, the feedback and the reports (:mod:`grader.run.engine`).

``local:N`` starts a ``LocalCluster`` of N worker processes for the run (tests, one big
machine). Faults are the grader's to handle, as on the local pool: the scheduler hands every job
whose worker died back at once (``distributed.scheduler.allowed-failures: 0``, so the run knows),
as a *lost* job that the driver runs again elsewhere (:func:`grader.run.executors.retrying`,
``settings.JOB_RETRIES`` more times) and reports; a job lost every time could not be graded.
"""

from __future__ import annotations

import logging
import sys
import time
import uuid
from pathlib import Path

from grader import scratch, security
from grader.grades.gradebook import COURSE_ROOT
from grader.jail import zygote
from grader.run import jobs, worker_setup

# This worker process's warm kernels (when it is a Dask worker): its jobs check them out and give them back.
WORKER_ZYGOTES = zygote.Pool()


def run_on_worker(spec: jobs.JobSpec) -> jobs.JobOutcome:
    """The remote task: one job on this worker, its paths scrubbed from what goes back."""
    try:
        from distributed import get_worker

        slots = get_worker().state.nthreads
    except (ImportError, ValueError, AttributeError):
        slots = 1
    work_root = scratch.process_folder("worker")  # private, removed when the worker ends, swept if it is killed
    outcome = jobs.run_spec(spec, work_root=work_root, slots=slots, zygotes=WORKER_ZYGOTES)
    private = [str(work_root), str(COURSE_ROOT), sys.prefix, sys.base_prefix, str(Path.home())]
    if outcome.status != jobs.Status.REFUSED:  # a refusal names the worker's folders on purpose
        outcome.record = outcome.record.scrubbed(lambda text: security.scrub(text, private))
    return outcome


def warm_worker(spec: jobs.JobSpec, notebooks: list[str]) -> int:
    """On one worker, before its first job: its fork server, a zygote per thread and the one-notebook
    templates (jobs.warm_up), for the jobs :func:`run_on_worker` will run there. Returns the zygotes ready."""
    try:
        from distributed import get_worker

        slots = get_worker().state.nthreads
    except (ImportError, ValueError, AttributeError):
        slots = 1
    try:
        source = jobs.worker_sources(spec.day)
        if jobs.refusal(spec, source, jobs.worker_isolation(spec.sandbox)) is not None:
            return 0  # its jobs say why
        work_root = scratch.process_folder("worker")  # as run_on_worker's
        return jobs.warm_up(spec, slots, work_root=work_root, slots=slots, template=jobs.worker_template(spec.day, source),
                            notebooks=notebooks, zygotes=WORKER_ZYGOTES)
    except Exception:  # noqa: BLE001 - the jobs start what they need themselves
        return 0


class DaskExecutor:
    """Runs job specs on a Dask cluster; yields ``(key, JobOutcome)`` as they finish (a
    :class:`grader.run.executors.Executor`, as the local pool is)."""

    in_process = False  # each worker grades with its own sources, template, sandbox and thread count

    def __init__(self, client, cluster=None, name: str = "dask"):
        self.client, self.cluster, self.name = client, cluster, name

    @classmethod
    def local(cls, n: int, hide: list[Path] | tuple = (), threads_per_worker: int = 1) -> DaskExecutor:
        """A ``LocalCluster`` of ``n`` worker processes on this machine, sharing its CPUs."""
        import dask
        from distributed import Client, LocalCluster

        from ptcourse.cpus import available_cpus

        cpus = jobs.cpu_share(available_cpus(), n)
        env = worker_setup.worker_env(cpus=cpus, hide=[str(p) for p in hide])
        # Set for good, not in a `with`: the nanny reads the daemon flag again when it restarts a worker.
        dask.config.set(worker_setup.DASK_CONFIG)
        # Dask's own scratch space (the scheduler's and the workers' dask-scratch-space) inside this process's
        # private folder, gone with it.
        dask.config.set({"temporary-directory": str(scratch.process_folder() / "dask")})
        cluster = LocalCluster(n_workers=n, threads_per_worker=threads_per_worker, processes=True,
                               dashboard_address=None, silence_logs=logging.ERROR, env=env,
                               local_directory=str(scratch.process_folder() / "dask"))
        client = Client(cluster)
        return cls(client, cluster, name=f"dask local:{n}")

    @classmethod
    def connect(cls, address: str, log=print) -> DaskExecutor:
        """A running cluster's scheduler (``tcp://host:8786``)."""
        from distributed import Client

        client = Client(address, timeout="30s")
        workers = client.scheduler_info().get("workers", {})
        try:
            allowed = client.run_on_scheduler(_allowed_failures)
        except Exception:  # noqa: BLE001 - an older or locked-down scheduler: just don't say
            allowed = None
        log(f"dask: {address}, {len(workers)} worker(s)")
        if allowed is not None and allowed > 0:
            log(f"dask: the scheduler retries a job whose worker died {allowed} time(s) itself, unreported, before "
                "the grader's own retries; start it with DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES=0 "
                "(README: Grading on a cluster)")
        return cls(client, None, name=f"dask {address}")

    def run(self, items):
        """Each job on a worker (its warm-up first: :meth:`warm_up`)."""
        from distributed import as_completed
        from distributed.client import FutureCancelledError

        try:
            from distributed.scheduler import KilledWorker
        except ImportError:  # pragma: no cover - moved between releases
            from distributed import KilledWorker

        futures = {}
        for key, spec in items:
            name = f"grade-{spec.day}-{spec.student}-{spec.notebook}-{uuid.uuid4().hex[:8]}"
            futures[self.client.submit(run_on_worker, spec, key=name, pure=False)] = key
        for future in as_completed(futures):
            try:
                outcome = future.result()
            except KilledWorker:  # the scheduler gives every worker death back (allowed-failures: 0): a lost job
                lost = "its Dask worker died (a signal, the OOM killer, memory past the worker's limit, or a crash)"
                outcome = jobs.JobOutcome.failed(jobs.Status.ERROR, f"lost: {lost}", lost=lost)
            except FutureCancelledError as exc:
                outcome = jobs.JobOutcome.failed(jobs.Status.ERROR, f"the cluster cancelled this job ({exc})")
            except Exception as exc:  # noqa: BLE001 - the grader's own failure: reported, never fatal
                outcome = jobs.JobOutcome.failed(jobs.Status.ERROR, f"grader error on the cluster: {exc!r}")
            key = futures[future]
            future.release()
            yield key, outcome

    def run_one(self, spec: jobs.JobSpec) -> jobs.JobOutcome:
        """One job on the cluster, waited for: the second key's reference runs (grader.run.engine), on a worker's
        warm kernels (:meth:`warm_up` came first) rather than on kernels, a fork server and nbgrader the driver
        would start for them alone (about 4 CPU-s a run). A lost reference comes back lost, as any job does."""
        ((_, outcome),) = list(self.run([(0, spec)]))
        return outcome

    def warm_up(self, items, most_s: float = 600) -> None:
        """Each worker readies itself for ``items`` (:func:`warm_worker`), pinned to that worker, on the
        thread that then runs its jobs; waited for until done, or until its worker is gone. A warm-up
        pinned to a worker that died (a restarted worker has another address) can never run anywhere:
        waiting for it would stop the run for good."""
        if not items:
            return
        spec, notebooks = items[0][1], sorted({spec.notebook for _, spec in items})
        pinned = {self.client.submit(warm_worker, spec, notebooks, workers=[address], allow_other_workers=False,
                                     pure=False, key=f"warm-{spec.day}-{uuid.uuid4().hex[:8]}"): address
                  for address in self.client.scheduler_info().get("workers", {})}
        pending, deadline = set(pinned), time.monotonic() + most_s
        while pending and time.monotonic() < deadline:
            time.sleep(0.2)
            alive = set(self.client.scheduler_info().get("workers", {}))
            pending = {f for f in pending if not f.done() and pinned[f] in alive}
        for future in pinned:
            future.release()

    def close(self) -> None:
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()


def _allowed_failures(dask_scheduler=None) -> int:
    return dask_scheduler.allowed_failures


def connect(address: str, hide: list[Path] | tuple = (), log=print) -> DaskExecutor:
    """``local:N`` (a LocalCluster for this run) or a scheduler address."""
    if address.startswith("local:"):
        try:
            n = int(address.split(":", 1)[1])
        except ValueError:
            raise SystemExit(f"--scheduler {address}: expected local:N with N the number of worker processes") from None
        log(f"dask: starting a local cluster of {n} worker process(es)")
        return DaskExecutor.local(n, hide=hide)
    return DaskExecutor.connect(address, log=log)
