"""Honest times: every notebook's estimated minutes, computed by one stated rule.

The rule (also stated in CONTRIBUTING.md and, written by ``make points``, on HOME.ipynb):

- **reading**: the words of the markdown cells at 150 words per minute. A markdown heading
  whose text contains "(optional)" starts an optional section that runs to the next heading of
  the same or a higher level; its words are not counted in the time, they are reported apart.
- **exercises**: minutes by the size of the model solution, counted in lines of code between
  ``### BEGIN SOLUTION`` and ``### END SOLUTION`` (blank and comment-only lines left out):
  see ``SIZES``.
- **given code**: the lines of code the learner reads but does not write (code cells outside the
  solution regions, the graded test cells and the optional sections), at
  ``GIVEN_LINES_PER_MINUTE``; blank lines left out.
- **one failed check per exercise**: ``FAILED_CHECK_MINUTES`` for each graded exercise: reading
  the ✘ message, fixing the answer and running its cells again (a learner rarely passes first time).
- **running**: the day's per-notebook run-time budget (Day 1 20 s, Day 2 60 s, Day 3 90 s on one
  thread), twice (a first run, then the checks run again after fixes), rounded up to whole
  minutes; ``make bench`` keeps the notebooks inside the budget.

A notebook's time is the sum, rounded up to the next 5 minutes; a day's time is the sum of its
notebooks. ``python -m tools.times`` prints the table and the per-day totals;
``make points`` writes the minutes into HOME.ipynb (tools/home.py) and
tests/test_home.py fails when they are stale.
"""

from __future__ import annotations

import math
import re
import sys
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import nbformat

from tools.notebooks import DAYS, exercises, nb_key, read, solution_notebooks

WORDS_PER_MINUTE = 150
GIVEN_LINES_PER_MINUTE = 40  # given code is read, not skimmed: about one line every 1.5 s
RUNS = 2  # the notebook run and the checks' re-runs after a fix
FAILED_CHECK_MINUTES = 2  # each exercise's one failed-check round: read the message, fix, run again
# (most solution lines, name, minutes): the first size whose limit the solution fits.
SIZES = ((3, "small", 4), (9, "medium", 8), (19, "large", 12), (math.inf, "very large", 20))
RUN_SECONDS = {"day1": 20, "day2": 60, "day3": 90}  # the per-notebook budgets (tools/bench.py)
ROUND_TO = 5
DAY_TARGET_MIN = 6 * 60  # issue 13: each day's realistic total at or under 6 hours

RULE = (
    f"Times are estimates by one rule: reading at {WORDS_PER_MINUTE} words a minute, plus each "
    "exercise by the size of its model solution ("
    + ", ".join(
        f"{name} {'≤ ' + str(limit) if limit != math.inf else '≥ ' + str(SIZES[i - 1][0] + 1)} lines: {minutes} min"
        for i, (limit, name, minutes) in enumerate(SIZES)
    )
    + f"), plus one failed check per exercise ({FAILED_CHECK_MINUTES} min: read the message, fix, run again), "
    f"plus the given code at {GIVEN_LINES_PER_MINUTE} lines a minute, plus the notebook's run time "
    f"twice (Day 1 20 s, Day 2 60 s, Day 3 90 s; a first run and the checks' re-runs), rounded up to minutes, "
    f"rounded up to {ROUND_TO} minutes. Sections marked \"(optional)\" are not counted; "
    "their reading time is shown as \"+N optional\"."
)

HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
FENCE = re.compile(r"^\s*(```|~~~)")
SOLUTION = re.compile(r"^[ \t]*### BEGIN SOLUTION[ \t]*\n(.*?)^[ \t]*### END SOLUTION", re.M | re.S)
REGION = re.compile(r"^[ \t]*### BEGIN (SOLUTION|HIDDEN TESTS)[ \t]*\n.*?^[ \t]*### END \1[^\n]*\n?", re.M | re.S)
WORD = re.compile(r"\w")


@dataclass
class ExerciseTime:
    """One exercise: its solution's size and the minutes the rule gives it."""

    grade_id: str
    lines: int
    size: str
    minutes: int


@dataclass
class Estimate:
    """One notebook's estimated time, term by term."""

    key: str
    words: int
    optional_words: int
    run_minutes: int
    given_lines: int = 0
    exercises: list[ExerciseTime] = field(default_factory=list)

    @property
    def reading_minutes(self) -> float:
        return self.words / WORDS_PER_MINUTE

    @property
    def given_minutes(self) -> float:
        return self.given_lines / GIVEN_LINES_PER_MINUTE

    @property
    def exercise_minutes(self) -> int:
        return sum(e.minutes for e in self.exercises)

    @property
    def failed_check_minutes(self) -> int:
        """One failed-check round per graded exercise."""
        return FAILED_CHECK_MINUTES * len(self.exercises)

    @property
    def minutes(self) -> int:
        """The realistic time: reading + given code + exercises + one failed check each + running,
        rounded up to ``ROUND_TO``."""
        raw = (self.reading_minutes + self.given_minutes + self.exercise_minutes + self.failed_check_minutes
               + self.run_minutes)
        return ROUND_TO * math.ceil(raw / ROUND_TO - 1e-9)

    @property
    def optional_minutes(self) -> int:
        """Reading time of the optional sections, rounded up to whole minutes (0 if none)."""
        return math.ceil(self.optional_words / WORDS_PER_MINUTE)


def count_words(text: str) -> int:
    """Whitespace-separated tokens holding a letter or digit; link targets and HTML comments left out."""
    text = re.sub(r"<!--.*?-->", " ", text, flags=re.S)
    text = re.sub(r"\]\([^)]*\)", "] ", text)  # [words](url): keep the words
    text = re.sub(r"<[^>\n]+>", " ", text)  # HTML tags
    return sum(1 for token in text.split() if WORD.search(token))


