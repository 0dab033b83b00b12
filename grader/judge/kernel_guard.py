"""The grader's agent inside a student's kernel (sent as source text; never imported by the grader).

:mod:`grader.judge.guard` executes this file's text in the kernel, silently, before the notebook's first
cell, under a module name that is random for each run. It snapshots what the course's checks rely
on: the built-ins, ``torch`` (with ``torch.Tensor``, ``torch.nn``, ``torch.nn.functional``,
``torch.testing``, ``torch.autograd``, ``torch.optim``, ``torch.utils.data``), ``numpy``, ``math``,
the course package's check helpers, its second key (``ptcourse.observe``) and the helpers test
cells call (``ptcourse.training``, ``placement``, ``spies``, ``data``...), imported here, before the
learner's code can replace them first; ``IPython.display``, which carries the observations; every
class of those modules attribute by attribute (``nn.Module.__call__``, ``nn.Linear.forward``,
``DataLoader.__iter__``); the code and defaults of every Python function among them (a swapped
``__code__`` keeps the object); the names the course's own cells bind and its test cells use
(``DataLoader``, ``predict``, and the functions its locked cells define, kept by :func:`remember`
after each); and IPython's execution machinery (input and AST transformers, custom exception
handlers, traceback and display hooks, the kernel's methods), after installing the course's own
error display (:mod:`ptcourse.tracebacks`, a custom exception handler that trims a learner's
traceback to the learner's frames), so that it is put back, not undone, and the notebook's own set-up
installing it again changes nothing. The libraries' own lazy patches
(dynamo's ``nn.Module.__init__``, ``Optimizer``'s wrapped ``step``) are told apart by their code,
compiled again from the library's file on disk, and the original they wrap. Then, for every graded test cell:

* :func:`sanitize` (a silent request before the cell) puts every protected object back as it was,
  switches off transformers, custom exception handlers, trace and profile functions, and says
  what it had to undo;
* :func:`done` (the cell's last line, reached only if every check before it passed) reports a
  token with the run's nonce, whether anything protected changed while the cell ran, and a hash
  of the code IPython really executed. The grader, outside the kernel, counts the cell only when
  all of that checks out.
"""

import builtins as _b
import hashlib as _h
import json as _j
import sys as _s
import threading as _t
import types as _y


def _install(name, names=()):
    """Snapshot what the checks rely on, and register the module ``name`` with ``sanitize`` and ``done``.

    ``names``: ``[name, module, attribute or None]`` for each name the course's own cells bind by an
    import and its graded test cells use (``DataLoader``, ``predict``, ``v2``...): imported here,
    before any cell of the notebook, and put back in the notebook's namespace before each test cell."""
    st = _snapshot(names)
    protected, machinery, harmful = _protected_check(st), _machinery_check(st), _harmful_check(st)

    def sanitize(nonce):
        settings = _settings(st)  # first: torch.set_default_dtype swaps torch.Storage, a protected name
        restored = protected(fix=True)
        found = harmful()
        switched_off = machinery(fix=True)
        return _j.dumps({"nonce": nonce, "restored": restored, "machinery": switched_off, "harmful": found,
                         "settings": settings})

    def remember(names):
        """Functions and classes a course's own cell just defined: put back before each test cell."""
        kept = []
        for key in names:
            value = st.ip.user_ns.get(key, _missing)
            if isinstance(value, (_y.FunctionType, type)):
                st.genuine[key] = value
                kept.append(key)
                if isinstance(value, _y.FunctionType):
                    st.codes[f"the name {key}"] = _code_of(value)
        return kept

    def done(nonce):
        frame = _s._getframe(1)
        changed = protected(fix=False) + machinery(fix=False)
        traced = frame.f_trace is not None
        hist = getattr(st.ip, "history_manager", None)
        parsed = getattr(hist, "input_hist_parsed", None) or [""]
        ran = _h.sha1(str(parsed[-1]).strip().encode()).hexdigest()
        report = _j.dumps({"changed": changed, "traced": traced, "ran": ran})
        _s.stdout.write(f"\x1ePTG {nonce} {report}\x1e\n")
        _s.stdout.flush()

    module = _y.ModuleType(name)
    module.sanitize, module.done, module.remember = sanitize, done, remember
    _s.modules[name] = module
    return name


