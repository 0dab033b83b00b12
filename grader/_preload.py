"""Imported once by the grader's fork server, so each job starts with nbgrader already loaded.

Everything a job would otherwise import or build for itself, on every notebook, is done here once:
IPython (jupyter_client's kernel-spec lookup imports it), the SQLite dialect of the gradebook,
the course's nbgrader plug-ins, the compiled notebook schemas and the kernel-provisioner registry;
the job's own module (:mod:`grader.run.jobs`, which each job process unpickles its target from: 30-40 ms
of imports per job otherwise) and the message catalogue of every language (13 ms per job).
"""

import codeop  # noqa: F401
import gc
import sqlite3  # noqa: F401

import ipykernel.connect  # noqa: F401
import ipykernel.kernelspec  # noqa: F401
import IPython.paths  # noqa: F401
import jupyter_core.migrate  # noqa: F401
import nbclient  # noqa: F401
import nbconvert  # noqa: F401
import nbformat
import nbgrader.api  # noqa: F401
import nbgrader.apps.nbgraderapp  # noqa: F401
import nbgrader.converters  # noqa: F401
import nbgrader.preprocessors  # noqa: F401
import sqlalchemy.dialects.sqlite  # noqa: F401
from jupyter_client.provisioning.factory import KernelProvisionerFactory
from sqlalchemy.orm import configure_mappers

import grader.grades.late  # noqa: F401
import grader.intake.repair  # noqa: F401
import grader.intake.validate  # noqa: F401
import grader.jail.execute  # noqa: F401
import grader.run.jobs  # noqa: F401
from ptcourse import messages

for _minor in range(nbformat.current_nbformat_minor + 1):  # the notebook schemas, compiled once
    for _relax in (False, True):  # nbconvert validates with relax_add_props=True, nbformat without
        nbformat.validator.get_validator(version=4, version_minor=_minor, relax_add_props=_relax)
KernelProvisionerFactory.instance()  # reads the entry points once
configure_mappers()  # nbgrader's gradebook classes, set up once (else on each job's first query)
for _lang in messages.LANGS:  # the catalogue, read once (ptcourse.messages caches it per language)
    messages.catalogue(_lang)

# A job's garbage collections need not walk (and so copy, page by page) what every job shares.
gc.collect()
gc.freeze()
