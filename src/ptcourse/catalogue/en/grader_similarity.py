"""The similarity report (grader/results/similarity.py, grader/results/similarity_page.py): for the instructor."""

MESSAGES = {
    "grader.similarity.title": "{day}: similar answers",
    "grader.similarity.verdict": (
        "Similarity is a reason to look, not a verdict. Students may have worked together as "
        "allowed, followed the same example from the course, or found the same short answer. Read "
        "both answers side by side, and talk with the students before you decide anything."
    ),
    "grader.similarity.method": (
        "Each exercise's answer cells were compared with copydetect (winnowing fingerprints, the "
        "method of MOSS): names, comments and layout do not count, so renamed variables and moved "
        "lines still match. The starter code, the model solution and code that most of the class "
        "shares were left out. English and Chinese copies are compared as one. A pair is listed "
        "when at least {threshold:.0%} of one answer also appears in the other."
    ),
    "grader.similarity.section": "Similar answers",
    "grader.similarity.summary": "{pairs} pair(s) of answers to look at, in {exercises} exercise(s).",
    "grader.similarity.link": "The matched lines, side by side:",
    "grader.similarity.col_pair": "what is alike",
    "grader.similarity.compared": "{compared} answer(s) compared.",
    "grader.similarity.pair": "{a} and {b}: {share_a:.0%} of {a}'s answer is also in {b}'s, {share_b:.0%} the other way.",
    "grader.similarity.matched": "highlighted: the lines that match",
    "grader.similarity.nothing": "No exercise has a pair of answers above the threshold.",
}
