"""``make nb NB=day1/01_tensors``: the maintainer's loop for one notebook, in a few minutes.

Steps, each timed, every one run even if an earlier one fails:

1. **fresh copy**: the student copy matches its source (tools/stale.py: a forgotten
   ``make release``);
2. **tests**: that notebook's execution, mutant and structure tests
   (``pytest tests/test_notebooks.py tests/test_structure.py -k day1/01_tensors``);
3. **release**: a fresh ``nbgrader generate_assignment`` of that notebook, in a throw-away
   course, equals the committed student copy (the round trip's first half);
4. **grader check, solved**: the student copy with the model answers filled in, graded with the
   hidden tests by the class grader (``python -m grader check``): full marks;
5. **grader check, untouched**: the committed student copy: zero.

Exit status 0 only if every step passed. ``make test`` remains what CI runs.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat

from tools import stale
from tools.course import TempCourse, solved_copy
from tools.notebooks import ROOT, SOLUTIONS, read, student_copy

SCORE = re.compile(r"^(?P<nb>day\d/\S+): (?P<score>[\d.]+) / (?P<max>[\d.]+) points$", re.M)


def source_of(name: str) -> Path:
    """``day1/01_tensors``, ``day1/01_tensors.ipynb`` or ``solutions/day1/01_tensors.ipynb``."""
    key = name.removeprefix("solutions/").removesuffix(".ipynb").strip("/")
    path = SOLUTIONS / f"{key}.ipynb"
    if not re.fullmatch(r"day\d/[\w.-]+", key) or not path.exists():
        known = ", ".join(f"{p.parent.name}/{p.stem}" for p in sorted(SOLUTIONS.glob("day*/*.ipynb")))
        raise SystemExit(f"no source notebook for {name!r}; one of: {known}")
    return path


def step_fresh(path: Path) -> tuple[bool, str]:
    why = stale.differences(path)
    return (not why, "the student copy matches its source" if not why
            else "stale, run 'make release': " + "; ".join(why[:3]))


def step_tests(path: Path) -> tuple[bool, str]:
    key = f"{path.parent.name}/{path.stem}"
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "tests/test_notebooks.py", "tests/test_structure.py",
         "-k", key], cwd=ROOT, text=True, capture_output=True,
    )
    sys.stdout.write(proc.stdout[-6000:])
    sys.stdout.write(proc.stderr[-2000:])
    last = (proc.stdout.strip().splitlines() or ["no output"])[-1]
    return proc.returncode == 0, last.strip("= ")


def step_release(path: Path) -> tuple[bool, str]:
    day, stem = path.parent.name, path.stem
    with tempfile.TemporaryDirectory(prefix="ptnb-") as tmp:
        course = TempCourse(Path(tmp))
        course.add_source(day)
        course.nbgrader("generate_assignment", day, "--force", "--notebook", stem)
        fresh = json.loads((Path(tmp) / day / path.name).read_text())
    committed = json.loads(student_copy(path).read_text())
    if fresh == committed:
        return True, "a fresh generate_assignment equals the committed student copy"
    return False, f"run 'make release': {day}/{path.name} differs from a fresh generate_assignment"


def grader_check(notebook: Path) -> tuple[float, float] | None:
    proc = subprocess.run([sys.executable, "-m", "grader", "check", str(notebook)],
                          cwd=ROOT, text=True, capture_output=True)
    sys.stdout.write(proc.stdout[-4000:])
    if proc.returncode != 0:
        sys.stdout.write(proc.stderr[-2000:])
    found = SCORE.search(proc.stdout)
    return (float(found["score"]), float(found["max"])) if found else None


def step_solved(path: Path) -> tuple[bool, str]:
    with tempfile.TemporaryDirectory(prefix="ptnb-") as tmp:
        target = Path(tmp) / path.parent.name / path.name
        target.parent.mkdir()
        nbformat.write(solved_copy(read(student_copy(path)), read(path)), str(target))
        got = grader_check(target)
    if got is None:
        return False, "grader check printed no score"
    return got[0] == got[1] > 0, f"{got[0]:g} / {got[1]:g} points (want full marks)"


def step_untouched(path: Path) -> tuple[bool, str]:
    got = grader_check(student_copy(path))
    if got is None:
        return False, "grader check printed no score"
    return got[0] == 0 < got[1], f"{got[0]:g} / {got[1]:g} points (want zero)"


STEPS = (
    ("fresh copy", step_fresh),
    ("tests (execution, mutants, structure)", step_tests),
    ("release (round trip)", step_release),
    ("grader check, solved copy", step_solved),
    ("grader check, student copy", step_untouched),
)


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m tools.nbloop day1/01_tensors", file=sys.stderr)
        return 2
    path = source_of(argv[0])
    results = []
    for name, step in STEPS:
        print(f"\n── {name} " + "─" * max(0, 60 - len(name)), flush=True)
        t0 = time.perf_counter()
        try:
            ok, detail = step(path)
        except Exception as error:  # a broken step is a failed step; the others still run
            ok, detail = False, f"{type(error).__name__}: {str(error)[:500]}"
        results.append((name, ok, detail, time.perf_counter() - t0))
    print(f"\n{path.parent.name}/{path.stem}:")
    for name, ok, detail, seconds in results:
        print(f"  {'✔' if ok else '✘'} {name} ({seconds:.0f} s): {detail}")
    return 0 if all(ok for _, ok, _, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
