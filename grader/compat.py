"""Every patch of upstream internals the grader makes, in one place: nbgrader, nbclient, jupyter_client,
jsonschema (and nbgrader's use of SQLAlchemy).

Each patch says why it exists and which upstream version it was written against (:data:`WRITTEN_AGAINST`;
requirements.txt and requirements-grader.txt pin exactly these). ``tests/test_compat.py`` has a test per
patch that fails when an upgrade breaks it: the patched name is gone or its signature changed, the
upstream code a copy was made from changed (its source hash), or a copied list no longer matches
upstream's. When one fails after an upgrade, re-read the upstream code it names, bring the patch up to
date (or drop it), then record the new hash or version here.

Only the standard library is imported at the top: ``grader/__init__`` imports this module before
anything else, and :func:`nbgrader_without_server` must run before nbgrader is first imported.
"""

from __future__ import annotations

import importlib.util
import json
import sys
import time

# The upstream versions every patch below was written against (and pinned to).
WRITTEN_AGAINST = {
    "nbgrader": "0.9.6",
    "nbclient": "0.11.0",
    "jupyter_client": "8.10.0",
    "jsonschema": "4.26.0",
    "SQLAlchemy": "2.1.9",
}


# -- nbgrader: the package without its server extensions ---------------------------------------
def nbgrader_without_server() -> None:
    """Register the ``nbgrader`` package without running its ``__init__.py`` (nbgrader 0.9.6).

    Why: importing any part of nbgrader runs ``nbgrader/__init__.py``, which loads nbgrader's four
    Jupyter server extensions (Tornado, jupyter_server, the exchange): 0.3-0.4 s, in the driver and
    again in each worker's fork server, for code that grading never calls. With the package
    registered from its spec, ``nbgrader.api`` and ``nbgrader.apps`` import as usual; only
    ``nbgrader.__version__`` (which nbgrader's apps print) is set by hand, from ``nbgrader._version``.
    A process that has already imported nbgrader keeps it; a Jupyter server, which needs the
    extensions, never imports the grader.
    """
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


# -- jsonschema, as nbgrader's cell-metadata check uses it ---------------------------------------
def schema_checked_once() -> None:
    """Replace ``nbgrader.nbgraderformat.common.jsonschema`` (nbgrader 0.9.6, jsonschema 4.26.0) with
    a stand-in whose ``validate`` checks each schema against the metaschema once per process.

    Why: nbgrader checks each cell's metadata with ``jsonschema.validate(instance, schema)``, which
    first checks nbgrader's own schema (a constant) against the JSON Schema metaschema: every cell,
    twice per notebook. The stand-in runs the same checks, with the same errors (``best_match`` of
    the validator's errors, as ``jsonschema.validate`` raises), and delegates everything else, and
    any other call of ``validate``, to jsonschema itself. Only for a grading job's process.
    """
    import jsonschema
    import nbgrader.nbgraderformat.common as common
    from jsonschema import exceptions, validators

    ready: dict[str, object] = {}

    def validate(instance, schema, cls=None, *args, **kwargs):
        if cls is not None or args or kwargs:
            return jsonschema.validate(instance, schema, cls, *args, **kwargs)
        key = json.dumps(schema, sort_keys=True)
        if key not in ready:
            kind = validators.validator_for(schema)
            kind.check_schema(schema)
            ready[key] = kind(schema)
        error = exceptions.best_match(ready[key].iter_errors(instance))
        if error is not None:
            raise error

    class Shim:
        def __getattr__(self, name):
            return getattr(jsonschema, name)

    shim = Shim()
    shim.validate = validate
    common.jsonschema = shim


# -- nbgrader.api's create_engine ---------------------------------------------------------------
def one_engine_per_database() -> None:
    """Replace ``nbgrader.api.create_engine`` (nbgrader 0.9.6's ``from sqlalchemy import create_engine``,
    called by ``Gradebook.__init__``) with one that makes one SQLAlchemy engine per database URL and
    arguments, and hands it out again.

    Why: ``nbgrader autograde`` opens a ``Gradebook`` nine times per notebook; with a new engine each
    time, every query is compiled again. Only for a grading job's process, whose one database is
    its private scratch copy (:func:`grader.grades.gradebook.scratch_gradebook`).
    """
    import nbgrader.api
    from sqlalchemy import create_engine

    engines: dict = {}

    def shared_engine(url, **kwargs):
        key = (str(url), tuple(sorted(kwargs.items())))
        if key not in engines:
            engines[key] = create_engine(url, **kwargs)
        return engines[key]

    nbgrader.api.create_engine = shared_engine


