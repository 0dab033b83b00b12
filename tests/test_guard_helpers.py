"""The guard protects what the test cells call, not only the check helpers (issue 32, item 1).

A notebook could otherwise replace, before a test cell runs, the course's helpers
(``ptcourse.training``, ``placement``, ``spies``, ``data``), ``IPython.display`` (which carries the
second key's observations), attributes of ``nn.Module`` and other library classes, or the names the
test cell reads from the notebook's namespace (``DataLoader``, ``predict``, a locked cell's helper
function). Here one real kernel runs the kernel-side guard (grader/judge/kernel_guard.py) as the grader
installs it: honest uses of the same APIs, dynamo's and the optimizers' own lazy patches included,
leave nothing to undo; each forge is reported, put back before the next test cell, and reported as a
change when a test cell's own call makes it.
"""

from __future__ import annotations

import ast
import json

import nbformat
import pytest

from grader.judge.guard import Guard, course_definitions, course_names
from tools.notebooks import ROOT

CNN = ROOT / "solutions" / "day2" / "03_cnn_mnist.ipynb"

HONEST = """\
import torch, tempfile, warnings
from torch import nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
from ptcourse.training import accuracy, predict
from ptcourse.placement import watch
from ptcourse.spies import watch_training
from IPython.display import display
m = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
opt = torch.optim.AdamW(m.parameters())
sch = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.01, total_steps=5)
sgd = torch.optim.SGD(m.parameters(), lr=0.1)
with watch_training() as trace:
    for _ in range(2):
        opt.zero_grad()
        F.cross_entropy(m(torch.randn(4, 3)), torch.tensor([0, 1, 0, 1])).backward()
        opt.step(); sch.step(); sgd.step()
with watch() as where:
    m.to(where.device)
    for x, y in where.host_loader(DataLoader(TensorDataset(torch.randn(4, 3), torch.zeros(4)), batch_size=2)):
        m(x.to(where.device))
_acc = accuracy(predict(m, torch.randn(5, 3)), torch.zeros(5))
display("a note")
compiled = torch.compile(nn.Linear(3, 3), backend="eager")
compiled(torch.randn(2, 3))
def my_own_helper():
    return 1
"""

# Each forge, and an expression true once the guard has put the genuine object back.
FORGES = {
    "ptcourse.training.accuracy": ("import ptcourse.training\nptcourse.training.accuracy = lambda *a, **k: 1.0",
                                   "__import__('ptcourse.training').training.accuracy.__name__ == 'accuracy'"),
    "ptcourse.placement.watch": ("import ptcourse.placement\nptcourse.placement.watch = lambda *a, **k: None",
                                 "__import__('ptcourse.placement').placement.watch.__name__ == 'watch'"),
    "ptcourse.spies.TrainingTrace.order_problem": (
        "import ptcourse.spies\nptcourse.spies.TrainingTrace.order_problem = lambda self: None",
        "__import__('ptcourse.spies').spies.TrainingTrace.order_problem.__name__ == 'order_problem'"),
    "ptcourse.data.mnist.__code__": ("import ptcourse.data\nptcourse.data.mnist.__code__ = (lambda *a, **k: None).__code__",
                            "__import__('ptcourse.data').data.mnist.__code__.co_name == 'mnist'"),
    "IPython.display.publish_display_data": (
        "import IPython.display\nIPython.display.publish_display_data = lambda *a, **k: None",
        "__import__('IPython.display').display.publish_display_data.__module__.startswith('IPython')"),
    "torch.nn.modules.module.Module.__call__": (
        "from torch import nn\nnn.Module.__call__ = lambda self, *a, **k: self.forward(*a, **k)",
        "__import__('torch').nn.Module.__call__.__name__ == '_wrapped_call_impl'"),
    "torch.nn.modules.linear.Linear.forward": ("from torch import nn\nnn.Linear.forward = lambda self, x: x",
                                               "__import__('torch').nn.Linear.forward.__qualname__ == 'Linear.forward'"),
    "torch.nn.modules.module.Module.moved_batches": ("from torch import nn\nnn.Module.moved_batches = True",
                                                     "not hasattr(__import__('torch').nn.Module, 'moved_batches')"),
    "torch.utils.data.dataloader.DataLoader.__iter__": (
        "import torch.utils.data\ntorch.utils.data.DataLoader.__iter__ = lambda self: iter([])",
        "__import__('torch').utils.data.DataLoader.__iter__.__qualname__ == 'DataLoader.__iter__'"),
    "the name DataLoader": ("DataLoader = list", "DataLoader is __import__('torch').utils.data.DataLoader"),
    "the name predict": ("predict = lambda *a, **k: 0", "predict.__module__ == 'ptcourse.training'"),
    "the name locked_helper": ("def locked_helper():\n    return 'forged'", "locked_helper() == 'genuine'"),
}


