"""Grading on Gradescope: what ``run_autograder`` runs for each submission.

Gradescope's autograder contract (gradescope-autograders.readthedocs.io, "Autograder
Specifications"): the zip is unpacked in ``/autograder/source``, the learner's files are in
``/autograder/submission``, and the autograder must write ``/autograder/results/results.json``:
``{"score", "output", "tests": [{"name", "number", "score", "max_score", "status", "output",
"visibility"}], ...}`` with ``visibility`` one of ``visible``, ``hidden``, ``after_due_date``,
``after_published``. Anything printed goes to ``/autograder/results/stdout``, which only staff see.

Here the submission is graded by the course's own engine (:func:`grader.run.engine.grade_class`, as
``python -m grader check`` does): the same repair step, sandbox (where the platform allows it),
scores and plain-words messages. One Gradescope test per graded check; checks with hidden tests
are shown ``after_published``.

Visibility, as the spec ("Autograder Specifications", docs/specs.md of gradescope-autograders:
"Controlling Test Case Visibility") has it: a test's ``visibility`` (``hidden``, ``after_due_date``,
``after_published``, ``visible``) decides when the learner sees it; "if test cases are hidden,
students will not be able to see their total score", so the top-level ``score`` (the whole grade) is
Gradescope's to hide. The top-level ``output`` has no visibility of its own: the learner sees it at
once. So it must not tell the hidden checks' points, not even through a total: where a submission
has hidden checks, its lines give the points of the visible checks only and say that the rest are
shown when the instructor publishes the grades (the ``after_published`` tests, each with its score,
show them then). ``stdout_visibility`` stays ``hidden``: the grader's log is for staff. The root is ``--root``, else ``$PTGRADE_GRADESCOPE_ROOT``, else
``/autograder``, so the contract can be emulated in a temporary folder.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import traceback
from dataclasses import asdict, dataclass
from enum import Enum
from pathlib import Path

from grader import settings
from grader.grades.gradebook import COURSE_ROOT
from grader.records import CellResult, NotebookRecord, Status

ROOT_ENV = "PTGRADE_GRADESCOPE_ROOT"
DEFAULT_ROOT = Path("/autograder")
SKIP_PARTS = {"__MACOSX", ".ipynb_checkpoints"}


class Visibility(str, Enum):
    """Gradescope's visibility values (the ones this grader uses)."""

    VISIBLE = "visible"
    AFTER_PUBLISHED = "after_published"


@dataclass(frozen=True)
class GsTest:
    """One graded check, as one entry of ``results.json``'s ``tests``."""

    name: str
    number: str
    score: float
    max_score: float
    status: str  # "passed" or "failed"
    output: str
    visibility: Visibility
    grade_id: str  # written as the test's extra_data, for staff and tests

    def to_json(self) -> dict:
        out = asdict(self)
        del out["grade_id"]
        return {**out, "visibility": self.visibility.value, "extra_data": {"grade_id": self.grade_id}}


@dataclass(frozen=True)
class GsResults:
    """The whole ``results.json``."""

    score: float
    output: str
    tests: tuple[GsTest, ...]
    extra_data: dict

    def to_json(self) -> dict:
        tests = [t.to_json() for t in self.tests]
        return {"score": self.score, "output": self.output, "output_format": "text",
                "stdout_visibility": "hidden", "tests": tests, "extra_data": self.extra_data}


def hidden_checks(source: Path) -> set[str]:
    """Grade ids of the test cells that hold hidden tests (their source has a hidden block)."""
    import nbformat

    from ptcourse import nbmodel

    found = set()
    for path in sorted(Path(source).glob("*.ipynb")):
        for exercise in nbmodel.exercises(nbformat.read(str(path), as_version=4)):
            found.update(t.grade_id for t in exercise.tests if "### BEGIN HIDDEN TESTS" in t.source)
    return found


def _record_tests(record: NotebookRecord, number: int, labels: dict[str, str], hidden: set[str]) -> list[GsTest]:
    from grader.results import report
    from ptcourse.messages import msg_in

    lang = record.lang or "en"
    tests = []
    for k, (gid, cell) in enumerate(record.cells.items(), start=1):
        ok = cell.passed
        name = (f"{record.notebook} · {report.exercise_name(labels.get(gid, gid), lang)} · "
                f"{report.check_title(gid, lang)}")
        output = msg_in(lang, "grader.page.passed") if ok else (cell.message or report.lost_words(cell, lang))
        tests.append(GsTest(name=name, number=f"{number}.{k}", score=cell.score, max_score=cell.max,
                            status="passed" if ok else "failed", output=output,
                            visibility=Visibility.AFTER_PUBLISHED if gid in hidden else Visibility.VISIBLE, grade_id=gid))
    return tests


