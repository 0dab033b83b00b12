"""What every grading job and every kernel would otherwise do for itself is done once, before them.

The per-notebook overhead (``make bench-grading``) is paid once per job process (forked from the
grader's fork server, which imports ``grader._preload``) and once per kernel (forked from a worker's
zygote, grader/jail/zygote.py). Whatever those two have not loaded, each job or kernel loads again.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from grader.jail import zygote
from grader.judge import kernel_guard
from grader.run import jobs

ROOT = Path(__file__).resolve().parents[1]


def test_the_zygote_preloads_what_the_guard_imports_in_every_kernel():
    # grader/judge/kernel_guard.py imports these in each kernel before the notebook runs; a module the zygote
    # has not imported costs every notebook its import (the zygote runs without the grader package, so
    # it keeps its own copy of the names).
    assert set(zygote.GUARD_PRELOAD) == {*kernel_guard.HELPERS, *kernel_guard.DISPLAY, *kernel_guard.LIBRARY}


PROBE = """
import json, os, sys
import grader._preload
from grader.jail import zygote
from ptcourse import messages
jobs_loaded = "grader.run.jobs" in sys.modules
catalogues = messages.catalogue.cache_info().currsize
for name in zygote.PRELOAD:  # as the zygote imports them, then what a day's notebooks may need
    __import__(name)
needed = tuple(m for _, modules in zygote.NEEDED_BY for m in modules)
zygote._preload_quietly(needed)
print(json.dumps({"jobs": jobs_loaded, "catalogues": catalogues, "threads": zygote._os_threads(),
                  "missing": [m for m in (*zygote.GUARD_PRELOAD, *needed) if m not in sys.modules],
                  "zygote_catalogues": messages.catalogue.cache_info().currsize}))
"""


def test_the_fork_server_and_the_zygote_load_once_what_each_job_and_kernel_needs():
    proc = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={"PATH": "/usr/bin:/bin", "OMP_NUM_THREADS": "1", "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0, proc.stderr[-3000:]
    found = json.loads(proc.stdout.strip().splitlines()[-1])
    from ptcourse.messages import LANGS

    # A job process unpickles its target from grader.run.jobs: imported in the fork server, not per job.
    assert found["jobs"], "grader.run.jobs is imported by each job process instead of once by the fork server"
    assert found["catalogues"] >= len(LANGS), "each job reads the message catalogue again"
    # The zygote: every module the guard imports and any a day's notebooks need, the catalogues, and still one
    # thread (it forks: a module that starts a thread at import, as onnxruntime does, cannot be preloaded).
    assert found["missing"] == []
    assert found["zygote_catalogues"] >= len(LANGS)
    assert found["threads"] == 1


def test_a_cluster_classs_references_run_on_warm_kernels(monkeypatch, tmp_path):
    # A class graded on Dask has its second key's reference runs on the workers' warm kernels
    # (tests/test_executors.py). With an executor that cannot run one job and wait (no ``run_one``), they run
    # in the driver, ``workers`` at a time. Each kernel's threads are its share of the driver's CPUs among
    # them: with 1 thread a warm kernel (zygote) serves it; with all of the driver's CPUs none could, and each
    # reference paid for a cold kernel of its own.
    import types

    from grader.run import engine, reference

    seen, calls = {}, []

    def second_keys(specs, masters, source, *, run, warn, workers, cache):
        seen["run"] = run
        return {}

    monkeypatch.setattr(reference, "second_keys", second_keys)
    monkeypatch.setattr(jobs, "worker_cpus", lambda: 2)
    monkeypatch.setattr(jobs, "run_spec", lambda spec, **kw: calls.append(kw) or "ran in the driver")
    grader = types.SimpleNamespace(source=tmp_path, template=tmp_path / "t.db", masters={}, summary=None,
                                   log_line=print, warn=print)
    engine.Grader.with_second_key(grader, [], tmp_path, [], object(), 2, reference.Cache(None, ""))
    spec = jobs.JobSpec(day="day1", student="reference", notebook="x", nb_bytes=b"{}", sources_digest="")
    assert seen["run"](spec) == "ran in the driver" and calls[0]["slots"] == 2
    limits = jobs.kernel_limits(spec, calls[0]["slots"])
    assert limits.threads == 1
    iso = types.SimpleNamespace(bwrap="/usr/bin/bwrap", cgroup="v2")
    monkeypatch.setattr(zygote, "_under_tmp", lambda: False)
    assert zygote.enabled(iso, limits)


def test_dask_workers_do_not_profile_the_jobs():
    # distributed's statistical profiler samples every thread of a worker 100 times a second; nothing in
    # grading reads it. Off in the run's LocalCluster and in the worker image's configuration alike.
    from grader.run import worker_setup

    assert worker_setup.DASK_CONFIG["distributed.worker.profile.enabled"] is False
    assert "profile:\n      enabled: false" in worker_setup.config_yaml()


def test_a_runs_zygotes_import_the_costly_modules_its_notebooks_use():
    """torch.compile's compiler and ONNX export's modules for Day 3 (1-2.5 CPU-s in each of its kernels that
    use them), torch._dynamo where an optimizer steps or a meta device computes: read from the course's
    notebooks that the run grades (all of the day's when none is named), the same for every job of the run."""
    from grader.run import jobs

    day = {d: set(jobs.zygote_preload(ROOT / "solutions" / d)) for d in ("day1", "day2", "day3")}
    assert day["day1"] == {"torch._dynamo"}
    assert day["day2"] == {"torch._dynamo", "torchvision"}
    one = {nb: jobs.zygote_preload(ROOT / "solutions" / "day1", (nb,)) for nb in ("00_environment", "01_tensors")}
    assert one == {"00_environment": (), "01_tensors": ("torch._dynamo",)}
    assert jobs.zygote_preload(ROOT / "solutions" / "day1", ("00_environment", "03_modules")) == ("torch._dynamo",)
    assert {"torch._inductor.compile_fx", "onnx", "onnxscript"} <= day["day3"]
    assert zygote.needed("x = torch.compile(model)") == ("torch._dynamo", "torch._inductor.compile_fx")


def test_the_kernel_started_early_is_the_one_the_job_would_start():
    """A job's process starts its kernel while nbgrader prepares (execute.start_kernel_early), and Execute
    takes it only if it has Execute's own arguments: a mismatch would start every kernel twice, silently."""
    from traitlets.config import Config

    from grader.jail import execute

    config = Config()
    exec(jobs.JOB_CONFIG.format(cell_timeout=30, iopub_timeout=10), {"c": config})  # the job's nbgrader_config.py
    assert execute.JailedExecute(config=config).kernel_arguments() == execute.EARLY_ARGUMENTS