def _optional_level(line: str, level: int | None) -> int | None:
    """The level of the optional section open after ``line`` (a markdown line), given the one before."""
    heading = HEADING.match(line)
    if not heading:
        return level
    if level is not None and len(heading[1]) <= level:
        level = None
    if level is None and "(optional)" in heading[2].lower():
        level = len(heading[1])
    return level


def given_lines(nb: nbformat.NotebookNode) -> int:
    """Non-blank lines of code the learner reads but does not write: code cells outside the solution
    and hidden-test regions, graded test cells and optional sections left out."""
    count, level = 0, None
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            in_fence = False
            for line in cell.source.splitlines():
                if FENCE.match(line):
                    in_fence = not in_fence
                elif not in_fence:
                    level = _optional_level(line, level)
            continue
        meta = cell.get("metadata", {}).get("nbgrader", {})
        if cell.cell_type != "code" or level is not None or (meta.get("grade") and not meta.get("solution")):
            continue
        count += sum(1 for line in REGION.sub("", cell.source).splitlines() if line.strip())
    return count


def markdown_words(nb: nbformat.NotebookNode) -> tuple[int, int]:
    """``(counted, optional)`` words of the notebook's markdown cells."""
    counted = optional = 0
    optional_level: int | None = None  # the level of the heading that opened an optional section
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            continue
        in_fence = False
        for line in cell.source.splitlines():
            if FENCE.match(line):
                in_fence = not in_fence
            heading = None if in_fence else HEADING.match(line)
            if heading:
                level = len(heading[1])
                if optional_level is not None and level <= optional_level:
                    optional_level = None
                if optional_level is None and "(optional)" in heading[2].lower():
                    optional_level = level
            words = count_words(line)
            if optional_level is None:
                counted += words
            else:
                optional += words
    return counted, optional


def solution_lines(source: str) -> int:
    """Lines of code in the solution regions (the whole cell if it has none), blank and comment lines left out."""
    regions = SOLUTION.findall(source) or [source]
    return sum(
        1 for block in regions for line in block.splitlines()
        if line.strip() and not line.strip().startswith("#")
    )


def size_of(lines: int) -> tuple[str, int]:
    for limit, name, minutes in SIZES:
        if lines <= limit:
            return name, minutes
    raise AssertionError("unreachable: the last size has no limit")


def estimate(path: Path) -> Estimate:
    """The estimate of one source notebook (``solutions/dayN/NN_topic.ipynb``)."""
    return _estimate(Path(path), Path(path).stat().st_mtime_ns)


@lru_cache(maxsize=64)
def _estimate(path: Path, mtime_ns: int) -> Estimate:
    """Cached per file version: the home page, the report and the tests ask for the same notebooks."""
    nb = read(path)
    words, optional = markdown_words(nb)
    day = path.parent.name
    est = Estimate(nb_key(path), words, optional, math.ceil(RUNS * RUN_SECONDS.get(day, 90) / 60), given_lines(nb))
    for ex in exercises(nb):
        if ex.points == 0:
            continue
        lines = solution_lines(ex.source)
        name, minutes = size_of(lines)
        est.exercises.append(ExerciseTime(ex.grade_id, lines, name, minutes))
    return est


def estimates(day: str | None = None) -> list[Estimate]:
    return [estimate(p) for p in solution_notebooks(day)]


def duration(minutes: int) -> str:
    hours, rest = divmod(minutes, 60)
    return f"{hours} h {rest:02d} min" if hours else f"{rest} min"


def day_totals() -> dict[str, tuple[int, int]]:
    """``{day: (minutes, optional minutes)}`` for the days that have notebooks."""
    out = {}
    for day in DAYS:
        found = estimates(day)
        if found:
            out[day] = (sum(e.minutes for e in found), sum(e.optional_minutes for e in found))
    return out


def over_target() -> dict[str, int]:
    """Days whose realistic total is over the 6-hour target, with their minutes."""
    return {day: m for day, (m, _) in day_totals().items() if m > DAY_TARGET_MIN}


def report() -> str:
    """The table ``python -m tools.times`` prints."""
    lines = [f"{'notebook':<28} {'words':>5} {'read':>4} {'code':>4}  {'exercises S/M/L/XL':<18} {'ex':>3} "
             f"{'run':>3} {'minutes':>7}  optional"]
    for day in DAYS:
        found = estimates(day)
        if not found:
            continue
        for e in found:
            counts = "/".join(str(sum(x.size == name for x in e.exercises)) for _, name, _ in SIZES)
            optional = f"+{e.optional_minutes} ({e.optional_words} words)" if e.optional_words else ""
            lines.append(
                f"{e.key:<28} {e.words:>5} {e.reading_minutes:>4.0f} {e.given_minutes:>4.0f}  "
                f"{f'{len(e.exercises)}: {counts}':<18} "
                f"{e.exercise_minutes:>3} {e.failed_check_minutes:>3} {e.run_minutes:>3} {e.minutes:>7}  {optional}"
            )
        total = sum(e.minutes for e in found)
        opt = sum(e.optional_minutes for e in found)
        flag = "  OVER the 6 h target" if total > DAY_TARGET_MIN else ""
        extra = f" (+{opt} min optional reading)" if opt else ""
        lines.append(f"{day} in all: {duration(total)}{extra}{flag}")
        lines.append("")
    lines.append(RULE)
    return "\n".join(lines)


if __name__ == "__main__":
    print(report())
    sys.exit(0)
