"""Every source notebook runs clean, every mutant of every exercise loses points, and the
notebook as released earns nothing.

A notebook is executed once in a fresh kernel (PyTorch deprecation warnings are errors there);
each mutant then replaces its exercise's solution cell in that same kernel, the exercise's
test cells run, and the original cell is restored (see DEVELOPERS notes on the test budget).
Last, every answer is put back to its released stub, one exercise after the other, and each
graded cell must fail: the untouched copy scores zero (tests/conftest.py runs it last in the
notebook's kernel, which it leaves closed).
"""

from __future__ import annotations

import ast
import os
from pathlib import Path

import pytest

from tests.harness.executed import close_current, executed
from tools import mutants as mutant_catalogue
from tools.notebooks import (
    defined_names,
    exercises,
    nb_key,
    nbgrader_meta,
    read,
    solution_notebooks,
    strip_solution_markers,
    student_copy,
)

NOTEBOOKS = solution_notebooks()
CASES = [(p, m) for p in NOTEBOOKS for m in mutant_catalogue.load(p)]
MIN_MUTANTS = 3


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=nb_key)
def test_solution_runs_clean(path):
    """Top to bottom in a fresh kernel: no error, no warning printed."""
    run = executed(path)
    problems = [f"cell {i}: {r.message}\n{r.traceback[-1500:]}" for i, r in run.errors()]
    problems += [f"cell {i} printed a warning:\n{r.stderr[-800:]}"
                 for i, r in run.results.items() if "Warning" in r.stderr]
    assert not problems, "\n\n".join(problems)


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=nb_key)
def test_grading_zygotes_preload_what_the_solution_imports(path):
    """Each costly module the solution imported (grader/jail/zygote.py NEEDED_BY) is one a run grading this
    notebook has its zygotes import, predicted from its code: else each of its kernels pays 1-2 CPU-s for it."""
    from grader.jail import zygote
    from grader.run import jobs

    run = executed(path)
    costly = sorted({m for _, modules in zygote.NEEDED_BY for m in modules})
    found = run.kernel.run(f"import sys\nprint('IMPORTED', *[m for m in {costly!r} if m in sys.modules])")
    assert found.ok, found.message
    imported = set(next(x for x in found.stdout.splitlines() if x.startswith("IMPORTED")).split()[1:])
    predicted = set(jobs.zygote_preload(path.parent, (path.stem,)))
    assert imported <= predicted, f"imported but not preloaded: {sorted(imported - predicted)}"


def _is_mutant_of(item, path, exercise: str) -> bool:
    """Whether pytest ``item`` tries a mutant of ``exercise`` in notebook ``path``."""
    params = getattr(getattr(item, "callspec", None), "params", {})
    other = params.get("mutant")
    return (item is not None and getattr(item, "originalname", "") == "test_mutant_loses_points"
            and params.get("path") == path and other is not None and other.exercise == exercise)


def _neighbours(request):
    items = request.session.items
    i = next(k for k, it in enumerate(items) if it is request.node)
    return (items[i - 1] if i > 0 else None), (items[i + 1] if i + 1 < len(items) else None)


# The exercise left mutated in the shared kernel by the previous mutant test (path, grade id).
_dirty: dict[str, tuple] = {}


