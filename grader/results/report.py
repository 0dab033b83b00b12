"""What the grader writes for people: feedback pages, ``grades.csv`` and the class report.

Feedback pages show, per exercise, each graded check with its points, whether it passed and
the plain-words message of a failure. They never show a test's source, so hidden tests stay
hidden. The class report shows the score distribution per exercise, the most common failure
messages, and every submission that needs a human: crashes, time-outs, unreadable files and
flags for review.
"""

from __future__ import annotations

import base64
import csv
import functools
import io
import re
import statistics
from collections import Counter, defaultdict
from dataclasses import dataclass, field, replace
from pathlib import Path

import jinja2
from markupsafe import Markup

from grader.records import CellKind, CheckResult, ClassGrades, NotebookGrade, NotebookRecord
from grader.results import roster_report
from grader.security import scrub  # noqa: F401 - its old home; grader.security is the one
from ptcourse.messages import catalogue, msg_in, normalise_lang


def status_words(status: str, lang: str = "en") -> str:
    """The plain words of a status code, in ``lang``."""
    return msg_in(lang, f"grader.status.{status}") if f"grader.status.{status}" in catalogue("en") else status


def check_title(grade_id: str, lang: str = "en") -> str:
    """A graded check's name: its test's docstring in ``lang`` (``<grade_id>.title``), else the id."""
    return msg_in(lang, f"{grade_id}.title") if f"{grade_id}.title" in catalogue("en") else grade_id


def exercise_name(label: str, lang: str = "en") -> str:
    """``Exercise 3 · autograd_softplus`` (nbmodel's label) in ``lang``."""
    m = re.match(r"Exercise (\d+)( · .*)?$", label)
    return msg_in(lang, "grader.page.exercise", number=m.group(1)) + (m.group(2) or "") if m else label


def note_text(note, lang: str = "en") -> str:
    """A note or finding kept as ``{"id": ..., "values": {...}}`` in ``lang``; a plain string as it is."""
    if isinstance(note, dict) and "id" in note:
        return msg_in(lang, note["id"], **note.get("values", {}))
    return str(note)

TEMPLATES = Path(__file__).resolve().parents[1] / "templates"


@functools.cache
def _environment() -> jinja2.Environment:
    """The pages' templates (``grader/templates/*.html``), autoescaped: every value a student or the
    catalogue gives is text, never markup."""
    return jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=jinja2.select_autoescape(["html"]),
                              undefined=jinja2.StrictUndefined, keep_trailing_newline=True)


def render(template: str, **values) -> str:
    """``grader/templates/<template>`` with ``values``: every page of the grader is made here."""
    return _environment().get_template(template).render(**values)


@dataclass(frozen=True)
class CheckRow:
    """One graded check on a feedback page."""

    exercise: str
    title: str
    grade_id: str
    points: str
    passed: bool
    wrong: str  # what was wrong, in words ("" when it passed)


def lost_words(cell: CheckResult, lang: str = "en") -> str:
    """Why a check lost points when its record kept no words for it (an older record): at least what it lost."""
    return msg_in(lang, "grader.cell.lost", score=cell.score, max_score=cell.max)


def _check_rows(cells: dict[str, CheckResult], exercises: dict[str, str], lang: str) -> list[CheckRow]:
    return [CheckRow(exercise_name(exercises.get(grade_id, grade_id), lang), check_title(grade_id, lang), grade_id,
                     f"{cell.score:g} / {cell.max:g}", cell.passed,
                     "" if cell.passed else cell.message or lost_words(cell, lang))
            for grade_id, cell in cells.items()]


def _page_words(lang: str, *keys: str) -> dict[str, str]:
    """``grader.page.<key>`` in ``lang`` for each key, by key."""
    return {key: msg_in(lang, f"grader.page.{key}") for key in keys}


def as_graded(record: NotebookRecord, graded: NotebookGrade) -> NotebookRecord | None:
    """``record`` as the class's grades score it (an instructor's manual grades, the late penalty of the score as
    it stands), for its page: each check graded by hand says so, and a note names them; None where the grades
    and the job's record agree."""
    by_hand = {c.grade_id: c.score for c in graded.checks
               if c.grade_id in record.cells and abs(c.score - record.cells[c.grade_id].score) > 1e-9}
    if not by_hand and abs(graded.score - record.score) < 1e-9 and abs(
            graded.late_penalty - (record.late_penalty or 0.0)) < 1e-9:
        return None
    lang = record.lang or "en"
    cells = {g: c if g not in by_hand else replace(c, score=by_hand[g], message=msg_in(
        lang, "grader.page.manual_check", score=by_hand[g], max=c.max)) for g, c in record.cells.items()}
    notes = record.notes + ((msg_in(lang, "grader.page.manual", checks=", ".join(
        check_title(g, lang) for g in by_hand)),) if by_hand else ())
    return replace(record, cells=cells, score=graded.score, late_penalty=graded.late_penalty, notes=notes)


