"""Translation files of the course's notebooks: write a skeleton, say which entries are stale.

The English notebooks in ``solutions/`` (and ``HOME.ipynb``) are the one source. A translation
of one notebook is one text file, ``i18n/<lang>/<day>/<notebook>.md`` (``i18n/<lang>/HOME.md``
for the home page), made of entries, each headed by one line::

    <!-- cell: c003 en: 1a2b3c4d5e6f -->
    The translated markdown of cell c003 ...

    <!-- cell: c007 en: 9f8e7d6c5b4a code -->
    x = torch.zeros(3)  # the same code, only its comments translated

``cell`` is the stable cell id (``tools/nbtext.py`` keeps it across edits); ``en`` is the first
12 hex digits of the SHA-256 of the English cell's source when it was translated; ``code`` marks
a free code cell whose comments are translated (its code must stay the same). When the English
cell changes, its hash no longer matches and the entry is *stale*::

    python tools/i18n.py extract solutions/day1/01_tensors.ipynb > i18n/zh-CN/day1/01_tensors.md
    python tools/i18n.py status zh-CN          # ok / stale / missing / orphan per file; exit 1 if any
    python tools/i18n.py build zh-CN           # zh-CN/: the Chinese notebooks (make release runs it)

The student README (``tools/edition-files/README.md``) is translated as a whole file:
``i18n/<lang>/README.md`` holds one entry, ``<!-- cell: README en: HASH -->``, the whole
translated README below it (``{repo}`` and ``{clone_url}`` kept as they are).

On ``HOME.ipynb`` the generated parts of the day tables (minutes, points, totals) are left out
of the hash, so ``make points`` does not make the home page's translation stale; the titles,
links and "what you learn" texts are in it. ``build`` regenerates those tables in the language
(tools/home.py, the code ``make points`` uses), from the translated rows.

``build`` writes ``<lang>/dayN/*.ipynb``: the student copies ``dayN/*.ipynb`` with every fresh
translated cell's source replaced (a stale entry is not used: that cell stays English until the
entry is updated), notebook metadata ``ptcourse: {lang: ...}``; ``<lang>/HOME.ipynb``; and
``<lang>/.ptcourse-lang``. A code entry whose code differs from the English once comments are
stripped stops the build. ``status`` exits 1 on stale or orphan entries (and, with ``--strict``,
on missing ones) and says, for a stale entry, what changed in the English (from git history).
"""

from __future__ import annotations

import difflib
import hashlib
import io
import json
import re
import subprocess
import sys
import tokenize
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DAYS = ("day1", "day2", "day3")
README_SOURCE = Path("tools/edition-files/README.md")  # the student README, relative to the course root
README_ID = "README"
STUB_COMMENT = "# YOUR CODE HERE"  # the first line of nbgrader's code stub (grader/nbgrader_config.py)
HEADER = re.compile(r"^<!-- cell: (?P<cell>\S+) en: (?P<en>[0-9a-f]{12})(?P<code> code)? -->$", re.M)
# The generated parts of HOME.ipynb (tools/home.py): left out of the hash.
TABLE = re.compile(r"<!-- table:(?P<day>day\d) -->\n(?P<body>.*?)<!-- /table -->", re.S)
LOOSE_ROW = re.compile(r"^\| \[(?P<title>[^\]]+)\]\((?P<path>day\d/[\w.]+\.ipynb)\) \| (?P<what>.+?) \|", re.M)


def en_hash(source: str) -> str:
    """The short hash an entry records of the English text it translates."""
    return hashlib.sha256(source.encode("utf-8")).hexdigest()[:12]


# HOME.ipynb's generated sentences (tools/home.py: each day's time, where to ask): made in each language by code.
GENERATED = re.compile(r"<!-- (?P<name>times:days|ask) -->\n.*?<!-- /(?:times|ask) -->", re.S)


