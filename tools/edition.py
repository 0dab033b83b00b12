"""Build the student edition: a standalone repository with the notebooks and no solution.

    python tools/edition.py DIR [--repo OWNER/NAME] [--lang zh-CN]
    (make student-edition OUT=DIR REPO=... LANG=zh-CN)

``DIR`` (new or empty) becomes a git repository with one commit holding ``HOME.ipynb``, the
student notebooks ``dayN/``, the ``ptcourse`` package (``src/`` and ``pyproject.toml``),
``data/``, ``environment.yml``, ``requirements.txt``, ``postBuild`` and ``tools/lab_setup.py``,
a student ``Makefile`` (``make lab``, ``make check NB=...``), a student ``README.md`` with a
Binder badge for ``OWNER/NAME``, and the licence. It holds no ``solutions/``, ``grader/``,
``tests/``, mutant catalogue or gradebook: the files are picked by name (``INCLUDE``), never
by excluding. Before committing, every non-trivial line written between ``BEGIN/END SOLUTION``
or ``BEGIN/END HIDDEN TESTS`` in ``solutions/`` is searched for in the edition; one found
stops the build.

The English edition also carries the Chinese notebooks in ``zh-CN/`` (its home links them).
``--lang zh-CN``: the Chinese edition. ``HOME.ipynb`` and ``dayN/`` are the Chinese notebooks
(``zh-CN/``, built by ``tools/i18n.py``: the same code and tests), ``.ptcourse-lang`` makes
Chinese the language of the checks, and the README is ``i18n/zh-CN/README.md`` (the English one
while that translation is missing or stale).
"""

from __future__ import annotations

import argparse
import json
import os
import posixpath
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
FILES = Path(__file__).resolve().parent / "edition-files"
# What the edition holds from the course (git-visible files only), by path pattern.
INCLUDE = [
    r"HOME\.ipynb", r"day\d+/[^/]+\.ipynb", r"src/ptcourse/.+\.py", r"data/.+", r"pyproject\.toml",
    r"environment\.yml", r"requirements\.txt", r"postBuild", r"apt\.txt", r"LICENSE", r"tools/lab_setup\.py",
    r"zh-CN/HOME\.ipynb", r"zh-CN/day\d+/[^/]+\.ipynb", r"zh-CN/\.ptcourse-lang",  # the Chinese edition (HOME links it)
]
NEVER = re.compile(r"(^|/)(solutions|grader|tests|mutants|autograded|submitted|feedback|release|source)/"
                   r"|gradebook|\.db$|__pycache__")
OVERRIDES = ("grader/lab-overrides.json", "tools/lab-overrides.json")  # where lab_setup.py finds them
PLACEHOLDER_REPO = "OWNER/REPO"
BLOCK = re.compile(r"### BEGIN (SOLUTION|HIDDEN TESTS)\n(.*?)### END \1", re.S)
MIN_LINE = 12  # shorter lines (`return x`, `loss.backward()`) also occur in the explanations


def course_files(root: Path = ROOT) -> list[str]:
    """The course's files as git sees them (tracked and untracked, not ignored)."""
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
                         cwd=root, capture_output=True, text=True, check=True).stdout
    return sorted(name for name in out.split("\0") if name and (root / name).is_file())


def selected(root: Path = ROOT) -> list[str]:
    pattern = re.compile("|".join(f"(?:{p})" for p in INCLUDE))
    return [name for name in course_files(root) if pattern.fullmatch(name) and not NEVER.search(name)]


def _cell_sources(root: Path):
    for path in sorted((root / "solutions").glob("day*/*.ipynb")):
        for cell in json.loads(path.read_text())["cells"]:
            yield "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


def solution_lines(root: Path = ROOT) -> set[str]:
    """Every non-trivial line between BEGIN/END SOLUTION or BEGIN/END HIDDEN TESTS in solutions/.

    Non-trivial: at least ``MIN_LINE`` characters, not a comment, and not text the course
    shows anyway: the source notebooks outside those blocks (what the student copy holds by
    design) and the ``ptcourse`` package (shared code and hint messages).
    """
    secret: set[str] = set()
    public = []
    for source in _cell_sources(root):
        public.append(BLOCK.sub("", source))
        for match in BLOCK.finditer(source):
            secret.update(line.strip() for line in match.group(2).splitlines())
    public += [p.read_text() for p in sorted((root / "src" / "ptcourse").rglob("*.py"))]
    shown = "\n".join(public)
    return {line for line in secret if len(line) >= MIN_LINE and not line.startswith("#") and line not in shown}


