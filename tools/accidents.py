"""Honest accidents: what editors, platforms and learners do to a notebook without meaning harm.

Each accident takes a notebook (a learner's work) and returns the file as it would reach the
grader. The grader's repair step must grade it exactly as it grades the clean notebook.
"""

from __future__ import annotations

import copy

import nbformat

from ptcourse.nbmodel import nbgrader_meta, role


def _cells(nb, kind: str) -> list[int]:
    return [i for i, c in enumerate(nb.cells) if role(c) == kind]


def copied_exercise_cell(nb):
    """JupyterLab copy-paste of an answer cell to try a variant: two cells share a grade id."""
    nb = copy.deepcopy(nb)
    i = _cells(nb, "solution")[1]
    first = copy.deepcopy(nb.cells[i])
    first["id"] = "copy-of-answer"
    first.source = "# my first try, kept for later\n" + first.source
    nb.cells.insert(i, first)  # the later copy (the original position) is the one worked on last
    return nb


def copied_stub_after_answer(nb):
    """The untouched answer cell, copied before the learner solved it, left below their answer."""
    nb = copy.deepcopy(nb)
    i = _cells(nb, "solution")[0]
    stub = copy.deepcopy(nb.cells[i])
    stub["id"] = "stub-copy"
    header = next((ln for ln in stub.source.splitlines() if ln.startswith(("def ", "class "))), "")
    body = "# YOUR CODE HERE\nraise NotImplementedError()"
    stub.source = header + "\n" + "\n".join("    " + ln for ln in body.splitlines()) if header else body
    nb.cells.insert(i + 1, stub)
    return nb


def copied_test_cell(nb):
    """A test cell copied to the end of the notebook (grade id twice)."""
    nb = copy.deepcopy(nb)
    test = copy.deepcopy(nb.cells[_cells(nb, "test")[0]])
    test["id"] = "copied-test"
    nb.cells.append(test)
    return nb


def metadata_dropped(nb):
    """An editor round trip (VS Code, some LMS viewers) that drops every cell's metadata."""
    nb = copy.deepcopy(nb)
    for cell in nb.cells:
        cell.metadata = {}
    return nb


def colab_round_trip(nb):
    """Google Colab: its own notebook and cell metadata, nbgrader metadata gone, outputs kept."""
    nb = metadata_dropped(nb)
    nb.metadata = {"colab": {"provenance": []}, "kernelspec": {"name": "python3", "display_name": "Python 3"},
                   "language_info": {"name": "python"}, "accelerator": "GPU"}
    for i, cell in enumerate(nb.cells):
        cell.metadata = {"id": f"x{i:04d}", "colab": {"base_uri": "https://localhost/"}}
    return nb


def unknown_graded_cell(nb):
    """A graded cell the course does not know (from another version of the course)."""
    nb = copy.deepcopy(nb)
    cell = nbformat.v4.new_code_cell("print('a check from last year')")
    cell.metadata["nbgrader"] = {"grade": True, "grade_id": "old_unknown_check", "locked": True,
                                 "points": 5, "schema_version": 3, "solution": False, "task": False}
    nb.cells.insert(len(nb.cells) // 2, cell)
    return nb


def nbformat_44_without_ids(nb):
    """An nbformat 4.4 file (older Jupyter): no cell ids."""
    nb = copy.deepcopy(nb)
    nb.nbformat_minor = 4
    for cell in nb.cells:
        cell.pop("id", None)
    return nb


def other_kernelspec(nb):
    """Saved from another Jupyter whose kernel has another name (conda, plain python3)."""
    nb = copy.deepcopy(nb)
    nb.metadata["kernelspec"] = {"name": "conda-env-torch-py", "display_name": "Python [conda env:torch]",
                                 "language": "python"}
    return nb


def cells_reordered(nb):
    """Cells moved around: a test above its answer, and the last two exercises swapped."""
    nb = copy.deepcopy(nb)
    answers = _cells(nb, "solution")
    first = answers[0]
    test_at = next(i for i in _cells(nb, "test") if i > first)
    test = nb.cells.pop(test_at)
    nb.cells.insert(first, test)
    answers = _cells(nb, "solution")
    a, b = answers[-2], answers[-1]
    block_a, block_b = nb.cells[a:b], nb.cells[b:]
    nb.cells = nb.cells[:a] + block_b + block_a
    return nb


def answer_turned_markdown(nb):
    """A stray key press (M) turned an answer cell into a markdown cell."""
    nb = copy.deepcopy(nb)
    i = _cells(nb, "solution")[0]
    cell = nb.cells[i]
    nb.cells[i] = nbformat.v4.new_markdown_cell(cell.source, metadata=cell.metadata, id=cell.get("id", "md"))
    return nb


def scratch_cells_added(nb):
    """The learner's own cells: at the top, between an answer and its checks, at the end."""
    nb = copy.deepcopy(nb)
    i = _cells(nb, "solution")[0]
    nb.cells.insert(i + 1, nbformat.v4.new_code_cell("scratch = 1 + 1\nprint(scratch)"))
    nb.cells.insert(0, nbformat.v4.new_markdown_cell("My notes for this notebook"))
    nb.cells.append(nbformat.v4.new_code_cell("print('done')"))
    return nb


def learner_metadata_edited(nb):
    """Cell metadata changed by hand: a test worth 100, an answer marked as graded, checksums gone."""
    nb = copy.deepcopy(nb)
    for cell in nb.cells:
        meta = nbgrader_meta(cell)
        meta.pop("checksum", None)
        if meta.get("grade") and not meta.get("solution"):
            meta["points"] = 100
        if meta.get("solution"):
            meta.update(grade=True, points=50)
    return nb


ACCIDENTS = {
    f.__name__: f for f in (
        copied_exercise_cell, copied_stub_after_answer, copied_test_cell, metadata_dropped, colab_round_trip,
        unknown_graded_cell, nbformat_44_without_ids, other_kernelspec, cells_reordered, answer_turned_markdown,
        scratch_cells_added, learner_metadata_edited,
    )
}


# -- accidents to the file itself: (the notebook's file bytes) -> the bytes as they reach the grader --
def byte_order_mark(data: bytes) -> bytes:
    """Saved by a Windows editor (Notepad, some IDEs) that writes a UTF-8 byte-order mark first."""
    return b"\xef\xbb\xbf" + data


def windows_line_endings(data: bytes) -> bytes:
    """Saved with Windows line endings (CR LF) by an editor or a git checkout."""
    return data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")


FILE_ACCIDENTS = {f.__name__: f for f in (byte_order_mark, windows_line_endings)}


def as_file(nb, accident: str | None = None) -> bytes:
    """The notebook's file as an honest learner's machine would hand it in (``accident``: one of
    :data:`FILE_ACCIDENTS`, else the file as Jupyter writes it)."""
    data = (nbformat.writes(nb) + "\n").encode("utf-8")
    return FILE_ACCIDENTS[accident](data) if accident else data