@pytest.mark.slow
@pytest.mark.parametrize("path,mutant", CASES, ids=[f"{nb_key(p)}::{m.exercise}::{m.name}" for p, m in CASES])
def test_mutant_loses_points(path, mutant, request):
    """The mutant fails at least one graded cell of its exercise, with a message that names the mistake.

    It is tried visible tests first (``caught_by`` must say which tests catch it, ``msgid`` which
    message). The solution is restored and its tests re-run once per exercise, after its last
    mutant in a row, not after each mutant.
    """
    run = executed(path)
    assert not run.errors(), "the solution notebook itself fails; see test_solution_runs_clean"
    exercise = {e.grade_id: e for e in exercises(run.nb)}[mutant.exercise]
    kernel = run.kernel
    _, following = _neighbours(request)
    left = _dirty.pop("exercise", None)
    if left is not None and left != (path, mutant.exercise):
        # the previous mutant of another exercise did not restore its solution (it stopped early)
        other = {e.grade_id: e for e in exercises(run.nb)}.get(left[1])
        if left[0] == path and other is not None:
            kernel.run(other.source)
    if (left == (path, mutant.exercise) and mutant_catalogue.needs_fresh_solution(exercise, mutant)) \
            or os.environ.get("PTCOURSE_MUTANT_RESTORE") == "each":
        kernel.run(exercise.source)
    _dirty["exercise"] = (path, mutant.exercise)
    try:
        outcome = mutant_catalogue.try_mutant(kernel, exercise, mutant)
    finally:
        if not _is_mutant_of(following, path, mutant.exercise):
            _dirty.pop("exercise", None)
            problems = mutant_catalogue.restore(kernel, exercise)
            assert not problems, "\n".join(problems)
    if os.environ.get("PTCOURSE_MUTANT_RECORD"):
        mutant_catalogue.record(os.environ["PTCOURSE_MUTANT_RECORD"], path, mutant, outcome)
    assert outcome.defined_ok, f"the mutant's own cell raised (not a plausible answer): {outcome.defined_message}"
    assert outcome.lost > 0, f"mutant '{mutant.name}' passed every test of {exercise.grade_id}: the tests cannot catch it"
    assert outcome.caught_by is not None, (
        f"mutant '{mutant.name}' fails, but the feedback does not say why in plain words.\n"
        f"expected to match: {mutant.expect!r}\ngot:\n{outcome.messages}"
    )
    if os.environ.get("PTCOURSE_MUTANT_RECORD"):
        return
    assert mutant.caught_by == outcome.caught_by, (
        f"mutant '{mutant.name}' is caught by a {outcome.caught_by} test: write caught_by={outcome.caught_by!r}"
        + ("" if outcome.caught_by == "visible" else
           f" (or make a visible test catch it)\nthe visible tests said:\n{outcome.messages}"))
    assert mutant.msgid == outcome.msgid, (
        f"mutant '{mutant.name}' fails with catalogue message {outcome.msgid!r}: write msgid={outcome.msgid!r}")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=nb_key)
def test_every_exercise_has_mutants(path):
    """At least three plausible wrong answers per graded exercise, each a real change."""
    found = {e.grade_id: e for e in exercises(read(path))}
    catalogue = mutant_catalogue.load(path)
    for m in catalogue:
        assert m.exercise in found, f"mutant '{m.name}' names unknown exercise {m.exercise!r}"
        m.apply(found[m.exercise])
    for grade_id, exercise in found.items():
        if exercise.points == 0:
            continue
        count = sum(m.exercise == grade_id for m in catalogue)
        assert count >= MIN_MUTANTS, f"{grade_id}: {count} mutants, want at least {MIN_MUTANTS}"


MIN_VISIBLE = 0.8
# The typical loop bugs of issue 13: a self-paced learner must see them fail in the notebook.
MUST_BE_VISIBLE = {
    "day2/03_cnn_mnist": [("cnn_train_one_epoch", ".to(device) without assigning the result"),
                          ("cnn_train_one_epoch", "softmax before CrossEntropyLoss"),
                          ("cnn_train_one_epoch", "forgets model.train()")],
    "day3/02_mixed_precision": [("amp_train_step", "clips before scaler.unscale_"),
                                ("amp_train_step", "optimizer.step() instead of scaler.step(optimizer)")],
}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=nb_key)
def test_mutants_caught_visibly(path):
    """Each mutant says which tests catch it (proved by test_mutant_loses_points), and at least
    80 % are caught by a visible test: a self-paced learner sees the mistake before grading."""
    catalogue = mutant_catalogue.load(path)
    undeclared = [m.name for m in catalogue if m.caught_by not in mutant_catalogue.CAUGHT_BY]
    assert not undeclared, f"write caught_by='visible' or 'hidden' on: {undeclared}"
    declared = {(m.exercise, m.name): m.caught_by for m in catalogue}
    for key in MUST_BE_VISIBLE.get(nb_key(path), []):
        assert declared.get(key) == "visible", f"{key}: must be caught by a visible test, is {declared.get(key)}"
    if not catalogue:
        return
    visible = sum(m.caught_by == "visible" for m in catalogue)
    hidden = [f"{m.exercise}::{m.name}" for m in catalogue if m.caught_by == "hidden"]
    assert visible >= MIN_VISIBLE * len(catalogue), (
        f"{visible} of {len(catalogue)} mutants ({visible / len(catalogue):.0%}) are caught by a visible "
        f"test, want {MIN_VISIBLE:.0%}; caught only by hidden tests:\n" + "\n".join(hidden))


