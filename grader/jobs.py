"""One grading job: one student's notebook, autograded by nbgrader in a private course folder.

A job folder holds a copy of the template gradebook, the one submitted notebook and an
``nbgrader_config.py`` that loads the course's configuration and swaps nbgrader's ``Execute``
step for :class:`grader.execute.JailedExecute`. ``nbgrader autograde`` runs there as a child
process of its own (so a crash of nbgrader itself stays inside the job) under a wall-clock
limit for the whole notebook; the kernel it starts is jailed (:mod:`grader.sandbox`).
"""

from __future__ import annotations

import json
import multiprocessing
import os
import shutil
import signal
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

from grader import gradebook, sandbox
from ptcourse.messages import msg_in

JOB_CONFIG = """\
c.CourseDirectory.source_directory = "source"
c.CourseDirectory.submitted_directory = "submitted"
c.CourseDirectory.autograded_directory = "autograded"
c.Execute.timeout = {cell_timeout}
c.Execute.shutdown_kernel = "immediate"  # the kernel is thrown away: don't wait for it to tidy up
c.Autograde.autograde_preprocessors = [
    "grader.execute.JailedExecute",
    "nbgrader.preprocessors.IgnorePattern",
    "nbconvert.preprocessors.ClearMetadataPreprocessor",
    "nbgrader.preprocessors.LimitOutput",
    "nbgrader.preprocessors.SaveAutoGrades",
    "nbgrader.preprocessors.AssignLatePenalties",
    "nbgrader.preprocessors.CheckCellMetadata",
]
"""


_CONTEXT = None


def _context():
    """A fork server that has imported nbgrader once: a job then starts in milliseconds."""
    global _CONTEXT
    if _CONTEXT is None:
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["grader._preload"])
        _CONTEXT = ctx
    return _CONTEXT


def _nbgrader_main(argv: list[str], cwd: str, env: dict[str, str], log_path: str) -> None:
    """Body of a job process: ``nbgrader <argv>`` in ``cwd``, output to ``log_path``."""
    os.setsid()  # its own process group, so a time-out can kill it and everything it started
    os.chdir(cwd)
    os.environ.clear()
    os.environ.update(env)
    fd = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    sys.stdout = open(1, "w", buffering=1, closefd=False)
    sys.stderr = open(2, "w", buffering=1, closefd=False)
    from nbgrader.apps.nbgraderapp import NbGraderApp

    sys.argv = ["nbgrader", *argv]
    NbGraderApp.launch_instance(argv)


@dataclass
class Limits:
    """Per-job limits."""

    cell_timeout: int = 120
    notebook_timeout: int = 600
    memory_bytes: int = 2 * 1024**3
    output_bytes: int = 1024**2
    threads: int = 1
    gpu: bool = False  # the kernel may use the NVIDIA GPU (see sandbox.KernelJail.gpu)


@dataclass
class JobResult:
    """What one job produced, ready for the gradebook and the reports."""

    status: str  # "graded", "timeout", "error"
    grades: gradebook.NotebookGrades | None = None
    autograded: Path | None = None
    messages: dict[str, str] = field(default_factory=dict)  # failing grade id -> message
    kinds: dict[str, str] = field(default_factory=dict)  # failing grade id -> failure_kind
    wall_s: float = 0.0
    cells_s: float | None = None
    peak_bytes: int | None = None
    kernel_death: str | None = None
    detail: str = ""
    integrity: dict = field(default_factory=dict)  # what the guard saw (grader/guard.py)


# Error outputs the grader itself writes: their message is already plain words.
GRADER_ERRORS = {"GraderIntegrity", "KernelDied", "NotRun", "CellTimeoutError"}


def error_text(output, lang: str = "en") -> str:
    """The plain-words part of an error output: ``Name: message``, without the traceback."""
    ename, evalue = output.get("ename", "Error"), output.get("evalue", "")
    if ename in {"CheckFailed", "AssertionError", *GRADER_ERRORS} and evalue:
        return evalue
    if ename == "NotImplementedError" and not evalue:
        return msg_in(lang, "grader.cell.not_done")
    return f"{ename}: {evalue}" if evalue else ename


STOPPED = {"KernelDied", "NotRun", "CellTimeoutError"}


def failure_kind(output) -> str:
    """Why a graded cell failed: ``mistake``, ``not_attempted``, ``stopped`` (by the grader) or ``integrity``."""
    ename = output.get("ename", "")
    if ename in STOPPED:
        return "stopped"
    if ename == "GraderIntegrity":
        return "integrity"
    if ename == "NotImplementedError":
        return "not_attempted"
    return "mistake"


def failure_kinds(nb) -> dict[str, str]:
    """``{grade_id: kind}`` for each graded cell with an error output (see :func:`failure_kind`)."""
    out = {}
    for cell in nb.cells:
        meta = cell.get("metadata", {}).get("nbgrader", {})
        errors = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"]
        if cell.cell_type == "code" and meta.get("grade") and errors:
            out[meta["grade_id"]] = failure_kind(errors[-1])
    return out


def failure_messages(nb, lang: str = "en") -> dict[str, str]:
    """``{grade_id: message}`` for each graded cell with an error output."""
    out = {}
    for cell in nb.cells:
        meta = cell.get("metadata", {}).get("nbgrader", {})
        if cell.cell_type != "code" or not meta.get("grade"):
            continue
        errors = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"]
        if errors:
            out[meta["grade_id"]] = error_text(errors[-1], lang)
    return out


def _hidden_paths(roots: list[Path]) -> list[str]:
    """Existing folders to hide, outermost only (a folder inside a hidden one is hidden already)."""
    real = sorted({str(Path(r).resolve()) for r in roots if Path(r).exists()} - {"/"}, key=len)
    out: list[str] = []
    for path in real:
        if not any(path == o or path.startswith(o.rstrip("/") + "/") for o in out):
            out.append(path)
    return out


