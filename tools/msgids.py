"""Message ids in use against the catalogue, without a kernel.

Every call ``check(cond, "topic.id", **values)``, ``fail("topic.id", **values)`` and
``msg("topic.id", **values)`` in ``solutions/`` (code cells), ``src/`` and ``grader/`` is found with
:mod:`ast`; its id must exist in the English catalogue and its keyword names must supply every
``{placeholder}`` of the message (``passed("id", **values)`` too). Prose where an id belongs, and a
check's ``name`` that is not a code expression, are problems as well. Catalogue entries no
call names are listed as unused, and values a call passes that its message never shows are
listed too (neither fails). ``python -m tools.msgids`` (``make msgids``) prints the problems and the
unused ids; tests/test_msgids.py turns them into a test (``make quick``).
"""

from __future__ import annotations

import ast
import re
import string
import sys
from dataclasses import dataclass

from tools.notebooks import ROOT, SOLUTIONS, read

SRC = ROOT / "src"
ID_ARG = {"check": 1, "fail": 0, "msg": 0, "passed": 0, "msg_in": 1, "say": 0}  # where each helper's call names its id
NAME_ARG = {"check_shape": 2, "check_dtype": 2, "check_device": 2, "check_requires_grad": 2, "check_close": 2,
            "check_equal": 2, "check_type": 2, "check_tensor": 1, "check_finite": 1}  # the ``name`` argument
LOOKS_LIKE_ID = re.compile(r"^[A-Za-z_]\w*(\.\w+)+$")
MAGIC = re.compile(r"^\s*[%!]")  # IPython magics and shell lines: not Python


@dataclass
class Use:
    """One call naming a message id."""

    where: str  # file, cell or line, as a maintainer would look for it
    func: str
    message_id: str | None  # None when the id is only known at run time (cannot be checked)
    keywords: frozenset[str]
    open_kwargs: bool  # the call passes ``**values``: placeholders cannot be checked


def catalogue() -> dict[str, str]:
    """The English catalogue, loaded from ``src/`` (the working tree, not an installed copy)."""
    if str(SRC) not in sys.path:
        sys.path.insert(0, str(SRC))
    from ptcourse.messages import catalogue as load

    load.cache_clear()
    return load("en")


def catalogue_of(lang: str) -> dict[str, str]:
    """One language's catalogue (``en``, ``zh-CN``, ...), loaded from the working tree's ``src/``."""
    catalogue()  # puts src/ first on sys.path
    from ptcourse.messages import catalogue as load

    load.cache_clear()
    return load(lang)


def translations() -> dict[str, str]:
    """Each translated language's code and its catalogue folder (every language but English)."""
    catalogue()
    from ptcourse.messages import LANGS

    return {code: package for code, package in LANGS.items() if code != "en"}


def translation_problems(lang: str, table: dict[str, str] | None = None,
                         english: dict[str, str] | None = None) -> list[str]:
    """Ids of ``lang`` that English lacks, placeholders that differ from English's, and ids of every
    English module the language has started (a module of the same name) that it still lacks."""
    table = catalogue_of(lang) if table is None else table
    english = catalogue() if english is None else english
    out = []
    for key, text in sorted(table.items()):
        if key not in english:
            out.append(f"{lang}: {key!r} is not an English id (renamed or removed?)")
        elif placeholders(text) != placeholders(english[key]):
            out.append(f"{lang}: {key!r} has placeholders {sorted(placeholders(text))}, English has "
                       f"{sorted(placeholders(english[key]))}")
        else:
            try:
                text.format(**{name: _Any() for name in placeholders(text)})
            except (ValueError, IndexError) as exc:
                out.append(f"{lang}: {key!r} does not format: {exc}")
    for module, ids in module_ids("en").items():
        if module in module_ids(lang):
            missing = sorted(set(ids) - set(table))
            if missing:
                out.append(f"{lang}: module {module} lacks {len(missing)} English ids: {', '.join(missing)}")
    return out


def untranslated_modules(lang: str) -> list[str]:
    """English catalogue modules with no module of the same name in ``lang`` yet (listed, not failed)."""
    return sorted(set(module_ids("en")) - set(module_ids(lang)))


def module_ids(lang: str) -> dict[str, list[str]]:
    """Each module of a language's catalogue folder and the ids it defines."""
    catalogue()
    import importlib
    import pkgutil

    from ptcourse.messages import LANGS

    try:
        package = importlib.import_module(f"ptcourse.catalogue.{LANGS.get(lang, lang)}")
    except ModuleNotFoundError:
        return {}
    return {info.name: list(importlib.import_module(f"{package.__name__}.{info.name}").MESSAGES)
            for info in pkgutil.iter_modules(package.__path__)}


class _Any:
    """A value any format spec accepts (to try a translation's placeholders without real values)."""

    def __format__(self, spec: str) -> str:
        return format(1.5, spec) if spec and spec[-1] in "eEfFgG%,.0123456789" else "x"

    def __getattr__(self, name: str) -> _Any:
        return self

    def __getitem__(self, key) -> _Any:
        return self