# The course's helpers that test cells call, and IPython's display functions that carry the second
# key's observations: imported with the guard, before any cell of the notebook, and protected.
HELPERS = ("ptcourse.training", "ptcourse.placement", "ptcourse.spies", "ptcourse.data", "ptcourse.peak",
           "ptcourse.timing", "ptcourse.augment", "ptcourse.tracebacks")
DISPLAY = ("IPython.display", "IPython.core.display_functions", "IPython.core.display")
LIBRARY = ("torch.optim", "torch.optim.optimizer", "torch.optim.lr_scheduler", "torch.utils.data",
           "torch.nn.modules.module", "torch.amp", "torch.amp.autocast_mode")
# Modules whose classes are protected too, attribute by attribute (``nn.Module.__call__``,
# ``nn.Linear.forward``, ``DataLoader.__iter__``, ``SGD.step``, the helpers' own classes).
CLASSES_OF = ("torch.nn", "torch.optim", "torch.optim.lr_scheduler", "torch.utils.data", "torch.amp.autocast_mode",
              *HELPERS)


# Libraries whose modules a course's import makes protected namespaces too (the standard library's
# change as a kernel runs: ``sys.last_value``, ``warnings.filters``; for them only the name is kept).
_SPACE_ROOTS = ("torch", "torchvision", "numpy", "ptcourse", "IPython")


def _spaces(ip, names=()):
    """The namespaces the checks rely on, as (label, object), and the kernel's own objects."""
    import importlib
    import math

    import numpy
    import torch
    import torch.nn.functional
    import torch.testing

    import ptcourse
    import ptcourse.checks
    import ptcourse.messages
    import ptcourse.observe

    kernel = getattr(ip, "kernel", None)
    spaces = [("builtins", _b), ("torch", torch), ("torch.Tensor", torch.Tensor), ("torch.nn", torch.nn),
              ("torch.nn.functional", torch.nn.functional), ("torch.testing", torch.testing),
              ("torch.autograd", torch.autograd), ("numpy", numpy), ("numpy.testing", numpy.testing),
              ("math", math), ("ptcourse", ptcourse), ("ptcourse.checks", ptcourse.checks),
              ("ptcourse.messages", ptcourse.messages), ("ptcourse.observe", ptcourse.observe)]
    wanted = [*HELPERS, *DISPLAY, *LIBRARY, *(m for _n, m, _a in names if m.split(".")[0] in _SPACE_ROOTS)]
    spaces += [(label, module) for label, module in _imported(importlib, wanted) if label not in dict(spaces)]
    spaces += _classes(spaces)
    session = getattr(kernel, "session", None)
    instances = [o for o in (ip, kernel, session, _s.stdout, _s.stderr, ip.display_pub, ip.displayhook,
                             ip.InteractiveTB, ip.compile) if o is not None]
    roots = ("IPython", "ipykernel", "jupyter_client")
    classes = [c for o in instances for c in type(o).__mro__ if c.__module__.split(".")[0] in roots]
    seen = set()
    for cls in classes:
        if id(cls) not in seen:
            seen.add(id(cls))
            spaces.append((f"{cls.__module__}.{cls.__qualname__}", cls))
    genuine = {"torch": torch, "np": numpy, "numpy": numpy, "nn": torch.nn, "F": torch.nn.functional,
               "math": math, "ptcourse": ptcourse}
    genuine.update({n: getattr(ptcourse.checks, n) for n in ptcourse.checks.__all__})
    bound = _bound(importlib, names)
    genuine.update(bound)
    labels = {label for label, _obj in spaces}
    spaces += [(v.__name__, v) for v in bound.values() if isinstance(v, _y.ModuleType) and v.__name__ not in labels
               and v.__name__.split(".")[0] in _SPACE_ROOTS]
    return spaces, instances, genuine, ptcourse.checks.CheckFailed


def _imported(importlib, wanted):
    """``(name, module)`` for each module of ``wanted`` that imports (one that does not is left out:
    the test cells that need it fail on their own)."""
    out = []
    for label in dict.fromkeys(wanted):
        try:
            out.append((label, importlib.import_module(label)))
        except Exception:  # noqa: BLE001 - a missing optional library, a broken one
            continue
    return out


