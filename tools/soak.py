"""Soak: grade classes of mixed quality again and again under CPU pressure; no grade may be lost.

``make soak`` (``python -m tools.soak``) grades a few hundred notebooks; the stress test
(``tests/test_soak.py``, marker ``soak``) grades a small class 20 times in a row. Each run starts
``concurrent`` grading processes side by side (as ``make test``'s two test processes do), each
with ``--workers`` jobs at once, while ``hogs`` busy loops keep the CPUs saturated. After every run:

* **no lost grade:** every notebook ``graded``, no check stopped by the grader (time, memory, a
  dead kernel), no guard finding on honest work, and every student's scores, check by check,
  the same in every run and process (the first run is the reference);
* **nothing left behind:** no process carrying the soak's tag (nbgrader jobs, kernels, zygotes
  inherit it: ``PTCOURSE_SOAK_TAG`` passes the kernels' environment allow-list), no folder in the
  soak's private ``TMPDIR``, no job cgroup of a grading process;
* **flat driver memory:** each grading process's resident memory, sampled twice a second, grows
  by less than ``--memory-slack`` MB from the first third of its run to the last.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from tools import accidents
from tools.classroom import mutated, solved, untouched, write_class
from tools.notebooks import ROOT

TAG = "PTCOURSE_SOAK_TAG"
MEMORY_CLASS = 50  # notebooks per grading process from which its memory must stay flat
HONEST = "honest"  # kinds of students: "honest" (solved, with an accident or not), "untouched", "mutant"


@dataclass(frozen=True)
class SoakConfig:
    runs: int = 1
    students: int = 300
    day: str = "day1"
    notebook: str = "00_environment"
    workers: int = 2
    concurrent: int = 1
    hogs: int = 2
    memory_slack_mb: float = 60.0


@dataclass
class Driver:
    """One grading process of a run, and what was seen of it."""

    out: Path
    proc: subprocess.Popen
    rss: list[int] = field(default_factory=list)  # resident memory, sampled twice a second
    output: str = ""


@dataclass
class RunReport:
    run: int
    seconds: float
    notebooks: int
    problems: list[str]


def mixed_class(cfg: SoakConfig) -> tuple[dict[str, dict], dict[str, str]]:
    """``{student: {notebook: nb or file bytes}}`` and each student's kind: solved notebooks with and
    without each honest accident, untouched ones and mutants."""
    clean = solved(cfg.day, cfg.notebook)
    names = sorted(accidents.ACCIDENTS) + sorted(accidents.FILE_ACCIDENTS) + ["clean", "untouched", "mutant"]
    students, kinds = {}, {}
    for i in range(cfg.students):
        what = names[i % len(names)]
        student = f"s{i:04d}_{what}"
        if what in accidents.ACCIDENTS:
            nb = accidents.ACCIDENTS[what](clean)
        elif what in accidents.FILE_ACCIDENTS:
            nb = accidents.as_file(clean, what)
        elif what == "untouched":
            nb = untouched(cfg.day, cfg.notebook)
        elif what == "mutant":
            nb = mutated(cfg.day, cfg.notebook, i)[0]
        else:
            nb = clean
        students[student] = {cfg.notebook: nb}
        kinds[student] = what if what in ("untouched", "mutant") else HONEST
    return students, kinds


def write(folder: Path, day: str, students: dict[str, dict]) -> None:
    notebooks = {s: nbs for s, nbs in students.items() if not isinstance(next(iter(nbs.values())), bytes)}
    write_class(folder, day, notebooks)
    for student, nbs in students.items():
        for name, data in nbs.items():
            if isinstance(data, bytes):
                (folder / student / day).mkdir(parents=True, exist_ok=True)
                (folder / student / day / f"{name}.ipynb").write_bytes(data)


def _sample(drivers: list[Driver], stop: threading.Event) -> None:
    import psutil

    while not stop.is_set():
        for d in drivers:
            try:
                d.rss.append(psutil.Process(d.proc.pid).memory_info().rss)
            except psutil.Error:
                pass
        stop.wait(0.5)


def grade_run(cfg: SoakConfig, root: Path, run: int, env: dict[str, str]) -> list[Driver]:
    """``cfg.concurrent`` grading processes over the class, side by side; returns them finished."""
    drivers = []
    for k in range(cfg.concurrent):
        out = root / f"out-{run}-{k}"
        cmd = [sys.executable, "-m", "grader", "grade", cfg.day, "--submissions", str(root / "class"),
               "--out", str(out), "--gradebook", f"sqlite:///{root}/gb-{run}-{k}.db", "--workers", str(cfg.workers),
               "--quiet"]
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        drivers.append(Driver(out, proc))
    stop = threading.Event()
    sampler = threading.Thread(target=_sample, args=(drivers, stop), daemon=True)
    sampler.start()
    try:
        for d in drivers:
            d.output = d.proc.communicate()[0]
    except BaseException:  # interrupted: no grading process outlives the soak
        for d in drivers:
            d.proc.kill()
            d.proc.wait()
        raise
    finally:
        stop.set()
        sampler.join()
    return drivers


def _records(out: Path, day: str) -> dict[str, dict]:
    return {p.parent.name: json.loads(p.read_text()) for p in (out / "reports" / day / "results").glob("*/*.json")}


def lost_grades(records: dict[str, dict], kinds: dict[str, str], reference: dict[str, dict]) -> list[str]:
    """Plain-words problems: a notebook not graded, a check stopped, honest work flagged or scoring
    other than full marks, or scores other than the reference run's."""
    problems = []
    for student in sorted(set(kinds) - set(records)):
        problems.append(f"{student}: no record")
    for student, rec in sorted(records.items()):
        cells = {g: c["score"] for g, c in rec["cells"].items()}
        stopped = [g for g, c in rec["cells"].items() if c.get("kind") == "stopped"]
        if rec["status"] != "graded":
            problems.append(f"{student}: {rec['status']}: {rec.get('instructor_detail', '')[-1500:]}")
        elif stopped:
            problems.append(f"{student}: checks stopped by the grader: {stopped} "
                            f"{[rec['cells'][g]['message'] for g in stopped]}")
        elif kinds.get(student) == HONEST and (rec["score"] != rec["max_score"] or rec["findings"]):
            problems.append(f"{student}: honest work scored {rec['score']}/{rec['max_score']}, "
                            f"findings {rec['findings']}")
        elif student in reference and cells != reference[student]:
            problems.append(f"{student}: scores {cells} differ from the first run's {reference[student]}")
    return problems


