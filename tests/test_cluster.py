"""Grading on a Dask cluster (grader/run/cluster.py): the same scores as the local pool, and the faults.

One ``LocalCluster`` of two worker processes, started the way ``--scheduler local:N`` starts it,
serves every slow test; the class is two students of ``day1/00_environment`` (the cheapest
notebook). Faults: a worker killed mid-run, a notebook that kills its own worker, the driver
killed and restarted, and a worker holding other course sources.
"""

from __future__ import annotations

import json
import os
import pickle
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import dask
import pytest

from grader import settings
from grader.grades.gradebook import sources_digest
from grader.jail import sandbox
from grader.run import jobs, worker_setup
from grader.run.engine import Options, grade_class
from tests.harness import shared_class
from tools.classroom import mutated, solved, with_code, write_class
from tools.notebooks import ROOT

DAY, NB = "day1", "00_environment"
LIMITS = jobs.Limits(cell_timeout=30, notebook_timeout=120, memory_bytes=1024**3)
CLASS = {"ann": lambda: solved(DAY, NB), "cat": lambda: mutated(DAY, NB, 1)[0]}  # full marks and a mistake


DUE = "2026-01-15T23:59:00"  # ann hands in 32 h late: two days, 20 % of her score



def _cell_scores(db_url: str, day: str) -> dict:
    from tests.harness import grades

    return grades.cell_table(grades.read(db_url, day))

def write(folder: Path, students=CLASS) -> Path:
    subs = write_class(folder, DAY, {s: {NB: make()} for s, make in students.items()})
    if "ann" in students:
        (subs / "ann" / DAY / "timestamp.txt").write_text("2026-01-17 08:00:00.000000 UTC")
    return subs


def options(tmp: Path, submitted: Path, **kw) -> Options:
    return Options(day=DAY, submissions=submitted, out=tmp / "out", db_url=f"sqlite:///{tmp / 'gb.db'}",
                   limits=jobs.Limits(**LIMITS.__dict__), progress=False, due=DUE, **kw)


def results(tmp: Path) -> dict[str, dict]:
    return {p.parent.name: json.loads(p.read_text()) for p in (tmp / "out" / "reports" / DAY / "results").glob("*/*.json")}


# -- fast: the task and the worker's refusals ------------------------------------------------
def spec(**kw) -> jobs.JobSpec:
    import nbformat

    base = dict(day=DAY, student="ann", notebook=NB, nb_bytes=nbformat.writes(solved(DAY, NB)).encode(),
                sources_digest=sources_digest(ROOT / "solutions" / DAY), limits=LIMITS)
    return jobs.JobSpec(**{**base, **kw})


def test_spec_is_picklable_without_driver_paths():
    """A JobSpec travels to any machine: it pickles, and holds no path of the driver."""
    data = pickle.dumps(spec())
    assert pickle.loads(data).sources_digest == spec().sources_digest
    assert str(ROOT).encode() not in data and b"/tmp/" not in data


def test_worker_refuses_other_sources():
    outcome = jobs.run_spec(spec(sources_digest="0" * 16))
    assert outcome.status == "refused" and "course sources differ" in outcome.detail
    assert "0" * 16 in outcome.detail and "run again" in outcome.detail


def test_worker_without_sandbox_refuses_unless_allowed(monkeypatch):
    monkeypatch.setitem(jobs._ISO, True, sandbox.Isolation(bwrap=None, cgroup=None, cgroup_base=None))
    why = jobs.refusal(spec(), None, jobs.worker_isolation(True))
    assert why and "refuses to grade" in why and "--allow-unsandboxed" in why and "bubblewrap" in why
    assert jobs.refusal(spec(allow_unsandboxed=True), None, jobs.worker_isolation(True)) is None
    assert jobs.refusal(spec(sandbox=False), None, jobs.worker_isolation(True)) is None


def test_worker_image_uses_the_setup_script():
    """Dockerfile.worker installs and checks through grader/run/worker_setup.py, the module the cluster uses."""
    text = (ROOT / "Dockerfile.worker").read_text()
    assert "python -m grader.run.worker_setup install" in text and "python -m grader.run.worker_setup check" in text
    assert "bubblewrap" in text and "DASK_DISTRIBUTED__WORKER__DAEMON" in text
    commands = worker_setup.install(dry_run=True)
    assert any("requirements-grader.txt" in " ".join(c) for c in commands)
    assert "daemon: false" in worker_setup.config_yaml() and "allowed-failures: 0" in worker_setup.config_yaml()
    assert "interval: 200ms" in worker_setup.config_yaml() and "interval: 2s" in worker_setup.config_yaml()


