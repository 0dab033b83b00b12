"""The second key: a test cell's points also need the grader's own comparison of its observations.

Fast tests: what travels is plain data (a tensor subclass arrives as numbers, a pickle is refused),
the grader's comparison and its messages, the kernel-side API outside a graded run.
Slow test: a class of ``day1/00_environment`` graded through the command line: the solved notebook
keeps full marks with nothing flagged, the untouched one earns nothing, and answers that read the
expected value from the test's frame, or return objects that lie to comparisons (an always-equal
string, a device whose type equals every name, a dictionary that lists keys it lacks), pass the
kernel's checks but earn 0 on every check they fool, with a plain message and a review flag.
"""

from __future__ import annotations

import base64
import io
import json
import subprocess
import sys

import numpy as np
import pytest
import torch

from grader.judge import observations as ob
from grader.judge.observations import Kind, Observer, ObserveSpec
from ptcourse import observe as kernel
from ptcourse.messages import msg_in, speaking
from ptcourse.nbmodel import course_notebooks
from tests.harness import shared_class
from tools.classroom import solved, untouched, with_code, write_class
from tools.notebooks import ROOT

DAY, NB = "day1", "00_environment"
# Every graded cell of day1/00 observes; between them, the two cheats below fool the kernel in each.
OBSERVED = {"env_pick_device_here", "env_pick_device_priority", "env_environment_report_keys",
            "env_environment_report_values", "env_diagnose_cases", "env_diagnose_uses_report",
            "env_version_at_least_basic", "env_version_at_least_numeric"}


class AlwaysClose(torch.Tensor):
    """A cheat: every comparison PyTorch makes with it says "equal"."""

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        if func in (torch.allclose, torch.equal, torch.Tensor.__eq__, torch.isclose):
            return True
        return super().__torch_function__(func, types, args, kwargs or {})


def _trip(value, name="y") -> ob.Observation:
    """``value`` as the kernel sends it and the grader reads it."""
    return ob.decode({**json.loads(json.dumps(kernel.encode(value))), "name": name})


# -- fast -------------------------------------------------------------------------------------------
def test_a_tensor_subclass_arrives_as_plain_numbers_and_fails():
    want = torch.arange(20.0).reshape(4, 5)
    liar = torch.zeros(4, 5).as_subclass(AlwaysClose)
    assert torch.allclose(liar, want)  # the kernel's own check is fooled
    got = _trip(liar)
    assert got.kind == Kind.TENSOR and type(got.array) is np.ndarray and got.dtype == "float32"
    why = ob.compare(_trip(want), got)
    assert why is not None and "(4, 5) vs (4, 5)" in why and "19" in why


def test_an_honest_tensor_matches_within_tolerance_and_dtype_and_shape_count():
    want = torch.linspace(0, 1, 12).reshape(3, 4)
    assert ob.compare(_trip(want), _trip(want + 1e-7)) is None
    assert ob.compare(_trip(want.to(torch.bfloat16)), _trip(want.to(torch.bfloat16))) is None
    assert "dtype float64" in ob.compare(_trip(want), _trip(want.double()))
    assert "(4, 3) vs (3, 4)" in ob.compare(_trip(want), _trip(want.T.contiguous()))
    assert ob.compare(_trip(torch.tensor([1, 2])), _trip(torch.tensor([1, 3]))) is not None  # ints: exact
    assert ob.compare(_trip(torch.tensor([float("nan")])), _trip(torch.tensor([float("nan")]))) is None


def test_plain_values_are_exact_and_objects_never_match():
    assert ob.compare(_trip(["cpu", True, 3, None]), _trip(("cpu", True, 3, None))) is None
    assert ob.compare(_trip(0.1 + 0.2), _trip(0.3)) is None
    assert "True vs 1" in ob.compare(_trip(1), _trip(True))  # a bool is not an int
    assert ob.compare(_trip([True, False]), _trip([True, True])) is not None

    class Same(str):
        def __eq__(self, other):
            return True

        __hash__ = str.__hash__

    assert Same("x") == "cpu"  # the kernel's own check is fooled
    assert _trip(Same("x")).kind == Kind.OTHER and ob.compare(_trip("cpu"), _trip(Same("x"))) is not None
    assert ob.compare(_trip("cpu"), _trip(object())) is not None
    assert ob.compare(_trip("cpu"), None) is not None  # missing


