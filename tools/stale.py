"""A forgotten ``make release``, caught in a second without running nbgrader.

The student copy ``dayN/NN_topic.ipynb`` should be its source ``solutions/dayN/NN_topic.ipynb``
with what ``nbgrader generate_assignment`` removes removed: each ``### BEGIN SOLUTION`` /
``### END SOLUTION`` region replaced by the code stub (``grader/nbgrader_config.py``), each
``### BEGIN HIDDEN TESTS`` / ``### END HIDDEN TESTS`` region dropped, outputs cleared. This module
compares the two cell by cell: same cells, same kinds, same nbgrader roles and points, and the
same text once those regions are replaced. It does not compute nbgrader's checksums: the slow
round trip (tests/test_roundtrip.py) still compares with a real ``generate_assignment``.
``python -m tools.stale`` lists the stale student copies.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ptcourse.nbmodel import CODE_STUB, student_source  # noqa: F401 - CODE_STUB is checked by the tests
from tools.notebooks import ROOT, nb_key, nbgrader_meta, read, solution_notebooks, student_copy

ROLE_KEYS = ("grade_id", "solution", "grade", "locked", "task", "points")


def differences(source_path: Path) -> list[str]:
    """Why the committed student copy of ``source_path`` is not what ``make release`` would make."""
    copy = student_copy(source_path)
    if not copy.exists():
        return [f"{copy.relative_to(ROOT)} is missing"]
    return compare(read(source_path), read(copy))


def compare(src, out) -> list[str]:
    """Cell-by-cell differences between a source notebook and a student copy of it."""
    if len(src.cells) != len(out.cells):
        return [f"{len(src.cells)} cells in the source, {len(out.cells)} in the student copy"]
    found = []
    for i, (a, b) in enumerate(zip(src.cells, out.cells, strict=True)):
        if a.cell_type != b.cell_type:
            found.append(f"cell {i}: {a.cell_type} in the source, {b.cell_type} in the student copy")
            continue
        roles_a = {k: nbgrader_meta(a).get(k) for k in ROLE_KEYS}
        roles_b = {k: nbgrader_meta(b).get(k) for k in ROLE_KEYS}
        if roles_a != roles_b:
            found.append(f"cell {i}: nbgrader roles differ ({roles_a} vs {roles_b})")
        elif student_source(a) != b.source:
            found.append(f"cell {i} ({nbgrader_meta(a).get('grade_id') or a.cell_type}): text differs")
    return found


def stale() -> dict[str, list[str]]:
    """``{notebook: differences}`` for every student copy that is out of date."""
    return {nb_key(p): d for p in solution_notebooks() if (d := differences(p))}


if __name__ == "__main__":
    found = stale()
    for key, why in found.items():
        print(f"{key}: " + "; ".join(why[:5]) + (f" (+{len(why) - 5} more)" if len(why) > 5 else ""))
    print("run 'make release'" if found else "every student copy matches its source")
    sys.exit(1 if found else 0)