def _record_lines(record: NotebookRecord, hidden: set[str] = frozenset()) -> list[str]:
    """The notebook's points and its notes, in its language, for the top-level output (always visible:
    with hidden checks, the visible checks' points only)."""
    from grader.results import report
    from ptcourse.messages import msg_in

    lang = record.lang or "en"
    shown = [c for gid, c in record.cells.items() if gid not in hidden]
    if len(shown) < len(record.cells):
        points = msg_in(lang, "grader.gradescope.visible_points", score=sum(c.score for c in shown),
                        max_score=sum(c.max for c in shown))
    else:
        points = msg_in(lang, "grader.page.points", score=record.score, max_score=record.max_score)
    lines = [f"{record.notebook}: {points}"]
    if not record.graded:
        lines.append("  " + report.status_words(record.status, lang) + ": " + report.note_text(record.detail, lang))
    lines += ["  " + msg_in(lang, "grader.check.note", note=report.note_text(n, lang)) for n in record.notes]
    return lines


def to_results(day: str, records: list[NotebookRecord], maxes: dict[str, dict[str, float]], labels: dict[str, str],
               hidden: set[str], extra: dict | None = None) -> GsResults:
    """``results.json`` for one submission: its graded records, and zero for each notebook of
    ``day`` it left out (``maxes``: ``{notebook: {grade_id: points}}``, in course order)."""
    from ptcourse.messages import msg_in

    lang = next((r.lang for r in records if r.lang), "en")  # the language the learner works in
    by_nb = {r.notebook: r for r in records if r.notebook in maxes}
    tests: list[GsTest] = []
    lines: list[str] = []
    for number, notebook in enumerate(maxes, start=1):
        record = by_nb.get(notebook)
        if record is None:
            missing = msg_in(lang, "grader.gradescope.missing", notebook=notebook)
            record = NotebookRecord(student="", notebook=notebook, status=Status.GRADED, lang=lang,
                                    max_score=sum(maxes[notebook].values()),
                                    cells={g: CellResult(0.0, m, missing) for g, m in maxes[notebook].items()})
            lines.append(missing)
        else:
            lines += _record_lines(record, hidden)
        tests += _record_tests(record, number, labels, hidden)
    for r in records:
        if r.notebook not in maxes:  # a file that is no notebook of this day
            lines.append(f"{r.notebook}: " + (r.detail or ""))
    total = sum(t.score for t in tests)
    visible = [t for t in tests if t.visibility is Visibility.VISIBLE]
    if len(visible) < len(tests):  # the always-visible output tells no hidden check's points
        lines.insert(0, msg_in(lang, "grader.gradescope.visible_total", day=day, score=sum(t.score for t in visible),
                               max_score=sum(t.max_score for t in visible)))
    else:
        lines.insert(0, msg_in(lang, "grader.gradescope.total", day=day, score=total,
                               max_score=sum(t.max_score for t in tests)))
    return GsResults(score=total, output="\n".join(lines), tests=tuple(tests), extra_data=extra or {})


def collect(submission: Path, inbox: Path) -> list[Path]:
    """Copy every notebook of the submission (any folder depth, no links) into ``inbox``."""
    inbox.mkdir(parents=True, exist_ok=True)
    found = []
    for path in sorted(Path(submission).rglob("*")):  # any case: "01_tensors.IPYNB" is a notebook on every platform
        if (path.suffix.lower() != ".ipynb" or SKIP_PARTS & set(path.parts) or path.is_symlink()
                or not path.is_file()):
            continue
        dest = inbox / path.name
        if dest.exists():  # two files of one name in different folders: the second keeps its folder
            dest = inbox / f"{path.parent.name}_{path.name}"
        shutil.copyfile(path, dest)
        found.append(dest)
    return found


