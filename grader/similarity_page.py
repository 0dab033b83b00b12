"""The similarity report as HTML: its own page (matched lines side by side) and a section of the
class report. Jinja2 templates with autoescape: student code and names are text, never markup."""

from __future__ import annotations

from pathlib import Path

import jinja2

from grader import report
from grader.similarity import Answer, Report
from ptcourse.messages import msg_in, normalise_lang

TEMPLATES = Path(__file__).resolve().parent / "templates"
PAGE = "similarity.html"


def _env() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True,
                              undefined=jinja2.StrictUndefined)


def _helpers(lang: str) -> dict:
    def who(answer: Answer) -> str:
        return answer.student if answer.lang == "en" else f"{answer.student} ({answer.lang})"

    return {"t": lambda key, **values: msg_in(lang, key, **values), "who": who, "lang": normalise_lang(lang),
            "exercise_name": lambda label: report.exercise_name(label, lang)}


def page(result: Report, lang: str = "en") -> str:
    """The whole page: the verdict note, the method, and each pair side by side."""
    return _env().get_template(PAGE).render(report=result, style=report.STYLE, **_helpers(lang))


def section(result: Report, lang: str = "en", href: str = PAGE) -> str:
    """The class report's section: the note, and one line per pair with a link to the page."""
    pairs = [(ex, pair) for ex in result.exercises for pair in ex.pairs]
    exercises = sum(1 for ex in result.exercises if ex.pairs)
    return _env().get_template("similarity_section.html").render(pairs=pairs, exercises=exercises, href=href,
                                                                 **_helpers(lang))


def write(result: Report, folder: Path, lang: str = "en") -> Path:
    path = Path(folder) / PAGE
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(page(result, lang))
    return path
