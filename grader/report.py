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

STATUS_WORDS = {
    "graded": "graded",
    "timeout": "stopped: time limit",
    "error": "could not be graded",
    "unreadable": "could not be read",
}

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


def scrub(text: str, private: list[str]) -> str:
    """``text`` without the grading machine's paths: each path under a private folder becomes its file name."""
    if not text:
        return text
    for root in sorted({p.rstrip("/") for p in private if p and p != "/"}, key=len, reverse=True):
        text = re.sub(re.escape(root) + r"(/[^\s'\"]*)?",
                      lambda m: (m.group(1) or "").rsplit("/", 1)[-1] or "…", text)
    text = re.sub(r"/tmp/ptg[-\w]*(/[^\s'\"]*)?", lambda m: (m.group(1) or "").rsplit("/", 1)[-1] or "…", text)
    return text


def esc(text) -> str:
    return html.escape(str(text))


def page(title: str, body: str) -> str:
    return (f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{esc(title)}</title>"
            f"<style>{STYLE}</style></head><body>{body}</body></html>\n")


def feedback_html(record: dict, exercises: dict[str, str]) -> str:
    """One student's feedback page for one notebook (see :func:`grader.engine` records)."""
    title = f"{record['notebook']} — {record['student']}"
    parts = [f"<h1>{esc(record['day'])} · {esc(record['notebook'])}</h1>",
             f"<p class='muted'>Feedback for <b>{esc(record['student'])}</b></p>",
             f"<p class='score'>{record['score']:g} / {record['max_score']:g} points</p>"]
    if record["status"] != "graded":
        parts.append(f"<div class='bad'><b>{esc(STATUS_WORDS.get(record['status'], record['status']))}:</b> "
                     f"{esc(record.get('detail', ''))}</div>")
    for note in record.get("notes", []):
        parts.append(f"<div class='note'>{esc(note)}</div>")
    if record.get("late_penalty"):
        parts.append(f"<div class='note'><b>Handed in late</b> ({esc(record.get('timestamp') or '')}): "
                     f"−{record['late_penalty']:g} points, so "
                     f"{max(0.0, record['score'] - record['late_penalty']):g} / {record['max_score']:g}.</div>")
    if record.get("findings"):
        items = "".join(f"<li>{esc(f)}</li>" for f in record["findings"])
        parts.append("<div class='note'><b>Flagged for review by your instructor</b> (your score is not "
                     f"changed by this):<ul>{items}</ul></div>")
    cells = record.get("cells", {})
    if cells:
        rows = []
        for grade_id, cell in cells.items():
            ok = cell["score"] >= cell["max"]
            mark = "<span class='pass'>✔ passed</span>" if ok else "<span class='fail'>✘ failed</span>"
            message = "" if ok else esc(cell.get("message") or "no message")
            rows.append(f"<tr><td>{esc(exercises.get(grade_id, grade_id))}</td><td><code>{esc(grade_id)}</code></td>"
                        f"<td>{cell['score']:g} / {cell['max']:g}</td><td>{mark}</td><td>{message}</td></tr>")
        parts.append("<h2>Checks</h2><table><tr><th>exercise</th><th>check</th><th>points</th><th></th>"
                     "<th>what was wrong</th></tr>" + "".join(rows) + "</table>")
        parts.append("<p class='muted'>Hidden checks run your code on fresh inputs; their code is not shown, "
                     "only what they found.</p>")
    return page(title, "".join(parts))


def normalise(message: str) -> str:
    """A failure message with its numbers blurred, so the same mistake groups together."""
    first = message.strip().splitlines()[0] if message.strip() else message
    return re.sub(r"-?\d+(\.\d+)?(e-?\d+)?", "#", first)[:160]


def _png(fig) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=96, bbox_inches="tight")
    return "<img alt='chart' src='data:image/png;base64," + base64.b64encode(buf.getvalue()).decode() + "'>"


def _charts(records: list[dict], exercise_order: list[str]) -> tuple[str, str]:
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    totals = defaultdict(float)
    for r in records:
        totals[r["student"]] += r["score"]
    fig, ax = plt.subplots(figsize=(7, 2.8))
    ax.hist(list(totals.values()) or [0], bins=min(20, max(5, len(totals))), color="#4c72b0")
    ax.set_xlabel("total points")
    ax.set_ylabel("students")
    ax.set_title("Score distribution")
    hist = _png(fig)
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
    ax.barh(ids[::-1], fractions[::-1], color=colors[::-1])
    ax.set_xlim(0, 100)
    ax.set_xlabel("% of points earned by the class")
    ax.set_title("Where the class struggled (per check)")
    ax.tick_params(axis="y", labelsize=7)
    per_cell = _png(fig)
    plt.close(fig)
    return hist, per_cell


