"""Course-maintainer tooling shared by the test suite and the benchmark.

* :mod:`tests.harness.kernel` - run code in a fresh Jupyter kernel and collect errors;
* :mod:`tests.harness.notebooks` - find the course's notebooks, exercises and graded cells;
* :mod:`tests.harness.mutants` - the catalogue of plausible wrong answers and how to try one;
* :mod:`tests.harness.course` - a throw-away nbgrader course for round trips;
* :mod:`tests.harness.classroom` - synthetic classes (solved, untouched, mutant) for the grader;
* :mod:`tests.harness.home` - the course home page's tables (``HOME.ipynb``).
"""
