"""The class grader's shape (CONTRIBUTING.md, "A map of the grader"): its stages import downwards
only, no module imports another that imports it back, and functions stay short enough to read.

The import graph counts every ``import grader...`` and ``from grader... import ...``, deferred
ones inside functions included. A new module must be given its stage in ``STAGES``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

GRADER = Path(__file__).resolve().parents[1] / "grader"

# Stages, lowest first: a module may import its own stage and those below, never one above.
STAGES = {
    0: ("settings", "bounds", "scratch", "security", "guard", "kernel_guard", "inductor", "model_checks", "observations", "platforms", "downloads",
        "repair", "scan", "roster_report", "records", "compat", "names", "text_files", "cell_words"),  # records and rules that need nothing of the grader
    1: ("submissions", "roster", "groups", "validate", "nbgrader_config"),  # intake: reading hand-ins and class lists
    2: ("sandbox", "zygote", "execute", "faults"),  # the jail: the kernel's confinement, warm kernels, nbgrader's Execute; a lost job
    3: ("gradebook",),  # nbgrader's database: templates, merging, reading scores
    4: ("jobs", "reference", "late", "extensions", "class_intake"),  # one notebook graded: the job, the second key's reference run, penalties
    5: ("report", "exports", "lms_files", "similarity", "similarity_page", "checklines", "worked"),  # results
    6: ("executors", "cluster", "worker_setup"),  # the Executor protocol, the local pool, Dask and its workers
    7: ("engine",),  # a class: intake, jobs on an executor, merging, results
    8: ("cli", "gradescope", "gradescope_zip", "limit_flags", "__main__", "_preload", "__init__"),  # entry points
}
STAGE = {module: level for level, modules in STAGES.items() for module in modules}
MAX_LINES = 80
# Functions over MAX_LINES, with their length: none is left, and a new one is refused.
KNOWN_LONG: dict[tuple[str, str], int] = {}


def modules() -> dict[str, Path]:
    return {p.stem: p for p in sorted(GRADER.glob("*.py"))}


def imports(path: Path, known: set[str]) -> set[str]:
    """The grader modules ``path`` imports, wherever in the file."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "grader":
                found |= {a.name for a in node.names if a.name in known}
            elif node.module.startswith("grader."):
                found.add(node.module.split(".")[1])
        elif isinstance(node, ast.Import):
            found |= {a.name.split(".")[1] for a in node.names if a.name.startswith("grader.")}
    return found - {path.stem}


def graph() -> dict[str, set[str]]:
    found = modules()
    return {name: imports(path, set(found)) for name, path in found.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan's algorithm)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def test_every_module_has_a_stage():
    assert not set(modules()) - set(STAGE), "give each new grader module its stage in STAGES"
    assert not set(STAGE) - set(modules()), "STAGES names a module that is gone"


def test_no_import_cycle():
    assert cycles(graph()) == []


def test_cycles_are_found():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_upward_arrow():
    upward = [f"{m} (stage {STAGE[m]}) imports {d} (stage {STAGE[d]})"
              for m, deps in graph().items() for d in sorted(deps) if m in STAGE and d in STAGE and STAGE[d] > STAGE[m]]
    assert not upward, upward


@pytest.mark.parametrize("name", sorted(modules()))
def test_functions_are_short(name):
    long = {}
    for node in ast.walk(ast.parse(modules()[name].read_text())):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            lines = node.end_lineno - node.lineno + 1
            if lines > MAX_LINES:
                long[node.name] = lines
    for function, lines in long.items():
        allowed = KNOWN_LONG.get((name, function))
        assert allowed is not None, f"grader/{name}.py: {function}() is {lines} lines (at most {MAX_LINES}): split it"
        assert lines <= allowed, f"grader/{name}.py: {function}() grew to {lines} lines (was {allowed}): split it"


MAX_KEYS = 5
# Dict literals with more than MAX_KEYS string keys that are not a record passed between modules:
# file formats, tables keyed by names, and words handed to a template.
WIDE_DICTS = {
    ("gradescope", "to_json"),  # Gradescope's results.json format
    ("jobs", "_kernel_env"),  # environment variables
    ("kernel_guard", "_spaces"),  # the kernel's names the guard protects
    ("model_checks", "_cnn_shapes"),  # a state_dict's keys and their shapes
    ("observations", "<module>"),  # a table of dtypes
    ("records", "to_json"),  # GradedNotebook's versioned JSON: the job's one output, made at the file's edge
    ("similarity_page", "section"),  # the section's words for its template
    ("validate", "preprocess"),  # nbgrader's cell metadata format
}


def wide_dicts(path: Path) -> set[tuple[str, str]]:
    """(module, enclosing function) of each dict literal with more than MAX_KEYS string keys."""
    tree = ast.parse(path.read_text())
    parent = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    found = set()
    for node in ast.walk(tree):
        keys = [k for k in getattr(node, "keys", ()) if isinstance(k, ast.Constant) and isinstance(k.value, str)]
        if isinstance(node, ast.Dict) and len(keys) > MAX_KEYS:
            scope = node
            while scope in parent and not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
                scope = parent[scope]
            found.add((path.stem, getattr(scope, "name", "<module>")))
    return found


def test_records_are_typed_not_wide_dicts():
    """No dict with more than MAX_KEYS string keys crosses a module boundary: a record between stages
    is a dataclass (grader/records.py), with its JSON made at the file's edge (``to_json``)."""
    found = set().union(*(wide_dicts(path) for path in modules().values()))
    assert not found - WIDE_DICTS, f"make these records dataclasses: {sorted(found - WIDE_DICTS)}"
    assert not WIDE_DICTS - found, f"gone, drop from WIDE_DICTS: {sorted(WIDE_DICTS - found)}"


TOOLS = GRADER.parent / "tools"


def imported_packages(path: Path) -> set[str]:
    """The top-level packages ``path`` imports, wherever in the file."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module.split(".")[0])
        elif isinstance(node, ast.Import):
            found |= {a.name.split(".")[0] for a in node.names}
    return found


@pytest.mark.parametrize("tool", sorted(TOOLS.rglob("*.py")), ids=lambda p: str(p.relative_to(TOOLS)))
def test_tools_never_import_tests(tool):
    """Maintainers' commands (make points, times, nb, bench-grading...) live in tools/: tests import them,
    never the reverse (a module the tools need belongs in tools/)."""
    assert "tests" not in imported_packages(tool), f"tools/{tool.relative_to(TOOLS)} imports tests/"


def test_tools_test_sees_an_import():
    assert imported_packages(GRADER / "cluster.py") >= {"grader"}
