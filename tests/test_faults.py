"""The grader's own faults never cost a learner a grade, and a reference proves itself (grader/jail/faults.py,
grader/run/reference.py, grader.run.executors.retrying).

Fast: how a lost job is told from a notebook's own failure, the retries, the reference's proof and
cache. Slow: each grading process killed in turn (the hook ``PTGRADE_FAULT``) during a learner's job
and during a reference run, on the local pool and on Dask (``local:2``), with the cheapest notebook
(``day1/00_environment``): right grades, the retries in the report, the right exit.
"""

from __future__ import annotations

import dataclasses
import html
import json
import os
import re
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from grader import settings
from grader.jail import faults
from grader.judge.observations import ObserveSpec
from grader.records import CellKind, CheckResult, GradedNotebook, Status
from grader.run import executors, jobs, reference
from tools.classroom import mutated, solved, write_class
from tools.notebooks import ROOT

DAY, NB = "day1", "00_environment"
EXPECTED = {"a", "b"}


# -- fast: telling a lost job from a notebook's failure -------------------------------------------
def test_a_job_is_lost_only_when_its_process_did_not_end_in_order():
    assert faults.lost(0, "ok", None) == ""
    assert faults.lost(1, "error", None) == ""  # nbgrader's own failure: its verdict stands, not retried
    assert faults.lost(255, "ok", None) == ""  # it finished, then its fork server died
    assert "SIGKILL" in faults.lost(-signal.SIGKILL, None, None)
    assert "SIGSEGV" in faults.lost(-signal.SIGSEGV, None, None)
    assert "fork server" in faults.lost(255, None, None)
    assert faults.lost(0, None, None) and faults.lost(3, None, None)


def test_a_job_process_left_by_its_dead_fork_server_is_stopped():
    orphan = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"], start_new_session=True)
    try:
        job = faults.handle(orphan.pid)
        why = faults.lost(255, None, job)
        assert "fork server" in why and "stopped" in why
        assert not job.is_running()  # killed (and reaped here: in the grader the fork server's child is not ours)
    finally:
        orphan.kill()


def test_the_fault_hook_fires_once_per_fault_for_its_student_only(tmp_path, monkeypatch):
    (tmp_path / "1").write_text("job ann")
    (tmp_path / "2").write_text("forkserver ann")
    monkeypatch.setenv("PTGRADE_FAULT", str(tmp_path))
    assert faults.armed("kim") is None
    assert faults.armed("ann") == str(tmp_path)
    calls = []
    monkeypatch.setattr(os, "kill", lambda pid, sig: calls.append((pid, sig)))
    monkeypatch.setattr(time, "sleep", lambda s: None)  # a job whose parent it killed waits to die
    for _ in range(3):
        monkeypatch.setattr(faults, "_FIRED", False)  # each a new job process
        faults.fire(str(tmp_path), "ann")
    assert calls == [(os.getpid(), signal.SIGKILL), (os.getppid(), signal.SIGKILL)]  # each once, in order
    assert faults.armed("ann") is None


# -- fast: retries ----------------------------------------------------------------------------------
class Flaky:
    """An executor whose jobs are lost the first ``losses[key]`` times."""

    def __init__(self, losses: dict[int, int]):
        self.losses, self.runs = dict(losses), []

    def run(self, items):
        for key, _spec in items:
            self.runs.append(key)
            if self.losses.get(key, 0) > 0:
                self.losses[key] -= 1
                yield key, jobs.JobOutcome.failed(Status.ERROR, "lost: x", lost=f"died {key}")
            else:
                yield key, jobs.JobOutcome(GradedNotebook(Status.GRADED))


