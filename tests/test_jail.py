"""The jail shows only what grading needs: an allow-list, not a deny-list (grader/jail/sandbox.py).

A kernel sees, read-only, the system (``sandbox.SYSTEM_DIRS``, part of ``/etc``), Python and its
environment wherever they live, the course package's own folder and the bundled data; writable, its
own folders and an empty ``/tmp``. Nothing else: no home folder, no other checkout of the course
(a second clone, a copy under the home folder, an instructor's working copy), no ``/srv`` or ``/opt``.

The red team (tests/harness/redteam.py ``OTHER_COPIES``) plants such copies of the solutions, shows
that each cheat reads them outside the jail, then grades it: in the jail it finds nothing and earns 0.
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from grader.grades import gradebook
from grader.jail import sandbox
from grader.run import engine, jobs
from tests.harness import redteam
from tools.classroom import untouched, write_class
from tools.notebooks import ROOT, SOLUTIONS

ISO = sandbox.probe()
needs_bwrap = pytest.mark.skipif(not ISO.bwrap, reason="bubblewrap is not installed (apt-get install bubblewrap)")
DAY, NB = "day1", "00_environment"


def _jail(tmp_path: Path) -> sandbox.KernelJail:
    """The jail a grading job gives its kernel (grader/run/jobs.py), around two folders of ``tmp_path``."""
    cwd, runtime = tmp_path / "cwd", tmp_path / "rt"
    cwd.mkdir(exist_ok=True)
    runtime.mkdir(exist_ok=True)
    hidden = jobs._hidden_paths([*jobs._hide_of(tmp_path / "work", ()), Path("/tmp"), Path.home()])
    return sandbox.KernelJail(cwd=str(cwd), runtime=str(runtime), hide=hidden, read_only=jobs._put_back(),
                              bwrap=ISO.bwrap, env={"HOME": str(cwd), "PATH": os.environ.get("PATH", "/usr/bin")})


def _sources(cmd: list[str]) -> list[tuple[str, str]]:
    """(option, source) for every folder or file a bubblewrap command shows from the machine."""
    return [(cmd[i], cmd[i + 1]) for i in range(len(cmd) - 1) if cmd[i] in ("--ro-bind", "--bind", "--dev-bind")]


def _inside(path: str, folders) -> bool:
    return any(path == f or path.startswith(f.rstrip("/") + "/") for f in folders)


def test_the_jail_is_an_allow_list(tmp_path):
    """No ``--ro-bind / /``: each folder shown is the system's, Python's, the course package's, its data
    or the job's own, and none is a home folder, the checkout itself, /srv or /opt (unless Python is there)."""
    jail = _jail(tmp_path)
    jail.bwrap = "/usr/bin/bwrap"
    cmd = jail.wrap(["python"])
    shown = _sources(cmd)
    assert ("--ro-bind", "/") not in shown and ["/", "/"] not in [cmd[i:i + 2] for i in range(len(cmd))]
    import ptcourse

    env = sandbox.environment_dirs()
    allowed = [*sandbox.SYSTEM_DIRS, *(f"/etc/{e}" for e in sandbox.ETC_ENTRIES), *env,
               str(Path(ptcourse.__file__).resolve().parent), str(gradebook.COURSE_ROOT / "data"), jail.cwd,
               jail.runtime, *[str(p) for p in jobs._editable_sources("ptcourse")]]
    for option, source in shown:
        assert _inside(source, allowed), f"{option} {source}: not on the allow-list"
        assert option == "--bind" or source not in (jail.cwd, jail.runtime)
    writable = [s for o, s in shown if o == "--bind"]
    assert sorted(writable) == sorted([jail.cwd, jail.runtime])
    home = pwd.getpwuid(os.getuid()).pw_dir
    for never in (str(ROOT), str(SOLUTIONS), home, "/srv", "/opt", "/home", "/var", "/run", str(ROOT.parent)):
        assert not any(s == never for _, s in shown), never
    assert not any(_inside(str(SOLUTIONS), [s]) for _, s in shown), "the solutions are shown"
    remounted = [cmd[i + 1] for i, a in enumerate(cmd) if a == "--remount-ro"]
    assert remounted[0] == "/" and set(remounted[1:]) == {h for h in jail.hide if not h.startswith("/tmp")}


