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
import html
import io
import re
import statistics
from collections import Counter, defaultdict
from pathlib import Path

from grader import roster_report
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

STYLE = """
body{font-family:system-ui,-apple-system,Segoe UI,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;
color:#1d1d1f;line-height:1.45}
h1{font-size:1.6rem;margin-bottom:.2rem}h2{font-size:1.2rem;margin-top:2rem;border-bottom:1px solid #ddd}
table{border-collapse:collapse;width:100%;margin:.5rem 0}td,th{border-bottom:1px solid #eee;padding:.35rem .5rem;
text-align:left;vertical-align:top}th{background:#f6f6f8}.pass{color:#0a7a2f}.fail{color:#b3261e}
.note{background:#fff7e0;border-left:4px solid #f0b400;padding:.5rem .8rem;margin:.5rem 0}
.bad{background:#fdecea;border-left:4px solid #b3261e;padding:.5rem .8rem;margin:.5rem 0}
.score{font-size:1.3rem;font-weight:600}code,pre{background:#f6f6f8;padding:.1rem .3rem;border-radius:3px;
white-space:pre-wrap}.muted{color:#666}img{max-width:100%}
"""


def esc(text) -> str:
    return html.escape(str(text))


def page(title: str, body: str, lang: str = "en") -> str:
    return (f"<!doctype html><html lang='{esc(normalise_lang(lang))}'><head><meta charset='utf-8'><title>{esc(title)}</title>"
            f"<style>{STYLE}</style></head><body><main>{body}</main></body></html>\n")


def feedback_html(record: dict, exercises: dict[str, str], lang: str | None = None) -> str:
    """One student's feedback page for one notebook (see :func:`grader.engine` records), in ``lang``
    (default: the notebook's own language, ``record["lang"]``)."""
    lang = lang or record.get("lang") or "en"

    def t(key, **values):
        return esc(msg_in(lang, key, **values))

    title = msg_in(lang, "grader.page.feedback_title", notebook=record["notebook"], student=record["student"])
    parts = [f"<h1>{esc(record['day'])} · {esc(record['notebook'])}</h1>",
             f"<p class='muted'>{t('grader.page.feedback_for', student=record['student'])}</p>",
             f"<p class='score'>{t('grader.page.points', score=record['score'], max_score=record['max_score'])}</p>"]
    if record["status"] != "graded":
        parts.append(f"<div class='bad'><b>{esc(status_words(record['status'], lang))}:</b> "
                     f"{esc(note_text(record.get('detail', ''), lang))}</div>")
    for note in record.get("notes", []):
        parts.append(f"<div class='note'>{esc(note_text(note, lang))}</div>")
    if record.get("late_penalty"):
        parts.append("<div class='note'>" + t(
            "grader.page.late", timestamp=record.get("timestamp") or "", penalty=record["late_penalty"],
            final=max(0.0, record["score"] - record["late_penalty"]), max_score=record["max_score"]) + "</div>")
    if record.get("findings"):
        items = "".join(f"<li>{esc(note_text(f, lang))}</li>" for f in record["findings"])
        parts.append(f"<div class='note'><b>{t('grader.page.flagged')}</b><ul>{items}</ul></div>")
    cells = record.get("cells", {})
    if cells:
        rows = []
        for grade_id, cell in cells.items():
            ok = cell["score"] >= cell["max"]
            mark = (f"<span class='pass'>{t('grader.page.passed')}</span>" if ok
                    else f"<span class='fail'>{t('grader.page.failed')}</span>")
            message = "" if ok else esc(cell.get("message") or msg_in(lang, "grader.page.no_message"))
            rows.append(f"<tr><td>{esc(exercise_name(exercises.get(grade_id, grade_id), lang))}</td>"
                        f"<td>{esc(check_title(grade_id, lang))}<br><code class='muted'>{esc(grade_id)}</code></td>"
                        f"<td>{cell['score']:g} / {cell['max']:g}</td><td>{mark}</td><td>{message}</td></tr>")
        parts.append(f"<h2>{t('grader.page.checks')}</h2><table><tr><th>{t('grader.page.col_exercise')}</th>"
                     f"<th>{t('grader.page.col_check')}</th><th>{t('grader.page.col_points')}</th><th>{t('grader.page.col_result')}</th>"
                     f"<th>{t('grader.page.col_wrong')}</th></tr>" + "".join(rows) + "</table>")
        parts.append(f"<p class='muted'>{t('grader.page.hidden_note')}</p>")
    return page(title, "".join(parts), lang)


def normalise(message: str) -> str:
    """A failure message with its numbers blurred, so the same mistake groups together."""
    first = message.strip().splitlines()[0] if message.strip() else message
    return re.sub(r"-?\d+(\.\d+)?(e-?\d+)?", "#", first)[:160]