def test_lost_jobs_run_again_up_to_the_limit_and_say_so():
    flaky = Flaky({1: 1, 2: settings.JOB_RETRIES + 1})
    got = dict(executors.retrying(flaky, [(0, "s0"), (1, "s1"), (2, "s2")]))
    assert got[0].status == Status.GRADED and got[0].retries == ()
    assert got[1].status == Status.GRADED and got[1].retries == ("died 1",)
    assert got[2].lost == "died 2" and got[2].retries == ("died 2",) * settings.JOB_RETRIES
    assert flaky.runs.count(2) == 1 + settings.JOB_RETRIES and flaky.runs.count(0) == 1


# -- fast: the reference proves itself -------------------------------------------------------------
def spec(**kw) -> jobs.JobSpec:
    return jobs.JobSpec(day=DAY, student=reference.STUDENT, notebook=NB, nb_bytes=b"{}", sources_digest="d",
                        limits=jobs.Limits(cell_timeout=10, notebook_timeout=100), **kw)


def complete(*checks: CheckResult) -> jobs.JobOutcome:
    return jobs.JobOutcome(GradedNotebook(Status.GRADED, checks=checks,
                                          observed={g: {"x": {"kind": "json", "value": 1}} for g in EXPECTED}))


def scripted(*outcomes):
    seen = []

    def run(s):
        seen.append(s)
        return outcomes[len(seen) - 1]
    return run, seen


def test_a_reference_must_observe_in_every_graded_cell_but_those_left_to_the_kernel():
    """What a reference must send is what tests/test_observed_everywhere.py holds the course to."""
    from tests.test_observed_everywhere import IN_KERNEL_ONLY, SOLUTIONS, _test_cells

    for path in SOLUTIONS:
        assert reference.observing_cells(path) == set(_test_cells(path)) - set(IN_KERNEL_ONLY), path


def test_a_complete_reference_is_used():
    run, seen = scripted(complete())
    proven = reference.prove(NB, spec(), EXPECTED, run)
    assert proven.observed is not None and proven.retries == () and len(seen) == 1


def test_a_reference_with_holes_is_never_used():
    holed = complete()
    holed.record.observed.pop("b")
    failed = complete(CheckResult(0.0, 1.0, "AssertionError: no", CellKind.MISTAKE, "a"))
    for outcome in (holed, failed, jobs.JobOutcome.failed(Status.ERROR, "nbgrader could not grade")):
        run, seen = scripted(outcome)
        proven = reference.prove(NB, spec(), EXPECTED, run)
        assert proven.observed is None and len(seen) == 1, outcome
        assert "observing cell" in proven.why


def test_a_lost_reference_runs_again():
    lost = jobs.JobOutcome.failed(Status.ERROR, "", lost="the job's fork server died")
    run, seen = scripted(lost, lost, complete())
    proven = reference.prove(NB, spec(), EXPECTED, run)
    assert proven.observed is not None and len(seen) == 3
    assert all("fork server" in r for r in proven.retries)
    run, seen = scripted(*[lost] * (settings.JOB_RETRIES + 1))
    assert reference.prove(NB, spec(), EXPECTED, run).observed is None and len(seen) == settings.JOB_RETRIES + 1


def test_a_reference_out_of_time_runs_once_more_with_longer_limits():
    for late in (jobs.JobOutcome.failed(Status.TIMEOUT, "did not finish"),
                 complete(CheckResult(0.0, 1.0, "stopped", CellKind.STOPPED, "a"))):  # one cell's limit
        run, seen = scripted(late, complete())
        proven = reference.prove(NB, spec(), EXPECTED, run)
        factor = settings.REFERENCE_TIMEOUT_FACTOR
        assert proven.observed is not None and len(seen) == 2
        assert (seen[1].limits.cell_timeout, seen[1].limits.notebook_timeout) == (10 * factor, 100 * factor)
        assert f"x{factor}" in proven.retries[0]
        run, seen = scripted(late, late)
        assert reference.prove(NB, spec(), EXPECTED, run).observed is None and len(seen) == 2


