"""Messages of the class grader (``python -m grader``) that learners see: repairs, integrity, limits."""

MESSAGES = {
    "grader.ordinal.1": "first",
    "grader.ordinal.2": "second",
    "grader.ordinal.3": "third",
    "grader.ordinal.4": "fourth",
    "grader.ordinal.5": "fifth",
    # The repair step (grader/intake/repair.py): honest accidents cost nothing, and the learner is told.
    "grader.repair.duplicate_answer": (
        "{exercise}: the answer cell appears {times} times in your notebook; the {which} copy "
        "(the one you worked on last) was graded."
    ),
    "grader.repair.duplicate_answer_stub": (
        "{exercise}: the answer cell appears {times} times in your notebook; the {which} copy, which "
        "holds your answer, was graded (the others were still the untouched exercise)."
    ),
    "grader.repair.duplicate_check": (
        "The check cell '{check}' appears {times} times; the copies were ignored (checks always run "
        "as the course wrote them)."
    ),
    "grader.repair.unknown_cells": (
        "Your notebook has graded cells this course does not know ({ids}); they were not graded, "
        "and their code ran as ordinary cells of yours."
    ),
    "grader.repair.lost_metadata": (
        "{count} answer cell(s) had lost the course's cell information (some editors drop it); they "
        "were recognised by the functions or classes they define."
    ),
    "grader.repair.answer_by_position": (
        "{exercise}: the answer cell had lost its cell information and was recognised by its "
        "place in the notebook."
    ),
    "grader.repair.missing_checks": (
        "These checks were missing from your notebook and were put back from the course before "
        "grading: {ids}."
    ),
    "grader.repair.cell_type": (
        "{exercise}: the answer cell had been turned into a text cell; it was run as code."
    ),
    "grader.repair.reordered": (
        "Some of the course's cells were in another order in your notebook; they were graded in "
        "the course's order, each answer before its checks."
    ),
    "grader.validate.title": "Notebook structure (nothing to lose, but worth fixing)",
    "grader.validate.intro": "The grader will repair this before grading:",
    # Integrity (grader/judge/guard.py): a check counts only when it is proven to have run as written.
    "grader.integrity.not_attested": (
        "This check did not report back that it ran to the end as the course wrote it, so it "
        "earns no points."
    ),
    "grader.integrity.unverified": (
        "The grader could not restore a clean state before this check, so it earns no points."
    ),
    "grader.integrity.changed_during": (
        "While this check ran, your code replaced {what}; the check earns no points."
    ),
    "grader.integrity.settings": (
        "Your notebook changed a setting that the checks depend on ({what}). The checks ran with the course's own "
        "setting, the one the expected answers were computed with; this costs you nothing."
    ),
    "grader.integrity.restored": (
        "Your notebook replaced {what}; the originals were put back before the checks ran, so "
        "only your real work was graded."
    ),
    "grader.integrity.machinery": (
        "Your notebook changed how the notebook runs cells or reports errors ({what}); this was "
        "switched off while the checks ran."
    ),
    "grader.integrity.tampered_note": (
        "Some checks earned no points because the grader could not prove they ran as written. "
        "Your instructor has been told."
    ),
    # The second key (grader/judge/observations.py): the answer's outputs on fresh inputs, compared by the grader.
    "grader.observe.differs": (
        "Your answer's output on a fresh input differed from the expected one ({name}): shape {shapes} "
        "(yours vs expected), largest difference {diff}. This check earns no points."
    ),
    "grader.observe.shape": (
        "Your answer's output on a fresh input has the wrong shape ({name}): shape {shapes} "
        "(yours vs expected). This check earns no points."
    ),
    "grader.observe.dtype": (
        "Your answer's output on a fresh input has dtype {got} where {expected} was expected ({name}). "
        "This check earns no points."
    ),
    "grader.observe.value": (
        "Your answer's output on a fresh input differed from the expected one ({name}): {got} vs {expected} "
        "(yours vs expected). This check earns no points."
    ),
    "grader.observe.kind": (
        "Your answer's output on a fresh input is a {got} where a {expected} was expected ({name}). "
        "This check earns no points."
    ),
    "grader.observe.extra": (
        "The grader received an output the check does not send ({name}): something other than the "
        "course's check reported it. This check earns no points."
    ),
    "grader.observe.refused": (
        "The grader did not read your answer's output on a fresh input ({name}): it was larger or more "
        "deeply nested than the grader reads. This check earns no points."
    ),
    # The model-level checks the grader judges itself, from the weights (grader/judge/model_checks.py).
    "grader.model.accuracy": (
        "The grader evaluated your trained model itself, from its weights, on the {total} test digits: "
        "{got} correct, below the {want} this check asks for. This check earns no points."
    ),
    "grader.model.not_finite": (
        "The grader evaluated your trained model itself, from its weights: its scores are not finite numbers "
        "(NaN or infinity). This check earns no points."
    ),
    "grader.model.no_progress": (
        "The grader computed the small CNN's loss itself, before and after the 30 steps of your optimizer and "
        "schedule: {first} then {last}, not a clear fall (below 90 % of the start). This check earns no points."
    ),
    "grader.model.weights_missing": (
        "The grader did not receive the model's weights from this check as the course wrote it, so it could not "
        "judge the model itself. This check earns no points."
    ),
    "grader.observe.missing": (
        "The grader did not receive your answer's output on a fresh input ({name}): the check did not "
        "report it as the course wrote it. This check earns no points."
    ),
    # What the grader stopped, in plain words.
    "grader.stopped.memory": "The kernel used more than {limit} of memory and was stopped.",
    "grader.bounds.message": (
        "[grader] This cell sent the grader a message larger than {mb} MB or nested more than {depth} "
        "levels deep: it was not read, and this cell earns no points."
    ),
    "grader.output_capped": (
        "[grader] This cell printed more than {kb} KB: the rest of its output was dropped and the cell "
        "was interrupted."
    ),
    "grader.stopped.disk": "The kernel wrote more than {limit} of files and was stopped.",
    "grader.stopped.died": "The kernel stopped (os._exit(), a crash, or a kill).",
    "grader.stopped.tasks": (
        "The kernel ran more than {limit} processes and threads at once (a loop that starts processes?) "
        "and was stopped."
    ),
    "grader.stopped.stuck": (
        "A cell ran past the {seconds} s limit and did not stop when interrupted, so the kernel "
        "was stopped."
    ),
    "grader.stopped.cell_stuck": (
        "This cell ran past the time limit and did not stop when interrupted; later cells were not run."
    ),
    "grader.stopped.not_run": "Not run, because an earlier cell stopped the kernel: {why}",
    "grader.stopped.timeout": "The notebook did not finish within {seconds} s and was stopped.",
    "grader.error.internal": (
        "This notebook could not be graded automatically. Nothing is lost: your instructor has "
        "been told and will look at it."
    ),
    "grader.file.link": (
        "'{file}' is a link to another file, not a notebook: it was not read. Hand in the notebook "
        "file itself."
    ),
    "grader.file.special": "'{file}' is not a regular file: it was not read.",
    "grader.file.too_big": (
        "'{file}' is {size} MB, over the {limit} MB limit: it was not read. Clear the outputs "
        "(Edit > Clear Outputs of All Cells), save, and hand it in again."
    ),
}
