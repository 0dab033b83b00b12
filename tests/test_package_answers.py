"""The course package holds no answers.

Every notebook imports ``ptcourse``, so a public helper that computes what an exercise asks would be
an answer a learner imports instead of writing. For each exercise of days 1 and 2 whose checks observe
(the second key, ``ptcourse.observe``), every public ``ptcourse`` callable that can be called the way
the exercise's function is (its required positional parameters) is put in that function's place, and
the exercise's observing test cells are run armed, with every kernel check passing, as
tools/observation_power.py does for mutants: no candidate may give every observation of the exercise
(judged by the grader's own comparison, ``grader.judge.observations.judge``). The solution itself, put in
place the same way, must give them, and a stand-in that does nothing must not (so the comparison can
tell; ``UNJUDGED`` lists the few functions where it cannot, with the reason).

It runs in the notebook's live kernel, the solution executed once for all of the notebook's tests
(tests/harness/executed.py; tests/conftest.py keeps them in one xdist group, this test after the
mutants and before the untouched copy), and puts back what it changes there. All of an exercise
function's candidates are tried in one request (:data:`BATCH`): for each, the checks off, the cell
armed, the candidate in place, each observing cell run as a cell of its own (IPython's ``run_cell``,
its observations captured), then the checks back on and the solution's cell run again; a candidate
stops at its first cell that observes nothing. A candidate that gives every observation there is tried
again the grader's way, three requests of its own (:meth:`Stand.observes`: a silent one that turns the
checks off, arms the cell and puts the candidate in place; the cell itself; a silent one that disarms,
turns the checks on and runs the solution's cell again), and only that verdict counts. Both ways must
see the solution put back give its observations and a stand-in that does nothing not give them.
(One request for all candidates instead of three each: day1/01 and 02, their solutions' runs included, 30 -> 18 CPU-s.)

The red team's ``PACKAGE_ANSWERS`` (tests/harness/redteam.py) then imports such helpers in untouched
notebooks graded by the class grader: each earns 0 on the checks it targets.
"""

from __future__ import annotations

import json

import pytest

from grader.judge import observations as ob
from grader.run import engine, jobs
from ptcourse.observe import MIME
from tests.harness import redteam
from tests.harness.executed import executed
from tools.classroom import untouched, write_class
from tools.kernel import Kernel
from tools.notebooks import exercises, nb_key, solution_notebooks
from tools.observation_power import CHECKS_OFF, CHECKS_ON, observation_part, sent_observations

SECRET = "package-answers"
# Public callables never tried in a learner's function's place, each with its reason: the second key's
# own machinery (attacking it is the red team's SECOND_KEY_ATTACKS) and helpers that act on the test's own
# kernel or files rather than compute (a hook after every cell, a notebook run, the progress file).
SKIP = {
    "ptcourse.observe.arm": "arms the second key: its attacks are redteam.SECOND_KEY_ATTACKS",
    "ptcourse.observe.observe": "sends observations: its attacks are redteam.SECOND_KEY_ATTACKS",
    "ptcourse.memory.watch": "registers a check after every cell of the kernel",
    "ptcourse.selfcheck.main": "runs a notebook from the command line",
    "ptcourse.selfcheck.check_notebook": "runs a notebook",
    "ptcourse.selfcheck.run_checks": "runs a notebook",
    "ptcourse.progress.make_folder": "writes the course's folders",
    "ptcourse.progress.show_progress": "reads the progress file",
    "ptcourse.show_progress": "reads the progress file",
}

