"""What the grading machine keeps to itself: nothing a learner sees may name one of its paths.

Used wherever text leaves the grader for a learner or for the driver: the feedback pages and
records (grader.run.engine), and what a cluster worker sends back (grader.run.cluster).
"""

from __future__ import annotations

import re


def scrub(text: str, private: list[str]) -> str:
    """``text`` without the grading machine's paths: each path under a private folder becomes its file name."""
    if not text:
        return text
    for root in sorted({p.rstrip("/") for p in private if p and p != "/"}, key=len, reverse=True):
        text = re.sub(re.escape(root) + r"(/[^\s'\"]*)?",
                      lambda m: (m.group(1) or "").rsplit("/", 1)[-1] or "…", text)
    text = re.sub(r"/tmp/ptg[-\w]*(/[^\s'\"]*)?", lambda m: (m.group(1) or "").rsplit("/", 1)[-1] or "…", text)
    return text
