"""Convert a source notebook to an editable text draft and back (an authoring aid).

The notebooks in ``solutions/`` are the one source of the course. Editing their JSON by hand
is error-prone, so this tool turns one into a plain ``.py`` draft whose cell markers carry the
nbgrader roles, and turns the draft back into the notebook::

    python tools/nbtext.py to-text solutions/day1/02_autograd.ipynb > /tmp/02.py
    # edit /tmp/02.py
    python tools/nbtext.py to-notebook /tmp/02.py solutions/day1/02_autograd.ipynb

Cell markers (one line each, starting the cell):

``# %% [markdown]``            explanation; every following line starts with ``# `` (or is ``#``)
``# %% code``                  a free code cell the learner may edit
``# %% locked id=NAME``        a read-only code cell (the set-up cell, demos)
``# %% solution id=NAME``      an exercise; the answer sits between BEGIN/END SOLUTION
``# %% test id=NAME points=K`` a graded test cell; hidden parts between BEGIN/END HIDDEN TESTS

Every marker also carries the cell's stable id, ``cell=ID``, written by ``to-text``. Keep it
when you edit or move a cell: translations (``i18n/``) are keyed by it. A new cell needs none;
it gets an id made from its text, so inserting a cell never renumbers the others.
"""

from __future__ import annotations

import hashlib
import re
import sys
from pathlib import Path

import nbformat

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from lab_setup import home_metadata  # noqa: E402

from ptcourse.nbmodel import nbgrader_meta, role  # noqa: E402 - the course model, one for every tool

MARKER = re.compile(r"^# %%(?: (?P<kind>\[markdown\]|code|locked|solution|test))?(?P<attrs>(?: \w+=\S+)*)\s*$")


def _meta(kind: str, attrs: dict[str, str]) -> dict:
    base = {"schema_version": 3, "task": False}
    if kind == "solution":
        return {**base, "grade": False, "grade_id": attrs["id"], "locked": False, "solution": True}
    if kind == "test":
        return {
            **base, "grade": True, "grade_id": attrs["id"], "locked": True,
            "points": int(attrs["points"]), "solution": False,
        }
    if kind == "locked":
        return {**base, "grade": False, "grade_id": attrs["id"], "locked": True, "solution": False}
    raise ValueError(kind)


def to_notebook(text: str) -> nbformat.NotebookNode:
    """Parse a draft into a notebook (nbformat 4) with nbgrader metadata."""
    nb = nbformat.v4.new_notebook()
    nb.metadata = home_metadata()  # the course kernel's, so JupyterLab opens it unmodified
    current: tuple[str, dict[str, str]] | None = None
    lines: list[str] = []
    ids: list[str | None] = []

    def flush() -> None:
        if current is None:
            return
        kind, attrs = current
        ids.append(attrs.pop("cell", None))
        body = "\n".join(lines).strip("\n")
        if kind == "[markdown]":
            body = "\n".join(re.sub(r"^# ?", "", ln) for ln in body.split("\n"))
            nb.cells.append(nbformat.v4.new_markdown_cell(body))
            return
        cell = nbformat.v4.new_code_cell(body)
        if kind != "code":
            cell.metadata["nbgrader"] = _meta(kind, attrs)
        nb.cells.append(cell)

    for line in text.split("\n"):
        m = MARKER.match(line)
        if m:
            flush()
            attrs = dict(a.split("=", 1) for a in m.group("attrs").split())
            current, lines = (m.group("kind") or "code", attrs), []
        elif current is not None:
            lines.append(line)
    flush()
    nb.nbformat_minor = 5
    taken = {i for i in ids if i}
    for cell, given in zip(nb.cells, ids, strict=True):
        cell["id"] = given or _new_id(cell.source, taken)
    if len(taken) != len(nb.cells):
        raise ValueError("two cells of the draft carry the same cell= id")
    return nb


def _new_id(source: str, taken: set[str]) -> str:
    """An id for a cell that has none yet: from its text, so it is stable and rarely clashes."""
    digest = hashlib.sha256(source.encode("utf-8")).hexdigest()
    for start in range(0, len(digest) - 8):
        candidate = "n" + digest[start:start + 7]
        if candidate not in taken:
            taken.add(candidate)
            return candidate
    raise ValueError("no free cell id")


def to_text(nb: nbformat.NotebookNode) -> str:
    """Render a notebook as a draft (inverse of :func:`to_notebook`)."""
    out: list[str] = []
    for cell in nb.cells:
        tag = f" cell={cell['id']}" if cell.get("id") else ""
        if cell.cell_type == "markdown":
            out.append(f"# %% [markdown]{tag}")
            out.extend(("# " + ln).rstrip() for ln in cell.source.split("\n"))
        else:
            meta, kind = nbgrader_meta(cell), role(cell)
            if kind == "solution":
                out.append(f"# %% solution id={meta['grade_id']}{tag}")
            elif kind == "test":
                out.append(f"# %% test id={meta['grade_id']} points={int(meta.get('points', 0))}{tag}")
            elif kind == "locked":
                out.append(f"# %% locked id={meta['grade_id']}{tag}")
            else:
                out.append(f"# %% code{tag}")
            out.append(cell.source)
        out.append("")
    return "\n".join(out)


def main(argv: list[str]) -> None:
    if len(argv) >= 2 and argv[0] == "to-text":
        sys.stdout.write(to_text(nbformat.read(argv[1], as_version=4)))
    elif len(argv) == 3 and argv[0] == "to-notebook":
        nb = to_notebook(Path(argv[1]).read_text(encoding="utf-8"))
        nbformat.validate(nb)
        Path(argv[2]).parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, argv[2])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
