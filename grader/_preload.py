"""Imported once by the grader's fork server, so each job starts with nbgrader already loaded."""

import nbclient  # noqa: F401
import nbconvert  # noqa: F401
import nbgrader.apps.nbgraderapp  # noqa: F401
import nbgrader.converters  # noqa: F401
import nbgrader.preprocessors  # noqa: F401

import grader.execute  # noqa: F401