def _png(fig, alt: str) -> str:
    """The figure as an inline PNG with ``alt``, the text a screen reader says in its place."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=96, bbox_inches="tight")
    return f"<img alt='{esc(alt)}' src='data:image/png;base64," + base64.b64encode(buf.getvalue()).decode() + "'>"


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


def _charts(records: list[dict], exercise_order: list[str], lang: str = "en",
            totals: dict[str, float] | None = None) -> tuple[str, str]:
    """The histogram of ``totals`` (each student's final score) and the per-check bars."""
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    from ptcourse.plotting import use_language_fonts

    with matplotlib.rc_context():  # the report's language's fonts (CJK for zh-CN), for these charts only
        use_language_fonts(normalise_lang(lang))
        return _draw(plt, records, exercise_order, lang, totals if totals is not None else final_totals(records, {}))


def _draw(plt, records: list[dict], exercise_order: list[str], lang: str,
          totals: dict[str, float]) -> tuple[str, str]:
    fig, ax = plt.subplots(figsize=(7, 2.8))
    ax.hist(list(totals.values()) or [0], bins=min(20, max(5, len(totals))), color="#4c72b0")
    ax.set_xlabel(msg_in(lang, "grader.report.chart_total"))
    ax.set_ylabel(msg_in(lang, "grader.report.chart_students"))
    ax.set_title(msg_in(lang, "grader.report.chart_distribution"))
    scores = list(totals.values()) or [0.0]
    hist = _png(fig, msg_in(lang, "grader.report.chart_distribution_alt", students=len(totals),
                            low=min(scores), high=max(scores)))
    plt.close(fig)

    earned, possible = defaultdict(float), defaultdict(float)
    for r in records:
        for grade_id, cell in r.get("cells", {}).items():
            earned[grade_id] += cell["score"]
            possible[grade_id] += cell["max"]
    ids = [g for g in exercise_order if possible.get(g)]
    fig, ax = plt.subplots(figsize=(7, max(2.5, 0.24 * len(ids))))
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


def before_penalty(records: list[dict]) -> dict[str, float]:
    """Each attributed student's points before any late penalty."""
    totals: dict[str, float] = defaultdict(float)
    for r in records:
        if r.get("attributed", True):
            totals[r["student"]] += r["score"]
    return totals


def final_totals(records: list[dict], late: dict[str, float]) -> dict[str, float]:
    """Each student's final score: points after the late penalty (never below 0), as exported."""
    return {s: max(0.0, total - late.get(s, 0.0)) for s, total in before_penalty(records).items()}


def students_table(records: list[dict], late: dict[str, float], lang: str) -> str:
    """One row per student: points before the late penalty, the penalty, the final score, feedback links."""
    totals, finals = before_penalty(records), final_totals(records, late)
    head = "".join(f"<th>{esc(msg_in(lang, k))}</th>" for k in (
        "grader.report.col_student", "grader.report.col_points", "grader.report.col_late", "grader.report.col_final",
        "grader.report.col_feedback"))
    rows = []
    for student in sorted(totals):
        links = " ".join(f"<a href='{esc(r['feedback'])}'>{esc(r['notebook'])}</a>"
                         for r in records if r["student"] == student and r.get("feedback"))
        penalty = f"−{late[student]:g}" if late.get(student) else ""
        rows.append(f"<tr><td>{esc(student)}</td><td>{totals[student]:g}</td><td>{penalty}</td>"
                    f"<td>{finals[student]:g}</td><td>{links}</td></tr>")
    return (f"<h2>{esc(msg_in(lang, 'grader.report.students'))}</h2><table><tr>{head}</tr>"
            + "".join(rows) + "</table>")


def class_report_html(day: str, records: list[dict], exercise_order: list[str], summary: dict,
                      lang: str = "en") -> str:
    """The instructor's page, in ``lang``: distributions, common failures, what needs a human."""

    def t(key, **values):
        return esc(msg_in(lang, key, **values))

    def th(*keys):
        return "<tr>" + "".join(f"<th>{t(k)}</th>" for k in keys) + "</tr>"

    students = sorted({r["student"] for r in records if r.get("attributed", True)})
    late = {student: sum(nbs.values()) for student, nbs in summary.get("penalties", {}).items()}
    finals = final_totals(records, late)
    max_total = summary.get("max_total", 0)
    graded = [r for r in records if r.get("attributed", True)]
    parts = [f"<h1>{t('grader.report.title', day=day)}</h1>",
             f"<p>{t('grader.report.counts', students=len(students), notebooks=len(graded))} "]
    if finals:
        values = list(finals.values())
        parts.append(t("grader.report.mean", mean=statistics.mean(values), median=statistics.median(values),
                       max_total=max_total))
    parts.append("</p>")
    for warning in summary.get("warnings", []):
        parts.append(f"<div class='bad'>{esc(note_text(warning, lang))}</div>")
    if graded:
        hist, per_cell = _charts(graded, exercise_order, lang, finals)
        parts += [f"<h2>{t('grader.report.scores')}</h2>", hist, f"<h2>{t('grader.report.per_check')}</h2>", per_cell]

    failures = Counter()
    example = {}
    not_attempted = Counter()
    stopped = Counter()
    unproven = Counter()
    for r in records:
        for grade_id, cell in r.get("cells", {}).items():
            if cell["score"] < cell["max"] and cell.get("message"):
                kind = cell.get("kind") or ("not_attempted" if cell["message"].startswith("NotImplementedError")
                                            else "mistake")
                if kind == "not_attempted":
                    not_attempted[r["notebook"]] += 1
                elif kind == "stopped":
                    stopped[(r["student"], r["notebook"])] += 1
                elif kind == "integrity":
                    unproven[(r["student"], r["notebook"])] += 1
                else:
                    key = (grade_id, normalise(cell["message"]))
                    failures[key] += 1
                    example.setdefault(key, cell["message"])
    parts.append(f"<h2>{t('grader.report.common')}</h2>")
    if failures:
        rows = "".join(f"<tr><td>{n}</td><td>{esc(check_title(g, lang))}<br><code class='muted'>{esc(g)}</code>"
                       f"</td><td>{esc(example[(g, m)][:300])}</td></tr>"
                       for (g, m), n in failures.most_common(15))
        parts.append("<table>" + th("grader.report.col_times", "grader.report.col_check", "grader.report.col_example")
                     + rows + "</table>")
    else:
        parts.append(f"<p>{t('grader.report.none')}</p>")
    if not_attempted:
        counts = ", ".join(f"{nb} {n}" for nb, n in sorted(not_attempted.items()))
        parts.append(f"<p class='muted'>{t('grader.report.not_attempted', counts=counts)}</p>")
    parts.append(f"<h2>{t('grader.report.stopped')}</h2>")
    if stopped:
        parts.append(f"<p class='muted'>{t('grader.report.stopped_note')}</p><table>"
                     + th("grader.report.col_student", "grader.report.col_notebook", "grader.report.col_not_run")
                     + "".join(f"<tr><td>{esc(st)}</td><td>{esc(nb)}</td><td>{n}</td></tr>"
                               for (st, nb), n in sorted(stopped.items())) + "</table>")
    else:
        parts.append(f"<p>{t('grader.report.none')}</p>")
    if unproven:
        parts.append(f"<h2>{t('grader.report.unproven')}</h2><table>"
                     + th("grader.report.col_student", "grader.report.col_notebook", "grader.report.col_zero")
                     + "".join(f"<tr><td>{esc(st)}</td><td>{esc(nb)}</td><td>{n}</td></tr>"
                               for (st, nb), n in sorted(unproven.items())) + "</table>")

    attention = [r for r in records if r["status"] != "graded" or r.get("findings") or r.get("notes")]
    parts.append(f"<h2>{t('grader.report.human')}</h2>")
    if attention:
        rows = []
        for r in attention:
            detail = r.get("instructor_detail") or note_text(r.get("detail", ""), lang)
            what = [status_words(r["status"], lang) + ": " + detail[:600]] if r["status"] != "graded" else []
            what += [msg_in(lang, "grader.report.review", finding=note_text(f, lang)) for f in r.get("findings", [])]
            what += [note_text(n, lang) for n in r.get("notes", [])]
            who = r["student"] if r.get("attributed", True) else msg_in(lang, "grader.report.nobody")
            rows.append(f"<tr><td>{esc(who)}</td><td>{esc(r['notebook'])}</td>"
                        f"<td>{'<br>'.join(esc(w) for w in what)}</td></tr>")
        parts.append("<table>" + th("grader.report.col_student", "grader.report.col_notebook", "grader.report.col_what")
                     + "".join(rows) + "</table>")
    else:
        parts.append(f"<p>{t('grader.report.nothing')}</p>")

    parts += roster_report.late_section(late, summary.get("platform_late", {}), lang)
    parts += roster_report.exports_section(summary.get("exports", []), lang)
    parts.append(students_table(records, late, lang))
    parts.append(summary.get("similarity_html", ""))  # grader.similarity_page.section: autoescaped HTML
    timing = summary.get("timing")
    if timing:
        parts.append(f"<p class='muted'>{esc(note_text(timing, lang))}</p>")
    return page(msg_in(lang, "grader.report.title", day=day), "".join(parts), lang)


def write_csv(path: Path, day: str, notebooks: list[str], scores: dict[str, dict[str, tuple[float, float]]],
              review: dict[str, list[str]], penalties: dict[str, dict[str, float]] | None = None) -> None:
    """One row per student: points per notebook, the total, why to review (if so), and the late
    penalty with the total after it (points per notebook and ``total`` are before the penalty)."""
    penalties = penalties or {}
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["student", "assignment", *notebooks, "total", "max_total", "needs_review",
                         "late_penalty", "final_total"])
        for student in sorted(scores):
            row = scores[student]
            total = sum(row.get(nb, (0.0, 0.0))[0] for nb in notebooks)
            max_total = sum(row.get(nb, (0.0, 0.0))[1] for nb in notebooks)
            late = sum(penalties.get(student, {}).values())
            writer.writerow([student, day, *[f"{row.get(nb, (0.0, 0.0))[0]:g}" for nb in notebooks],
                             f"{total:g}", f"{max_total:g}", "; ".join(review.get(student, [])),
                             f"{late:g}", f"{max(0.0, total - late):g}"])
