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
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
I18N = ROOT / "i18n"
HEADER = re.compile(r"^<!-- cell: (?P<cell>\S+) en: (?P<en>[0-9a-f]{12})(?P<code> code)? -->$", re.M)


def en_hash(source: str) -> str:
    """The short hash an entry records of the English text it translates."""
    return hashlib.sha256(source.encode("utf-8")).hexdigest()[:12]


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


def translatable(nb_path: Path) -> list[tuple[str, str, bool]]:
    """(cell id, English source, is code) of every cell a translation may cover."""
    nb = json.loads(nb_path.read_text(encoding="utf-8"))
    out = []
    for cell in nb["cells"]:
        source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        if cell["cell_type"] == "markdown":
            out.append((cell["id"], source, False))
        elif cell["cell_type"] == "code" and not cell.get("metadata", {}).get("nbgrader") and has_comment(source):
            out.append((cell["id"], source, True))
    return out


def skeleton(nb_path: Path) -> str:
    """A translation file holding the English text, to be overwritten by the translation."""
    parts = []
    for cell, source, code in translatable(nb_path):
        parts.append(f"<!-- cell: {cell} en: {en_hash(source)}{' code' if code else ''} -->\n{source}\n")
    return "\n".join(parts)


def source_of(translation: Path, lang: str) -> Path:
    """The English notebook a translation file translates."""
    rel = translation.relative_to(I18N / lang).with_suffix(".ipynb")
    return ROOT / rel if rel.name == "HOME.ipynb" else ROOT / "solutions" / rel


def status(lang: str) -> dict[str, dict[str, list[str]]]:
    """Per translation file: the cell ids that are ok, stale, missing or orphan."""
    report = {}
    for path in sorted((I18N / lang).rglob("*.md")):
        nb = source_of(path, lang)
        if not nb.exists():
            continue
        entries = parse(path.read_text(encoding="utf-8"))
        english = {cell: (source, code) for cell, source, code in translatable(nb)}
        row = {"ok": [], "stale": [], "missing": [], "orphan": []}
        for cell, (source, code) in english.items():
            entry = entries.get(cell)
            if entry is None:
                if not code:  # a code cell left in English is fine
                    row["missing"].append(cell)
            elif entry.en != en_hash(source):
                row["stale"].append(cell)
            else:
                row["ok"].append(cell)
        row["orphan"] = [cell for cell in entries if cell not in english]
        report[str(path.relative_to(ROOT))] = row
    return report


def main(argv: list[str]) -> int:
    if len(argv) == 2 and argv[0] == "extract":
        sys.stdout.write(skeleton(Path(argv[1])))
        return 0
    if len(argv) == 2 and argv[0] == "status":
        bad = 0
        for name, row in status(argv[1]).items():
            problems = {k: v for k, v in row.items() if k != "ok" and v}
            bad += bool(problems)
            print(f"{name}: {len(row['ok'])} ok" + "".join(f", {k}: {' '.join(v)}" for k, v in problems.items()))
        return 1 if bad else 0
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
