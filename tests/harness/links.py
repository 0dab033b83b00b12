"""Relative links of the course's pages (notebooks' markdown cells, Markdown files): where they point.

A link resolves when, taken relative to the page's folder, it names a file or folder inside the
root it ships in (the course repository or a student edition). Links with a scheme
(``https:``, ``mailto:``), anchors alone (``#...``) and absolute paths are not relative.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import mistune

_RENDER = mistune.create_markdown(escape=False, plugins=["table", "strikethrough", "math"])
_CODE = re.compile(r"<(code|pre)\b[^>]*>.*?</\1>", re.S)
_TARGET = re.compile(r'\b(?:href|src)="([^"]*)"')
PAGE_SUFFIXES = (".ipynb", ".md")


def _markdown_of(page: Path) -> list[str]:
    if page.suffix == ".ipynb":
        cells = json.loads(page.read_text(encoding="utf-8"))["cells"]
        return ["".join(c["source"]) if isinstance(c["source"], list) else c["source"]
                for c in cells if c["cell_type"] == "markdown"]
    return [page.read_text(encoding="utf-8")]


def relative_links(markdown: str) -> list[str]:
    """The relative link and image targets of ``markdown`` (as rendered: none from code)."""
    out = []
    for target in _TARGET.findall(_CODE.sub("", _RENDER(markdown))):
        parts = urlsplit(target)
        if parts.scheme or parts.netloc or not parts.path or parts.path.startswith("/"):
            continue
        out.append(unquote(parts.path))
    return out


def dead_links(page: Path, root: Path) -> list[str]:
    """The relative links of ``page`` that do not resolve to a file or folder inside ``root``."""
    root = root.resolve()
    dead = []
    for markdown in _markdown_of(page):
        for link in relative_links(markdown):
            target = (page.parent / link).resolve()
            if not target.is_relative_to(root):
                dead.append(f"{link} (outside {root.name}/)")
            elif not target.exists():
                dead.append(f"{link} (no such file)")
    return dead


def pages(root: Path, names: list[str]) -> list[Path]:
    """The notebooks and Markdown files among ``names`` (paths relative to ``root``)."""
    return [root / n for n in names if n.endswith(PAGE_SUFFIXES)]