def test_a_failed_reference_stops_the_class_and_complete_ones_are_kept(tmp_path, monkeypatch):
    monkeypatch.setattr(reference, "observing_cells", lambda path: EXPECTED)
    masters = {NB: None, "01_tensors": None}
    specs = [dataclasses.replace(spec(), notebook=n, student="ann") for n in masters]
    outcomes = {NB: complete(), "01_tensors": jobs.JobOutcome.failed(Status.TIMEOUT, "x")}
    ran = []

    def run(s):
        ran.append(s.notebook)
        return outcomes[s.notebook]

    cache = reference.Cache(tmp_path / "reports" / reference.CACHE_NAME, "settings")
    with pytest.raises(reference.ReferenceFailed, match="no notebook was graded") as err:
        reference.second_keys(specs, masters, ROOT / "solutions" / DAY, run=run, warn=lambda t: None, cache=cache)
    assert "01_tensors" in str(err.value) and "--notebook-timeout" in str(err.value)
    assert sorted(ran) == [NB, "01_tensors", "01_tensors"]
    assert stat.S_IMODE(cache.path.stat().st_mode) == 0o600  # it holds the secret
    # the resumed run: the same secret, the complete reference not run again
    again = reference.Cache(cache.path, "settings")
    assert again.secret == cache.secret and NB in again.references
    outcomes["01_tensors"], ran[:] = complete(), []
    warned = []
    keys = reference.second_keys(specs, masters, ROOT / "solutions" / DAY, run=run, warn=warned.append, cache=again)
    assert ran == ["01_tensors"] and set(keys) == set(masters)
    assert all(k == ObserveSpec(cache.secret, outcomes[NB].record.observed) for n, k in keys.items() if n == NB)
    # other settings (another course version, grader, limits): a new secret, everything run again
    assert reference.Cache(cache.path, "other").references == {}
    again.clear()
    assert not cache.path.exists()


def test_the_command_exits_1_when_the_instructor_must_act(tmp_path, monkeypatch, capsys):
    """A notebook lost on every try, or a reference that failed: exit 1, in plain words, no traceback."""
    from grader.run import cli, engine

    args = ["grade", DAY, "--submissions", str(tmp_path), "--out", str(tmp_path / "out"),
            "--gradebook", f"sqlite:///{tmp_path / 'gb.db'}", "--quiet"]
    lost = engine.RunSummary(graded=1, problems=1, lost=[f"ann/{NB}: the job's fork server died"],
                             csv=tmp_path / "g.csv", report=tmp_path / "r.html")
    monkeypatch.setattr(engine, "grade_class", lambda opts: lost)
    assert cli.main(args) == 1
    assert "could not be graded: a grading process died on every try" in capsys.readouterr().err
    monkeypatch.setattr(engine, "grade_class", lambda opts: dataclasses.replace(lost, lost=[],
                                                                               retried=[f"ann/{NB}: x"]))
    assert cli.main(args) == 0  # retried and graded: said in the report, nothing to do

    def failed(opts):
        raise reference.ReferenceFailed("the second key's reference run failed, so no notebook was graded")
    monkeypatch.setattr(engine, "grade_class", failed)
    assert cli.main(args) == 1
    err = capsys.readouterr().err
    assert "error: the second key's reference run failed" in err and "Traceback" not in err


# -- slow: each grading process killed in turn, for real ------------------------------------------
LIMITS = jobs.Limits(cell_timeout=60, notebook_timeout=180, memory_bytes=1024**3)
CLASS = {"ann": lambda: solved(DAY, NB), "cat": lambda: mutated(DAY, NB, 1)[0]}  # full marks and a mistake


@pytest.fixture
def fault_folder(tmp_path):
    folder = tmp_path / "faults"
    folder.mkdir()
    yield folder
    outlived(folder)  # whatever a failed test left running is stopped (the tests assert what outlived the run)