def hashed_text(source: str) -> str:
    """What of a cell's English source the hash covers: all of it, except that a day table of
    HOME.ipynb counts only by its rows' titles, links and "what you learn" texts, and its generated
    sentences not at all."""
    source = GENERATED.sub(lambda m: f"<!-- {m['name']} -->", source)
    return TABLE.sub(lambda m: f"<!-- table:{m['day']} -->\n" + "".join(
        f"{r['title']} | {r['path']} | {r['what']}\n" for r in LOOSE_ROW.finditer(m["body"])) + "<!-- /table -->",
        source)


@dataclass
class Entry:
    """One translated cell."""

    cell: str
    en: str
    code: bool
    text: str


def parse(text: str) -> dict[str, Entry]:
    """The entries of one translation file, by cell id."""
    heads = list(HEADER.finditer(text))
    entries: dict[str, Entry] = {}
    for head, nxt in zip(heads, heads[1:] + [None], strict=True):
        body = text[head.end():nxt.start() if nxt else len(text)].strip("\n")
        cell = head["cell"]
        if cell in entries:
            raise ValueError(f"cell {cell} translated twice")
        entries[cell] = Entry(cell, head["en"], bool(head["code"]), body)
    return entries


def has_comment(source: str) -> bool:
    return any(line.lstrip().startswith("#") or "  # " in line for line in source.split("\n"))


def strip_comments(source: str) -> str:
    """The code of a cell without its comments, comment-only and blank lines and trailing spaces:
    a translated code cell must give the same."""
    lines = source.split("\n")
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source + "\n").readline))
    except (tokenize.TokenError, SyntaxError):  # not Python (e.g. a %magic line): compare whole lines
        tokens = []
    for tok in reversed(tokens):
        if tok.type == tokenize.COMMENT:
            row, col = tok.start
            lines[row - 1] = lines[row - 1][:col]
    return "\n".join(ln.rstrip() for ln in lines if ln.strip())


def _source(cell: dict) -> str:
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


def _nbgrader(cell: dict) -> dict:
    return cell.get("metadata", {}).get("nbgrader") or {}


def is_scaffold(cell: dict) -> bool:
    """An answer cell (nbgrader solution, not graded, not locked): the learner replaces its code,
    so its comments may be translated like a free code cell's."""
    meta = _nbgrader(cell)
    return cell["cell_type"] == "code" and bool(meta.get("solution")) and not meta.get("grade") \
        and not meta.get("locked")


def scaffold_source(cell: dict) -> str:
    """An answer cell as the student copy has it (the solution replaced by the stub)."""
    from ptcourse.nbmodel import stub_solution

    return stub_solution(_source(cell))


def _own_comments(source: str) -> bool:
    """Comments other than the answer stub's ``# YOUR CODE HERE``."""
    return has_comment("\n".join(ln for ln in source.split("\n") if ln.strip() != STUB_COMMENT))


def translatable(nb_path: Path) -> list[tuple[str, str, bool]]:
    """(cell id, English source, is code) of every cell a translation may cover: markdown, free
    code cells with comments, and answer scaffolds with comments of their own (their student-copy
    text: the solution is never in a translation file)."""
    if nb_path.name == README_SOURCE.name and nb_path.suffix == ".md":
        return [(README_ID, nb_path.read_text(encoding="utf-8"), False)]
    nb = json.loads(nb_path.read_text(encoding="utf-8"))
    out = []
    for cell in nb["cells"]:
        source = _source(cell)
        if cell["cell_type"] == "markdown":
            out.append((cell["id"], source, False))
        elif cell["cell_type"] == "code" and not _nbgrader(cell) and has_comment(source):
            out.append((cell["id"], source, True))
        elif is_scaffold(cell) and _own_comments(scaffold_source(cell)):
            out.append((cell["id"], scaffold_source(cell), True))
    return out


def skeleton(nb_path: Path) -> str:
    """A translation file holding the English text, to be overwritten by the translation."""
    parts = []
    for cell, source, code in translatable(nb_path):
        parts.append(f"<!-- cell: {cell} en: {en_hash(hashed_text(source))}{' code' if code else ''} -->\n{source}\n")
    return "\n".join(parts)