def test_nothing_is_unpickled():
    buffer = io.BytesIO()
    np.save(buffer, np.array([object()], dtype=object), allow_pickle=True)
    payload = {"kind": "tensor", "dtype": "float32", "npy": base64.b64encode(buffer.getvalue()).decode(), "name": "y"}
    assert ob.decode(payload).kind == Kind.OTHER
    assert ob.decode({"kind": "tensor", "npy": "not base64!", "name": "y"}).kind == Kind.OTHER
    assert ob.decode({"kind": "pickle", "name": "y"}).kind == Kind.OTHER


def test_outside_a_graded_run_observe_does_nothing_and_inputs_are_fixed(monkeypatch):
    monkeypatch.setattr(kernel, "_armed", {"key": None, "seed": kernel.FIXED_SEED, "calls": 0})
    sent = []
    monkeypatch.setattr("IPython.display.publish_display_data", lambda *a, **k: sent.append(a))
    kernel.observe("y", torch.ones(3))
    assert sent == [] and not kernel.armed()
    first = torch.rand(3, generator=kernel.fresh_generator())
    kernel.arm("k1", ob.cell_seed("secret", "cell"))
    a = [torch.rand(3, generator=kernel.fresh_generator()) for _ in range(2)]
    kernel.arm("k2", ob.cell_seed("secret", "cell"))
    b = [torch.rand(3, generator=kernel.fresh_generator()) for _ in range(2)]
    assert all(torch.equal(x, y) for x, y in zip(a, b, strict=True)) and not torch.equal(a[0], a[1])
    assert not torch.equal(first, a[0]) and ob.cell_seed("secret", "cell") != ob.cell_seed("other", "cell")
    kernel.observe("y", torch.ones(3))
    assert sent and sent[0][0][kernel.MIME]["key"] == "k2"


def test_the_observer_keeps_only_this_cells_observations():
    reference = {"cell": {"y": kernel.encode([1, 2])}}
    observer = Observer(ObserveSpec("s", reference))
    observer.arm_expression("cell")
    observer.begin("cell")

    def message(key, value, name="y"):
        return {"msg_type": "display_data",
                "content": {"data": {kernel.MIME: {"key": key, "name": name, **kernel.encode(value)}}}}

    assert observer.take(message("forged", [1, 2]))  # another cell's key: dropped, never shown
    assert not observer.take({"msg_type": "stream", "content": {"text": "hi"}})
    assert observer.judge("cell") is not None  # nothing of this cell's: missing
    observer.take(message(observer._key, [1, 2]))
    assert observer.judge("cell") is None
    observer.take(message(observer._key, [1, 2]))  # the same name twice: neither copy counts
    assert observer.judge("cell") is not None
    observer.end()
    assert observer.judge("other cell") is None  # the course observes nothing there


def test_only_a_part_travels_and_only_the_references_tolerances_count():
    want = torch.arange(6.0).reshape(2, 3)
    liar = torch.zeros(4, 5).as_subclass(AlwaysClose)
    shape = ob.decode({**kernel.encode(liar, "shape"), "name": "s"})
    assert shape.kind == Kind.JSON and shape.value == [4, 5]
    assert kernel.encode(torch.empty(2, 3, device="meta"), "layout")["value"] == [[2, 3], "float32", "meta"]
    assert kernel.encode(torch.empty(2, 3, device="meta"))["kind"] == "other"  # no values: never a crash
    assert kernel.encode(object(), "shape")["kind"] == "other"
    values = kernel.encode(want.int(), "values")
    assert values["dtype"] == "float64" and ob.compare(_trip(want.double()), ob.decode({**values, "name": "y"})) is None
    near = {"y": {**kernel.encode(want), "tol": [0.0, 0.5]}}
    assert ob.judge("c", near, {"y": kernel.encode(want + 0.4)}) is None  # the cell's own atol, from the reference
    assert ob.judge("c", {"y": kernel.encode(want)}, {"y": {**kernel.encode(want + 0.4), "tol": [1.0, 1.0]}})
    assert ob.judge("c", {"y": kernel.encode(want)}, {"y": kernel.encode(want), "z": kernel.encode(1)}) is not None


def test_observations_where_the_course_makes_none_are_forged():
    observer = Observer(ObserveSpec("s", {"cell": {"y": kernel.encode(1)}}))
    observer.arm_expression("other")
    observer.begin("other")
    observer.take({"msg_type": "display_data", "content": {"data": {kernel.MIME: {
        "key": observer._key, "name": "y", **kernel.encode(1)}}}})
    observer.end()
    verdict = observer.judge("other")
    assert verdict is not None and "y" in verdict.message
    reference_run = Observer(ObserveSpec("s", None))
    reference_run.begin("other")
    assert reference_run.judge("other") is None