class Kernel:
    """One IPython kernel with the guard installed as the grader installs it."""

    def __init__(self):
        from jupyter_client.manager import start_new_kernel

        self.km, self.kc = start_new_kernel(kernel_name="python3")
        self.guard = Guard(names=course_names(nbformat.read(str(CNN), as_version=4)))
        code, expression = self.guard.install_code()
        assert self.value(code, expression) == self.guard.name

    def request(self, code: str, expressions: dict | None = None, silent: bool = True) -> dict:
        msg_id = self.kc.execute(code, silent=silent, store_history=not silent, user_expressions=expressions or {})
        while True:
            reply = self.kc.get_shell_msg(timeout=300)
            if reply["parent_header"].get("msg_id") == msg_id:
                return reply

    def value(self, code: str, expression: str):
        reply = self.request(code, {"r": expression})
        assert reply["content"]["status"] == "ok", reply["content"]
        result = reply["content"]["user_expressions"]["r"]
        assert result["status"] == "ok", result
        return ast.literal_eval(result["data"]["text/plain"])

    def run(self, code: str) -> None:
        reply = self.request(code, silent=False)
        assert reply["content"]["status"] == "ok", reply["content"]

    def sanitize(self) -> dict:
        code, expression, nonce = self.guard.sanitize_code()
        report = json.loads(self.value(code, expression))
        assert report["nonce"] == nonce
        return report

    def done(self, source: str) -> dict:
        """Run ``source`` as a test cell (with the attesting line); the guard's report on it."""
        code, nonce, _sent = self.guard.wrap(source)
        msg_id = self.kc.execute(code, store_history=True)
        text = ""
        while True:
            message = self.kc.get_iopub_msg(timeout=300)
            if message["parent_header"].get("msg_id") != msg_id:
                continue
            if message["msg_type"] == "stream":
                text += message["content"]["text"]
            if message["msg_type"] == "status" and message["content"]["execution_state"] == "idle":
                break
        _rest, tokens = Guard.take_token(text)
        return next(report for n, report in tokens if n == nonce)

    def close(self) -> None:
        self.kc.stop_channels()
        self.km.shutdown_kernel(now=True)


@pytest.fixture(scope="module")
def kernel():
    k = Kernel()
    k.run("def locked_helper():\n    return 'genuine'")
    assert k.value(*k.guard.remember_code(["locked_helper"])) == ["locked_helper"]
    yield k
    k.close()


def test_course_names_are_the_course_imports_its_tests_use():
    names = {n: (m, a) for n, m, a in course_names(nbformat.read(str(CNN), as_version=4))}
    assert names["DataLoader"] == ("torch.utils.data", "DataLoader")
    assert names["predict"] == ("ptcourse.training", "predict") and names["watch"] == ("ptcourse.placement", "watch")
    assert names["nn"] == ("torch", "nn") and names["F"] == ("torch.nn.functional", None)
    assert "plt" not in names and "tqdm" not in names  # imported by the set-up cell, used by no test cell
    assert course_definitions("import x\ndef a():\n    pass\nclass B:\n    pass\nc = 1\n%time a()") == []
    assert course_definitions("import x\ndef a():\n    pass\nclass B:\n    pass\nc = 1\n") == ["B", "a"]


def test_honest_use_leaves_nothing_to_undo(kernel):
    """The same APIs used honestly, with dynamo's and the optimizers' own lazy patches, are no forge."""
    kernel.run(HONEST)
    report = kernel.sanitize()
    assert report["restored"] == [] and report["harmful"] == [], report
    assert kernel.done("x = predict")["changed"] == []


def test_a_shown_model_or_function_is_no_machinery(kernel):
    """A cell that ends by showing a callable (``net.eval()``, a model, a function) leaves it in the display hook's
    ``_``: a value of the learner's, never "tampering", and the hook keeps working for the cells after it."""
    kernel.run("import torch\nnet = torch.nn.Linear(2, 3)\nnet.eval()")
    kernel.run("len")
    report = kernel.sanitize()
    assert report["machinery"] == [] and report["harmful"] == [], report
    kernel.run("net")  # the display hook still stores what a cell shows
    assert kernel.value("pass", "type(_oh[max(_oh)]).__name__") == "Linear"


