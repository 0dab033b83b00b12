"""Every patch of upstream internals (grader/compat.py) still fits the upstream code it patches.

One test (or more) per patch. They fail after an upgrade of nbgrader, nbclient, jupyter_client or
jsonschema that breaks a patch: a patched name gone or its signature changed, or the upstream code
a copy was made from changed (its source hash). Then: re-read the upstream code the message names,
bring the patch in grader/compat.py up to date (or drop it), and record the new hash or version here.

The same regime covers the patches outside the grader: torch's functions that the course package's
training spies and pretend accelerator wrap or replace (src/ptcourse/spies.py, placement.py: each
module's WRITTEN_AGAINST), and the xdist scheduler method tests/conftest.py overrides.
"""

from __future__ import annotations

import ast
import hashlib
import importlib
import importlib.metadata
import importlib.util
import inspect
import re
import subprocess
import sys
from pathlib import Path

import pytest

from grader import compat

ROOT = Path(__file__).resolve().parents[1]


def source_hash(obj) -> str:
    return hashlib.sha256(inspect.getsource(obj).encode()).hexdigest()[:16]


def assert_unchanged(obj, recorded: str, patch: str, where: str = "grader/compat.py") -> None:
    found = source_hash(obj)
    assert found == recorded, (
        f"upstream {obj.__module__}.{obj.__qualname__} changed (source hash {found}, the patch was written "
        f"against {recorded}): re-check {patch} in {where} against it, then record the new hash")


def assert_signature(obj, expected: str, patch: str) -> None:
    found = str(inspect.signature(obj))
    assert found == expected, (f"upstream {obj.__qualname__}{found} (was {expected}): re-check {patch} in "
                               "grader/compat.py")


# -- the versions ---------------------------------------------------------------------------------
@pytest.mark.parametrize("package", sorted(compat.WRITTEN_AGAINST))
def test_installed_version_is_the_one_patched(package):
    assert importlib.metadata.version(package) == compat.WRITTEN_AGAINST[package], (
        f"{package} {importlib.metadata.version(package)} is installed; grader/compat.py was written against "
        f"{compat.WRITTEN_AGAINST[package]}: run tests/test_compat.py, fix what fails, then update the pins")


def pins(path: Path) -> dict[str, str]:
    found = {}
    for line in path.read_text().splitlines():
        match = re.match(r"\s*([A-Za-z0-9_.\-]+)\s*==\s*([^\s;#]+)", line)
        if match:
            found[match.group(1).lower().replace("-", "_")] = match.group(2)
    return found


@pytest.mark.parametrize("package", sorted(compat.WRITTEN_AGAINST))
def test_patched_packages_are_pinned(package):
    """requirements.txt with requirements-grader.txt (what the grader installs) and pyproject's grader extra."""
    key = package.lower().replace("-", "_")
    required = {**pins(ROOT / "requirements.txt"), **pins(ROOT / "requirements-grader.txt")}
    assert required.get(key) == compat.WRITTEN_AGAINST[package], f"pin {package}=={compat.WRITTEN_AGAINST[package]}"
    tomllib = pytest.importorskip("tomllib")
    extra = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["grader"]
    declared = {n.split("==")[0].lower().replace("-", "_"): n.split("==")[1] for n in extra if "==" in n}
    assert declared.get(key) == compat.WRITTEN_AGAINST[package], (
        f'pyproject.toml\'s grader extra: "{package}=={compat.WRITTEN_AGAINST[package]}"')


# -- nbgrader without its server extensions ---------------------------------------------------------
def test_nbgrader_init_is_the_one_skipped():
    """What nbgrader_without_server skips: nbgrader/__init__.py, which only loads the server extensions
    (and sets __version__, which the patch sets itself from nbgrader._version)."""
    import nbgrader._version

    path = Path(importlib.util.find_spec("nbgrader").origin)
    found = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    assert found == "095ca0f08997c429", (
        f"nbgrader/__init__.py changed ({found}): re-check what compat.nbgrader_without_server skips")
    assert nbgrader._version.__version__ == compat.WRITTEN_AGAINST["nbgrader"]


