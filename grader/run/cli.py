"""The grader's command line.

``python -m grader grade DAY`` grades a class (instructors); ``python -m grader check NOTEBOOK``
grades one notebook with the same engine and prints its feedback (learners). See ``--help``.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

from grader import settings
from grader.lms import registry
from grader.run.limit_flags import limits_args, size
from grader.run.limit_flags import limits_from_args as _limits
from grader.settings import COURSE_ROOT
from ptcourse.messages import LANGS


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m grader",
        description="Grade 'PyTorch in Three Days' notebooks: a whole class in parallel and sandboxed "
                    "(grade), or your own notebook (check).",
    )
    sub = parser.add_subparsers(dest="command", required=True)

    _grade_parser(sub)
    _check_parser(sub)
    _similarity_parser(sub)
    return parser


def _grade_parser(sub) -> None:
    grade = sub.add_parser(
        "grade", help="grade a class's submissions of one day",
        description="Grade every submission of DAY. Reads nbgrader's layout (SUBMISSIONS/<student>/<day>/*.ipynb), "
                    "a Canvas or Moodle bulk download (zipped or not; files grouped by the platform's student id, "
                    "the newest resubmission graded), or a flat folder of notebooks named by student "
                    "(alice.ipynb, alice_01_tensors.ipynb). "
                    "Writes scores to the gradebook, reports/<day>/grades.csv, reports/<day>/report.html and "
                    "one feedback page per student and notebook in feedback/<student>/<day>/. "
                    "Notebooks already graded from the same file are skipped, so a stopped run resumes.",
    )
    grade.add_argument("day", help="the assignment: day1, day2 or day3")
    grade.add_argument("--submissions", type=Path, default=COURSE_ROOT / "submitted", metavar="DIR",
                       help="folder of submissions, or a Canvas or Moodle download (folder or .zip) "
                            "(default: the course's submitted/)")
    grade.add_argument("--out", type=Path, default=COURSE_ROOT, metavar="DIR",
                       help="where autograded/, feedback/ and reports/ go (default: the course root)")
    grade.add_argument("--gradebook", metavar="URL",
                       help="gradebook database URL (default: the course's, sqlite:///grader/gradebook.db)")
    grade.add_argument("--workers", type=int, default=0, metavar="N", help="notebooks graded at once (default: CPUs)")
    grade.add_argument("--regrade", action="store_true", help="grade again what is already graded")
    grade.add_argument("--student", action="append", default=[], metavar="ID", help="only this student (repeatable)")
    grade.add_argument("--require-sandbox", action="store_true",
                       help="refuse to run unless bubblewrap and a memory cgroup are available")
    grade.add_argument("--quiet", action="store_true", help="no progress bar or per-notebook lines")
    grade.add_argument("--lang", default="en", choices=list(LANGS),
                       help="the class report's language (each feedback page is in its notebook's own; default en)")
    cluster = grade.add_argument_group("grading on a cluster (README: Grading on a cluster)")
    cluster.add_argument("--scheduler", metavar="ADDRESS",
                         help="run the jobs on a Dask cluster: a scheduler address (tcp://host:8786), or local:N "
                              "for N worker processes on this machine (default: the local pool of --workers)")
    cluster.add_argument("--allow-unsandboxed", action="store_true",
                         help="let cluster workers without bubblewrap or a memory cgroup grade (each says so); "
                              "without it such a worker refuses every job")
    grade.add_argument("--max-notebook-size", type=size, default=size("50M"), metavar="SIZE",
                       help="bigger files are reported, never read (default 50M)")
    _classroom_args(grade)
    limits_args(grade)


def _classroom_args(grade: argparse.ArgumentParser) -> None:
    classroom = grade.add_argument_group("late hand-ins, grade exports and feedback for the class")
    classroom.add_argument("--due", metavar="DATE",
                           help="due date with a time zone, e.g. '2027-01-15 23:59 UTC' or '2027-01-15 23:59 "
                                "Europe/Berlin'; a date alone with a zone ('2027-01-15 Europe/Berlin') means the "
                                "end of that day there (default: c.CoursePenalty.due in grader/nbgrader_config.py); "
                                "hand-ins later by timestamp.txt lose the course's late penalty")
    classroom.add_argument("--extensions", type=Path, metavar="CSV",
                           help="per-student extensions: a CSV file with a 'student' column and a 'due' (the "
                                "student's own due date, with a time zone) or 'extra' column (time added to the "
                                "due date, e.g. '2 days'); a row that cannot be used affects that student only")
    classroom.add_argument("--export", action="append", default=[], choices=registry.names(),
                           help="also write reports/<day>/canvas.csv or moodle.csv for the platform's grade import "
                                "(repeatable)")
    classroom.add_argument("--lms-roster", type=Path, metavar="CSV",
                           help="the class list exported from the platform, to match students to its ids: Canvas's "
                                "gradebook export, Moodle's grades export or the assignment's grading worksheet "
                                "(separated by commas, semicolons or tabs)")
    classroom.add_argument("--missing-as-zero", action="store_true",
                           help="roster students with no hand-in get 0 in the exports (default: left empty)")
    classroom.add_argument("--lms-column", metavar="NAME",
                           help="the grade column: the assignment's name in the platform, for Canvas with its id, "
                                "e.g. 'Day 1 (4711)' (default: 'PyTorch in Three Days: <day>')")
    classroom.add_argument("--groups", type=Path, metavar="CSV",
                           help="who is in which group, so that a group's one submission grades every member: "
                                "Canvas's group set export (group_name, canvas_user_id, ...) or a CSV with the "
                                "columns group and member (a user id, login, e-mail or name); a Moodle grading "
                                "worksheet given with --lms-roster adds its Group column")
    classroom.add_argument("--feedback-zip", action="store_true",
                           help="also write feedback-zip/<day>/<student>.zip (each student's feedback pages)")
    classroom.add_argument("--solutions-after-due", action="store_true",
                           help="once the due date and every extension have passed, write each notebook's worked "
                                "solution (the student copy with the model answers, no hidden test) into "
                                "solutions/<day>/ and each student's feedback zip, in the student's language")


def _check_parser(sub) -> None:
    check = sub.add_parser(
        "check", help="grade one notebook of yours, with the hidden tests, and show the feedback",
        description="Grade one notebook the way your instructor will (visible and hidden tests), "
                    "print what passed and failed, and write a feedback page. Nothing is sent anywhere.",
    )
    check.add_argument("notebook", type=Path, help="for example day1/01_tensors.ipynb")
    check.add_argument("--day", help="the day, if the notebook is not in a dayN/ folder")
    limits_args(check)


def _similarity_parser(sub) -> None:
    sim = sub.add_parser(
        "similarity", help="pairs of similar answers per exercise: a reason to look, not a verdict",
        description="Compare the class's answer cells of DAY, exercise by exercise (copydetect: winnowing, "
                    "MOSS's method; starter code, the model solution and code most of the class shares do not "
                    "count). Writes reports/<day>/similarity.html with the matched lines side by side. "
                    "Nothing is run. `grade` writes the same page and a section of the class report.",
    )
    sim.add_argument("day", help="the assignment: day1, day2 or day3")
    sim.add_argument("--submissions", type=Path, default=COURSE_ROOT / "submitted", metavar="DIR",
                     help="folder of submissions, in either layout `grade` reads (default: submitted/)")
    sim.add_argument("--out", type=Path, default=COURSE_ROOT, metavar="DIR", help="where reports/ goes")
    sim.add_argument("--threshold", type=float, default=0.5, metavar="SHARE",
                     help="list a pair when this share of one answer is also in the other (default 0.5)")
    sim.add_argument("--lang", default="en", choices=list(LANGS), help="the page's language (default en)")


def cmd_grade(args) -> int:
    from grader.run.engine import Options, grade_class

    if not (COURSE_ROOT / "solutions" / args.day).is_dir():
        print(f"error: no such day {args.day!r} (expected one of the folders in solutions/)", file=sys.stderr)
        return 2
    if not (args.submissions.is_dir() or args.submissions.is_file() and args.submissions.suffix.lower() == ".zip"):
        print(f"error: no submissions folder or .zip {str(args.submissions)!r}", file=sys.stderr)
        return 2
    import zipfile

    if args.submissions.is_file() and not zipfile.is_zipfile(args.submissions):
        print(f"error: {args.submissions.name} is not a readable zip file (download it again, or unpack it "
              "and pass the folder)", file=sys.stderr)
        return 2
    from grader.grades import late

    db_url = args.gradebook or None
    try:
        due = late.due_date(args.day, args.due)
    except ValueError as exc:
        print(f"error: {'--due' if args.due else 'c.CoursePenalty.due in grader/nbgrader_config.py'}: {exc}",
              file=sys.stderr)
        return 2
    if not roster_ok(args) or not groups_ok(args) or not extensions_ok(args):
        return 2
    from grader.grades.gradebook import course_db_url

    due, _ = late.apply_due(args.day, due, db_url or course_db_url())  # a new due date grades again
    if due is not None:  # said before grading, so a wrong date can be stopped
        print(f"due:     {due:%Y-%m-%d %H:%M} UTC (late penalty: grader/grades/late.py)", flush=True)
    opts = Options(day=args.day, submissions=args.submissions, out=args.out, db_url=args.gradebook,
                   workers=args.workers, regrade=args.regrade, students=args.student, limits=_limits(args),
                   sandbox=not args.no_sandbox, require_sandbox=args.require_sandbox, progress=not args.quiet,
                   max_notebook_bytes=args.max_notebook_size, due=None if due is None else due.isoformat(),
                   lang=args.lang, scheduler=args.scheduler, allow_unsandboxed=args.allow_unsandboxed,
                   exports=tuple(args.export), roster=args.lms_roster, lms_column=args.lms_column,
                   missing_as_zero=args.missing_as_zero, groups=args.groups, extensions=args.extensions,
                   second_key=settings.environment().second_key)
    from grader.intake.downloads import DownloadError
    from grader.intake.extensions import ExtensionsError
    from grader.lms.roster import RosterError
    from grader.run.reference import ReferenceFailed

    try:
        summary = grade_class(opts)
    except (DownloadError, RosterError, ExtensionsError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except ReferenceFailed as exc:  # nobody was graded: the course's own notebook must run first
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return finish(args, summary, due)


def finish(args, summary, due) -> int:
    """What a graded class run says and writes after grading, and its exit status: 1 where the
    instructor must act (refused or lost notebooks, hand-ins or times needing a human, graded students an export
    leaves out, earlier grades of files these submissions no longer hold, nothing graded)."""
    print(f"graded {summary.graded} notebook(s), skipped {summary.skipped} already graded, "
          f"{summary.problems} with problems, in {summary.wall_s:.1f} s")
    if summary.overhead_s is not None:
        print(f"per notebook: {summary.cells_s:.1f} s running cells + {summary.overhead_s:.1f} s overhead")
    if summary.refused:
        print(f"error: {len(summary.refused)} notebook(s) refused by the workers, not graded (a rerun grades "
              f"them):\n  " + "\n  ".join(summary.refused[:10]), file=sys.stderr)
    print(f"grades:  {summary.csv}\nreport:  {summary.report}\nfeedback: {Path(args.out) / 'feedback'}/<student>/{args.day}/")
    for result in summary.exports:
        print_export(result)
    humans = print_intake(summary.intake, args.lang)
    worked = release_solutions(args, due, summary) if args.solutions_after_due else {}
    if args.feedback_zip:
        from grader.results import exports

        zips = exports.feedback_zips(Path(args.out), args.day, worked)
        print(f"feedback zips: {len(zips)} in {Path(args.out) / 'feedback-zip' / args.day}/")
    if summary.handin_problems:
        print(f"needs a human: {len(summary.handin_problems)} hand-in(s), the rest graded (details in the report):\n  "
              + "\n  ".join(f"{student}: {problem}" for student, problem in summary.handin_problems), file=sys.stderr)
    if summary.lost:
        print(f"error: {len(summary.lost)} notebook(s) could not be graded: a grading process died on every try "
              f"(not the learners' code; grade them again with --regrade --student):\n  "
              + "\n  ".join(summary.lost[:10]), file=sys.stderr)
    if not ran_any(summary):
        print(f"error: nothing was graded: no file in {args.submissions.name} is a notebook of {args.day} that "
              "could be read (see the report); check that this is the right download for this day", file=sys.stderr)
        return 1
    left_out = any(result.unmatched for result in summary.exports)  # grades the import file does not carry
    return 1 if (summary.refused or summary.lost or summary.handin_problems or humans or left_out
                 or summary.stale) else 0


def release_solutions(args, due, summary) -> dict[str, list[tuple[Path, str]]]:
    """Worked solutions (grader.results.worked) once every due date has passed: written, and for each student the
    files (and their names in the zip) in the student's language. Held back, it says why on stderr."""
    from grader.results import worked

    state = worked.release(due, summary.intake.dues)
    if not state.allowed:
        why = ("no due date is set (--due or c.CoursePenalty.due)" if state.last_due is None else
               f"the last due date, {state.last_due:%Y-%m-%d %H:%M} UTC, has not passed"
               + (f" (extensions of {', '.join(state.held_by)})" if state.held_by else ""))
        print(f"note: worked solutions held back: {why}; grade again with --solutions-after-due after it",
              file=sys.stderr)
        return {}
    langs = {r.student: r.lang for r in summary.records}
    written = worked.write(args.day, Path(args.out), set(langs.values()) | {"en"})
    print(f"worked solutions: {len(written)} in {Path(args.out) / 'solutions' / args.day}/")
    by_lang = {lang: [(p, f"solutions/{p.name}") for p in written
                      if p.parent.name == (worked.LANG_FOLDERS.get(lang) or args.day)] for lang in set(langs.values())}
    return {student: by_lang.get(lang, []) for student, lang in langs.items()}


