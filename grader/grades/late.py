"""Late hand-ins: the course's late penalty and the assignments' due dates.

nbgrader records a hand-in time (``timestamp.txt`` beside the submitted notebooks; the
exchange writes it on *Submit*) and, when the assignment has a due date in the gradebook,
its ``AssignLatePenalties`` step (part of every grading job) asks a plugin for the penalty.
The course's plugin is :class:`CoursePenalty`: ``per_day`` of the notebook's score for each
day or part of a day late, at most ``max_fraction`` of it (``grader/nbgrader_config.py``).

Due dates come from ``c.CoursePenalty.due`` in that configuration (``{"day1": "2027-01-15
23:59 UTC"}``) or from ``python -m grader grade --due``; :func:`apply_due` writes the date
into the course gradebook, so the Formgrader and ``nbgrader export`` show the same date, and
the grading run hands that date to every job, which writes it into its own private copy of
the assignment's template (``gradebook.write_due``). The cached template itself never holds a
date, so two runs at once, or cluster workers with their own templates, cannot mix them up.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone, tzinfo
from enum import Enum
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from nbgrader.plugins import LateSubmissionPlugin
from traitlets import Dict, Float

from grader.grades import gradebook
from grader.grades.gradebook import COURSE_ID, COURSE_ROOT, GRADER_DIR
from ptcourse.messages import msg

DAY_S = 24 * 3600


class CoursePenalty(LateSubmissionPlugin):
    """``per_day`` of the score per started day late, at most ``max_fraction`` of it."""

    per_day = Float(0.1, help="fraction of the notebook's score lost per day (or part of a day) late").tag(config=True)
    max_fraction = Float(1.0, help="the most a late notebook can lose, as a fraction of its score").tag(config=True)
    due = Dict({}, help='due date per assignment, e.g. {"day1": "2027-01-15 23:59 UTC"}').tag(config=True)

    def late_submission_penalty(self, student_id: str, score: float, total_seconds_late: float) -> float | None:
        if total_seconds_late <= 0:
            return None
        return penalty(score, total_seconds_late, self.per_day, self.max_fraction)


def penalty(score: float, seconds_late: float, per_day: float, max_fraction: float) -> float:
    """The points a notebook scoring ``score`` loses when handed in ``seconds_late`` late."""
    if seconds_late <= 0:
        return 0.0
    days = math.ceil(seconds_late / DAY_S)
    return round(min(max_fraction, per_day * days) * float(score), 4)


def fraction(timestamp: str | None, due: str | None, rule: CoursePenalty) -> float | None:
    """The part of its score a hand-in at ``timestamp`` (a ``timestamp.txt``'s text) loses under ``rule`` for a due
    date ``due`` (ISO, UTC: aware, or naive as nbgrader stores it); None where either is missing or unreadable."""
    moment = handin_time(timestamp).moment
    if not due or moment is None:
        return None
    when = datetime.fromisoformat(due)
    when = when.astimezone(timezone.utc).replace(tzinfo=None) if when.tzinfo else when
    return penalty(1.0, (moment - when).total_seconds(), rule.per_day, rule.max_fraction)


def policy() -> CoursePenalty:
    """The penalty plugin as the course configuration sets it up."""
    from traitlets.config.loader import PyFileConfigLoader

    config = PyFileConfigLoader("nbgrader_config.py", path=str(GRADER_DIR)).load_config()
    return CoursePenalty(config=config)


EXAMPLE = "'2027-01-15 23:59 UTC' or '2027-01-15 23:59 Europe/Berlin'"
AMBIGUOUS = re.compile(r"\s*(\d{1,2})[/.](\d{1,2})[/.]\d{2,4}\b")


def _split_zone(text: str) -> tuple[str, tzinfo | None]:
    """``'2027-01-15 23:59 Europe/Berlin'`` → the rest and the named zone (None: no zone name at the end)."""
    parts = text.strip().rsplit(None, 1)
    if len(parts) == 2 and "/" in parts[1] or len(parts) == 2 and parts[1] in ("UTC", "GMT"):
        try:
            return parts[0], ZoneInfo(parts[1])
        except (ZoneInfoNotFoundError, ValueError):
            pass
    return text, None


def parse_due(text: str) -> datetime:
    """A due date as nbgrader stores it (naive UTC), from a date, a time and a time zone.

    The zone is required: ``UTC``, an offset (``+01:00``) or a name (``Europe/Berlin``). A date
    without a time (``2027-01-15 Europe/Berlin``) means the end of that day, 23:59:59, in that
    zone. A date like ``01/02/2027``, which reads as January or February, is refused."""
    from dateutil import parser

    rest, zone = _split_zone(text)
    day_month = AMBIGUOUS.match(rest)
    if day_month and int(day_month[1]) <= 12 and int(day_month[2]) <= 12 and day_month[1] != day_month[2]:
        raise ValueError(f"{text!r} could be read day-first or month-first: write it year first, like {EXAMPLE}")
    try:
        early = parser.parse(rest, default=datetime(2000, 1, 1, 0, 0, 0))
        late_ = parser.parse(rest, default=datetime(2000, 1, 1, 23, 59, 59))
    except (ValueError, OverflowError) as exc:
        raise ValueError(f"expected a date like {EXAMPLE}, got {text!r}") from exc
    timed = (early.hour, early.minute) == (late_.hour, late_.minute)
    moment = early if timed else late_  # a date alone: the end of that day
    if zone is not None and moment.tzinfo is not None:
        raise ValueError(f"{text!r} names two time zones; give one, like {EXAMPLE}")
    if zone is None and moment.tzinfo is None:
        hint = "" if timed else f" ('{rest.strip()} Europe/Berlin' means the end of that day in Berlin)"
        raise ValueError(f"{text!r} has no time zone: add one, like {EXAMPLE}{hint}")
    if zone is not None:
        _exists_once(moment, zone)
    aware = moment.replace(tzinfo=zone) if zone is not None else moment
    return aware.astimezone(timezone.utc).replace(tzinfo=None)


def _utc_text(moment: datetime) -> str:
    return f"{moment.astimezone(timezone.utc):%Y-%m-%d %H:%M} UTC"


def _exists_once(moment: datetime, zone: tzinfo) -> None:
    """Refuse a local time that a daylight-saving change skips (a gap) or repeats (a fold) in ``zone``,
    naming the two moments it could mean (PEP 495: ``fold=0`` is the earlier offset, ``fold=1`` the later)."""
    first, second = moment.replace(tzinfo=zone, fold=0), moment.replace(tzinfo=zone, fold=1)
    if first.utcoffset() == second.utcoffset():
        return
    local = f"{moment:%Y-%m-%d %H:%M}"
    one, two = sorted((first.astimezone(timezone.utc), second.astimezone(timezone.utc)))
    skipped = first.astimezone(timezone.utc).astimezone(zone).replace(tzinfo=None) != moment
    raise ValueError(msg("grader.due.gap" if skipped else "grader.due.fold", local=local, zone=str(zone),
                         first=_utc_text(one), second=_utc_text(two)))


def due_date(day: str, override: str | None = None) -> datetime | None:
    """The due date of ``day``: ``override`` (``--due``), else the configuration's, else none."""
    text = override or policy().due.get(day)
    return parse_due(text) if text else None


def apply_due(day: str, due: datetime | None, db_url: str, source: Path | None = None) -> tuple[datetime | None, datetime | None]:
    """Write ``due`` into the course gradebook (recording the assignment there if it is missing).

    With ``due=None`` the course gradebook keeps its date (one set in the Formgrader, say).
    Returns (the date in effect, the course gradebook's date before).
    """
    from nbgrader.api import Gradebook

    source = source or COURSE_ROOT / "solutions" / day
    path = Path(db_url[len("sqlite:///"):]) if db_url.startswith("sqlite:///") else None
    new = path is not None and not path.exists()  # made from the template: its date is a past run's
    gradebook.build_template(day, source, gradebook.CACHE, db_url=db_url)
    with Gradebook(db_url, COURSE_ID) as gb:
        assignment = gb.find_assignment(day)
        before = None if new else assignment.duedate
        if due is not None or new:
            assignment.duedate = due
            gb.db.commit()
        effective = assignment.duedate
    return effective, before


# -- hand-in times -------------------------------------------------------------------------------
FUTURE_GRACE = timedelta(minutes=10)  # the hub's clock and the grading machine's may differ a little


class TimeProblem(str, Enum):
    """Why a hand-in time cannot decide a late penalty (each student's alone: the class is graded)."""

    MISSING = "missing"  # no timestamp.txt, or an empty one: no penalty could be judged
    GARBLED = "garbled"  # not a date nbgrader can read
    FUTURE = "future"  # after the grading run started: a wrong clock, or an edited file


@dataclass(frozen=True)
class HandinTime:
    """A ``timestamp.txt``'s text and what it says: ``moment`` (naive UTC, as nbgrader stores it) or a problem."""

    text: str | None
    moment: datetime | None = None
    problem: TimeProblem | None = None


def handin_time(text: str | None, now: datetime | None = None) -> HandinTime:
    """Read a hand-in time the way nbgrader will (``nbgrader.utils.parse_utc``, which the gradebook
    and ``autograde`` call), so a time that would crash them, or one in the future, is caught first."""
    from nbgrader.utils import parse_utc

    if text is None or not text.strip():
        return HandinTime(text, None, TimeProblem.MISSING)
    try:
        moment = parse_utc(text.strip())
    except (ValueError, OverflowError, TypeError, LookupError):  # dateutil's ParserError is a ValueError
        return HandinTime(text, None, TimeProblem.GARBLED)
    now = now or datetime.now(timezone.utc).replace(tzinfo=None)
    if moment > now + FUTURE_GRACE:
        return HandinTime(text, moment, TimeProblem.FUTURE)
    return HandinTime(text, moment)


def shown(text: str | None, limit: int = 60) -> str:
    """A hand-in time's text as a report may quote it: one line, printable, at most ``limit`` characters."""
    flat = "".join(ch if ch.isprintable() else "?" for ch in (text or "").strip().replace("\n", " "))
    return flat if len(flat) <= limit else flat[:limit - 1] + "…"


# -- extra time ----------------------------------------------------------------------------------
UNIT_WORDS = ((7 * DAY_S, ("w", "week", "weeks", "周")), (DAY_S, ("d", "day", "days", "天", "日")),
              (3600, ("h", "hr", "hrs", "hour", "hours", "小时")), (60, ("m", "min", "mins", "minute", "minutes", "分钟")))
EXTRA_UNITS = {word: seconds for seconds, words in UNIT_WORDS for word in words}
EXTRA_PART = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([^\d\s.,]+)\s*,?")


def parse_extra(text: str) -> timedelta:
    """Extra time as written in an extensions file: ``2 days``, ``36h``, ``1 day 12 hours``, ``90 min``
    (``2天``, ``36小时`` too); a number without a unit, or a unit not listed, is refused."""
    rest, seconds = text.strip(), 0.0
    if not rest:
        raise ValueError(msg("grader.extensions.extra_empty"))
    while rest:
        part = EXTRA_PART.match(rest)
        unit = part[2].lower() if part else ""
        if part is None or unit not in EXTRA_UNITS:
            raise ValueError(msg("grader.extensions.extra_bad", text=text.strip()))
        seconds += float(part[1]) * EXTRA_UNITS[unit]
        rest = rest[part.end():]
    return timedelta(seconds=seconds)