def feedback_html(record: NotebookRecord, exercises: dict[str, str], lang: str | None = None) -> str:
    """One student's feedback page for one notebook, in ``lang`` (default: the notebook's own language)."""
    lang = lang or record.lang or "en"
    text = {"feedback_for": msg_in(lang, "grader.page.feedback_for", student=record.student),
            "points": msg_in(lang, "grader.page.points", score=record.score, max_score=record.max_score),
            **_page_words(lang, "flagged", "checks", "col_exercise", "col_check", "col_points", "col_result",
                          "col_wrong", "passed", "failed", "hidden_note")}
    problem = None
    if not record.graded:
        problem = {"status": status_words(record.status, lang), "detail": note_text(record.detail, lang)}
    late = ""
    if record.late_penalty:
        late = msg_in(lang, "grader.page.late", timestamp=record.timestamp or "", penalty=record.late_penalty,
                      final=max(0.0, record.score - record.late_penalty), max_score=record.max_score)
    return render("feedback.html", lang=normalise_lang(lang), text=text, problem=problem, late=late,
                  title=msg_in(lang, "grader.page.feedback_title", notebook=record.notebook, student=record.student),
                  heading=f"{record.day} · {record.notebook}", notes=[note_text(n, lang) for n in record.notes],
                  findings=[note_text(f, lang) for f in record.findings],
                  rows=_check_rows(record.cells, exercises, lang))


def normalise(message: str) -> str:
    """A failure message with its numbers blurred, so the same mistake groups together."""
    first = message.strip().splitlines()[0] if message.strip() else message
    return re.sub(r"-?\d+(\.\d+)?(e-?\d+)?", "#", first)[:160]


@dataclass(frozen=True)
class Chart:
    """A chart as an inline PNG, with ``alt``: the text a screen reader says in its place."""

    alt: str
    src: str  # data:image/png;base64,...


