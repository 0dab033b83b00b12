"""One grading job: one student's notebook, autograded by nbgrader in a private course folder.

A job folder holds a copy of the template gradebook, the one submitted notebook and an
``nbgrader_config.py`` that loads the course's configuration and swaps nbgrader's ``Execute``
step for :class:`grader.jail.execute.JailedExecute`. ``nbgrader autograde`` runs there as a child
process of its own (so a crash of nbgrader itself stays inside the job) under a wall-clock
limit for the whole notebook; the kernel it starts is jailed (:mod:`grader.jail.sandbox`).
"""

from __future__ import annotations

import functools
import json
import multiprocessing
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

import nbformat

from grader import compat, scratch, settings
from grader.grades import gradebook
from grader.jail import faults, inductor, sandbox, zygote
from grader.judge import cell_words
from grader.judge.guard import course_names
from grader.judge.observations import ObserveSpec
from grader.records import CellKind, Disagreed, GradedNotebook, Integrity, Status, Verdict
from ptcourse.messages import msg_in

JOB_CONFIG = """\
c.CourseDirectory.source_directory = "source"
c.CourseDirectory.submitted_directory = "submitted"
c.CourseDirectory.autograded_directory = "autograded"
c.Execute.timeout = {cell_timeout}
c.Execute.shutdown_kernel = "immediate"  # the kernel is thrown away: don't wait for it to tidy up
# After a cell's reply, how long its last output messages may lag behind it. nbgrader makes a lag past
# this an error, and the grader then stops the kernel as stuck: nbclient's 4 s are reached on a
# machine busy enough (a class graded beside other work), and an honest notebook lost its later cells.
c.Execute.iopub_timeout = {iopub_timeout}
# nbconvert checks the notebook against its schema after each preprocessor (a dozen a job); once, after
# the last of each pass, is nbconvert's own option: an invalid notebook fails the job all the same.
c.Exporter.optimistic_validation = True
c.Autograde.autograde_preprocessors = [
""" + "".join(f'    "{name}",\n' for name in compat.autograde_preprocessors("grader.jail.execute.JailedExecute")) + "]\n"


_CONTEXT = None


def _context():
    """A fork server that has imported nbgrader once: a job then starts in milliseconds."""
    global _CONTEXT
    if _CONTEXT is None:
        ctx = multiprocessing.get_context("forkserver")
        scratch.keep_multiprocessing_inside(scratch.process_folder())  # its socket's folder: never left in /tmp
        ctx.set_forkserver_preload(["grader._preload"])
        _CONTEXT = ctx
    return _CONTEXT


def _nbgrader_main(argv: list[str], cwd: str, env: dict[str, str], log_path: str,
                   task: RecordTask | None = None, observe: ObserveSpec | None = None, fault: str | None = None,
                   guard_names: list | None = None) -> None:
    """Body of a job process: ``nbgrader <argv>`` in ``cwd``, output to ``log_path``; then, with
    ``task``, the job's one output, its :class:`GradedNotebook` (:func:`_write_record`). ``observe``: the second key
    (grader/judge/observations.py), handed over in memory; ``guard_names``: what the guard protects (:func:`protected_names`).
    Its last act is the marker that tells an orderly
    end from a grading process that died (grader/jail/faults.py); ``fault``: the tests' hook there."""
    faults.die_with_parent()  # the fork server gone: this job is lost, and stops (the grader retries it)
    os.setsid()  # its own process group, so a time-out can kill it and everything it started
    ok = False
    try:
        _nbgrader_job(argv, cwd, env, log_path, task, observe, fault, guard_names)
        ok = True
    except SystemExit as exc:
        ok = exc.code in (0, None)
        raise
    finally:
        faults.write_marker(cwd, ok)


def _nbgrader_job(argv: list[str], cwd: str, env: dict[str, str], log_path: str, task: RecordTask | None,
                  observe: ObserveSpec | None, fault: str | None, guard_names: list | None = None) -> None:
    os.chdir(cwd)
    os.environ.clear()
    os.environ.update(env)
    tempfile.tempdir = env.get("TMPDIR")  # the job's own folder: whatever nbgrader writes goes with it
    fd = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    sys.stdout = open(1, "w", buffering=1, closefd=False)
    sys.stderr = open(2, "w", buffering=1, closefd=False)
    from nbgrader.apps.nbgraderapp import NbGraderApp

    gradebook.scratch_gradebook()  # this process's one database is the job's private copy
    compat.schema_checked_once()  # nbgrader's cell-metadata schema, checked once per job
    compat.warnings_never_fail()  # a warning is a note on the page, never a failed check
    compat.autogrades_saved_at_once()  # the grades read once, one commit
    compat.course_cells_read_once()  # the course's cells read once
    from grader.jail import execute

    sys.argv = ["nbgrader", *argv]
    execute.OBSERVE, execute.OBSERVED_PATH = observe, os.path.join(cwd, "observed.json")
    execute.INTEGRITY_PATH = os.path.join(cwd, "integrity.json")
    execute.COURSE_NAMES = guard_names
    if fault:
        faults.arm(execute.JailedExecute, fault, task.student if task else "")
    execute.start_kernel_early()  # it boots while nbgrader prepares the notebook
    try:
        NbGraderApp.launch_instance(argv)
    finally:
        execute.discard_early_kernel()
    if task is not None:
        _write_record(task, observe)