def _classes(spaces):
    """The classes defined in the modules of :data:`CLASSES_OF`, each once, as (label, class)."""
    out, seen = [], {id(obj) for _label, obj in spaces}
    for label, module in spaces:
        if label not in CLASSES_OF:
            continue
        for value in list(vars(module).values()):
            if isinstance(value, type) and id(value) not in seen and \
                    getattr(value, "__module__", "").split(".")[0] in ("torch", "ptcourse"):
                seen.add(id(value))
                out.append((f"{value.__module__}.{value.__qualname__}", value))
    return out


def _bound(importlib, names):
    """The objects the course's own imports bind to ``names`` (``[name, module, attribute or None]``)."""
    out = {}
    for name, module, attr in names:
        try:
            value = importlib.import_module(module)
            out[name] = getattr(value, attr) if attr else value
        except Exception:  # noqa: BLE001 - as _imported
            continue
    return out


def _snapshot(names=()):
    """What the checks rely on, as it is now: the kernel-side state of :func:`_install`."""
    ip = get_ipython()  # noqa: F821 - the kernel's shell
    import ptcourse.tracebacks  # the course's own error display (the learner's frames only): installed
    ptcourse.tracebacks.install(ip)  # before the snapshot, so it is put back, not undone, before each check
    spaces, instances, genuine, check_failed = _spaces(ip, names)
    snap = {label: (obj, dict(vars(obj))) for label, obj in spaces}
    codes = _codes(snap)  # the functions' own code and defaults: swapping them keeps the object
    strict = {"torch.Tensor"} | {label for label, obj in spaces if isinstance(obj, type) and label != "torch.Tensor"}
    modules = {label: _s.modules.get(label) for label, obj in spaces if isinstance(obj, _y.ModuleType)}
    tm = ip.input_transformer_manager
    shell_attrs = ["input_transformers_cleanup", "input_transformers_post", "ast_transformers",
                   "custom_exceptions", "CustomTB", "InteractiveTB", "SyntaxTB", "displayhook", "display_pub",
                   "display_formatter", "compile", "input_transformer_manager", "history_manager"]
    shell = {a: getattr(ip, a, None) for a in shell_attrs}
    shell_lists = {a: list(v) for a, v in shell.items() if isinstance(v, list)}
    tm_attrs = {a: list(getattr(tm, a)) for a in ("cleanup_transforms", "line_transforms", "token_transformers")
                if isinstance(getattr(tm, a, None), list)}
    own = {id(o): (o, {k for k, v in vars(o).items() if callable(v)}) for o in instances if hasattr(o, "__dict__")}
    system = {"stdout": _s.stdout, "stderr": _s.stderr}
    for key in _KERNEL_SWAPS:  # IPython and ipykernel swap these for each request
        snap["builtins"][1].pop(key, None)
    return _y.SimpleNamespace(ip=ip, snap=snap, codes=codes, strict=strict, modules=modules, genuine=genuine, tm=tm, shell=shell,
                              shell_lists=shell_lists, tm_attrs=tm_attrs, own=own, system=system,
                              check_failed=check_failed, interactivity=getattr(ip, "ast_node_interactivity", None),
                              dtype=__import__("torch").get_default_dtype())


def _settings(st):
    """The learner's own settings that change what a check computes or how nbgrader reads it, put back for the
    checks as they were when the course's reference answers were computed: said, never counted as tampering.

    * ``torch.set_default_dtype``: the checks' fresh inputs would be drawn in it, the reference's in float32;
    * IPython's ``ast_node_interactivity`` (``'all'``, a common tip): each test cell's docstring would be shown
      as a result before the cell's error, which nbgrader reads as its grade."""
    import torch

    out = []
    if torch.get_default_dtype() is not st.dtype:
        out.append(f"torch.set_default_dtype({torch.get_default_dtype()})")
        torch.set_default_dtype(st.dtype)
    shown = getattr(st.ip, "ast_node_interactivity", None)
    if shown != st.interactivity:
        out.append(f"InteractiveShell.ast_node_interactivity = {shown!r}")
        st.ip.ast_node_interactivity = st.interactivity
    return out


