"""The grader's own faults: telling a grading process that died from a learner's notebook that failed.

A job's processes are the grader's (its Dask worker, the fork server that starts job processes, the
job process running nbgrader) but for one: the learner's kernel, jailed. The kernel dying (a memory
limit, a crash) is the notebook's own doing and is graded as such (grader/jail/execute.py). A grading
process dying is never the learner's: the job is *lost*, and the driver runs it again in a fresh
process (:func:`grader.run.executors.retrying`, ``settings.JOB_RETRIES``) and says so in the report.

How a lost job is recognised, in the job's parent (:func:`lost`): the job process writes the marker
``ended`` (``ok`` or ``error``) as its very last act, whatever nbgrader did. An exit with no marker is
a death from outside the job's Python: a signal, the OOM killer, or the fork server gone (its child's
exit code reads 255). A kernel that died with the warm-kernel server it was forked from (grader/jail/zygote.py,
which a job checks only after a kernel death) is a lost job too: the learner's code is held to its own
kernel's end, not to the server's. (A notebook that kills its zygote itself gains nothing: each try is
lost, and it "could not be graded", flagged for the instructor.) A job process outlives a dead fork server only for a moment: it dies with its
parent (:func:`die_with_parent`), and :func:`lost` kills it if it is still there.

The test hook (``PTGRADE_FAULT``, tests only): a folder of files, each holding ``<process> <student>
[always]``; a job of that student reaching its first graded test cell claims the first such file
(renames it: once, across processes) and kills that process there, mid-run: ``job`` (itself), ``forkserver`` (its parent), ``worker`` (the Dask
worker above the fork server), ``zygote`` (the warm-kernel server its kernel came from, and so the
kernel with it) or ``kernel`` (the learner's kernel: the control, which is *not* lost).
"""

from __future__ import annotations

import os
import signal
from pathlib import Path

MARKER = "ended"  # in the job's folder: written by the job process as it ends
PROCESSES = ("job", "forkserver", "worker", "zygote", "kernel")
FAULT_VARIABLE = "PTGRADE_FAULT"