def gradebook_checked_once() -> None:
    """Replace ``nbgrader.api.Gradebook.__init__`` (nbgrader 0.9.6) with one that, for a database and
    course it has already opened in this process, skips what the first opening did: reading the
    table names, ``create_all`` (a query per table) and ``check_course`` (a query, and an insert the
    first time). The rest is the original's: the (shared) engine, the scoped session, the course id
    and the authenticator. A database and course opened for the first time go through nbgrader's own.

    Why: ``nbgrader autograde`` opens a ``Gradebook`` ten times per notebook; those checks cost about
    0.1 s of every job for a database that already has every table and the course from the first
    opening (nbgrader never drops either). Only for a grading job's process, with
    :func:`one_engine_per_database` (:func:`grader.grades.gradebook.scratch_gradebook`).
    """
    import nbgrader.api as api
    from sqlalchemy.orm import scoped_session, sessionmaker

    original = api.Gradebook.__init__
    if getattr(original, "checked_once", False):
        return
    checked: set[tuple[str, str]] = set()

    def __init__(self, db_url, course_id="default_course", authenticator=None):
        key = (str(db_url), course_id)
        if key not in checked:
            original(self, db_url, course_id=course_id, authenticator=authenticator)
            checked.add(key)
            return
        self.engine = api.create_engine(db_url, echo=False, future=True)
        self.db = scoped_session(sessionmaker(autoflush=True, bind=self.engine, future=True))
        self.course_id = course_id
        self.authenticator = authenticator

    __init__.checked_once = True
    api.Gradebook.__init__ = __init__


# -- nbgrader's SaveAutoGrades: the grades read once, one commit --------------------------------
class _Prefetched:
    """What ``SaveAutoGrades`` asks of its gradebook, from the submitted notebook's grades and comments read
    once: ``find_grade`` and ``find_comment`` by cell name (``MissingEntry`` as nbgrader raises it), and a
    ``db`` whose per-cell ``commit`` waits for the one at the end."""

    class _Later:
        @staticmethod
        def commit() -> None:
            pass

    def __init__(self, gradebook, notebook: str, assignment: str, student: str):
        submitted = gradebook.find_submission_notebook(notebook, assignment, student)
        self.grades = {grade.name: grade for grade in submitted.grades}
        self.comments = {comment.name: comment for comment in submitted.comments}
        self.where = f"{assignment}/{notebook}/{{}} for {student}"
        self.db = self._Later()

    def find_grade(self, cell: str, *_ids):
        return self._found(self.grades, cell, "grade")

    def find_comment(self, cell: str, *_ids):
        return self._found(self.comments, cell, "comment")

    def _found(self, table: dict, cell: str, kind: str):
        from nbgrader.api import MissingEntry

        if cell not in table:
            raise MissingEntry(f"No such {kind}: {self.where.format(cell)}")
        return table[cell]


def autogrades_saved_at_once() -> None:
    """Replace ``nbgrader.preprocessors.SaveAutoGrades.preprocess`` (nbgrader 0.9.6) with one that reads
    the submitted notebook's grades and comments once (:class:`_Prefetched`), lets nbgrader's own
    ``_add_score`` and ``_add_comment`` set them cell by cell as before, and commits once at the end.

    Why: nbgrader finds each cell's grade and comment with a query joining six tables, and commits
    after each: two queries and a commit per graded cell, about 0.05 s of every job. The values
    written are the same objects' same fields (SQLAlchemy's session hands out one object per row).
    Only for a grading job's process: a job that fails part-way writes no grades (it is retried or
    reported, never read).
    """
    from nbgrader.preprocessors import NbGraderPreprocessor
    from nbgrader.preprocessors import saveautogrades as module

    cls = module.SaveAutoGrades
    if getattr(cls.preprocess, "at_once", False):
        return

    def preprocess(self, nb, resources):
        self.notebook_id = resources["nbgrader"]["notebook"]
        self.assignment_id = resources["nbgrader"]["assignment"]
        self.student_id = resources["nbgrader"]["student"]
        self.db_url = resources["nbgrader"]["db_url"]
        with module.Gradebook(self.db_url) as gradebook:
            self.gradebook = _Prefetched(gradebook, self.notebook_id, self.assignment_id, self.student_id)
            try:
                nb, resources = NbGraderPreprocessor.preprocess(self, nb, resources)
            finally:
                self.gradebook = gradebook
            gradebook.db.commit()
        return nb, resources

    preprocess.at_once = True
    cls.preprocess = preprocess


