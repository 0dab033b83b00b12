"""The similarity report as HTML: its own page (matched lines side by side) and a section of the
class report. Every text comes from the message catalogue here, in Python (so ``make quick``
checks its ids and placeholders); the Jinja2 templates only lay it out, with autoescape: student
code and names are text, never markup."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from grader.results import report
from grader.results.similarity import Answer, Pair, Report
from ptcourse.messages import msg_in, normalise_lang

PAGE = "similarity.html"
SECTION_PAIRS = 20  # the class report lists the closest pairs; the page has them all


@dataclass(frozen=True)
class Side:
    """One answer of a pair: who wrote it, and its lines as (number, text, matched)."""

    who: str
    lines: tuple[tuple[int, str, bool], ...]


@dataclass(frozen=True)
class PairView:
    text: str  # "carl and cora: 100% of carl's answer is also in cora's, ..."
    notebook: str
    exercise: str
    left: Side
    right: Side


def _who(answer: Answer) -> str:
    return answer.student if answer.lang == "en" else f"{answer.student} ({answer.lang})"


def _side(answer: Answer, hits: frozenset[int]) -> Side:
    lines = answer.code.rstrip().split("\n")
    return Side(_who(answer), tuple((n, line, n in hits) for n, line in enumerate(lines, start=1)))


def _pair(pair: Pair, lang: str, exercise: str) -> PairView:
    text = msg_in(lang, "grader.similarity.pair", a=_who(pair.a), b=_who(pair.b), share_a=pair.share_a,
                  share_b=pair.share_b)
    return PairView(text, pair.a.notebook, exercise, _side(pair.a, pair.lines_a), _side(pair.b, pair.lines_b))


def _exercises(result: Report, lang: str) -> list[dict]:
    """Each exercise with pairs: its heading, how many answers were compared, its pairs."""
    out = []
    for ex in result.exercises:
        if ex.pairs:
            name = report.exercise_name(ex.label, lang)
            out.append({"heading": f"{ex.notebook} · {name}",
                        "compared": msg_in(lang, "grader.similarity.compared", compared=ex.compared),
                        "pairs": [_pair(p, lang, name) for p in ex.pairs]})
    return out


def page(result: Report, lang: str = "en") -> str:
    """The whole page: the verdict note, the method, and each pair side by side."""
    text = {"title": msg_in(lang, "grader.similarity.title", day=result.day),
            "verdict": msg_in(lang, "grader.similarity.verdict"),
            "method": msg_in(lang, "grader.similarity.method", threshold=result.threshold),
            "matched": msg_in(lang, "grader.similarity.matched"),
            "nothing": msg_in(lang, "grader.similarity.nothing")}
    return report.render(PAGE, text=text, exercises=_exercises(result, lang), title=text["title"],
                         lang=normalise_lang(lang))


def section(result: Report, lang: str = "en", href: str = PAGE) -> str:
    """The class report's section: the note, and one line per pair with a link to the page."""
    exercises = _exercises(result, lang)
    pairs = [p for ex in exercises for p in ex["pairs"]]
    text = {"section": msg_in(lang, "grader.similarity.section"),
            "verdict": msg_in(lang, "grader.similarity.verdict"),
            "summary": msg_in(lang, "grader.similarity.summary", pairs=len(pairs), exercises=len(exercises)),
            "link": msg_in(lang, "grader.similarity.link"),
            "nothing": msg_in(lang, "grader.similarity.nothing"),
            "col_notebook": msg_in(lang, "grader.report.col_notebook"),
            "col_exercise": msg_in(lang, "grader.page.col_exercise"),
            "col_pair": msg_in(lang, "grader.similarity.col_pair")}
    return report.render("similarity_section.html", text=text, pairs=pairs[:SECTION_PAIRS], href=href)


def write(result: Report, folder: Path, lang: str = "en") -> Path:
    path = Path(folder) / PAGE
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(page(result, lang))
    return path
