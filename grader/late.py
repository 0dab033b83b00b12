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
from datetime import datetime, timezone, tzinfo
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from nbgrader.plugins import LateSubmissionPlugin
from traitlets import Dict, Float

from grader import gradebook
from grader.gradebook import COURSE_ID, COURSE_ROOT, GRADER_DIR

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
    aware = moment.replace(tzinfo=zone) if zone is not None else moment
    return aware.astimezone(timezone.utc).replace(tzinfo=None)


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