@pytest.mark.parametrize("key", ["differs", "shape", "dtype", "value", "kind", "missing", "extra"])
def test_messages_exist_in_every_language(key):
    for lang in ("en", "zh-CN"):
        with speaking(lang):
            text = msg_in(lang, f"grader.observe.{key}", name="y", shapes="(4, 5) vs (4, 5)", diff="0.37",
                          expected="a", got="b")
        assert "grader.observe" not in text


def test_the_course_observes_in_hidden_tests_only():
    from grader.run.reference import observes

    for name in (NB, "01_tensors"):
        assert observes(ROOT / "solutions" / DAY / f"{name}.ipynb")
        student = (ROOT / DAY / f"{name}.ipynb").read_text()
        assert "observe(" not in student  # the student copy shows no observation


# -- slow: a class through the command line ---------------------------------------------------------
PEEK = '''
import sys as _sys


def _peek(*names):
    """A cheat: the expected value, read from the test's own frame."""
    frame = _sys._getframe(2)
    while frame is not None:
        for name in names:
            if name in frame.f_locals:
                return frame.f_locals[name]
        frame = frame.f_back
    return None
'''
PEEKING_REPORT = '''

class _Peeking(dict):
    """A report of a GPU machine whose .get() answers with the test's own truth, when it has one."""

    def get(self, key, default=None):
        truth = _peek("truth")
        return truth[key] if isinstance(truth, dict) and key in truth else dict.get(self, key, default)


def environment_report():
    return _Peeking(torch_version=str(torch.__version__), cuda_build="12.1", cuda_available=True,
                    device_name="NVIDIA H100", cudnn_version=90100, arch_list=["sm_90"],
                    threads=torch.get_num_threads())
'''
FRAME_CHEAT = {
    "env_pick_device": PEEK + "\n\ndef pick_device():\n    return torch.device(_peek('want', 'expected_here') or 'cpu')\n",
    "env_environment_report": PEEK + PEEKING_REPORT,
    "env_diagnose": PEEK + "\n\ndef diagnose(report):\n    return _peek('want')\n",
    "env_version_at_least": PEEK + "\n\ndef version_at_least(version, minimum):\n    return bool(_peek('want'))\n",
}
# What the frame cheat fools in the kernel (pick_device_here: its 'cpu' is right on a CPU machine, and
# wrong in the kernel's own check on a GPU one; environment_report_keys: its report has every key).
FRAME_FOOLS = OBSERVED - {"env_pick_device_here", "env_environment_report_keys"}
SAME = '''
class _Same(str):
    def __eq__(self, other):
        return True

    __hash__ = str.__hash__
'''
ALWAYS_EQUAL = {
    "env_pick_device": SAME + '''

class _AnyDevice:
    """Passes isinstance(..., torch.device); its type equals every device name."""

    __class__ = torch.device
    type = _Same("cuda")


def pick_device():
    return _AnyDevice()
''',
    "env_environment_report": '''
class _AllKeys(dict):
    """Lists every key the test wants; holds two."""

    def __iter__(self):
        return iter(("torch_version", "cuda_build", "cuda_available", "device_name", "cudnn_version",
                     "arch_list", "threads"))


def environment_report():
    return _AllKeys(torch_version=str(torch.__version__), threads=torch.get_num_threads())
''',
    "env_diagnose": SAME + '''

def diagnose(report):
    return _Same("gpu_ready")
''',
}
EQUAL_FOOLS = {"env_pick_device_here", "env_pick_device_priority", "env_environment_report_keys",
               "env_diagnose_cases", "env_diagnose_uses_report"}


def _handed_in(folder) -> dict:
    frame, equal = solved(DAY, NB), solved(DAY, NB)
    for grade_id, code in FRAME_CHEAT.items():
        frame = with_code(frame, grade_id, code)
    for grade_id, code in ALWAYS_EQUAL.items():
        equal = with_code(equal, grade_id, code)
    students = {"solved": solved(DAY, NB), "untouched": untouched(DAY, NB), "frame_cheat": frame,
                "always_equal": equal}
    return {s: {NB: nb} for s, nb in students.items()}


# Graded in the shared Day 1 class (tests/harness/shared_class.py): ``python -m grader grade --workers 2 --quiet``,
# the second key on.
shared_class.hand_in("second_key", _handed_in)


@pytest.fixture(scope="module")
def graded(day1_class):
    assert "reference run" not in day1_class.stderr, day1_class.stderr
    return {student: notebooks[NB] for student, notebooks in day1_class.of("second_key").items()}


