"""The class grader's shape (CONTRIBUTING.md, "A map of the grader"): its stages import downwards
only, no module imports another that imports it back, and functions stay short enough to read.

The import graph counts every ``import grader...`` and ``from grader... import ...``, deferred
ones inside functions included. The stages are packages (folders of grader/: ``judge``, ``jail``,
``grades``, ``lms``, ``intake``, ``results``, ``run``), each with its level in ``LEVELS``, beside the few modules
kept at the top (what every stage uses, and the entry points). A new package needs its level, and its row
in CONTRIBUTING's map; a new module its row's entry there. ``tools/restage.py`` made this layout out of
the flat one (``--check`` after merging a branch written against that).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

GRADER = Path(__file__).resolve().parents[1] / "grader"
CONTRIBUTING = GRADER.parent / "CONTRIBUTING.md"

# Each unit is a stage package (a folder of grader/) or a module at the top of grader/, with its level,
# lowest first: a module may import its own unit and those at its level or below, never one above,
# and no units import each other round in a circle.
LEVELS = {
    "settings": 0, "compat": 0, "records": 0, "security": 0, "scratch": 0,  # what every stage uses (top modules)
    "judge": 1,  # the rules a check is judged by: the guard's proof, the second key's comparison
    "jail": 2,  # the kernel's confinement, warm kernels, nbgrader's Execute under the judge, the message bounds
    "grades": 3,  # nbgrader's gradebook, late penalties
    "lms": 4,  # each learning platform behind one interface: its download's names, class lists, grade files
    "intake": 5,  # a class's files read: downloads unpacked, submissions found, repair, scan, extensions
    "results": 6,  # pages, the class report, grades.csv, the platforms' grade files written, similarity
    "run": 7,  # one job, the reference run, executors, Dask, a class, the command lines
    "__init__": 8, "__main__": 8, "_preload": 8, "nbgrader_config": 8,  # entry points (top modules)
}
MAX_LINES = 80
# Functions over MAX_LINES, with their length: none is left, and a new one is refused.
KNOWN_LONG: dict[tuple[str, str], int] = {}


def packages() -> set[str]:
    return {p.name for p in GRADER.iterdir() if p.is_dir() and any(p.glob("*.py"))}


def modules() -> dict[str, Path]:
    """Every grader module by its name (names are unique across packages), package ``__init__`` files aside."""
    found: dict[str, Path] = {}
    for path in sorted(GRADER.rglob("*.py")):
        if path.parent != GRADER and path.name == "__init__.py":
            continue
        assert path.stem not in found, f"two grader modules are named {path.stem}: {found[path.stem]}, {path}"
        found[path.stem] = path
    return found


def unit(path: Path) -> str:
    """The package ``path`` is in, or its own name when it sits at the top of grader/."""
    return path.stem if path.parent == GRADER else path.relative_to(GRADER).parts[0]


def imports(path: Path, known: set[str]) -> set[str]:
    """The grader modules ``path`` imports, wherever in the file."""
    return imports_in(path.read_text(), known) - {path.stem}


def imports_in(text: str, known: set[str]) -> set[str]:
    """The grader modules (of ``known``) the Python ``text`` imports, deferred imports included."""
    found = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "grader":
            found |= {a.name for a in node.names if a.name in known}
            found |= {part for part in node.module.split(".")[1:] if part in known}
        elif isinstance(node, ast.Import):
            found |= {part for a in node.names if a.name.startswith("grader.")
                      for part in a.name.split(".")[1:] if part in known}
    return found


def graph() -> dict[str, set[str]]:
    found = modules()
    return {name: imports(path, set(found)) for name, path in found.items()}


def unit_graph() -> dict[str, set[str]]:
    found = modules()
    edges: dict[str, set[str]] = {}
    for name, deps in graph().items():
        edges.setdefault(unit(found[name]), set()).update(unit(found[d]) for d in deps)
    return {u: deps - {u} for u, deps in edges.items()}


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


def test_every_module_has_a_level():
    units = {unit(path) for path in modules().values()}
    assert not units - set(LEVELS), "give each new package (or top module) of grader/ its level in LEVELS"
    assert not set(LEVELS) - units, "LEVELS names a package or module that is gone"


def test_every_package_has_an_init():
    assert all((GRADER / p / "__init__.py").is_file() for p in packages())


def test_no_import_cycle():
    assert cycles(graph()) == []
    assert cycles(unit_graph()) == []


def test_cycles_are_found():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_imports_are_seen_in_every_form():
    text = ("from grader.grades import gradebook\nimport grader.settings\nfrom grader.run.cluster import X\n"
            "def f():\n    from grader import records\n")
    assert imports_in(text, {"gradebook", "settings", "cluster", "records", "jobs"}) == \
        {"gradebook", "settings", "cluster", "records"}


def test_no_upward_arrow():
    found = modules()
    upward = [f"{m} ({unit(found[m])}, level {LEVELS[unit(found[m])]}) imports {d} ({unit(found[d])}, "
              f"level {LEVELS[unit(found[d])]})"
              for m, deps in graph().items() for d in sorted(deps)
              if LEVELS.get(unit(found[d]), 0) > LEVELS.get(unit(found[m]), 0)]
    assert not upward, upward


def map_rows() -> list[tuple[int, str, set[str]]]:
    """(level, package or "top", modules) of each row of CONTRIBUTING's "A map of the grader" table."""
    text = CONTRIBUTING.read_text()
    section = text[text.index("## A map of the grader"):]
    section = section[:section.index("\n## ", 5)] if "\n## " in section[5:] else section
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| ") and cells[0].isdigit():
            where = "top" if cells[1].startswith("`grader/`") else cells[1].strip("`").rstrip("/")
            rows.append((int(cells[0]), where, set(re.findall(r"`(\w+)`", cells[2]))))
    return rows


def test_the_map_names_every_package():
    """CONTRIBUTING's map has one row per package, at its level, listing exactly its modules, and a row
    per level of the top modules; it names no gone package or module."""
    found, rows = modules(), map_rows()
    assert sorted(p for _, p, _ in rows if p != "top") == sorted(packages()), "one row per package of grader/"
    for level, where, listed in rows:
        if where == "top":
            actual = {m for m, path in found.items() if path.parent == GRADER and LEVELS[m] == level} - {"__init__"}
        else:
            assert LEVELS[where] == level, f"the map puts {where}/ at level {level}, LEVELS at {LEVELS[where]}"
            actual = {m for m, path in found.items() if unit(path) == where}
        assert listed == actual, f"the map's row {where} (level {level}) lists {sorted(listed ^ actual)} wrongly"


def test_the_map_is_read():
    assert len(map_rows()) >= len(packages()) + 2


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
    assert imported_packages(GRADER / "run" / "cluster.py") >= {"grader"}
