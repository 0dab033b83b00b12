"""Execute a source notebook once and keep its kernel for the mutants that follow."""

from __future__ import annotations

import atexit
from dataclasses import dataclass, field
from pathlib import Path

from tools.kernel import Kernel, Result
from tools.notebooks import read


@dataclass
class Executed:
    """A notebook run top to bottom in a live kernel, with each code cell's result."""

    path: Path
    kernel: Kernel
    nb: object
    results: dict[int, Result] = field(default_factory=dict)

    def errors(self) -> list[tuple[int, Result]]:
        return [(i, r) for i, r in self.results.items() if not r.ok]


_current: Executed | None = None


def run_notebook(path: Path, env: dict[str, str] | None = None, timeout: float = 300) -> Executed:
    """A fresh kernel in the notebook's folder, every code cell executed in order."""
    nb = read(path)
    kernel = Kernel(path.parent, env=env).__enter__()
    done = Executed(path, kernel, nb)
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "code":
            done.results[i] = kernel.run(cell.source, timeout=timeout)
    return done


def executed(path: Path) -> Executed:
    """The executed notebook, reusing the live kernel if it is the one asked for."""
    global _current
    if _current is None or _current.path != path:
        close_current()
        _current = run_notebook(path)
        # The mutants that follow fail cells by the hundred; their errors are read by name and value only
        # (tools.kernel.Result.message), so the kernel draws them plainly from now on, as a grading kernel
        # does (grader/jail/execute.py: GRADING_ARGUMENTS): 15-20 ms less an error. The solution's own run,
        # above, drew as a learner's kernel does.
        plain = _current.kernel.run("get_ipython().InteractiveTB.set_mode(mode='Plain')", silent=True)
        assert plain.ok, plain.message
    return _current


def close_current() -> None:
    global _current
    if _current is not None:
        _current.kernel.close()
        _current = None


atexit.register(close_current)
