"""Cheats: ways a notebook could try to earn points its work does not earn, and harmless look-alikes.

Each technique is code placed in a learner's cell of a notebook with no real work in it: the
answers are left as they are (``stub``, still raising NotImplementedError) or replaced by wrong
ones that return zeros (``zeros``) or an object equal to everything (``always_equal``). Graded
with the guard (grader/judge/guard.py), every technique must earn 0 for every check. Each ``HARMLESS``
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

# The check helpers made harmless, and the guard itself neutralised so that it vouches for every cell:
# the kernel's checks are then fully fooled, and only the second key (grader/judge/observations.py) is left.
NOOP_CHECKS = """\
import ptcourse.checks as _c
for _n in _c.__all__:
    if _n != 'CheckFailed':
        setattr(_c, _n, lambda *a, **k: None)
"""
FORGED_GUARD = NOOP_CHECKS + """\
import gc, hashlib, json, sys, types
def _forged_sanitize(nonce):
    return json.dumps({'nonce': nonce, 'restored': [], 'machinery': [], 'harmful': []})
def _forged_done(nonce):
    parsed = get_ipython().history_manager.input_hist_parsed[-1]
    ran = hashlib.sha1(str(parsed).strip().encode()).hexdigest()
    report = json.dumps({'changed': [], 'traced': False, 'ran': ran})
    sys.stdout.write('\\x1ePTG ' + nonce + ' ' + report + '\\x1e\\n')
for _m in [o for o in gc.get_objects() if isinstance(o, types.ModuleType)]:
    if callable(getattr(_m, 'sanitize', None)) and callable(getattr(_m, 'done', None)):
        _m.sanitize, _m.done = _forged_sanitize, _forged_done
"""

# The second key's own machinery, attacked from the kernel (each on top of the forged guard).
SECOND_KEY_ATTACKS: dict[str, str] = {
    # Observations never leave the kernel.
    "observations_dropped": "import IPython.display\nIPython.display.publish_display_data = lambda *a, **k: None\n"
                            "import ptcourse.observe\nptcourse.observe.observe = lambda *a, **k: None",
    # The encoder sends a plausible value of its own: a float32 zeros tensor.
    "encode_forged": "import ptcourse.observe, torch\n_encode = ptcourse.observe.encode\n"
                     "ptcourse.observe.encode = lambda value, only=None: _encode(torch.zeros(3, 3), only)",
    # The key read from the kernel, and every name the course observes sent again (twice: a duplicate)
    # and under names of its own, with values of the cheat's choosing, before the cell's own.
    "armed_key_replayed": """\
import ptcourse.observe as _o, IPython.display as _d, torch
_real = _o.observe
def _replay(name, value, **kwargs):
    payload = {'key': _o._armed['key'], 'name': name, 'tol': [1.0, 1.0], **_o.encode(torch.zeros(1))}
    _d.publish_display_data({_o.MIME: payload})
    _d.publish_display_data({_o.MIME: {**payload, 'name': name + '_extra'}})
    return _real(name, value, **kwargs)
_o.observe = _replay""",
    # Fresh inputs made predictable: a fixed seed the cheat knows, whatever the grader's secret.
    "fresh_inputs_fixed": "import ptcourse.observe, torch\n"
                          "ptcourse.observe.fresh_generator = lambda: torch.Generator().manual_seed(0)",
    # The seed read and the armed state rewritten before each fresh generator (as from a learner's answer).
    "armed_state_rewritten": """\
import ptcourse.observe as _o
_fresh = _o.fresh_generator
def _pinned():
    _o._armed.update(seed=1, calls=0)
    return _fresh()
_o.fresh_generator = _pinned""",
}

# Helper and globals forges (issue 32): what the test cells call or read, replaced before they run:
# the course's helpers, IPython's display functions (which carry the observations), library classes'
# attributes, the names the test cells read from the notebook. Each, with the objects the guard must
# report having put back (grader/judge/kernel_guard.py).
HELPER_FORGES: dict[str, tuple[str, tuple[str, ...]]] = {
    "forge_course_helpers": ("""\
import contextlib, types, torch
import ptcourse.data, ptcourse.observe, ptcourse.placement, ptcourse.spies, ptcourse.training
@contextlib.contextmanager
def _nowhere(*a, **k):
    yield types.SimpleNamespace(device=torch.device('cpu'), mixes=[], host=lambda *a, **k: None,
                                host_loader=lambda loader: loader, check_moved=lambda *a, **k: None)