def ran_any(summary) -> bool:
    """Did any notebook of this run, or an earlier one, get as far as running (an empty class never passes)?"""
    from grader.records import Status

    return bool(summary.skipped or summary.retried or summary.lost) or any(
        r.status not in (Status.UNREADABLE, Status.UNATTRIBUTED) for r in summary.records)


def groups_ok(args) -> bool:
    """Check ``--groups`` before grading: a readable group file, with a group and a member column."""
    if args.groups is None:
        return True
    from grader.lms import groups

    try:
        groups.load(args.groups)
    except groups.GroupsError as exc:
        print(f"error: --groups: {exc}", file=sys.stderr)
        return False
    return True


def print_intake(intake, lang: str) -> list[str]:
    """Hand-in times and extensions (grader.intake.class_intake) on stderr; the students who need a human."""
    for note in intake.notes:
        prefix = "error" if note.needs_human else "note"
        print(f"{prefix}: {note.student or '-'}: {note.text(lang)}", file=sys.stderr)
    humans = intake.needing_human()
    if humans:
        from ptcourse.messages import msg_in

        print("error: " + msg_in(lang, "grader.report.intake_human", count=len(humans)) + " " + ", ".join(humans),
              file=sys.stderr)
    return humans


def extensions_ok(args) -> bool:
    """Check ``--extensions`` before grading: the file and its columns (a bad row is one student's note)."""
    if args.extensions is None:
        return True
    from grader.intake import extensions

    return _load_named_file(args.extensions, "extensions", extensions.load, extensions.ExtensionsError) is not None