@pytest.mark.slow
def test_honest_work_keeps_full_marks_and_untouched_earns_nothing(graded):
    full = sum(e.points for e in course_notebooks(ROOT / "solutions" / DAY)[NB].exercises)
    assert graded["solved"]["score"] == full and not graded["solved"]["findings"]
    assert graded["untouched"]["score"] == 0


@pytest.mark.slow
@pytest.mark.parametrize("student, targeted", [("frame_cheat", FRAME_FOOLS), ("always_equal", EQUAL_FOOLS)])
def test_a_cheat_that_fools_the_kernel_earns_nothing_where_the_grader_observes(graded, student, targeted):
    rec = graded[student]
    for grade_id in targeted:
        cell = rec["cells"][grade_id]
        assert cell["score"] == 0, (grade_id, cell)
        assert "fresh input" in cell["message"] and "Traceback" not in cell["message"]
    assert {d["grade_id"] for d in rec["integrity"]["disagreed"]} == targeted
    assert any("second key" in f for f in rec["findings"]), rec["findings"]
    assert FRAME_FOOLS | EQUAL_FOOLS == OBSERVED  # between them, the cheats are caught in every cell
    # What a cheat leaves honest keeps its points: the frame cheat's report has every key.
    if student == "frame_cheat":
        keys = rec["cells"]["env_environment_report_keys"]
        assert keys["score"] == keys["max"], keys


# -- slow: a tensor exercise, end to end (a one-notebook course of the test's own) ---------------------
TENSOR_COURSE = '''# %% [markdown] cell=c000
# # Test · 00 — The second key on a tensor exercise
#
# ### Exercise 1 (3 points)

# %% locked id=setup cell=c001
import torch

# %% solution id=obs_scale cell=c002
def scale_rows(x):
    """Each row of x divided by its sum."""
    ### BEGIN SOLUTION
    return x / x.sum(dim=1, keepdim=True)
    ### END SOLUTION

# %% test id=obs_scale_shape points=1 cell=c003
"""scale_rows() keeps the shape (a check that observes nothing: graded as before)."""
from ptcourse.checks import check_shape

check_shape(scale_rows(torch.ones(3, 4)), (3, 4), "scale_rows(torch.ones(3, 4))")

# %% test id=obs_scale_values points=2 cell=c004
"""scale_rows() makes each row sum to one."""
from ptcourse.checks import check_close

example = torch.tensor([[1.0, 3.0], [2.0, 2.0]])
expected = torch.tensor([[0.25, 0.75], [0.5, 0.5]])
check_close(scale_rows(example), expected, "scale_rows(example)")
### BEGIN HIDDEN TESTS
from ptcourse.observe import fresh_generator, observe

fresh = torch.rand(4, 5, generator=fresh_generator()) + 0.1
observe("scale_rows_fresh", scale_rows(fresh))
### END HIDDEN TESTS
'''
TENSOR_ANSWERS = {
    "honest": "def scale_rows(x):\n    return x / x.sum(dim=1, keepdim=True)\n",
    "untouched": "def scale_rows(x):\n    raise NotImplementedError()\n",
    "subclass": '''class _Close(torch.Tensor):
    """A cheat: torch.isclose says "close" for anything."""

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        if func is torch.isclose:
            return torch.ones(args[0].shape, dtype=torch.bool)
        return super().__torch_function__(func, types, args, kwargs or {})


def scale_rows(x):
    return torch.zeros_like(x).as_subclass(_Close)
''',
    "frame": PEEK + "\n\ndef scale_rows(x):\n    return _peek('expected')\n",
}


@pytest.fixture(scope="module")
def tensor_class(tmp_path_factory):
    import nbformat

    from grader.run import engine

    tmp = tmp_path_factory.mktemp("second_key_tensor")
    (tmp / "text.py").write_text(TENSOR_COURSE)
    source = tmp / "source" / DAY
    source.mkdir(parents=True)
    subprocess.run([sys.executable, str(ROOT / "tools" / "nbtext.py"), "to-notebook", str(tmp / "text.py"),
                    str(source / "00_scale.ipynb")], check=True, cwd=ROOT)
    course = nbformat.read(str(source / "00_scale.ipynb"), as_version=4)
    students = {}
    for student, answer in TENSOR_ANSWERS.items():
        nb = nbformat.from_dict(course)
        next(c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == "obs_scale").source = answer
        students[student] = {"00_scale": nb}
    write_class(tmp / "submitted", DAY, students)
    summary = engine.grade_class(engine.Options(day=DAY, submissions=tmp / "submitted", out=tmp / "out",
                                                db_url=f"sqlite:///{tmp / 'gb.db'}", source=source, workers=2,
                                                progress=False))
    assert not summary.warnings or all("reference" not in w for w in summary.warnings), summary.warnings
    return {r.student: r.to_json() for r in summary.records}  # as the resume file has it