# -- nbgrader's OverwriteCells: the course's cells read once ------------------------------------
class _CourseCells:
    """What ``OverwriteCells`` asks of its gradebook cell by cell, from the notebook's source and graded cells
    read once: ``find_source_cell`` and ``find_graded_cell`` by cell name (``MissingEntry`` as nbgrader raises
    it; a graded cell is a grade cell, else a task cell, as nbgrader looks). Anything else goes to the gradebook."""

    def __init__(self, gradebook, notebook: str, assignment: str):
        from nbgrader.api import MissingEntry

        self.gradebook, self.source, self.graded = gradebook, {}, {}
        try:
            source = gradebook.find_notebook(notebook, assignment)
        except MissingEntry:
            pass  # no such notebook: every cell is missing, as each query would say
        else:
            self.source = {cell.name: cell for cell in source.source_cells}
            self.graded = {cell.name: cell for cell in (*source.task_cells, *source.grade_cells)}  # grade cells win
        self.where = f"{assignment}/{notebook}/{{}}"

    def find_source_cell(self, name: str, *_ids):
        return self._found(self.source, name, "source cell")

    def find_graded_cell(self, name: str, *_ids):
        return self._found(self.graded, name, "grade cell or task cell")

    def _found(self, table: dict, name: str, kind: str):
        from nbgrader.api import MissingEntry

        if name not in table:
            raise MissingEntry(f"No such {kind}: {self.where.format(name)}")
        return table[name]

    def __getattr__(self, name):
        return getattr(self.gradebook, name)


def course_cells_read_once() -> None:
    """Replace ``nbgrader.preprocessors.OverwriteCells.preprocess`` (nbgrader 0.9.6) with one that reads the
    notebook's source and graded cells once (:class:`_CourseCells`) and lets nbgrader's own
    ``preprocess_cell`` and ``add_missing_*_cells`` compare and restore each cell as before.

    Why: nbgrader finds each cell's source cell, and each graded cell's max score, with a query joining
    three tables: two queries per graded cell, about 0.02 s of every job. The objects are the same rows
    (SQLAlchemy's session hands out one object per row), and OverwriteCells writes nothing to the
    database. Only for a grading job's process.
    """
    from nbgrader.preprocessors import NbGraderPreprocessor
    from nbgrader.preprocessors import overwritecells as module

    cls = module.OverwriteCells
    if getattr(cls.preprocess, "read_once", False):
        return

    def preprocess(self, nb, resources):
        self.notebook_id = resources["nbgrader"]["notebook"]
        self.assignment_id = resources["nbgrader"]["assignment"]
        self.db_url = resources["nbgrader"]["db_url"]
        gradebook = module.Gradebook(self.db_url)
        with gradebook:
            self.gradebook = _CourseCells(gradebook, self.notebook_id, self.assignment_id)
            try:
                nb, resources = NbGraderPreprocessor.preprocess(self, nb, resources)
                if self.add_missing_cells:
                    nb, resources = self.add_missing_grade_cells(nb, resources)
                    nb, resources = self.add_missing_task_cells(nb, resources)
            finally:
                self.gradebook = gradebook
        return nb, resources

    preprocess.read_once = True
    cls.preprocess = preprocess


