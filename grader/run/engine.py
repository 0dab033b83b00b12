"""Grading a class: find submissions, run the jobs in parallel, merge, write the reports.

Each (student, notebook) is one job (:mod:`grader.run.jobs`). Jobs run on a pool of workers; the
main thread alone writes the gradebook, so SQLite never sees two writers. After each job a
small record (``<out>/reports/<day>/results/<student>/<notebook>.json``) is written: a re-run
skips every notebook whose record matches the same file and settings, so an interrupted run
resumes where it stopped, and ``regrade=True`` grades everything again.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import os
import sys
import threading
import time
import warnings
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

import nbformat

from grader import scratch, security
from grader.grades import gradebook
from grader.grades.gradebook import COURSE_ROOT
from grader.intake import class_intake, repair, scan, submissions
from grader.jail import sandbox, zygote
from grader.judge import cell_words
from grader.lms import platforms
from grader.records import (
    CellKind,
    CheckResult,
    GradedNotebook,
    Integrity,
    NotebookRecord,
    RecordError,
    Status,
)
from grader.results import exports, report
from grader.run import executors, jobs, reference
from grader.settings import Environment, environment, grade_changing
from ptcourse import nbmodel
from ptcourse import settings as course_settings
from ptcourse.messages import msg, msg_in, normalise_lang, speaking


@dataclass
class Options:
    """Everything one grading run needs; the CLI fills it from its flags."""

    day: str
    submissions: Path
    out: Path = COURSE_ROOT
    db_url: str | None = None  # default: the course's gradebook
    source: Path | None = None  # default: solutions/<day>
    workers: int = 0  # 0: one per CPU
    regrade: bool = False
    students: list[str] = field(default_factory=list)
    limits: jobs.Limits = field(default_factory=jobs.Limits)
    sandbox: bool = True
    require_sandbox: bool = False
    progress: bool = True
    env: dict[str, str] = field(default_factory=dict)  # extra kernel environment
    max_notebook_bytes: int = submissions.MAX_NOTEBOOK_BYTES  # bigger files are reported, not read
    due: str | None = None  # the due date in force (grader.grades.late), part of what a rerun compares
    lang: str = "en"  # the class report's language (feedback pages: each notebook's own)
    scheduler: str | None = None  # a Dask scheduler address, or "local:N" (grader.run.cluster); None: local pool
    executor: object | None = None  # an executors.Executor (LocalPool, cluster.DaskExecutor): overrides scheduler
    allow_unsandboxed: bool = False  # cluster workers without bubblewrap or a memory cgroup may still grade
    exports: tuple[str, ...] = ()  # "canvas", "moodle": grade files written after grading (grader.results.exports)
    roster: Path | None = None  # --lms-roster: the platform's class list the exports match against
    lms_column: str | None = None  # --lms-column
    missing_as_zero: bool = False  # roster students with no hand-in: 0 in the exports (else empty)
    second_key: bool = True  # compare test cells' observations with the solution's (grader/judge/observations.py)
    groups: Path | None = None  # --groups: who is in which group (grader/lms/groups.py)
    extensions: Path | None = None  # --extensions: each student's own due date (grader/intake/extensions.py)


@dataclass
class RunSummary:
    """What a run did, for the CLI's last lines and for tests."""

    graded: int = 0
    skipped: int = 0
    problems: int = 0
    wall_s: float = 0.0
    records: list[NotebookRecord] = field(default_factory=list)
    report: Path | None = None
    csv: Path | None = None
    warnings: list[str] = field(default_factory=list)
    overhead_s: float | None = None
    cells_s: float | None = None
    refused: list[str] = field(default_factory=list)  # "student/notebook: why" for jobs a worker refused
    exports: list = field(default_factory=list)  # grader.lms.lms_files.ExportResult, one per --export
    executor: str = "local pool"
    handin_problems: list[tuple[str, str]] = field(default_factory=list)  # (student, what is wrong): a human must look
    intake: class_intake.Intake = field(default_factory=class_intake.Intake)  # hand-in times, extensions
    retried: list[str] = field(default_factory=list)  # "student/notebook: why" for jobs run again (grader/jail/faults.py)
    lost: list[str] = field(default_factory=list)  # "student/notebook: why" for jobs lost on every try
    stale: list[str] = field(default_factory=list)  # "student/notebook" graded earlier, not in these submissions


def cpu_count() -> int:
    """CPUs this process may use: affinity and the container's CPU quota (ptcourse.env.available_cpus)."""
    from ptcourse.cpus import available_cpus  # what ptcourse.env.available_cpus is, without importing torch

    return available_cpus()