def _put_back() -> list[str]:
    """What the kernel needs from the hidden course folder: Python, the package, the data."""
    import ptcourse

    package_src = Path(ptcourse.__file__).resolve().parents[1]
    paths = [Path(sys.prefix).resolve(), Path(sys.base_prefix).resolve(), package_src, gradebook.COURSE_ROOT / "data"]
    return [str(p) for p in paths if p.exists()]


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
) -> JobResult:
    """Autograde one notebook; never raises for anything the notebook does. ``env["PTCOURSE_LANG"]``
    (the notebook's language) is the language of its kernel's messages and of the job's own."""
    started = time.monotonic()
    lang = (env or {}).get("PTCOURSE_LANG") or "en"
    if job_dir.exists():
        shutil.rmtree(job_dir)
    sub_dir = job_dir / "submitted" / student / day
    sub_dir.mkdir(parents=True)
    (job_dir / "source" / day).mkdir(parents=True)
    runtime, cwd = job_dir / "rt", job_dir / "cwd"
    runtime.mkdir()
    cwd.mkdir()
    nbformat.write(nb, str(sub_dir / f"{notebook}.ipynb"))
    if timestamp:
        (sub_dir / "timestamp.txt").write_text(timestamp)
    shutil.copyfile(template, job_dir / "gradebook.db")
    db_url = "sqlite:///" + str(job_dir / "gradebook.db")
    (job_dir / "nbgrader_config.py").write_text(
        gradebook.course_folder_config(job_dir, db_url) + JOB_CONFIG.format(cell_timeout=int(limits.cell_timeout))
    )

    cgroup = sandbox.make_cgroup(iso, f"ptgrade-{os.getpid()}-{job_dir.name}", limits.memory_bytes)
    kernel_env = {
        "HOME": str(cwd), "MPLCONFIGDIR": str(cwd / ".mpl"), "IPYTHONDIR": str(cwd / ".ipython"),
        "PTCOURSE_THREADS": str(limits.threads), "OMP_NUM_THREADS": str(limits.threads),
        "TORCHINDUCTOR_CACHE_DIR": str(cwd / ".inductor"), "TRITON_CACHE_DIR": str(cwd / ".triton"),
        "MPLBACKEND": "module://matplotlib_inline.backend_inline", "PYTHONDONTWRITEBYTECODE": "1",
        **(env or {}),
    }
    jail = sandbox.KernelJail(
        cwd=str(cwd), runtime=str(runtime),
        hide=_hidden_paths([*hide, Path("/tmp"), Path.home()]) if iso.bwrap else [],
        read_only=_put_back() if iso.bwrap else [],
        bwrap=iso.bwrap, cgroup=str(cgroup) if cgroup else None,
        memory_bytes=limits.memory_bytes, output_bytes=limits.output_bytes, env=kernel_env, gpu=limits.gpu,
    )
    (runtime / "jail.json").write_text(json.dumps(jail.to_dict()))

    proc_env = {**gradebook.nbgrader_env(), **kernel_env, "PTGRADE_JAIL": str(runtime / "jail.json"),
                "JUPYTER_RUNTIME_DIR": str(runtime),
                "PYTHONPATH": os.pathsep.join(filter(None, [str(gradebook.COURSE_ROOT),
                                                            os.environ.get("PYTHONPATH")]))}
    log_path = job_dir / "nbgrader.log"
    status, detail = "graded", ""
    proc = _context().Process(
        target=_nbgrader_main,
        args=(["autograde", day, "--student", student, "--force", "--log-level=WARN"],
              str(job_dir), proc_env, str(log_path)),
        daemon=False,
    )
    proc.start()
    proc.join(timeout=limits.notebook_timeout)
    if proc.is_alive():
        status = "timeout"
        detail = msg_in(lang, "grader.stopped.timeout", seconds=limits.notebook_timeout)
        sandbox.kill_tree(proc.pid)
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except OSError:
            pass
        proc.join()
    peak = sandbox.cgroup_peak(cgroup)
    sandbox.remove_cgroup(cgroup)

    result = JobResult(status=status, detail=detail, peak_bytes=peak)
    autograded = job_dir / "autograded" / student / day / f"{notebook}.ipynb"
    if status == "graded":
        if proc.exitcode != 0 or not autograded.exists():
            result.status = "error"
            result.detail = "nbgrader could not grade this notebook:\n" + _tail(log_path)
        else:
            try:
                result.grades = gradebook.read_job_grades(db_url, day, student, notebook)
                graded_nb = nbformat.read(str(autograded), as_version=4)
                result.messages = failure_messages(graded_nb, lang)
                result.kinds = failure_kinds(graded_nb)
                result.autograded = autograded
            except Exception as exc:  # a corrupt output is reported, not raised
                result.status = "error"
                result.detail = f"the graded notebook could not be read back ({exc})"
    timing = runtime / "timing.json"
    if timing.exists():
        data = json.loads(timing.read_text())
        result.cells_s = data.get("cells_s")
        result.kernel_death = data.get("dead")
    integrity = runtime / "integrity.json"
    if integrity.exists():
        try:
            result.integrity = json.loads(integrity.read_text())
        except ValueError:
            result.integrity = {}
    result.wall_s = time.monotonic() - started
    return result


def _tail(path: Path, lines: int = 15) -> str:
    try:
        text = path.read_text(errors="replace").splitlines()
    except OSError:
        return ""
    keep = [line for line in text if "checksum" not in line]
    return "\n".join(keep[-lines:])
