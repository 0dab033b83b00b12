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


class Remote:
    """A cluster stand-in (``in_process`` False): the order of its calls, the reference's outcome from ``reference``,
    every learner's job from the fake executor's table (tests/harness/fakes.py)."""

    name, in_process = "remote (tests/test_executors.py)", False

    def __init__(self, fake, reference):
        self.fake, self.reference, self.calls = fake, reference, []

    def warm_up(self, items) -> None:
        self.calls.append("warm_up")

    def run_one(self, spec: jobs.JobSpec) -> jobs.JobOutcome:
        self.calls.append(f"run_one {spec.student}")
        return self.reference(spec)

    def run(self, items):
        self.calls.append("run")
        return self.fake.run(items)

    def close(self) -> None:
        pass


def _graded_on(tmp_path, monkeypatch, reference) -> tuple[list[Remote], list[str], object]:
    """Day 1's 00_environment, solved, graded on :class:`Remote` with the second key; the references run in the
    driver (jobs.run_spec there answers as ``reference`` does) are listed."""
    from grader.grades import gradebook
    from grader.records import GradedNotebook, Status
    from grader.run import engine
    from grader.run import reference as ref
    from tests.harness import fakes
    from tools.classroom import solved, write_class
    from tools.notebooks import ROOT

    nb = "00_environment"
    complete = jobs.JobOutcome(GradedNotebook(Status.GRADED, observed={  # every observing cell observed
        g: {"x": {"kind": "json", "value": 1}} for g in ref.observing_cells(ROOT / "solutions" / "day1" / f"{nb}.ipynb")}))
    in_driver, made = [], []

    def driver_run(spec, **kw):
        in_driver.append(spec.student)
        return complete

    def executor(self, workers, work_root, hide):
        table = fakes.keyed({"solved": (solved("day1", nb), 1.0)})
        made.append(Remote(fakes.FakeExecutor(table, gradebook.max_scores(self.db_url, self.day)),
                           lambda spec: reference(spec, complete)))
        return made[-1], False

    monkeypatch.setattr(jobs, "run_spec", driver_run)
    monkeypatch.setattr(engine.Grader, "executor", executor)
    subs = write_class(tmp_path / "in", "day1", {"ann": {nb: solved("day1", nb)}})
    summary = engine.grade_class(engine.Options(day="day1", submissions=subs, out=tmp_path / "out", progress=False,
                                                db_url=f"sqlite:///{tmp_path / 'gb.db'}", scheduler="local:2"))
    return made, in_driver, summary


def test_a_clusters_references_run_on_its_warmed_workers(tmp_path, monkeypatch):
    """A class graded elsewhere (a Dask cluster): the second key's reference runs on the cluster, after its
    workers are warmed (their fork servers and warm kernels serve it), never on kernels the driver starts."""
    (remote,), in_driver, summary = _graded_on(tmp_path, monkeypatch, lambda spec, complete: complete)
    assert remote.calls == ["warm_up", "run_one reference", "run"] and in_driver == []
    assert summary.graded == 1 and remote.fake.specs[0].observe is not None  # the learner's job got the second key


def test_a_reference_the_cluster_refuses_runs_in_the_driver(tmp_path, monkeypatch):
    """A worker that refuses the reference (other course sources): it runs in the driver as before, and the
    learners' jobs go to the cluster (which says why it refuses them)."""
    refused = jobs.JobOutcome.failed(jobs.Status.REFUSED, "course sources differ")
    (remote,), in_driver, summary = _graded_on(tmp_path, monkeypatch, lambda spec, complete: refused)
    assert remote.calls == ["warm_up", "run_one reference", "run"] and in_driver == ["reference"]
    assert summary.graded == 1
