"""Messages of the learner's self-check (:mod:`ptcourse.selfcheck`) and the progress table
(:mod:`ptcourse.progress`) on the course home."""

MESSAGES = {
    "selfcheck.usage": "usage: python -m ptcourse.selfcheck NOTEBOOK   (for example day1/01_tensors.ipynb)",
    "selfcheck.no_notebook": "error: no notebook at {path}",
    "selfcheck.unreadable": "error: {path} could not be read as a notebook ({why})",
    "selfcheck.no_tests": "{name}: this notebook has no test cells to run.",
    "selfcheck.running": "Running {name} in a fresh kernel (visible tests only)…",
    "selfcheck.header": "\n{name}: {passed} of {total} visible checks passed ({seconds:.0f} s)",
    "selfcheck.pass": "  ✔ {title} ({points:g}/{points:g})",
    "selfcheck.fail": "  ✘ {title} (0/{points:g}): {message}",
    "selfcheck.hidden_line": "  · {title} (?/{points:g}): {message}",
    "selfcheck.hidden_only": "hidden test only: it runs when your instructor grades",
    "selfcheck.not_done": "not done yet (the exercise still raises NotImplementedError)",
    "selfcheck.not_run": "not run: an earlier cell stopped the kernel or ran out of time",
    "selfcheck.kernel_died": "the kernel stopped while the notebook ran ({why})",
    "selfcheck.hidden": (
        "These are the visible tests only: hidden tests run when your instructor grades, "
        "on fresh inputs, so code that only fits the visible examples can still lose points."
    ),
    "selfcheck.recorded": "Your result is saved for the course home (HOME.ipynb); nothing is sent anywhere.",
    "progress.title": "**Your progress** (the last self-check of each notebook; nothing is sent anywhere)",
    "progress.header": "| notebook | last self-check |\n|---|---|",
    "progress.row": "| {notebook} | {result} |",
    "progress.result": "{passed}/{total} checks passed, last checked {when}",
    "progress.result_graded": "{passed}/{total} checks passed ({score:g}/{max_score:g} points with hidden tests), "
                              "last checked {when}",
    "progress.never": "not checked yet",
    "progress.how": "Check a notebook from a terminal: `make check NB={example}`, then run this cell again.",
    # the student edition's Makefile (tools/edition.py writes it in the edition's language)
    "edition.makefile.header": (
        "PyTorch in Three Days (student edition): every set-up and check goes through this file.\n"
        "  make lab              install into .venv if needed, open JupyterLab on the course home\n"
        "  make check NB=...     run one notebook's visible tests: make check NB=day1/01_tensors.ipynb\n"
        "  port 8888 taken?      make lab LAB_ARGS=--port=8889 (jupyter lab list shows running servers)\n"
        "\n"
        "With a Python environment already active (conda, or VIRTUAL_ENV set), that one is used and\n"
        "nothing is installed."
    ),
    "edition.makefile.usage": "usage: make check NB=day1/01_tensors.ipynb",
    # the comment of an answer stub in the translated notebooks (tools/i18n.py); English: nbgrader's own
    "edition.code_stub": "# YOUR CODE HERE",
}