def _load_named_file(path: Path, flag: str, load, error: type[Exception]):
    """``load(path)`` for the file given to ``--<flag>``, or ``None`` with a plain error on stderr (no such
    file, or ``error``'s message)."""
    if not path.is_file():
        print(f"error: no {flag.replace('lms-', '')} file {str(path)!r}", file=sys.stderr)
        return None
    try:
        return load(path)
    except error as exc:
        print(f"error: --{flag}: {exc}", file=sys.stderr)
        return None


def self_check_page(day: str, notebook: str, lang: str) -> Path:
    """Where ``check`` writes its feedback page: ``feedback/self-check/<day>/<notebook>.html``,
    under ``feedback/self-check/<lang>/`` for a notebook in another language (the Chinese
    edition's copy of a notebook does not overwrite the English one's page)."""
    folder = COURSE_ROOT / "feedback" / "self-check"
    return (folder if lang == "en" else folder / lang) / day / f"{notebook}.html"


def roster_ok(args) -> bool:
    """Check ``--lms-roster`` before grading: readable, a platform's export; say which export uses it."""
    if args.lms_roster is None:
        return True
    from grader.lms import roster

    found = _load_named_file(args.lms_roster, "lms-roster", roster.load, roster.RosterError)
    if found is None:
        return False
    from ptcourse.messages import msg_in

    print(msg_in(args.lang, "grader.textfile.read_as", file=args.lms_roster.name, encoding=found.encoding))
    for kind in dict.fromkeys(args.export):
        if kind != found.kind.platform:
            print(f"warning: {args.lms_roster.name} is a {found.kind.platform.capitalize()} export: {kind}.csv is "
                  "written with the grader's ids, not matched to a roster", file=sys.stderr)
    return True


