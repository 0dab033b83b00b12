"""An unexpected error in the learner's own code shows its traceback trimmed to the learner's frames.

A beginner reads the first red lines of a traceback; when their model's ``forward`` fails inside
``nn.Module.__call__``, a course helper or IPython, most of those lines are someone else's code.
Here every exception a cell raises is drawn by IPython as usual, but from a traceback that keeps
only the learner's frames: the notebook's cells and the learner's own files. Frames of the course
package, of the Python installation (the standard library, ``torch``, IPython, ipykernel, nbgrader's
kernel side) and code with no file (``<string>``) are left out, in the middle of the stack too: a
learner's function called back by a course helper keeps its own frames. The exception's chain
(``raise ... from``, an error while handling another) is trimmed the same way. A failed check has no
frame at all (:meth:`ptcourse.checks.CheckFailed._render_traceback_`). A syntax error is drawn as
IPython draws it (no stack: only the line).

The mechanism is IPython's documented ``InteractiveShell.set_custom_exc``, for ``Exception`` (a
``KeyboardInterrupt`` or ``SystemExit`` is IPython's own business). :func:`install` is called by
:func:`ptcourse.setup` (the notebooks' first cell) and, before the notebook's first cell, by the
grader's guard (grader/judge/kernel_guard.py), whose snapshot then holds this handler: the guard puts it
back before each graded cell instead of undoing it. It only changes what is drawn: the error output
keeps the exception's name and value, ``sys.last_traceback`` keeps the whole traceback (``%debug``),
and the cell fails as before.
"""

from __future__ import annotations

import functools
import os
import site
import sys
import sysconfig
from collections.abc import Callable
from types import TracebackType
from typing import Any

__all__ = ["install", "is_learners", "learner_traceback"]

_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep
_INSTALLED: dict[int, Any] = {}  # id(shell) -> the CustomTB this module set on it


def _hidden_roots() -> tuple[str, ...]:
    """The folders whose code is not the learner's: this package and the Python installation."""
    paths = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix,
             *(sysconfig.get_paths().get(k, "") for k in ("stdlib", "platstdlib", "purelib", "platlib"))}
    try:
        paths.update(site.getsitepackages())
    except AttributeError:  # a virtualenv's old site module
        pass
    user = getattr(site, "USER_SITE", None)
    if user:
        paths.add(user)
    roots = {os.path.realpath(p) + os.sep for p in paths if p}
    return (_PACKAGE, os.path.realpath(_PACKAGE) + os.sep, *sorted(roots))


_ROOTS = _hidden_roots()


def is_learners(filename: str, cells: Any = ()) -> bool:
    """Whether code from ``filename`` is the learner's: a notebook cell (``cells``: the file names
    IPython gave the cells it ran), or a file outside this package and the Python installation."""
    if filename in cells:
        return True
    if not filename or filename.startswith("<"):
        return False
    path = os.path.abspath(filename)
    return not (path.startswith(_ROOTS) or os.path.realpath(path).startswith(_ROOTS))


def learner_traceback(tb: TracebackType | None, keep: Callable[[str], bool]) -> TracebackType | None:
    """A new traceback of the frames of ``tb`` whose file ``keep`` accepts, in order (``tb`` is unchanged)."""
    kept = []
    while tb is not None:
        if keep(tb.tb_frame.f_code.co_filename):
            kept.append(tb)
        tb = tb.tb_next
    out = None
    for item in reversed(kept):
        out = TracebackType(out, item.tb_frame, item.tb_lasti, item.tb_lineno)
    return out


def _chain(value: BaseException | None) -> list[BaseException]:
    """``value`` and the exceptions it was raised from or while handling, each once."""
    out: list[BaseException] = []
    while value is not None and all(value is not seen for seen in out):
        out.append(value)
        value = value.__cause__ or value.__context__
    return out


def _trim_chain(value: BaseException, keep: Callable[[str], bool]) -> list[tuple[BaseException, Any]]:
    """Give each exception of ``value``'s chain its trimmed traceback; returns what to put back."""
    saved = [(exc, exc.__traceback__) for exc in _chain(value)]
    try:
        for exc, tb in saved:
            exc.__traceback__ = learner_traceback(tb, keep)
    except Exception:
        _restore(saved)
        raise
    return saved


def _restore(saved: list[tuple[BaseException, Any]]) -> None:
    for exc, tb in saved:
        exc.__traceback__ = tb


def _handler(shell, etype, value, tb, tb_offset=None):  # noqa: ARG001 - IPython's signature
    """IPython's custom exception handler: draw the error with the learner's frames only. Should the
    trimming itself fail, the whole traceback is drawn: an error is never left unshown."""
    if issubclass(etype, SyntaxError):  # a cell that does not parse, or a learner's file that does not
        shell.showsyntaxerror()
        return None
    try:
        cells = getattr(getattr(shell, "compile", None), "_filename_map", None) or {}
        saved = _trim_chain(value, functools.partial(is_learners, cells=cells))
    except Exception:  # noqa: BLE001 - a traceback it cannot read: IPython's own drawing
        saved = None
    try:
        if saved is None:
            shell.showtraceback((etype, value, tb), running_compiled_code=True)
        else:
            shell.showtraceback((etype, value, value.__traceback__), tb_offset=0)
    finally:
        _restore(saved or [])
        sys.last_traceback = tb  # the whole traceback for %debug and tools that read it
    return None


def install(shell: Any = None) -> bool:
    """Draw the errors of ``shell`` (the running IPython, by default) with the learner's frames only.
    Returns whether it is installed; calling it again changes nothing (the guard's snapshot stays
    the same when the notebook's set-up calls it after the guard)."""
    if shell is None:
        try:
            from IPython import get_ipython
        except ImportError:  # plain Python: nothing draws tracebacks for cells
            return False
        shell = get_ipython()
    if shell is None or not hasattr(shell, "set_custom_exc"):
        return False
    if _INSTALLED.get(id(shell)) is getattr(shell, "CustomTB", None) and shell.custom_exceptions == (Exception,):
        return True
    shell.set_custom_exc((Exception,), _handler)
    _INSTALLED[id(shell)] = shell.CustomTB
    return True