# -- slow: a LocalCluster ------------------------------------------------------------------------
@pytest.fixture(scope="module")
def dask_cluster():
    from grader.run.cluster import DaskExecutor

    executor = DaskExecutor.local(2)
    yield executor
    executor.close()


# The reference: the class graded by the local pool, in the shared Day 1 class (tests/harness/shared_class.py;
# cell scores hold no late penalty, so ann's hand-in time does not matter there).
shared_class.hand_in("cluster", lambda folder: {s: {NB: make()} for s, make in CLASS.items()})


@pytest.fixture(scope="module")
def local_scores(day1_class):
    """The class graded by the local pool (the reference), cell by cell, by the names of CLASS."""
    mine = day1_class.student("cluster", "")
    scores = {s[len(mine):]: v for s, v in _cell_scores(day1_class.db_url, DAY).items() if s.startswith(mine)}
    assert set(scores) == set(CLASS) and all(scores[s][NB] for s in CLASS), scores
    return scores


@pytest.mark.slow
def test_workers_are_set_up_like_the_image(dask_cluster):
    """Every worker passes the image's own check: same sources digest, not daemonic, sandboxed."""
    checks = dask_cluster.client.run(worker_setup.check)
    assert len(checks) == 2
    for report in checks.values():
        assert report.digests[DAY] == sources_digest(ROOT / "solutions" / DAY)
        assert not report.daemonic_now and not report.dask_worker_daemon
        assert report.cpus == 1  # two workers share this machine's two CPUs
    # Dask's own periodic work, slowed on every worker as in the image (worker_setup.DASK_CONFIG)
    settings_there = dask_cluster.client.run(lambda: {k: dask.config.get(k) for k in worker_setup.DASK_CONFIG})
    assert list(settings_there.values()) == [worker_setup.DASK_CONFIG] * 2


@pytest.mark.slow
def test_cluster_scores_equal_local_pool(dask_cluster, local_scores, tmp_path):
    summary = grade_class(options(tmp_path, write(tmp_path / "in"), executor=dask_cluster))
    assert summary.graded == len(CLASS) and not summary.refused and summary.executor.startswith("dask")
    assert _cell_scores(f"sqlite:///{tmp_path / 'gb.db'}", DAY) == local_scores
    records = results(tmp_path)
    assert {r["student"] for r in records.values()} == set(CLASS)
    # the due date travels with each job: a worker's own template holds none
    assert records["ann"]["score"] > 0 and records["ann"]["late_penalty"] == pytest.approx(0.2 * records["ann"]["score"])
    assert records["cat"]["late_penalty"] == 0
    assert (tmp_path / "out" / "autograded" / "ann" / DAY / f"{NB}.ipynb").exists()


def kill_when_busy(executor, killed: list[str]) -> threading.Thread:
    """Kill (SIGKILL) the first worker process seen running a learner's job (not a warm-up, not the second
    key's reference run, which go first); the nanny starts a new one. ``killed`` gets that job's key."""
    def learners(keys) -> list[str]:
        return [k for k in keys if k.startswith(f"grade-{DAY}-") and not k.startswith(f"grade-{DAY}-reference-")]

    def watch():
        pids = executor.client.run(os.getpid)
        deadline = time.monotonic() + 300  # the cluster warms up and runs the reference first
        while time.monotonic() < deadline:
            busy = [(addr, learners(keys)[0]) for addr, keys in executor.client.processing().items() if learners(keys)]
            if busy and busy[0][0] in pids:
                time.sleep(0.5)  # mid-job: the notebook is running
                os.kill(pids[busy[0][0]], signal.SIGKILL)
                killed.append(busy[0][1])
                return
            time.sleep(0.1)

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    return thread


