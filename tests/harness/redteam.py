"""Cheats: ways a notebook could try to earn points its work does not earn, and harmless look-alikes.

Each technique is code placed in a learner's cell of a notebook with no real work in it: the
answers are left as they are (``stub``, still raising NotImplementedError) or replaced by wrong
ones that return zeros (``zeros``) or an object equal to everything (``always_equal``). Graded
with the guard (grader/guard.py), every technique must earn 0 for every check. Each ``HARMLESS``
snippet uses the same APIs without harm and goes into a *solved* notebook, which must keep full
marks.
"""

from __future__ import annotations

import base64
import copy

import nbformat

from ptcourse.nbmodel import defined_names, role
from tools.notebooks import ROOT

SWALLOW_ALL = "lambda *a, **k: None"

TECHNIQUES: dict[str, tuple[str, str]] = {
    # IPython runs every later cell as an empty one.
    "input_transformer": ("stub", "get_ipython().input_transformers_cleanup.append(lambda lines: ['pass\\n'])"),
    "input_transformer_post": ("stub", "get_ipython().input_transformers_post.append(lambda lines: ['pass\\n'])"),
    # Every statement of every later cell wrapped in try/except.
    "ast_transformer": ("stub", """\
import ast as _a
class _Quiet(_a.NodeTransformer):
    def visit_Module(self, node):
        body = [_a.Try(body=[s], handlers=[_a.ExceptHandler(type=None, name=None, body=[_a.Pass()])],
                       orelse=[], finalbody=[]) for s in node.body]
        return _a.fix_missing_locations(_a.Module(body=body, type_ignores=[]))
get_ipython().ast_transformers.append(_Quiet())"""),
    "set_custom_exc": ("stub", f"get_ipython().set_custom_exc((BaseException,), {SWALLOW_ALL})"),
    "showtraceback_override": ("stub", f"_ip = get_ipython()\n_ip.showtraceback = {SWALLOW_ALL}\n"
                                       f"_ip._showtraceback = {SWALLOW_ALL}\n_ip.showsyntaxerror = {SWALLOW_ALL}"),
    "showtraceback_class_patch": ("stub", f"type(get_ipython()).showtraceback = {SWALLOW_ALL}"),
    # The error message never leaves the kernel.
    "session_send_filter": ("stub", """\
_k = get_ipython().kernel
_send = _k.session.send
def _quiet_send(stream, msg_or_type, *a, **k):
    kind = msg_or_type if isinstance(msg_or_type, str) else msg_or_type.get('msg_type', msg_or_type.get('header', {}).get('msg_type'))
    if kind == 'error':
        return None
    return _send(stream, msg_or_type, *a, **k)
_k.session.send = _quiet_send"""),
    "display_hook": ("stub", f"get_ipython().display_pub.publish = {SWALLOW_ALL}\n"
                             f"get_ipython().showtraceback = {SWALLOW_ALL}"),
    # The kernel itself runs nothing for cells that look like checks.
    "kernel_do_execute": ("stub", """\
_k = get_ipython().kernel
_orig = _k.do_execute
async def _do(code, silent, *args, **kwargs):
    return await _orig('pass' if 'check' in code else code, silent, *args, **kwargs)
_k.do_execute = _do"""),
    # The checks themselves made harmless.
    "patch_checks": ("zeros", """\
import ptcourse.checks as _c
for _n in _c.__all__:
    if _n != 'CheckFailed':
        setattr(_c, _n, lambda *a, **k: None)"""),
    "patch_torch_testing": ("zeros", """\
import torch, torch.testing
torch.allclose = lambda *a, **k: True
torch.isclose = lambda a, b, *r, **k: torch.ones_like(torch.as_tensor(a), dtype=torch.bool)
torch.equal = lambda *a, **k: True
torch.testing.assert_close = lambda *a, **k: None
import ptcourse.checks as _c
_c.check_shape = _c.check_close = _c.check_tensor = _c.check = lambda *a, **k: None"""),
    "fake_checks_module": ("zeros", """\
import sys, types
_fake = types.ModuleType('ptcourse.checks')
class CheckFailed(AssertionError):
    pass
_fake.CheckFailed = CheckFailed
for _n in ('check', 'check_close', 'check_shape', 'check_equal', 'check_tensor', 'check_type', 'check_dtype',
           'check_device', 'check_finite', 'check_requires_grad', 'fail', 'passed'):
    setattr(_fake, _n, lambda *a, **k: None)
sys.modules['ptcourse.checks'] = _fake
import ptcourse
ptcourse.checks = _fake"""),
    # Aimed at the guard itself: its module, found in sys.modules, answers every clean-up request with
    # an empty report (the nonce echoed, nothing else), and the check helpers are made harmless.
    "guard_reports_nothing": ("zeros", """\
import json, sys
import ptcourse.checks as _c
for _n in _c.__all__:
    if _n != 'CheckFailed':
        setattr(_c, _n, lambda *a, **k: None)
for _name in [n for n in list(sys.modules) if n.startswith('_ptg_')]:
    sys.modules[_name].sanitize = lambda nonce: json.dumps({'nonce': nonce, 'restored': None, 'machinery': None,
                                                             'harmful': None})"""),
    "always_equal_object": ("always_equal", """\
import builtins
_isinstance = builtins.isinstance
builtins.isinstance = lambda obj, cls: True if type(obj).__name__ == 'Anything' else _isinstance(obj, cls)"""),
    # Exceptions that stop a check before it can fail, swallowed.
    "exit_inside_test": ("exit", f"get_ipython().set_custom_exc((SystemExit, KeyboardInterrupt), {SWALLOW_ALL})"),
    "excepthook": ("stub", "import sys\nsys.excepthook = lambda *a: None"),
    # Obfuscated: the same transformer, spelled through exec of encoded text and getattr.
    "encoded_exec": ("stub", "getattr(__builtins__, 'ex' + 'ec')(__import__('base64').b64decode({b64!r}).decode())".format(
        b64=base64.b64encode(b"get_ipython().input_transformers_cleanup.append(lambda lines: ['pass\\n'])").decode())),
    # Re-arms itself: a background thread and a pre_run_cell hook put the cheat back after every clean-up.
    "rearming_thread": ("stub", f"""\
import threading, time
def _arm():
    while True:
        get_ipython().set_custom_exc((BaseException,), {SWALLOW_ALL})
        time.sleep(0.0005)
threading.Thread(target=_arm, daemon=True).start()"""),
    "pre_run_cell_hook": ("zeros", """\
import ptcourse.checks as _c
def _patch(*a, **k):
    for _n in _c.__all__:
        if _n != 'CheckFailed':
            setattr(_c, _n, lambda *a, **k: None)
get_ipython().events.register('pre_run_cell', _patch)"""),
    # Looking for the hidden tests: the notebook's own file, the course's solutions. Looks where solutions would be: its folder and every folder above it, home, /tmp, and the
    # course's real path on the grading machine (as if the cheat knew it). Not all of '/', which
    # takes minutes and finds nothing more.
    "read_own_notebook": ("stub", f"""\
import glob, json, os
_roots = [{str(ROOT)!r}, os.path.expanduser('~'), '/tmp'] + [str(p) for p in __import__('pathlib').Path.cwd().parents]
_found = glob.glob('**/*.ipynb', recursive=True)
for _r in _roots:
    _found += glob.glob(_r + '/*.ipynb') + glob.glob(_r + '/solutions/**/*.ipynb', recursive=True)
for _p in _found[:200]:
    try:
        for _cell in json.load(open(_p)).get('cells', []):
            if _cell.get('metadata', {{}}).get('nbgrader', {{}}).get('solution'):
                exec(''.join(_cell['source']).replace('### BEGIN SOLUTION', '').replace('### END SOLUTION', ''))
    except Exception:
        pass"""),
}

