"""nbgrader configuration of the course (loaded by ../nbgrader_config.py).

Layout: the source notebooks (with solutions and hidden tests) live in ``solutions/dayN/``;
``nbgrader generate_assignment dayN`` writes the student copies to ``dayN/`` at the course
root. Submissions, autograded copies and feedback go to the usual nbgrader folders, all of
them git-ignored.
"""

import os
import sys

c = get_config()  # noqa: F821 - provided by traitlets when nbgrader loads this file

_course = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if _course not in sys.path:  # plain `nbgrader autograde` finds the grader's modules too
    sys.path.insert(0, _course)
from grader import settings  # noqa: E402

COURSE_ROOT = str(settings.COURSE_ROOT)

c.CourseDirectory.root = COURSE_ROOT
c.CourseDirectory.course_id = settings.COURSE_ID
c.CourseDirectory.source_directory = "solutions"
c.CourseDirectory.release_directory = "."
c.CourseDirectory.db_url = "sqlite:///" + os.path.join(COURSE_ROOT, "grader", "gradebook.db")

# Every graded cell is kept far below this; training cells take a few seconds on one CPU.
c.ExecutePreprocessor.timeout = settings.CELL_TIMEOUT_S
c.Execute.timeout = settings.CELL_TIMEOUT_S

c.ClearSolutions.code_stub = {"python": "# YOUR CODE HERE\nraise NotImplementedError()"}
c.ClearSolutions.enforce_metadata = True

# A submission whose test cells were deleted gets them back from the gradebook before grading
# (nbgrader otherwise refuses the notebook); edited test cells are always restored.
c.OverwriteCells.add_missing_cells = True

# Late hand-ins (a timestamp.txt after the due date): the course's penalty, grader/grades/late.py.
# 10 % of the notebook's score per day or part of a day late, at most all of it. Due dates:
# here, or `python -m grader grade DAY --due "2027-01-15 23:59 UTC"`.
c.AssignLatePenalties.plugin_class = "grader.grades.late.CoursePenalty"
c.CoursePenalty.per_day = 0.1
c.CoursePenalty.max_fraction = 1.0
c.CoursePenalty.due = {}  # for example {"day1": "2027-01-15 23:59 UTC"}

# Validate (JupyterLab's button, `nbgrader validate`) repairs the notebook's structure as the
# grader does and names what it repaired (grader/intake/validate.py).
from grader.intake.validate import use_in_validator  # noqa: E402

use_in_validator()