@pytest.mark.slow
def test_a_tensor_exercise_needs_both_keys(tensor_class):
    scores = {s: {g: c["score"] for g, c in r["cells"].items()} for s, r in tensor_class.items()}
    assert scores["honest"] == {"obs_scale_shape": 1, "obs_scale_values": 2} and not tensor_class["honest"]["findings"]
    assert scores["untouched"] == {"obs_scale_shape": 0, "obs_scale_values": 0}
    # Both cheats pass the kernel's check_close; the grader sees plain numbers on a fresh input.
    assert scores["subclass"] == {"obs_scale_shape": 1, "obs_scale_values": 0}  # the unobserved check: as before
    assert scores["frame"]["obs_scale_values"] == 0
    for cheat in ("subclass", "frame"):
        rec = tensor_class[cheat]
        assert [d["grade_id"] for d in rec["integrity"]["disagreed"]] == ["obs_scale_values"]
        assert "fresh input" in rec["cells"]["obs_scale_values"]["message"]
    assert "largest difference" in tensor_class["subclass"]["cells"]["obs_scale_values"]["message"]
    assert "(2, 2) vs (4, 5)" in tensor_class["frame"]["cells"]["obs_scale_values"]["message"]


# -- slow: Day 2, an answer that fits only the visible example -------------------------------------
FITS_VISIBLE = '''
def to_class_index(labels, classes):
    """A wrong answer that knows the visible examples and raises on unknown labels: every check
    of the visible test cell passes in the kernel."""
    seen = labels.tolist()
    known = {(10, 3, 1, 10, 9): [0, 3, 1, 0, 9], (7, 2, 4): [2, 0, 1]}
    if tuple(seen) in known:
        return torch.tensor(known[tuple(seen)], dtype=torch.int64)
    if any(v not in list(classes) for v in seen):
        raise ValueError(f"labels {seen} are not in classes {list(classes)}")
    return torch.zeros(len(seen), dtype=torch.int64)
'''


DAY2_NB = "06_debugging"
# Graded in the shared Day 2 class (tests/harness/shared_class.py): ``python -m grader grade --workers 2 --quiet``,
# the second key on.
shared_class.hand_in("second_key", lambda folder: {
    "solved": {DAY2_NB: solved("day2", DAY2_NB)},
    "fits_visible": {DAY2_NB: with_code(solved("day2", DAY2_NB), "debug_class_index", FITS_VISIBLE)}}, day="day2")


@pytest.fixture(scope="module")
def graded_day2(day2_class):
    assert "reference run" not in day2_class.stderr, day2_class.stderr
    return {student: notebooks[DAY2_NB] for student, notebooks in day2_class.of("second_key").items()}


@pytest.mark.slow
def test_an_answer_that_fits_only_the_visible_example_loses_the_point_on_day2(graded_day2):
    full = sum(e.points for e in course_notebooks(ROOT / "solutions" / "day2")["06_debugging"].exercises)
    assert graded_day2["solved"]["score"] == full and not graded_day2["solved"]["findings"]
    rec = graded_day2["fits_visible"]
    cell = rec["cells"]["debug_class_index_svhn"]
    assert cell["score"] == 0 and "fresh input" in cell["message"], cell
    # The kernel's own checks passed (the visible example only): the second key alone took the point.
    assert [d["grade_id"] for d in rec["integrity"]["disagreed"]] == ["debug_class_index_svhn"]
    assert any("second key" in f for f in rec["findings"]), rec["findings"]


@pytest.mark.parametrize("name", ["01_linear_regression", "02_data_loading", "03_cnn_mnist", "04_checkpoints",
                                  "05_reproducibility", "06_debugging"])
def test_day2_observes_in_hidden_tests_only(name):
    from grader.run.reference import observes

    assert observes(ROOT / "solutions" / "day2" / f"{name}.ipynb")
    assert "observe(" not in (ROOT / "day2" / f"{name}.ipynb").read_text()


@pytest.mark.parametrize("name", ["01_devices", "02_mixed_precision", "03_compile"])
def test_day3_observes_in_hidden_tests_only(name):
    from grader.run.reference import observes

    assert observes(ROOT / "solutions" / "day3" / f"{name}.ipynb")
    for copy in (ROOT / "day3" / f"{name}.ipynb", ROOT / "zh-CN" / "day3" / f"{name}.ipynb"):
        assert "observe(" not in copy.read_text() and "fresh_generator" not in copy.read_text()