RECORD_NAME = "graded.json"  # in the job's folder: the job's one output, its GradedNotebook as JSON


@dataclass(frozen=True)
class RecordTask:
    """What the job process needs to write its record: the job's gradebook, its notebook's ids, the
    messages' language, the graded notebook nbgrader writes, the job's folder and its runtime folder."""

    db_url: str
    day: str
    student: str
    notebook: str
    lang: str
    autograded: str
    job_dir: str
    runtime: str


def _write_record(task: RecordTask, observe: ObserveSpec | None) -> None:
    """In the job process, where the gradebook is open already: the job's :class:`GradedNotebook`, written
    once, as JSON, in ``<job>/graded.json``. Whatever goes wrong is said in the record (an ERROR, its
    detail for the instructor), never left for the driver to guess."""
    try:
        record = job_record(task, observe)
    except Exception as exc:  # noqa: BLE001 - said in the record, for the instructor
        record = GradedNotebook(Status.ERROR, msg_in(task.lang, "grader.job.unreadable_result") + f" ({exc!r})")
    out = Path(task.job_dir) / RECORD_NAME
    part = out.with_name(out.name + ".part")
    part.write_text(json.dumps(record.to_json()))
    os.replace(part, out)


def job_record(task: RecordTask, observe: ObserveSpec | None = None) -> GradedNotebook:
    """The record of a job that ran to its end: nbgrader's scores from the job's gradebook, each failing
    check's message and kind from the graded notebook, what the guard and the second key saw, timings."""
    graded = gradebook.read_job_record(task.db_url, task.day, task.student, task.notebook)
    graded_nb = nbformat.read(task.autograded, as_version=4)
    failures = failures_of(graded_nb, task.lang)
    found = job_findings(Path(task.job_dir), Path(task.runtime), graded=True)
    judged = verdicts(found.integrity, (observe.reference or {}) if observe else {})
    checks = tuple(replace(c, **failures.get(c.grade_id, {}), verdict=judged.get(c.grade_id)) for c in graded.checks)
    checks = tuple(replace(c, verdict=None) if c.message and c.verdict == Verdict.AGREED else c for c in checks)
    return replace(graded, checks=checks, integrity=found.integrity, observed=found.observed,
                   cells_s=found.cells_s, kernel_death=found.kernel_death)


def verdicts(integrity: Integrity | None, reference: dict) -> dict[str, Verdict]:
    """Each check's verdict from the guard and the second key: voided, disagreed, unjudged, else agreed
    where the reference observed it (a check that failed in the kernel is not judged: :func:`job_record`)."""
    out = {g: Verdict.AGREED for g in reference}
    if integrity is not None:
        out.update({d.grade_id: Verdict.UNJUDGED for d in integrity.unjudged})
        out.update({d.grade_id: Verdict.DISAGREED for d in integrity.disagreed})
        out.update({v.grade_id: Verdict.VOIDED for v in integrity.voided})
    return out


def _read_record(path: Path, lang: str) -> GradedNotebook:
    """The job's record, as its process wrote it; one it did not write, or that cannot be read, is an ERROR."""
    try:
        return GradedNotebook.from_json(json.loads(path.read_text()))
    except (OSError, ValueError, RecursionError) as exc:  # RecordError is a ValueError
        return GradedNotebook(Status.ERROR, msg_in(lang, "grader.job.unreadable_result") + f" ({exc})")


@dataclass(frozen=True)
class Limits:
    """Per-job limits."""

    cell_timeout: int = settings.CELL_TIMEOUT_S
    notebook_timeout: int = settings.NOTEBOOK_TIMEOUT_S
    memory_bytes: int = settings.MEMORY_BYTES
    output_bytes: int = settings.OUTPUT_BYTES
    disk_bytes: int = settings.DISK_BYTES  # files the kernel may write (its folder, and a warm kernel's /tmp)
    threads: int = 1
    gpu: bool = False  # the kernel may use the NVIDIA GPU (see sandbox.KernelJail.gpu)


# Error outputs the grader itself writes: their message is already plain words.
GRADER_ERRORS = {"GraderIntegrity", "GraderObservation", "GraderBounds", "KernelDied", "NotRun", "CellTimeoutError",
                 "OutputCapped"}


def error_text(output, lang: str = "en") -> str:
    """The plain-words part of an error output: ``Name: message``, without the traceback."""
    ename, evalue = output.get("ename", "Error"), output.get("evalue", "")
    if ename in {"CheckFailed", "AssertionError", *GRADER_ERRORS} and evalue:
        return evalue
    if ename == "NotImplementedError" and not evalue:
        return msg_in(lang, "grader.cell.not_done")
    return cell_words.headline(ename, evalue, lang)  # no catalogued message: the exception's own words


