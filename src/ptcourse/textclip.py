"""One line of a message, clipped for a terminal at a word or character boundary (CJK-aware).

Shared by the learner's self-check (:mod:`ptcourse.selfcheck`) and the class grader's
``check`` command, so neither cuts a word in two ("…请用 x 和 x.ab").
"""

from __future__ import annotations

import re

LIMIT = 200  # characters of a message shown on one line
# Letters of scripts written without spaces (CJK ideographs and punctuation, kana, hangul,
# full-width forms): a line may break before or after any of them.
CJK = re.compile(r"[\u2e80-\u303f\u3040-\u30ff\u3100-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af"
                 r"\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]")

__all__ = ["clip", "first_line"]


def _breakable(text: str, i: int) -> bool:
    """Whether ``text`` may be cut before index ``i``: at a space, or next to a CJK character."""
    before, after = text[i - 1], text[i]
    return before.isspace() or after.isspace() or bool(CJK.match(before) or CJK.match(after))


def clip(text: str, limit: int = LIMIT) -> str:
    """``text`` if it fits in ``limit`` characters, else cut at the last word or character
    boundary before the limit, with ``…`` (a single word longer than the line is cut where it must)."""
    if len(text) <= limit:
        return text
    end = limit - 1  # room for the ellipsis
    cut = next((i for i in range(end, 0, -1) if _breakable(text, i)), end)
    return text[:cut].rstrip() + "…"


def first_line(text: str, limit: int = LIMIT) -> str:
    """The first line of ``text``, clipped (:func:`clip`)."""
    lines = (text or "").strip().splitlines()
    return clip(lines[0], limit) if lines else ""