def test_showing_every_expression_is_put_back_for_the_checks_without_a_word(kernel):
    """``ast_node_interactivity = 'all'`` (a common Jupyter tip) would show each test cell's docstring as its result,
    which nbgrader reads as the cell's grade: the guard runs each check with the shell's own setting, and it is no
    tampering (a display setting of the learner's)."""
    kernel.run("get_ipython().ast_node_interactivity = 'all'")
    report = kernel.sanitize()
    assert report["machinery"] == [] and report["harmful"] == [] and report["restored"] == [], report
    assert report["settings"] == ["InteractiveShell.ast_node_interactivity = 'all'"], report
    assert kernel.value("pass", "get_ipython().ast_node_interactivity") == "last_expr"
    assert kernel.sanitize()["settings"] == []


def test_a_default_dtype_of_the_learners_is_put_back_for_the_checks_and_said(kernel):
    """``torch.set_default_dtype(torch.float64)`` in a scratch cell: the checks' fresh inputs would be float64, the
    reference's float32, and torch swaps ``torch.Storage`` with it; put back and said, never "replaced torch.Storage"."""
    kernel.run("import torch\ntorch.set_default_dtype(torch.float64)")
    report = kernel.sanitize()
    assert report["restored"] == [] and report["machinery"] == [], report
    assert report["settings"] == ["torch.set_default_dtype(torch.float64)"], report
    assert kernel.value("pass", "str(__import__('torch').get_default_dtype())") == "torch.float32"


@pytest.mark.parametrize("label", sorted(FORGES))
def test_forged_helper_is_reported_and_put_back(kernel, label):
    forge, genuine = FORGES[label]
    kernel.run(forge)
    assert label in kernel.sanitize()["restored"]
    assert kernel.value("pass", genuine) is True, f"{label} was not put back"
    assert kernel.sanitize()["restored"] == []


@pytest.mark.parametrize("label", ["ptcourse.training.accuracy", "torch.nn.modules.module.Module.__call__",
                                   "the name DataLoader"])
def test_forge_made_during_a_test_cell_is_a_change(kernel, label):
    """An answer that forges a helper when the test calls it: the cell's token says what changed."""
    forge, _genuine = FORGES[label]
    kernel.run("def answer():\n" + "".join(f"    {line}\n" for line in ["global DataLoader", *forge.splitlines()]))
    assert label in kernel.done("answer()")["changed"]
    kernel.sanitize()


def test_every_course_module_a_test_cell_imports_is_protected():
    """A test cell that starts calling another ``ptcourse`` module must have it imported and protected by
    the guard (grader/judge/kernel_guard.py's HELPERS), or a notebook could replace it before the check runs."""
    from grader.judge import kernel_guard
    from ptcourse.nbmodel import role

    protected = {*kernel_guard.HELPERS, "ptcourse", "ptcourse.checks", "ptcourse.messages", "ptcourse.observe"}
    used = set()
    for path in sorted((ROOT / "solutions").glob("day*/*.ipynb")):
        for cell in nbformat.read(str(path), as_version=4).cells:
            if cell.cell_type == "code" and role(cell) == "test":
                try:
                    tree = ast.parse(cell.source)
                except SyntaxError:
                    continue
                for node in ast.walk(tree):
                    if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("ptcourse"):
                        used.add(node.module)
                    elif isinstance(node, ast.Import):
                        used |= {a.name for a in node.names if a.name.startswith("ptcourse")}
    assert used, "no test cell imports the course package: this test reads the wrong cells"
    assert used <= protected, f"add to kernel_guard.HELPERS: {sorted(used - protected)}"