STOPPED = {"KernelDied", "NotRun", "CellTimeoutError"}


def failure_kind(output) -> CellKind:
    """Why a graded cell failed: a mistake, not attempted, stopped (by the grader) or unproven (integrity)."""
    ename = output.get("ename", "")
    if ename in STOPPED:
        return CellKind.STOPPED
    if ename in ("GraderIntegrity", "GraderBounds"):  # GraderBounds: grader/jail/bounds.py refused what it sent
        return CellKind.INTEGRITY
    if ename == "NotImplementedError":
        return CellKind.NOT_ATTEMPTED
    return CellKind.MISTAKE


def failures_of(nb, lang: str = "en") -> dict[str, dict]:
    """For each graded cell with an error output, what its check result says about it: the message
    (``message``, and ``message_id`` where the grader's own catalogue wrote it) and the kind
    (:func:`failure_kind`), as :class:`CheckResult` fields."""
    out = {}
    for cell in nb.cells:
        meta = cell.get("metadata", {}).get("nbgrader", {})
        errors = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"]
        if cell.cell_type == "code" and meta.get("grade") and errors:
            last = errors[-1]
            not_done = last.get("ename") == "NotImplementedError" and not last.get("evalue")
            out[meta["grade_id"]] = {"message": error_text(last, lang), "kind": failure_kind(last),
                                     "message_id": "grader.cell.not_done" if not_done else None}
    return out


def _hidden_paths(roots: list[Path]) -> list[str]:
    """Existing folders to hide, as real paths, outermost first. A folder inside another is kept: the
    jail may show something again inside the outer one (the course package inside the checkout), and
    the inner one stays hidden there (sandbox.KernelJail._hidden)."""
    return sorted({str(Path(r).resolve()) for r in roots if Path(r).exists()} - {"/"}, key=lambda p: (len(p), p))


def _put_back() -> list[str]:
    """What the kernel is shown besides the system (sandbox.system_binds), read-only: Python and its
    environment wherever they live, the course package's own folder (not the checkout around it: no
    solutions, no grader) and the bundled data that notebooks read."""
    import ptcourse

    package = Path(ptcourse.__file__).resolve().parent
    paths = [*map(Path, sandbox.environment_dirs()), package, gradebook.COURSE_ROOT / "data",
             *_editable_sources("ptcourse")]
    return [str(p) for p in dict.fromkeys(paths) if p.exists()]


def _editable_sources(package: str) -> list[Path]:
    """Where this environment's editable install maps ``package`` (setuptools' finder), which is what a
    kernel imports when the grader itself imported another copy (Gradescope's source folder, say)."""
    found = []
    modules = sys.modules.copy()  # one step: other threads import meanwhile (iterating it raised)
    for name, module in modules.items():
        mapping = getattr(module, "MAPPING", None) if name.startswith("__editable__") else None
        if isinstance(mapping, dict) and package in mapping:
            mapped = Path(mapping[package]).resolve()
            found.append(mapped if mapped.is_dir() else mapped.parent)
    return found


def _kernel_env(cwd: Path, limits: Limits, env: dict[str, str] | None, jailed: bool = True) -> dict[str, str]:
    """The jail's own part of a kernel's environment, for a kernel working in ``cwd``. Its temporary folder:
    the jail's private ``/tmp``, or without bubblewrap one in the job's folder (gone with it), never the
    host's shared one."""
    tmp = "/tmp"
    if not jailed:
        (cwd / ".tmp").mkdir(exist_ok=True)
        tmp = str(cwd / ".tmp")
    return {
        "HOME": str(cwd), "MPLCONFIGDIR": str(cwd / ".mpl"), "IPYTHONDIR": str(cwd / ".ipython"),
        "PTCOURSE_THREADS": str(limits.threads), "OMP_NUM_THREADS": str(limits.threads),
        "TORCHINDUCTOR_CACHE_DIR": str(cwd / ".inductor"), "TRITON_CACHE_DIR": str(cwd / ".triton"),
        "MPLBACKEND": "module://matplotlib_inline.backend_inline", "PYTHONDONTWRITEBYTECODE": "1", "TMPDIR": tmp,
        **(env or {}),
    }


def _process_env(job_dir: Path, runtime: Path, kernel_env: dict[str, str]) -> dict[str, str]:
    """The job process's environment: nbgrader's, the kernel's, the jail's description; its temporary
    folder inside the job's folder."""
    (job_dir / "tmp").mkdir(exist_ok=True)
    return {**gradebook.nbgrader_env(), **kernel_env, "PTGRADE_JAIL": str(runtime / "jail.json"),
            "TMPDIR": str(job_dir / "tmp"), "JUPYTER_RUNTIME_DIR": str(runtime),
            "PYTHONPATH": os.pathsep.join(filter(None, [str(gradebook.COURSE_ROOT), settings.environment().python_path]))}


