"""The autograder zip for Gradescope (``make gradescope DAY=day1``).

Gradescope's contract: ``setup.sh`` and ``run_autograder`` at the zip's root (not in a folder);
the zip is unpacked in ``/autograder/source``. Beside them go what grading needs and nothing
else: the grader, the course package (its messages and check helpers), the day's source
notebooks (they hold the hidden tests, and Gradescope grades in the container: the zip is the
instructor's, never the learners'), the data the notebooks read, and the pinned requirements
without the tools only authors need.
"""

from __future__ import annotations

import stat
import zipfile
from pathlib import Path

import jinja2

from grader.grades.gradebook import COURSE_ROOT

TEMPLATES = Path(__file__).resolve().parents[1] / "templates" / "gradescope"
# What grading does not need from the learner's and the grader's pins (requirements.txt,
# requirements-grader.txt): the Lab's menus, the class-wide tools.
AUTHOR_ONLY = ("pytest", "pytest-xdist", "ruff", "playwright", "jupyterlab-language-pack-zh-CN", "copydetect",
               "dask", "distributed")  # dask: grading on a cluster, not in one container
COURSE_FILES = ("pyproject.toml", "nbgrader_config.py", "LICENSE")
COURSE_FOLDERS = ("grader", "src", "data")
SKIP = {"__pycache__", ".cache", ".ipynb_checkpoints", "ptcourse.egg-info"}
EXECUTABLE = 0o755


def requirements(text: str) -> str:
    """The pins of ``text`` (requirements files, one after the other) that grading needs."""
    skip = {n.lower() for n in AUTHOR_ONLY}
    pins = [line.strip() for line in text.splitlines() if line.strip() and not line.strip().startswith(("#", "-r"))]
    keep = [p for p in pins if p.split("==")[0].split(">=")[0].strip().lower() not in skip]
    return ("# The course's pins (requirements.txt, requirements-grader.txt) that grading needs; setup.sh installs them.\n"
            + "\n".join(keep) + "\n")


def render(name: str, **values: str) -> str:
    """A script of ``templates/gradescope`` (shell, so no HTML escaping)."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=False,
                             keep_trailing_newline=True, undefined=jinja2.StrictUndefined)
    return env.get_template(name).render(**values)


def course_files(day: str, root: Path = COURSE_ROOT) -> list[Path]:
    """The course's files the zip carries, relative to ``root``."""
    out = [Path(f) for f in COURSE_FILES if (root / f).is_file()]
    for folder in COURSE_FOLDERS:
        for path in sorted((root / folder).rglob("*")):
            rel = path.relative_to(root)
            if path.is_file() and not path.is_symlink() and not SKIP & set(rel.parts) \
                    and path.suffix not in (".db", ".pyc"):
                out.append(rel)
    out += [p.relative_to(root) for p in sorted((root / "solutions" / day).glob("*.ipynb"))]
    return out


def _add(zf: zipfile.ZipFile, name: str, data: bytes, mode: int = 0o644) -> None:
    info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))  # the same zip from the same files
    info.external_attr = (stat.S_IFREG | mode) << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    zf.writestr(info, data)


def build(day: str, out: Path, root: Path = COURSE_ROOT, extra_args: str = "") -> Path:
    """Write ``<out>/<day>-autograder.zip`` and return its path."""
    if not (root / "solutions" / day).is_dir():
        raise SystemExit(f"error: no such day {day!r} (expected one of the folders in solutions/)")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{day}-autograder.zip"
    with zipfile.ZipFile(path, "w") as zf:
        _add(zf, "setup.sh", render("setup.sh", day=day).encode(), EXECUTABLE)
        _add(zf, "run_autograder", render("run_autograder", day=day, extra_args=extra_args).encode(), EXECUTABLE)
        pins = "\n".join((root / name).read_text() for name in ("requirements.txt", "requirements-grader.txt"))
        _add(zf, "requirements.txt", requirements(pins).encode())
        for rel in course_files(day, root):
            _add(zf, rel.as_posix(), (root / rel).read_bytes())
    return path
