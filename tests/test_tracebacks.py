"""An unexpected error in the learner's own code keeps its traceback, trimmed to the learner's frames
(issue 35): no frame of the course package, torch, IPython or ipykernel, in the middle of the stack
too, in the chain of an exception raised from another; a failed check still shows its message alone.
In-process IPython (fast), then one real kernel with the grader's guard installed as the grader
installs it: the course's set-up leaves the guard nothing to undo, and a notebook's own handler is
still reported and switched off."""

from __future__ import annotations

import re

import pytest
from IPython.core.interactiveshell import InteractiveShell

from ptcourse import tracebacks

ANSI = re.compile(r"\x1b\[[0-9;]*m")
NET = """\
import torch
from torch import nn
from ptcourse.training import predict
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 2)
    def forward(self, x):
        return self.fc(x.T)
"""
# Frames that are not the learner's, as IPython names them on the screen.
LEAKS = ("ptcourse", "training.py", "torch/nn", "module.py", "interactiveshell", "site-packages", ".venv",
         "_call_impl")


@pytest.fixture
def shell(monkeypatch):
    """IPython's shell with the course's error display installed; ``shell.shown`` lists what it drew."""
    sh = InteractiveShell.instance()
    # The shell is the process's one instance: another test in this pytest worker may have installed the
    # course's display on it already (ptcourse.env.setup() in-process). Start from IPython's own.
    sh.set_custom_exc((), None)
    tracebacks._INSTALLED.clear()
    shown: list[tuple[type, BaseException, str]] = []
    monkeypatch.setattr(sh, "_showtraceback", lambda etype, value, stb: shown.append((etype, value, _text(stb))))
    sh.shown = shown
    yield sh
    sh.set_custom_exc((), None)
    tracebacks._INSTALLED.clear()


def _text(stb) -> str:
    return ANSI.sub("", "\n".join(stb))


def _draw(sh, cell: str) -> str:
    sh.shown.clear()
    sh.run_cell(cell)
    (_etype, _value, text), = sh.shown
    return text


def test_without_the_course_display_ipython_draws_torch_and_course_frames(shell):
    """The baseline this module exists for (and proof the test below can fail)."""
    shell.run_cell(NET)
    text = _draw(shell, "predict(Net(), torch.zeros(4, 3))")
    assert "training.py" in text and "module.py" in text, text


def test_a_learner_error_through_a_course_helper_keeps_only_the_learners_frames(shell):
    """The learner calls ``predict`` (the course's), which calls the learner's ``forward``, which
    fails inside ``nn.Linear``: both learner frames stay, with their lines; nothing else does."""
    assert tracebacks.install(shell)
    shell.run_cell(NET)
    text = _draw(shell, "predict(Net(), torch.zeros(4, 3))")
    for leak in LEAKS:
        assert leak not in text, f"{leak!r} shown to the learner:\n{text}"
    assert "predict(Net(), torch.zeros(4, 3))" in text and "return self.fc(x.T)" in text, text
    assert text.index("predict(Net()") < text.index("self.fc(x.T)"), "the frames keep their order"
    assert text.count("Cell In[") == 2, text
    assert text.rstrip().endswith("RuntimeError: mat1 and mat2 shapes cannot be multiplied (3x4 and 3x2)"), text
    import sys

    assert "interactiveshell" in sys.last_traceback.tb_frame.f_code.co_filename, "%debug keeps the whole traceback"


def test_a_grading_kernels_plain_drawing_keeps_only_the_learners_frames_too(shell):
    """A grading kernel draws errors plainly (grader/jail/execute.py: GRADING_ARGUMENTS, 15-20 ms less an
    error); the autograded notebook an instructor opens still shows the learner's frames and lines only."""
    from grader.jail import execute

    assert "--InteractiveShell.xmode=Plain" in execute.GRADING_ARGUMENTS
    tracebacks.install(shell)
    shell.run_line_magic("xmode", "Plain")
    try:
        shell.run_cell(NET)
        text = _draw(shell, "predict(Net(), torch.zeros(4, 3))")
    finally:
        shell.run_line_magic("xmode", "Context")
    for leak in LEAKS:
        assert leak not in text, f"{leak!r} in a graded notebook's error:\n{text}"
    assert "return self.fc(x.T)" in text and text.rstrip().endswith("(3x4 and 3x2)"), text


