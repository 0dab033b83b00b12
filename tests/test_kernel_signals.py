"""A kernel's pid and process group are signalled only while they are certainly its own.

A reaped process's number is free: on a busy grading machine (pid_max 32768, a class of kernels,
a fork bomb in one of them) it soon names another job's process, such as its nbgrader process
(a session leader, so its pid is also a process-group id). Two ways the grader sent SIGKILL to
such a number, and so killed another notebook's grading silently ("could not be graded", nothing
in its log but nbgrader's usual warnings):

* the watchdog thread polled the kernel's process with ``Popen.poll``, which reaps it;
* jupyter_client's ``LocalProvisioner.kill`` signals the process group recorded at launch, even
  after the process was reaped (``has_process`` stays true until ``wait``).

These tests force the interleaving (reaped first, signalled after), with no real kernel.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import threading
import time
from types import SimpleNamespace

import pytest

from grader.jail import execute, sandbox


@pytest.fixture
def signals(monkeypatch):
    """Every os.kill / os.killpg sent to a number in ``watched`` is recorded, not sent."""
    sent, watched = [], set()
    real_kill, real_killpg = os.kill, os.killpg

    def kill(pid, sig):
        if pid in watched or -pid in watched:
            sent.append(("kill", pid, sig))
            return None
        return real_kill(pid, sig)

    def killpg(pgid, sig):
        if pgid in watched:
            sent.append(("killpg", pgid, sig))
            return None
        return real_killpg(pgid, sig)

    monkeypatch.setattr(os, "kill", kill)
    monkeypatch.setattr(os, "killpg", killpg)
    return SimpleNamespace(sent=sent, watched=watched)


def _reaped_child() -> tuple[subprocess.Popen, int]:
    proc = subprocess.Popen(["sleep", "30"], start_new_session=True)  # as jupyter_client starts a kernel
    pgid = os.getpgid(proc.pid)
    proc.kill()
    proc.wait()  # reaped: its number is free for the next process the machine starts
    return proc, pgid


def test_exited_does_not_reap():
    running = subprocess.Popen(["sleep", "30"])
    done = subprocess.Popen(["true"])
    try:
        assert not sandbox.exited(running)
        deadline = time.monotonic() + 30
        while not sandbox.exited(done) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert sandbox.exited(done) and done.returncode is None  # ended, still ours to reap
        assert os.waitid(os.P_PID, done.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    finally:
        running.kill()
        running.wait()
        done.wait()


def test_a_reaped_child_is_never_signalled(signals):
    proc, pgid = _reaped_child()
    signals.watched.update({proc.pid, pgid})
    assert sandbox.kill_child(proc, pgid) is False
    assert signals.sent == []


def test_kill_child_signals_a_live_child_group():
    proc = subprocess.Popen(["sleep", "30"], start_new_session=True)
    assert sandbox.kill_child(proc, os.getpgid(proc.pid)) is True
    assert proc.wait(timeout=30) == -signal.SIGKILL


def test_kernel_manager_never_kills_a_reaped_kernel(signals):
    """nbclient saw the kernel alive, then the kernel died and was reaped; the immediate shutdown
    that follows must not SIGKILL its old process group (jupyter_client's own kill does)."""
    from jupyter_client.kernelspec import KernelSpec
    from jupyter_client.provisioning import LocalProvisioner

    proc, pgid = _reaped_child()
    signals.watched.update({proc.pid, pgid})
    provisioner = LocalProvisioner(kernel_id="k", kernel_spec=KernelSpec(argv=["python3"]))
    provisioner.process, provisioner.pid, provisioner.pgid = proc, proc.pid, pgid
    km = execute.JailedKernelManager()
    km.jail = SimpleNamespace(zygote=None)  # a grading job's kernel
    km.provisioner = provisioner
    asyncio.run(km._async_kill_kernel())
    assert signals.sent == []


def test_watchdog_never_reaps_the_kernel():
    """The watchdog thread sees the kernel end without reaping it: only the main thread does, so the
    kernel's number is still its own whenever the main thread signals it."""
    proc = subprocess.Popen(["sleep", "0.2"], start_new_session=True)
    job = SimpleNamespace(_kernel_process=lambda: proc, _dead_reason=None)
    before = set(threading.enumerate())
    execute.JailedExecute._watch(job, 0.01, lambda pid: None)
    for thread in set(threading.enumerate()) - before:
        thread.join(timeout=60)
    try:
        assert proc.returncode is None  # not reaped by the watchdog
        assert os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    finally:
        proc.wait()


def test_a_job_past_its_time_is_stopped_with_its_group():
    """A job process (and what it started in its group) past the notebook's time limit is killed;
    one that ends in time is left alone."""
    from grader.run import jobs

    quick = jobs._context().Process(target=time.sleep, args=(0,))
    quick.start()
    assert jobs._finished(quick, 60) is True and quick.exitcode == 0
    slow = jobs._context().Process(target=time.sleep, args=(120,))
    slow.start()
    started = time.monotonic()
    assert jobs._finished(slow, 1) is False
    assert not slow.is_alive() and time.monotonic() - started < 60