def grade(tmp: Path, folder: Path, kills: dict[str, list[str]], scheduler: str | None = None,
          students=CLASS, workers: int = 2, private_tmp: Path | None = None) -> subprocess.CompletedProcess:
    """The class graded by the command line, with ``kills`` armed: student -> the processes killed in
    its jobs, one per try, in order (``"reference"``: the reference run). One fork server serves the
    local pool's jobs: killed, it takes the jobs running beside it too (they are lost and run again)."""
    submitted = write_class(tmp / "in", DAY, {s: {NB: make()} for s, make in students.items()})
    for who, processes in kills.items():
        for i, process in enumerate(processes):
            (folder / f"{who}-{i}").write_text(f"{process} {who}")
    cmd = [sys.executable, "-m", "grader", "grade", DAY, "--submissions", str(submitted), "--out", str(tmp / "out"),
           "--gradebook", f"sqlite:///{tmp / 'gb.db'}", "--quiet", "--workers", str(workers),
           "--cell-timeout", str(LIMITS.cell_timeout), "--notebook-timeout", str(LIMITS.notebook_timeout),
           "--threads", "1"]  # one thread a kernel: warm kernels (zygotes) wherever the jail allows them
    if scheduler:
        cmd += ["--scheduler", scheduler]
    env = {**os.environ, faults.FAULT_VARIABLE: str(folder)}  # a Dask worker reads it when it starts
    if private_tmp is not None:
        env["TMPDIR"] = str(private_tmp)
    # The command's output goes to files and the test waits for the command itself, not for the end of its
    # output: a process that outlived the run (see strays) would hold a pipe open and the test waiting on it.
    with open(tmp / "stdout.txt", "w") as out, open(tmp / "stderr.txt", "w") as err:
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=out, stderr=err, text=True, env=env)
        try:
            code = proc.wait(timeout=600)
        finally:
            if proc.poll() is None:
                proc.kill()
    return subprocess.CompletedProcess(cmd, code, (tmp / "stdout.txt").read_text(), (tmp / "stderr.txt").read_text())


def strays(folder: Path) -> list[psutil.Process]:
    """The run's processes still alive after its command ended: every process of the run has the fault
    folder (unique to the test) in its environment."""
    found = []
    for proc in psutil.process_iter():
        try:
            if proc.environ().get(faults.FAULT_VARIABLE) == str(folder):
                found.append(proc)
        except psutil.Error:
            continue
    return found


FORKSERVER, TRACKER = "from multiprocessing.forkserver import main", "from multiprocessing.resource_tracker import main"


def outlived(folder: Path) -> list[str]:
    """The command lines of the run's processes still alive 5 s after its command ended, killed."""
    _, alive = psutil.wait_procs(strays(folder), timeout=5)
    lines = []
    for proc in alive:
        try:
            lines.append(" ".join(proc.cmdline()))
            proc.kill()
        except psutil.Error:
            continue
    psutil.wait_procs(alive, timeout=10)
    return lines


def records(tmp: Path) -> dict[str, dict]:
    return {p.parent.name: json.loads(p.read_text())
            for p in (tmp / "out" / "reports" / DAY / "results").glob("*/*.json")}


def assert_graded_right(tmp: Path, done: subprocess.CompletedProcess, folder: Path) -> dict[str, dict]:
    out = done.stdout + done.stderr
    assert done.returncode == 0, out
    assert not [p.name for p in folder.iterdir() if not p.name.startswith(".fired-")], f"faults never fired: {out}"
    got = records(tmp)
    assert got["ann"]["status"] == "graded" and got["ann"]["score"] == got["ann"]["max_score"] > 0, got["ann"]
    assert not (tmp / "out" / "reports" / DAY / reference.CACHE_NAME).exists()
    return got


def retried(tmp: Path, done: subprocess.CompletedProcess, who: str, least: int) -> None:
    """The report and the run's warnings say that ``who``'s notebook was graded again after at least
    ``least`` lost tries."""
    pattern = re.compile(rf"{who}/{NB}: graded again in a fresh process; earlier tries lost: (\d)")
    found = pattern.search(done.stderr)
    assert found and int(found.group(1)) >= least, done.stderr
    assert pattern.search(html.unescape((tmp / "out" / "reports" / DAY / "report.html").read_text()))