def run_job(
    *,
    job_dir: Path,
    day: str,
    student: str,
    notebook: str,
    nb: nbformat.NotebookNode,
    template: Path,
    limits: Limits,
    iso: sandbox.Isolation,
    hide: list[Path],
    timestamp: str | None = None,
    env: dict[str, str] | None = None,
    due: str | None = None,
    observe: ObserveSpec | None = None,
    zygotes: zygote.Pool | None = None,
    guard_names: list | None = None,
    preload: tuple[str, ...] = (),
) -> JobOutcome:
    """Autograde one notebook; never raises for anything the notebook does. ``env["PTCOURSE_LANG"]``: its kernel's
    and its messages' language. ``zygotes``: the executor's warm kernels (None: a kernel the classic way).
    ``guard_names``: what the guard protects (:func:`protected_names`; None: worked out in the job);
    ``preload``: what its zygote imports beside the usual (:func:`zygote_preload`)."""
    started = time.monotonic()
    lang = (env or {}).get("PTCOURSE_LANG") or "en"
    if job_dir.exists():
        shutil.rmtree(job_dir)
    sub_dir = job_dir / "submitted" / student / day
    sub_dir.mkdir(parents=True)
    (job_dir / "source" / day).mkdir(parents=True)
    hidden = _hidden_paths([*hide, Path("/tmp"), Path.home()]) if iso.bwrap else []
    put_back = _put_back() if iso.bwrap else []
    # A warm kernel from a zygote of the executor's where the whole jail is available (grader/jail/zygote.py).
    zyg = (zygotes.for_job(iso, limits, hidden, put_back, lambda c: _kernel_env(Path(c), limits, env), preload)
           if zygotes else None)
    clean = False  # the job held its zygote to the end: it goes back to the others (else it is stopped)
    try:
        runtime, cwd = (Path(zyg.runtime), Path(zyg.cwd)) if zyg else (job_dir / "rt", job_dir / "cwd")
        runtime.mkdir(exist_ok=True)
        cwd.mkdir(exist_ok=True)
        inductor.plant(nb, gradebook.CACHE, cwd / ".inductor")  # torch.compile's CPU checks, made once (grader/jail/inductor.py)
        nbformat.write(nb, str(sub_dir / f"{notebook}.ipynb"))
        if timestamp:
            (sub_dir / "timestamp.txt").write_text(timestamp)
        db_url = _job_gradebook(job_dir, template, day, notebook, due, limits, student)
        group_name = f"ptgrade-{os.getpid()}-{job_dir.name}"  # sandbox.sweep_stale reads the pid back
        cgroup = sandbox.make_cgroup(iso, group_name, limits.memory_bytes)
        pids = sandbox.make_pids_cgroup(iso, group_name)
        kernel_env = _kernel_env(cwd, limits, env, iso.bwrap)
        jail = _jail(cwd, runtime, hidden, put_back, iso, (cgroup, pids), limits, kernel_env, zyg)
        (runtime / "jail.json").write_text(json.dumps(jail.to_dict()))
        proc_env = _process_env(job_dir, runtime, kernel_env)
        autograded = job_dir / "autograded" / student / day / f"{notebook}.ipynb"
        task = RecordTask(db_url, day, student, notebook, lang, str(autograded), str(job_dir), str(runtime))
        status, detail, lost, exitcode = _run_nbgrader(job_dir, proc_env, limits.notebook_timeout, observe, task, guard_names)
        peak = sandbox.cgroup_peak(cgroup)
        sandbox.remove_cgroup(cgroup)
        sandbox.remove_cgroup(pids)

        if not lost:
            result = _outcome(status, detail, exitcode, task, autograded)
            if zyg is not None and result.record.kernel_death and not zyg.alive():  # the kernel's death came from above
                lost = "the warm-kernel server (zygote) that forked its kernel died"
        if lost:
            return JobOutcome.failed(Status.ERROR, f"lost: {lost}", lost=lost, peak_bytes=peak,
                                     wall_s=time.monotonic() - started)
        result.record = replace(result.record, wall_s=time.monotonic() - started, peak_bytes=peak)
        clean = True
        return result
    finally:
        if zygotes is not None:
            (zygotes.release if clean else zygotes.discard)(zyg)


def _run_nbgrader(job_dir: Path, proc_env: dict[str, str], timeout: float, observe: ObserveSpec | None,
                  task: RecordTask, guard_names: list | None = None) -> tuple[Status, str, str, int | None]:
    """``nbgrader autograde`` in a job process of the fork server, within ``timeout``: the status, its
    detail, why the job was lost (a grading process died: grader/jail/faults.py; ``""`` if not) and the exit code."""
    student, day, lang = task.student, task.day, task.lang
    proc = _context().Process(
        target=_nbgrader_main,
        args=(["autograde", day, "--student", student, "--force", "--log-level=WARN"],
              str(job_dir), proc_env, str(job_dir / "nbgrader.log"), task, observe, faults.armed(student), guard_names),
        daemon=False,
    )
    proc.start()
    job_proc = faults.handle(proc.pid)
    if not _finished(proc, timeout):
        return Status.TIMEOUT, msg_in(lang, "grader.stopped.timeout", seconds=timeout), "", proc.exitcode
    # A grading process that died is the grader's fault, never the notebook's.
    ended = faults.marker(job_dir)
    lost = faults.lost(proc.exitcode, ended, job_proc)
    return Status.GRADED, "", lost, 0 if ended == "ok" else proc.exitcode  # ok, then its fork server died


