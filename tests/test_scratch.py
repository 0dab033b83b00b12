"""The grader's folders in the temporary folder (grader/scratch.py): private to the grading user, held
while in use, removed when their work ends, and swept at the next start when a killed process left
them; a running grader's folders and other users' are never touched. Fast: no kernel, no grading.
"""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from grader import scratch
from tools.notebooks import ROOT


@pytest.fixture
def tmp(tmp_path):
    return tmp_path


def later() -> float:
    return time.time() + scratch.GRACE_S + 5


def test_a_folder_is_private_and_held_while_in_use(tmp):
    held = scratch.make("run", tmp)
    assert stat.S_IMODE(held.path.stat().st_mode) == 0o700
    assert held.path.name.startswith(f"ptg-run-{os.getpid()}-")
    assert not scratch.stale(held.path, later()) and scratch.sweep((tmp,), later()) == []
    held.close()
    assert not held.path.exists()


def _killed_owner(tmp: Path) -> Path:
    """A folder made by a process that was then killed (SIGKILL: no clean-up of its own)."""
    code = textwrap.dedent(f"""
        import sys, time
        from grader import scratch
        print(scratch.make("worker", {str(tmp)!r}).path, flush=True)
        time.sleep(60)
    """)
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    path = Path(proc.stdout.readline().strip())
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    return path


def test_what_a_killed_process_left_is_swept_and_a_live_ones_is_not(tmp):
    left = _killed_owner(tmp)
    (left / "j-1" / "submitted").mkdir(parents=True)
    live = scratch.make("run", tmp)
    assert left.exists() and scratch.stale(left, later())
    assert scratch.sweep((tmp,), later()) == [left]
    assert not left.exists() and live.path.exists()
    live.close()


def test_an_older_graders_folders_go_only_when_their_process_is_gone(tmp):
    dead = subprocess.Popen(["true"])
    dead.wait()
    gone, alive, young = tmp / f"ptg-worker-{dead.pid}", tmp / f"ptg-worker-{os.getpid()}", tmp / "ptg-abc123"
    for path in (gone, alive, young):
        path.mkdir()
    assert scratch.sweep((tmp,), time.time()) == []  # with no lock yet, it may be one being made
    assert set(scratch.sweep((tmp,), later())) == {gone}
    assert alive.exists() and young.exists()
    assert scratch.sweep((tmp,), time.time() + scratch.UNLOCKED_STALE_S + 60)  # a day untouched: gone too


def test_a_folder_whose_lock_went_with_a_raced_removal_goes_when_its_process_is_gone(tmp):
    # Found in /tmp after a helper's run: ``ptg-worker-<pid>-<random>`` whose close() removed the lock but
    # not a job folder a job was still writing its marker into; it stayed a day under the old rule.
    dead = subprocess.Popen(["true"])
    dead.wait()
    left, alive = tmp / f"ptg-worker-{dead.pid}-hmijd__o", tmp / f"ptg-run-{os.getpid()}-abc"
    for path in (left, alive):
        (path / "j-1").mkdir(parents=True)
        (path / "j-1" / "ended").write_text("ok")
    assert scratch.sweep((tmp,), later()) == [left]
    assert alive.exists()


def test_only_the_users_own_folders_are_swept(tmp, monkeypatch):
    left = _killed_owner(tmp)
    monkeypatch.setattr(os, "getuid", lambda: os.geteuid() + 1)  # as another user sees them
    assert scratch.sweep((tmp,), later()) == [] and left.exists()


def test_nothing_is_swept_while_folders_are_kept_for_debugging(tmp, monkeypatch):
    left = _killed_owner(tmp)
    monkeypatch.setenv("PTGRADE_KEEP", "1")
    assert scratch.sweep((tmp,), later()) == [] and left.exists()


def test_multiprocessing_folder_goes_inside_the_process_folder():
    """A fork server's socket folder (pymp-*) lies in the process's private folder, not in /tmp."""
    import tempfile

    tmp = Path(tempfile.mkdtemp(prefix="ptt-", dir="/tmp"))  # short: a socket's path must fit
    code = textwrap.dedent("""
        import multiprocessing, multiprocessing.util
        from grader import scratch
        folder = scratch.process_folder()
        scratch.keep_multiprocessing_inside(folder)
        ctx = multiprocessing.get_context("forkserver")
        p = ctx.Process(target=print)
        p.start(); p.join()
        print(folder, multiprocessing.util.get_temp_dir())
    """)
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120,
                         env={**os.environ, "TMPDIR": str(tmp)}, check=True).stdout.split()
    folder, mp_dir = out[-2], out[-1]
    assert mp_dir.startswith(folder + "/pymp-") and folder.startswith(str(tmp))
    assert list(tmp.iterdir()) == []  # both removed when the process ended
    tmp.rmdir()


def test_a_kernels_temporary_folder_is_never_the_shared_one(tmp):
    """In the jail: its private /tmp. Without bubblewrap: a folder in the job's own, gone with it."""
    from grader.run import jobs

    assert jobs._kernel_env(tmp, jobs.Limits(), None)["TMPDIR"] == "/tmp"
    unjailed = jobs._kernel_env(tmp, jobs.Limits(), None, jailed=False)["TMPDIR"]
    assert unjailed == str(tmp / ".tmp") and Path(unjailed).is_dir()
    env = jobs._process_env(tmp, tmp / "rt", {"TMPDIR": "/tmp"})
    assert env["TMPDIR"] == str(tmp / "tmp") and (tmp / "tmp").is_dir()