def test_a_library_wrapper_is_theirs_only_with_their_code_and_closure():
    """The libraries' own lazy patches are accepted (dynamo's wrapper of ``Adam._init_group``); the same
    code from their file with a closure cell pointed at a cheat's hook, or a cheat's code given their
    file's name, is not."""
    import types

    import torch._dynamo

    from grader.judge.guard import SOURCE

    ns = {"get_ipython": lambda: None}
    exec(SOURCE, ns)  # noqa: S102 - the guard's own source, as the kernel runs it
    original = vars(torch.optim.Adam)["_init_group"]
    theirs = torch._dynamo.disable(original)
    assert ns["_library"](theirs, original)
    cells = tuple(types.CellType(lambda *a, **k: None) if callable(c.cell_contents) and c.cell_contents is not original
                  else types.CellType(c.cell_contents) for c in theirs.__closure__)
    hooked = types.FunctionType(theirs.__code__, theirs.__globals__, theirs.__name__, theirs.__defaults__, cells)
    hooked.__wrapped__ = original
    assert not ns["_library"](hooked, original)
    fake_code = compile("def _fn(*a, **k):\n    return None\n", theirs.__code__.co_filename, "exec").co_consts[0]
    named = types.FunctionType(fake_code, theirs.__globals__, "_fn", None, None)
    named.__wrapped__ = original
    assert not ns["_library"](named, original)


@pytest.mark.parametrize("day", ["day1", "day2", "day3"])
def test_names_worked_out_once_are_those_of_every_hand_in(day):
    """The worker works out what the guard protects once per notebook, from the course's own notebook
    (grader.run.jobs.protected_names): the same names a job would find in any hand-in, untouched or solved,
    once nbgrader has put the course's cells back (OverwriteCells, as autograde runs it)."""
    from nbgrader.preprocessors import OverwriteCells

    from grader.grades import gradebook
    from grader.run import jobs
    from tools.classroom import solved, untouched
    from tools.notebooks import SOLUTIONS

    template = gradebook.build_template(day, SOLUTIONS / day, gradebook.CACHE)
    for path in sorted((SOLUTIONS / day).glob("*.ipynb")):
        expected = jobs.protected_names(path)
        assert expected, path.stem
        for nb in (untouched(day, path.stem), solved(day, path.stem)):
            resources = {"nbgrader": {"db_url": f"sqlite:///{template}", "assignment": day, "notebook": path.stem}}
            restored, _ = OverwriteCells(add_missing_cells=True).preprocess(nb, resources)
            assert course_names(restored) == expected, path.stem


def test_names_are_read_once_per_notebook(tmp_path, monkeypatch):
    from grader.run import jobs

    copy = tmp_path / CNN.name
    copy.write_bytes(CNN.read_bytes())
    first = jobs.protected_names(copy)
    assert first == course_names(nbformat.read(str(CNN), as_version=4))
    monkeypatch.setattr(jobs.nbformat, "read", lambda *a, **k: pytest.fail("read again"))
    assert jobs.protected_names(copy) == first
    assert jobs.protected_names(tmp_path / "missing.ipynb") is None


def test_names_are_worked_out_one_thread_at_a_time(tmp_path, monkeypatch):
    """The local pool's and a Dask worker's job threads ask at once, for different notebooks: CPython 3.11's
    parser, run from two threads at once, can raise "AST constructor recursion depth mismatch" (a reference
    run was lost so in a full suite run); grader.run.jobs.protected_names parses for one thread at a time."""
    import threading
    import time
    from concurrent.futures import ThreadPoolExecutor

    from grader.run import jobs

    inside, most, lock = [0], [0], threading.Lock()

    def parse(nb):
        with lock:
            inside[0] += 1
            most[0] = max(most[0], inside[0])
        time.sleep(0.02)  # long enough for the other threads to arrive
        with lock:
            inside[0] -= 1
        return course_names(nb)

    monkeypatch.setattr(jobs, "course_names", parse)
    copies = []
    for i in range(8):
        copy = tmp_path / f"{i}-{CNN.name}"
        copy.write_bytes(CNN.read_bytes())
        copies.append(copy)
    with ThreadPoolExecutor(max_workers=8) as pool:
        found = list(pool.map(jobs.protected_names, copies))
    assert most[0] == 1, f"{most[0]} threads parsed at once"
    assert found == [course_names(nbformat.read(str(CNN), as_version=4))] * 8


def test_a_setting_put_back_is_a_note_for_the_learner_and_no_finding():
    """From the guard's summary to the page: the learner reads what was put back; the instructor's review list
    stays empty (a setting is no forge), and the record keeps it through its JSON."""
    from grader.records import Integrity
    from grader.run import engine

    integrity = Integrity(installed=True, settings=("torch.set_default_dtype(torch.float64)",))
    assert Integrity.from_json(integrity.to_json()) == integrity
    notes, findings = [], []
    engine.integrity_notes(integrity, notes, findings, graded=True)
    assert findings == [] and len(notes) == 1 and "torch.set_default_dtype(torch.float64)" in notes[0]
    assert "costs you nothing" in notes[0]