def _job_gradebook(job_dir: Path, template: Path, day: str, notebook: str, due: str | None, limits: Limits,
                   student: str) -> str:
    """The job's private gradebook (the notebook's template, with this run's due date and the template's
    prepared hand-in given to ``student``) and its ``nbgrader_config.py``; returns the gradebook's URL."""
    shutil.copyfile(gradebook.notebook_template(template, day, notebook), job_dir / "gradebook.db")
    gradebook.write_due(job_dir / "gradebook.db", day, due, durable=False)  # this run's date, whatever the template holds
    gradebook.claim_hand_in(job_dir / "gradebook.db", student)
    db_url = "sqlite:///" + str(job_dir / "gradebook.db")
    (job_dir / "nbgrader_config.py").write_text(
        gradebook.course_folder_config(job_dir, db_url)
        + JOB_CONFIG.format(cell_timeout=int(limits.cell_timeout), iopub_timeout=settings.IOPUB_TIMEOUT_S)
    )
    return db_url


def _jail(cwd: Path, runtime: Path, hidden: list[str], put_back: list[str], iso: sandbox.Isolation,
          groups: tuple, limits: Limits, kernel_env: dict[str, str], zyg) -> sandbox.KernelJail:
    """How the job's kernel is confined: its folders, what it may not see, its cgroups and limits."""
    cgroup, pids = groups
    return sandbox.KernelJail(
        cwd=str(cwd), runtime=str(runtime), hide=hidden, read_only=put_back,
        bwrap=iso.bwrap, cgroup=str(cgroup) if cgroup else None, pids_cgroup=str(pids) if pids else None,
        pids_in_cgroup=sandbox.caps_tasks(cgroup),
        memory_bytes=limits.memory_bytes, output_bytes=limits.output_bytes, env=kernel_env, gpu=limits.gpu,
        disk_bytes=limits.disk_bytes, writable=[str(cwd), str(runtime), *([zyg.tmp, zyg.shm] if zyg else [])],
        zygote=zyg.socket_path if zyg else None,
    )


def _finished(proc, timeout: float) -> bool:
    """Whether the job process ended within ``timeout`` seconds; if not, it is stopped with everything it started.

    Its process group first, while the job process is alive (it leads the group): once it is dead
    the fork server reaps it at once, and the number may soon name another job's group."""
    proc.join(timeout=timeout)
    if not proc.is_alive():
        return True
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except OSError:
        pass
    sandbox.kill_tree(proc.pid)  # what left the group (psutil checks each process is still the one it saw)
    proc.join()
    return False


def _outcome(status: Status, detail: str, exitcode: int | None, task: RecordTask, autograded: Path) -> JobOutcome:
    """What the job left: the record its process wrote when it ran to its end, else one made here from
    what it did leave (a time-out: its timings and what the guard saw), and the graded notebook."""
    if status == Status.GRADED and (exitcode != 0 or not autograded.exists()):
        status = Status.ERROR
        detail = msg_in(task.lang, "grader.job.nbgrader_failed") + "\n" + _tail(Path(task.job_dir) / "nbgrader.log")
    if status != Status.GRADED:
        found = job_findings(Path(task.job_dir), Path(task.runtime), graded=False)
        return JobOutcome(GradedNotebook(status, detail, integrity=found.integrity, observed=found.observed,
                                         cells_s=found.cells_s, kernel_death=found.kernel_death))
    record = _read_record(Path(task.job_dir) / RECORD_NAME, task.lang)
    try:
        graded_nb = autograded.read_bytes() if record.status == Status.GRADED else None
    except OSError as exc:  # a corrupt output is reported, not raised
        record, graded_nb = GradedNotebook(Status.ERROR, msg_in(task.lang, "grader.job.unreadable_result") + f" ({exc})"), None
    return JobOutcome(record, graded_nb=graded_nb)


@dataclass(frozen=True)
class Findings:
    """What a job's Execute step left beside nbgrader's results: the guard's summary, the second key's
    observations (the job's own folder, which no kernel sees) and the kernel's timings (its runtime folder)."""

    integrity: Integrity | None = None
    observed: dict | None = None
    cells_s: float | None = None
    kernel_death: str | None = None


def job_findings(job_dir: Path, runtime: Path, graded: bool) -> Findings:
    """The job's :class:`Findings`; ``graded``: the notebook ran to its end (a missing guard summary is then a finding)."""
    cells_s, death = _read_runtime(runtime)
    integrity = _read_integrity(job_dir / "integrity.json", graded)
    observed, integrity = _read_observed(job_dir / "observed.json", integrity)
    return Findings(integrity, observed, cells_s, death)


