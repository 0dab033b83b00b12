"""The grader's agent inside a student's kernel (sent as source text; never imported by the grader).

:mod:`grader.guard` executes this file's text in the kernel, silently, before the notebook's first
cell, under a module name that is random for each run. It snapshots what the course's checks rely
on: the built-ins, ``torch`` (with ``torch.Tensor``, ``torch.nn``, ``torch.nn.functional``,
``torch.testing``, ``torch.autograd``), ``numpy``, ``math``, the course package's check helpers
and its second key (``ptcourse.observe``), the code and defaults of every Python function among
them (a swapped ``__code__`` keeps the object), and IPython's execution machinery (input and AST
transformers, custom exception handlers,
traceback and display hooks, the kernel's methods). Then, for every graded test cell:

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


def _install(name):
    """Snapshot what the checks rely on, and register the module ``name`` with ``sanitize`` and ``done``."""
    st = _snapshot()
    protected, machinery, harmful = _protected_check(st), _machinery_check(st), _harmful_check(st)

    def sanitize(nonce):
        restored = protected(fix=True)
        found = harmful()
        switched_off = machinery(fix=True)
        return _j.dumps({"nonce": nonce, "restored": restored, "machinery": switched_off, "harmful": found})

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
    module.sanitize, module.done = sanitize, done
    _s.modules[name] = module
    return name


def _spaces(ip):
    """The namespaces the checks rely on, as (label, object), and the kernel's own objects."""
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
    return spaces, instances, genuine, ptcourse.checks.CheckFailed


def _snapshot():
    """What the checks rely on, as it is now: the kernel-side state of :func:`_install`."""
    ip = get_ipython()  # noqa: F821 - the kernel's shell
    spaces, instances, genuine, check_failed = _spaces(ip)
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
                              check_failed=check_failed)


def _protected_check(st):
    """``changes(fix)``: the protected objects changed since the snapshot (put back with ``fix``)."""
    snap, strict, modules, genuine, ip = st.snap, st.strict, st.modules, st.genuine, st.ip

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
            if key in ns and ns[key] is not value and (isinstance(ns[key], _y.ModuleType) or callable(ns[key])):
                out.append(f"the name {key}")
                if fix:
                    ns[key] = value
        return out

    return changes


def _codes(snap):
    """``{label: (function, code, defaults, keyword defaults and their items)}`` for every Python function
    of the protected namespaces: a cheat may swap a function's ``__code__`` or defaults and keep the object."""
    out = {}
    for label, (_obj, base) in snap.items():
        for key, fn in base.items():
            if isinstance(fn, _y.FunctionType):
                kw = fn.__kwdefaults__
                out[f"{label}.{key}"] = (fn, fn.__code__, fn.__defaults__, kw, list(kw.items()) if kw else None)
    return out


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
            for key in [k for k, v in vars(obj).items() if callable(v) and k not in keys]:
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
        if caught and any(issubclass(check_failed, c) or issubclass(KeyboardInterrupt, c)
                          for c in caught if isinstance(c, type)):
            out.append("a custom exception handler")
        for obj, keys in own.values():
            out += [f"{type(obj).__name__}.{k}" for k, v in vars(obj).items() if callable(v) and k not in keys]
        return out

    return harmful


_CACHES = ("__slotnames__",)  # what copyreg and friends cache on a class
_LIBRARIES = tuple(
    _p for _p in (getattr(__import__(_m), "__file__", None) for _m in ("torch", "numpy", "IPython", "ipykernel"))
    if _p
)


def _library(obj, old):
    """Whether ``obj`` is the libraries' own lazy patch of ``old``: a module of theirs, or a wrapper
    defined in their files whose ``__wrapped__`` is the original (``functools.wraps``)."""
    import os

    roots = tuple(os.path.dirname(p) + os.sep for p in _LIBRARIES)
    if isinstance(obj, _y.ModuleType):
        path = getattr(obj, "__file__", None) or ""
        return bool(path) and path.startswith(roots) and isinstance(old, _y.ModuleType)
    code = getattr(obj, "__code__", None)
    path = code.co_filename if code is not None else ""
    if not (path and path.startswith(roots) and os.path.isfile(path)):
        return False
    inner = obj
    for _ in range(5):
        inner = getattr(inner, "__wrapped__", None)
        if inner is None:
            return False
        if inner is old:
            return True
    return False


_KERNEL_SWAPS = ("input", "raw_input", "getpass", "get_ipython", "exit", "quit", "display", "_", "__IPYTHON__")


class _Missing:
    pass


_missing = _Missing()
