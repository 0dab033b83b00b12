"""The course home page (``HOME.ipynb``): its per-day tables of notebooks, times and points.

Each day's table lives in one markdown cell between ``<!-- table:dayN -->`` and
``<!-- /table -->``. The authors write the title and what the notebook teaches; the minutes
(tools/times.py: one stated rule, no hand-written times), the points and the totals come
from the notebooks. The opening cell says in plain words how long each day takes (between
``<!-- times:days -->`` and ``<!-- /times -->``; the rule behind the times is CONTRIBUTING's
"Honest times") and where to ask (between ``<!-- ask -->`` and ``<!-- /ask -->``, from
``[tool.ptcourse] ask-url`` in pyproject.toml, the one place an instructor sets it).
``make points`` rewrites them (``python -m tools.home --write``) and tests/test_home.py fails
when they are stale.
The notebook's metadata is the course kernel's (``tools/lab_setup.py``'s ``home_metadata``):
JupyterLab then opens the page without marking it modified.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

import nbformat
import tomllib

from ptcourse.messages import msg_in
from tools.lab_setup import home_metadata
from tools.notebooks import DAYS, ROOT, points, solution_notebooks
from tools.times import day_totals, duration, estimate

HOME = ROOT / "HOME.ipynb"
TABLE = re.compile(r"<!-- table:(?P<day>day\d) -->\n(?P<body>.*?)<!-- /table -->", re.S)
ROW = re.compile(
    r"^\| \[(?P<title>[^\]]+)\]\((?P<path>day\d/[\w.]+\.ipynb)\) \| (?P<what>.+?) \| (?P<minutes>\d+) min(?: \(\+\d+ optional\))? \|[^|]*\|$",
    re.M,
)
DAYS_BLOCK = re.compile(r"<!-- times:days -->\n.*?<!-- /times -->", re.S)
ASK_BLOCK = re.compile(r"<!-- ask -->\n.*?<!-- /ask -->", re.S)
HEADER = "| notebook | what you learn | time | points |\n|---|---|---:|---:|"
# A row as a translation writes it (tools/i18n.py): title, link and "what you learn"; the rest is regenerated.
LOOSE_ROW = re.compile(r"^\| \[(?P<title>[^\]]+)\]\((?P<path>day\d/[\w.]+\.ipynb)\) \| (?P<what>.+?) \|.*$", re.M)
# The words of the generated tables, per language (English: HEADER and times.duration).
WORDS = {
    "zh-CN": {
        "header": "| 笔记本 | 你将学到 | 时间 | 分数 |\n|---|---|---:|---:|",
        "minutes": "{m} 分钟", "optional": "（另有 {m} 分钟选读）", "total_optional": "（另有 {m} 分钟选读）",
        "in_all": "第 {n} 天合计", "hours": "{h} 小时 {m:02d} 分钟",
    },
}


@dataclass
class Row:
    """One notebook on the home page: title and what it teaches as the authors wrote them; minutes as last written by `make points`."""

    title: str
    path: str
    what: str
    minutes: int


def read_home() -> nbformat.NotebookNode:
    return nbformat.read(str(HOME), as_version=4)


def rows(source: str, loose: bool = False) -> list[Row]:
    """The rows written in a table; ``loose``: any minutes column (a translation's), read as 0."""
    if loose:
        return [Row(m["title"], m["path"], m["what"], 0) for m in LOOSE_ROW.finditer(source)]
    return [Row(m["title"], m["path"], m["what"], int(m["minutes"])) for m in ROW.finditer(source)]


def _minutes(minutes: int, lang: str, total: bool = False) -> str:
    if lang not in WORDS:
        return duration(minutes) if total else f"{minutes} min"
    hours, rest = divmod(minutes, 60)
    words = WORDS[lang]
    return words["hours"].format(h=hours, m=rest) if total and hours else words["minutes"].format(m=minutes)


def table(day: str, written: list[Row], lang: str = "en") -> str:
    """The day's table: the authors' rows in course order, estimated minutes and points from the
    notebooks, totals (optional reading shown apart, never added to the time). ``lang``: the
    headings and units of a translated home page (``WORDS``; tools/i18n.py)."""
    if lang != "en":
        return _table_in(day, written, lang)
    by_path = {r.path: r for r in written}
    lines, total_min, total_opt, total_pts = [HEADER], 0, 0, 0.0
    for nb in solution_notebooks(day):
        path = f"{day}/{nb.name}"
        if path not in by_path:
            raise ValueError(f"HOME.ipynb has no row for {path}: add '| [title]({path}) | what | 0 min | |' "
                             "and run 'make points'")
        row, pts, est = by_path[path], points(nb), estimate(nb)
        optional = f" (+{est.optional_minutes} optional)" if est.optional_words else ""
        lines.append(f"| [{row.title}]({path}) | {row.what} | {est.minutes} min{optional} | {pts:g} |")
        total_min += est.minutes
        total_opt += est.optional_minutes if est.optional_words else 0
        total_pts += pts
    optional = f" (+{total_opt} min optional)" if total_opt else ""
    lines.append(f"| **{day.replace('day', 'Day ')} in all** | | **{duration(total_min)}**{optional} "
                 f"| **{total_pts:g}** |")
    return "\n".join(lines) + "\n"


def _table_in(day: str, written: list[Row], lang: str) -> str:
    """``table`` with the words of ``lang``: the same rows, minutes, points and totals."""
    words, by_path = WORDS[lang], {r.path: r for r in written}
    lines, total_min, total_opt, total_pts = [words["header"]], 0, 0, 0.0
    for nb in solution_notebooks(day):
        path = f"{day}/{nb.name}"
        if path not in by_path:
            raise ValueError(f"the {lang} home page has no row for {path}")
        row, pts, est = by_path[path], points(nb), estimate(nb)
        optional = words["optional"].format(m=est.optional_minutes) if est.optional_words else ""
        lines.append(f"| [{row.title}]({path}) | {row.what} | {_minutes(est.minutes, lang)}{optional} | {pts:g} |")
        total_min += est.minutes
        total_opt += est.optional_minutes if est.optional_words else 0
        total_pts += pts
    optional = words["total_optional"].format(m=total_opt) if total_opt else ""
    label = words["in_all"].format(n=day.removeprefix("day"))
    lines.append(f"| **{label}** | | **{_minutes(total_min, lang, total=True)}**{optional} | **{total_pts:g}** |")
    return "\n".join(lines) + "\n"


def ask_url(root: Path = ROOT) -> str:
    """Where learners ask (``[tool.ptcourse] ask-url`` in pyproject.toml), or ``""``."""
    with open(root / "pyproject.toml", "rb") as f:
        return str(tomllib.load(f).get("tool", {}).get("ptcourse", {}).get("ask-url", "")).strip()


def days_sentence(lang: str = "en") -> str:
    """How long each day takes, in one plain sentence of ``lang`` (the rule: tools/times.py)."""
    times = [msg_in(lang, "home.day_time", n=day.removeprefix("day"), time=_minutes(minutes, lang, total=True))
             for day, (minutes, _) in day_totals().items()]
    return msg_in(lang, "home.days_joined").join(times) + msg_in(lang, "home.days_end")


def ask_sentence(lang: str = "en", url: str | None = None) -> str:
    """Where to ask, in ``lang``: the configured page, else the instructor."""
    url = ask_url() if url is None else url
    return msg_in(lang, "home.ask_url", url=url) if url else msg_in(lang, "home.ask_none")


def plain_words(source: str, lang: str = "en") -> str:
    """``source`` with the opening cell's generated sentences (times, where to ask) in ``lang``."""
    source = DAYS_BLOCK.sub(lambda m: f"<!-- times:days -->\n{days_sentence(lang)}\n<!-- /times -->", source)
    return ASK_BLOCK.sub(lambda m: f"<!-- ask -->\n{ask_sentence(lang)}\n<!-- /ask -->", source)


def rendered(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """``nb`` with every day's table and the opening cell's sentences regenerated, and the course
    kernel's metadata."""
    out = nbformat.from_dict(nb)
    out.metadata.update(home_metadata())
    for cell in out.cells:
        if cell.cell_type == "markdown":
            cell.source = plain_words(cell.source)
            cell.source = TABLE.sub(
                lambda m: f"<!-- table:{m['day']} -->\n{table(m['day'], rows(m['body']))}<!-- /table -->",
                cell.source,
            )
    return out


def tables(nb: nbformat.NotebookNode) -> dict[str, str]:
    """``{day: table source}`` as the page holds them."""
    return {m["day"]: m["body"] for c in nb.cells for m in TABLE.finditer(c.source)}


def write_home() -> None:
    nbformat.write(rendered(read_home()), str(HOME))


if __name__ == "__main__":
    if "--write" in sys.argv:
        write_home()
    for day, body in tables(read_home()).items():
        print(day, body, sep="\n")
    missing = [d for d in DAYS if d not in tables(read_home())]
    if missing:
        sys.exit(f"HOME.ipynb has no table for {missing}")