def test_python_is_shown_wherever_it_lives():
    """The installation and the environment, real paths (a venv's python links to /root/.pyenv here)."""
    import site
    import sysconfig

    env = sandbox.environment_dirs()
    for path in (sys.prefix, sys.base_prefix, os.path.realpath(sys.executable), sysconfig.get_paths()["stdlib"],
                 sysconfig.get_paths()["include"], *site.getsitepackages()):
        if os.path.exists(path):
            assert _inside(os.path.realpath(path), env), path
    assert "/" not in env and pwd.getpwuid(os.getuid()).pw_dir not in env
    assert sandbox.outermost(["/usr/lib", "/usr", "/", "/no/such/folder", "/usr/lib/x86_64-linux-gnu"]) == ["/usr"]


READER = r"""
import os, pwd, subprocess, sys, sysconfig
found = []
for path in sys.argv[1:]:
    try:
        with open(path) as f:
            found.append(path if f.read(1) else "")
    except OSError:
        pass
print("READ:", "|".join(p for p in found if p) or "none")
import torch, ptcourse, ptcourse.data
print("TORCH:", torch.__version__)
print("DATA:", (ptcourse.data.data_dir() / "MNIST").is_dir())
with open("/tmp/x.c", "w") as f:
    f.write('#include <Python.h>\n#include <stdio.h>\nint main(void) { puts("built"); return 0; }\n')
built = subprocess.run(["cc", "/tmp/x.c", "-I", sysconfig.get_paths()["include"], "-o", "/tmp/x"],
                       capture_output=True, text=True)
print("CC:", built.returncode == 0 and subprocess.run(["/tmp/x"], capture_output=True, text=True).stdout.strip(),
      built.stderr[-300:].replace("\n", " "))
print("HOME:", sorted(os.listdir(pwd.getpwuid(os.getuid()).pw_dir)) if os.path.isdir(pwd.getpwuid(os.getuid()).pw_dir) else "absent")
print("ROOT:", sorted(os.listdir("/")))
writable = []  # tried inside the jail only (PTCOURSE_JAILED): outside, these are the machine's own folders
for folder in () if not os.environ.get("PTCOURSE_JAILED") else ("/", "/etc", "/usr", os.path.dirname(os.path.dirname(ptcourse.__file__)), os.path.dirname(ptcourse.__file__),
               pwd.getpwuid(os.getuid()).pw_dir, "/tmp", "."):
    try:
        with open(os.path.join(folder, "ptg-written"), "w"):
            writable.append(folder)
    except OSError:
        pass
print("WRITABLE:", "|".join(writable))
"""


@pytest.fixture
def copies():
    """Copies of a solution notebook where another checkout of the course could be: under /tmp, the home
    folder, /srv, /opt and beside the checkout graded (an instructor's working copy); removed afterwards."""
    tag = uuid.uuid4().hex[:8]
    home = pwd.getpwuid(os.getuid()).pw_dir
    tops = [Path("/tmp") / f"ptg-clone-{tag}", Path(home) / f"ptg-copy-{tag}", Path("/srv") / f"ptg-course-{tag}",
            Path("/opt") / f"ptg-course-{tag}", ROOT.parent / f"ptg-instructor-{tag}"]
    made = []
    for top in tops:
        target = top / "solutions" / DAY / f"{NB}.ipynb"
        try:
            target.parent.mkdir(parents=True)
            shutil.copyfile(SOLUTIONS / DAY / f"{NB}.ipynb", target)
            made.append(top)
        except OSError:  # not writable for this user: that place is not tried
            shutil.rmtree(top, ignore_errors=True)
    yield {top: top / "solutions" / DAY / f"{NB}.ipynb" for top in made}
    for top in made:
        shutil.rmtree(top, ignore_errors=True)


@needs_bwrap
def test_other_copies_cannot_be_read_and_grading_still_works(tmp_path, copies):
    """Outside the jail every copy reads; inside, none does (nor does the checkout's own solutions folder),
    while torch, the course package, its data and the C compiler torch.compile needs all work."""
    assert len(copies) >= 2, "no place to plant a copy"
    targets = [str(p) for p in copies.values()] + [str(SOLUTIONS / DAY / f"{NB}.ipynb")]
    (tmp_path / "reader.py").write_text(READER)
    outside = subprocess.run([sys.executable, str(tmp_path / "reader.py"), *targets], capture_output=True,
                             text=True, timeout=300, cwd=tmp_path)
    assert sorted(_line(outside.stdout, "READ").split("|")) == sorted(targets), outside.stdout + outside.stderr
    jail = _jail(tmp_path)
    shutil.copyfile(tmp_path / "reader.py", Path(jail.cwd) / "reader.py")
    jail.env["PTCOURSE_JAILED"] = "1"
    inside = subprocess.run(jail.wrap([sys.executable, "reader.py", *targets]), capture_output=True, text=True,
                            timeout=300, env=sandbox.kernel_env(dict(os.environ), jail.env))
    out = inside.stdout + inside.stderr
    assert _line(inside.stdout, "READ") == "none", out
    assert _line(inside.stdout, "TORCH") and _line(inside.stdout, "DATA") == "True", out
    assert _line(inside.stdout, "CC").startswith("built"), out
    assert not any(top.name in _line(inside.stdout, "HOME") for top in copies), out
    # Not the root, the system, hidden folders. A folder under /tmp is the jail's own empty /tmp (a checkout
    # cloned under /tmp has its src/ made there, private to the kernel, to hold the read-only package).
    writable = dict.fromkeys("/tmp" if w.startswith("/tmp/") else w for w in _line(inside.stdout, "WRITABLE").split("|"))
    assert list(writable) == ["/tmp", "."], out
    for absent in ("srv", "opt", "home", "var", "run", "mnt", "media"):
        assert absent not in _line(inside.stdout, "ROOT").split("'"), out