def test_a_chained_error_is_trimmed_in_every_part(shell):
    tracebacks.install(shell)
    shell.run_cell(NET)
    text = _draw(shell, "try:\n    Net()(torch.zeros(4, 3))\nexcept RuntimeError as e:\n    raise ValueError('bad input') from e")
    assert "direct cause" in text and text.rstrip().endswith("ValueError: bad input"), text
    for leak in LEAKS:
        assert leak not in text, f"{leak!r} shown to the learner:\n{text}"
    assert "Net()(torch.zeros(4, 3))" in text and "return self.fc(x.T)" in text, text


def test_a_failed_check_a_syntax_error_and_the_error_output_are_as_before(shell):
    from ptcourse.checks import CheckFailed

    tracebacks.install(shell)
    assert _draw(shell, "from ptcourse.checks import check_equal\ncheck_equal(1, 2, 'x')").startswith("✘ "), \
        "a failed check shows its message alone"
    assert shell.shown[0][0] is CheckFailed and shell.shown[0][1].message_id == "check.equal"
    text = _draw(shell, "x = (")
    assert "SyntaxError" in text and "Traceback" not in text, text
    result = shell.run_cell("1 / 0")
    assert isinstance(result.error_in_exec, ZeroDivisionError), "the cell still fails, with its own exception"


def test_a_trimming_that_fails_still_shows_the_whole_error(shell, monkeypatch):
    """Never an error left unshown: if the trimming raises, IPython draws the full traceback (and
    the handler stays installed, not unregistered with a note on stdout)."""
    def broken(tb, keep):
        raise RuntimeError("cannot read this traceback")

    tracebacks.install(shell)
    monkeypatch.setattr(tracebacks, "learner_traceback", broken)
    shell.run_cell(NET)
    text = _draw(shell, "predict(Net(), torch.zeros(4, 3))")
    assert "mat1 and mat2 shapes cannot be multiplied" in text and "training.py" in text, text
    assert shell.custom_exceptions == (Exception,), "the course's display should stay installed"


def test_installing_twice_changes_nothing(shell):
    assert tracebacks.install(shell)
    hook = shell.CustomTB
    assert tracebacks.install(shell) and shell.CustomTB is hook and shell.custom_exceptions == (Exception,)


def test_whose_file_is_whose():
    import torch

    import ptcourse

    assert not tracebacks.is_learners(torch.__file__)
    assert not tracebacks.is_learners(ptcourse.__file__)
    assert not tracebacks.is_learners("<string>")
    assert tracebacks.is_learners("<ipython-input-3-abc>", cells={"<ipython-input-3-abc>": 3})
    assert tracebacks.is_learners("/home/learner/course/day2/my_model.py")


@pytest.mark.slow
def test_the_guard_keeps_the_course_display_and_switches_off_a_notebooks_own():
    """In a real kernel with the grader's guard: the notebook's set-up installs nothing new (the guard
    did, before its snapshot), so the guard has nothing to undo; a learner error's output is
    trimmed; a notebook's own error handler is still harmful and switched off."""
    from tests.test_guard_helpers import Kernel

    kernel = Kernel()
    try:
        kernel.run("import ptcourse\nptcourse.setup(quiet=True)\n" + NET)
        report = kernel.sanitize()
        assert report["restored"] == [] and report["machinery"] == [] and report["harmful"] == [], report
        msg_id = kernel.kc.execute("predict(Net(), torch.zeros(4, 3))", store_history=True)
        error = None
        while True:
            message = kernel.kc.get_iopub_msg(timeout=300)
            if message["parent_header"].get("msg_id") != msg_id:
                continue
            if message["msg_type"] == "error":
                error = message["content"]
            if message["msg_type"] == "status" and message["content"]["execution_state"] == "idle":
                break
        assert error is not None and error["ename"] == "RuntimeError", error
        text = _text(error["traceback"])
        for leak in (*LEAKS, "ipykernel"):
            assert leak not in text, f"{leak!r} in the error output:\n{text}"
        assert "return self.fc(x.T)" in text, text
        kernel.run("get_ipython().set_custom_exc((Exception,), lambda *a, **k: None)")
        report = kernel.sanitize()
        assert "a custom exception handler" in report["harmful"] and "CustomTB" in report["machinery"], report
        assert kernel.sanitize()["machinery"] == [], "put back: the course's display again"
    finally:
        kernel.close()
