"""The gradebook side of grading: the assignment's template, merging results, the class's grades.

Each grading job runs ``nbgrader autograde`` against a private copy of a *template* gradebook
(the assignment as ``nbgrader generate_assignment`` records it), so jobs never contend for one
SQLite file. The grader then merges each job's record (``records.GradedNotebook``) into the course
gradebook the way ``nbgrader autograde`` writes it: ``auto_score``, ``auto_comment``,
``needs_manual_grade`` and the late penalty. Manual scores and comments are never written; they are
read back, with everything else, as one ``records.ClassGrades`` (:func:`class_grades`).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from contextlib import contextmanager
from pathlib import Path

from nbgrader.api import Gradebook, MissingEntry

from grader import compat
from grader.records import CheckResult, ClassGrades, GradedNotebook, NotebookGrade, Status, StudentGrades
from grader.settings import CACHE, COURSE_ID, COURSE_ROOT, GRADER_DIR  # noqa: F401 - read through gradebook too

COURSE_CONFIG = GRADER_DIR / "nbgrader_config.py"

COURSE_FOLDER_CONFIG = """\
c = get_config()
load_subconfig({config!r})
c.CourseDirectory.root = {root!r}
c.CourseDirectory.db_url = {db_url!r}
"""


def course_folder_config(root: Path, db_url: str) -> str:
    """``nbgrader_config.py`` for a throw-away course folder using the course's configuration."""
    return COURSE_FOLDER_CONFIG.format(config=str(COURSE_CONFIG), root=str(root), db_url=db_url)


def nbgrader_env() -> dict[str, str]:
    """The environment for an nbgrader subprocess (it runs ``alembic`` from PATH)."""
    bin_dir = str(Path(sys.executable).parent)
    return {**os.environ, "PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")}


def course_db_url(root: Path = COURSE_ROOT) -> str:
    """The gradebook named by the course's nbgrader configuration."""
    return "sqlite:///" + str(root / "grader" / "gradebook.db")