def test_nbgrader_imports_without_its_server():
    code = ("import sys, grader, nbgrader.api, nbgrader.apps.nbgraderapp, nbgrader.preprocessors; "
            "import nbgrader; print(nbgrader.__version__); "
            "print(sorted(m for m in sys.modules if m.startswith(('jupyter_server', 'nbgrader.server_extensions'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True).stdout
    version, loaded = out.splitlines()
    assert version == compat.WRITTEN_AGAINST["nbgrader"]
    assert loaded == "[]", f"importing grader and nbgrader's apps loaded the server: {loaded}"


# -- jsonschema, as nbgrader's cell-metadata check uses it -------------------------------------------
def test_schema_check_is_still_jsonschema_validate():
    import jsonschema
    import nbgrader.nbgraderformat.common as common

    assert common.jsonschema is jsonschema or type(common.jsonschema).__name__ == "Shim"
    assert "jsonschema.validate(cell.metadata['nbgrader'], self.schema)" in inspect.getsource(
        common.BaseMetadataValidator.validate_cell), "re-check compat.schema_checked_once: nbgrader checks otherwise"
    assert_signature(jsonschema.validate, "(instance, schema, cls=None, *args, **kwargs)", "schema_checked_once")
    assert_unchanged(jsonschema.validate, "5bfea7e5f0f3dae0", "schema_checked_once")


def test_schema_checked_once_raises_what_jsonschema_raises(monkeypatch):
    import jsonschema
    import nbgrader.nbgraderformat.common as common
    from nbgrader.nbgraderformat import MetadataValidator

    schema = MetadataValidator().schema
    good = {"grade": True, "grade_id": "a", "locked": True, "points": 1, "schema_version": 3, "solution": False,
            "task": False}
    bad = [{**good, "points": "one"}, {k: v for k, v in good.items() if k != "locked"}, {**good, "grade_id": "a b"},
           {**good, "points": -1}]
    expected = []
    for instance in bad:
        with pytest.raises(jsonschema.ValidationError) as raised:
            jsonschema.validate(instance, schema)
        expected.append(raised.value.message)
    monkeypatch.setattr(common, "jsonschema", common.jsonschema)  # put back after the test
    compat.schema_checked_once()
    assert common.jsonschema is not jsonschema and common.jsonschema.ValidationError is jsonschema.ValidationError
    common.jsonschema.validate(good, schema)
    for instance, message in zip(bad, expected, strict=True):
        with pytest.raises(jsonschema.ValidationError) as raised:
            common.jsonschema.validate(instance, schema)
        assert raised.value.message == message


# -- nbgrader.api's create_engine -----------------------------------------------------------------
def test_gradebook_makes_its_engine_through_the_module_name():
    import nbgrader.api as api
    import sqlalchemy

    assert api.create_engine is sqlalchemy.create_engine or api.create_engine.__name__ == "shared_engine"
    assert "self.engine = create_engine(db_url, echo=False, future=True)" in inspect.getsource(api.Gradebook.__init__)
    assert_unchanged(api.Gradebook.__init__, "c60c420276e8355e", "one_engine_per_database")


def test_one_engine_per_database(monkeypatch, tmp_path):
    import nbgrader.api as api

    monkeypatch.setattr(api, "create_engine", api.create_engine)  # put back after the test
    compat.one_engine_per_database()
    url = f"sqlite:///{tmp_path / 'gb.db'}"
    first = api.create_engine(url, echo=False, future=True)
    assert api.create_engine(url, echo=False, future=True) is first
    assert api.create_engine(f"sqlite:///{tmp_path / 'other.db'}", echo=False, future=True) is not first
    first.dispose()


def test_gradebook_checked_once(monkeypatch, tmp_path):
    """A database and course opened before in the process skip nbgrader's table and course checks; a first
    opening (another database, another course) still makes its tables and course."""
    import nbgrader.api as api

    monkeypatch.setattr(api.Gradebook, "__init__", api.Gradebook.__init__)  # put back after the test
    compat.gradebook_checked_once()
    monkeypatch.setattr(api, "get_alembic_version", lambda: "test")  # a new database's stamp: no alembic run
    url = f"sqlite:///{tmp_path / 'gb.db'}"
    with api.Gradebook(url) as first:
        first.add_student("ann")
    monkeypatch.setattr(api, "inspect", lambda *a: pytest.fail("inspected again"))
    monkeypatch.setattr(api.Base.metadata, "create_all", lambda *a, **k: pytest.fail("tables made again"))
    with api.Gradebook(url) as again:
        assert [s.id for s in again.students] == ["ann"] and again.course_id == "default_course"
    with pytest.raises(pytest.fail.Exception, match="inspected again"):
        api.Gradebook(f"sqlite:///{tmp_path / 'other.db'}")
    with pytest.raises(pytest.fail.Exception, match="inspected again"):
        api.Gradebook(url, course_id="another")


# -- nbgrader's SaveAutoGrades: the grades read once, one commit ----------------------------------
def test_save_autogrades_is_the_one_replaced():
    from nbgrader import api
    from nbgrader.preprocessors import saveautogrades as module

    patch = "autogrades_saved_at_once"
    for obj, recorded in ((module.SaveAutoGrades._add_score, "ee891a8fe3657ce7"),
                          (module.SaveAutoGrades._add_comment, "31f0186fac9c23ec"),
                          (api.Gradebook.find_grade, "b1a48e74233391ce"), (api.Gradebook.find_comment, "bcb9b4f7da3c0752")):
        assert_unchanged(obj, recorded, patch)
    if not getattr(module.SaveAutoGrades.preprocess, "at_once", False):
        assert_unchanged(module.SaveAutoGrades.preprocess, "edef3c387d5c104a", patch)


def _saved(tmp_path, name: str, nb, at_once: bool) -> dict:
    """Day 1's 00_environment handed in by one student, its grades saved by SaveAutoGrades (nbgrader's own,
    or with autogrades_saved_at_once): every grade's and comment's fields."""
    import shutil

    from nbgrader import api
    from nbgrader.preprocessors import saveautogrades as module

    from grader.grades import gradebook
    from tools.notebooks import SOLUTIONS

    template = gradebook.build_template("day1", SOLUTIONS / "day1", gradebook.CACHE)
    db = tmp_path / f"{name}.db"
    shutil.copyfile(gradebook.notebook_template(template, "day1", "00_environment"), db)
    url = f"sqlite:///{db}"
    with api.Gradebook(url) as gb:
        gb.add_student("ann")
        gb.add_submission("day1", "ann")
    saver = module.SaveAutoGrades()
    if at_once:
        saver.preprocess = compat_preprocess(saver)
    resources = {"nbgrader": {"notebook": "00_environment", "assignment": "day1", "student": "ann", "db_url": url}}
    saver.preprocess(nb, resources)
    with api.Gradebook(url) as gb:
        sub = gb.find_submission_notebook("00_environment", "day1", "ann")
        return {"grades": {g.name: (g.auto_score, g.needs_manual_grade) for g in sub.grades},
                "comments": {c.name: c.auto_comment for c in sub.comments}}


def compat_preprocess(saver):
    """The patched method, bound to ``saver``, without patching the class for the rest of the process."""
    from nbgrader.preprocessors import saveautogrades as module

    original = module.SaveAutoGrades.preprocess
    try:
        compat.autogrades_saved_at_once()
        return module.SaveAutoGrades.preprocess.__get__(saver)
    finally:
        module.SaveAutoGrades.preprocess = original


@pytest.mark.filterwarnings("ignore:Object of type:sqlalchemy.exc.SAWarning")  # nbgrader's add_submission, in the set-up
def test_autogrades_saved_at_once_as_nbgrader_saves_them(tmp_path):
    """The same scores, review flags and comments as nbgrader's own SaveAutoGrades: a solved copy with one
    failed check and one answer left as released."""
    from nbformat.v4 import new_output

    from ptcourse.nbmodel import nbgrader_meta, role
    from tools.classroom import solved, untouched

    nb = solved("day1", "00_environment")
    blank = {nbgrader_meta(c).get("grade_id"): c for c in untouched("day1", "00_environment").cells}
    tests = [c for c in nb.cells if role(c) == "test"]
    tests[0].outputs = [new_output("error", ename="AssertionError", evalue="no", traceback=[])]
    answer = next(c for c in nb.cells if role(c) == "solution")
    answer.source = blank[nbgrader_meta(answer)["grade_id"]].source
    ours, theirs = _saved(tmp_path, "ours", nb, True), _saved(tmp_path, "theirs", nb, False)
    assert ours == theirs
    assert 0 in {score for score, _ in ours["grades"].values()} and "No response." in ours["comments"].values()


# -- nbgrader's OverwriteCells: the course's cells read once --------------------------------------
def test_overwrite_cells_is_the_one_replaced():
    from nbgrader import api
    from nbgrader.preprocessors import overwritecells as module

    patch = "course_cells_read_once"
    for obj, recorded in ((module.OverwriteCells.preprocess_cell, "663c856017e542de"),
                          (module.OverwriteCells.add_missing_grade_cells, "f4ca1468d48ab2df"),
                          (module.OverwriteCells.add_missing_task_cells, "479e921aed437e9f"),
                          (api.Gradebook.find_source_cell, "0d0ef04711fab86a"),
                          (api.Gradebook.find_graded_cell, "68291d97eb3cd85b")):
        assert_unchanged(obj, recorded, patch)
    if not getattr(module.OverwriteCells.preprocess, "read_once", False):
        assert_unchanged(module.OverwriteCells.preprocess, "3a94b453d8e53bee", patch)


def _overwritten(tmp_path, name: str, nb, read_once: bool, add_missing: bool, caplog) -> tuple:
    """Day 1's 00_environment after OverwriteCells (nbgrader's own, or with course_cells_read_once): the
    notebook, and what it logged."""
    import copy
    import logging
    import shutil

    from nbgrader.preprocessors import overwritecells as module

    from grader.grades import gradebook
    from tools.notebooks import SOLUTIONS

    template = gradebook.build_template("day1", SOLUTIONS / "day1", gradebook.CACHE)
    db = tmp_path / f"{name}.db"
    shutil.copyfile(gradebook.notebook_template(template, "day1", "00_environment"), db)
    original = module.OverwriteCells.preprocess
    try:
        if read_once:
            compat.course_cells_read_once()
        step = module.OverwriteCells(add_missing_cells=add_missing)
        step.log = logging.getLogger(f"overwrite-{name}")
        caplog.clear()
        with caplog.at_level(logging.WARNING):
            out, _ = step.preprocess(copy.deepcopy(nb), {"nbgrader": {
                "notebook": "00_environment", "assignment": "day1", "db_url": f"sqlite:///{db}"}})
        return out, [r.getMessage() for r in caplog.records]
    finally:
        module.OverwriteCells.preprocess = original


@pytest.mark.parametrize("add_missing", [False, True])
def test_course_cells_read_once_overwrite_as_nbgrader_does(tmp_path, caplog, add_missing):
    """The same notebook and the same warnings as nbgrader's own OverwriteCells, on a hand-in with every
    change it undoes: a locked cell edited, points and a lock changed, a cell's type changed, a cell the
    course does not know, a graded cell deleted."""
    from ptcourse.nbmodel import nbgrader_meta, role
    from tools.classroom import solved

    nb = solved("day1", "00_environment")
    tests = [c for c in nb.cells if role(c) == "test"]
    tests[0].source += "\nprint('edited')"
    nbgrader_meta(tests[1])["points"] = 99
    nbgrader_meta(tests[2])["locked"] = False
    readonly = next(c for c in nb.cells if nbgrader_meta(c).get("locked") and not nbgrader_meta(c).get("grade"))
    readonly.cell_type = "markdown"
    readonly.pop("outputs", None)
    readonly.pop("execution_count", None)
    if not add_missing:  # nbgrader's add_missing_grade_cells raises KeyError on a cell whose id it dropped
        stranger = next(c for c in nb.cells if role(c) == "solution")  # (grader/intake/repair.py removes such ids)
        nbgrader_meta(stranger)["grade_id"] = "not_in_the_course"
    nb.cells.remove(tests[-1])
    ours = _overwritten(tmp_path, "ours", nb, True, add_missing, caplog)
    theirs = _overwritten(tmp_path, "theirs", nb, False, add_missing, caplog)
    assert ours == theirs
    assert len(ours[1]) >= 5, ours[1]  # each change was seen
    assert any("missing grade cell" in w.lower() for w in ours[1]) == add_missing, ours[1]


# -- nbgrader's determine_grade: a warning is no failure ------------------------------------------
def graded_cell(*outputs):
    from nbformat.v4 import new_code_cell

    cell = new_code_cell("check()")
    cell.metadata["nbgrader"] = {"grade": True, "grade_id": "t", "points": 2, "solution": False, "locked": True,
                                 "schema_version": 3}
    cell.outputs = list(outputs)
    return cell


def test_determine_grade_is_the_one_wrapped():
    """nbgrader still fails a cell on stderr (what the wrapper undoes), and its callers still call it through
    the module (what the wrapper replaces)."""
    import nbgrader.utils as utils
    from nbgrader import validator
    from nbgrader.preprocessors import saveautogrades

    upstream = getattr(utils.determine_grade, "__wrapped__", utils.determine_grade)
    assert_unchanged(upstream, "f97b74436f014b62", "warnings_never_fail")
    assert 'output.name == "stderr"' in inspect.getsource(upstream)
    assert "utils.determine_grade(cell, self.log)" in inspect.getsource(saveautogrades.SaveAutoGrades)
    assert "utils.determine_grade(cell, self.log)" in inspect.getsource(validator.Validator._get_failed_cells)


def test_warnings_never_fail(monkeypatch):
    """A warning costs nothing; an exception still costs the check, with or without a warning beside it."""
    import nbgrader.utils as utils
    from nbformat.v4 import new_output

    warning = new_output("stream", name="stderr", text="x.py:3: UserWarning: Implicit dimension choice\n")
    error = new_output("error", ename="CheckFailed", evalue="wrong", traceback=[])
    stock = getattr(utils.determine_grade, "__wrapped__", utils.determine_grade)
    monkeypatch.setattr(utils, "determine_grade", stock)
    assert utils.determine_grade(graded_cell(warning)) == (0, 2.0)  # nbgrader's own rule
    compat.warnings_never_fail()
    compat.warnings_never_fail()  # twice: still one wrapper
    assert utils.determine_grade.__wrapped__ is stock
    assert utils.determine_grade(graded_cell(warning)) == (2.0, 2.0)
    assert utils.determine_grade(graded_cell(warning, error)) == (0, 2.0)
    assert utils.determine_grade(graded_cell(error)) == (0, 2.0)
    assert utils.determine_grade(graded_cell()) == (2.0, 2.0)
    cell = graded_cell(warning)
    utils.determine_grade(cell)
    assert cell.outputs == [warning], "the learner's warning stays in the graded notebook"


def test_an_error_decides_even_after_a_displayed_value(monkeypatch):
    """nbgrader lets a cell's first ``execute_result`` decide (a text that is no number: full marks); with a
    learner's ``ast_node_interactivity = 'all'`` a test cell's docstring is one, before its failed check."""
    import nbgrader.utils as utils
    from nbformat.v4 import new_output

    docstring = new_output("execute_result", data={"text/plain": "'The grid has the asked shape.'"}, execution_count=3)
    error = new_output("error", ename="NotImplementedError", evalue="not done yet", traceback=[])
    stock = getattr(utils.determine_grade, "__wrapped__", utils.determine_grade)
    monkeypatch.setattr(utils, "determine_grade", stock)
    assert utils.determine_grade(graded_cell(docstring, error)) == (2.0, 2.0)  # nbgrader's own rule: full marks
    compat.warnings_never_fail()
    assert utils.determine_grade(graded_cell(docstring, error)) == (0, 2.0)
    assert utils.determine_grade(graded_cell(docstring)) == (2.0, 2.0)
    cell = graded_cell(docstring, error)
    utils.determine_grade(cell)
    assert cell.outputs == [docstring, error], "the graded notebook keeps its outputs in their order"


# -- nbgrader's preprocessor lists ---------------------------------------------------------------
def names(classes) -> list[str]:
    """Each class by the public name the copies use (nbgrader.preprocessors.X, nbconvert.preprocessors.X)."""
    out = []
    for cls in classes:
        package = cls.__module__.split(".")[0] + ".preprocessors"
        assert getattr(importlib.import_module(package), cls.__name__) is cls
        out.append(f"{package}.{cls.__name__}")
    return out


def test_autograde_preprocessors_copy_is_nbgraders():
    from nbgrader.converters import Autograde

    upstream = names(Autograde.class_traits()["autograde_preprocessors"].default())
    assert upstream == list(compat.NBGRADER_AUTOGRADE_PREPROCESSORS), (
        "nbgrader's Autograde.autograde_preprocessors changed: update compat.NBGRADER_AUTOGRADE_PREPROCESSORS")
    ours = compat.autograde_preprocessors("grader.jail.execute.JailedExecute")
    assert ours[0] == "grader.jail.execute.JailedExecute" and ours[1:] == upstream[1:]


def test_the_job_configuration_names_the_copy():
    from grader.run import jobs

    for name in compat.autograde_preprocessors("grader.jail.execute.JailedExecute"):
        assert f'    "{name}",\n' in jobs.JOB_CONFIG


def test_validator_preprocessors_copy_is_nbgraders():
    code = ("from nbgrader.validator import Validator; "
            "print([f'{c.__module__}:{c.__name__}' for c in Validator.class_traits()['preprocessors'].default()])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True).stdout
    upstream = [f"nbgrader.preprocessors.{entry.split(':')[1]}" for entry in ast.literal_eval(out.strip())]
    assert upstream == list(compat.NBGRADER_VALIDATOR_PREPROCESSORS), (
        "nbgrader's Validator.preprocessors changed: update compat.NBGRADER_VALIDATOR_PREPROCESSORS")
    from nbgrader.validator import Validator

    assert not Validator.class_traits()["preprocessors"].metadata.get("config"), (
        "Validator.preprocessors is configurable now: configure it instead of compat.set_validator_preprocessors")


def test_validator_runs_the_repair_first_and_the_notes_last(monkeypatch):
    from nbgrader.validator import Validator

    from grader.intake import validate

    trait = Validator.class_traits()["preprocessors"]
    monkeypatch.setattr(trait, "default_value", trait.default_value)  # put back after the test
    validate.use_in_validator()
    found = trait.default()
    assert found[0] is validate.RepairForValidate and found[-1] is validate.NotesForValidate
    assert names(found[1:-1]) == list(compat.NBGRADER_VALIDATOR_PREPROCESSORS)


# -- jupyter_client's kernel manager -----------------------------------------------------------------
KERNEL_MANAGER = {  # the private coroutines KernelManagerPatches overrides: their signatures
    "_async_interrupt_kernel": "(self) -> None",
    "_async_kill_kernel": "(self, restart: bool = False) -> None",
    "_async_pre_start_kernel": "(self, *, transport_encryption: str | None = None, **kw: Any) -> "
                               "Tuple[List[str], Dict[str, Any]]",
    "_async_is_alive": "(self) -> bool",  # called by the rewritten kill
}


@pytest.mark.parametrize("name", sorted(KERNEL_MANAGER))
def test_kernel_manager_private_coroutines(name):
    from jupyter_client.manager import AsyncKernelManager

    upstream = getattr(AsyncKernelManager, name, None)
    assert upstream is not None, f"jupyter_client's AsyncKernelManager.{name} is gone: re-check KernelManagerPatches"
    assert inspect.iscoroutinefunction(upstream)
    assert_signature(upstream, KERNEL_MANAGER[name], "KernelManagerPatches")


@pytest.mark.parametrize("name", ["_async_interrupt_kernel", "_async_kill_kernel", "_async_pre_start_kernel"])
def test_kernel_manager_still_calls_the_overridden_coroutines_through_self(name):
    """An override only counts if jupyter_client looks the coroutine up on the instance (shutdown, start)."""
    import jupyter_client.manager

    assert f"await self.{name}(" in inspect.getsource(jupyter_client.manager), (
        f"jupyter_client no longer calls self.{name}(): KernelManagerPatches.{name} would never run")


def test_kernel_manager_kill_is_the_one_rewritten():
    """KernelManagerPatches._async_kill_kernel is jupyter_client's, with the grader's kill and shorter waits."""
    from jupyter_client.manager import AsyncKernelManager

    assert_unchanged(AsyncKernelManager._async_kill_kernel, "9850bc22c85871db", "KernelManagerPatches._async_kill_kernel")
    assert {"has_kernel", "provisioner"} <= set(dir(AsyncKernelManager))


def test_the_jailed_kernel_manager_uses_the_patches():
    from grader.jail.execute import JailedKernelManager

    for name in ("_async_interrupt_kernel", "_async_kill_kernel", "_async_pre_start_kernel"):
        assert getattr(JailedKernelManager, name) is getattr(compat.KernelManagerPatches, name)
    for hook in ("_skip_interrupt", "_kills_itself", "_kill_process", "_before_start"):
        assert getattr(JailedKernelManager, hook) is not getattr(compat.KernelManagerPatches, hook), hook


# -- nbclient's kernel client start ------------------------------------------------------------------
def test_kernel_client_start_is_the_one_copied():
    from nbclient import NotebookClient

    assert_unchanged(NotebookClient.async_start_new_kernel_client, "0034f6fd2447b05f",
                     "KernelClientStart.async_start_new_kernel_client (a copy of it)")
    assert inspect.iscoroutinefunction(NotebookClient._async_cleanup_kernel)
    assert_signature(NotebookClient._async_cleanup_kernel, "(self) -> 'None'", "KernelClientStart")


def test_notebook_client_starts_its_client_through_self():
    """nbclient's setup_kernel (sync) and async_setup_kernel call the overridden methods on the instance."""
    import nbclient.client

    source = inspect.getsource(nbclient.client)
    assert "self.start_new_kernel_client()" in source and "await self.async_start_new_kernel_client()" in source


def test_kernel_client_wait_for_ready_takes_a_timeout():
    from jupyter_client.asynchronous.client import AsyncKernelClient

    assert_signature(AsyncKernelClient.wait_for_ready, "(self, timeout: float | None = None) -> None",
                     "KernelClientStart._wait_ready")


def test_jailed_execute_uses_the_copy():
    from nbgrader.preprocessors import Execute

    from grader.jail.execute import JailedExecute

    for name in ("async_start_new_kernel_client", "start_new_kernel_client"):
        assert getattr(JailedExecute, name) is getattr(compat.KernelClientStart, name)
    assert JailedExecute.__mro__.index(compat.KernelClientStart) < JailedExecute.__mro__.index(Execute)


NOTEBOOK_CLIENT = {  # other names of nbclient that grader.jail.execute's JailedExecute overrides or calls
    "setup_kernel": "(self, **kwargs: 't.Any') -> 't.Generator[None, None, None]'",
    "output": "(self, outs: 'list[NotebookNode]', msg: 'dict[str, t.Any]', display_id: 'str | None', "
              "cell_index: 'int') -> 'NotebookNode | None'",
}


@pytest.mark.parametrize("name", sorted(NOTEBOOK_CLIENT))
def test_notebook_client_names_execute_overrides(name):
    from nbclient import NotebookClient

    assert_signature(getattr(NotebookClient, name), NOTEBOOK_CLIENT[name], f"grader.execute.JailedExecute.{name}")


EXECUTE = {  # nbgrader's Execute (an nbconvert ExecutePreprocessor): what JailedExecute overrides
    "preprocess": "(self, nb: 'NotebookNode', resources: 't.Any' = None, km: 'KernelManager | None' = None) -> "
                  "'tuple[NotebookNode, dict[str, t.Any]]'",
    "preprocess_cell": "(self, cell, resources, index)",
}


@pytest.mark.parametrize("name", sorted(EXECUTE))
def test_execute_names_jailed_execute_overrides(name):
    from nbgrader.preprocessors import Execute

    assert_signature(getattr(Execute, name), EXECUTE[name], f"grader.execute.JailedExecute.{name}")


def test_setup_kernel_still_takes_cleanup_kc():
    """JailedExecute.setup_kernel asks nbclient to shut down the early kernel too (``cleanup_kc``)."""
    from nbclient import NotebookClient

    assert 'kwargs.pop("cleanup_kc"' in inspect.getsource(NotebookClient.setup_kernel).replace("'", '"')
    assert callable(NotebookClient._cleanup_kernel)


# -- torch, as the course package's spies and pretend accelerator patch it ---------------------------
# ptcourse cannot import the grader, so its two modules that patch torch say which torch they were
# written against themselves (WRITTEN_AGAINST); the checks are the same as for grader/compat.py.
def torch_patchers():
    from ptcourse import placement, spies

    return {"src/ptcourse/spies.py": spies, "src/ptcourse/placement.py": placement}


def release(version: str) -> str:
    return version.split("+")[0]  # torch's wheels add a local label: 2.14.1+cu130


@pytest.mark.parametrize("where", sorted(torch_patchers()))
def test_torch_is_the_version_the_course_package_patches(where):
    written = torch_patchers()[where].WRITTEN_AGAINST["torch"]
    installed = release(importlib.metadata.version("torch"))
    assert installed == written, (f"torch {installed} is installed; {where} was written against {written}: run "
                                  "tests/test_compat.py, fix what fails, then update WRITTEN_AGAINST and the pin")
    assert pins(ROOT / "requirements.txt").get("torch") == written, f"pin torch=={written} in requirements.txt"


TORCH_WRAPPED = {  # ptcourse.spies.watch_training: what it wraps or relies on, by source hash
    "torch.nn.functional.cross_entropy": "a5ec7a23e87b7e65",  # calls torch._C._nn.cross_entropy_loss (spied)
    "torch.nn.functional.mse_loss": "9b230b165b491b0c",  # calls torch._C._nn.mse_loss (spied)
    "torch.Tensor.backward": "6ae4d081ac870b27",  # calls torch.autograd.backward (spied)
    "torch.autograd.backward": "62b6b8e3c41b31f8",
    "torch.optim.Optimizer.zero_grad": "9f078e038d685947",
    "torch.nn.Module.zero_grad": "e2acaefe95021c77",
    "torch.optim.optimizer.register_optimizer_step_pre_hook": "73e588be45ba2a99",
}
TORCH_REPLACED = {  # ptcourse.placement._patched: what it replaces while watching, by source hash
    "torch.amp.autocast_mode.autocast.__init__": "8d127725b9698d2b",
    "torch.nn.Module.to": "b53b0578ca1b2992",
    "torch.nn.Module.cuda": "a3f558ba5849fa2c",
    "torch.nn.Module.cpu": "c42c183984cd7e69",
}


def torch_object(name: str):
    """The object a dotted name names: its longest importable module, then attributes."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for part in parts[cut:]:
            obj = getattr(obj, part)
        return obj
    raise ImportError(name)


@pytest.mark.parametrize("name", sorted(TORCH_WRAPPED))
def test_what_the_training_spies_wrap_is_unchanged(name):
    assert_unchanged(torch_object(name), TORCH_WRAPPED[name], "watch_training", "src/ptcourse/spies.py")


@pytest.mark.parametrize("name", sorted(TORCH_REPLACED))
def test_what_the_pretend_accelerator_replaces_is_unchanged(name):
    assert_unchanged(torch_object(name), TORCH_REPLACED[name], "_patched", "src/ptcourse/placement.py")


def test_torch_still_calls_what_the_spies_replace_through_its_modules():
    """A spy set on a module attribute only counts if torch looks the name up there at each call."""
    import torch
    import torch.nn.functional as F

    from ptcourse import spies

    sources = {"cross_entropy_loss": inspect.getsource(F.cross_entropy), "mse_loss": inspect.getsource(F.mse_loss)}
    for name in spies.LOSS_FUNCTIONS:
        assert f"torch._C._nn.{name}(" in sources[name], f"nn.functional no longer calls torch._C._nn.{name}"
    assert "torch.autograd.backward(" in inspect.getsource(torch.Tensor.backward)
    assert callable(torch._C._nn._parse_to) and isinstance(torch.Tensor.device.__get__(torch.zeros(1)), torch.device)


def test_the_autocast_spy_takes_autocasts_arguments():
    import torch

    assert_signature(torch.amp.autocast_mode.autocast.__init__, "(self, device_type: str, dtype: torch.dtype | None = "
                     "None, enabled: bool = True, cache_enabled: bool | None = None)", "placement._patched's spy_init")


# -- pytest-xdist, as tests/conftest.py's scheduler overrides it -------------------------------------
def test_xdist_is_the_version_the_scheduler_overrides():
    from tests import conftest

    written = conftest.XDIST_WRITTEN_AGAINST["pytest-xdist"]
    assert importlib.metadata.version("pytest-xdist") == written, (
        f"pytest-xdist {importlib.metadata.version('pytest-xdist')} is installed; tests/conftest.py's GroupScheduling "
        f"was written against {written}: run tests/test_compat.py, fix what fails, then update the pins")
    assert pins(ROOT / "requirements-dev.txt").get("pytest_xdist") == written, f"pin pytest-xdist=={written}"


def test_the_scheduler_overrides_an_unchanged_method():
    from xdist.scheduler import LoadScopeScheduling

    assert_unchanged(LoadScopeScheduling._split_scope, "f57bdab44e69867b", "GroupScheduling._split_scope",
                     "tests/conftest.py")
    assert "self._split_scope(nodeid)" in inspect.getsource(LoadScopeScheduling), (
        "xdist's LoadScopeScheduling no longer asks self._split_scope: re-check tests/conftest.py's GroupScheduling")
    assert_signature(LoadScopeScheduling.__init__, "(self, config: 'pytest.Config', log: 'Producer | None' = None) -> "
                     "'None'", "GroupScheduling(config, log) in tests/conftest.py")


# -- the one-notebook template's prepared hand-in (grader/grades/gradebook.py) --------------------
def test_prepared_hand_in_rests_on_an_unchanged_nbgrader():
    """nbgrader's autograde finds a hand-in's submission already there and only updates it: the code
    that decides it, as the prepared hand-in was written against (nbgrader 0.9.6)."""
    from nbgrader import api
    from nbgrader.converters import autograde

    patch = "gradebook.claim_hand_in"
    assert_unchanged(api.Gradebook.add_submission, "cde077cbf605e4db", patch, "grader/grades/gradebook.py")
    assert_unchanged(api.Gradebook.update_or_create_submission, "abee451ffde6c4c3", patch, "grader/grades/gradebook.py")
    assert_unchanged(autograde.Autograde.init_assignment, "a7c144dc746ec205", patch, "grader/grades/gradebook.py")


def _handed_in_rows(db: Path, student: str, timestamp: str | None) -> dict:
    """What nbgrader's autograde leaves in a job's gradebook for ``student``'s hand-in before it grades
    (its ``init_assignment`` calls), as plain values: every table's row count, and the submission's
    fields, notebooks, grades and comments."""
    import sqlite3

    from nbgrader import api

    url = f"sqlite:///{db}"
    with api.Gradebook(url) as gb:
        gb.update_or_create_student(student)
        gb.update_or_create_submission("day1", student, **({"timestamp": timestamp} if timestamp else {}))
    with api.Gradebook(url) as gb:
        sub = gb.find_submission("day1", student)
        found = {"student": (sub.student.id, sub.student.first_name, sub.student.last_name, sub.student.email),
                 "submission": (str(sub.timestamp), sub.extension, sub.assignment.name),
                 "notebooks": {nb.name: (sorted((g.name, g.auto_score, g.manual_score, g.extra_credit)
                                                for g in nb.grades),
                                         sorted((c.name, c.auto_comment, c.manual_comment) for c in nb.comments),
                                         nb.flagged)
                               for nb in sub.notebooks}}
    with sqlite3.connect(str(db)) as con:
        tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        found["rows"] = {name: con.execute(f'SELECT COUNT(*) FROM "{name}"').fetchone()[0] for name in tables}
    con.close()
    return found


@pytest.mark.filterwarnings("ignore:Object of type:sqlalchemy.exc.SAWarning")  # nbgrader's add_submission
@pytest.mark.parametrize("timestamp", [None, "2026-12-01 10:00:00.000000 UTC"])
def test_prepared_hand_in_is_what_nbgrader_makes(tmp_path, timestamp):
    """A job's copy of the one-notebook template, its prepared hand-in given to the student, holds after
    nbgrader's own calls exactly what nbgrader makes on a copy without one (which claiming leaves alone)."""
    import shutil

    from nbgrader import api

    from grader.grades import gradebook
    from tools.notebooks import SOLUTIONS

    template = gradebook.build_template("day1", SOLUTIONS / "day1", gradebook.CACHE)
    one = gradebook.notebook_template(template, "day1", "01_tensors")
    prepared, plain = tmp_path / "prepared.db", tmp_path / "plain.db"
    shutil.copyfile(one, prepared)
    shutil.copyfile(one, plain)
    with api.Gradebook(f"sqlite:///{plain}") as gb:  # the template as it was before it held a hand-in
        gb.remove_submission("day1", gradebook.HAND_IN)
        gb.remove_student(gradebook.HAND_IN)
    for db in (prepared, plain):
        gradebook.claim_hand_in(db, "ann")
    ours, theirs = _handed_in_rows(prepared, "ann", timestamp), _handed_in_rows(plain, "ann", timestamp)
    assert ours == theirs
    assert ours["rows"]["student"] == 1 and ours["rows"]["submitted_assignment"] == 1
    assert len(ours["notebooks"]["01_tensors"][0]) > 5  # the notebook's graded cells, each an empty grade


# -- no patch outside compat ---------------------------------------------------------------------
UPSTREAM = ("nbgrader", "nbclient", "jupyter_client", "jsonschema", "common", "api")


def test_no_patch_outside_compat():
    """Nothing else in grader/ assigns into an upstream module, sys.modules or a class trait."""
    found = []
    for path in sorted((ROOT / "grader").rglob("*.py")):
        if path.stem in ("compat", "kernel_guard"):  # kernel_guard: the learner's kernel, none of these packages
            continue
        text = path.read_text()
        for node in ast.walk(ast.parse(text)):
            targets = node.targets if isinstance(node, ast.Assign) else []
            for target in targets:
                base = target
                while isinstance(base, (ast.Attribute, ast.Subscript)):
                    base = base.value
                if isinstance(target, (ast.Attribute, ast.Subscript)) and isinstance(base, ast.Name) and (
                        base.id in UPSTREAM or base.id == "sys" and ast.unparse(target).startswith("sys.modules")):
                    found.append(f"{path.name}:{node.lineno}: {ast.unparse(target)}")
        found += [f"{path.name}: class_traits()" for _ in re.finditer(r"class_traits\(\)", text)]
    assert not found, f"patches of upstream code belong in grader/compat.py: {found}"


def test_a_changed_upstream_is_caught():
    """The checks themselves: another hash or signature fails, and the message says what to re-check."""
    with pytest.raises(AssertionError, match="re-check schema_checked_once"):
        assert_unchanged(compat.schema_checked_once, "0" * 16, "schema_checked_once")
    with pytest.raises(AssertionError, match="re-check KernelManagerPatches"):
        assert_signature(compat.autograde_preprocessors, "(self)", "KernelManagerPatches")
