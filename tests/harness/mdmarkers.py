"""Literal Markdown emphasis markers a learner would see: ``**``, ``__`` or a lone ``*`` left in
the rendered text because CommonMark could not close (or open) the emphasis.

JupyterLab renders Markdown with marked, GitHub with cmark-gfm: both follow CommonMark's flanking
rules. A closing ``**`` right after full-width punctuation such as ``）`` and right before a CJK
letter is not right-flanking, so ``的**自动求导（autograd）**会`` shows its asterisks. Put the
punctuation outside the bold (``**自动求导**（autograd）会``) or a space before an opening marker
that is followed by punctuation. mistune (installed with nbconvert) applies the same rules.
"""

from __future__ import annotations

import html
import re

import mistune

_RENDER = mistune.create_markdown(escape=False, plugins=["table", "strikethrough", "math"])
# code and math keep their characters: leave them out before looking for markers
_VERBATIM = re.compile(r'<(code|pre)\b[^>]*>.*?</\1>|<(span|div) class="math">.*?</\2>', re.S)
_TAG = re.compile(r"<[^>]+>")
# ** or __ anywhere; a * that is not an operator standing between spaces (a * b)
MARKER = re.compile(r"\*\*|__|(?<!\s)\*|\*(?!\s)")


def rendered_text(markdown: str) -> str:
    """The text a reader sees of ``markdown`` (code spans, code blocks and math left out)."""
    return html.unescape(_TAG.sub("", _VERBATIM.sub(" ", _RENDER(markdown))))


def literal_markers(text: str, context: int = 12) -> list[str]:
    """Each emphasis marker left in rendered ``text``, with a few characters either side."""
    return [text[max(0, m.start() - context):m.end() + context].replace("\n", " ") for m in MARKER.finditer(text)]


def unrendered(markdown: str) -> list[str]:
    """The emphasis markers ``markdown`` would show as literal characters once rendered."""
    return literal_markers(rendered_text(markdown))