def print_export(result) -> None:
    """One export's file, and who it left out or wrote as missing."""
    print(f"{result.kind}:  {result.path}")
    if result.scaled:
        course, platform = result.scaled
        print(f"warning: the assignment's maximum in {result.roster.name} is {platform:g}, the course's {course:g}: "
              f"the grades in {result.path.name} are scaled to {platform:g} (points x {platform:g}/{course:g}, "
              "2 decimals); grades.csv keeps the course's points", file=sys.stderr)
    if result.anonymous:
        print(f"warning: {result.anonymous} graded hand-in(s) are known by an anonymous id only (anonymous grading): "
              f"no roster row can be told to have no hand-in, so none was written as 0 or listed as missing; enter "
              "the grades once the platform shows who is who", file=sys.stderr)
    if result.unmatched:
        print(f"warning: {len(result.unmatched)} graded student(s) match no single roster row and are NOT in "
              f"{result.path.name} (enter them by hand; listed in {result.unmatched_path}): "
              + ", ".join(f"{u.student} ({u.reason})" for u in result.unmatched), file=sys.stderr)
    if result.missing:
        how = "0" if result.missing_as_zero else "empty"
        print(f"on the roster, no hand-in ({len(result.missing)}, written as {how}): {', '.join(result.missing)}")


