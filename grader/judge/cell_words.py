"""What a graded cell's outputs say, in the learner's words: an exception's headline, a warning's note.

A graded check fails on an exception (an error output) or a failed check, and on nothing else: a
warning, or anything else the cell wrote to stderr, is shown as a note and costs nothing (nbgrader
itself scores such a cell 0: grader.compat.warnings_never_fail). Whatever the kernel wrote is the
learner's, so only its plain-words part is kept: the exception's type and message, a warning's
category and message, never a traceback (a hidden test's source) nor a path of the grading machine.
"""

from __future__ import annotations

import re

from ptcourse.messages import msg_in

MAX_CHARS = 300  # of one exception's or warning's words on a page
# An absolute path of two parts or more (``/home/x/course/a.py``): only its last part is kept. Not
# the ``//`` of a URL, nor a path already cut to ``./x`` or ``~/x``.
_PATH = re.compile(r"(?<![\w.:/~])/(?:[^\s/'\"():,]+/)+([^\s/'\"():,]+)")
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
# A line that Python's ``warnings`` module wrote: ``<file>:<line>: <Category>: <message>``.
_WARNING = re.compile(r"^(?:.*?:\d+: )?([A-Za-z_][\w.]*(?:Warning|Deprecation\w*)): (.*\S)")


def strip_paths(text: str) -> str:
    """``text`` with each absolute path cut to its last part (a file's name)."""
    return _PATH.sub(lambda m: m.group(1), text)


def _clip(text: str) -> str:
    return text if len(text) <= MAX_CHARS else text[: MAX_CHARS - 1] + "…"


def headline(ename: str, evalue: str, lang: str = "en") -> str:
    """An exception in plain words: ``Name: its message's first line`` without paths, or, when it has
    message of its own, a sentence that says so."""
    lines = [line.strip() for line in _ANSI.sub("", evalue or "").splitlines() if line.strip()]
    ename = strip_paths(_ANSI.sub("", ename or "")) or "Error"
    if not lines:
        return msg_in(lang, "grader.cell.raised_bare", error=ename)
    return _clip(f"{ename}: {strip_paths(lines[0])}")


def _joined(text) -> str:
    """A stream's text as one string: a notebook file keeps a multi-line one as a list of lines."""
    return "".join(str(t) for t in text) if isinstance(text, list) else str(text)


def warning_text(outputs) -> str | None:
    """What a cell wrote to stderr, as one plain line (a warning's ``Category: message``), or None."""
    text = "".join(_joined(o.get("text", "")) for o in outputs
                   if o.get("output_type") == "stream" and o.get("name") == "stderr")
    lines = [line.strip() for line in _ANSI.sub("", text).splitlines() if line.strip()]
    if not lines:
        return None
    for line in lines:
        found = _WARNING.match(line)
        if found:
            return _clip(f"{found.group(1).rsplit('.', 1)[-1]}: {strip_paths(found.group(2))}")
    return _clip(strip_paths(lines[0]))


def passed_with_warnings(nb) -> dict[str, str]:
    """``{grade_id: warning}`` for each graded code cell that raised nothing and wrote to stderr."""
    out = {}
    for cell in nb.get("cells", []):
        meta = cell.get("metadata", {}).get("nbgrader", {})
        outputs = cell.get("outputs", [])
        if cell.get("cell_type") != "code" or not meta.get("grade") or not meta.get("grade_id"):
            continue
        if any(o.get("output_type") == "error" for o in outputs):
            continue
        text = warning_text(outputs)
        if text:
            out[meta["grade_id"]] = text
    return out