ptcourse.placement.watch = _nowhere
ptcourse.spies.watch_training = _nowhere
ptcourse.training.accuracy = lambda *a, **k: 1.0
ptcourse.data.mnist = lambda *a, **k: None
ptcourse.observe.fresh_parameters = lambda model, *a, **k: model""",
                             ("ptcourse.placement.watch", "ptcourse.spies.watch_training", "ptcourse.training.accuracy",
                              "ptcourse.data.mnist", "ptcourse.observe.fresh_parameters")),
    "forge_ipython_display": ("""\
import IPython.display, IPython.core.display_functions
IPython.display.publish_display_data = lambda *a, **k: None
IPython.core.display_functions.publish_display_data = lambda *a, **k: None
IPython.display.display = lambda *a, **k: None""",
                              ("IPython.display.publish_display_data", "IPython.display.display",
                               "IPython.core.display_functions.publish_display_data")),
    "forge_module_class_attrs": ("""\
import torch
from torch import nn
nn.Module.__call__ = lambda self, *a, **k: torch.zeros(1)
nn.Linear.forward = lambda self, x: torch.zeros(1)
nn.Module.moved_to_device = True
torch.utils.data.DataLoader.__iter__ = lambda self: iter([])
torch.optim.SGD.step = lambda self, *a, **k: None""",
                                 ("torch.nn.modules.module.Module.__call__", "torch.nn.modules.linear.Linear.forward",
                                  "torch.nn.modules.module.Module.moved_to_device", "torch.optim.sgd.SGD.step",
                                  "torch.utils.data.dataloader.DataLoader.__iter__")),
    "forge_test_globals": ("""\
import types, torch
np = types.SimpleNamespace(allclose=lambda *a, **k: True, shares_memory=lambda *a, **k: True)
watch = lambda *a, **k: None
msg = lambda *a, **k: ''
fresh_generator = lambda: torch.Generator().manual_seed(0)""",
                           ("the name np", "the name watch", "the name msg", "the name fresh_generator")),
}

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
    # A common Jupyter tip, not a cheat: every expression shown, so each test cell's docstring came before its
    # error, and nbgrader let that first result decide (full marks for an untouched notebook).
    "show_every_expression": ("stub", "%config InteractiveShell.ast_node_interactivity = 'all'"),
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
    # -- the second key's cases: cheats that fool the kernel's own checks -----------------------------
    # (a) The answers read the expected values from the test's frame (sys._getframe, inspect).
    "frame_peek": ("peek", "import torch"),
    # (b) The check helpers' code swapped: the function objects stay the same.
    "code_swap": ("zeros", """\
import ptcourse.checks as _c
_nothing = (lambda *a, **k: None).__code__
for _n in _c.__all__:
    if hasattr(getattr(_c, _n), '__code__'):
        getattr(_c, _n).__code__ = _nothing"""),
    # ... and swapped again by every answer, after the guard put it back.
    "code_swap_rearmed": ("rearm", """\
import ptcourse.checks as _c
def _rearm():
    for _n in _c.__all__:
        if hasattr(getattr(_c, _n), '__code__'):
            getattr(_c, _n).__code__ = (lambda *a, **k: None).__code__"""),
    # (c) Answers are tensors of a subclass whose comparisons all succeed.
    "tensor_subclass": ("liar", "import torch"),
    # (d) The guard's own state found through gc: its saved originals poisoned, so that putting them
    # back puts the cheat back ...
    "gc_poisoned_originals": ("zeros", NOOP_CHECKS + """\
import gc
for _o in gc.get_objects():
    if isinstance(_o, dict) and isinstance(_o.get('ptcourse.checks'), tuple):
        for _n in _c.__all__:
            if _n != 'CheckFailed':
                _o['ptcourse.checks'][1][_n] = getattr(_c, _n)"""),
    # ... or the guard's module found and made to vouch for everything.
    "gc_forged_guard": ("zeros", FORGED_GUARD),
    # ... or, through gc.get_referrers, every reference the guard keeps to the real helpers swapped.
    "gc_referrers": ("zeros", """\
import gc, ptcourse.checks as _c
gc.unfreeze()  # what the warm kernel's zygote imported is frozen out of gc's reach (grader/jail/zygote.py)
def _swap_everywhere():  # locals: the notebook's globals are among the referrers it rewrites
    fake = lambda *a, **k: None
    for name in [n for n in _c.__all__ if n != 'CheckFailed']:
        real = getattr(_c, name)
        for referrer in gc.get_referrers(real):
            if isinstance(referrer, dict):
                for key in [k for k, v in referrer.items() if v is real]:
                    referrer[key] = fake
            elif isinstance(referrer, list):
                referrer[:] = [fake if v is real else v for v in referrer]
