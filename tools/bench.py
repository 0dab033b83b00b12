"""``make bench``: run time, peak memory and autograde time of every solution notebook.

For each source notebook: a fresh kernel runs every cell, once with 2 threads and once with 1
(``PTCOURSE_THREADS``); we report the wall time of the cells (kernel start reported apart) and
the kernel's peak resident memory (VmHWM). Then each day is autograded by nbgrader in a
throw-away course, one notebook at a time, and that wall time is reported too. Results go to
the screen and to ``bench-results/bench.json``.

Budgets (from the issues): Day 1 notebooks under 20 s on one thread and 1 GB; Day 2 under 60 s
and 1.5 GB; Day 3 under 90 s and 1.5 GB. Over-budget rows are flagged, not failed: speed is
measured here, not asserted in timed tests.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tools.course import TempCourse, solved_notebooks
from tools.kernel import Kernel
from tools.notebooks import DAYS, ROOT, nb_key, read, solution_notebooks

BUDGET = {"day1": (20, 1024), "day2": (60, 1536), "day3": (90, 1536)}
OUT = ROOT / "bench-results"


def run_cells(path: Path, threads: int) -> dict:
    """Execute one notebook in a fresh kernel; wall times and peak memory."""
    env = {"PTCOURSE_THREADS": str(threads), "PTCOURSE_DEVICE": os.environ.get("PTCOURSE_DEVICE", "cpu")}
    t0 = time.perf_counter()
    with Kernel(path.parent, env=env, strict=False) as kernel:
        started = time.perf_counter()
        errors = 0
        for cell in read(path).cells:
            if cell.cell_type == "code":
                errors += not kernel.run(cell.source).ok
        done = time.perf_counter()
        peak = kernel.peak_rss_mb()
    return {"kernel_start_s": started - t0, "cells_s": done - started, "peak_rss_mb": peak, "errors": errors}


def autograde_times(day: str) -> dict[str, float]:
    """Wall time of ``nbgrader autograde`` per notebook of one day, on solved submissions."""
    times: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        course = TempCourse(Path(tmp))
        release = course.release(day)
        course.submit("bench", day, solved_notebooks(release, day))
        for path in solution_notebooks(day):
            t0 = time.perf_counter()
            course.autograde(day, "--notebook", path.stem)
            times[path.stem] = time.perf_counter() - t0
    return times


def extra_benchmarks() -> dict:
    """Stand-alone benchmark scripts in tools/ (``bench_*.py``), each printing one JSON object."""
    found = {}
    for script in sorted((ROOT / "tools").glob("bench_*.py")):
        print(f"running {script.name} ...", flush=True)
        proc = subprocess.run([sys.executable, str(script)], cwd=ROOT, capture_output=True, text=True)
        out = proc.stdout.strip()
        try:  # the whole output is one JSON object, or its last line is
            found[script.stem] = json.loads(out) if out.startswith("{") else json.loads(out.splitlines()[-1])
        except (ValueError, IndexError):
            found[script.stem] = {"error": (proc.stderr or proc.stdout)[-500:]}
    return found


def main(days: list[str]) -> None:
    rows = []
    for day in days or DAYS:
        paths = solution_notebooks(day)
        if not paths:
            continue
        grading = autograde_times(day)
        for path in paths:
            two, one = run_cells(path, 2), run_cells(path, 1)
            limit_s, limit_mb = BUDGET[day]
            peak = max(two["peak_rss_mb"] or 0, one["peak_rss_mb"] or 0)
            row = {
                "notebook": nb_key(path),
                "cells_s_2_threads": round(two["cells_s"], 2),
                "cells_s_1_thread": round(one["cells_s"], 2),
                "kernel_start_s": round(one["kernel_start_s"], 2),
                "peak_rss_mb": round(peak),
                "autograde_s": round(grading[path.stem], 2),
                "errors": two["errors"] + one["errors"],
                "within_budget": one["cells_s"] <= limit_s and peak <= limit_mb,
            }
            rows.append(row)
            print(f"{row['notebook']:32} 2 thr {row['cells_s_2_threads']:6.1f} s | 1 thr {row['cells_s_1_thread']:6.1f} s"
                  f" | peak {row['peak_rss_mb']:5d} MB | autograde {row['autograde_s']:5.1f} s"
                  f"{'' if row['within_budget'] else '  OVER BUDGET'}{'  ERRORS' if row['errors'] else ''}",
                  flush=True)
    extra = extra_benchmarks() if not days else {}
    for name, result in extra.items():
        print(f"{name}: {json.dumps(result)}")
    OUT.mkdir(exist_ok=True)
    (OUT / "bench.json").write_text(json.dumps({"notebooks": rows, "extra": extra}, indent=2))
    print(f"written {OUT / 'bench.json'}")


if __name__ == "__main__":
    main(sys.argv[1:])  # e.g. `python -m tools.bench day1`