CANDIDATES = """
import importlib as _il, inspect as _ins, json as _js, pkgutil as _pk
import ptcourse as _ptc
def _ptg_candidates(_target, _skip):
    try:
        _sig = _ins.signature(_target)
    except (TypeError, ValueError):
        return []
    _n = sum(1 for _p in _sig.parameters.values()
             if _p.default is _p.empty and _p.kind in (_p.POSITIONAL_ONLY, _p.POSITIONAL_OR_KEYWORD))
    _mods = [_ptc] + [_il.import_module('ptcourse.' + _m.name) for _m in _pk.iter_modules(_ptc.__path__)
                      if _m.name != 'catalogue']
    _out, _seen = [], set()
    for _mod in _mods:
        _names = set(getattr(_mod, '__all__', ())) | {_k for _k, _v in vars(_mod).items()
                                                      if not _k.startswith('_')
                                                      and getattr(_v, '__module__', None) == _mod.__name__}
        for _attr in sorted(_names):
            _obj = getattr(_mod, _attr, None)
            if not callable(_obj) or id(_obj) in _seen or f'{_mod.__name__}.{_attr}' in _skip:
                continue
            _seen.add(id(_obj))
            try:
                _ins.signature(_obj).bind(*range(_n))
            except (TypeError, ValueError):
                continue
            _out.append([_mod.__name__, _attr])
    return _out
"""

# Every candidate of one exercise function in one request (see the module's docstring): what the three
# requests of Stand.observes do, in the kernel, each observing cell run by IPython as a cell of its own.
BATCH = """
def _ptg_batch(_cells, _name, _exprs, _before, _after, _mime):
    from IPython.utils.capture import capture_output
    _ip = get_ipython()
    _all = []
    for _expr in _exprs:
        _got = {}
        try:
            for _i, (_gid, _src, _arm) in enumerate(_cells):
                _armed = _ip.run_cell(_before + "\\n" + _arm + ("\\n" + _name + " = " + _expr if not _i else ""),
                                      silent=True)
                if not _armed.success:
                    _got = None
                    break
                with capture_output() as _cap:
                    _ip.run_cell(_src)
                _sent = [_out.data[_mime] for _out in _cap.outputs if isinstance(_out.data.get(_mime), dict)]
                _got[_gid] = _sent
                if not _sent:
                    break
        finally:
            _back = _ip.run_cell(_after, silent=True)
        if not _back.success:
            raise RuntimeError("the solution's cell fails when run again")
        _all.append(_got)
    print("BATCH:" + _js.dumps(_all))
"""

NOTEBOOKS = [*solution_notebooks("day1"), *solution_notebooks("day2")]
DISARM = "__import__('ptcourse.observe', fromlist=['arm'])._armed.update(key=None)"


def _arm(grade_id: str) -> str:
    """The silent request that arms ``grade_id``'s cell with the test's secret, as the grader arms it."""
    return f"__import__('ptcourse.observe', fromlist=['arm']).arm('power', {ob.cell_seed(SECRET, grade_id)})"


def _candidates(kernel: Kernel, name: str) -> list[tuple[str, str]] | None:
    """The public ptcourse callables that bind ``name``'s required positional parameters (None: ``name``
    is not a callable the solution defines)."""
    result = kernel.run(f"print('CANDIDATES:', _js.dumps(_ptg_candidates({name}, {sorted(SKIP)!r}) "
                        f"if callable(globals().get({name!r})) else None))")
    assert result.ok, result.message
    line = next(x for x in result.stdout.splitlines() if x.startswith("CANDIDATES:"))
    found = json.loads(line.split(":", 1)[1])
    return None if found is None else [tuple(c) for c in found]