def find_leaks(out: Path, lines: set[str]) -> list[tuple[str, str]]:
    """``(where, line)`` for each of ``lines`` found in a file of ``out`` or in its git objects.

    Each line is searched as written and JSON-escaped (as a notebook stores it), with
    ``grep -F`` (one pass over all files however many lines there are).
    """
    forms: dict[str, str] = {}
    for line in lines:
        for form in (line, json.dumps(line)[1:-1], json.dumps(line, ensure_ascii=False)[1:-1]):
            forms.setdefault(form, line)
    if not forms:
        return []
    found: set[tuple[str, str]] = set()
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("\n".join(forms) + "\n")
    try:
        grep = ["grep", "-r", "-F", "-a", "-o", "-f", f.name, "--exclude-dir=.git", "."]
        files = subprocess.run(grep, cwd=out, capture_output=True, text=True, errors="replace")
        for hit in files.stdout.splitlines():
            where, _, text = hit.partition(":")
            found.add((where.removeprefix("./"), forms.get(text, text)))
        if (out / ".git").exists():
            objects = subprocess.run(["git", "cat-file", "--batch-all-objects", "--batch"], cwd=out,
                                     capture_output=True, check=True).stdout
            hits = subprocess.run(["grep", "-F", "-a", "-o", "-f", f.name], input=objects, capture_output=True)
            for text in hits.stdout.decode("utf-8", "replace").splitlines():
                found.add(("<git objects>", forms.get(text, text)))
    finally:
        os.unlink(f.name)
    return sorted(found)


def _student_lab_setup(text: str) -> str:
    """``tools/lab_setup.py`` reading the lab settings from ``tools/`` (the edition has no grader/)."""
    old = 'ROOT / "grader" / "lab-overrides.json"'
    if old not in text:
        raise RuntimeError(f"tools/lab_setup.py no longer reads {old}: update tools/edition.py")
    return text.replace(old, 'ROOT / "tools" / "lab-overrides.json"').replace("grader/lab-overrides", "tools/lab-overrides")


# pyproject.toml's lines that name the grader, and what the edition (which has no grader/) has instead.
GRADER_IN_PYPROJECT = {
    'package-dir = {"ptcourse" = "src/ptcourse", "grader" = "grader"}': 'package-dir = {"ptcourse" = "src/ptcourse"}',
    'where = ["src", "."]': 'where = ["src"]',
    'include = ["ptcourse", "ptcourse.*", "grader", "grader.*"]': 'include = ["ptcourse", "ptcourse.*"]',
    '[tool.setuptools.package-data]\ngrader = ["*.json", "templates/**/*"]\n': "",
}


def _student_pyproject(text: str) -> str:
    """``pyproject.toml`` installing ``ptcourse`` alone (the edition has no grader/)."""
    for old, new in GRADER_IN_PYPROJECT.items():
        if old not in text:
            raise RuntimeError(f"pyproject.toml no longer has {old!r}: update tools/edition.py")
        text = text.replace(old, new)
    return text


def _git(out: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "PyTorch in Three Days", "GIT_AUTHOR_EMAIL": "course@example.invalid",
           "GIT_COMMITTER_NAME": "PyTorch in Three Days", "GIT_COMMITTER_EMAIL": "course@example.invalid"}
    return subprocess.run(["git", "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false", *args],
                          cwd=out, env=env, capture_output=True, text=True, check=True).stdout


LINK = re.compile(r"\]\((?P<target>[^)\s#]+)(?P<anchor>#[^)\s]*)?\)")


