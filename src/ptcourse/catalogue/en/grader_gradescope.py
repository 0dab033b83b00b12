"""What the Gradescope autograder says to a learner (grader/run/gradescope.py)."""

MESSAGES = {
    "grader.gradescope.total": "{day}: {score:g} / {max_score:g} points.",
    "grader.gradescope.missing": "{notebook}.ipynb was not in this submission: its checks score 0.",
    "grader.gradescope.no_notebook": (
        "No notebook (.ipynb file) was found in this submission. Upload the notebooks of this day "
        "as you saved them in JupyterLab, then submit again."
    ),
}
