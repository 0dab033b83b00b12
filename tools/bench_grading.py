"""Benchmark: a synthetic class graded by ``python -m grader`` and by sequential ``nbgrader autograde``.

The class (default: 30 students of day1, every notebook) is a third solved notebooks, a third
untouched ones and a third with one mutant per notebook (``tests/mutants``). Both graders get
the same files in the same run; we report the two wall times, their ratio, whether the two
gradebooks agree cell by cell, and the grader's per-notebook overhead (wall time minus the time
the notebook's cells ran). Prints one JSON object as its last line.

    python tools/bench_grading.py [--day day1] [--students 30] [--notebooks 00_environment,...]
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

from grader.gradebook import nbgrader_env  # noqa: E402
from tests.harness.classroom import mixed_class, write_class  # noqa: E402
from tests.harness.course import TempCourse  # noqa: E402


def cell_scores(db: Path, day: str) -> dict:
    from grader.gradebook import cell_scores as read

    return read(f"sqlite:///{db}", day)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--day", default="day1")
    parser.add_argument("--students", type=int, default=30)
    parser.add_argument("--notebooks", default="", help="comma-separated subset (default: all of the day)")
    parser.add_argument("--workers", type=int, default=0)
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
        proc = subprocess.run(
            [sys.executable, "-m", "grader", "grade", args.day, "--submissions", str(course.root / "submitted"),
             "--out", str(tmp / "out"), "--gradebook", f"sqlite:///{tmp / 'parallel.db'}", "--quiet",
             "--workers", str(args.workers)],
            cwd=ROOT, capture_output=True, text=True,
        )
        parallel_s = time.perf_counter() - t0
        if proc.returncode != 0:
            print(proc.stdout + proc.stderr, file=sys.stderr)
            raise SystemExit(1)
        print(f"python -m grader: {parallel_s:.1f} s", file=sys.stderr, flush=True)

        records = [json.loads(p.read_text()) for p in (tmp / "out" / "reports" / args.day / "results").glob("*/*.json")]
        timed = [r for r in records if r.get("cells_s") is not None]
        wall = sum(r["wall_s"] for r in timed) / max(1, len(timed))
        cells = sum(r["cells_s"] for r in timed) / max(1, len(timed))
        same = cell_scores(tmp / "parallel.db", args.day) == cell_scores(course.root / "gradebook.db", args.day)
        result = {
            "day": args.day, "students": args.students, "notebooks": notebooks, "cores": os.cpu_count(),
            "sequential_nbgrader_s": round(sequential_s, 1), "grader_s": round(parallel_s, 1),
            "speedup": round(sequential_s / parallel_s, 2), "identical_scores": same,
            "per_notebook_wall_s": round(wall, 2), "per_notebook_cells_s": round(cells, 2),
            "per_notebook_overhead_s": round(wall - cells, 2),
            "peak_kernel_mb": round(max((r.get("peak_bytes") or 0) for r in records) / 2**20),
        }
        print(json.dumps(result))


if __name__ == "__main__":
    main()