def _png(fig, alt: str) -> Chart:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=96)  # laid out when made (layout="constrained"): drawn once, not twice
    return Chart(alt, "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode())


def prepare_charts() -> None:
    """Import what the class report's charts need (a second or two), e.g. in a thread while the run's
    notebooks are graded."""
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot  # noqa: F401
    from matplotlib.figure import Figure

    import ptcourse.plotting  # noqa: F401

    fig = Figure(figsize=(1, 1))  # a first drawing loads the fonts
    fig.add_subplot().set_title("0")
    fig.savefig(io.BytesIO(), format="png", dpi=24)


def _charts(grades: ClassGrades, exercise_order: list[str], lang: str = "en") -> tuple[Chart, Chart]:
    """The histogram of each student's final score and the per-check bars, from the class's grades."""
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    from ptcourse.plotting import use_language_fonts

    with matplotlib.rc_context():  # the report's language's fonts (CJK for zh-CN), for these charts only
        use_language_fonts(normalise_lang(lang))
        return _draw(plt, grades, exercise_order, lang)


def _draw(plt, grades: ClassGrades, exercise_order: list[str], lang: str) -> tuple[Chart, Chart]:
    totals = {s.student: s.final for s in grades.students}
    fig, ax = plt.subplots(figsize=(7, 2.8), layout="constrained")
    ax.hist(list(totals.values()) or [0], bins=min(20, max(5, len(totals))), color="#4c72b0")
    ax.set_xlabel(msg_in(lang, "grader.report.chart_total"))
    ax.set_ylabel(msg_in(lang, "grader.report.chart_students"))
    ax.set_title(msg_in(lang, "grader.report.chart_distribution"))
    scores = list(totals.values()) or [0.0]
    hist = _png(fig, msg_in(lang, "grader.report.chart_distribution_alt", students=len(totals),
                            low=min(scores), high=max(scores)))
    plt.close(fig)

    earned, possible = defaultdict(float), defaultdict(float)
    for cell in (c for s in grades.students for n in s.notebooks for c in n.checks):
        earned[cell.grade_id] += cell.score
        possible[cell.grade_id] += cell.max
    ids = [g for g in exercise_order if possible.get(g)]
    fig, ax = plt.subplots(figsize=(7, max(2.5, 0.24 * len(ids))), layout="constrained")
    fractions = [100 * earned[g] / possible[g] for g in ids]
    colors = ["#b3261e" if f < 50 else "#f0b400" if f < 80 else "#0a7a2f" for f in fractions]
    bars = ax.barh(ids[::-1], fractions[::-1], color=colors[::-1])
    ax.bar_label(bars, fmt="%.0f%%", fontsize=7, padding=2)  # the value in words too, not by colour alone
    ax.set_xlim(0, 100)
    ax.set_xlabel(msg_in(lang, "grader.report.chart_earned"))
    ax.set_title(msg_in(lang, "grader.report.chart_struggled"))
    ax.tick_params(axis="y", labelsize=7)
    lowest = min(zip(fractions, ids, strict=True), default=(0.0, "-"))
    per_cell = _png(fig, msg_in(lang, "grader.report.chart_struggled_alt", checks=len(ids), lowest=lowest[1],
                                percent=lowest[0]))
    plt.close(fig)
    return hist, per_cell


@dataclass(frozen=True)
class ClassFacts:
    """What the class report shows besides the records, from the run (grader.run.engine)."""

    max_total: float = 0.0
    warnings: tuple = ()  # plain strings or notes ({"id", "values"})
    timing: object = ""  # a note or a string: the run's time per notebook
    similarity_html: str = ""  # grader.results.similarity_page.section: HTML made by an autoescaped template
    exports: tuple = ()  # grader.lms.lms_files.ExportResult, one per --export
    platform_late: dict[str, str] = field(default_factory=dict)  # student -> the platform that marked them late
    intake: tuple = ()  # grader.intake.class_intake.IntakeNote: hand-in times and extensions
    grades: ClassGrades | None = None  # the class's grades, as grades.csv has them (None: the records' own)


@dataclass(frozen=True)
class StudentRow:
    student: str
    points: str
    penalty: str
    final: str
    links: tuple[tuple[str, str], ...]  # (href, notebook)


def student_rows(grades: ClassGrades, records: list[NotebookRecord]) -> list[StudentRow]:
    """One row per student: points before the late penalty, the penalty, the final score (all as
    grades.csv has them), feedback links."""
    return [StudentRow(s.student, f"{s.points:g}", f"−{s.late_penalty:g}" if s.late_penalty else "", f"{s.final:g}",
                       tuple((r.feedback, r.notebook) for r in records if r.student == s.student and r.feedback))
            for s in grades.students]


@dataclass
class Tally:
    """The class's lost points by kind: mistakes (grouped by message), not attempted, stopped, unproven."""

    failures: Counter = field(default_factory=Counter)  # (grade_id, normalised message) -> times
    example: dict = field(default_factory=dict)  # (grade_id, normalised message) -> one message
    not_attempted: Counter = field(default_factory=Counter)  # notebook -> checks
    stopped: Counter = field(default_factory=Counter)  # (student, notebook) -> checks not run
    unproven: Counter = field(default_factory=Counter)  # (student, notebook) -> checks scored 0

    @classmethod
    def of(cls, records: list[NotebookRecord]) -> Tally:
        tally = cls()
        for r in records:
            for grade_id, cell in r.cells.items():
                if not cell.passed and cell.message:
                    tally.add(r, grade_id, cell)
        return tally

    def add(self, r: NotebookRecord, grade_id: str, cell: CheckResult) -> None:
        kind = cell.kind or (CellKind.NOT_ATTEMPTED if cell.message.startswith("NotImplementedError")
                             else CellKind.MISTAKE)
        if kind == CellKind.NOT_ATTEMPTED:
            self.not_attempted[r.notebook] += 1
        elif kind == CellKind.STOPPED:
            self.stopped[(r.student, r.notebook)] += 1
        elif kind == CellKind.INTEGRITY:
            self.unproven[(r.student, r.notebook)] += 1
        else:
            key = (grade_id, normalise(cell.message))
            self.failures[key] += 1
            self.example.setdefault(key, cell.message)


@dataclass(frozen=True)
class Attention:
    """A notebook that needs a human, with what is wrong in lines."""

    who: str
    notebook: str
    what: tuple[str, ...]


def attention_rows(records: list[NotebookRecord], lang: str) -> list[Attention]:
    rows = []
    for r in records:
        if r.graded and not r.findings and not r.notes:
            continue
        detail = r.instructor_detail or note_text(r.detail, lang)
        what = [status_words(r.status, lang) + ": " + detail[:600]] if not r.graded else []
        what += [msg_in(lang, "grader.report.review", finding=note_text(f, lang)) for f in r.findings]
        what += [note_text(n, lang) for n in r.notes]
        who = r.student if r.attributed else msg_in(lang, "grader.report.nobody")
        rows.append(Attention(who, r.notebook, tuple(what)))
    return rows


REPORT_WORDS = ("scores", "per_check", "common", "col_times", "col_check", "col_example", "none", "stopped",
                "stopped_note", "col_student", "col_notebook", "col_not_run", "unproven", "col_zero", "human",
                "col_what", "nothing", "students", "col_points", "col_late", "col_final", "col_feedback")


def _report_words(lang: str, day: str, records: list[NotebookRecord], finals: dict[str, float], facts: ClassFacts,
                  tally: Tally) -> dict[str, str]:
    """Every sentence of the class report (``grader.results.report.<key>``), in ``lang``."""
    text = {key: msg_in(lang, f"grader.report.{key}") for key in REPORT_WORDS}
    students = {r.student for r in records if r.attributed}
    text["counts"] = msg_in(lang, "grader.report.counts", students=len(students),
                            notebooks=sum(1 for r in records if r.attributed))
    text["mean"] = msg_in(lang, "grader.report.mean", mean=statistics.mean(finals.values()),
                          median=statistics.median(finals.values()), max_total=facts.max_total) if finals else ""
    counts = ", ".join(f"{nb} {n}" for nb, n in sorted(tally.not_attempted.items()))
    text["not_attempted"] = msg_in(lang, "grader.report.not_attempted", counts=counts) if counts else ""
    text["timing"] = note_text(facts.timing, lang) if facts.timing else ""
    return text


def class_report_html(day: str, records: list[NotebookRecord], exercise_order: list[str], facts: ClassFacts | None = None,
                      lang: str = "en") -> str:
    """The instructor's page, in ``lang``: distributions, common failures, what needs a human."""
    facts = facts or ClassFacts()
    grades = facts.grades if facts.grades is not None else ClassGrades.of_records(day, records)
    late = {s.student: s.late_penalty for s in grades.students if s.late_penalty}
    finals = {s.student: s.final for s in grades.students}
    tally = Tally.of(records)
    failures = [{"count": n, "title": check_title(g, lang), "grade_id": g, "example": tally.example[(g, m)][:300]}
                for (g, m), n in tally.failures.most_common(15)]
    return render(
        "report.html", lang=normalise_lang(lang), title=msg_in(lang, "grader.report.title", day=day),
        text=_report_words(lang, day, records, finals, facts, tally),
        warnings=[note_text(w, lang) for w in facts.warnings],
        charts=_charts(grades, exercise_order, lang) if grades.students else (), failures=failures,
        stopped=[(st, nb, n) for (st, nb), n in sorted(tally.stopped.items())],
        unproven=[(st, nb, n) for (st, nb), n in sorted(tally.unproven.items())],
        attention=attention_rows(records, lang),
        late=roster_report.late_section(late, facts.platform_late, lang),
        intake=roster_report.intake_section(facts.intake, lang),
        exports=roster_report.exports_section(list(facts.exports), lang),
        students=student_rows(grades, records),
        similarity=Markup(facts.similarity_html))  # made by an autoescaped template (grader.results.similarity_page)

def write_csv(path: Path, grades: ClassGrades, review: dict[str, list[str]],
              intake: dict[str, list[str]] | None = None, dues: dict[str, str] | None = None) -> None:
    """One row per student of ``grades``: points per notebook, the total, why to review (if so), the late
    penalty with the total after it (points per notebook and ``total`` are before the penalty), the
    student's own due date (an extension; ISO, UTC) and what intake found (grader.intake.class_intake)."""
    intake, dues = intake or {}, dues or {}
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["student", "assignment", *grades.notebooks, "total", "max_total", "needs_review",
                         "late_penalty", "final_total", "due", "intake"])
        for s in grades.students:
            points = [s.notebook(nb).score if s.notebook(nb) else 0.0 for nb in grades.notebooks]
            writer.writerow([s.student, grades.day, *[f"{p:g}" for p in points], f"{s.points:g}", f"{s.max_points:g}",
                             "; ".join(review.get(s.student, [])), f"{s.late_penalty:g}", f"{s.final:g}",
                             dues.get(s.student, ""), "; ".join(intake.get(s.student, []))])