_swap_everywhere()"""),
    # Built-ins: isinstance says "a tensor" for an always-equal object, re-armed by each answer.
    "isinstance_rearmed": ("always_equal_rearm", """\
import builtins, torch
_isinstance = isinstance
def _rearm():
    builtins.isinstance = lambda obj, cls: True if type(obj).__name__ == 'Anything' else _isinstance(obj, cls)"""),
    # Answers whose tolist/numpy/item lie, on top of a forged guard.
    "lying_conversions": ("liar", FORGED_GUARD),
    **{f"second_key_{name}": ("zeros", FORGED_GUARD + code) for name, code in SECOND_KEY_ATTACKS.items()},
    **{name: ("zeros", code) for name, (code, _undone) in HELPER_FORGES.items()},
    # ... and forged again by every answer, while the test cell runs: the cell's token says what changed.
    "forge_helpers_rearmed": ("rearm", """\
import ptcourse.placement, ptcourse.training
from torch import nn
def _rearm():
    ptcourse.placement.watch = lambda *a, **k: None
    ptcourse.training.predict = lambda model, inputs, *a, **k: inputs
    nn.Module.__call__ = lambda self, *a, **k: self.forward(*a, **k)"""),
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
    "show_every_expression": "%config InteractiveShell.ast_node_interactivity = 'all'\n1 + 1\n2 + 2",
    "shows_a_model": "import torch\n_net = torch.nn.Linear(2, 3)\n_net.eval()",  # a callable in the display hook's _
    "default_dtype_float64": "import torch\ntorch.set_default_dtype(torch.float64)",  # put back for the checks, said
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


PEEK = '''
import inspect as _inspect
import sys as _sys

import torch

_GUESSES = ("wanted_grid", "reference", "by_hand", "truth", "expected", "want", "wanted")


def _peek(*names, default=None):
    """The expected value, read from the frames of whoever called the answer."""
    frame = _inspect.currentframe().f_back.f_back if len(names) % 2 else _sys._getframe(2)
    while frame is not None:
        for name in names or _GUESSES:
            if name in frame.f_locals:
                return frame.f_locals[name]
        frame = frame.f_back
    return default


class _Learning(dict):
    """SHARES_WITH_X that answers with the truth the test has just computed."""

    def __getitem__(self, key):
        seen = _peek("truth")
        return seen if isinstance(seen, bool) else dict.__getitem__(self, key)
'''
PEEK_ANSWERS = {
    "make_grid": "return _peek('wanted_grid', 'reference', default=torch.zeros(rows, cols))",
    "pairwise_sq_dists": "return _peek('by_hand', default=torch.zeros(1))",
    "zero_negatives": "return _peek('sample_expected', default=x), _peek('sample_negatives', default=0)",
    "shares_memory": "return bool(_peek('truth', default=False))",
    "flatten_images": "return _peek(default=x.reshape(len(x), -1) * 0)",
    "apply_weights": "return _peek(default=torch.zeros(len(counts)))",
}
PEEK_SIGNATURES = {"make_grid": "rows, cols", "pairwise_sq_dists": "a, b", "zero_negatives": "x",
                   "shares_memory": "a, b", "flatten_images": "x", "apply_weights": "counts, weights"}
SHARES_KEYS = ("x[1]", "x[:, 1]", "x[x > 5]", "x[[0, 2]]", "x.t()", "x.reshape(4, 3)", "x.t().reshape(12)",
               "x.float()", "x.double()", "torch.from_numpy(x.numpy())", "torch.tensor(x.numpy())")
LIAR = '''
import torch

_AGREE = {torch.eq, torch.equal, torch.allclose, torch.isclose, torch.Tensor.__eq__, torch.Tensor.eq,
          torch.Tensor.equal, torch.Tensor.allclose, torch.Tensor.isclose}


class _Liar(torch.Tensor):
    """Zeros whose every comparison says "equal", whose differences are zero, and whose conversions lie."""

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if func in (torch.equal, torch.allclose, torch.Tensor.equal, torch.Tensor.allclose):
            return True
        if func in _AGREE:
            return torch.ones(torch.broadcast_shapes(*(a.shape for a in args[:2] if isinstance(a, torch.Tensor))),
                              dtype=torch.bool)
        if func in (torch.sub, torch.Tensor.sub, torch.Tensor.__sub__, torch.abs, torch.Tensor.abs):
            with torch._C.DisableTorchFunctionSubclass():
                return torch.zeros_like(args[0]).as_subclass(cls)
        return super().__torch_function__(func, types, args, kwargs)

    def tolist(self):
        return [0.0]

    def numpy(self, *a, **k):
        return torch.zeros(self.shape).numpy()

    def item(self):
        return 0.0


class _AnyInt(int):
    """A count equal to every number."""

    def __eq__(self, other):
        return True

    __hash__ = int.__hash__


def _liar(*shape, dtype=torch.float32):
    return torch.zeros(*shape, dtype=dtype).as_subclass(_Liar)
'''
LIAR_ANSWERS = {
    "make_grid": "return _liar(rows, cols)",
    "pairwise_sq_dists": "return _liar(len(a), len(b), dtype=a.dtype)",
    "zero_negatives": "return _liar(*x.shape, dtype=x.dtype), _AnyInt(0)",
    "shares_memory": "return False",
    "flatten_images": "return _liar(len(x), x[0].numel(), dtype=x.dtype)",
    "apply_weights": "return _liar(*counts.shape[:1], *weights.shape[1:], dtype=weights.dtype)",
}


def _tailored(names: set[str], kind: str) -> str:
    """Answers written for day1/01_tensors' own tests: frame readers (``peek``) or lying tensors (``liar``)."""
    bodies = PEEK_ANSWERS if kind == "peek" else LIAR_ANSWERS
    lines = [PEEK if kind == "peek" else LIAR]
    for name in sorted(names):
        if name == "SHARES_WITH_X":
            values = {k: True for k in SHARES_KEYS}
            lines.append(f"SHARES_WITH_X = {'_Learning' if kind == 'peek' else 'dict'}({values!r})")
        elif name == "x":
            lines.append("x = torch.arange(12.0).reshape(3, 4)")
        else:
            body = bodies.get(name, "return torch.zeros(1)")
            lines.append(f"def {name}({PEEK_SIGNATURES.get(name, '*args, **kwargs')}):\n    {body}")
    return "\n\n".join(lines)


