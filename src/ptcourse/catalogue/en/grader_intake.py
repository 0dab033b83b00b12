"""Intake for the instructor and the learner: class lists and extension files as teachers save them,
hand-in times, extensions and due dates (grader/lms/text_files.py, grader/grades/late.py, grader/intake/extensions.py,
grader/intake/class_intake.py, grader/results/roster_report.py)."""

MESSAGES = {
    # a table a teacher saved (grader/lms/text_files.py)
    "grader.textfile.workbook": (
        "{file} is a spreadsheet workbook (Excel or LibreOffice), not a CSV file: open it, save it as "
        "'CSV UTF-8 (comma delimited)' and give that file."
    ),
    "grader.textfile.bad_utf16": (
        "{file} starts like UTF-16 text (Excel's 'Unicode text') but line {line} is not UTF-16: save it "
        "again as 'CSV UTF-8 (comma delimited)' and give that file."
    ),
    "grader.textfile.unknown": (
        "{file} is neither UTF-8, UTF-16, Windows-1252 nor GBK text: line {line} holds the byte {byte}, "
        "which none of them reads there. Open it in Excel or LibreOffice, save it as 'CSV UTF-8 (comma delimited)' and "
        "give that file."
    ),
    "grader.textfile.unreadable": "cannot read {file}: {reason}.",
    "grader.textfile.too_big": (
        "{file} is bigger than {limit} MB, too big for a class list: give the CSV file the platform exported."
    ),
    "grader.textfile.binary": (
        "{file} holds a NUL byte on line {line}, so it is not a text table: save it as "
        "'CSV UTF-8 (comma delimited)' and give that file."
    ),
    "grader.textfile.csv_error": (
        "{file}, line {line}: this is not CSV the grader can read ({error}). Open it in Excel or LibreOffice, "
        "save it as 'CSV UTF-8 (comma delimited)' and give that file."
    ),
    "grader.textfile.read_as": "{file} was read as {encoding}.",
    # due dates (grader/grades/late.py)
    "grader.due.gap": (
        "{local} does not exist in {zone}: the clocks jump over it when daylight saving time begins. It "
        "could mean {first} or {second}; give the one you mean in UTC, or a time outside the jump."
    ),
    "grader.due.fold": (
        "{local} happens twice in {zone}, when daylight saving time ends: first at {first}, then at "
        "{second}. Give the one you mean in UTC, or a time outside the repeated hour."
    ),
    # the extensions file (grader/intake/extensions.py)
    "grader.extensions.extra_empty": "no extra time is given",
    "grader.extensions.extra_bad": (
        "'{text}' is not an amount of time: write a number with its unit, like '2 days', '36 hours' or '90 min'"
    ),
    "grader.extensions.columns": (
        "the extensions file {file} needs a 'student' column and a 'due' column (the new due date) or an "
        "'extra' column (extra time, like '2 days'); its first line has: {found}"
    ),
    "grader.extensions.both": "both a new due date and extra time are given: keep one of them",
    "grader.extensions.neither": "neither a new due date nor extra time is given",
    "grader.extensions.no_class_due": (
        "extra time needs the assignment's due date, and it has none: give a new due date instead"
    ),
    "grader.extensions.twice": "{count} rows of the extensions file name this student (lines {lines}): none was used",
    "grader.extensions.several": (
        "'{name}' fits several graded students ({students}): write the student's id as grades.csv has it"
    ),
    # each student's intake (grader/intake/class_intake.py): the class report, grades.csv and the command line
    "grader.intake.time_missing": "no hand-in time (no timestamp.txt): no late penalty could be judged",
    "grader.intake.time_garbled": (
        "the hand-in time '{text}' (timestamp.txt) is not a date: graded without a late penalty; find out "
        "when it was handed in"
    ),
    "grader.intake.time_future": (
        "the hand-in time '{text}' (timestamp.txt) is in the future (grading started {now}): graded without "
        "a late penalty; find out when it was handed in"
    ),
    "grader.intake.extension": "extension: due {due} instead of {class_due} ({file}, line {line})",
    "grader.intake.extension_bad": (
        "extension not used: {file}, line {line}: {why}. Graded against the assignment's due date; correct "
        "the row and grade again"
    ),
    "grader.intake.extension_nobody": (
        "{file}, line {line}: '{name}' is none of the graded students, so this extension was given to nobody"
    ),
    "grader.intake.no_due": "none",
    # for the learner (feedback pages), in the notebook's language
    "grader.intake.learner_time_garbled": (
        "Your hand-in time could not be read, so no late penalty was applied; your instructor will check "
        "when you handed in."
    ),
    "grader.intake.learner_time_future": (
        "Your hand-in time is later than the time of grading, so no late penalty was applied; your "
        "instructor will check when you handed in."
    ),
    "grader.intake.learner_extension": "You have an extension: your work was due {due}.",
    # the class report's section (grader/results/roster_report.py)
    "grader.report.intake": "Hand-in times and extensions",
    "grader.report.intake_human": (
        "{count} student(s) need a human: a hand-in time or an extension could not be used. The rest of "
        "the class was graded."
    ),
    "grader.report.stale": (
        "{count} notebook(s) graded by an earlier run into this gradebook are not in these submissions (taken out, "
        "or no longer readable): {which}. Their earlier grades are still in grades.csv, the report and the exports. "
        "If they should not count, grade into a new --out and --gradebook."
    ),
    "grader.report.roster_read_as": "The class list {file} was read as {encoding}.",
    "grader.report.anonymous": (
        "{count} graded hand-in(s) are known by an anonymous id only (the platform's anonymous grading), so no "
        "roster row can be told to have no hand-in: none was written as 0 or listed as missing. Enter these grades "
        "once the platform shows who is who."
    ),
    "grader.report.scaled": (
        "The assignment's maximum in {roster} is {platform} points, the course's {course}: the grades in {file} are "
        "scaled to it (points × {platform}/{course}, to 2 decimals), so the platform keeps every one. grades.csv "
        "keeps the course's points."
    ),
    # Gradescope (grader/run/gradescope.py): what a learner sees before the instructor publishes
    "grader.gradescope.visible_total": (
        "{day}: {score:g} / {max_score:g} points from the checks shown now. More checks are graded; they "
        "and their points are shown when your instructor publishes the grades."
    ),
    "grader.gradescope.visible_points": "{score:g} / {max_score:g} points from the checks shown now",
}
