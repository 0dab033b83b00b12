"""The Executor protocol (grader/run/executors.py): the local pool and Dask behind it, used the same way."""

from __future__ import annotations

import inspect
from pathlib import Path

from grader.jail import zygote
from grader.run import executors, jobs
from grader.run.cluster import DaskExecutor


def pool(workers: int = 2) -> executors.LocalPool:
    return executors.LocalPool(workers, Path("/nonexistent/work"), Path("/nonexistent/src"), Path("/nonexistent/t"), [])


def test_both_executors_have_the_protocols_members():
    assert isinstance(pool(), executors.Executor)
    assert isinstance(DaskExecutor(client=None), executors.Executor)
    for member in ("warm_up", "run", "close"):
        ours = inspect.signature(getattr(executors.Executor, member)).parameters
        for cls in (executors.LocalPool, DaskExecutor):
            theirs = inspect.signature(getattr(cls, member)).parameters
            assert list(theirs)[:len(ours)] == list(ours), f"{cls.__name__}.{member}{list(theirs)}"


def test_in_process_is_worked_out_from_the_executor_or_the_scheduler():
    assert executors.in_process(None, None)
    assert not executors.in_process(None, "local:2")
    assert not executors.in_process(DaskExecutor(client=None), None)
    assert executors.in_process(pool(), "tcp://ignored:8786")
    assert not executors.in_process(object(), None)  # an executor that does not say: its jobs run elsewhere


def test_each_local_pool_owns_its_warm_kernels():
    first, second = pool(), pool()
    assert isinstance(first.zygotes, zygote.Pool) and first.zygotes is not second.zygotes
    first.warm_up([])  # nothing to run: nothing started
    assert first.zygotes.idle == [] and first.zygotes.started == 0
    first.close()


def test_a_kernels_threads_are_decided_in_one_place(monkeypatch):
    monkeypatch.setenv("PTGRADE_CPUS", "8")
    spec = jobs.JobSpec(day="day1", student="s", notebook="n", nb_bytes=b"{}", sources_digest="0",
                        limits=jobs.Limits(threads=0))
    assert jobs.kernel_limits(spec, 4).threads == 2  # the local pool: its workers share the CPUs
    assert jobs.kernel_limits(spec, 16).threads == 1
    assert jobs.kernel_limits(jobs.JobSpec(**{**spec.__dict__, "limits": jobs.Limits(threads=3)}), 4).threads == 3
    assert jobs.cpu_share(7, 2) == 3 and jobs.cpu_share(1, 4) == 1 and jobs.cpu_share(4, 0) == 4