@pytest.mark.slow
def test_worker_dies_mid_run(dask_cluster, local_scores, tmp_path):
    """A worker process killed mid-run, while it grades a learner: its job runs elsewhere, nothing lost or
    written twice."""
    killed: list[str] = []
    watcher = kill_when_busy(dask_cluster, killed)
    summary = grade_class(options(tmp_path, write(tmp_path / "in"), executor=dask_cluster))
    watcher.join(timeout=5)
    assert len(killed) == 1 and killed[0].split("-")[2] in CLASS, killed  # a learner's job, not the reference's
    assert summary.graded == len(CLASS) and summary.problems == 0, summary.records
    assert _cell_scores(f"sqlite:///{tmp_path / 'gb.db'}", DAY) == local_scores
    assert sorted(r.student for r in summary.records) == sorted(CLASS)  # each once


KILLER = """
import os, signal
with open({log!r}, "a") as _f:
    _f.write("attempt\\n")
_pid = os.getpid()
while _pid > 1:  # up the process tree to the Dask worker (a multiprocessing spawn child)
    _pid = int(open(f"/proc/{{_pid}}/stat").read().rsplit(")", 1)[1].split()[1])
    if b"spawn_main" in open(f"/proc/{{_pid}}/cmdline", "rb").read():
        os.kill(_pid, signal.SIGKILL)
"""


@pytest.mark.slow
def test_job_that_kills_its_worker_every_time_is_lost_and_said(dask_cluster, tmp_path):
    """A notebook whose worker dies on every try: tried 1 + JOB_RETRIES times (each in a fresh worker
    process), then "could not be graded", said in the report and the page, never a mark of the learner's.

    A sandboxed kernel cannot see the worker (its own pid namespace), so this one runs with the
    sandbox off: the stand-in for a worker that keeps dying under one job.
    """
    log = tmp_path / "attempts.txt"
    killer = with_code(solved(DAY, NB), "env_pick_device", KILLER.format(log=str(log)))
    submitted = write(tmp_path / "in", {"ann": lambda: solved(DAY, NB), "kim": lambda: killer})
    summary = grade_class(options(tmp_path, submitted, executor=dask_cluster, sandbox=False))
    got = results(tmp_path)
    assert got["ann"]["score"] == 8 and got["ann"]["status"] == "graded"
    assert got["kim"]["status"] == "error" and got["kim"]["score"] == 0
    assert "Dask worker died" in got["kim"]["instructor_detail"]
    assert any("not counted against you" in n for n in got["kim"]["notes"])
    assert log.read_text().count("attempt") == 1 + settings.JOB_RETRIES, "retried up to the limit, not round the cluster"
    assert summary.graded == 2 and [x.split(":")[0] for x in summary.lost] == [f"kim/{NB}"]
    assert any(w.startswith(f"kim/{NB}: could not be graded") for w in summary.warnings)


@pytest.mark.slow
def test_driver_stopped_and_restarted_resumes(dask_cluster, local_scores, tmp_path):
    """`--scheduler ADDRESS`: the driver killed after its first merge; the rerun grades only the rest."""
    submitted = write(tmp_path / "in")
    cmd = [sys.executable, "-m", "grader", "grade", DAY, "--submissions", str(submitted), "--out",
           str(tmp_path / "out"), "--gradebook", f"sqlite:///{tmp_path / 'gb.db'}", "--quiet",
           "--scheduler", dask_cluster.cluster.scheduler_address, "--cell-timeout", "30"]
    first = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 600  # on a loaded machine the first merge can take minutes
    while not results(tmp_path) and time.monotonic() < deadline and first.poll() is None:
        time.sleep(0.1)
    first.kill()
    first.wait()
    done = len(results(tmp_path))
    assert done >= 1
    again = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stdout + again.stderr
    assert f"skipped {done} already graded" in again.stdout, again.stdout
    assert _cell_scores(f"sqlite:///{tmp_path / 'gb.db'}", DAY) == local_scores
    assert len(results(tmp_path)) == len(CLASS)


@pytest.mark.slow
def test_mismatched_sources_refused_on_the_cluster(dask_cluster):
    """A driver grading other course sources than the workers hold: each job refused, in plain words."""
    ((_, outcome),) = list(dask_cluster.run([(0, spec(sources_digest="f" * 16))]))
    assert outcome.status == "refused" and "course sources differ" in outcome.detail
    assert "f" * 16 in outcome.detail