def source_of(translation: Path, lang: str, root: Path = ROOT) -> Path:
    """The English file a translation file translates."""
    rel = translation.relative_to(root / "i18n" / lang)
    if rel == Path("README.md"):
        return root / README_SOURCE
    rel = rel.with_suffix(".ipynb")
    return root / rel if rel.name == "HOME.ipynb" else root / "solutions" / rel


def translation_files(lang: str, root: Path = ROOT) -> list[Path]:
    """The translation files of ``lang`` (the glossary and other notes are not)."""
    return [p for p in sorted((root / "i18n" / lang).rglob("*.md")) if source_of(p, lang, root).exists()]


def status(lang: str, root: Path = ROOT) -> dict[str, dict[str, list[str]]]:
    """Per translation file: the cell ids that are ok, stale, missing or orphan."""
    report = {}
    for path in translation_files(lang, root):
        nb = source_of(path, lang, root)
        entries = parse(path.read_text(encoding="utf-8"))
        english = {cell: (source, code) for cell, source, code in translatable(nb)}
        row = {"ok": [], "stale": [], "missing": [], "orphan": []}
        for cell, (source, code) in english.items():
            entry = entries.get(cell)
            if entry is None:
                if not code:  # a code cell left in English is fine
                    row["missing"].append(cell)
            elif entry.en != en_hash(hashed_text(source)):
                row["stale"].append(cell)
            else:
                row["ok"].append(cell)
        row["orphan"] = [cell for cell in entries if cell not in english]
        report[str(path.relative_to(root))] = row
    return report