def _read_runtime(runtime: Path) -> tuple[float | None, str | None]:
    """The kernel's time running cells and why it died (if it did), written by the job's Execute step."""
    try:
        data = json.loads((runtime / "timing.json").read_text())
    except (OSError, ValueError, RecursionError):
        return None, None
    if not isinstance(data, dict):
        return None, None
    cells_s, dead = data.get("cells_s"), data.get("dead")
    return (float(cells_s) if isinstance(cells_s, (int, float)) else None), (str(dead) if dead else None)


def _read_integrity(path: Path, graded: bool) -> Integrity | None:
    """The guard's summary (grader/judge/guard.py), from the job's folder. A graded notebook whose summary
    is missing, unreadable or not the guard's is one the guard could not vouch for: a finding, as
    when the guard was never installed; never a crash."""
    integrity = None
    try:
        data = json.loads(path.read_text())
        if isinstance(data, dict) and isinstance(data.get("installed"), bool) and all(
                isinstance(data.get(k), list) for k in ("restored", "machinery", "harmful", "voided")):
            integrity = Integrity.from_json(data)
    except (OSError, ValueError, RecursionError):  # RecordError is a ValueError
        integrity = None
    if integrity is None and graded and settings.environment().guard:
        return Integrity(installed=False)
    return integrity


def _read_observed(path: Path, integrity: Integrity | None) -> tuple[dict | None, Integrity | None]:
    """What the second key saw: a reference run's observations, or a learner's disagreements (added to
    ``integrity``)."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError, RecursionError):
        return None, integrity
    if not isinstance(data, dict):
        return None, integrity
    observed = data["observed"] if isinstance(data.get("observed"), dict) else None
    found = {key: tuple(Disagreed(str(d.get("grade_id")), str(d.get("detail", ""))) for d in data[key]
                        if isinstance(d, dict))
             for key in ("disagreed", "unjudged") if isinstance(data.get(key), list) and data[key]}
    if found:
        integrity = (integrity or Integrity()).with_disagreed(found.get("disagreed", ()), found.get("unjudged", ()))
    return observed, integrity


def _tail(path: Path, lines: int = 15) -> str:
    try:
        text = path.read_text(errors="replace").splitlines()
    except OSError:
        return ""
    keep = [line for line in text if "checksum" not in line]
    return "\n".join(keep[-lines:])


# -- the job as a pure task: JobSpec -> JobOutcome (the same on the local pool and on a cluster) --
@dataclass
class JobSpec:
    """One job, with nothing of the driver's machine in it: it can be pickled and run anywhere.

    The worker that runs it finds the course sources it holds itself, checks them against
    ``sources_digest``, builds (or reuses) its own template gradebook from them, probes its own
    sandbox and picks its own thread count (``limits.threads == 0``).
    """

    day: str
    student: str
    notebook: str
    nb_bytes: bytes  # the (repaired) submitted notebook, as JSON
    sources_digest: str  # gradebook.sources_digest of the assignment the driver grades against
    limits: Limits = field(default_factory=Limits)
    language: str = "en"  # PTCOURSE_LANG of the kernel: the language of the check messages
    timestamp: str | None = None
    due: str | None = None  # the assignment's due date in this run (ISO, UTC): with timestamp, the late penalty
    env: dict[str, str] = field(default_factory=dict)  # extra kernel environment
    sandbox: bool = True  # jail the kernel with bubblewrap (False only with --no-sandbox)
    allow_unsandboxed: bool = False  # a worker without bubblewrap or a memory cgroup may still grade
    observe: ObserveSpec | None = None  # the second key: the run's secret and the reference's observations
    # the notebooks of the day this run grades: what its zygotes import for them (zygote_preload); () all
    notebooks: tuple[str, ...] = ()


@dataclass
class JobOutcome:
    """What a job sends back, on the local pool and from a cluster alike: its :class:`GradedNotebook`
    (the one record of what the job found), the graded notebook's bytes, and how the job went (who ran
    it, whether a grading process died). Nothing in it names a path of the machine that ran it."""

    record: GradedNotebook
    graded_nb: bytes | None = None  # the autograded notebook
    worker: str = ""  # host:pid of the process that ran it
    lost: str = ""  # a grading process died (not the notebook's doing): why, for the instructor (grader/jail/faults.py)
    retries: tuple[str, ...] = ()  # why each earlier try of this job was lost (grader.run.executors.retrying)

    @classmethod
    def failed(cls, status: Status, detail: str, lost: str = "", worker: str = "", **record) -> JobOutcome:
        """A job with no results: refused, lost, or the grader's own error, and why."""
        return cls(GradedNotebook(status, detail, **record), lost=lost, worker=worker)

    @property
    def status(self) -> str:
        return self.record.status

    @property
    def detail(self) -> str:
        return self.record.detail


def whoami() -> str:
    import socket

    return f"{socket.gethostname()}:{os.getpid()}"


_ISO: dict[bool, sandbox.Isolation] = {}
_TEMPLATE_LOCK = threading.Lock()


def worker_isolation(use_bwrap: bool) -> sandbox.Isolation:
    """This process's sandbox layers, probed once."""
    if use_bwrap not in _ISO:
        _ISO[use_bwrap] = sandbox.probe(use_bwrap=use_bwrap, use_cgroup=True)
        sandbox.sweep_stale(_ISO[use_bwrap])
        scratch.sweep()  # and the folders they left (grader/scratch.py)
    return _ISO[use_bwrap]


