"""Points per notebook and per day, as the Markdown table the README shows."""

from __future__ import annotations

import sys

from tools.notebooks import DAYS, ROOT, exercises, read, solution_notebooks


def points_table() -> str:
    """A Markdown table: day, notebook, exercises, points; with per-day and course totals."""
    rows = ["| day | notebook | exercises | points |", "|---|---|---:|---:|"]
    total = 0.0
    for day in DAYS:
        day_total, day_ex = 0.0, 0
        for path in solution_notebooks(day):
            found = exercises(read(path))
            pts = sum(e.points for e in found)
            day_total += pts
            day_ex += len(found)
            rows.append(f"| {day} | `{path.stem}` | {len(found)} | {pts:g} |")
        if day_ex:
            rows.append(f"| **{day}** | **total** | **{day_ex}** | **{day_total:g}** |")
        total += day_total
    rows.append(f"| | **course** | | **{total:g}** |")
    return "\n".join(rows)


def write_readme() -> None:
    """Replace the table between the README's ``points:start`` / ``points:end`` markers."""
    readme = ROOT / "README.md"
    text = readme.read_text()
    start, end = "<!-- points:start -->", "<!-- points:end -->"
    head, rest = text.split(start)
    _, tail = rest.split(end)
    readme.write_text(f"{head}{start}\n{points_table()}\n{end}{tail}")


if __name__ == "__main__":
    if "--write" in sys.argv:
        write_readme()
    print(points_table())