def class_report_html(day: str, records: list[dict], exercise_order: list[str], summary: dict) -> str:
    """The instructor's page: distributions, common failures, what needs a human."""
    students = sorted({r["student"] for r in records})
    totals = defaultdict(float)
    max_total = summary.get("max_total", 0)
    for r in records:
        totals[r["student"]] += r["score"]
    parts = [f"<h1>{esc(day)}: class report</h1>",
             f"<p>{len(students)} students, {len(records)} notebooks graded. "]
    if totals:
        values = list(totals.values())
        parts.append(f"Mean {statistics.mean(values):.1f}, median {statistics.median(values):.1f} "
                     f"of {max_total:g} points.")
    parts.append("</p>")
    for warning in summary.get("warnings", []):
        parts.append(f"<div class='bad'>{esc(warning)}</div>")
    if records:
        hist, per_cell = _charts(records, exercise_order)
        parts += ["<h2>Scores</h2>", hist, "<h2>Per check</h2>", per_cell]

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
    parts.append("<h2>Most common mistakes</h2>")
    if failures:
        rows = "".join(f"<tr><td>{n}</td><td><code>{esc(g)}</code></td><td>{esc(example[(g, m)][:300])}</td></tr>"
                       for (g, m), n in failures.most_common(15))
        parts.append(f"<table><tr><th>times</th><th>check</th><th>message (one example)</th></tr>{rows}</table>")
    else:
        parts.append("<p>None.</p>")
    if not_attempted:
        parts.append("<p class='muted'>Not attempted (the exercise still raises NotImplementedError), in checks: "
                     + ", ".join(f"{esc(nb)} {n}" for nb, n in sorted(not_attempted.items())) + ".</p>")
    parts.append("<h2>Stopped by the grader</h2>")
    if stopped:
        parts.append("<p class='muted'>Time limit, memory limit or a kernel that died: not learning mistakes, so "
                     "they are kept out of the list above.</p><table><tr><th>student</th><th>notebook</th>"
                     "<th>checks not run</th></tr>" + "".join(
                         f"<tr><td>{esc(st)}</td><td>{esc(nb)}</td><td>{n}</td></tr>"
                         for (st, nb), n in sorted(stopped.items())) + "</table>")
    else:
        parts.append("<p>None.</p>")
    if unproven:
        parts.append("<h2>Checks that could not be proven</h2><table><tr><th>student</th><th>notebook</th>"
                     "<th>checks scored 0</th></tr>" + "".join(
                         f"<tr><td>{esc(st)}</td><td>{esc(nb)}</td><td>{n}</td></tr>"
                         for (st, nb), n in sorted(unproven.items())) + "</table>")

    attention = [r for r in records if r["status"] != "graded" or r.get("findings") or r.get("notes")]
    parts.append("<h2>Needs a human</h2>")
    if attention:
        rows = []
        for r in attention:
            what = ([STATUS_WORDS.get(r["status"], r["status"]) + ": "
                     + (r.get("instructor_detail") or r.get("detail", ""))[:600]] if r["status"] != "graded" else [])
            what += [f"review: {f}" for f in r.get("findings", [])] + list(r.get("notes", []))
            rows.append(f"<tr><td>{esc(r['student'])}</td><td>{esc(r['notebook'])}</td>"
                        f"<td>{'<br>'.join(esc(w) for w in what)}</td></tr>")
        parts.append("<table><tr><th>student</th><th>notebook</th><th>what</th></tr>" + "".join(rows) + "</table>")
    else:
        parts.append("<p>Nothing: every notebook ran and nothing was flagged.</p>")

    late = {student: sum(nbs.values()) for student, nbs in summary.get("penalties", {}).items()}
    if late:
        parts.append("<h2>Late hand-ins</h2><p>" + ", ".join(
            f"{esc(student)}: −{points:g} points" for student, points in sorted(late.items())) + "</p>")
    parts.append("<h2>Students</h2><table><tr><th>student</th><th>points</th><th>late penalty</th><th>feedback</th></tr>")
    for student in students:
        links = " ".join(
            f"<a href='{esc(r['feedback'])}'>{esc(r['notebook'])}</a>"
            for r in records if r["student"] == student and r.get("feedback")
        )
        penalty = f"−{late[student]:g}" if late.get(student) else ""
        parts.append(f"<tr><td>{esc(student)}</td><td>{totals[student]:g}</td><td>{penalty}</td><td>{links}</td></tr>")
    parts.append("</table>")
    timing = summary.get("timing")
    if timing:
        parts.append(f"<p class='muted'>{esc(timing)}</p>")
    return page(f"{day} class report", "".join(parts))


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
