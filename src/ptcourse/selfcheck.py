"""The learner's self-check: run one notebook's visible tests and print what passed.

``python -m ptcourse.selfcheck day1/01_tensors.ipynb`` (``make check NB=...`` in the student
edition) runs the notebook top to bottom in a fresh kernel, in its own folder, exactly as
"Restart Kernel and Run All Cells" would, then reports each graded test cell in the class
grader's ✔/✘ format with the plain-words message of a failure. An exercise that still raises
``NotImplementedError`` is reported as "not done yet". The notebook file is not changed.

Only the tests in the notebook run: hidden tests exist only in the instructor's copy and run
when the instructor grades. The result is saved for the course home (:mod:`ptcourse.progress`).
"""

from __future__ import annotations

import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from ptcourse.messages import catalogue, msg
from ptcourse.nbmodel import nbgrader_meta, read_notebook, role
from ptcourse.textclip import first_line

CELL_TIMEOUT = 120  # seconds, as the course's nbgrader configuration

__all__ = ["CheckResult", "check_notebook", "main", "run_checks"]


@dataclass
class CheckResult:
    """One visible test cell's outcome."""

    grade_id: str
    points: float
    passed: bool
    message: str = ""
    hidden: bool = False  # the cell holds only hidden tests here: nothing to run before grading


def has_visible_test(source: str) -> bool:
    """Whether a test cell does anything here beyond its docstring and imports.

    In the student copy a test cell whose checks are all hidden keeps only those lines, so
    it always "passes": it is reported as hidden, not as passed.
    """
    import ast

    try:
        body = ast.parse(source).body
    except SyntaxError:
        return True
    quiet = (ast.Import, ast.ImportFrom, ast.Pass)
    for node in body:
        if isinstance(node, quiet):
            continue
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            continue
        return True
    return False


def is_test_cell(cell) -> bool:
    return role(cell) == "test"


def _error(cell) -> dict | None:
    errors = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"]
    return errors[-1] if errors else None


def error_message(error: dict) -> str:
    """The plain-words part of an error output: the check's message, or ``Name: message``."""
    ename, evalue = error.get("ename", "Error"), error.get("evalue", "")
    if ename in {"CheckFailed", "AssertionError"} and evalue:
        return evalue.splitlines()[0]
    if ename == "NotImplementedError":
        return msg("selfcheck.not_done")
    return f"{ename}: {evalue}".splitlines()[0] if evalue else ename


def results(nb, ran: set[int] | None = None) -> list[CheckResult]:
    """Each test cell of an executed notebook (``ran``: indices of the cells that ran)."""
    out, answer_not_done = [], False
    for index, cell in enumerate(nb.cells):
        meta = nbgrader_meta(cell)
        if cell.get("cell_type") == "code" and meta.get("solution"):
            error = _error(cell)
            answer_not_done = bool(error and error.get("ename") == "NotImplementedError")
            continue
        if not is_test_cell(cell):
            continue
        points = float(meta.get("points", 0) or 0)
        gid = meta.get("grade_id", f"cell {index}")
        error = _error(cell)
        if not has_visible_test(cell.get("source", "")):
            out.append(CheckResult(gid, points, False, msg("selfcheck.hidden_only"), hidden=True))
        elif ran is not None and index not in ran:
            out.append(CheckResult(gid, points, False, msg("selfcheck.not_run")))
        elif error is None:
            out.append(CheckResult(gid, points, True))
        elif answer_not_done or error.get("ename") == "NotImplementedError":
            out.append(CheckResult(gid, points, False, msg("selfcheck.not_done")))
        else:
            out.append(CheckResult(gid, points, False, error_message(error)))
    return out


def run_checks(path: Path, timeout: int = CELL_TIMEOUT) -> tuple[list[CheckResult], str | None]:
    """Execute a copy of the notebook at ``path``; its test results and a problem, if any."""
    from nbclient import NotebookClient
    from nbclient.exceptions import DeadKernelError

    nb = read_notebook(path)  # a byte-order mark too
    kernel = nb.metadata.get("kernelspec", {}).get("name", "python3")
    client = NotebookClient(nb, timeout=timeout, kernel_name=kernel, allow_errors=True,
                            interrupt_on_timeout=True, resources={"metadata": {"path": str(path.parent)}})
    problem = None
    try:
        client.execute(stderr=subprocess.DEVNULL)  # the kernel's own log lines are not the learner's business
    except DeadKernelError as exc:
        problem = msg("selfcheck.kernel_died", why=str(exc).splitlines()[0][:200])
    ran = {i for i, cell in enumerate(nb.cells) if cell.get("execution_count") is not None}
    return results(nb, ran), problem


def check_title(grade_id: str) -> str:
    """A check's name for the learner: its test's docstring in the learner's language
    (``<grade_id>.title`` in the catalogue), else its grade id."""
    key = f"{grade_id}.title"
    return msg(key).rstrip("。. ") if key in catalogue("en") else grade_id


def check_notebook(path: Path | str, *, save: bool = True, out=None) -> list[CheckResult]:
    """Run the visible tests of ``path``, print the ✔/✘ lines, save the result for HOME."""
    out = out or sys.stdout
    path = Path(path).resolve()
    from ptcourse.progress import course_root, notebook_key, record

    name = notebook_key(path, course_root(path))
    print(msg("selfcheck.running", name=name), file=out, flush=True)
    started = time.monotonic()
    checks, problem = run_checks(path)
    if not checks:
        print(msg("selfcheck.no_tests", name=name), file=out)
        return checks
    visible = [c for c in checks if not c.hidden]
    passed = sum(c.passed for c in visible)
    print(msg("selfcheck.header", name=name, passed=passed, total=len(visible),
              seconds=time.monotonic() - started), file=out)
    if problem:
        print(f"  {problem}", file=out)
    for c in checks:
        key = "selfcheck.hidden_line" if c.hidden else "selfcheck.pass" if c.passed else "selfcheck.fail"
        print(msg(key, title=check_title(c.grade_id), points=c.points, message=first_line(c.message)), file=out)
    print("\n" + msg("selfcheck.hidden"), file=out)
    if save:
        record(path, passed=passed, total=len(visible), source="visible")
        print(msg("selfcheck.recorded"), file=out)
    return checks


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or args[0] in {"-h", "--help"}:
        print(msg("selfcheck.usage"), file=sys.stderr)
        return 2
    path = Path(args[0])
    if not path.is_file():
        print(msg("selfcheck.no_notebook", path=path), file=sys.stderr)
        return 2
    try:
        read_notebook(path)
    except Exception as exc:  # invalid JSON or not a notebook: say so in plain words
        print(msg("selfcheck.unreadable", path=path, why=f"{type(exc).__name__}: {str(exc)[:200]}"), file=sys.stderr)
        return 2
    check_notebook(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
