"""Benchmark: a synthetic class graded by ``python -m grader`` and by sequential ``nbgrader autograde``.

The class (default: 30 students of day1, every notebook) is a third solved notebooks, a third
untouched ones and a third with one mutant per notebook (``tests/mutants``). Both graders get
the same files in the same run; we report the two wall times, their ratio, whether the two
gradebooks agree cell by cell (the honest students exactly; a mutant's cell may score lower where the
second key failed a wrong answer that only fits the visible example: listed as ``second_key_stricter``;
a cell nbgrader failed only for writing to stderr scores full marks: listed as ``warnings_not_failed``),
and the grader's per-notebook overhead (wall time minus the time
the notebook's cells ran). Then the same class again through a Dask ``LocalCluster``
(``--scheduler local:2``, grader/run/cluster.py): its scores cell by cell against the local pool,
its wall time and per-notebook overhead against the local pool's, and the throughput model:
hours for 32,000 notebooks on 1, 8 and 64 one-CPU workers from the measured per-notebook cost.
Prints one JSON object as its last line.

    python tools/bench_grading.py [--day day1] [--students 30] [--notebooks 00_environment,...] [--no-dask]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from grader.grades.gradebook import nbgrader_env  # noqa: E402
from tools.classroom import mixed_class, write_class  # noqa: E402
from tools.course import TempCourse  # noqa: E402


def cell_scores(db: Path, day: str) -> dict:
    from grader.grades.gradebook import class_grades

    grades = class_grades(f"sqlite:///{db}", day)
    return {s.student: {n.notebook: {c.grade_id: (c.score, c.max) for c in n.checks} for n in s.notebooks}
            for s in grades.students}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--day", default="day1")
    parser.add_argument("--students", type=int, default=30)
    parser.add_argument("--notebooks", default="", help="comma-separated subset (default: all of the day)")
    parser.add_argument("--workers", type=int, default=0)
    parser.add_argument("--dask-workers", type=int, default=2, help="worker processes of the LocalCluster")
    parser.add_argument("--no-dask", action="store_true", help="skip the Dask column")
    args = parser.parse_args()
    names = [n for n in args.notebooks.split(",") if n] or None
    os.environ.update(nbgrader_env())  # nbgrader's Gradebook runs `alembic` from PATH

    with tempfile.TemporaryDirectory(prefix="bench-grading-") as tmp:
        tmp = Path(tmp)
        course = TempCourse(tmp / "course")
        course.release(args.day)
        students = mixed_class(args.day, args.students, names)
        write_class(course.root / "submitted", args.day, students)
        notebooks = sum(len(v) for v in students.values())
        print(f"class: {args.students} students, {notebooks} notebooks of {args.day}", file=sys.stderr, flush=True)

        t0 = time.perf_counter()
        course.autograde(args.day)
        sequential_s = time.perf_counter() - t0
        print(f"sequential nbgrader autograde: {sequential_s:.1f} s", file=sys.stderr, flush=True)

        shutil.rmtree(ROOT / "grader" / ".cache", ignore_errors=True)  # count the template build too
        t0 = time.perf_counter()
        parallel_s = grade(args.day, course.root / "submitted", tmp / "out", tmp / "parallel.db",
                           "--workers", str(args.workers))
        print(f"python -m grader: {parallel_s:.1f} s", file=sys.stderr, flush=True)
        wall, cells, records = per_notebook(tmp / "out", args.day)
        ours, theirs = cell_scores(tmp / "parallel.db", args.day), cell_scores(course.root / "gradebook.db", args.day)
        say_differences(theirs, ours, "sequential nbgrader", "python -m grader")
        same, stricter, not_failed = compare_with_nbgrader(theirs, ours,
                                                           stderr_only_failures(course.root / "autograded", args.day))
        result = {
            "day": args.day, "students": args.students, "notebooks": notebooks, "cores": os.cpu_count(),
            "sequential_nbgrader_s": round(sequential_s, 1), "grader_s": round(parallel_s, 1),
            "speedup": round(sequential_s / parallel_s, 2), "identical_scores": same,
            "second_key_stricter": stricter, "warnings_not_failed": not_failed,
            "per_notebook_wall_s": round(wall, 2), "per_notebook_cells_s": round(cells, 2),
            "per_notebook_overhead_s": round(wall - cells, 2),
            "peak_kernel_mb": round(max((r.get("peak_bytes") or 0) for r in records) / 2**20),
        }
        if not args.no_dask:
            n = args.dask_workers
            dask_s = grade(args.day, course.root / "submitted", tmp / "out-dask", tmp / "dask.db",
                           "--scheduler", f"local:{n}")
            print(f"python -m grader --scheduler local:{n}: {dask_s:.1f} s", file=sys.stderr, flush=True)
            d_wall, d_cells, _ = per_notebook(tmp / "out-dask", args.day)
            say_differences(cell_scores(tmp / "parallel.db", args.day), cell_scores(tmp / "dask.db", args.day),
                            "local pool", f"local:{n}")
            per_nb = d_wall  # one notebook's cost on one one-CPU worker, sandbox and kernel start included
            result["dask"] = {
                "scheduler": f"local:{n}", "wall_s": round(dask_s, 1),
                "identical_scores_to_local_pool": cell_scores(tmp / "dask.db", args.day)
                == cell_scores(tmp / "parallel.db", args.day),
                "per_notebook_wall_s": round(d_wall, 2), "per_notebook_cells_s": round(d_cells, 2),
                "per_notebook_overhead_s": round(d_wall - d_cells, 2),
                "extra_per_notebook_vs_local_pool_s": round(d_wall - wall, 2),
                "extra_run_wall_per_notebook_s": round((dask_s - parallel_s) / max(1, notebooks), 2),
                "hours_for_32000": {str(w): round(32000 * per_nb / w / 3600, 1) for w in (1, 8, 64)},
            }
        print(json.dumps(result))


def compare_with_nbgrader(theirs: dict, ours: dict, warned: set[str] = frozenset()) -> tuple[bool, list[str], list[str]]:
    """Whether the honest students (solved, untouched) got nbgrader's scores cell by cell and no cell
    scored higher than nbgrader's, but for the two deliberate differences, each listed:

    * ``second_key_stricter``: the mutants' cells nbgrader passed that the second key failed. A wrong
      answer that only fits the visible example passes nbgrader's visible check, but not the grader's
      second key, which judges the same function on fresh inputs (grader/judge/observations.py);
    * ``warnings_not_failed``: the cells nbgrader failed only because they wrote to stderr (``warned``:
      :func:`stderr_only_failures` of nbgrader's graded copies), which the grader passes in full. A
      warning is a note on the learner's page, never a failed check (grader.compat.warnings_never_fail).
    """
    stricter, not_failed, same = [], [], set(theirs) == set(ours)
    for student in sorted(set(theirs) & set(ours)):
        for nb, cells in theirs[student].items():
            for cell, (score, top) in cells.items():
                mine = ours[student].get(nb, {}).get(cell)
                key = f"{student} {nb} {cell}"
                if mine == (score, top):
                    continue
                if "_mutant" in student and mine is not None and mine[1] == top and mine[0] < score:
                    stricter.append(key)
                elif key in warned and score == 0 and mine == (top, top):
                    not_failed.append(key)
                else:
                    same = False
    return same, stricter, not_failed


def stderr_only_failures(autograded: Path, day: str) -> set[str]:
    """``student notebook grade_id`` of each graded cell of nbgrader's graded copies (``autograded/``)
    that wrote to stderr and raised nothing: the cells nbgrader fails for stderr alone."""
    from grader.judge.cell_words import passed_with_warnings

    found = set()
    for path in sorted(autograded.glob(f"*/{day}/*.ipynb")):
        student = path.parent.parent.name
        for grade_id in passed_with_warnings(json.loads(path.read_text())):
            found.add(f"{student} {path.stem} {grade_id}")
    return found


def say_differences(a: dict, b: dict, name_a: str, name_b: str) -> None:
    """Each cell scored differently by two graders, on stderr (nothing when they agree)."""
    for student in sorted(set(a) | set(b)):
        for nb in sorted(set(a.get(student, {})) | set(b.get(student, {}))):
            cells_a, cells_b = a.get(student, {}).get(nb, {}), b.get(student, {}).get(nb, {})
            for cell in sorted(set(cells_a) | set(cells_b)):
                if cells_a.get(cell) != cells_b.get(cell):
                    print(f"differs: {student} {nb} {cell}: {name_a} {cells_a.get(cell)}, {name_b} {cells_b.get(cell)}",
                          file=sys.stderr)


def grade(day: str, submitted: Path, out: Path, db: Path, *extra: str) -> float:
    """``python -m grader grade`` on the class; its wall time."""
    t0 = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "grader", "grade", day, "--submissions", str(submitted), "--out", str(out),
         "--gradebook", f"sqlite:///{db}", "--quiet", *extra],
        cwd=ROOT, capture_output=True, text=True,
    )
    if proc.returncode != 0:
        print(proc.stdout + proc.stderr, file=sys.stderr)
        raise SystemExit(1)
    return time.perf_counter() - t0


def per_notebook(out: Path, day: str) -> tuple[float, float, list[dict]]:
    """Mean wall time and mean cell time per notebook from a run's records."""
    records = [json.loads(p.read_text()) for p in (out / "reports" / day / "results").glob("*/*.json")]
    timed = [r for r in records if r.get("cells_s") is not None]
    wall = sum(r["wall_s"] for r in timed) / max(1, len(timed))
    cells = sum(r["cells_s"] for r in timed) / max(1, len(timed))
    return wall, cells, records


if __name__ == "__main__":
    main()
