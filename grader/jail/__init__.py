"""The jail: a learner's kernel confined (bubblewrap, cgroups, limits, its environment), warm kernels
(zygotes), nbgrader's Execute step run under the judge, the kernel's messages bounded, and a grading
process's death told from the learner's notebook failing.

A stage of the grader: CONTRIBUTING.md, "A map of the grader".
"""