HARMLESS: dict[str, str] = {
    "identity_input_transformer": "get_ipython().input_transformers_cleanup.append(lambda lines: lines)",
    "identity_ast_transformer": ("import ast\nclass _Same(ast.NodeTransformer):\n    pass\n"
                                 "get_ipython().ast_transformers.append(_Same())"),
    "timer_event": ("import time\n_times = []\n"
                    "get_ipython().events.register('post_run_cell', lambda result: _times.append(time.time()))"),
    "custom_exc_for_zero_division": (
        "def _explain(shell, etype, evalue, tb, tb_offset=None):\n"
        "    print('Division by zero: check your denominators.')\n"
        "    shell.showtraceback((etype, evalue, tb), tb_offset=tb_offset)\n"
        "get_ipython().set_custom_exc((ZeroDivisionError,), _explain)"),
    "trace_off": "import sys\nsys.settrace(None)\nsys.setprofile(None)",
    "uses_assert_close": "import torch\ntorch.testing.assert_close(torch.ones(2), torch.ones(2))",
    "encoded_harmless_exec": "exec(__import__('base64').b64decode({b64!r}).decode())".format(
        b64=base64.b64encode(b"_note = 'I like encodings'").decode()),
    "reads_own_files": "import os\nopen('scratch.txt', 'w').write('x')\n_seen = sorted(os.listdir('.'))",
    "short_thread": "import threading\n_t = threading.Thread(target=lambda: sum(range(1000)))\n_t.start()\n_t.join()",
    "getattr_pieces": "import math\n_f = getattr(math, 'sq' + 'rt')\n_r = _f(16.0)",
}

