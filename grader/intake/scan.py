"""Reading a submission's code for things a human should look at before trusting its grade.

Nothing here changes a score: each finding flags the notebook for manual review (in the class
report, the student's feedback and nbgrader's gradebook). Findings:

* redefining the testing tools: assigning to attributes of ``torch`` (``torch.allclose``,
  ``torch.testing``), ``numpy``, ``math``, ``ptcourse`` or ``builtins``; ``setattr`` on them;
  redefining the course's check helpers or assertion-related built-ins (``AssertionError``,
  ``isinstance``, ...); hooking IPython's error display or ``sys.excepthook``;
* detecting the grader: reading ``NBGRADER_EXECUTION`` or other grader markers;
* reaching outside the notebook: naming the solutions, the gradebook or other submissions;
  network modules.

Only cells the student writes are read: graded test cells are restored from the course anyway.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ptcourse.messages import msg

GUARDED_MODULES = {"torch", "numpy", "math", "ptcourse", "builtins", "unittest", "pytest", "IPython"}
GUARDED_BUILTINS = {
    "AssertionError", "Exception", "BaseException", "isinstance", "issubclass", "callable",
    "hasattr", "getattr", "all", "any", "abs", "len", "repr", "print", "float", "bool", "round",
}
HOOKS = {"set_custom_exc", "showtraceback", "excepthook", "settrace", "setprofile", "_showtraceback"}
NETWORK_MODULES = {"socket", "urllib", "requests", "http", "httpx", "aiohttp", "ftplib", "smtplib", "paramiko"}
GRADER_MARKERS = re.compile(r"NBGRADER|nbgrader|autograde|PTGRADE|bwrap|/proc/self/cgroup", re.I)
# Settings that notebooks are meant to change (reproducibility, compile); not testing tools.
ALLOWED_SETTINGS = ("torch.backends.", "torch._dynamo.config.", "torch._inductor.config.", "torch.set_")
COURSE_PATHS = re.compile(r"solutions|gradebook|submitted|autograded|\.\./\.\.", re.I)


@lru_cache(maxsize=1)
def check_helper_names() -> frozenset[str]:
    """The course's check helpers, which a submission must not redefine.

    Read from ``ptcourse/checks.py``'s ``__all__`` without importing it: importing it imports
    torch, seconds the grader's main process has no other use for.
    """
    import ptcourse

    try:
        tree = ast.parse((Path(ptcourse.__file__).parent / "checks.py").read_text())
        names = next(ast.literal_eval(node.value) for node in tree.body if isinstance(node, ast.Assign)
                     and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets))
    except (OSError, SyntaxError, ValueError, StopIteration):  # pragma: no cover - the package is part of the course
        return frozenset()
    return frozenset(name for name in names if name != "CheckFailed") | {"CheckFailed"}


@dataclass(frozen=True)
class Finding:
    """One reason to review a notebook by hand."""

    kind: str  # "tampering", "grader-detection", "outside-access"
    cell: int
    detail: str

    def __str__(self) -> str:
        return msg("grader.scan.cell", cell=self.cell, detail=self.detail)


def _root_name(node: ast.AST) -> str | None:
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _dotted(node: ast.AST) -> str:
    try:
        return ast.unparse(node)
    except Exception:  # pragma: no cover
        return "?"


class _Visitor(ast.NodeVisitor):
    def __init__(self, cell: int, aliases: dict[str, str], helpers: set[str]):
        self.cell, self.aliases, self.helpers = cell, aliases, helpers
        self.found: list[Finding] = []

    def add(self, kind: str, detail: str) -> None:
        self.found.append(Finding(kind, self.cell, detail))

    def _module_of(self, node: ast.AST) -> str | None:
        root = _root_name(node)
        if root is None:
            return None
        module = self.aliases.get(root, root if root in GUARDED_MODULES else None)
        return module.split(".")[0] if module else None

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self.aliases[alias.asname or alias.name.split(".")[0]] = alias.name
            if alias.name.split(".")[0] in NETWORK_MODULES:
                self.add("outside-access", msg("grader.scan.imports_network", module=alias.name))

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        for alias in node.names:
            self.aliases[alias.asname or alias.name] = f"{module}.{alias.name}"
        if module.split(".")[0] in NETWORK_MODULES:
            self.add("outside-access", msg("grader.scan.imports_from_network", module=module))

    def _target(self, target: ast.AST) -> None:
        if isinstance(target, (ast.Tuple, ast.List)):
            for elt in target.elts:
                self._target(elt)
            return
        if isinstance(target, ast.Attribute):
            module = self._module_of(target)
            dotted = _dotted(target)
            if self.aliases.get(_root_name(target) or ""):
                dotted = dotted.replace(_root_name(target), self.aliases[_root_name(target)], 1)
            if module in GUARDED_MODULES and not dotted.startswith(ALLOWED_SETTINGS):
                self.add("tampering", msg("grader.scan.assigns", target=dotted))
            elif target.attr in HOOKS:
                self.add("tampering", msg("grader.scan.replaces", target=_dotted(target)))
        elif isinstance(target, ast.Name):
            if target.id in GUARDED_BUILTINS:
                self.add("tampering", msg("grader.scan.redefines_builtin", name=target.id))
            elif target.id in self.helpers:
                self.add("tampering", msg("grader.scan.redefines_helper", name=target.id))
            elif target.id == "__builtins__":
                self.add("tampering", msg("grader.scan.assigns", target="__builtins__"))

    def visit_Assign(self, node: ast.Assign) -> None:
        for target in node.targets:
            self._target(target)
        self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self._target(node.target)
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        self._target(node.target)
        self.generic_visit(node)

    def visit_Delete(self, node: ast.Delete) -> None:
        for target in node.targets:
            self._target(target)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        if node.name in GUARDED_BUILTINS:
            self.add("tampering", msg("grader.scan.redefines_builtin", name=node.name))
        elif node.name in self.helpers:
            self.add("tampering", msg("grader.scan.redefines_helper", name=node.name))
        self.generic_visit(node)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        if node.name in GUARDED_BUILTINS or node.name in self.helpers:
            self.add("tampering", msg("grader.scan.redefines", name=node.name))
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if name in {"setattr", "delattr"} and node.args:
            module = self._module_of(node.args[0])
            if module in GUARDED_MODULES or (isinstance(node.args[0], ast.Name)
                                             and node.args[0].id == "__builtins__"):
                self.add("tampering", msg("grader.scan.calls_on", func=name, target=_dotted(node.args[0])))
        elif name in HOOKS:
            self.add("tampering", msg("grader.scan.calls", func=_dotted(func)))
        self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if node.attr == "__builtins__" or (node.attr == "modules" and _root_name(node) == "sys"):
            self.add("tampering", msg("grader.scan.uses", name=_dotted(node)))
        self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> None:
        if node.id == "__builtins__" and isinstance(node.ctx, ast.Load):
            self.add("tampering", msg("grader.scan.uses", name="__builtins__"))

    def visit_Constant(self, node: ast.Constant) -> None:
        if isinstance(node.value, str):
            if GRADER_MARKERS.search(node.value):
                self.add("grader-detection", msg("grader.scan.mentions", text=repr(node.value[:60])))
            elif COURSE_PATHS.search(node.value):
                self.add("outside-access", msg("grader.scan.course_files", text=repr(node.value[:60])))


def _python_source(source: str) -> str:
    """Cell source with IPython magics and shell escapes blanked out (they are not Python)."""
    lines = []
    for line in source.splitlines():
        stripped = line.lstrip()
        lines.append("" if stripped.startswith(("%", "!")) else line)
    return "\n".join(lines)


def scan(nb) -> list[Finding]:
    """Findings in the cells a student can edit, in cell order, without repeats."""
    helpers = check_helper_names()
    aliases: dict[str, str] = {}
    found: list[Finding] = []
    for index, cell in enumerate(nb.get("cells", [])):
        meta = cell.get("metadata", {}).get("nbgrader", {})
        if cell.get("cell_type") != "code" or (meta.get("grade") and not meta.get("solution")) or meta.get("locked"):
            continue
        source = _python_source(cell.get("source", ""))
        try:
            tree = ast.parse(source)
        except SyntaxError:
            for pattern, kind in ((GRADER_MARKERS, "grader-detection"), (COURSE_PATHS, "outside-access")):
                match = pattern.search(source)
                if match:
                    found.append(Finding(kind, index, msg("grader.scan.mentions", text=repr(match.group(0)))))
            continue
        visitor = _Visitor(index, aliases, helpers)
        visitor.visit(tree)
        found.extend(f for f in visitor.found if f not in found)
    return found
