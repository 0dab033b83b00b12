"""Platform downloads' layouts, uploaded archives and groups (grader/intake/submissions.py, grader/lms/groups.py)."""

MESSAGES = {
    "grader.intake.default_group": (
        "'{file}' is in Moodle's \"Default group\" folder, which holds the files of one student in no group "
        "without saying whose, so it was not graded. Put the student in a group, or grade it by hand."
    ),
    "grader.intake.bad_archive": (
        "'{file}' is a zip file that could not be opened (damaged, not really a zip, or bigger than the grader's "
        "limits when unpacked), so nothing in it was graded. Ask for the notebook itself."
    ),
    "grader.intake.archive_no_notebook": (
        "'{file}' is a zip file with no notebook (.ipynb) in it, so nothing in it was graded."
    ),
    "grader.intake.member_skipped": (
        "'{file}' in '{archive}' could not be unpacked ({why}), so it was not graded. Open the zip yourself "
        "and look at this file."
    ),
    "grader.intake.skip.link": "it is a link or a special file, not a file's contents",
    "grader.intake.skip.unsafe": "its name points outside the folder the zip unpacks into",
    "grader.intake.skip.damaged": "it is damaged, encrypted, or compressed in a way the grader cannot read",
    "grader.intake.names_read_as": (
        "The file names in '{archive}' are not marked as UTF-8, so their encoding was worked out: they were "
        "read as {encoding}. If a student's name looks wrong in grades.csv, unzip the download yourself and "
        "pass the folder."
    ),
    "grader.group.by_member": "Graded from the group's submission by {member} (group '{group}').",
    "grader.group.team": (
        "Graded from the submission of group '{group}' (the download names the group, not who handed it in)."
    ),
}