def placeholders(text: str) -> set[str]:
    """The names of a message's ``{placeholders}`` (``{x.shape}`` and ``{x[0]}`` count as ``x``)."""
    names = set()
    for _, field, _, _ in string.Formatter().parse(text):
        if field is not None:
            names.add(re.split(r"[.\[]", field, maxsplit=1)[0])
    return names


def _candidates(expr: ast.expr, tree: ast.AST, depth: int = 0) -> list[str] | None:
    """The ids an id argument can take: a literal, ``"a" if c else "b"``, or a name assigned such
    values in the same cell or module; None when they cannot be told without running the code."""
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        return [expr.value]
    if isinstance(expr, ast.IfExp):
        body, orelse = _candidates(expr.body, tree, depth), _candidates(expr.orelse, tree, depth)
        return None if body is None or orelse is None else body + orelse
    if isinstance(expr, ast.Name) and depth < 3:
        values = [n.value for n in ast.walk(tree) if isinstance(n, ast.Assign)
                  and any(isinstance(t, ast.Name) and t.id == expr.id for t in n.targets)]
        resolved = [_candidates(v, tree, depth + 1) for v in values]
        if values and all(r is not None for r in resolved):
            return [c for r in resolved for c in r]
    return None


def _calls(tree: ast.AST, where: str) -> list[Use]:
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
        keywords = frozenset(k.arg for k in node.keywords if k.arg)
        open_kwargs = any(k.arg is None for k in node.keywords)
        here = f"{where}:{node.lineno}"
        if func in ID_ARG and len(node.args) > ID_ARG[func]:
            for mid in _candidates(node.args[ID_ARG[func]], tree) or [None]:
                found.append(Use(here, func, mid, keywords, open_kwargs))
    return found


def prose(tree: ast.AST, where: str) -> list[str]:
    """English prose where a message id belongs, or a ``name`` that is not a code expression."""
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
        if func in ("check", "fail", "passed") and len(node.args) > ID_ARG[func]:
            arg = node.args[ID_ARG[func]]
            if isinstance(arg, ast.JoinedStr) or (isinstance(arg, ast.Constant) and isinstance(arg.value, str)
                                                  and not LOOKS_LIKE_ID.match(arg.value)):
                out.append(f"{where}:{node.lineno}: {func}() is given prose instead of a message id "
                           "(tools/msgify.py converts passed(); write a catalogue entry for the others)")
        if func in NAME_ARG:
            pos = NAME_ARG[func]
            arg = node.args[pos] if len(node.args) > pos else next(
                (k.value for k in node.keywords if k.arg == "name"), None)
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                try:
                    ast.parse(arg.value, mode="eval")
                except SyntaxError:
                    out.append(f"{where}:{node.lineno}: {func}() names {arg.value!r}, which is not a code "
                               "expression (names stay untranslated: use the expression the learner wrote)")
    return out


WORDS = re.compile(r"(?<![\w.])[A-Za-z]{2,}(?: +[A-Za-z]{2,}){2,}")


def prose_values() -> list[str]:
    """Values passed to a message that are English prose (``what="a network with ..."``): a translation
    cannot reach them. Listed, not failed (they want an id of their own, or a code expression)."""
    out: list[str] = []
    for path in sorted(SOLUTIONS.glob("day*/*.ipynb")):
        for i, cell in enumerate(read(path).cells):
            if cell.cell_type != "code":
                continue
            for node in ast.walk(ast.parse(python_source(cell.source))):
                func = getattr(node, "func", None)
                name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
                if not isinstance(node, ast.Call) or name not in ID_ARG:
                    continue
                for k in node.keywords:
                    parts = ([k.value] if isinstance(k.value, ast.Constant) else
                             k.value.values if isinstance(k.value, ast.JoinedStr) else [])
                    text = "".join(p.value if isinstance(p, ast.Constant) else "{}" for p in parts
                                   if isinstance(getattr(p, "value", None), str) or isinstance(p, ast.FormattedValue))
                    if WORDS.search(text):
                        out.append(f"{path.relative_to(ROOT)} cell {i}:{node.lineno}: {name}(..., {k.arg}={text[:60]!r})")
    return out


def prose_problems() -> list[str]:
    """:func:`prose` over every code cell of solutions/."""
    out: list[str] = []
    for path in sorted(SOLUTIONS.glob("day*/*.ipynb")):
        for i, cell in enumerate(read(path).cells):
            if cell.cell_type == "code":
                where = f"{path.relative_to(ROOT)} cell {i}"
                out += prose(ast.parse(python_source(cell.source), where), where)
    return out


def python_source(code: str) -> str:
    """A code cell as plain Python: magic and shell lines become ``pass`` (line numbers kept)."""
    return "\n".join(re.sub(r"^(\s*).*$", r"\1pass", line) if MAGIC.match(line) else line
                     for line in code.splitlines())


