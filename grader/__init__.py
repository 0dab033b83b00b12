"""The class grader: ``python -m grader grade DAY`` for a class, ``python -m grader check NB`` for one learner.

Importing any part of nbgrader runs ``nbgrader/__init__.py``, which loads nbgrader's four Jupyter
server extensions (Tornado, jupyter_server, the exchange): 0.3-0.4 s, in the driver and again in
each worker's fork server, for code that grading never calls. :func:`_nbgrader_without_server`
registers the ``nbgrader`` package without running that file, so ``nbgrader.api`` and
``nbgrader.apps`` import as usual. A process that has already imported nbgrader keeps it; a Jupyter
server, which needs the extensions, never imports this package.
"""

from __future__ import annotations

import importlib.util
import sys


def _nbgrader_without_server() -> None:
    if "nbgrader" in sys.modules:
        return
    spec = importlib.util.find_spec("nbgrader")
    if spec is None or not spec.submodule_search_locations:
        return  # not installed: the import that needs it says so
    package = importlib.util.module_from_spec(spec)
    sys.modules["nbgrader"] = package
    try:
        from nbgrader._version import __version__  # nbgrader's apps print it
    except Exception:  # noqa: BLE001 - anything odd: let nbgrader import itself the usual way
        del sys.modules["nbgrader"]
        return
    package.__version__ = __version__


_nbgrader_without_server()
