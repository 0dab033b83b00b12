"""What the grader's pages say around the checks: feedback pages, the class report, job outcomes.

Feedback pages are written in the student's notebook's language, the class report in the
instructor's (``python -m grader grade --lang``). Status codes (``graded``, ``timeout``, ...)
steer the grader; these are only their words.
"""

MESSAGES = {
    # a notebook's outcome, by status code
    "grader.status.graded": "graded",
    "grader.status.timeout": "stopped: time limit",
    "grader.status.error": "could not be graded",
    "grader.status.unreadable": "could not be read",
    "grader.status.unattributed": "not graded: no student could be told from it",
    "grader.status.refused": "refused by a grading worker (not graded, not recorded)",
    "grader.status.flagged": "flagged",
    "grader.cell.stopped": "{status}: {detail}",
    "grader.cell.not_done": (
        "NotImplementedError: not done yet (the exercise cell still raises NotImplementedError)"
    ),
    "grader.cell.raised_bare": "The check stopped with {error}, which gives no reason of its own.",
    "grader.cell.lost": (
        "This check scored {score:g} of {max_score:g} points without an error of its own; ask your instructor "
        "to look at it."
    ),
    "grader.cell.warned": (
        "{check}: passed. Your code printed a warning there, which costs no points: {warning}"
    ),
    "grader.kernel_death.memory": (
        "The kernel stopped during grading (memory limit reached): the checks after that point were not run."
    ),
    "grader.kernel_death.stuck": (
        "The kernel stopped during grading (a cell ignored the time limit's interrupt): the checks after "
        "that point were not run."
    ),
    "grader.kernel_death.tasks": (
        "The kernel stopped during grading (too many processes at once): the checks after that point "
        "were not run."
    ),
    "grader.kernel_death.disk": (
        "The kernel stopped during grading (disk limit reached): the checks after that point were not run."
    ),
    "grader.kernel_death.other": (
        "The kernel stopped during grading (crash or exit): the checks after that point were not run."
    ),
    "grader.job.nbgrader_failed": "nbgrader could not grade this notebook.",
    "grader.job.unreadable_result": "The graded notebook could not be read back.",
    "grader.lost.note": (
        "A process of the grading machine itself stopped while this notebook was being graded, on each of "
        "{count} tries. This is the machine's fault and is not counted against you: your instructor has been "
        "told and will grade it again."
    ),
    "grader.report.retried": (
        "{who}: graded again in a fresh process; earlier tries lost: {count} ({why}). A grading process "
        "died, not the learner's code; the grade stands."
    ),
    "grader.report.lost": (
        "{who}: could not be graded: a grading process died on each of its {count} tries (last: {why}), not "
        "the learner's code. Grade it again: --regrade --student {student}."
    ),
    # the feedback page
    "grader.page.feedback_title": "{notebook} — {student}",
    "grader.page.feedback_for": "Feedback for {student}",
    "grader.page.points": "{score:g} / {max_score:g} points",
    "grader.page.manual": "Your instructor graded these checks by hand: {checks}. The points shown are theirs.",
    "grader.page.manual_check": "Graded by hand by your instructor: {score:g} / {max:g}.",
    "grader.page.late": "Handed in late ({timestamp}): −{penalty:g} points, so {final:g} / {max_score:g}.",
    "grader.page.flagged": "Flagged for review by your instructor (your score is not changed by this):",
    "grader.page.checks": "Checks",
    "grader.page.col_exercise": "exercise",
    "grader.page.col_check": "check",
    "grader.page.col_points": "points",
    "grader.page.col_result": "result",
    "grader.page.col_wrong": "what was wrong",
    "grader.page.exercise": "Exercise {number}",
    "grader.page.passed": "✔ passed",
    "grader.page.failed": "✘ failed",
    "grader.page.hidden_note": (
        "Hidden checks run your code on fresh inputs; their code is not shown, only what they found."
    ),
    # the class report
    "grader.report.title": "{day}: class report",
    "grader.report.counts": "{students} students, {notebooks} notebooks graded.",
    "grader.report.mean": "Final scores (after late penalties): mean {mean:.1f}, median {median:.1f} of {max_total:g} points.",
    "grader.report.scores": "Scores",
    "grader.report.per_check": "Per check",
    "grader.report.chart_total": "total points",
    "grader.report.chart_students": "students",
    "grader.report.chart_distribution": "Score distribution",
    "grader.report.chart_earned": "% of points earned by the class",
    "grader.report.chart_struggled": "Where the class struggled (per check)",
    "grader.report.chart_distribution_alt": "Histogram of the total scores of {students} students, from {low:g} to {high:g} points.",
    "grader.report.chart_struggled_alt": "Bar chart of the share of points the class earned on each of {checks} checks; the lowest is {lowest}, at {percent:.0f} %.",
    "grader.report.common": "Most common mistakes",
    "grader.report.col_times": "times",
    "grader.report.col_check": "check",
    "grader.report.col_example": "message (one example)",
    "grader.report.none": "None.",
    "grader.report.not_attempted": (
        "Not attempted (the exercise still raises NotImplementedError), in checks: {counts}."
    ),
    "grader.report.stopped": "Stopped by the grader",
    "grader.report.stopped_note": (
        "Time limit, memory limit or a kernel that died: not learning mistakes, so they are kept out of "
        "the list above."
    ),
    "grader.report.col_student": "student",
    "grader.report.col_notebook": "notebook",
    "grader.report.col_not_run": "checks not run",
    "grader.report.unproven": "Checks that could not be proven",
    "grader.report.col_zero": "checks scored 0",
    "grader.report.human": "Needs a human",
    "grader.report.col_what": "what",
    "grader.report.review": "review: {finding}",
    "grader.report.nothing": "Nothing: every notebook ran and nothing was flagged.",
    "grader.report.late": "Late hand-ins",
    "grader.report.late_one": "{student}: −{points:g} points",
    "grader.report.students": "Students",
    "grader.report.col_points": "points",
    "grader.report.col_late": "late penalty",
    "grader.report.col_final": "final score",
    "grader.report.nobody": "(no student: needs a human)",
    "grader.report.platform_late": (
        "{platform} marked these hand-ins LATE: {students}. For your information only: the penalty above "
        "follows the hand-in time nbgrader recorded, where there is one."
    ),
    "grader.report.export": "{kind} grade file: {file}",
    "grader.report.unmatched": (
        "{count} graded student(s) match no single roster row: they are not in the import file, but listed "
        "below and in {file}. Enter their grades by hand."
    ),
    "grader.report.unmatched_not_on_roster": "not on the roster",
    "grader.report.unmatched_ambiguous": "several roster rows fit (same name?)",
    "grader.report.unmatched_other_name": (
        "the roster row with this participant id names someone else (a team's folder whose group was not recognised?)"
    ),
    "grader.report.unmatched_shared_row": "another graded student matches the same roster row",
    "grader.report.unmatched_no_user_field": (
        "known only by Moodle's participant id; pass the assignment's grading worksheet as --lms-roster"
    ),
    "grader.report.missing": "On the roster with no hand-in ({count}, {how}):",
    "grader.report.missing_blank": "left empty in the import file",
    "grader.report.missing_zero": "exported as 0 (--missing-as-zero)",
    "grader.report.no_roster": "No roster was given for this platform: the file uses the grader's ids.",
    "grader.report.roster_all": "Every graded student matched one roster row, and everyone on the roster handed in.",
    "grader.report.col_feedback": "feedback",
    "grader.report.old_record": (
        "{path}: a result file this grader cannot read ({why}), left out of this report; "
        "grade with --regrade to grade its notebook again."
    ),
    "grader.report.timing": (
        "Per notebook: {wall:.1f} s in all, of which {cells:.1f} s running its cells and {overhead:.1f} s "
        "overhead (sandbox, kernel start, nbgrader)."
    ),
    # submissions (grader/intake/submissions.py)
    # platform downloads (grader/lms/platforms.py, grader/intake/submissions.py)
    "grader.intake.unattributed": (
        "'{file}' does not say which student handed it in (its name follows neither Canvas's nor Moodle's "
        "download naming), so it was not graded. Grade it by hand, or put it under the student's name."
    ),
    "grader.intake.not_notebook": "'{file}' is not a notebook (.ipynb), so it was not graded.",
    "grader.intake.newest": (
        "The newest upload, '{file}', was graded; older uploads of the same file were not: {older}."
    ),
    "grader.file.unreadable": "the file could not be read ({reason})",
    "grader.file.not_text": "the file is not text (is it really a notebook?)",
    "grader.file.bad_json": (
        "the file is not valid notebook JSON (line {line}, column {column}: {error}); it was probably edited "
        "outside Jupyter or cut short"
    ),
    "grader.file.not_notebook": "the file is JSON but not a Jupyter notebook (no cells)",
    "grader.file.broken": "the notebook's structure is broken ({error})",
    "grader.file.too_deep": "the file nests lists or objects more than {depth} levels deep: it was not read",
    "grader.file.no_graded_cells": (
        "no graded cell of this assignment was found in it (wrong file or a different assignment?)"
    ),
    "grader.file.recognised": "The file '{file}' was graded as {notebook}.ipynb (recognised by its cells).",
    "grader.file.case_clash": "Another student's id, '{other}', differs from yours only in letter case, which some disks cannot tell apart: your work is graded as '{student}'.",
    "grader.file.duplicate": "Another file, '{file}', was also a {notebook} notebook: it was not graded.",
    # findings for the instructor's review (shown on the student's page too)
    "grader.finding.manual_kept": (
        "graded again, and an instructor's manual grade of {checks} from an earlier grading is kept: review it"
    ),
    "grader.finding.restored": "tampering (undone before the checks): replaced {what}",
    "grader.finding.switched_off": "tampering (switched off for the checks): {what}",
    "grader.finding.voided": "checks that could not be proven to have run as written, scored 0: {checks}",
    "grader.finding.no_guard": "the grader's integrity guard could not be installed in this kernel",
    "grader.finding.kernel_only": (
        "checks judged only in the learner's kernel (the grader could not evaluate the model itself), "
        "points kept for review: {checks}"
    ),
    "grader.finding.disagreed": (
        "checks that passed in the kernel but whose outputs on fresh inputs differed from the solution's "
        "(the grader's second key), scored 0: {checks}"
    ),
    # what grader/intake/scan.py saw in a notebook (reasons to review it by hand)
    "grader.scan.cell": "cell {cell}: {detail}",
    "grader.scan.imports_network": "imports {module} (network)",
    "grader.scan.imports_from_network": "imports from {module} (network)",
    "grader.scan.assigns": "assigns to {target}",
    "grader.scan.replaces": "replaces {target}",
    "grader.scan.redefines_builtin": "redefines the built-in {name}",
    "grader.scan.redefines_helper": "redefines the course's check helper {name}",
    "grader.scan.redefines": "redefines {name}",
    "grader.scan.calls_on": "calls {func} on {target}",
    "grader.scan.calls": "calls {func}",
    "grader.scan.uses": "uses {name}",
    "grader.scan.mentions": "mentions {text}",
    "grader.scan.course_files": "names the course's files: {text}",
    # `python -m grader check` (make check in the course repository)
    "grader.check.note": "note: {note}",
    "grader.check.feedback_page": "feedback page: {path}",
    "grader.check.header": "{notebook}: {points}",
    "grader.check.status": "{status}: {detail}",
    "grader.check.line": "{mark} {title} ({score:g}/{max_score:g})",
    "grader.check.line_failed": "{mark} {title} ({score:g}/{max_score:g}): {message}",
}