def masters_of(source: Path) -> tuple[dict[str, nbmodel.CourseNotebook], list[str], dict[str, str]]:
    """Each notebook's course model, the graded cells in course order, and each one's exercise."""
    course = nbmodel.course_notebooks(source)
    order = [gid for master in course.values() for gid in master.test_order]
    labels = {gid: label for master in course.values() for gid, label in master.exercise_labels().items()}
    return course, order, labels


def grader_digest(folders: tuple[Path, ...] = ()) -> str:
    """A digest of the grader's and the course package's code and the pages' templates (``folders``:
    others instead): a new version grades again, and writes its pages again."""
    digest = hashlib.sha256()
    for folder in folders or (Path(__file__).resolve().parents[1], Path(nbmodel.__file__).resolve().parent):
        templates = [p for p in (folder / "templates").rglob("*") if p.is_file()]
        for path in sorted([*folder.rglob("*.py"), *templates]):
            digest.update(str(path.relative_to(folder)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


@dataclass(frozen=True)
class RunSettings:
    """Everything besides the file that decides a notebook's grade: a rerun grades again when any of
    it changed. The limits go in whole (every field of :class:`grader.run.jobs.Limits`, ``gpu`` included),
    and so does every environment setting marked ``grades=True`` (``PTGRADE_GUARD``, say), so a limit
    or a setting added later is covered without anyone listing it here."""

    grader: str  # grader_digest(): a new version of the grader or the course package grades again
    sources: str  # the course sources' digest
    limits: jobs.Limits
    sandbox: bool
    max_bytes: int
    env: tuple[tuple[str, str], ...]
    due: str | None
    second_key: bool  # the observations' comparison (grader/judge/observations.py)
    # Every environment setting marked grades=True (grader.settings.Environment, and the course
    # package's, which the kernels receive: ptcourse.settings.Settings), derived from the records.
    environment: tuple[tuple[str, str], ...] = ()

    @classmethod
    def of(cls, opts: Options, sources: str, due: str | None, grader_env: Environment | None = None,
           course_env: course_settings.Settings | None = None) -> RunSettings:
        """This run's settings; ``grader_env``, ``course_env``: the environment's (default: read now)."""
        grading = (grade_changing(grader_env or environment())
                   + course_settings.grade_changing(course_env or course_settings.read()))
        return cls(grader=grader_digest(), sources=sources, limits=opts.limits, sandbox=opts.sandbox,
                   max_bytes=opts.max_notebook_bytes, env=tuple(sorted(opts.env.items())), due=due,
                   second_key=opts.second_key, environment=grading)

    def text(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)


def fingerprint(sub: submissions.Submission, template: Path, settings: str = "") -> str:
    """Same file, assignment, hand-in time, limits and grader version: nothing new to grade."""
    digest = hashlib.sha256()
    data, _ = submissions.read_bytes_safely(sub.path)
    digest.update(data or b"")
    digest.update(template.name.encode())
    digest.update((sub.timestamp or "").encode())
    digest.update(settings.encode())
    return digest.hexdigest()[:20]


def warning_notes(graded_nb: bytes | None, cells: dict[str, CheckResult], lang: str | None) -> list[str]:
    """A note for each check that passed while its code wrote a warning (or anything else) to stderr:
    shown to the learner, never counted against them (grader.compat.warnings_never_fail)."""
    if not graded_nb:
        return []
    try:
        nb = json.loads(graded_nb)
    except (ValueError, RecursionError):  # the grader's own reading of the notebook reports it
        return []
    found = cell_words.passed_with_warnings(nb if isinstance(nb, dict) else {})
    return [msg("grader.cell.warned", check=report.check_title(gid, lang or "en"), warning=text)
            for gid, text in found.items() if gid in cells and cells[gid].passed]


def integrity_notes(integrity: Integrity | None, notes: list[str], findings: list[str], graded: bool) -> None:
    """What the guard and the second key saw, in words: notes for the learner, findings for review."""
    if integrity is None:
        return
    if integrity.settings:  # the learner's own settings, put back for the checks: said, never a finding
        notes.append(msg("grader.integrity.settings", what="; ".join(integrity.settings[:4])))
    if integrity.restored:
        what = ", ".join(integrity.restored[:6])
        notes.append(msg("grader.integrity.restored", what=what))
        findings.append(msg("grader.finding.restored", what=what))
    if integrity.harmful:
        what = ", ".join(integrity.harmful[:6])
        notes.append(msg("grader.integrity.machinery", what=what))
        findings.append(msg("grader.finding.switched_off", what=what))
    if integrity.disagreed:  # the second key: checks passed in the kernel, the grader disagreed
        findings.append(msg("grader.finding.disagreed", checks=", ".join(d.grade_id for d in integrity.disagreed[:8])))
    if integrity.unjudged:  # model checks only the kernel judged: their points stand, for a human to confirm
        findings.append(msg("grader.finding.kernel_only", checks=", ".join(
            f"{d.grade_id} ({d.detail})" for d in integrity.unjudged[:8])))
    if integrity.voided:
        notes.append(msg("grader.integrity.tampered_note"))
        findings.append(msg("grader.finding.voided", checks=", ".join(
            f"{v.grade_id} ({v.detail})" for v in integrity.voided[:8])))
    if graded and not integrity.installed:
        findings.append(msg("grader.finding.no_guard"))


class Grader:
    """One grading run over a class (see :func:`grade_class`)."""

    def __init__(self, opts: Options):
        self.opts = opts
        warnings.filterwarnings("ignore", message=".*not in session.*")  # nbgrader's own SAWarning
        os.environ["PATH"] = gradebook.nbgrader_env()["PATH"]  # nbgrader's Gradebook runs `alembic`
        self.day = opts.day
        self.lang = normalise_lang(opts.lang)
        self.db_url = opts.db_url or gradebook.course_db_url()
        self.source = opts.source or (COURSE_ROOT / "solutions" / opts.day)
        self.reports = Path(opts.out) / "reports" / opts.day
        self.results = self.reports / "results"
        self.feedback_root = Path(opts.out) / "feedback"
        self.autograded_root = Path(opts.out) / "autograded"
        self.summary = RunSummary()
        self.private_paths: list[str] = [str(COURSE_ROOT), sys.prefix, sys.base_prefix, str(Path.home())]
        self.in_process = executors.in_process(opts.executor, opts.scheduler)  # the local pool's run, or not

    def log(self, text: str) -> None:
        if self.opts.progress:
            from tqdm import tqdm

            tqdm.write(text, file=sys.stderr)

    # -- set-up ------------------------------------------------------------------------------
    def prepare(self) -> list[submissions.Submission]:
        self.iso = sandbox.probe(use_bwrap=self.opts.sandbox, use_cgroup=True)
        warnings = self.iso.warnings() if self.opts.sandbox else [
            "sandbox switched off (--no-sandbox): student code runs as you, with your files and network."]
        if not self.in_process:
            warnings = [] if self.opts.sandbox else warnings  # each worker probes its own sandbox
        elif self.opts.require_sandbox and (not self.iso.bwrap or not self.iso.cgroup):
            raise SystemExit("refusing to grade without a full sandbox (--require-sandbox):\n  " + "\n  ".join(warnings))
        for warning in warnings:
            print(f"warning: {warning}", file=sys.stderr)
        self.summary.warnings = warnings
        self.template = gradebook.build_template(self.day, self.source, gradebook.CACHE, db_url=self.db_url)
        # The date in effect: --due (the CLI has written it into the gradebook), else the gradebook's.
        self.due = self.opts.due or gradebook.read_due(self.db_url, self.day)
        self.masters, self.order, self.exercises = masters_of(self.source)
        self.maxes = gradebook.max_scores(self.db_url, self.day)
        self.sources_digest = gradebook.sources_digest(self.source)
        self.settings = RunSettings.of(self.opts, self.sources_digest, self.due).text()
        from grader.lms import groups

        subs = submissions.discover(self.opts.submissions, self.day, self.masters, self.opts.max_notebook_bytes,
                                    groups.gather(self.opts.groups, self.opts.roster))
        if self.opts.students:
            wanted = set(self.opts.students)
            subs = [s for s in subs if s.student in wanted]
            if not subs:
                raise submissions.LayoutError(f"no hand-in of {', '.join(sorted(wanted))} (--student) was found")
        self.summary.handin_problems = [(s.student, s.intake_problem) for s in subs if s.intake_problem]
        for archive, encoding in submissions.names_read(self.opts.submissions):
            self.warn(msg_in(self.lang, "grader.intake.names_read_as", archive=archive, encoding=encoding))
        platforms.save_identities(self.reports / platforms.IDENTITIES,
                                  {s.student: s.origin for s in subs if s.origin is not None})
        self.summary.intake = self.intake = class_intake.check(subs, self.due, self.extension_rows())
        if self.opts.students:  # rows for the students this run leaves out name nobody it grades: not a problem
            self.intake.notes = [n for n in self.intake.notes if n.kind is not class_intake.IntakeKind.EXTENSION_NOBODY]
        for sub in subs:
            with speaking(sub.lang):  # notes in the student's language
                if sub.nb is not None and sub.notebook in self.masters:
                    fixed = repair.repair(sub.nb, self.masters[sub.notebook])
                    sub.nb = fixed.nb
                    sub.notes.extend(fixed.notes)
                sub.findings = [str(f) for f in scan.scan(sub.nb)] if sub.nb is not None else []
        return subs

    def extension_rows(self) -> list:
        """The rows of ``--extensions`` (grader.intake.extensions.ExtensionsError if the file cannot be used)."""
        from grader.intake import extensions

        return extensions.load(self.opts.extensions) if self.opts.extensions else []

    def record_path(self, student: str, notebook: str) -> Path:
        return self.results / student / f"{notebook}.json"

    def up_to_date(self, sub: submissions.Submission, fp: str) -> bool:
        path = self.record_path(sub.student, sub.notebook)
        if self.opts.regrade or not path.exists():
            return False
        try:
            return NotebookRecord.from_json(json.loads(path.read_text())).fingerprint == fp
        except (OSError, ValueError):  # unreadable, or another version's record (RecordError): graded again
            return False

    # -- one finished job --------------------------------------------------------------------
    def finish(self, sub: submissions.Submission, fp: str, result: jobs.JobOutcome | None) -> NotebookRecord:
        """Merge into the gradebook, copy the graded notebook, write feedback and the record."""
        with speaking(sub.lang):  # its notes and its feedback page in the notebook's language
            return self._finish(sub, fp, result)

    def _finish(self, sub: submissions.Submission, fp: str, result: jobs.JobOutcome | None) -> NotebookRecord:
        job = result.record if result is not None else GradedNotebook(Status.UNREADABLE, sub.error or "")
        status, detail = job.status, job.detail
        instructor_detail = detail or ""
        if status == Status.ERROR:  # the grader's own trouble: details for the instructor only
            detail = msg("grader.error.internal")
        job = replace(job, checks=self.checks(sub, job, detail))  # every check of the course, each lost point in words
        if result is not None and (result.retries or result.lost):
            self.grader_faults(sub, result)
        cells = {c.grade_id: c for c in job.checks}
        sub.notes.extend(warning_notes(result.graded_nb if result is not None else None, cells, sub.lang))
        if job.kernel_death:
            death = job.kernel_death if job.kernel_death in ("memory", "stuck", "tasks", "disk") else "other"
            sub.notes.append(msg(f"grader.kernel_death.{death}"))
        integrity_notes(job.integrity, sub.notes, sub.findings, graded=result is not None and status == Status.GRADED)
        by_hand = gradebook.manual_grades(self.db_url, self.day, sub.student, sub.notebook)
        if by_hand:  # graded again (another file, other limits, --regrade): the instructor's grades stay, to review
            sub.findings.append(msg("grader.finding.manual_kept", checks=", ".join(by_hand[:8])))
        gradebook.merge(self.db_url, self.day, sub.student, sub.notebook, job if status == Status.GRADED else None,
                        timestamp=sub.timestamp, flagged=bool(sub.findings))
        if result is not None and result.graded_nb is not None:
            dest = self.autograded_root / sub.student / self.day / f"{sub.notebook}.ipynb"
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(result.graded_nb)
        if instructor_detail and status != Status.GRADED:
            self.log_line(f"{sub.student} {sub.notebook}: {status}: {instructor_detail}")
        feedback = self.feedback_root / sub.student / self.day / f"{sub.notebook}.html"
        record = self.notebook_record(sub, fp, job, detail, instructor_detail, feedback)
        self.write_feedback(sub, record, feedback)
        path = self.record_path(sub.student, sub.notebook)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".part")
        tmp.write_text(json.dumps(record.to_json(), indent=1))
        os.replace(tmp, path)
        return record

    def notebook_record(self, sub: submissions.Submission, fp: str, job: GradedNotebook, detail: str | None,
                        instructor_detail: str, feedback: Path) -> NotebookRecord:
        """The notebook's record for its page, the report, Gradescope and a rerun: the job's record, with
        what intake knows of the hand-in, every learner-visible text scrubbed of the grading machine's paths."""
        private = self.private_paths
        return NotebookRecord(
            student=sub.student, day=self.day, notebook=sub.notebook, file=sub.path.name, status=job.status,
            detail=security.scrub(detail or "", private), instructor_detail=instructor_detail,
            notes=tuple(security.scrub(n, private) for n in sub.notes),
            findings=tuple(security.scrub(f, private) for f in sub.findings), integrity=job.integrity,
            score=job.score, max_score=job.max_score, cells={c.grade_id: c for c in job.checks}, fingerprint=fp,
            wall_s=job.wall_s, cells_s=job.cells_s, peak_bytes=job.peak_bytes, late_penalty=job.late_penalty or 0.0,
            timestamp=sub.timestamp, lang=sub.lang, feedback=os.path.relpath(feedback, self.reports))

    def grader_faults(self, sub: submissions.Submission, result: jobs.JobOutcome) -> None:
        """A job that a grading process's death cost a try (grader/jail/faults.py): the class report says so; one
        lost on every try could not be graded, and its page says that the learner's code did not cause it."""
        tries = [*result.retries, *([result.lost] if result.lost else [])]
        who = f"{sub.student}/{sub.notebook}"
        if result.lost:
            text = msg_in(self.lang, "grader.report.lost", who=who, count=len(tries), why=tries[-1],
                          student=sub.student)
            self.summary.lost.append(f"{who}: {tries[-1]}")
            sub.notes.append(msg("grader.lost.note", count=len(tries)))
        else:
            text = msg_in(self.lang, "grader.report.retried", who=who, count=len(tries), why="; ".join(tries))
            self.summary.retried.append(f"{who}: " + "; ".join(tries))
        self.warn(text)

    def warn(self, text: str) -> None:
        """Something the instructor should know of the run: in the class report, the run's log and on stderr."""
        self.summary.warnings.append(text)
        self.log_line(text)
        print(f"warning: {text}", file=sys.stderr)

    def checks(self, sub: submissions.Submission, job: GradedNotebook, detail: str | None) -> tuple[CheckResult, ...]:
        """Each graded check of the notebook, in course order, from the job's record: its points, and why
        it lost them (a check the job did not reach: stopped, with the notebook's status)."""
        checks, status = [], job.status
        for gid, points in self.maxes[sub.notebook].items():
            found = job.check(gid) if status == Status.GRADED else None
            check = replace(found, max=points) if found else CheckResult(0.0, points, grade_id=gid)
            if check.message:
                check = replace(check, message=security.scrub(check.message, self.private_paths),
                                kind=check.kind or CellKind.MISTAKE)
            elif status in (Status.TIMEOUT, Status.ERROR, Status.UNREADABLE):
                words = report.status_words(status, sub.lang)
                first = (detail or "").splitlines()[0][:200] if detail else ""
                check = replace(check, message=msg("grader.cell.stopped", status=words, detail=first),
                                message_id="grader.cell.stopped", values=(("status", words), ("detail", first)),
                                kind=CellKind.STOPPED if status != Status.UNREADABLE else CellKind.MISTAKE)
            elif check.score < points:  # every lost point says why, in words
                check = replace(check, message=msg("grader.cell.lost", score=check.score, max_score=points),
                                message_id="grader.cell.lost", values=(("score", check.score), ("max_score", points)))
            checks.append(check)
        return tuple(checks)

    def write_feedback(self, sub: submissions.Submission, record: NotebookRecord, feedback: Path) -> None:
        """The learner's page, and the files ``nbgrader release_feedback`` reads beside it."""
        feedback.parent.mkdir(parents=True, exist_ok=True)
        feedback.write_text(report.feedback_html(record, self.exercises))
        for name in ("timestamp.txt", "submission_secret.txt"):
            if sub.path.parent.name == self.day:
                data, _ = submissions.read_bytes_safely(sub.path.parent / name, 4096)  # never through a link
                if data is not None:
                    (feedback.parent / name).write_bytes(data)

    def log_line(self, text: str) -> None:
        """The instructor's log, ``reports/<day>/grader.log``: what learners' pages leave out."""
        self.reports.mkdir(parents=True, exist_ok=True)
        with open(self.reports / "grader.log", "a") as f:
            f.write(time.strftime("%Y-%m-%d %H:%M:%S ") + text.replace("\n", "\n    ") + "\n")

    def record(self, sub: submissions.Submission, fp: str, result, bar) -> None:
        """Finish one notebook, count it and print its line under the progress bar."""
        record = self.finish(sub, fp, result)
        self.summary.graded += 1
        self.summary.problems += not record.graded
        flag = "  [review]" if record.findings else ""
        state = "" if record.graded else f"  [{record.status}]"
        bar.update(1)
        self.log(f"{sub.student:<16} {sub.notebook:<24} {record.score:5g}/{record.max_score:<4g}"
                 f" {record.wall_s:6.1f} s{state}{flag}")

    # -- the run -----------------------------------------------------------------------------
    def run(self) -> RunSummary:
        started = time.monotonic()
        subs = self.prepare()
        with gradebook.kept_open(self.db_url):  # one engine for every merge of the run
            self._run(subs)
        self.summary.wall_s = time.monotonic() - started
        return self.summary

    def _run(self, subs: list[submissions.Submission]) -> None:
        todo, unknown = [], []
        for sub in subs:
            if sub.notebook is None:
                unknown.append(sub)
                continue
            fp = fingerprint(sub, self.template, self.settings + (self.intake.dues.get(sub.student) or ""))
            if self.up_to_date(sub, fp):
                self.summary.skipped += 1
                continue
            todo.append((sub, fp))
        workers = self.opts.workers or cpu_count()
        if self.summary.skipped:
            self.log(f"{self.summary.skipped} notebook(s) already graded with the same file: skipped "
                     "(use --regrade to grade them again)")
        scratch.sweep()  # what killed runs and workers of this user left in the temporary folder
        run_dir = scratch.make("run")  # private (0700), held while this run lives (grader/scratch.py)
        work_root = run_dir.path
        self.private_paths = [str(work_root), str(COURSE_ROOT), str(Path(self.opts.submissions).resolve()),
                              str(Path(self.opts.out).resolve()), sys.prefix, sys.base_prefix, str(Path.home())]
        if self.db_url.startswith("sqlite:///"):
            self.private_paths.append(str(Path(self.db_url[len("sqlite:///"):]).resolve().parent))
        self.reports.mkdir(parents=True, exist_ok=True)
        hide = [COURSE_ROOT, Path(self.opts.submissions), Path(self.opts.out), work_root]
        if self.db_url.startswith("sqlite:///"):
            hide.append(Path(self.db_url[len("sqlite:///"):]).parent)
        from tqdm import tqdm

        bar = tqdm(total=len(todo), unit="nb", desc=f"grading {self.day}", file=sys.stderr,
                   disable=not self.opts.progress or not todo, dynamic_ncols=True)
        executor, owned = None, False
        cache = reference.Cache(self.reports / reference.CACHE_NAME, self.settings)
        try:
            for sub, fp in todo:  # unreadable files: recorded at once, nothing to run
                if sub.error is not None:
                    self.record(sub, fp, None, bar)
            pending = {i: (sub, fp) for i, (sub, fp) in enumerate(todo) if sub.error is None}
            run_notebooks = tuple(sorted({sub.notebook for sub, _ in pending.values()}))
            items = [(i, self.spec(sub, run_notebooks)) for i, (sub, fp) in pending.items()]
            warmed = False
            if items:  # no cluster is started for a rerun with nothing new
                # The executor first: the reference runs use its warm kernels (the local pool's; a cluster's
                # workers, warmed first, rather than a fork server and kernels of the driver's own).
                executor, owned = self.executor(workers, work_root, hide)
                if not self.in_process and self.opts.second_key:
                    executor.warm_up(items)
                    warmed = True
            if items and self.opts.second_key:
                items = self.with_second_key(items, work_root, hide, executor, workers, cache)
            if items:
                threading.Thread(target=report.prepare_charts, daemon=True).start()  # imported meanwhile
                self.summary.executor = executor.name
                if not warmed:
                    executor.warm_up(items)
            # The driver alone merges and writes, as outcomes arrive; a lost job runs again (grader/jail/faults.py).
            for i, outcome in (executors.retrying(executor, items) if items else ()):
                sub, fp = pending[i]
                if outcome.status == Status.REFUSED:  # not graded, not recorded: a rerun grades it
                    self.refused(sub, outcome, bar)
                    continue
                self.record(sub, fp, outcome, bar)
        finally:
            bar.close()
            if owned:
                executor.close()
            run_dir.close()  # kept with PTGRADE_KEEP, to debug the grader itself
            scratch.sweep()  # and what this run's workers left when one was killed (none holds it now)
        for sub in unknown:
            self.log(f"{sub.student:<16} {sub.path.name:<24} not graded: {sub.error}")
        self.finalize(subs, unknown)
        cache.clear()  # the run is done: the next one draws a new secret (grader/run/reference.py)

    def spec(self, sub: submissions.Submission, run_notebooks: tuple[str, ...] = ()) -> jobs.JobSpec:
        """The pure task for one submission: its bytes and ids, the sources' digest, the limits, its language,
        the notebooks of the run (what the zygotes preload). The limits as given: ``threads == 0`` is decided
        where the job runs (jobs.kernel_limits)."""
        return jobs.JobSpec(
            day=self.day, student=sub.student, notebook=sub.notebook, nb_bytes=nbformat.writes(sub.nb).encode(),
            sources_digest=self.sources_digest, limits=self.opts.limits, language=sub.lang,
            timestamp=sub.timestamp, due=self.intake.due_for(sub.student, self.due), env=dict(self.opts.env),
            sandbox=self.opts.sandbox,
            allow_unsandboxed=self.opts.allow_unsandboxed or self.in_process, notebooks=run_notebooks,
        )

    def with_second_key(self, items: list, work_root: Path, hide: list[Path], executor, workers: int,
                        cache: reference.Cache) -> list:
        """The jobs, each with its notebook's second key: the reference runs happen first, ``workers`` at a
        time, as the executor runs one job (``run_one``): the local pool's warm kernels, a Dask worker's
        (warmed before them), else here with warm kernels of their own. ``cache``: the references a stopped
        run completed. A reference that cannot
        prove itself stops the run here (reference.ReferenceFailed), before any learner is graded."""
        # ``slots``: the references run ``workers`` at a time, so each kernel gets its share of the CPUs (one
        # thread on a machine with as many CPUs as workers), as on the local pool; with the driver's whole CPU
        # count instead, no warm kernel serves them (grader/jail/zygote.py: one thread only) and each reference
        # imported torch and the guard's modules in a kernel of its own, 2-3 CPU-s each before the class.
        zygotes = zygote.Pool()
        here = functools.partial(jobs.run_spec, work_root=work_root, source=self.source, template=self.template,
                                 hide=hide, slots=workers, zygotes=zygotes)
        on_executor = getattr(executor, "run_one", None)

        def run(spec: jobs.JobSpec) -> jobs.JobOutcome:
            """On the executor (its warm kernels); here when it has no ``run_one`` or its worker refused (other
            course sources: the learners' jobs are refused there and said so, as without a second key)."""
            outcome = on_executor(spec) if on_executor is not None else None
            return here(spec) if outcome is None or outcome.status == Status.REFUSED else outcome

        try:
            keys = reference.second_keys([spec for _, spec in items], self.masters, self.source, run=run, warn=self.warn,
                                         workers=workers, cache=cache)
        except reference.ReferenceFailed as exc:
            self.log_line(f"error: {exc}")
            raise
        finally:
            zygotes.close_all()  # the driver's warm kernels for the references, if any were started
        return [(i, dataclasses.replace(spec, observe=keys.get(spec.notebook))) for i, spec in items]

    def executor(self, workers: int, work_root: Path, hide: list[Path]) -> tuple[executors.Executor, bool]:
        """The executor passed in, else a Dask one for ``--scheduler``, else the local pool; and whether we own it."""
        if self.opts.executor is not None:
            return self.opts.executor, False
        if self.opts.scheduler:
            from grader.run import cluster

            return cluster.connect(self.opts.scheduler, hide=hide, log=self.log), True
        return executors.LocalPool(workers, work_root, self.source, self.template, hide), True

    def refused(self, sub: submissions.Submission, outcome, bar) -> None:
        """A worker would not run this job (other course sources, no sandbox): said once, never recorded."""
        text = outcome.detail or "refused by the worker"
        if not any(r.endswith(text) for r in self.summary.refused):
            print(f"error: a worker refused to grade: {text}", file=sys.stderr)
        self.summary.refused.append(f"{sub.student}/{sub.notebook}: {text}")
        self.summary.problems += 1
        self.log_line(f"{sub.student} {sub.notebook}: refused: {text}")
        bar.update(1)

    def finalize(self, subs: list[submissions.Submission], unknown: list[submissions.Submission]) -> None:
        """Zero what was not handed in, then write grades.csv and the class report."""
        by_student: dict[str, set[str]] = {}
        for sub in subs:
            if not sub.attributed:  # nobody's: a human decides, it is never a new student
                continue
            by_student.setdefault(sub.student, set())
            if sub.notebook:
                by_student[sub.student].add(sub.notebook)
        for student, handed_in in by_student.items():
            gradebook.zero_missing(self.db_url, self.day, student, handed_in)
        records = self.read_records() + [
            NotebookRecord(student=sub.student, day=self.day, notebook=sub.path.name, detail=sub.error or "",
                           status=Status.UNREADABLE if sub.attributed else Status.UNATTRIBUTED,
                           notes=tuple(sub.notes), lang=sub.lang, attributed=sub.attributed)
            for sub in unknown]
        self.summary.records = records
        timed = [r for r in records if r.cells_s is not None and r.wall_s]
        timing = ""
        if timed:
            cells = sum(r.cells_s for r in timed) / len(timed)
            wall = sum(r.wall_s for r in timed) / len(timed)
            self.summary.cells_s, self.summary.overhead_s = cells, wall - cells
            timing = msg_in(self.lang, "grader.report.timing", wall=wall, cells=cells, overhead=wall - cells)
        grades = gradebook.class_grades(self.db_url, self.day).late_on_scores(self.late_fractions(subs))
        # manual grades included, each late penalty of the notebook's score as it stands: what every output reads
        review: dict[str, list[str]] = {}
        for r in records:
            if not r.graded or r.findings:
                review.setdefault(r.student, []).append(f"{r.notebook}: " + report.status_words(
                    r.status if not r.graded else "flagged", self.lang))
        for student, problem in self.summary.handin_problems:  # in grades.csv's needs_review too
            review.setdefault(student, []).append(problem)
        for student in self.intake.needing_human():  # a hand-in time or an extension that could not be used
            review.setdefault(student, []).extend(n.text(self.lang) for n in self.intake.of(student) if n.needs_human)
        self.pages_with_grades(records, grades)
        self.stale_grades(subs, records)
        self.summary.csv = self.reports / "grades.csv"
        report.write_csv(self.summary.csv, grades, review, intake=self.intake.by_student(self.lang),
                         dues=self.intake.dues)
        max_total = sum(sum(m.values()) for m in self.maxes.values())
        self.summary.exports = [exports.export(kind, grades, self.reports, column=self.opts.lms_column,
                                               roster=self.opts.roster, missing_as_zero=self.opts.missing_as_zero)
                                for kind in dict.fromkeys(self.opts.exports)]
        self.summary.report = self.reports / "report.html"
        self.summary.report.write_text(report.class_report_html(
            self.day, records, self.order,
            report.ClassFacts(
                max_total=max_total, warnings=tuple(self.summary.warnings), timing=timing,
                similarity_html=self.similarity(subs), exports=tuple(self.summary.exports),
                platform_late={s.student: s.origin.platform.value for s in subs if s.origin and s.origin.late},
                intake=tuple(self.intake.notes), grades=grades),
            lang=self.lang))

    def stale_grades(self, subs: list[submissions.Submission], records: list[NotebookRecord]) -> None:
        """Notebooks an earlier run into this gradebook graded that these submissions no longer hold (a file
        taken out, a student gone, a file now unreadable): their earlier grades stay in every output, and the
        run says so, for the instructor to decide (``--student`` runs speak of their own students only)."""
        here = {(s.student, s.notebook) for s in subs if s.attributed and s.notebook}
        wanted = set(self.opts.students or ())
        stale = sorted({(r.student, r.notebook) for r in records if r.attributed and r.notebook and r.graded
                        and (r.student, r.notebook) not in here and (not wanted or r.student in wanted)})
        if stale:
            self.summary.stale = [f"{s}/{n}" for s, n in stale]
            self.warn(msg_in(self.lang, "grader.report.stale", count=len(stale),
                             which=", ".join(self.summary.stale[:10]) + (", ..." if len(stale) > 10 else "")))

    def pages_with_grades(self, records: list[NotebookRecord], grades) -> None:
        """Write again each learner's page whose notebook the class's grades score otherwise than its job did
        (:func:`grader.results.report.as_graded`): the page, grades.csv, the report and the exports then agree.
        The job's record stays as the job wrote it."""
        for record in records:
            row = grades.student(record.student) if record.attributed and record.graded and record.feedback else None
            graded = row.notebook(record.notebook) if row else None
            shown = report.as_graded(record, graded) if graded is not None else None
            if shown is not None:
                (self.reports / record.feedback).write_text(report.feedback_html(shown, self.exercises))

    def late_fractions(self, subs: list[submissions.Submission]) -> dict[tuple[str, str], float]:
        """How much of its score each of this run's hand-ins loses for lateness (the course's policy, each
        student's own due date), by (student, notebook); a hand-in without a readable time is not in it."""
        from grader.grades import late

        rule, out = late.policy(), {}
        for sub in subs:
            lost = late.fraction(sub.timestamp, self.intake.due_for(sub.student, self.due), rule)
            if sub.notebook and sub.attributed and lost is not None:
                out[(sub.student, sub.notebook)] = lost
        return out

    def read_records(self) -> list[NotebookRecord]:
        """Every notebook's record in ``results/``, this run's and earlier runs'; a file this grader cannot
        read is left out with a warning (a rerun with ``--regrade`` grades its notebook again)."""
        records = []
        for path in sorted(self.results.glob("*/*.json")) if self.results.exists() else ():
            try:
                records.append(NotebookRecord.from_json(json.loads(path.read_text())))
            except (OSError, ValueError) as exc:  # RecordError: another version's record
                why = str(exc) if isinstance(exc, RecordError) else type(exc).__name__
                text = msg_in(self.lang, "grader.report.old_record", path=path.relative_to(self.reports), why=why)
                self.summary.warnings.append(text)
                print(f"warning: {text}", file=sys.stderr)
        return records

    def similarity(self, subs: list[submissions.Submission]) -> str:
        """Similar answers across the class (grader.results.similarity): writes its page, returns the report's section."""
        from grader.results import similarity, similarity_page

        try:
            result = similarity.for_class(self.day, subs, self.masters)
        except Exception as exc:  # never fatal: the grades stand without it
            self.log_line(f"similarity report failed: {exc!r}")
            return ""
        similarity_page.write(result, self.reports, self.lang)
        return similarity_page.section(result, self.lang)


def grade_class(opts: Options) -> RunSummary:
    """Grade every submission of ``opts.day`` found in ``opts.submissions``."""
    return Grader(opts).run()