def grade(root: Path, day: str, limits, sandbox: bool = True) -> GsResults:
    """Grade ``root/submission`` with the course's engine and return its results."""
    from grader.grades.gradebook import CACHE, build_template, max_scores
    from grader.run.engine import Options, grade_class, masters_of
    from ptcourse.messages import msg

    source = COURSE_ROOT / "solutions" / day
    with tempfile.TemporaryDirectory(prefix="ptgs-") as tmp:
        inbox = Path(tmp) / "in" / "submission" / day
        found = collect(root / "submission", inbox)
        template = build_template(day, source, CACHE)
        shutil.copyfile(template, Path(tmp) / "gb.db")
        db_url = "sqlite:///" + str(Path(tmp) / "gb.db")
        maxes = max_scores(db_url, day)
        _, order, labels = masters_of(source)
        maxes = {nb: {g: maxes[nb][g] for g in order if g in maxes[nb]} for nb in maxes}
        records: list[NotebookRecord] = []
        warnings: list[str] = []
        if found:
            opts = Options(day=day, submissions=Path(tmp) / "in", out=Path(tmp) / "out", db_url=db_url,
                           limits=limits, sandbox=sandbox, progress=False)
            summary = grade_class(opts)
            records, warnings = summary.records, summary.warnings
        results = to_results(day, records, maxes, labels, hidden_checks(source),
                             extra={"day": day, "sandbox_warnings": warnings})
        if not found:
            results = GsResults(0.0, msg("grader.gradescope.no_notebook") + "\n" + results.output,
                                results.tests, results.extra_data)
        return results


def bwrap_works() -> bool:
    """Whether bubblewrap is installed *and* may make its namespaces here (Docker containers, such
    as Gradescope's, usually forbid them: then the grader must not ask for it)."""
    path = shutil.which("bwrap")
    if path is None:
        return False
    try:
        proc = subprocess.run([path, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-net",
                               "--unshare-pid", "true"], capture_output=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return proc.returncode == 0


NO_BWRAP = ("bubblewrap cannot run in this container: grading without it (the documented fallback). "
            "Student code runs unconfined inside Gradescope's container, which exists for this one "
            "submission; limits on time, output and memory (by polling) still apply.")


def write_results(root: Path, results: GsResults) -> Path:
    out = Path(root) / "results" / "results.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results.to_json(), indent=1, ensure_ascii=False))
    return out


def run(args) -> int:
    from grader.run.limit_flags import limits_from_args as _limits
    from ptcourse.messages import msg

    root = Path(args.root or settings.environment().gradescope_root or DEFAULT_ROOT)
    sandbox = not args.no_sandbox and bwrap_works()
    if not args.no_sandbox and not sandbox:
        print(f"warning: {NO_BWRAP}")  # staff only, like every line printed here
    try:
        results = grade(root, args.day, _limits(args), sandbox=sandbox)
    except Exception:  # the grader's own failure: staff see the traceback in stdout, learners plain words
        traceback.print_exc(file=sys.stdout)
        results = GsResults(0.0, msg("grader.error.internal"), (), {"day": args.day})
    for warning in results.extra_data.get("sandbox_warnings", []):
        print(f"warning: {warning}")  # /autograder/results/stdout: staff only
    path = write_results(root, results)
    print(f"{path}: {results.score:g} points, {len(results.tests)} checks")
    return 0


def build_parser() -> argparse.ArgumentParser:
    from grader.run.limit_flags import limits_args

    parser = argparse.ArgumentParser(prog="python -m grader.run.gradescope",
                                     description="Grade a Gradescope submission (run_autograder calls this).")
    sub = parser.add_subparsers(dest="command", required=True)
    run_p = sub.add_parser("run", help="grade <root>/submission, write <root>/results/results.json")
    run_p.add_argument("--day", required=True, help="the assignment the zip was built for")
    run_p.add_argument("--root", type=Path, help=f"the autograder root (default ${ROOT_ENV}, else /autograder)")
    limits_args(run_p)
    build_p = sub.add_parser("build", help="write the autograder zip for DAY")
    build_p.add_argument("day")
    build_p.add_argument("--out", type=Path, default=COURSE_ROOT / "gradescope", help="folder for the zip")
    build_p.add_argument("--args", default=gradescope_zip_defaults(), dest="extra_args",
                         help="grader limits run_autograder passes (default: %(default)s)")
    prep = sub.add_parser("prepare", help="build the day's template gradebook once (setup.sh runs this)")
    prep.add_argument("--day", required=True)
    return parser


def gradescope_zip_defaults() -> str:
    """Limits that fit Gradescope's defaults: a notebook stops well before the platform's 10 minutes."""
    return "--cell-timeout 60 --notebook-timeout 150"


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "build":
        from grader.results import gradescope_zip

        path = gradescope_zip.build(args.day, args.out, extra_args=args.extra_args)
        print(f"autograder zip: {path}")
        return 0
    if args.command == "prepare":
        from grader.grades.gradebook import CACHE, build_template

        print(f"template gradebook: {build_template(args.day, COURSE_ROOT / 'solutions' / args.day, CACHE)}")
        return 0
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