def _protected_check(st):
    """``changes(fix)``: the protected objects changed since the snapshot (put back with ``fix``)."""
    snap, strict, modules, genuine, ip = st.snap, st.strict, st.modules, st.genuine, st.ip
    bases = {id(obj): dict(base) for obj, base in snap.values()}  # as first seen (each base is updated)

    def changes(fix):
        out = []
        for label, (obj, base) in snap.items():
            current = vars(obj)
            for key, value in base.items():
                if current.get(key, _missing) is not value:
                    if _library(current.get(key, _missing), value):  # torch._dynamo wrapping torch.manual_seed
                        base[key] = current[key]
                        continue
                    out.append(f"{label}.{key}")
                    if fix:
                        try:
                            setattr(obj, key, value) if label != "builtins" else current.__setitem__(key, value)
                        except (AttributeError, TypeError):
                            pass
            if label in strict:
                for key in [k for k in current if k not in base and k not in _CACHES]:
                    if _library_key(obj, key, current[key], bases):  # SGD.step wrapped by torch at the first SGD()
                        base[key] = current[key]
                        continue
                    out.append(f"{label}.{key}")
                    if fix:
                        try:
                            delattr(obj, key)
                        except (AttributeError, TypeError):
                            pass
        for label, module in modules.items():
            if module is not None and _s.modules.get(label) is not module:
                out.append(f"sys.modules[{label!r}]")
                if fix:
                    _s.modules[label] = module
        out += _code_changes(st.codes, fix)
        ns = ip.user_ns
        for key, value in genuine.items():
            now = ns.get(key, value)  # a test cell reads it: any other object in its place is a forge
            if now is not value and not _same_function(now, value):
                out.append(f"the name {key}")
                if fix:
                    ns[key] = value
        return out

    return changes


def _same_function(now, then):
    """Whether ``now`` is ``then`` defined again (the course's cell run twice): equal code and defaults,
    the same globals, no closure."""
    if not (isinstance(now, _y.FunctionType) and isinstance(then, _y.FunctionType)):
        return False
    try:
        return bool(now.__code__ == then.__code__ and now.__globals__ is then.__globals__ and now.__closure__ is None
                    and then.__closure__ is None and now.__defaults__ == then.__defaults__
                    and now.__kwdefaults__ == then.__kwdefaults__)
    except Exception:  # noqa: BLE001 - defaults whose comparison raises (a tensor): not the same
        return False


def _codes(snap):
    """``{label: (function, code, defaults, keyword defaults and their items)}`` for every Python function
    of the protected namespaces: a cheat may swap a function's ``__code__`` or defaults and keep the object."""
    out = {}
    for label, (_obj, base) in snap.items():
        for key, fn in base.items():
            if isinstance(fn, _y.FunctionType):
                out[f"{label}.{key}"] = _code_of(fn)
    return out


def _code_of(fn):
    kw = fn.__kwdefaults__
    return fn, fn.__code__, fn.__defaults__, kw, list(kw.items()) if kw else None


def _same_items(now, then):
    return len(now) == len(then) and all(a[0] == b[0] and a[1] is b[1] for a, b in zip(now, then, strict=True))


def _code_changes(codes, fix):
    """What :func:`_codes` saw that changed since (put back with ``fix``)."""
    out = []
    for label, (fn, code, defaults, kw, items) in codes.items():
        now = list(fn.__kwdefaults__.items()) if fn.__kwdefaults__ else None
        if fn.__code__ is not code or fn.__defaults__ is not defaults or fn.__kwdefaults__ is not kw or (
                (now is None) != (items is None) or (now is not None and not _same_items(now, items))):
            out.append(f"{label}.__code__")
            if fix:
                try:
                    fn.__code__, fn.__defaults__, fn.__kwdefaults__ = code, defaults, kw
                    if kw is not None:
                        kw.clear()
                        kw.update(items)
                except (AttributeError, TypeError, ValueError):
                    pass
    return out