@functools.lru_cache(maxsize=64)
def _names_of(path: str, stamp: tuple[int, int]) -> tuple:
    return tuple(course_names(nbformat.read(path, as_version=4)))


# CPython 3.11 parses with a recursion counter that two threads parsing at once can corrupt
# ("SystemError: AST constructor recursion depth mismatch"): the local pool's and a Dask worker's job
# threads work the names out one at a time.
_NAMES_LOCK = threading.Lock()


def protected_names(solution: Path) -> list | None:
    """The names the guard protects in a notebook (:func:`grader.judge.guard.course_names`), worked out
    once per worker from the course's own notebook (its locked and test cells, hidden tests included:
    what nbgrader puts back in every hand-in), not again in every job; None when the course has no such
    notebook (the job then works them out from the notebook it grades)."""
    try:
        stat = solution.stat()
    except OSError:
        return None
    with _NAMES_LOCK:
        return list(_names_of(str(solution), (stat.st_mtime_ns, stat.st_size)))


@functools.lru_cache(maxsize=16)
def zygote_preload(source: Path, notebooks: tuple[str, ...] = ()) -> tuple[str, ...]:
    """What the zygotes of jobs graded against ``source`` (a day's course notebooks) import beside the usual:
    the costly modules that ``notebooks`` (the run's; none given: every notebook of the day) use
    (:func:`grader.jail.zygote.needed`), the same for every job of the run, so its jobs share one zygote
    per worker."""
    code = []
    paths = [Path(source) / f"{n}.ipynb" for n in sorted(notebooks)] or sorted(Path(source).glob("*.ipynb"))
    for path in paths:
        try:
            nb = nbformat.read(str(path), as_version=4)
        except Exception:  # noqa: BLE001 - an unreadable course notebook: its job says so
            continue
        code += [cell.source for cell in nb.cells if cell.cell_type == "code"]
    return zygote.needed("\n".join(code))


def worker_sources(day: str) -> Path:
    """The course sources this worker holds for ``day``: ``$PTGRADE_COURSE_SOURCES/<day>`` or solutions/<day>."""
    root = settings.environment().course_sources
    return (Path(root) if root else gradebook.COURSE_ROOT / "solutions") / day


def worker_template(day: str, source: Path) -> Path:
    """The template gradebook built from this worker's sources (cached; one builder at a time: the
    other threads wait here, other processes on this machine in :func:`grader.grades.gradebook.build_template`)."""
    with _TEMPLATE_LOCK:
        return gradebook.build_template(day, source, gradebook.CACHE)