def catalogue_module(path) -> str:
    """The catalogue module of a notebook's messages: ``day2/03_cnn_mnist`` -> ``day2_03``."""
    return f"{path.parent.name}_{path.stem.split('_')[0]}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=nb_key)
def test_mutant_messages_in_every_catalogue(path):
    """The message each mutant fails with (its proved ``msgid``) exists in every language whose
    catalogue has this notebook's module, so no learner gets a fallback for a known mistake."""
    from ptcourse import catalogue as packages
    from ptcourse.messages import catalogue

    ids = {m.msgid for m in mutant_catalogue.load(path) if m.msgid}
    module = catalogue_module(path)
    for folder in sorted(Path(packages.__file__).parent.iterdir()):
        if not (folder / f"{module}.py").exists():
            continue
        missing = sorted(ids - set(catalogue(folder.name)))
        assert not missing, f"catalogue {folder.name!r} lacks the mutants' message ids {missing}"


def _uses(source: str) -> set[str] | None:
    """The names a code cell reads (None: it does not parse, so it may read anything)."""
    from IPython.core.inputtransformer2 import TransformerManager

    try:
        tree = ast.parse(TransformerManager().transform_cell(source))
    except (SyntaxError, ValueError):
        return None
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}


def _forget(kernel, names: set[str]) -> None:
    if names:
        kernel.run(f"for _n in {sorted(names)!r}:\n    globals().pop(_n, None)\ndel _n")


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=nb_key)
def test_untouched_copy_earns_nothing(path):
    """A notebook handed in as it was released earns nothing: every graded cell, hidden tests
    included, fails once the answers are the released stubs.

    The live kernel replays the notebook from its first exercise as an untouched copy would run
    it: each answer cell is the committed student copy's (``dayN/``: ``# YOUR CODE HERE`` /
    ``raise NotImplementedError()``), what the answer defined forgotten first; given code that reads
    a name an answer (or such given code) defined runs again, what it defines forgotten first; every
    graded cell runs, in order. Given code that reads none of them computes what it computed in the
    solved run, and is not run again (day3/03 and 06's worked examples take a minute in full). That
    the class grader turns failing cells into zero points, through nbgrader in the jail, is proved on
    day1/00 (tests/test_grader.py: the hostile class's ``untouched`` scores 0, cell by cell what
    sequential ``nbgrader autograde`` gives). The kernel is closed afterwards: its answers are stubs.
    """
    run = executed(path)
    assert not run.errors(), "the solution notebook itself fails; see test_solution_runs_clean"
    _dirty.pop("exercise", None)
    released = {nbgrader_meta(c).get("grade_id"): c.source for c in read(student_copy(path)).cells
                if nbgrader_meta(c).get("solution") and c.cell_type == "code"}
    answers = {e.index: e for e in exercises(run.nb)}
    graded = {t.index: t for e in answers.values() for t in e.tests}
    stale: set[str] = set()  # names whose solved-run value an untouched copy would not have
    earned, replayed = [], []
    try:
        for i, cell in enumerate(run.nb.cells):
            if cell.cell_type != "code" or not answers or i < min(answers):
                continue
            if i in answers:
                exercise = answers[i]
                stub = released[exercise.grade_id]
                assert "NotImplementedError" in stub, f"{exercise.grade_id}: the released cell is not a stub:\n{stub}"
                names = defined_names(strip_solution_markers(exercise.source))
                _forget(run.kernel, names)
                run.kernel.run(stub)  # a stub at the cell's top level raises, as in the untouched copy
                stale |= names
            elif i in graded:
                test = graded[i]
                if test.points > 0 and run.kernel.run(test.source).ok:
                    earned.append(f"{test.grade_id} ({test.points:g} points)")
            else:
                reads = _uses(cell.source)
                if reads is None or reads & stale:
                    names = defined_names(cell.source)
                    _forget(run.kernel, names)
                    run.kernel.run(cell.source)
                    stale |= names
                    replayed.append(i)
    finally:
        close_current()
    assert not earned, (f"an untouched copy of {nb_key(path)} earns points with: {', '.join(earned)} "
                        f"(given code cells run again: {replayed})")