def _machinery_check(st):
    """``changes(fix)``: IPython's execution machinery changed since the snapshot (switched off with ``fix``)."""
    ip, shell, shell_lists, tm, tm_attrs, own, system = st.ip, st.shell, st.shell_lists, st.tm, st.tm_attrs, st.own, st.system

    def changes(fix):
        out = []
        for attr, value in shell.items():
            if getattr(ip, attr, None) is not value:
                out.append(attr)
                if fix:
                    setattr(ip, attr, value)
        for attr, items in shell_lists.items():
            if list(getattr(ip, attr)) != items:
                out.append(attr)
                if fix:
                    getattr(ip, attr)[:] = items
        for attr, items in tm_attrs.items():
            if list(getattr(tm, attr)) != items:
                out.append(f"input_transformer_manager.{attr}")
                if fix:
                    getattr(tm, attr)[:] = items
        for obj, keys in own.values():
            for key in _added(obj, keys):
                out.append(f"{type(obj).__name__}.{key}")
                if fix:
                    vars(obj).pop(key, None)
        for key, value in system.items():
            if getattr(_s, key) is not value:
                out.append(f"sys.{key}")
                if fix:
                    setattr(_s, key, value)
        return out + _tracing(fix)

    return changes


def _tracing(fix):
    """Trace and profile functions set (removed with ``fix``)."""
    out = []
    if _s.gettrace() is not None or _s.getprofile() is not None:
        out.append("sys.settrace/setprofile")
        if fix:
            _s.settrace(None)
            _s.setprofile(None)
    if getattr(_t, "_trace_hook", None) is not None or getattr(_t, "_profile_hook", None) is not None:
        out.append("threading.settrace/setprofile")
        if fix:
            _t.settrace(None) if hasattr(_t, "settrace") else None
            _t.setprofile(None) if hasattr(_t, "setprofile") else None
    return out


def _harmful_check(st):
    """``harmful()``: added machinery that would change a test or hide its failure (harmless additions are not)."""
    ip, shell_lists, own, check_failed = st.ip, st.shell_lists, st.own, st.check_failed

    def harmful():
        out = []
        probe = "x = 1\nraise AssertionError('probe')\n"
        for attr in ("input_transformers_cleanup", "input_transformers_post"):
            for fn in getattr(ip, attr)[len(shell_lists.get(attr, [])):]:
                try:
                    if "".join(fn(probe.splitlines(True))) != probe:
                        out.append(f"an input transformer ({attr})")
                except Exception:
                    out.append(f"an input transformer ({attr})")
        import ast as _ast
        for fn in getattr(ip, "ast_transformers", [])[len(shell_lists.get("ast_transformers", [])):]:
            try:
                tree = _ast.parse(probe)
                if _ast.dump(fn.visit(_ast.parse(probe))) != _ast.dump(tree):
                    out.append("an AST transformer")
            except Exception:
                out.append("an AST transformer")
        caught = tuple(getattr(ip, "custom_exceptions", ()) or ())
        ours = getattr(ip, "CustomTB", None) is st.shell["CustomTB"] and caught == st.shell["custom_exceptions"]
        if caught and not ours and any(issubclass(check_failed, c) or issubclass(KeyboardInterrupt, c)
                          for c in caught if isinstance(c, type)):
            out.append("a custom exception handler")
        for obj, keys in own.values():
            out += [f"{type(obj).__name__}.{k}" for k in _added(obj, keys)]
        return out

    return harmful


_RESULTS = ("_", "__", "___")  # a display hook's last three results: the learner's values, never machinery


def _added(obj, keys):
    """The callables ``obj`` holds now that it did not at the snapshot. A display hook keeps the last results a
    cell showed as ``_``, ``__``, ``___``: a model or a function shown (``net.eval()``) is no machinery, and
    taking it away would break the hook for every later cell."""
    from IPython.core.displayhook import DisplayHook

    results = _RESULTS if isinstance(obj, DisplayHook) else ()
    return [k for k, v in vars(obj).items() if callable(v) and k not in keys and k not in results]


_CACHES = ("__slotnames__",)  # what copyreg and friends cache on a class
_LIBRARIES = tuple(
    _p for _p in (getattr(__import__(_m), "__file__", None) for _m in ("torch", "numpy", "IPython", "ipykernel"))
    if _p
)