# -- nbgrader's determine_grade: a warning is no failure ------------------------------------------
def warnings_never_fail() -> None:
    """Replace ``nbgrader.utils.determine_grade`` (nbgrader 0.9.6; ``SaveAutoGrades`` and the ``Validator``
    call it as ``utils.determine_grade``) with one that judges a code cell without its stderr streams.

    Why: nbgrader scores a test cell 0 when anything in it wrote to stderr ("option 1: error" in
    ``determine_grade`` counts ``stream``/``stderr`` outputs as errors). A correct answer that makes
    PyTorch warn (``softmax`` without ``dim``, a tensor built from a tensor) lost the check. The
    course fails a check on an exception or a failed check only; what went to stderr stays in the
    graded notebook and is shown to the learner as a note (grader/judge/cell_words.py). The wrapper calls
    nbgrader's own function on a copy of the cell without those outputs, so error outputs, partial
    credit and solution cells are judged by nbgrader as before, but for one thing: an error output decides
    wherever it is. nbgrader reads a cell's outputs in order and lets the first ``execute_result`` decide (a
    text that is no number: full marks), so a failed check after a displayed value scored in full: with a
    learner's ``%config InteractiveShell.ast_node_interactivity = 'all'``, every test cell's docstring is such a
    value, and an untouched notebook scored full marks. Only for a grading job's process:
    plain ``nbgrader autograde`` keeps nbgrader's rule (the deliberate difference the equality
    tests record as ``warnings_not_failed``).
    """
    import nbgrader.utils as utils
    from nbformat import NotebookNode

    upstream = utils.determine_grade
    if getattr(upstream, "__wrapped__", None) is not None:
        return  # already in place

    def determine_grade(cell, log=None):
        outputs = cell.get("outputs") if cell.get("cell_type") == "code" else None
        if outputs:
            kept = [o for o in outputs if not (o.get("output_type") == "stream" and o.get("name") == "stderr")]
            errors = [o for o in kept if o.get("output_type") == "error"]
            kept = errors + [o for o in kept if o.get("output_type") != "error"]  # an error decides, wherever it is
            if kept != list(outputs):
                cell = NotebookNode({**cell, "outputs": kept})
        return upstream(cell, log)

    determine_grade.__wrapped__ = upstream
    utils.determine_grade = determine_grade


# -- nbgrader's preprocessor lists ---------------------------------------------------------------
# A copy of nbgrader 0.9.6's default ``Autograde.autograde_preprocessors``, by importable name.
NBGRADER_AUTOGRADE_PREPROCESSORS = (
    "nbgrader.preprocessors.Execute",
    "nbgrader.preprocessors.IgnorePattern",
    "nbconvert.preprocessors.ClearMetadataPreprocessor",
    "nbgrader.preprocessors.LimitOutput",
    "nbgrader.preprocessors.SaveAutoGrades",
    "nbgrader.preprocessors.AssignLatePenalties",
    "nbgrader.preprocessors.CheckCellMetadata",
)
# A copy of nbgrader 0.9.6's default ``Validator.preprocessors``, by importable name.
NBGRADER_VALIDATOR_PREPROCESSORS = (
    "nbgrader.preprocessors.CheckCellMetadata",
    "nbgrader.preprocessors.ClearOutput",
    "nbgrader.preprocessors.Execute",
)


def autograde_preprocessors(execute: str) -> list[str]:
    """nbgrader's autograde steps with its ``Execute`` swapped for ``execute`` (an importable name).

    Why a copy: ``c.Autograde.autograde_preprocessors`` can only be set whole, so the grader's job
    configuration (``grader.run.jobs.JOB_CONFIG``) repeats nbgrader's list with one step replaced. If
    nbgrader adds or reorders a step, the copy (:data:`NBGRADER_AUTOGRADE_PREPROCESSORS`) must follow.
    """
    return [execute if name == "nbgrader.preprocessors.Execute" else name
            for name in NBGRADER_AUTOGRADE_PREPROCESSORS]


def set_validator_preprocessors(first: type, last: type) -> None:
    """Make nbgrader's ``Validator`` run ``first``, then its own steps, then ``last``.

    Why: ``Validator.preprocessors`` (nbgrader 0.9.6) is not a configurable trait, so its class
    trait's default is changed instead, from a copy of nbgrader's list
    (:data:`NBGRADER_VALIDATOR_PREPROCESSORS`).
    """
    import importlib

    from nbgrader.validator import Validator

    own = []
    for name in NBGRADER_VALIDATOR_PREPROCESSORS:
        module, _, attr = name.rpartition(".")
        own.append(getattr(importlib.import_module(module), attr))
    Validator.class_traits()["preprocessors"].default_value = [first, *own, last]


