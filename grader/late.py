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
from datetime import datetime
from pathlib import Path

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


def parse_due(text: str) -> datetime:
    """``2027-01-15 23:59``, ``2027-01-15T23:59:00+01:00`` or ``... UTC`` as nbgrader reads it (UTC)."""
    from nbgrader.utils import parse_utc

    try:
        return parse_utc(text)
    except (ValueError, OverflowError) as exc:
        raise ValueError(f"expected a date like '2027-01-15 23:59 UTC', got {text!r}") from exc


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
