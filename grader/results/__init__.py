"""Results: what the grader writes for people: feedback pages, the class report, ``grades.csv``, the
platforms' grade files, the similarity page, ``check``'s lines, worked solutions, Gradescope's zip.

A stage of the grader: CONTRIBUTING.md, "A map of the grader".
"""