# -- the job process's side -----------------------------------------------------------------------
def die_with_parent() -> None:
    """This process gets SIGKILL when its parent (the fork server) dies: no orphan grades on."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def write_marker(job_dir: str, ok: bool) -> None:
    try:
        with open(os.path.join(job_dir, MARKER), "w") as f:
            f.write("ok" if ok else "error")
    except OSError:
        pass


# -- the parent's side ----------------------------------------------------------------------------
def marker(job_dir: Path) -> str | None:
    """``ok``, ``error`` (nbgrader's own failure, a Python exception) or ``None`` (no orderly end)."""
    try:
        return (job_dir / MARKER).read_text().strip() or None
    except OSError:
        return None


def handle(pid: int):
    """The job process as psutil sees it now (its start time makes a reused number harmless), or None."""
    import psutil

    try:
        return psutil.Process(pid)
    except psutil.Error:
        return None


def lost(exitcode: int | None, ended: str | None, job) -> str:
    """Why the job's grading process died (plain words for the instructor), or ``""`` when it ended in
    order (``ended`` is the marker). A job process still running after its fork server died is killed."""
    if ended is not None:  # its Python reached its end: nbgrader's own verdict stands
        return ""
    if exitcode == 0:
        return "the job process ended without finishing (exit 0, no end marker)"
    alive = job is not None and _running(job)
    if alive:
        _kill(job)
    if exitcode is not None and exitcode < 0:
        try:
            name = signal.Signals(-exitcode).name
        except ValueError:
            name = f"signal {-exitcode}"
        return f"the job process was killed by {name}" + (" (the OOM killer, or another process)" if
                                                          -exitcode == signal.SIGKILL else "")
    if exitcode == 255:
        return "the job's fork server died" + (" (its job process was stopped)" if alive else "")
    return f"the job process died (exit {exitcode}) before it finished"


def _running(job) -> bool:
    import psutil

    try:
        return job.is_running() and job.status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


def _kill(job) -> None:
    """SIGKILL the job process's group (it leads one: os.setsid) and the process, if it is the same one."""
    import psutil

    try:
        if job.is_running():
            try:
                if os.getpgid(job.pid) == job.pid:
                    os.killpg(job.pid, signal.SIGKILL)
            except OSError:
                pass
            job.kill()
            job.wait(timeout=10)
    except (psutil.Error, OSError):
        pass


# -- the test hook --------------------------------------------------------------------------------
def _faults(folder: str, student: str) -> list[tuple[Path, list[str]]]:
    """The fault files of ``folder`` that name ``student`` (or ``*``), in name order, with their words."""
    found = []
    for path in sorted(Path(folder).iterdir()) if folder else ():
        if path.name.startswith("."):
            continue  # claimed already
        try:
            words = path.read_text().split()
        except OSError:
            continue  # claimed meanwhile
        if len(words) >= 2 and words[0] in PROCESSES and words[1] in (student, "*"):
            found.append((path, words))
    return found


def armed(student: str) -> str | None:
    """The fault folder, when it holds a fault for a job of ``student`` (read where the job starts), or None."""
    from grader import settings

    folder = settings.environment().fault or ""
    return folder if os.path.isdir(folder) and _faults(folder, student) else None


def arm(execute_class, folder: str, student: str) -> None:
    """In a job process: fire a fault of ``folder`` at the notebook's first graded test cell."""
    from ptcourse.nbmodel import role

    original = execute_class.preprocess_cell

    def preprocess_cell(self, cell, resources, index):
        if cell.cell_type == "code" and role(cell) == "test":
            fire(folder, student, self)
        return original(self, cell, resources, index)

    execute_class.preprocess_cell = preprocess_cell


def fire(folder: str, student: str, executor=None) -> None:
    """Claim the first fault for ``student`` (only one process can: a rename) and kill the process it
    names; a fault whose third word is ``always`` is never claimed: every job of its student is killed
    (a reference that never completes). Nothing left for ``student``: nothing happens."""
    global _FIRED
    if _FIRED:
        return  # one fault per job process: it is about to die
    for path, words in _faults(folder, student):
        if words[2:3] != ["always"]:
            try:
                os.rename(path, path.with_name(f".fired-{path.name}"))
            except OSError:
                continue  # another job claimed it
        _FIRED = True
        _kill_named(words[0], executor)
        if words[0] in ("forkserver", "worker"):
            import time

            time.sleep(120)  # its parent gone, this job dies with it (die_with_parent) or is stopped (lost)
        return


_FIRED = False


def _kill_named(process: str, executor) -> None:
    if process == "job":
        os.kill(os.getpid(), signal.SIGKILL)
    elif process == "forkserver":
        os.kill(os.getppid(), signal.SIGKILL)
    elif process == "worker":
        _kill_worker()
    elif process == "zygote":
        _kill_zygote()
    elif process == "kernel" and executor is not None:
        from grader.jail import sandbox

        sandbox.kill_tree(executor.km.provisioner.process.pid)


def _kill_zygote() -> None:
    """The jail of the warm-kernel server (grader/jail/zygote.py) this job's kernel was forked from: its
    bubblewrap, found by the zygote's own folder on its command line (the zygote itself is in its jail)."""
    import json

    import psutil

    from grader import settings

    jail = settings.environment().jail
    try:
        with open(jail or "") as f:
            sock = json.load(f).get("zygote")
    except (OSError, ValueError):
        return
    if not sock:
        return
    slot = os.path.join(os.path.dirname(sock), "slot")
    for proc in psutil.process_iter(["cmdline"]):
        if slot in (proc.info["cmdline"] or []) and "bwrap" in os.path.basename((proc.info["cmdline"] or [""])[0]):
            proc.kill()


def _kill_worker() -> None:
    """The Dask worker above this job's fork server; never anything else (the local pool's driver)."""
    import psutil

    worker = psutil.Process(os.getppid()).parent()
    if worker is not None and any("spawn_main" in part for part in worker.cmdline()):
        worker.kill()
