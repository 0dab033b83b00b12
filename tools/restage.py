"""Move the grader's modules into their stage packages, and rewrite every reference to them.

``grader/`` was one flat folder; its stages are now packages (CONTRIBUTING.md, "A map of the grader").
:data:`MOVES` says which package each module belongs to. Running this script (``python -m tools.restage``):

* ``git mv grader/X.py grader/<package>/X.py`` for each module still at the top (one already moved is
  skipped, so the script can run again after a branch with the flat layout is merged);
* gives each package folder an ``__init__.py``;
* rewrites every reference in the repository's tracked text files: ``from grader import x, y``
  (split per package), ``from grader.x import``, ``import grader.x``, dotted names in strings
  (``mock.patch("grader.x.f")``, ``monkeypatch.setattr("grader.x.f", ...)``, ``python -m grader.x``,
  the fork server's preload list), ``grader/x.py`` in prose and ``"grader" / "x.py"`` paths; a moved
  module's ``Path(__file__).resolve().parent`` (the grader's folder) becomes ``.parents[1]``;
* sorts the imports of the Python files it changed (``ruff check --select I --fix``).

Message ids that look like module names (``"grader.report.title"``, ``f"grader.report.{key}"``) are
left alone: a dotted name that the English catalogue defines, or that ends where an id is being built,
is not a module.

``python -m tools.restage --check`` changes nothing: it lists modules at the top of ``grader/`` that
:data:`MOVES` does not place, and every old-style reference left, and exits 1 if there is any. Run it
after each merge of a branch written against the flat layout; running the script without
``--check`` then fixes what it lists (a new module needs its line in :data:`PACKAGES` first). The
script stages its moves (``git mv``) but not its rewrites: commit with ``git commit -a``.
"""

from __future__ import annotations

import argparse
import difflib
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GRADER = ROOT / "grader"

# Each stage package and its modules. Modules not named here stay at the top of grader/:
# TOP_MODULES (what every stage uses, and the entry points).
PACKAGES: dict[str, tuple[str, ...]] = {
    "judge": ("guard", "kernel_guard", "observations", "model_checks", "cell_words"),
    "jail": ("sandbox", "zygote", "execute", "faults", "bounds", "inductor"),
    "grades": ("gradebook", "late"),
    "lms": ("platforms", "roster", "groups", "lms_files", "names", "text_files"),
    "intake": ("downloads", "repair", "scan", "submissions", "validate", "extensions", "class_intake"),
    "results": ("report", "roster_report", "exports", "similarity", "similarity_page", "checklines", "worked",
                "gradescope_zip"),
    "run": ("jobs", "reference", "executors", "cluster", "worker_setup", "engine", "cli", "limit_flags",
            "gradescope"),
}
TOP_MODULES = ("__init__", "__main__", "_preload", "settings", "compat", "records", "security", "scratch",
               "nbgrader_config")
MOVES: dict[str, str] = {module: package for package, modules in PACKAGES.items() for module in modules}
# Files never rewritten: this script (its table names the modules) and its test (old-style samples).
SKIP_FILES = {"tools/restage.py", "tests/test_restage.py"}
CATALOGUE = ROOT / "src" / "ptcourse" / "catalogue"

_NAMES = "|".join(sorted(MOVES, key=len, reverse=True))
DOTTED = re.compile(rf"(?<![\w.])grader\.(?P<module>{_NAMES})(?P<rest>(?:\.\w+)*)(?P<after>\.?[{{\"']?)")
FROM_IMPORT = re.compile(r"^(?P<indent>[ \t]*)from grader import (?P<names>\([^)]*\)|[^\n#]*?)(?P<comment>[ \t]*#[^\n]*)?$",
                         re.MULTILINE)
SLASH_PATH = re.compile(rf"(?<![\w.])grader/(?P<module>{_NAMES})\.py\b")
JOINED_PATH = re.compile(rf"\"grader\" / \"(?P<module>{_NAMES})\.py\"")
GRADER_GLOB = re.compile(r"(\(ROOT / \"grader\"\))\.glob\(\"\*\.py\"\)")
OWN_FOLDER = re.compile(r"Path\(__file__\)\.resolve\(\)\.parent(?![\w\[])")


@dataclass(frozen=True)
class Left:
    """An old-style reference ``--check`` found."""

    path: str
    line: int
    text: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.text}"


def catalogue_ids() -> set[str]:
    """Every ``grader.…`` message id the catalogues define (they look like module paths)."""
    ids: set[str] = set()
    for path in CATALOGUE.rglob("*.py"):
        ids |= set(re.findall(r"[\"'](grader\.[\w.]+)[\"']\s*:", path.read_text()))
    return ids


def tracked_files() -> list[Path]:
    out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    paths = [ROOT / p for p in out.decode().split("\0") if p]
    return [p for p in paths if p.is_file() and not p.is_symlink() and str(p.relative_to(ROOT)) not in SKIP_FILES
            and is_text(p)]


def is_text(path: Path) -> bool:
    """UTF-8 text without NUL bytes (whatever the file's name: ``Makefile``, ``Dockerfile.worker``)."""
    data = path.read_bytes()
    try:
        data.decode()
    except UnicodeDecodeError:
        return False
    return b"\0" not in data


def module_name(name: str) -> str:
    """``x`` of an imported name ``x`` or ``x as y``."""
    return name.split(" as ")[0].strip()