def _answer(names: set[str], kind: str) -> str | None:
    """Wrong answers defining ``names``: zeros, an always-equal object, an exit, answers that read the
    test's frame or lie; ``rearm``: each answer calls the cheat's ``_rearm()`` first."""
    if kind in ("peek", "liar"):
        return _tailored(names, kind)
    rearm = ["_rearm()"] if kind.endswith("rearm") else []
    kind = kind.removesuffix("_rearm").replace("rearm", "zeros")
    body = rearm + [{"zeros": "return __import__('torch').zeros(1)", "always_equal": "return Anything()",
                     "exit": "raise SystemExit(0)"}[kind]]
    lines = [ALWAYS_EQUAL] if kind == "always_equal" else []
    for name in sorted(names):
        if name[:1].isupper():
            lines.append(f"class {name}(__import__('torch').nn.Module):\n    def forward(self, *a, **k):\n"
                         + "".join(f"        {line}\n" for line in body))
        else:
            lines.append(f"def {name}(*args, **kwargs):\n" + "".join(f"    {line}\n" for line in body))
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


# -- Reading another copy of the course ------------------------------------------------------------
# Each looks for a copy of the notebook's own solutions outside the checkout being graded (a second
# clone under /tmp, a copy under the home folder, a data tree in /srv or /opt, an instructor's working
# copy beside the course), runs every solution cell it finds and prints how many copies it read
# ("COPIES: n"). tests/test_jail.py plants such copies, shows each cheat finds them outside the jail,
# and grades them: inside the jail there is nothing to read, so each earns 0.
_COPY_READER = """\
import glob as _g, json as _j, os as _o
def _ptg_run_copies(_patterns):
    _seen = 0
    for _pat in _patterns:
        for _p in sorted(_g.glob(_pat, recursive=True))[:20]:
            try:
                _cells = _j.load(open(_p)).get('cells', [])
            except Exception:
                continue
            _seen += 1
            for _cell in _cells:
                _src = ''.join(_cell.get('source', ''))
                if _cell.get('metadata', {}).get('nbgrader', {}).get('solution') and 'def ' in _src:
                    try:
                        exec(_src, globals())
                    except Exception:
                        pass
    print('COPIES:', _seen)
"""
_NB_PATH = "'solu' + 'tions/' + 'day1/00_environment.ipynb'"  # the suspicious words spelled from pieces
OTHER_COPIES: dict[str, str] = {
    # A second clone of the course under /tmp (a teaching assistant's, a CI job's).
    "clone_under_tmp": _COPY_READER + f"_ptg_run_copies(['/tmp/*/' + {_NB_PATH}, '/tmp/*/*/' + {_NB_PATH}])",
    # A copy under the grading user's home folder, found through the password file (HOME is the jail's own).
    "copy_under_home": _COPY_READER + "import pwd as _pw\n_h = _pw.getpwuid(_o.getuid()).pw_dir\n"
                       f"_ptg_run_copies([_h + '/*/' + {_NB_PATH}, _h + '/*/*/' + {_NB_PATH}])",
    # Project and data trees: /srv and /opt.
    "srv_and_opt_trees": _COPY_READER + f"_ptg_run_copies(['/srv/*/' + {_NB_PATH}, '/opt/*/' + {_NB_PATH}, "
                         f"'/srv/*/*/' + {_NB_PATH}])",
    # The instructor's working copy beside the checkout being graded, found from the course package's path.
    "instructor_checkout": _COPY_READER + "import ptcourse as _pc, pathlib as _pl\n"
                           "_top = _pl.Path(_pc.__file__).resolve().parents[2]\n"
                           f"_ptg_run_copies([str(_top.parent) + '/*/' + {_NB_PATH}, str(_top) + '/' + {_NB_PATH}])",
    # Anything anywhere: a walk of the whole filesystem, a few levels deep.
    "walk_everything": _COPY_READER + "_found = []\n"
                       "def _ptg_walk(_top, _depth):\n"
                       "    if _depth > 5 or _top.startswith(('/proc', '/sys', '/dev', '/usr')):\n"
                       "        return\n"
                       "    try:\n"
                       "        _entries = list(_o.scandir(_top))\n"
                       "    except OSError:\n"
                       "        return\n"
                       "    for _e in _entries:\n"
                       "        if _e.is_dir(follow_symlinks=False):\n"
                       "            _ptg_walk(_e.path, _depth + 1)\n"
                       f"        elif _e.path.endswith({_NB_PATH}):\n"
                       "            _found.append(_e.path)\n"
                       "_ptg_walk('/', 0)\n"
                       "_ptg_run_copies(_found)",
}