def relocated_line(line: str, page: str, lang: str, shipped: set[str]) -> str | None:
    """``line`` of the course's ``lang/page`` as the ``lang`` edition's ``page`` (its folder
    ``lang/`` is the edition's root): a self-check path loses ``lang/``, a link out of ``lang/``
    to a file the edition ships as it is points to it from the new place; None (drop the line)
    when a link names a file the edition does not ship (the English edition's pages)."""
    line = line.replace(f"NB={lang}/", "NB=")
    here = posixpath.dirname(page)
    for match in LINK.finditer(line):
        target = match["target"]
        if re.match(r"[a-z][a-z0-9+.-]*:", target) or target.startswith("/"):
            continue
        full = posixpath.normpath(posixpath.join(lang, here, target))
        if full.startswith(f"{lang}/"):
            continue
        if full not in shipped:
            return None
        line = line.replace(match[0], f"]({posixpath.relpath(full, here or '.')}{match['anchor'] or ''})")
    return line


def relocated_notebook(text: str, page: str, lang: str, shipped: set[str]) -> str:
    """The notebook ``lang/page`` (JSON text) with each markdown line relocated (:func:`relocated_line`)."""
    import i18n  # tools/i18n.py

    nb, changed = json.loads(text), False
    for cell in nb["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        source = i18n._source(cell)
        lines = [relocated_line(ln, page, lang, shipped) for ln in source.split("\n")]
        new = "\n".join(ln for ln in lines if ln is not None)
        if new != source:
            cell["source"], changed = new, True
    return i18n._dump(nb) if changed else text


def translated(lang: str, root: Path = ROOT) -> tuple[dict[str, str], str | None]:
    """``({edition path: text}, README template or None)`` of the ``lang`` edition: the
    translated notebooks in place of ``HOME.ipynb`` and ``dayN/``, and ``.ptcourse-lang``.
    Their links and self-check paths name the edition's own files (:func:`relocated_line`)."""
    import i18n  # tools/i18n.py

    files = {rel.removeprefix(f"{lang}/"): text for rel, text in i18n.built_files(lang, root).items()}
    shipped = {name for name in selected(root) if not name.startswith(f"{lang}/") and name not in files}
    for rel, text in files.items():
        if rel.endswith(".ipynb"):
            files[rel] = relocated_notebook(text, rel, lang, shipped)
    return files, i18n.translated_readme(lang, root)


def student_makefile(lang: str = "en") -> str:
    """``edition-files/Makefile`` with its opening comment and usage line in ``lang`` (the
    catalogue's ``edition.makefile.*``; the English ones are the file's own)."""
    from ptcourse.messages import msg_in

    text = (FILES / "Makefile").read_text(encoding="utf-8")
    head, rest = text[:text.index("\nPYTHON ?=")], text[text.index("\nPYTHON ?="):]
    usage = msg_in("en", "edition.makefile.usage")
    if head != _comment(msg_in("en", "edition.makefile.header")) or f"echo '{usage}'" not in rest:
        raise RuntimeError("tools/edition-files/Makefile's opening comment or usage line is not the catalogue's "
                           "edition.makefile.* (update both)")
    return _comment(msg_in(lang, "edition.makefile.header")) + rest.replace(
        f"echo '{usage}'", f"echo '{msg_in(lang, 'edition.makefile.usage')}'")


def _comment(text: str) -> str:
    return "\n".join(("# " + line).rstrip() for line in text.split("\n")) + "\n"


def build(out: Path, repo: str = PLACEHOLDER_REPO, root: Path = ROOT, lang: str = "en") -> dict:
    """Write the edition into ``out`` and commit it; returns its size and build time."""
    started = time.monotonic()
    out = Path(out).resolve()
    if out.exists() and any(out.iterdir()):
        raise SystemExit(f"error: {out} is not empty: the edition goes into a new or empty folder")
    if not re.fullmatch(r"[\w.-]+/[\w.-]+", repo):
        raise SystemExit(f"error: --repo should be OWNER/NAME as on GitHub, got {repo!r}")
    out.mkdir(parents=True, exist_ok=True)
    for name in selected(root):
        if lang != "en" and name.startswith("zh-CN/"):  # the translated notebooks go to HOME.ipynb and dayN/
            continue
        target = out / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if name == "tools/lab_setup.py":
            target.write_text(_student_lab_setup((root / name).read_text()))
        elif name == "pyproject.toml":
            target.write_text(_student_pyproject((root / name).read_text()))
        else:
            shutil.copy2(root / name, target)
    shutil.copyfile(root / OVERRIDES[0], out / OVERRIDES[1])
    # read by the edition's tools/lab_setup.py: a learner's JupyterLab (nbgrader's instructor interface off;
    # the Chinese edition's lab in Chinese)
    (out / "tools" / "course-edition.json").write_text(json.dumps({"lang": lang}) + "\n", encoding="utf-8")
    readme = (FILES / "README.md").read_text()
    readme_lang = "en"
    if lang != "en":
        files, readme_zh = translated(lang, root)
        for name, text in files.items():
            (out / name).parent.mkdir(parents=True, exist_ok=True)
            (out / name).write_text(text, encoding="utf-8")
        if readme_zh is not None:
            readme, readme_lang = readme_zh, lang
    (out / "README.md").write_text(readme.replace("{repo}", repo).replace("{clone_url}", f"https://github.com/{repo}.git"))
    (out / "Makefile").write_text(student_makefile(lang), encoding="utf-8")
    shutil.copyfile(FILES / "gitignore", out / ".gitignore")
    shutil.copyfile(FILES / "nbgrader_config.py", out / "nbgrader_config.py")

    leaks = find_leaks(out, solution_lines(root))
    if leaks:
        shutil.rmtree(out)
        raise SystemExit("error: solution text in the edition, build stopped:\n"
                         + "\n".join(f"  {where}: {line}" for where, line in leaks[:20]))
    _git(out, "init", "-q")
    _git(out, "add", "-A")
    _git(out, "commit", "-q", "-m", "PyTorch in Three Days: student edition")
    files = _git(out, "ls-files").split()
    size = sum((out / f).stat().st_size for f in files)
    return {"path": str(out), "files": len(files), "bytes": size, "seconds": time.monotonic() - started,
            "lang": lang, "readme_lang": readme_lang}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="make student-edition", description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="a new or empty folder")
    parser.add_argument("--repo", default=None, help="the student repository on GitHub (OWNER/NAME), "
                        "for the README's Binder badge and clone command (default: this checkout's "
                        "GitHub remote 'origin', else a placeholder, loudly)")
    parser.add_argument("--lang", default="en", choices=["en", "zh-CN"], help="the edition's language")
    args = parser.parse_args(argv)
    if args.repo is None:
        args.repo = github_remote() or PLACEHOLDER_REPO
        if args.repo != PLACEHOLDER_REPO:
            print(f"Binder badge and clone command: {args.repo} (this checkout's git remote 'origin'; REPO= to change)")
    info = build(args.out, args.repo, lang=args.lang)
    print(f"student edition: {info['path']} ({info['files']} files, {info['bytes'] / 1e6:.1f} MB, "
          f"one commit, built in {info['seconds']:.1f} s)")
    if info["readme_lang"] != args.lang:
        print(f"note: no fresh {args.lang} README translation (i18n/{args.lang}/README.md): the README is English")
    if args.repo == PLACEHOLDER_REPO:
        print("\n" + "!" * 78 + f"\nWARNING: the edition's README names the placeholder {PLACEHOLDER_REPO}: its Binder "
              "badge and\nclone command lead nowhere. Rebuild with REPO=owner/name (make student-edition OUT=DIR "
              "REPO=owner/name)\nbefore you publish it.\n" + "!" * 78, file=sys.stderr)
    return 0


GITHUB_URL = re.compile(r"(?:https://github\.com/|git@github\.com:|ssh://git@github\.com/)([\w.-]+/[\w.-]+?)(?:\.git)?/?$")


def github_remote(root: Path = ROOT) -> str | None:
    """``OWNER/NAME`` of this checkout's remote ``origin`` when it is on GitHub, else ``None``."""
    found = subprocess.run(["git", "remote", "get-url", "origin"], cwd=root, capture_output=True, text=True)
    match = GITHUB_URL.match(found.stdout.strip()) if found.returncode == 0 else None
    return match.group(1) if match else None


if __name__ == "__main__":
    sys.exit(main())