def split_from_import(match: re.Match) -> str:
    """``from grader import a, b`` as one line per package (top modules stay ``from grader import``)."""
    raw = match["names"].strip()
    body = re.sub(r"#[^\n]*", "", raw.strip("()"))
    names = [" ".join(n.split()) for n in body.split(",") if n.strip()]
    if not any(module_name(n) in MOVES for n in names):
        return match.group(0)
    groups: dict[str, list[str]] = {}
    for name in names:
        package = MOVES.get(module_name(name))
        groups.setdefault(f"grader.{package}" if package else "grader", []).append(name)
    comment = match["comment"] or ""
    return "\n".join(f"{match['indent']}from {where} import {', '.join(group)}{comment}" for where, group in groups.items())


def rewrite_dotted(text: str, ids: set[str]) -> str:
    def replace(m: re.Match) -> str:
        token = f"grader.{m['module']}{m['rest']}"
        if token in ids or m["after"] in {".{", '."', ".'", "{"}:
            return m.group(0)  # a message id, or the fixed start of one built at run time
        return f"grader.{MOVES[m['module']]}.{m['module']}{m['rest']}{m['after']}"

    return DOTTED.sub(replace, text)


def rewrite(text: str, ids: set[str]) -> str:
    """``text`` with each reference to a moved module naming its package."""
    text = FROM_IMPORT.sub(split_from_import, text)
    text = rewrite_dotted(text, ids)
    text = SLASH_PATH.sub(lambda m: f"grader/{MOVES[m['module']]}/{m['module']}.py", text)
    text = JOINED_PATH.sub(lambda m: f'"grader" / "{MOVES[m["module"]]}" / "{m["module"]}.py"', text)
    return GRADER_GLOB.sub(r'\1.rglob("*.py")', text)


def left_over(path: Path, text: str, ids: set[str]) -> list[Left]:
    """The lines of ``text`` that :func:`rewrite` would change."""
    new = rewrite(text, ids)
    if new == text:
        return []
    matcher = difflib.SequenceMatcher(a=text.splitlines(), b=new.splitlines(), autojunk=False)
    rel = str(path.relative_to(ROOT))
    return [Left(rel, i + 1, matcher.a[i].strip()) for tag, i1, i2, _, _ in matcher.get_opcodes() if tag != "equal"
            for i in range(i1, i2)]


def unplaced() -> list[str]:
    """Modules at the top of grader/ that are neither moved nor kept at the top."""
    return sorted(p.stem for p in GRADER.glob("*.py") if p.stem not in MOVES and p.stem not in TOP_MODULES)


def move_modules() -> list[Path]:
    """``git mv`` each module still at the top into its package; returns the moved files' new paths."""
    moved = []
    for module, package in MOVES.items():
        old, new = GRADER / f"{module}.py", GRADER / package / f"{module}.py"
        init = GRADER / package / "__init__.py"
        if not init.exists():
            init.parent.mkdir(exist_ok=True)
            init.write_text(f'"""The grader\'s {package} stage (CONTRIBUTING.md, "A map of the grader")."""\n')
            subprocess.run(["git", "add", str(init)], cwd=ROOT, check=True)
        if old.exists() and new.exists():
            raise SystemExit(f"error: both {old.relative_to(ROOT)} and {new.relative_to(ROOT)} exist: merge them by hand")
        if old.exists():
            subprocess.run(["git", "mv", str(old), str(new)], cwd=ROOT, check=True)
            new.write_text(OWN_FOLDER.sub("Path(__file__).resolve().parents[1]", new.read_text()))
            moved.append(new)
    return moved


def sort_imports(paths: list[Path]) -> None:
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    python = [str(p) for p in paths if p.suffix == ".py"]
    if not python:
        return
    if ruff is None:
        print("warning: ruff not found: imports left unsorted (run ruff check --select I --fix)", file=sys.stderr)
        return
    subprocess.run([ruff, "check", "--select", "I", "--fix", "--quiet", *python], cwd=ROOT, check=False)


def check() -> int:
    ids = catalogue_ids()
    problems = [f"grader/{name}.py: not placed: give it a package in tools/restage.py PACKAGES" for name in unplaced()]
    problems += [f"grader/{m}.py: still at the top" for m in MOVES if (GRADER / f"{m}.py").exists()]
    for path in tracked_files():
        problems += [str(left) for left in left_over(path, path.read_text(errors="replace"), ids)]
    print("\n".join(problems) or "restage: every module is in its package and no old-style reference is left")
    return 1 if problems else 0


def restage() -> int:
    if unplaced():
        print("error: not placed in tools/restage.py PACKAGES: " + ", ".join(unplaced()), file=sys.stderr)
        return 1
    moved = move_modules()
    ids = catalogue_ids()
    changed = list(moved)
    for path in tracked_files():
        text = path.read_text(errors="surrogateescape")
        new = rewrite(text, ids)
        if new != text:
            path.write_text(new, errors="surrogateescape")
            changed.append(path)
    sort_imports(sorted(set(changed)))
    print(f"restage: {len(moved)} modules moved, {len(set(changed))} files rewritten")
    return check()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.restage", description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="change nothing: list what is left to move or rewrite")
    args = parser.parse_args(argv)
    return check() if args.check else restage()


if __name__ == "__main__":
    sys.exit(main())
