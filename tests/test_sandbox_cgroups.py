"""The grader's readings of a kernel's cgroups (grader/jail/sandbox.py), on fake cgroup folders."""

from __future__ import annotations

import os
import subprocess
import sys

from grader.jail.sandbox import Isolation, cgroup_anon, cgroup_limit_hits, cgroup_tasks, sweep_stale

MB = 1024**2
GB = 1024**3


def test_grader_reads_a_kernel_cgroups_own_memory(tmp_path):
    """What a grading kernel holds: anonymous memory and swap, never file cache (v1 and v2)."""
    v1, v2 = tmp_path / "v1", tmp_path / "v2"
    v1.mkdir()
    v2.mkdir()
    (v1 / "memory.stat").write_text(f"cache {GB}\nrss 5\ntotal_cache {GB}\ntotal_rss {900 * MB}\ntotal_swap {50 * MB}\n")
    (v2 / "memory.stat").write_text(f"anon {800 * MB}\nfile {GB}\n")
    (v2 / "memory.swap.current").write_text(f"{100 * MB}\n")
    assert cgroup_anon(v1) == 950 * MB
    assert cgroup_anon(v2) == 900 * MB
    assert cgroup_anon(tmp_path / "gone") is None and cgroup_anon(None) is None


def test_grader_counts_a_kernel_cgroups_hits_on_its_limit(tmp_path):
    v1, v2 = tmp_path / "v1", tmp_path / "v2"
    v1.mkdir()
    v2.mkdir()
    (v1 / "memory.failcnt").write_text("12\n")
    (v2 / "memory.events").write_text("low 0\nhigh 0\nmax 3\noom 1\noom_kill 1\n")
    assert (cgroup_limit_hits(v1), cgroup_limit_hits(v2), cgroup_limit_hits(tmp_path)) == (12, 3, 0)


def test_grader_counts_a_kernel_cgroups_tasks(tmp_path):
    (tmp_path / "tasks").write_text("11\n12\n13\n")
    assert cgroup_tasks(tmp_path) == 3
    assert cgroup_tasks(tmp_path / "gone") is None


def test_job_cgroups_of_a_grader_that_is_gone_are_swept(tmp_path):
    """A killed worker's job cgroups are removed by the next grader; a live grader's are kept."""
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True, check=True).stdout.strip()
    memory, pids = tmp_path / "memory", tmp_path / "pids"
    for base in (memory, pids):
        (base / f"ptgrade-{gone}-j-abc").mkdir(parents=True)
        (base / f"ptgrade-{os.getpid()}-j-def").mkdir()
    (memory / "someone-else").mkdir()
    iso = Isolation(bwrap=None, cgroup="v1", cgroup_base=memory, pids="v1", pids_base=pids)
    assert sweep_stale(iso) == 2
    for base in (memory, pids):
        assert sorted(p.name for p in base.iterdir()) == sorted(
            [f"ptgrade-{os.getpid()}-j-def"] + (["someone-else"] if base == memory else []))


def test_a_cgroup_caps_tasks_only_when_its_pids_max_says_so(tmp_path):
    from grader.jail.sandbox import TASKS_PER_KERNEL, caps_tasks

    assert not caps_tasks(tmp_path) and not caps_tasks(None)
    (tmp_path / "pids.max").write_text("max\n")
    assert not caps_tasks(tmp_path)
    (tmp_path / "pids.max").write_text(f"{TASKS_PER_KERNEL}\n")
    assert caps_tasks(tmp_path)