# -- jupyter_client's kernel manager --------------------------------------------------------------
class KernelManagerPatches:
    """A mixin for ``jupyter_client.manager.AsyncKernelManager`` (jupyter_client 8.10.0), placed
    before it: three of its private coroutines, each handing the grader's part to a hook of the
    subclass. Each hook's default leaves jupyter_client's behaviour as it is.

    * ``_async_interrupt_kernel``: skipped when :meth:`_skip_interrupt` says so (a jailed kernel about
      to be killed: an interrupt request would only hold its sockets open on the way out);
    * ``_async_kill_kernel``: a rewrite of jupyter_client's, used when :meth:`_kills_itself` (the
      grader then kills the kernel's process in :meth:`_kill_process`, never signalling a kernel
      already reaped, whose pid or process group may be another job's process by now), waiting for
      the process in 5 ms steps instead of jupyter_client's 100 ms ones;
    * ``_async_pre_start_kernel``: its ``(cmd, kw)`` passed through :meth:`_before_start`.
    """

    def _skip_interrupt(self) -> bool:
        return False

    def _kills_itself(self) -> bool:
        """Whether :meth:`_kill_process` kills the kernel (else jupyter_client's own kill does)."""
        return False

    def _kill_process(self) -> None:
        pass

    def _before_start(self, cmd: list[str], kw: dict) -> tuple[list[str], dict]:
        return cmd, kw

    async def _async_interrupt_kernel(self):
        if self._skip_interrupt():
            return
        await super()._async_interrupt_kernel()

    async def _async_kill_kernel(self, restart: bool = False) -> None:
        import asyncio

        if not self._kills_itself():
            return await super()._async_kill_kernel(restart=restart)
        if self.has_kernel:
            self._kill_process()
            deadline = time.monotonic() + 5.0  # as jupyter_client's wait_for(self._async_wait(), 5.0)
            while await self._async_is_alive() and time.monotonic() < deadline:
                await asyncio.sleep(0.005)
            if self.has_kernel and not await self._async_is_alive():
                await self.provisioner.wait()

    async def _async_pre_start_kernel(self, **kw):
        cmd, kw = await super()._async_pre_start_kernel(**kw)
        return self._before_start(cmd, kw)


# -- nbclient's kernel client start ---------------------------------------------------------------
class KernelClientStart:
    """A mixin for ``nbclient.NotebookClient`` (nbclient 0.11.0; nbgrader's ``Execute`` is one),
    placed before it: a copy of ``NotebookClient.async_start_new_kernel_client`` with two hooks,
    used when :meth:`_own_start` says so (else nbclient's own runs).

    * :meth:`_before_channels`, after the client is made and before its channels start;
    * :meth:`_wait_ready` instead of ``kc.wait_for_ready`` (jupyter_client's waits 0.2 s of IOPub
      silence on every notebook).

    nbclient's synchronous ``start_new_kernel_client`` is ``run_sync`` of *its own* coroutine, bound
    when its class was made, so it is redefined here to call this one.
    """

    def _own_start(self) -> bool:
        return False

    def _before_channels(self) -> None:
        pass

    async def _wait_ready(self, timeout: float) -> None:
        from nbclient.util import ensure_async

        await ensure_async(self.kc.wait_for_ready(timeout=timeout))

    async def async_start_new_kernel_client(self):
        """nbclient's, with the two hooks (see the class)."""
        from nbclient.util import ensure_async, run_hook

        if not self._own_start():
            return await super().async_start_new_kernel_client()
        try:
            self.kc = self.km.client()
            self._before_channels()
            await ensure_async(self.kc.start_channels())
            await self._wait_ready(self.startup_timeout)
        except Exception as e:
            self.log.error(f"Error occurred while starting new kernel client for kernel "
                           f"{getattr(self.km, 'kernel_id', None)}: {e}")
            await self._async_cleanup_kernel()
            raise
        self.kc.allow_stdin = False
        await run_hook(self.on_notebook_start, notebook=self.nb)
        return self.kc

    def start_new_kernel_client(self):
        from nbclient.util import run_sync

        return run_sync(self.async_start_new_kernel_client)()
