"""What ``python -m grader check`` prints (``make check`` in the course repository), in the
notebook's language: a header with the points, then one line per graded check with its title
(the test's translated docstring, not its grade id), its points and, when it lost points, the
first line of its message, clipped at a word or character boundary.
"""

from __future__ import annotations

from grader.records import CellResult, NotebookRecord
from grader.results.report import check_title, lost_words, status_words
from ptcourse.messages import msg_in
from ptcourse.textclip import first_line


def check_line(grade_id: str, cell: CellResult, lang: str) -> str:
    """``  ✔ title (1/1)`` or ``  ✘ title (0/1): message``, in ``lang``."""
    passed = cell.passed
    values = {"mark": "✔" if passed else "✘", "title": check_title(grade_id, lang).rstrip("。. "),
              "score": cell.score, "max_score": cell.max}
    message = first_line(cell.message or ("" if passed else lost_words(cell, lang)))
    if passed or not message:
        return "  " + msg_in(lang, "grader.check.line", **values)
    return "  " + msg_in(lang, "grader.check.line_failed", message=message, **values)


def summary(record: NotebookRecord, day: str, lang: str) -> list[str]:
    """The lines printed for one graded notebook."""
    points = msg_in(lang, "grader.page.points", score=record.score, max_score=record.max_score)
    lines = ["", msg_in(lang, "grader.check.header", notebook=f"{day}/{record.notebook}", points=points)]
    if not record.graded:
        lines.append("  " + msg_in(lang, "grader.check.status", status=status_words(record.status, lang),
                                   detail=record.detail))
    lines += ["  " + msg_in(lang, "grader.check.note", note=note) for note in record.notes]
    lines += [check_line(gid, cell, lang) for gid, cell in record.cells.items()]
    return lines