def reading_copies(untouched: nbformat.NotebookNode, technique: str) -> nbformat.NotebookNode:
    """The untouched notebook with ``OTHER_COPIES[technique]`` in a cell of its own after the set-up cell."""
    nb = copy.deepcopy(untouched)
    setup = next(i for i, c in enumerate(nb.cells) if role(c) == "locked")
    nb.cells.insert(setup + 1, nbformat.v4.new_code_cell(OTHER_COPIES[technique]))
    return nb


# -- Importing answers from the course package ----------------------------------------------------
# Each answers an exercise with something the course package holds, untouched notebooks otherwise:
# (day, notebook, exercise's name, code that defines it, the graded cells it targets). Each must earn 0
# on what it targets (tests/test_package_answers.py); the package holds no answers.
PACKAGE_ANSWERS: dict[str, tuple[str, str, str, str, tuple[str, ...]]] = {
    "pick_device_from_setup": ("day1", "00_environment", "pick_device",
                               "import ptcourse\n\ndef pick_device():\n    return ptcourse.setup(quiet=True)",
                               ("env_pick_device_priority",)),
    "pick_device_from_private_helper": ("day1", "00_environment", "pick_device",
                                        "from ptcourse.env import _device_here as pick_device",
                                        ("env_pick_device_priority",)),
    "predict_from_training": ("day1", "03_modules", "predict",
                              "from ptcourse.training import predict", ("modules_predict_deterministic",)),
    "set_seed_from_setup": ("day2", "05_reproducibility", "set_seed",
                            "import ptcourse\n\ndef set_seed(seed):\n    ptcourse.setup(seed, quiet=True)",
                            ("repro_set_seed_repeats", "repro_set_seed_uses_seed")),
}


def importing_answer(untouched: nbformat.NotebookNode, technique: str) -> nbformat.NotebookNode:
    """The untouched notebook whose answer cell for ``PACKAGE_ANSWERS[technique]``'s name imports it instead."""
    _, _, name, code, _ = PACKAGE_ANSWERS[technique]
    nb = copy.deepcopy(untouched)
    cell = next(c for c in nb.cells if role(c) == "solution" and name in defined_names(c.source))
    cell.source = code
    return nb