class Stand:
    """An exercise's observing test cells run armed, every check passing, with something in place of one of
    its functions (as tools/observation_power.py runs a mutant's). Each cell is a request of its own, as
    in the grader; what goes around it (checks off, the assignment, arming; disarming, checks back on,
    the solution's cell again) rides in one silent request before and one after, not four."""

    def __init__(self, kernel: Kernel, cells: dict[str, str], restore: str):
        self.kernel, self.cells, self.restore = kernel, cells, restore

    def observes(self, ref: dict | None = None, name: str = "", expr: str = "") -> dict[str, dict] | None:
        """Each cell's observations with ``name = expr`` (none: the solution itself), stopping after the
        first cell that differs from ``ref``; None when the assignment raises. The solution's cell is run
        again afterwards, whatever happened."""
        got: dict[str, dict] = {}
        try:
            for i, (grade_id, source) in enumerate(self.cells.items()):
                before = [CHECKS_OFF, _arm(grade_id), f"{name} = {expr}" if name and not i else ""]
                armed = self.kernel.run("\n".join(before), silent=True)
                if not armed.ok:
                    assert i == 0 and name, f"{grade_id}: arming failed: {armed.message}"
                    return None
                got[grade_id] = sent_observations(self.kernel.run(source).outputs)
                if ref is not None and ob.judge(grade_id, ref[grade_id], got[grade_id]) is not None:
                    break
        finally:
            after = self.kernel.run("\n".join([DISARM, CHECKS_ON, self.restore]), silent=True)
            assert after.ok, f"the solution's cell fails when run again: {after.message}"
        return got

    def gives_every_observation(self, ref: dict, name: str, expr: str) -> bool:
        """Whether ``name = expr`` gives the solution's observations in every observing cell."""
        return self.every(ref, self.observes(ref, name, expr))

    def every(self, ref: dict, got: dict | None) -> bool:
        """Whether ``got`` (a run's observations by cell) gives the solution's in every observing cell."""
        return got is not None and all(g in got and ob.judge(g, ref[g], got[g]) is None for g in self.cells)

    def batch(self, ref: dict, name: str, exprs: list[str]) -> list[bool]:
        """For each of ``exprs`` in turn, whether ``name = expr`` gives every observation, all in one request
        (:data:`BATCH`): a quick sieve, each cell run by IPython's ``run_cell``."""
        cells = [(g, source, _arm(g)) for g, source in self.cells.items()]
        result = self.kernel.run(f"_ptg_batch({cells!r}, {name!r}, {exprs!r}, {CHECKS_OFF!r}, "
                                 f"{chr(10).join([DISARM, CHECKS_ON, self.restore])!r}, {MIME!r})")
        # The request's reply is an error whenever one of its cells raised (ipykernel keeps the last error
        # IPython showed), as most candidates do: the batch got to its end if it printed its answer.
        line = next((x for x in result.stdout.splitlines() if x.startswith("BATCH:")), None)
        assert line is not None, f"the batch of candidates failed: {result.message}\n{result.traceback[-1500:]}"
        # each cell's observation payloads, read as the grader reads a cell's messages (sent_observations)
        found = json.loads(line[len("BATCH:"):])
        return [self.every(ref, None if got is None else {
            g: sent_observations([{"content": {"data": {MIME: p}}} for p in payloads]) for g, payloads in got.items()})
            for got in found]


NOTHING = "lambda *args, **kwargs: None"
# Exercise functions for which this test cannot judge a stand-in: an answer that does nothing gives the
# solution's observations in the kernel this test shares with the solution's run, each for its reason.
UNJUDGED = {
    ("ckpt_save_load", "save_checkpoint"): "the cell reads back the file the solution's own run saved there",
}
# The kernel's state this test changes, put back for the notebook's other tests (tests/conftest.py runs
# them in the same live kernel, tests/harness/executed.py): the device setting and its own helpers.
# Most candidates raise in the first cell: IPython's default tracebacks (source lines of every frame) cost
# more than the cell, and are read by nobody here; the shortest ones, as long as this test runs.
HIDE_DEVICE = ("_ptg_device = __import__('os').environ.pop('PTCOURSE_DEVICE', None)\n"
               "_ptg_xmode = get_ipython().InteractiveTB.mode\nget_ipython().InteractiveTB.set_mode('Minimal')")