ALWAYS_EQUAL = """\
class Anything:
    def __eq__(self, other): return True
    def __ne__(self, other): return False
    def __bool__(self): return True
    def __getattr__(self, name): return self
    def __call__(self, *a, **k): return self
    def __getitem__(self, key): return self
    def __iter__(self): return iter([])
    def __len__(self): return 0
    def __float__(self): return 0.0
    def __int__(self): return 0
"""


def _answer(names: set[str], kind: str) -> str | None:
    """Wrong answers defining ``names``: zeros, an always-equal object or an exit."""
    body = {"zeros": "return __import__('torch').zeros(1)", "always_equal": "return Anything()",
            "exit": "raise SystemExit(0)"}[kind]
    lines = [ALWAYS_EQUAL] if kind == "always_equal" else []
    for name in sorted(names):
        if name[:1].isupper():
            lines.append(f"class {name}(__import__('torch').nn.Module):\n    def forward(self, *a, **k):\n"
                         f"        {body}")
        else:
            lines.append(f"def {name}(*args, **kwargs):\n    {body}")
    return "\n".join(lines)


def hostile(untouched: nbformat.NotebookNode, technique: str) -> nbformat.NotebookNode:
    """The untouched student notebook with ``technique`` in a cell of its own after the set-up cell."""
    answers, code = TECHNIQUES[technique]
    nb = copy.deepcopy(untouched)
    if answers != "stub":
        for cell in nb.cells:
            if role(cell) == "solution":
                names = defined_names(cell.source)
                if names:
                    cell.source = _answer(names, answers)
    setup = next(i for i, c in enumerate(nb.cells) if role(c) == "locked")
    nb.cells.insert(setup + 1, nbformat.v4.new_code_cell(code))
    return nb


def harmless(solved: nbformat.NotebookNode, name: str) -> nbformat.NotebookNode:
    """A solved notebook that also runs a harmless ``HARMLESS[name]`` in a cell of its own."""
    nb = copy.deepcopy(solved)
    setup = next(i for i, c in enumerate(nb.cells) if role(c) == "locked")
    nb.cells.insert(setup + 1, nbformat.v4.new_code_cell(HARMLESS[name]))
    return nb