def _old_english(rel: str, cell: str, old_hash: str, history: Path) -> str | None:
    """The English text of ``cell`` whose hash is ``old_hash``, searched in ``history``'s git log of ``rel``."""
    try:
        commits = subprocess.run(["git", "log", "--format=%H", "-n", "200", "--", rel], cwd=history,
                                 capture_output=True, text=True, check=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        return None
    for commit in commits:
        shown = subprocess.run(["git", "show", f"{commit}:{rel}"], cwd=history, capture_output=True, text=True)
        if shown.returncode:
            continue
        try:
            cells = ([{"id": README_ID, "source": shown.stdout}] if rel.endswith(".md")
                     else json.loads(shown.stdout)["cells"])
        except (ValueError, KeyError):
            continue
        for c in cells:
            text = scaffold_source(c) if c.get("cell_type") == "code" and is_scaffold(c) else _source(c)
            if c.get("id") == cell and en_hash(hashed_text(text)) == old_hash:
                return text
    return None


def what_changed(lang: str, translation: str, cell: str, root: Path = ROOT, history: Path = ROOT) -> str:
    """A few lines saying how the English of a stale entry changed since it was translated."""
    path = root / translation
    nb = source_of(path, lang, root)
    entry = parse(path.read_text(encoding="utf-8"))[cell]
    now = {c: s for c, s, _ in translatable(nb)}[cell]
    rel = str(nb.relative_to(root))
    old = _old_english(rel, cell, entry.en, history)
    if old is None:
        return f"the English text of {rel} cell {cell} changed (hash {entry.en} -> {en_hash(hashed_text(now))}; " \
               "its translated version is not in git history)"
    diff = [ln for ln in difflib.unified_diff(old.split("\n"), now.split("\n"), lineterm="", n=0)
            if not ln.startswith(("---", "+++", "@@"))]
    return f"the English of {rel} cell {cell} changed: " + " / ".join(diff[:6]) + (" ..." if len(diff) > 6 else "")


def problems(lang: str, root: Path = ROOT, history: Path = ROOT, strict: bool = False) -> list[str]:
    """One line per stale or orphan entry (and missing one, with ``strict``): file, cell id, what changed."""
    out = []
    for name, row in status(lang, root).items():
        for cell in row["stale"]:
            out.append(f"{name}: stale entry cell {cell}: {what_changed(lang, name, cell, root, history)}")
        for cell in row["orphan"]:
            out.append(f"{name}: orphan entry cell {cell}: no such cell in the English any more")
        if strict:
            out += [f"{name}: cell {cell} not translated" for cell in row["missing"]]
    return out


# -- build ------------------------------------------------------------------------------------
def _fresh_entries(path: Path, english: Path) -> dict[str, Entry]:
    """The entries of ``path`` whose hash matches the English now (stale ones are not used)."""
    if not path.exists():
        return {}
    current = {c: en_hash(hashed_text(s)) for c, s, _ in translatable(english)}
    return {c: e for c, e in parse(path.read_text(encoding="utf-8")).items() if current.get(c) == e.en}


def translate_notebook(nb: dict, entries: dict[str, Entry], lang: str, where: str) -> dict:
    """``nb`` (notebook JSON) with each entry's text in place of its cell's source; code entries
    must keep the code (comments aside)."""
    out = json.loads(json.dumps(nb))
    for cell in out["cells"]:
        entry = entries.get(cell.get("id"))
        if entry is None:
            continue
        if cell["cell_type"] == "code":
            if _nbgrader(cell) and not is_scaffold(cell):
                raise ValueError(f"{where}: cell {entry.cell} is a graded or locked nbgrader cell: only markdown, "
                                 "free code cells and answer scaffolds are translated")
            if strip_comments(entry.text) != strip_comments(_source(cell)):
                raise ValueError(f"{where}: cell {entry.cell}: the translated code cell changes the code, not only "
                                 "its comments; translate the comments only")
        cell["source"] = entry.text
    for cell in out["cells"]:
        if is_scaffold(cell):
            cell["source"] = translated_stub(_source(cell), lang)
        elif is_test(cell):
            translate_docstring(cell, lang)
    out["metadata"]["ptcourse"] = {**out["metadata"].get("ptcourse", {}), "lang": lang}
    return out


def is_test(cell: dict) -> bool:
    """An nbgrader test cell (graded, not an answer)."""
    meta = _nbgrader(cell)
    return cell["cell_type"] == "code" and bool(meta.get("grade")) and not meta.get("solution")


def translated_title_line(source: str, grade_id: str, lang: str) -> str | None:
    """A test cell's first line, its docstring (the check's title), as ``lang``'s catalogue says it
    (``<grade_id>.title``, which tools/msgify.py takes from the English docstring); ``None`` if the
    first line is no one-line docstring or the title has no translation that fits in one."""
    from ptcourse.messages import catalogue, normalise_lang

    first = source.split("\n", 1)[0]
    title = catalogue(normalise_lang(lang)).get(f"{grade_id}.title")
    if not (first.startswith('"""') and first.endswith('"""') and len(first) > 6) or not title:
        return None
    if '"""' in title or title.endswith('"') or "\\" in title or "\n" in title:
        return None
    return f'"""{title}"""'


def translate_docstring(cell: dict, lang: str) -> None:
    """The test cell's docstring in ``lang`` (:func:`translated_title_line`); its nbgrader checksum is
    recomputed, so Validate sees the cell as released. Only the docstring changes: the grader runs
    the course's own test code in any case (grader/intake/repair.py)."""
    import nbformat
    from nbgrader.utils import compute_checksum

    source = _source(cell)
    line = translated_title_line(source, _nbgrader(cell).get("grade_id", ""), lang)
    if line is None:
        return
    rest = source.split("\n", 1)
    cell["source"] = line + ("\n" + rest[1] if len(rest) > 1 else "")
    if "checksum" in _nbgrader(cell):
        cell["metadata"]["nbgrader"]["checksum"] = compute_checksum(nbformat.from_dict(cell))


def translated_stub(source: str, lang: str) -> str:
    """``source`` with each answer stub comment (``# YOUR CODE HERE``) in ``lang`` (the catalogue's
    ``edition.code_stub``), its indentation kept."""
    from ptcourse.messages import msg_in

    comment = msg_in(lang, "edition.code_stub")
    return "\n".join(ln[:len(ln) - len(ln.lstrip())] + comment if ln.strip() == STUB_COMMENT else ln
                     for ln in source.split("\n"))


def _dump(nb: dict) -> str:
    import nbformat

    return nbformat.writes(nbformat.from_dict(nb)) + "\n"


def built_files(lang: str, root: Path = ROOT) -> dict[str, str]:
    """``{path relative to the course root: text}`` of everything ``build`` writes."""
    files: dict[str, str] = {f"{lang}/.ptcourse-lang": lang + "\n"}
    i18n = root / "i18n" / lang
    for day in DAYS:
        for copy in sorted((root / day).glob("*.ipynb")):
            source = root / "solutions" / day / copy.name
            entries = _fresh_entries(i18n / day / copy.with_suffix(".md").name, source)
            nb = json.loads(copy.read_text(encoding="utf-8"))
            files[f"{lang}/{day}/{copy.name}"] = _dump(translate_notebook(nb, entries, lang, f"{day}/{copy.name}"))
    home = root / "HOME.ipynb"
    if home.exists():
        files[f"{lang}/HOME.ipynb"] = _dump(translated_home(json.loads(home.read_text(encoding="utf-8")),
                                                            _fresh_entries(i18n / "HOME.md", home), lang))
    return files


def translated_home(nb: dict, entries: dict[str, Entry], lang: str) -> dict:
    """The home page in ``lang``: translated cells, day tables regenerated in ``lang``."""
    sys.path.insert(0, str(ROOT))
    import nbformat

    from tools import home

    out = translate_notebook(nb, entries, lang, "HOME.ipynb")
    translated = {c["id"] for c in out["cells"] if c.get("id") in entries}
    nbnode = nbformat.from_dict(out)
    for cell in nbnode.cells:
        if cell.cell_type == "markdown" and cell.get("id") in translated:
            cell.source = TABLE.sub(lambda m: f"<!-- table:{m['day']} -->\n"
                                    f"{home.table(m['day'], home.rows(m['body'], loose=True), lang=lang)}<!-- /table -->",
                                    cell.source)
            cell.source = home.plain_words(cell.source, lang)
    return json.loads(nbformat.writes(nbnode))


def translated_readme(lang: str, root: Path = ROOT) -> str | None:
    """The student README in ``lang`` (its fresh whole-file entry), or None."""
    entries = _fresh_entries(root / "i18n" / lang / "README.md", root / README_SOURCE)
    return entries[README_ID].text + "\n" if README_ID in entries else None


def build(lang: str, root: Path = ROOT, out: Path | None = None) -> list[str]:
    """Write ``built_files`` under ``out`` (the course root); remove notebooks build no longer makes."""
    out = Path(out or root)
    files = built_files(lang, root)
    for old in sorted((out / lang).glob("day*/*.ipynb")) if (out / lang).exists() else []:
        if str(old.relative_to(out)) not in files:
            old.unlink()
    for rel, text in files.items():
        target = out / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.exists() or target.read_text(encoding="utf-8") != text:
            target.write_text(text, encoding="utf-8")
    return sorted(files)


def main(argv: list[str]) -> int:
    if len(argv) == 2 and argv[0] == "extract":
        sys.stdout.write(skeleton(Path(argv[1])))
        return 0
    if len(argv) >= 2 and argv[0] == "status":
        for name, row in status(argv[1]).items():
            found = {k: v for k, v in row.items() if k != "ok" and v}
            print(f"{name}: {len(row['ok'])} ok" + "".join(f", {k}: {' '.join(v)}" for k, v in found.items()))
        bad = problems(argv[1], strict="--strict" in argv)
        print("\n".join(bad))
        return 1 if bad else 0
    if len(argv) == 2 and argv[0] == "build":
        written = build(argv[1])
        stale = [ln for ln in problems(argv[1])]
        print(f"{argv[1]}/: {len(written)} files" + (f"; {len(stale)} stale or orphan entries left in English "
                                                      f"(python tools/i18n.py status {argv[1]})" if stale else ""))
        return 0
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