def uses() -> list[Use]:
    """Every call naming a message id, in solutions/ notebooks and src/ modules."""
    found: list[Use] = []
    for path in sorted(SOLUTIONS.glob("day*/*.ipynb")):
        for i, cell in enumerate(read(path).cells):
            if cell.cell_type == "code":
                where = f"{path.relative_to(ROOT)} cell {i}"
                found += _calls(ast.parse(python_source(cell.source), where), where)
    for path in sorted([*SRC.rglob("*.py"), *(ROOT / "grader").rglob("*.py")]):
        if "catalogue" in path.parts:
            continue
        where = str(path.relative_to(ROOT))
        found += _calls(ast.parse(path.read_text(), where), where)
    return found


def problems(found: list[Use] | None = None, table: dict[str, str] | None = None) -> list[str]:
    """Calls whose id is not in the catalogue, or that leave a placeholder of the message out."""
    found = uses() if found is None else found
    table = catalogue() if table is None else table
    out = []
    for use in found:
        if use.message_id is None:
            continue  # e.g. checks.fail(message_id, **values): the helper itself
        if use.message_id not in table:
            out.append(f"{use.where}: {use.func}() names message id {use.message_id!r}, "
                       "which is not in src/ptcourse/catalogue/en/")
            continue
        if use.open_kwargs:
            continue
        missing = placeholders(table[use.message_id]) - use.keywords
        if missing:
            out.append(f"{use.where}: {use.func}({use.message_id!r}) does not supply "
                       f"{', '.join(sorted(missing))} (the message expects "
                       f"{', '.join(sorted(placeholders(table[use.message_id])))}; got "
                       f"{', '.join(sorted(use.keywords)) or 'none'})")
    return out


def extras(found: list[Use] | None = None, table: dict[str, str] | None = None) -> list[str]:
    """Calls with one literal id that pass values its message never shows (a typo, or a
    message that forgot to say expected vs got): listed, not an error."""
    found = uses() if found is None else found
    table = catalogue() if table is None else table
    ids_per_call: dict[str, int] = {}
    for use in found:
        ids_per_call[use.where] = ids_per_call.get(use.where, 0) + 1
    out = []
    for use in found:
        if use.message_id in table and not use.open_kwargs and ids_per_call[use.where] == 1:
            extra = use.keywords - placeholders(table[use.message_id])
            if extra:
                out.append(f"{use.where}: {use.message_id!r} is given {', '.join(sorted(extra))}, "
                           "which its message does not show")
    return out


def _sources():
    """Each scanned source as (where, parsed tree): solutions' code cells, src/ and grader/ modules."""
    for path in sorted([*SOLUTIONS.glob("day*/*.ipynb"), ROOT / "HOME.ipynb"]):
        if path.exists():
            for i, cell in enumerate(read(path).cells):
                if cell.cell_type == "code":
                    where = f"{path.relative_to(ROOT)} cell {i}"
                    yield where, ast.parse(python_source(cell.source), where)
    for path in sorted([*SRC.rglob("*.py"), *(ROOT / "grader").rglob("*.py"), *(ROOT / "tools").glob("*.py")]):
        if "catalogue" not in path.parts:
            where = str(path.relative_to(ROOT))
            yield where, ast.parse(path.read_text(), where)


def mentioned() -> tuple[set[str], set[str]]:
    """Ids written anywhere in the sources as a string (``t("grader.page.col_check")``, an id in a
    table), and the fixed starts of ids built at run time (``msg(f"grader.ordinal.{n}")``)."""
    exact, starts = set(), set()
    for _, tree in _sources():
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and LOOKS_LIKE_ID.match(node.value):
                exact.add(node.value)
            elif isinstance(node, ast.JoinedStr) and node.values:
                head = node.values[0]
                if isinstance(head, ast.Constant) and isinstance(head.value, str) and "." in head.value:
                    starts.add(head.value)
    return exact, starts


def unused(found: list[Use] | None = None, table: dict[str, str] | None = None) -> list[str]:
    """Catalogue ids that no call names, no string in the sources spells and no id built at run
    time from a fixed start can be (a list, not an error: an entry may wait for an exercise)."""
    found = uses() if found is None else found
    table = catalogue() if table is None else table
    named = {u.message_id for u in found}
    exact, starts = mentioned()
    return sorted(k for k in set(table) - named - exact
                  if not k.endswith(".title")  # titles: by grade id, at run time
                  and not any(k.startswith(start) for start in starts))


if __name__ == "__main__":
    all_uses, table = uses(), catalogue()
    bad, idle = problems(all_uses, table), unused(all_uses, table)
    print(f"{len(all_uses)} calls name a message id; {len(table)} ids in the catalogue")
    print("\n".join(bad) or "every id exists, with its placeholders supplied")
    shown = extras(all_uses, table)
    if shown:
        print(f"\nvalues passed but not shown ({len(shown)}):\n  " + "\n  ".join(shown))
    if idle:
        print(f"\nunused catalogue ids ({len(idle)}):\n  " + "\n  ".join(idle))
    sys.exit(1 if bad else 0)