def cmd_check(args) -> int:
    from grader.results import checklines
    from grader.run.engine import Options, grade_class
    from ptcourse.messages import msg_in

    path = args.notebook.resolve()
    if not path.exists():
        print(f"error: no notebook at {args.notebook}", file=sys.stderr)
        return 2
    day = args.day or path.parent.name
    if not (COURSE_ROOT / "solutions" / day).is_dir():
        print(f"error: can't tell the day of {args.notebook}; pass --day day1|day2|day3", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="ptcheck-") as tmp:
        inbox = Path(tmp) / "in" / "me" / day
        inbox.mkdir(parents=True)
        shutil.copyfile(path, inbox / path.name)
        out = Path(tmp) / "out"
        from grader.grades.gradebook import CACHE, build_template

        template = build_template(day, COURSE_ROOT / "solutions" / day, CACHE)
        shutil.copyfile(template, Path(tmp) / "gb.db")
        opts = Options(day=day, submissions=Path(tmp) / "in", out=out, db_url="sqlite:///" + str(Path(tmp) / "gb.db"),
                       workers=1, limits=_limits(args), sandbox=not args.no_sandbox, progress=False,
                       second_key=False)  # a learner's self-check: the kernel's checks only
        summary = grade_class(opts)
        records = [r for r in summary.records if r.student == "me"]
        if not records:
            print("nothing was graded", file=sys.stderr)
            return 1
        record = records[0]
        lang = record.lang or "en"  # the notebook's language, as on its feedback page
        print("\n".join(checklines.summary(record, day, lang)))
        dest = self_check_page(day, record.notebook, lang)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(out / "feedback" / "me" / day / f"{record.notebook}.html", dest)
        print("\n" + msg_in(lang, "grader.check.feedback_page", path=dest))
        from ptcourse.progress import record_grades  # the course home's progress table

        record_grades(path, [(cell.score, cell.max) for cell in record.cells.values()])
    return 0


def cmd_similarity(args) -> int:
    from grader.results import similarity, similarity_page

    source = COURSE_ROOT / "solutions" / args.day
    if not source.is_dir() or not args.submissions.is_dir():
        print(f"error: no such day {args.day!r} or no submissions folder {str(args.submissions)!r}", file=sys.stderr)
        return 2
    from grader.intake.downloads import DownloadError

    try:
        result = similarity.for_folder(args.day, args.submissions, source, args.threshold)
    except DownloadError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for pair in result.pairs:
        print(f"{pair.a.notebook} {pair.a.exercise}: {pair.a.student} ~ {pair.b.student} "
              f"({pair.share_a:.0%} / {pair.share_b:.0%})")
    path = similarity_page.write(result, Path(args.out) / "reports" / args.day, args.lang)
    print(f"{len(result.pairs)} pair(s) to look at (a reason to look, not a verdict): {path}")
    return 0


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        return {"grade": cmd_grade, "check": cmd_check, "similarity": cmd_similarity}[args.command](args)
    except settings.SettingError as exc:  # a variable of the instructor's environment: its name and values
        print(f"error: {exc}", file=sys.stderr)
        return 2
