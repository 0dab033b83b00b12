"""People's names, compared and turned into ids, in any script.

* :func:`key` reduces a name or an id for comparison: Unicode NFKC normalisation (full-width and
  compatibility forms fold to their plain ones, a decomposed ``é`` to the composed one), case folding
  (``ß`` and ``ss`` compare equal), and only letters, marks and digits of any script kept. ``"Müller,
  José"``, ``"MÜLLER JOSÉ"`` and ``"müller josé"`` give one key; so do ``"张伟"`` and ``"张 伟"``.
* :func:`student_id` is the grader's id for a student: a folder name under ``feedback/``,
  ``autograded/`` and ``reports/<day>/results/``, and nbgrader's student id. It keeps letters of any
  script (NFC, as macOS's file systems store names), replaces everything else by ``_``, avoids the
  names Windows reserves (``CON``, ``NUL``, ``COM1``...) and stays under every file system's limit
  on a name's length (255 bytes of UTF-8).
"""

from __future__ import annotations

import re
import unicodedata

MAX_ID_BYTES = 120  # well under 255 bytes, with room for "_<platform id>" and a notebook's name
WINDOWS_RESERVED = re.compile(r"(?i)(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?")


def key(text: object) -> str:
    """``text`` reduced for matching: NFKC, case-folded, letters, marks and digits of any script only."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", str(text)).casefold())
    return "".join(ch for ch in folded if unicodedata.category(ch)[0] in "LMN")


def _kept(ch: str) -> bool:
    return unicodedata.category(ch)[0] in "LMN" or ch in "._-"


def _clip(text: str, max_bytes: int) -> str:
    while len(text.encode("utf-8")) > max_bytes:
        text = text[:-1]
    return text


def student_id(name: str, fallback: str = "unnamed", max_bytes: int = MAX_ID_BYTES) -> str:
    """A file-system-safe id that keeps ``name``'s letters in every script (``fallback`` when none is left)."""
    text = unicodedata.normalize("NFC", str(name).strip())
    text = "".join(ch if _kept(ch) else "\0" for ch in text)
    text = re.sub("\0+", "_", text).strip("._-")
    text = _clip(text, max_bytes).strip("._-")
    if WINDOWS_RESERVED.fullmatch(text):
        text = f"{text}_"
    return text or fallback
