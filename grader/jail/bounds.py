"""Everything a learner's kernel sends, bounded before it is read.

A kernel's messages reach the grading job's process as JSON texts (Jupyter's wire protocol: a
header, a parent header, metadata and content, then binary buffers). The kernel is the learner's:
it can send a part of any size and lists nested thousands deep, which would make ``json.loads``
or any recursive reading of the result raise ``MemoryError`` or ``RecursionError`` in the grader.

:class:`BoundedSession` is the job's jupyter_client ``Session``: it checks every part's size and
nesting depth on the raw bytes (:func:`json_depth` reads no value, so nothing is allocated for
one), before anything is parsed. Over a limit of :mod:`grader.settings`:

* a content part is never parsed: the message becomes an ``error`` output (an ``execute_reply``
  an error reply) with a plain catalogued message, so the cell that sent it fails;
* a header too large or too deep cannot be attributed to a cell: the message is dropped;
* buffers past the limit are dropped;

and each time the session records a :class:`Violation`, which grader/jail/execute.py turns into the
running cell's failure and a finding for review. Nothing here raises for what a kernel sends.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from jupyter_client.session import Session

from grader import settings
from ptcourse.messages import msg

_BRACKETS = b"[]{}"
_NOT_BRACKETS = bytes(b for b in range(256) if b not in _BRACKETS)
DROPPED = "ptgrade_dropped"  # the type of a message not read (nbclient ignores it; grader/jail/execute.py too)
ENAME = "GraderBounds"  # the error output's name (grader/run/jobs.py: one of the grader's own errors)
IOPUB_OUTPUTS = {"stream", "display_data", "update_display_data", "execute_result", "error"}


def json_depth(raw: bytes) -> int:
    """How deeply lists and objects nest in a JSON text, read without parsing it: escapes and
    strings are removed first (linear in the size, whatever the text holds), then the brackets
    that are left are counted. An unbalanced text gives its deepest open count (json.loads refuses
    it anyway)."""
    text = raw.replace(b"\\\\", b"").replace(b'\\"', b"")  # escape pairs, left to right, as JSON reads them
    outside = b"".join(text.split(b'"')[0::2])  # what lies between strings
    brackets = outside.translate(None, _NOT_BRACKETS)
    if not brackets:
        return 0
    codes = np.frombuffer(brackets, dtype=np.uint8)
    steps = np.where((codes == ord("[")) | (codes == ord("{")), 1, -1).astype(np.int32)
    return int(np.cumsum(steps).max(initial=0))


def part_problem(raw, max_bytes: int = settings.MESSAGE_BYTES, max_depth: int = settings.MESSAGE_DEPTH) -> str:
    """Why one raw message part may not be parsed ("" when it may)."""
    data = bytes(raw.bytes) if hasattr(raw, "bytes") else raw
    if not isinstance(data, bytes | bytearray | memoryview):
        return "not bytes"
    if len(data) > max_bytes:
        return f"{len(data)} bytes, over {max_bytes}"
    data = bytes(data)
    if data.count(b"[") + data.count(b"{") <= max_depth:  # cannot nest deeper (most messages: no scan)
        return ""
    depth = json_depth(data)
    if depth > max_depth:
        return f"nested {depth} deep, over {max_depth}"
    return ""


@dataclass(frozen=True)
class Violation:
    """A message the session refused to read in full: its type (when known) and why."""

    msg_type: str
    why: str


def refusal_text() -> str:
    """The learner's message, in the kernel's language (the job's ``PTCOURSE_LANG``)."""
    return msg("grader.bounds.message", mb=settings.MESSAGE_BYTES // 1024**2, depth=settings.MESSAGE_DEPTH)


def _error_content(msg_type: str) -> dict:
    text = refusal_text()
    content = {"ename": ENAME, "evalue": text, "traceback": [f"{ENAME}: {text}"]}
    if msg_type == "execute_reply":
        content.update(status="error", execution_count=None, user_expressions={}, payload=[])
    return content


class BoundedSession(Session):
    """A jupyter_client ``Session`` that reads no message part past the limits (see the module)."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.violations: list[Violation] = []

    def deserialize(self, msg_list, content: bool = True, copy: bool = True) -> dict:
        if len(msg_list) < 5:
            return super().deserialize(msg_list, content=content, copy=copy)
        heads = [part_problem(p) for p in msg_list[1:4]]
        if any(heads):
            self.violations.append(Violation("", "; ".join(h for h in heads if h)))
            return _dropped()
        body = part_problem(msg_list[4]) if content else ""
        buffers = sum(len(p.bytes) if hasattr(p, "bytes") else len(p) for p in msg_list[5:])
        if buffers > settings.MESSAGE_BYTES:
            msg_list = msg_list[:5]
            self.violations.append(Violation("", f"buffers of {buffers} bytes dropped"))
        if not body:
            try:
                return super().deserialize(msg_list, content=content, copy=copy)
            except RecursionError:  # a depth the scan did not see: never past the grader
                body = "unreadable"
        message = super().deserialize(msg_list, content=False, copy=copy)  # the signature is checked here
        self.violations.append(Violation(message["msg_type"], body))
        return _rewritten(message)


def _dropped() -> dict:
    """A message no cell waits for (jupyter_client's message layout), in place of one not read at all."""
    header = {"msg_id": "", "msg_type": DROPPED, "session": "", "date": None}
    return dict(header=header, msg_id="", msg_type=DROPPED, parent_header={}, metadata={}, content={}, buffers=[])


def _rewritten(message: dict) -> dict:
    """A message whose content was refused: an error output (or error reply) in its place, so the cell
    it belongs to fails; any other kind of message is dropped (grader/jail/execute.py fails the cell)."""
    msg_type = message["msg_type"]
    if msg_type in IOPUB_OUTPUTS:
        msg_type = "error"
    elif msg_type != "execute_reply":
        msg_type = DROPPED
    message["header"] = {**message["header"], "msg_type": msg_type}
    message["msg_type"] = msg_type
    message["content"] = _error_content(msg_type) if msg_type != DROPPED else {}
    message["buffers"] = []
    return message
