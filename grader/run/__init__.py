"""Running: one grading job, the reference run of the second key, the executors (local pool, Dask), a
class from intake to results (:mod:`grader.run.engine`), and the command lines.

A stage of the grader: CONTRIBUTING.md, "A map of the grader".
"""