PUT_BACK = ("if _ptg_device is not None:\n    __import__('os').environ['PTCOURSE_DEVICE'] = _ptg_device\n"
            "get_ipython().InteractiveTB.set_mode(_ptg_xmode)\n"
            "for _n in [_k for _k in globals() if _k.startswith('_ptg_')] + ['_il', '_ins', '_js', '_pk', '_ptc']:\n"
            "    globals().pop(_n, None)\ndel _n")


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=nb_key)
def test_no_public_callable_answers_an_exercise(path):
    """In the notebook's live kernel (its solution run once for all its tests), each callable in turn."""
    run = executed(path)
    assert not run.errors(), "the solution notebook itself fails; see tests/test_notebooks.py"
    kernel = run.kernel
    answers, unjudged, tried, controls = [], [], 0, 0
    # tests/conftest.py fixes PTCOURSE_DEVICE=cpu; a grading kernel may not have it, and a helper that
    # obeys it would look like no answer to pick_device whatever it computes otherwise.
    assert kernel.run(HIDE_DEVICE).ok
    try:
        assert kernel.run(CANDIDATES + BATCH).ok
        for exercise in exercises(run.nb):
            cells = {t.grade_id: t.source for t in exercise.tests if observation_part(t) is not None}
            if not cells:
                continue
            assert not exercise.source.lstrip().startswith("%%"), "a cell magic cannot share a request"
            stand = Stand(kernel, cells, exercise.source)
            ref = stand.observes()
            for name in sorted(exercise.names):
                candidates = _candidates(kernel, name)
                if candidates is None:
                    continue
                assert kernel.run(f"_ptg_solution = {name}").ok
                assert stand.gives_every_observation(ref, name, "_ptg_solution"), (
                    f"{exercise.grade_id}: the solution put back as {name} does not give its own observations")
                controls += 1
                nothing = stand.gives_every_observation(ref, name, NOTHING)
                exprs = [f"__import__('importlib').import_module({m!r}).{a}" for m, a in candidates]
                sieve = stand.batch(ref, name, ["_ptg_solution", NOTHING, *exprs])
                assert sieve[:2] == [True, nothing], (
                    f"{exercise.grade_id} ({name}): the batch sees the solution and a stand-in that does nothing "
                    f"as {sieve[:2]}, one at a time {[True, nothing]}")
                if nothing:
                    unjudged.append((exercise.grade_id, name))
                    continue
                for (module, attr), expr, passed in zip(candidates, exprs, sieve[2:], strict=True):
                    tried += 1
                    if passed and stand.gives_every_observation(ref, name, expr):
                        answers.append(f"{module}.{attr} answers {exercise.grade_id} ({name})")
    finally:
        put_back = kernel.run(PUT_BACK)
    assert put_back.ok, put_back.message
    assert not answers, answers
    assert set(unjudged) <= set(UNJUDGED), f"a stand-in that does nothing gives every observation: {unjudged}"
    print(f"{nb_key(path)}: {tried} candidates tried against {controls} exercise functions")


@pytest.mark.slow
@pytest.mark.parametrize("day", sorted({v[0] for v in redteam.PACKAGE_ANSWERS.values()}))
def test_importing_answers_from_the_package_earns_nothing(tmp_path, monkeypatch, day):
    """Each ``PACKAGE_ANSWERS`` cheat, in an untouched notebook graded by the class grader (guard and
    second key on), scores 0 on every check it targets."""
    monkeypatch.delenv("PTCOURSE_DEVICE", raising=False)  # as a grading machine may run: setup picks the device
    cases = {t: v for t, v in redteam.PACKAGE_ANSWERS.items() if v[0] == day}
    students = {f"import_{t}": {nb: redteam.importing_answer(untouched(day, nb), t)}
                for t, (_, nb, _, _, _) in cases.items()}
    write_class(tmp_path / "submitted", day, students)
    opts = engine.Options(day=day, submissions=tmp_path / "submitted", out=tmp_path / "out",
                          db_url=f"sqlite:///{tmp_path / 'gb.db'}", workers=2, progress=False,
                          limits=jobs.Limits(cell_timeout=120, notebook_timeout=600, threads=1))
    summary = engine.grade_class(opts)
    records = {(r.student, r.notebook): r for r in summary.records}
    for technique, (_, nb, _, _, targets) in cases.items():
        rec = records[f"import_{technique}", nb]
        assert rec.status == "graded", (technique, rec.detail)
        for grade_id in targets:
            assert rec.cells[grade_id].score == 0, (technique, grade_id, rec.cells[grade_id])