def _library(obj, old):
    """Whether ``obj`` is the libraries' own lazy patch of ``old``: a module of theirs, or a function
    whose code is in their files *as on disk* (compiled from the file again and compared), defined in
    that file's own module, that wraps the original (``functools.wraps``'s ``__wrapped__``, or the
    original held in its closure: dynamo's ``nn.Module.__init__``)."""
    import os

    roots = tuple(os.path.dirname(p) + os.sep for p in _LIBRARIES)
    if isinstance(obj, _y.ModuleType):
        path = getattr(obj, "__file__", None) or ""
        return bool(path) and path.startswith(roots) and isinstance(old, _y.ModuleType)
    code = getattr(obj, "__code__", None) if isinstance(obj, _y.FunctionType) else None
    path = code.co_filename if code is not None else ""
    if not (path and path.startswith(roots) and os.path.isfile(path)):
        return False
    home = _s.modules.get(obj.__globals__.get("__name__") or "")  # not __module__: functools.wraps copies it
    if home is None or getattr(home, "__file__", None) != path or obj.__globals__ is not vars(home):
        return False
    return _wraps(obj, old) and _closure_is_theirs(obj, old, roots) and _on_disk(code, path)


def _closure_is_theirs(obj, old, roots):
    """Whether everything callable the wrapper closes over is the original or the libraries' own: a
    library's wrapper code with a closure cell pointed at a cheat's hook is not theirs."""
    for cell in obj.__closure__ or ():
        try:
            value = cell.cell_contents
        except ValueError:  # an empty cell
            continue
        if value is old or not callable(value):
            continue
        value = getattr(value, "__func__", value)  # a bound method: its function
        code = getattr(value, "__code__", None)
        if isinstance(code, _y.CodeType):
            if not (code.co_filename.startswith(roots) and _on_disk(code, code.co_filename)):
                return False
        elif not isinstance(value, (_y.BuiltinFunctionType, _y.BuiltinMethodType)):
            kind = value if isinstance(value, type) else type(value)
            if (getattr(kind, "__module__", "") or "").split(".")[0] not in ("torch", "numpy"):
                return False
    return True


def _wraps(obj, old):
    inner = obj
    for _ in range(5):
        inner = getattr(inner, "__wrapped__", None)
        if inner is None:
            break
        if inner is old:
            return True
    try:
        return any(cell.cell_contents is old for cell in obj.__closure__ or ())
    except ValueError:  # an empty cell
        return False


_COMPILED = {}


def _on_disk(code, path):
    """Whether ``code`` is one of the code objects compiled from the file ``path`` as it is on disk."""
    if path not in _COMPILED:
        try:
            with open(path, encoding="utf-8") as f:
                top = compile(f.read(), path, "exec", dont_inherit=True)
        except (OSError, SyntaxError, ValueError):
            top = None
        found, todo = [], [top] if top is not None else []
        while todo:
            item = todo.pop()
            found.append(item)
            todo += [c for c in item.co_consts if isinstance(c, _y.CodeType)]
        _COMPILED[path] = found
    return any(code == c for c in _COMPILED[path])


# Keys the libraries add to a protected class, with the only value they set (dynamo's mark on nn.Module).
_LIBRARY_KEYS = {"___needs_generation_tag_patch": False}


def _library_key(cls, key, value, bases):
    """Whether a key added to the class ``cls`` is the libraries' own: a mark of theirs, or their wrapper
    of what ``cls`` inherits under that name, now or as the guard first saw it in ``bases`` (dynamo
    wraps ``Adam._init_group`` and ``AdamW``'s inherited one, in either order)."""
    if key in _LIBRARY_KEYS:
        return value is _LIBRARY_KEYS[key]
    for parent in getattr(cls, "__mro__", ())[1:]:
        if key in vars(parent):
            seen = bases.get(id(parent), {}).get(key, _missing)
            return _library(value, vars(parent)[key]) or (seen is not _missing and _library(value, seen))
    return False


_KERNEL_SWAPS = ("input", "raw_input", "getpass", "get_ipython", "exit", "quit", "display", "_", "__IPYTHON__")


class _Missing:
    pass


_missing = _Missing()
