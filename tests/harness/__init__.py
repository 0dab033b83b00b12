"""Helpers of the test suite alone: the accident and red-team catalogues, executed notebooks, links,
Markdown markers and the soak run.

What maintainers' commands share with the tests lives in ``tools/`` (tests import it, never the
reverse: tests/test_architecture.py): :mod:`tools.notebooks` (the course's notebooks, exercises and
graded cells), :mod:`tools.kernel` (code in a fresh Jupyter kernel), :mod:`tools.mutants` (plausible
wrong answers and how to try one), :mod:`tools.course` (a throw-away nbgrader course),
:mod:`tools.classroom` (synthetic classes), :mod:`tools.stale` (a forgotten ``make release``),
:mod:`tools.points`, :mod:`tools.times` and :mod:`tools.home` (``make points``, ``make times``) and
:mod:`tools.nbloop` (``make nb``) and :mod:`tools.msgids` (message ids against the catalogue, ``make msgids``).
"""