def sources_digest(source_dir: Path) -> str:
    """A digest of an assignment's source notebooks (the template is rebuilt when it changes)."""
    digest = hashlib.sha256()
    for path in sorted(source_dir.glob("*.ipynb")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _own_part(path: Path) -> Path:
    """Where this process and thread write ``path`` before moving it into place: no other builder's."""
    return path.with_name(f"{path.name}.{os.getpid()}-{threading.get_ident()}.part")


def build_template(day: str, source_dir: Path, cache_dir: Path, db_url: str | None = None) -> Path:
    """A gradebook holding only assignment ``day`` (cached by the sources' digest).

    With ``db_url`` the assignment is also recorded in that gradebook (if it is missing there).
    """
    cache_dir.mkdir(parents=True, exist_ok=True)
    template = cache_dir / f"template-{day}-{sources_digest(source_dir)}.db"
    if not template.exists():
        from filelock import FileLock  # comes with torch

        # Runs and workers on one machine build it once: the others wait for it (a lock per day).
        # Each builder writes a part of its own, so a lock that does not hold (NFS) costs time only.
        with FileLock(str(cache_dir / f"template-{day}.lock")):
            if not template.exists():
                part = _own_part(template)
                try:
                    _generate(day, source_dir, "sqlite:///" + str(part))
                    os.replace(part, template)
                finally:
                    part.unlink(missing_ok=True)
    if db_url is not None:
        path = Path(db_url[len("sqlite:///"):]) if db_url.startswith("sqlite:///") else None
        if path is not None and not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(template, path)  # a new gradebook: start from the template, with no due date
            write_due(path, day, None)
        elif not has_assignment(db_url, day):
            _generate(day, source_dir, db_url)
    return template


HAND_IN = "ptgrade-hand-in"  # the student of a one-notebook template's prepared hand-in (claim_hand_in)


def notebook_template(template: Path, day: str, notebook: str) -> Path:
    """The assignment's template holding only ``notebook`` (cached beside it): a grading job's private
    gradebook. ``nbgrader autograde`` then records the hand-in of that one notebook, instead of
    creating, and zeroing, rows for every notebook of the day. A notebook's grades and late penalty
    depend on that notebook alone.

    It also holds the rows ``nbgrader autograde`` makes for a hand-in (a student, a submission and
    its empty grades and comments: about 30 ms of every job), made once by nbgrader's own
    ``add_submission`` for the student ``HAND_IN``. A job gives them to its own student
    (:func:`claim_hand_in`), and nbgrader finds the submission already there, as on a regrade."""
    path = template.with_name(f"{template.stem}-{notebook}-handin.db")
    if path.exists() or notebook not in notebook_names("sqlite:///" + str(template), day):
        return path if path.exists() else template
    part = _own_part(path)
    shutil.copyfile(template, part)
    try:
        with Gradebook("sqlite:///" + str(part), COURSE_ID) as gb:
            for other in [nb.name for nb in gb.find_assignment(day).notebooks if nb.name != notebook]:
                gb.remove_notebook(other, day)
            gb.add_student(HAND_IN)
            with gb.db.no_autoflush:  # nbgrader's own rows, without its autoflush's SAWarnings
                gb.add_submission(day, HAND_IN)
        os.replace(part, path)
    finally:
        part.unlink(missing_ok=True)
    return path


def _generate(day: str, source_dir: Path, db_url: str) -> None:
    with tempfile.TemporaryDirectory(prefix="ptgrade-release-") as tmp:
        root = Path(tmp)
        shutil.copytree(source_dir, root / "source" / day)
        (root / "nbgrader_config.py").write_text(
            course_folder_config(root, db_url)
            + 'c.CourseDirectory.source_directory = "source"\n'
            + 'c.CourseDirectory.release_directory = "release"\n'
        )
        proc = subprocess.run(
            [sys.executable, "-m", "nbgrader", "generate_assignment", day, "--force", "--log-level=ERROR"],
            cwd=root, capture_output=True, text=True, env=nbgrader_env(),
        )
        if proc.returncode != 0:
            raise RuntimeError(f"nbgrader generate_assignment {day} failed:\n{proc.stdout}\n{proc.stderr}")


def scratch_gradebook() -> None:
    """From now on, this process treats every gradebook it opens as a scratch copy: no ``fsync``,
    the journal in memory, one SQLAlchemy engine per database for all its ``Gradebook`` objects, and
    the tables and the course checked at its first opening only.

    Only for a grading job's process, whose one database is its private copy of the template
    gradebook, thrown away after the job (a crash loses nothing: the job is graded again).
    ``nbgrader autograde`` opens a ``Gradebook`` nine times per notebook and commits after nearly
    every cell: with an engine each time, every query is compiled again; with ``fsync``, every
    commit waits for the disk.
    """
    import sqlite3

    from sqlalchemy import event
    from sqlalchemy.engine import Engine

    def pragmas(dbapi_connection, _record) -> None:
        if isinstance(dbapi_connection, sqlite3.Connection):
            dbapi_connection.execute("PRAGMA synchronous = OFF")
            dbapi_connection.execute("PRAGMA journal_mode = MEMORY")

    if not event.contains(Engine, "connect", pragmas):
        event.listen(Engine, "connect", pragmas)
    compat.one_engine_per_database()
    compat.gradebook_checked_once()


def write_due(db_path: Path, day: str, due: str | None, durable: bool = True) -> None:
    """Set assignment ``day``'s due date (ISO text, UTC; None: no due date) in the gradebook file ``db_path``.

    Each job writes the date of its own run into its private gradebook copy, so a template shared
    by two grading runs, or a cluster worker's own template, never decides whether a hand-in is late.
    Written as SQLAlchemy stores nbgrader's ``Assignment.duedate`` (a naive UTC datetime).
    ``durable=False``: a job's throw-away copy, written without ``fsync``.
    """
    import sqlite3
    from datetime import datetime, timezone

    value = None
    if due:
        when = datetime.fromisoformat(due)
        if when.tzinfo is not None:
            when = when.astimezone(timezone.utc).replace(tzinfo=None)
        value = when.strftime("%Y-%m-%d %H:%M:%S.%f")
    with sqlite3.connect(str(db_path)) as db:
        if not durable:  # a job's scratch copy (see scratch_gradebook)
            db.execute("PRAGMA synchronous = OFF")
        db.execute("UPDATE assignment SET duedate = ? WHERE name = ?", (value, day))
    db.close()


def claim_hand_in(db_path: Path, student: str) -> None:
    """Give a job's copy of a one-notebook template (:func:`notebook_template`) its prepared hand-in:
    the student ``HAND_IN`` and its submission become ``student``'s. A copy without one (a template
    made before it had them) is left as it is, and nbgrader makes the rows itself. Written without
    ``fsync``: the job's throw-away copy."""
    import sqlite3

    with sqlite3.connect(str(db_path)) as db:
        db.execute("PRAGMA synchronous = OFF")
        if db.execute("SELECT 1 FROM student WHERE id = ?", (student,)).fetchone() is None:
            db.execute("UPDATE student SET id = ? WHERE id = ?", (student, HAND_IN))
            db.execute("UPDATE submitted_assignment SET student_id = ? WHERE student_id = ?", (student, HAND_IN))
    db.close()


def read_due(db_url: str, day: str) -> str | None:
    """Assignment ``day``'s due date in a gradebook, as ISO text (UTC), or None."""
    with _open(db_url) as gb:
        try:
            due = gb.find_assignment(day).duedate
        except MissingEntry:
            return None
    return None if due is None else due.isoformat()


def has_assignment(db_url: str, day: str) -> bool:
    with _open(db_url) as gb:
        try:
            gb.find_assignment(day)
            return True
        except MissingEntry:
            return False


_KEPT: dict = {}  # (thread, db_url) -> the Gradebook kept open by kept_open


@contextmanager
def kept_open(db_url: str):
    """While in it, this thread's gradebook functions on ``db_url`` share one open ``Gradebook`` (a
    grading run: one engine and its compiled queries, instead of a new one per notebook). Each
    function still commits its own work."""
    key = (threading.get_ident(), db_url)
    if key in _KEPT:
        yield _KEPT[key]
        return
    gb = Gradebook(db_url, COURSE_ID)
    _KEPT[key] = gb
    try:
        yield gb
    finally:
        del _KEPT[key]
        gb.close()
        gb.engine.dispose()


@contextmanager
def _open(db_url: str):
    """The gradebook kept open for ``db_url`` (:func:`kept_open`), else a fresh one for this call."""
    gb = _KEPT.get((threading.get_ident(), db_url))
    if gb is None:
        with Gradebook(db_url, COURSE_ID) as gb:
            yield gb
        return
    try:
        yield gb
    except BaseException:
        gb.db.rollback()
        raise


def read_job_record(db_url: str, day: str, student: str, notebook: str) -> GradedNotebook:
    """What nbgrader wrote into a job's gradebook for its one notebook, as the start of the job's record:
    each check's automatic score, its maximum and whether it needs a human; the comments; the late penalty."""
    with Gradebook(db_url, COURSE_ID) as gb:
        nb = gb.find_submission_notebook(notebook, day, student)
        checks = tuple(CheckResult(float(g.auto_score or 0), float(g.max_score), grade_id=g.name,
                                   needs_manual=bool(g.needs_manual_grade)) for g in nb.grades)
        comments = tuple((c.name, c.auto_comment) for c in nb.comments)
        late = nb.late_submission_penalty
        return GradedNotebook(Status.GRADED, checks=checks, comments=comments,
                              late_penalty=None if late is None else float(late))


def notebook_names(db_url: str, day: str) -> list[str]:
    with _open(db_url) as gb:
        return sorted(nb.name for nb in gb.find_assignment(day).notebooks)


def max_scores(db_url: str, day: str) -> dict[str, dict[str, float]]:
    """``{notebook: {grade_id: max_score}}`` of an assignment."""
    with _open(db_url) as gb:
        return {
            nb.name: {cell.name: float(cell.max_score) for cell in nb.grade_cells}
            for nb in gb.find_assignment(day).notebooks
        }


def merge(db_url: str, day: str, student: str, notebook: str, result: GradedNotebook | None,
          timestamp=None, flagged: bool = False) -> None:
    """Write one notebook's automatic grades, from its job's record, into the course gradebook.

    ``result=None`` records the notebook as graded with zero (it could not be run). Manual
    scores are left as they are.
    """
    with _open(db_url) as gb:
        gb.update_or_create_student(student)
        kwargs = {"timestamp": timestamp} if timestamp else {}
        try:
            gb.find_submission(day, student)
            gb.update_or_create_submission(day, student, **kwargs)
        except MissingEntry:
            gb.add_submission(day, student, **kwargs)
        sub_nb = gb.find_submission_notebook(notebook, day, student)
        by_name = {c.grade_id: c for c in (result.checks if result else ())}
        for grade in sub_nb.grades:
            found = by_name.get(grade.name)
            grade.auto_score = found.score if found else 0
            # An instructor's manual grade outlives the regrading, to be looked at again (as nbgrader's autograde does)
            grade.needs_manual_grade = (found.needs_manual if found else False) or grade.manual_score is not None
        comments = dict(result.comments) if result else {}
        for comment in sub_nb.comments:
            if comment.name in comments:
                comment.auto_comment = comments[comment.name]
        sub_nb.late_submission_penalty = result.late_penalty if result else None
        sub_nb.flagged = bool(flagged) or bool(sub_nb.flagged)
        gb.db.commit()


def manual_grades(db_url: str, day: str, student: str, notebook: str) -> list[str]:
    """The checks of a student's notebook that an instructor graded by hand (nbgrader's ``manual_score``)."""
    with _open(db_url) as gb:
        try:
            sub_nb = gb.find_submission_notebook(notebook, day, student)
        except MissingEntry:
            return []
        return sorted(g.name for g in sub_nb.grades if g.manual_score is not None)


def zero_missing(db_url: str, day: str, student: str, submitted: set[str]) -> None:
    """Score zero the notebooks a student did not hand in, as ``nbgrader autograde`` does."""
    with _open(db_url) as gb:
        try:
            gb.find_submission(day, student)
        except MissingEntry:
            gb.update_or_create_student(student)
            gb.add_submission(day, student)
        for nb in gb.find_assignment(day).notebooks:
            if nb.name in submitted:
                continue
            sub_nb = gb.find_submission_notebook(nb.name, day, student)
            for grade in sub_nb.grades:
                if grade.auto_score is None:
                    grade.auto_score = 0
                    grade.needs_manual_grade = False
        gb.db.commit()


def class_grades(db_url: str, day: str) -> ClassGrades:
    """The class's grades for ``day`` as grades.csv, the report and the exports read them: every
    student's notebooks with their points (nbgrader's score: an instructor's manual grade where there is
    one, else the automatic one merged from the job's record) and late penalty. The one reader of the
    course gradebook's results."""
    with _open(db_url) as gb:
        names = tuple(sorted(nb.name for nb in gb.find_assignment(day).notebooks))
        students = []
        for sub in sorted(gb.assignment_submissions(day), key=lambda s: s.student.id):
            notebooks = tuple(
                NotebookGrade(nb.name, float(nb.score), float(nb.max_score), float(nb.late_submission_penalty or 0),
                              tuple(CheckResult(float(g.score), float(g.max_score), grade_id=g.name) for g in nb.grades),
                              float(sum(g.auto_score or 0 for g in nb.grades)))
                for nb in sorted(sub.notebooks, key=lambda n: n.name))
            students.append(StudentGrades(sub.student.id, notebooks))
    return ClassGrades(day, names, tuple(students))


def flagged(db_url: str, day: str) -> set[tuple[str, str]]:
    """``(student, notebook)`` pairs flagged for review in the gradebook."""
    with _open(db_url) as gb:
        return {
            (sub.student.id, nb.name)
            for sub in gb.assignment_submissions(day)
            for nb in sub.notebooks
            if nb.flagged
        }