def _line(text: str, key: str) -> str:
    return next((x.split(":", 1)[1].strip() for x in text.splitlines() if x.startswith(key + ":")), "")


@pytest.mark.slow
@needs_bwrap
def test_reading_other_copies_earns_nothing(tmp_path, copies):
    """Each ``OTHER_COPIES`` cheat, run as a plain program outside the jail, finds a planted copy (so
    it is a real cheat); graded, it reads nothing and every check of its stub answers scores 0."""
    assert len(copies) >= 2
    for technique, code in redteam.OTHER_COPIES.items():
        if not any(_reaches(technique, top) for top in copies):
            continue  # nothing planted where it looks (/srv and /opt not writable here)
        script = tmp_path / f"{technique}.py"
        script.write_text(code)
        ran = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300,
                             cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
        assert int(_line(ran.stdout, "COPIES") or 0) >= 1, (technique, ran.stdout, ran.stderr)
    students = {f"copy_{t}": {NB: redteam.reading_copies(untouched(DAY, NB), t)} for t in redteam.OTHER_COPIES}
    write_class(tmp_path / "submitted", DAY, students)
    opts = engine.Options(day=DAY, submissions=tmp_path / "submitted", out=tmp_path / "out",
                          db_url=f"sqlite:///{tmp_path / 'gb.db'}", workers=2, progress=False,
                          limits=jobs.Limits(cell_timeout=60, notebook_timeout=300, threads=1))
    summary = engine.grade_class(opts)
    for rec in summary.records:
        assert rec.status == "graded", (rec.student, rec.detail)
        assert rec.score == 0, (rec.student, rec.cells)
        assert _printed(tmp_path / "out", rec.student, "COPIES") == "0", rec.student


def _reaches(technique: str, top: Path) -> bool:
    """Whether ``technique`` looks where ``top`` was planted."""
    where = {"clone_under_tmp": "/tmp/", "copy_under_home": pwd.getpwuid(os.getuid()).pw_dir + "/",
             "srv_and_opt_trees": ("/srv/", "/opt/"), "instructor_checkout": str(ROOT.parent) + "/",
             "walk_everything": "/"}[technique]
    return str(top).startswith(where)


def _printed(out: Path, student: str, key: str) -> str:
    import nbformat

    nb = nbformat.read(str(out / "autograded" / student / DAY / f"{NB}.ipynb"), as_version=4)
    text = "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []))
    return _line(text, key)


@needs_bwrap
def test_ptgrade_hide_hides_more_even_inside_what_is_shown(tmp_path, monkeypatch):
    """PTGRADE_HIDE is extra hiding: a folder inside the bundled data (shown) is empty, the rest of the
    data is still there, and the checkout's own folder, hidden around what is shown, still shows the package."""
    monkeypatch.setenv("PTGRADE_HIDE", str(gradebook.COURSE_ROOT / "data" / "MNIST"))
    jail = _jail(tmp_path)
    probe = ("import os, sys; d = sys.argv[1]; print('MNIST:', os.listdir(os.path.join(d, 'MNIST')));"
             "print('README:', os.path.exists(os.path.join(d, 'README.md'))); import ptcourse; print('PKG: ok')")
    ran = subprocess.run(jail.wrap([sys.executable, "-c", probe, str(gradebook.COURSE_ROOT / "data")]),
                         capture_output=True, text=True, timeout=120, env=sandbox.kernel_env(dict(os.environ), jail.env))
    assert _line(ran.stdout, "MNIST") == "[]", ran.stdout + ran.stderr
    assert _line(ran.stdout, "README") == "True" and _line(ran.stdout, "PKG") == "ok", ran.stdout + ran.stderr
    assert os.listdir(gradebook.COURSE_ROOT / "data" / "MNIST")  # (there is something to hide)
