"""Turn the prose of test cells into catalogue entries, mechanically (re-runnable).

For every test cell of ``solutions/day*/*.ipynb``:

* each ``passed("English prose")`` / ``passed(f"... {expr} ...")`` becomes
  ``passed("<grade_id>.passed", name=expr, ...)``; the prose, with ``{name}`` placeholders
  (format specs kept), goes to ``src/ptcourse/catalogue/en/passed_<day>.py``. A cell with several
  calls gets ``.passed``, ``.passed2``, ... Calls that already name an id are left alone.
* the test's docstring (its first line) becomes ``<grade_id>.title`` in
  ``src/ptcourse/catalogue/en/titles_<day>.py``, rewritten from the docstrings every run (feedback
  pages and the class report show it as the check's name).

Run it after merging branches that add test cells, then ``make release``::

    .venv/bin/python tools/msgify.py          # rewrite notebooks and the two catalogue modules
    .venv/bin/python tools/msgify.py --check  # exit 1 if anything would change
"""

from __future__ import annotations

import ast
import keyword
import pprint
import re
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from ptcourse.nbmodel import nbgrader_meta, role  # noqa: E402

CATALOGUE = ROOT / "src" / "ptcourse" / "catalogue" / "en"
ID = re.compile(r"^[A-Za-z_][\w]*(\.[\w]+)+$")


def _load(path: Path) -> dict[str, str]:
    if not path.exists():
        return {}
    scope: dict = {}
    exec(compile(path.read_text(), str(path), "exec"), scope)
    return dict(scope["MESSAGES"])


def _placeholder(expr: ast.expr, taken: set[str]) -> str:
    """A readable placeholder name for an f-string expression."""
    if isinstance(expr, ast.Name):
        base = expr.id
    elif isinstance(expr, ast.Attribute):
        base = expr.attr
    elif isinstance(expr, ast.Call) and isinstance(expr.func, (ast.Name, ast.Attribute)):
        func = expr.func.id if isinstance(expr.func, ast.Name) else expr.func.attr
        arg = expr.args[0] if expr.args else None
        inner = _placeholder(arg, set()) if isinstance(arg, (ast.Name, ast.Attribute, ast.Call)) else ""
        base = f"{func}_{inner}" if inner else func
    elif isinstance(expr, ast.Subscript):
        base = _placeholder(expr.value, set())
    else:
        base = "value"
    base = re.sub(r"\W", "_", base).strip("_").lower() or "value"
    if keyword.iskeyword(base) or base in {"what", "message_id"}:
        base += "_"
    name, k = base, 2
    while name in taken:
        name, k = f"{base}{k}", k + 1
    taken.add(name)
    return name


