"""The class grader: ``python -m grader grade DAY`` for a class, ``python -m grader check NB`` for one learner.

Importing any part of nbgrader runs ``nbgrader/__init__.py``, which loads nbgrader's server
extensions, for code grading never calls: the package is registered without running that file
first (:func:`grader.compat.nbgrader_without_server`, where every patch of upstream code lives).
"""

from __future__ import annotations

from grader.compat import nbgrader_without_server

nbgrader_without_server()
