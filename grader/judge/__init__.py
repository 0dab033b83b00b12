"""The judge: the rules a graded check is judged by, which need nothing else of the grader: the guard's proof
that each test cell ran as written (and its agent in the kernel), the second key's comparison of what a cell
observed, the model checks judged from weights, and what a cell's outputs say.

A stage of the grader: CONTRIBUTING.md, "A map of the grader".
"""