def cpu_share(cpus: int, among: int) -> int:
    """The one rule that splits CPUs: ``among`` processes or jobs at once share ``cpus`` (at least 1 each).
    A machine's CPUs among Dask worker processes (cluster.DaskExecutor.local), then a process's CPUs among
    the jobs it runs at once (a kernel's threads: :func:`kernel_limits`)."""
    return max(1, cpus // max(1, among))


def worker_cpus() -> int:
    """CPUs this worker may use: ``PTGRADE_CPUS`` (set for workers sharing one machine) or its CPU quota."""
    from ptcourse.cpus import available_cpus

    cpus = settings.environment().cpus
    return available_cpus() if cpus is None else cpus


def refusal(spec: JobSpec, source: Path | None = None, iso: sandbox.Isolation | None = None) -> str | None:
    """Why this worker must not run ``spec`` (plain words), or None."""
    import multiprocessing as mp

    if mp.current_process().daemon:
        return (f"worker {whoami()} is a daemonic process and cannot start nbgrader: start the workers with "
                "DASK_DISTRIBUTED__WORKER__DAEMON=False (the worker image and `--scheduler local:N` do).")
    if source is not None:
        if not source.is_dir() or not any(source.glob("*.ipynb")):
            return (f"worker {whoami()} holds no course sources for {spec.day} (looked in {source}): "
                    "install the course on the worker (Dockerfile.worker) or set PTGRADE_COURSE_SOURCES.")
        held = gradebook.sources_digest(source)
        if held != spec.sources_digest:
            return (f"course sources differ: the driver grades {spec.day} against sources {spec.sources_digest}, "
                    f"worker {whoami()} holds {held}. Give every worker the same course version "
                    f"(the worker image tagged {spec.sources_digest}) and run again; nothing was graded there.")
    if iso is not None and spec.sandbox and not spec.allow_unsandboxed and (not iso.bwrap or not iso.cgroup):
        return (f"worker {whoami()} cannot sandbox student code, so it refuses to grade: "
                + " ".join(iso.warnings())
                + " Fix the worker, or run with --allow-unsandboxed to grade there anyway.")
    return None


def run_spec(spec: JobSpec, *, work_root: Path | None = None, source: Path | None = None,
             template: Path | None = None, hide: list[Path] | tuple = (), slots: int = 1,
             zygotes: zygote.Pool | None = None) -> JobOutcome:
    """Run one :class:`JobSpec` on this machine; never raises for anything the notebook does.

    The local pool passes its own ``work_root``, ``source``, ``template`` and ``hide`` (the
    driver's folders); a cluster worker passes nothing and uses what it holds. ``slots`` is how
    many jobs this process runs at once (its share of the CPUs sets the kernel's threads);
    ``zygotes`` the executor's warm kernels (None: none).
    """
    source = Path(source) if source is not None else worker_sources(spec.day)
    iso = worker_isolation(spec.sandbox)
    why = refusal(spec, source, iso)
    if why:
        return JobOutcome.failed(Status.REFUSED, why, worker=whoami())
    template = template or worker_template(spec.day, source)
    limits, env = kernel_limits(spec, slots), _env_of(spec)
    root = Path(work_root) if work_root is not None else scratch.process_folder()
    root.mkdir(mode=0o700, parents=True, exist_ok=True)
    job_dir = Path(tempfile.mkdtemp(prefix="j-", dir=root))
    try:
        nb = nbformat.reads(spec.nb_bytes.decode("utf-8"), as_version=4)
        outcome = run_job(job_dir=job_dir, day=spec.day, student=spec.student, notebook=spec.notebook, nb=nb,
                         template=template, limits=limits, iso=iso, hide=_hide_of(root, hide),
                         timestamp=spec.timestamp, env=env, due=spec.due, observe=spec.observe, zygotes=zygotes,
                         guard_names=protected_names(source / f"{spec.notebook}.ipynb"), preload=zygote_preload(source, spec.notebooks))
        outcome.worker = whoami()
    finally:
        if not settings.environment().keep:
            shutil.rmtree(job_dir, ignore_errors=True)
    return outcome


def kernel_limits(spec: JobSpec, slots: int) -> Limits:
    """The job's limits; ``threads == 0``: this process's share of its CPUs (:func:`cpu_share` of
    :func:`worker_cpus` among the ``slots`` jobs it runs at once): where a kernel's threads are decided,
    on the local pool and on a Dask worker alike."""
    if spec.limits.threads > 0:
        return spec.limits
    return replace(spec.limits, threads=cpu_share(worker_cpus(), slots))


def _env_of(spec: JobSpec) -> dict[str, str]:
    return {**spec.env, "PTCOURSE_LANG": spec.language} if spec.language else dict(spec.env)


def _hide_of(root: Path, hide) -> list[Path]:
    """Hidden even where the allow-list would show it: the course, the work area, the driver's folders and
    ``PTGRADE_HIDE`` (the jail shows none of them anyway unless Python or the course package lives inside)."""
    extra = [Path(p) for p in settings.environment().hide]
    return [gradebook.COURSE_ROOT, root, *map(Path, hide), *extra]


def warm_up(spec: JobSpec, count: int, *, work_root: Path, hide: list[Path] | tuple = (), slots: int = 1,
            template: Path | None = None, notebooks: list[str] | tuple = (), zygotes: zygote.Pool | None = None,
            source: Path | None = None) -> int:
    """Before a run's first job: the fork server, ``count`` zygotes for jobs like ``spec`` and, with
    ``template``, the one-notebook templates of ``notebooks`` (gradebook.notebook_template), made side
    by side (each imports nbgrader or torch, or waits for the disk, once), so no job waits for them.
    Returns how many zygotes are ready; jobs that find none start their own, or kernels the classic
    way. The zygotes live as long as their pool's launcher thread (zygote.Pool: until it is closed)."""
    iso = worker_isolation(spec.sandbox)
    forkserver = threading.Thread(target=_start_fork_server, daemon=True)
    forkserver.start()
    templates = threading.Thread(target=_notebook_templates, args=(template, spec.day, list(notebooks)), daemon=True)
    if template is not None:
        templates.start()
    ready = 0
    if refusal(spec, None, iso) is None and iso.bwrap and zygotes is not None:
        limits, env = kernel_limits(spec, slots), _env_of(spec)
        hidden = _hidden_paths([*_hide_of(Path(work_root), hide), Path("/tmp"), Path.home()])
        preload = zygote_preload(Path(source) if source is not None else worker_sources(spec.day), spec.notebooks)
        ready = zygotes.warm(count, iso, limits, hidden, _put_back(), lambda c: _kernel_env(Path(c), limits, env), preload)
    forkserver.join()
    if template is not None:
        templates.join()
    return ready


def _notebook_templates(template: Path, day: str, notebooks: list[str]) -> None:
    for notebook in dict.fromkeys(notebooks):
        try:
            gradebook.notebook_template(template, day, notebook)
        except Exception:  # noqa: BLE001 - the job makes it (and reports what is wrong)
            pass


def _start_fork_server() -> None:
    """Start the fork server and wait until it has imported what it preloads (one empty job)."""
    try:
        proc = _context().Process(target=_nothing, daemon=False)
        proc.start()
        proc.join(timeout=300)
    except Exception:  # noqa: BLE001 - the first job starts it (and reports what is wrong)
        pass


def _nothing() -> None:
    pass