def zygotes_here() -> bool:
    """Whether kernels come from warm-kernel servers on this machine (bubblewrap and a memory cgroup)."""
    from grader.jail import zygote

    return zygote.enabled(jobs.worker_isolation(True), dataclasses.replace(LIMITS, threads=1))


@pytest.mark.slow
def test_each_grading_process_killed_on_the_local_pool(fault_folder, tmp_path, private_tmp):
    """The job process and the fork server killed during the reference run and during a learner's
    job, and the warm-kernel server under a learner's kernel: each job run again, the grades right, the
    retries reported, exit 0. The control: a learner's kernel killed is that notebook's own failure,
    never retried. Nothing is left in the temporary folder (the ``private_tmp`` fixture checks it)."""
    cat = ["zygote", "kernel"] if zygotes_here() else ["kernel"]
    done = grade(tmp_path, fault_folder, {reference.STUDENT: ["job", "forkserver"], "ann": ["forkserver", "job"],
                                          "cat": cat}, workers=1, private_tmp=private_tmp)  # one job at a time: no job lost beside another
    got = assert_graded_right(tmp_path, done, fault_folder)
    assert f"the reference run of {NB} ran again: lost (the job process was killed by SIGKILL" in done.stderr
    assert "lost (the job's fork server died" in done.stderr
    retried(tmp_path, done, "ann", 2)
    assert "ann/" in done.stderr and "(the job's fork server died" in done.stderr
    assert got["cat"]["status"] == "graded" and got["cat"]["score"] < got["cat"]["max_score"]
    assert any("kernel stopped" in n for n in got["cat"]["notes"])  # its own kernel's death: its outcome
    if len(cat) == 2:  # the zygote's death was the grader's, once; the kernel's was not retried
        assert f"cat/{NB}: graded again in a fresh process; earlier tries lost: 1 (the warm-kernel server" in done.stderr
    else:
        assert "cat/" not in done.stderr
    assert outlived(fault_folder) == []  # every fork server and job of the run ended with it


@pytest.mark.slow
def test_each_grading_process_killed_on_dask(fault_folder, tmp_path, private_tmp):
    """``--scheduler local:2``: a Dask worker, the fork server inside one, and the job process killed;
    nothing left in the temporary folder."""
    done = grade(tmp_path, fault_folder, {"ann": ["worker", "forkserver"], "cat": ["job"],
                                          reference.STUDENT: ["forkserver"]}, scheduler="local:2",
                 private_tmp=private_tmp)
    got = assert_graded_right(tmp_path, done, fault_folder)
    assert "Dask worker died" in done.stderr and "fork server died" in done.stderr
    retried(tmp_path, done, "ann", 2)
    retried(tmp_path, done, "cat", 1)
    assert got["cat"]["status"] == "graded" and 0 < got["cat"]["score"] < got["cat"]["max_score"]
    # The killed worker's fork server outlives it while the fault hook's job sleeps in it (grader/jail/faults.py
    # fire: it waits to die); with them only multiprocessing's resource tracker. No kernel, zygote, worker
    # or driver: those all ended with the run.
    left = outlived(fault_folder)
    assert all(FORKSERVER in line or TRACKER in line for line in left), left


@pytest.mark.slow
def test_a_reference_that_never_completes_stops_the_run(fault_folder, tmp_path):
    """Every try of the reference lost: a plain error, exit 1, nobody graded."""
    (fault_folder / "always").write_text(f"job {reference.STUDENT} always")
    done = grade(tmp_path, fault_folder, {}, students={"ann": CLASS["ann"]})
    assert done.returncode == 1, done.stdout + done.stderr
    assert "reference run failed, so no notebook was graded" in done.stderr
    assert f"{NB}: error: lost: the job process was killed by SIGKILL" in done.stderr
    assert "Traceback" not in done.stderr and records(tmp_path) == {}
    assert outlived(fault_folder) == []