def leftovers(tag: str, tmp: Path, drivers: list[Driver]) -> list[str]:
    """Processes carrying the soak's tag, folders in its TMPDIR, job cgroups of its drivers."""
    import psutil

    from grader.jail import sandbox

    found = []
    deadline = time.monotonic() + 10  # a killed kernel may take a moment to go
    while True:
        procs = []
        for p in psutil.process_iter(["pid", "name"]):
            try:
                if p.pid != os.getpid() and p.environ().get(TAG) == tag:
                    procs.append(f"{p.pid} {p.info['name']}")
            except psutil.Error:
                continue
        if not procs or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    found += [f"process left: {p}" for p in procs]
    found += [f"folder left: {p}" for p in tmp.iterdir()]
    iso = sandbox.probe(use_bwrap=False, use_cgroup=True)
    for base in filter(None, (iso.cgroup_base, iso.pids_base)):
        for d in drivers:
            found += [f"cgroup left: {g}" for g in base.glob(f"ptgrade-{d.proc.pid}-*")]
    return found


def memory_growth(d: Driver) -> float:
    """MB the driver's resident memory grew while it graded: from the first third of its steady part
    (from a quarter of its run, once its imports and templates are done, to nine tenths, before the
    class report) to the last third of it."""
    steady = d.rss[len(d.rss) // 4: len(d.rss) * 9 // 10]
    if len(steady) < 6:
        return 0.0
    third = len(steady) // 3
    return (max(steady[-third:]) - max(steady[:third])) / 1024**2


def check_run(cfg: SoakConfig, run: int, drivers: list[Driver], kinds: dict[str, str], reference: dict,
              tag: str, tmp: Path) -> list[str]:
    problems = []
    for k, d in enumerate(drivers):
        if d.proc.returncode != 0:
            problems.append(f"grading process {k} exited with {d.proc.returncode}: {d.output[-1500:]}")
        records = _records(d.out, cfg.day)
        if not reference:
            reference.update({s: {g: c["score"] for g, c in r["cells"].items()} for s, r in records.items()})
        problems += [f"process {k}: {p}" for p in lost_grades(records, kinds, reference)]
        growth = memory_growth(d)
        if cfg.students >= MEMORY_CLASS and growth > cfg.memory_slack_mb:  # a small class has no steady part
            problems.append(f"process {k}: driver memory grew {growth:.0f} MB over the run")
    return problems + leftovers(tag, tmp, drivers)


def soak(cfg: SoakConfig, log=print) -> list[RunReport]:
    """Run the soak; returns a report per run (its problems empty when nothing was lost)."""
    root = Path(tempfile.mkdtemp(prefix="ptsoak-"))
    tmp = root / "tmp"
    tmp.mkdir()
    tag = uuid.uuid4().hex
    env = {**os.environ, TAG: tag, "TMPDIR": str(tmp)}
    students, kinds = mixed_class(cfg)
    write(root / "class", cfg.day, students)
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(cfg.hogs)]
    reports, reference = [], {}
    try:
        for run in range(cfg.runs):
            started = time.monotonic()
            drivers = grade_run(cfg, root, run, env)
            problems = check_run(cfg, run, drivers, kinds, reference, tag, tmp)
            reports.append(RunReport(run, time.monotonic() - started, len(students) * cfg.concurrent, problems))
            log(f"run {run + 1}/{cfg.runs}: {len(students) * cfg.concurrent} notebooks in "
                f"{reports[-1].seconds:.0f} s, peak driver memory "
                f"{max((max(d.rss, default=0) for d in drivers), default=0) / 1024**2:.0f} MB, "
                f"{len(problems)} problem(s)")
            for problem in problems:
                log("   " + problem)
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
        shutil.rmtree(root, ignore_errors=True)
    return reports


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    defaults = SoakConfig()
    for name, value in vars(defaults).items():
        parser.add_argument("--" + name.replace("_", "-"), type=type(value), default=value)
    cfg = SoakConfig(**vars(parser.parse_args(argv)))
    reports = soak(cfg)
    bad = [r for r in reports if r.problems]
    print(f"soak: {len(reports)} run(s), {sum(r.notebooks for r in reports)} notebooks graded, "
          f"{len(bad)} run(s) with problems")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