def _template(node: ast.expr, source: str) -> tuple[str, list[tuple[str, str]]] | None:
    """The catalogue text of a literal or f-string argument and its (name, expression) values."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.replace("{", "{{").replace("}", "}}"), []
    if not isinstance(node, ast.JoinedStr):
        return None
    text, values, taken, seen = [], [], set(), {}
    for part in node.values:
        if isinstance(part, ast.Constant):
            text.append(str(part.value).replace("{", "{{").replace("}", "}}"))
            continue
        expr_src = ast.get_source_segment(source, part.value)
        if expr_src is None:
            return None
        expr_src = " ".join(expr_src.split())
        if expr_src in seen:
            name = seen[expr_src]
        else:
            name = seen[expr_src] = _placeholder(part.value, taken)
            values.append((name, expr_src))
        conv = {-1: "", 115: "!s", 114: "!r", 97: "!a"}[part.conversion]
        spec = ""
        if part.format_spec is not None:
            spec_t = _template(part.format_spec, source)
            if spec_t is None or spec_t[1]:
                return None  # a spec with its own fields: leave it to a human
            spec = ":" + spec_t[0].replace("{{", "{").replace("}}", "}")
        text.append("{" + name + conv + spec + "}")
    return "".join(text), values


def _offsets(source: str) -> list[int]:
    """Character offset of each line start (ast gives UTF-8 byte columns)."""
    starts, pos = [0], 0
    for line in source.splitlines(keepends=True):
        pos += len(line)
        starts.append(pos)
    return starts


def _char(source: str, starts: list[int], lineno: int, col_bytes: int) -> int:
    line = source[starts[lineno - 1]:starts[lineno] if lineno < len(starts) else len(source)]
    return starts[lineno - 1] + len(line.encode("utf-8")[:col_bytes].decode("utf-8"))


def _python(code: str) -> str:
    magic = re.compile(r"^\s*[%!]")
    return "\n".join(re.sub(r"^(\s*).*$", r"\1pass", line) if magic.match(line) else line
                     for line in code.splitlines())


def convert(source: str, grade_id: str, known: dict[str, str]) -> tuple[str, dict[str, str], list[str]]:
    """The cell with its prose ``passed(...)`` calls turned into ids, the new entries, and problems."""
    tree = ast.parse(_python(source))
    calls = sorted((n for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "id", None) == "passed"
                    and n.args), key=lambda n: (n.lineno, n.col_offset))
    used = {n.args[0].value for n in calls if isinstance(n.args[0], ast.Constant)
            and isinstance(n.args[0].value, str) and ID.match(n.args[0].value)}
    new: dict[str, str] = {}
    problems: list[str] = []
    edits = []
    starts = _offsets(source)
    k = 1
    for node in calls:
        arg = node.args[0]
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and ID.match(arg.value):
            continue
        made = _template(arg, _python(source))
        if made is None or len(node.args) > 1 or node.keywords:
            problems.append(f"{grade_id}: line {node.lineno}: passed(...) not converted (not a plain literal)")
            continue
        text, values = made
        while True:
            mid = f"{grade_id}.passed" + ("" if k == 1 else str(k))
            k += 1
            if mid not in used and mid not in new:
                break
        new[mid] = text
        call = ", ".join([repr(mid)] + [f"{n}={e}" for n, e in values])
        start = _char(source, starts, arg.lineno, arg.col_offset)
        end = _char(source, starts, node.end_lineno, node.end_col_offset) - 1  # the closing parenthesis
        edits.append((start, end, call))
    for start, end, call in sorted(edits, reverse=True):
        source = source[:start] + call + source[end:]
    return source, new, problems


def docstring(source: str) -> str | None:
    try:
        tree = ast.parse(_python(source))
    except SyntaxError:
        return None
    text = ast.get_docstring(tree, clean=True)
    return " ".join(text.split()) if text else None


def _write(path: Path | None, doc: str, entries: dict[str, str]) -> str:
    lines = [f'"""{doc}"""', "", "MESSAGES = {"]
    for key, text in entries.items():
        lines.append(f"    {key!r}: {pprint.pformat(text, width=100)},".replace("\n", "\n    "))
    lines.append("}")
    return "\n".join(lines) + "\n"


def run(check: bool = False) -> int:
    known_passed: dict[str, str] = {}
    for path in sorted(CATALOGUE.glob("passed_*.py")):
        known_passed.update(_load(path))
    titles: dict[str, dict[str, str]] = {}
    passed_entries: dict[str, dict[str, str]] = {}
    changed, problems = [], []
    for path in sorted((ROOT / "solutions").glob("day*/*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        day = path.parent.name
        day_titles, day_passed = titles.setdefault(day, {}), passed_entries.setdefault(day, {})
        dirty = False
        for cell in nb.cells:
            if cell.cell_type != "code" or role(cell) != "test":
                continue
            grade_id = nbgrader_meta(cell).get("grade_id")
            if not grade_id:
                continue
            title = docstring(cell.source)
            if title:
                day_titles[f"{grade_id}.title"] = title
            else:
                problems.append(f"{path.relative_to(ROOT)} {grade_id}: no docstring")
            source, new, bad = convert(cell.source, grade_id, known_passed)
            problems += [f"{path.relative_to(ROOT)} {p}" for p in bad]
            # keep the ids this cell already uses (their text from the existing catalogue)
            for node in ast.walk(ast.parse(_python(source))):
                if (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "passed" and node.args
                        and isinstance(node.args[0], ast.Constant) and node.args[0].value in known_passed):
                    day_passed[node.args[0].value] = known_passed[node.args[0].value]
            day_passed.update(new)
            if source != cell.source:
                cell.source = source
                dirty = True
        if dirty:
            changed.append(str(path.relative_to(ROOT)))
            if not check:
                nbformat.write(nb, path)
    outputs = {}
    for day in titles:
        outputs[CATALOGUE / f"passed_{day}.py"] = _write(
            None, f"The success lines of {day}'s visible test cells (tools/msgify.py keeps them; edit freely).",
            passed_entries[day])
        outputs[CATALOGUE / f"titles_{day}.py"] = _write(
            None, f"The name of each graded check of {day}: its test cell's docstring (written by "
            "tools/msgify.py from solutions/; edit the docstring, then re-run it).", titles[day])
    for path, text in outputs.items():
        if not path.exists() or path.read_text() != text:
            changed.append(str(path.relative_to(ROOT)))
            if not check:
                path.write_text(text)
    for p in problems:
        print("problem:", p, file=sys.stderr)
    print(("would change: " if check else "changed: ") + (", ".join(changed) or "nothing"))
    if not check and any(c.endswith(".ipynb") for c in changed):
        print("now run `make release`")
    return 1 if (check and changed) or problems else 0


if __name__ == "__main__":
    sys.exit(run(check="--check" in sys.argv[1:]))
