"""Isolation between students: nothing one notebook leaves behind reaches the next one's kernel.

One small class of ``day1/00_environment`` is graded through the class grader, in the sandbox,
on one worker (so, where warm kernels are available, every kernel is forked by the same zygote,
grader/jail/zygote.py), in this order:

* ``a_plant`` leaves every kind of leftover: files in its folder, ``/tmp``, ``$HOME`` and
  ``/dev/shm`` (and, with the course checked out under ``/tmp``, tries to write beside it and to
  move it); attributes on ``torch``, ``ptcourse`` and ``json``; a ``sys.modules`` entry; a
  builtins global; a monkeypatched ``torch.sigmoid``; environment variables; a daemon thread;
  child processes (one in a session of its own); a SysV shared memory segment;
* ``b_find`` looks for each one: if it finds any, its first exercise is left undefined, so the two
  checks of that exercise fail and a leak costs points, visibly (full marks: 8);
* ``c_self`` plants and looks in the same kernel: it must find every kind (so the looking can fail).

Where warm kernels are used, the finder's kernel must also hold no capabilities.
"""

from __future__ import annotations

import os

import pytest

from grader.jail import sandbox, zygote
from grader.run import engine, jobs
from tools.classroom import solved, with_code, write_class

DAY, NB, FUNC = "day1", "00_environment", "env_pick_device"
ISO = sandbox.probe()
KINDS = ["file .", "file /tmp", "file ~", "file /dev/shm", "torch.PTGLEAK", "ptcourse.PTGLEAK", "json.PTGLEAK",
         "sys.modules", "builtins", "torch.sigmoid", "env PTGLEAK", "env PTCOURSE_PTGLEAK", "thread", "process",
         "sysv shm"]

PLANT = '''
import builtins, ctypes, json, os, subprocess, sys, threading, time, types
import ptcourse
for _d, _n in ((".", "a"), ("/tmp", "b"), (os.path.expanduser("~"), "c"), ("/dev/shm", "d")):
    with open(os.path.join(_d, f"PTGLEAK-{_n}.txt"), "w") as _f:
        _f.write("left by a_plant")
torch.PTGLEAK = ptcourse.PTGLEAK = json.PTGLEAK = builtins.PTGLEAK = 1
sys.modules["ptgleak_module"] = types.ModuleType("ptgleak_module")
torch.sigmoid = lambda *a, **k: "PTGLEAK"
os.environ["PTGLEAK"] = os.environ["PTCOURSE_PTGLEAK"] = "1"
threading.Thread(target=time.sleep, args=(3600,), name="PTGLEAK-thread", daemon=True).start()
_keep = [subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)  # PTGLEAK"]),
         subprocess.Popen(["sh", "-c", "while :; do touch /tmp/PTGLEAK-late; sleep 0.2; done"],
                          start_new_session=True)]
ctypes.CDLL(None).shmget(0x5054474C, 4096, 0o1666)
# a course checked out under /tmp is put back there, read-only: try to write beside it and to move it
_top = os.path.join("/tmp", os.path.relpath(ptcourse.__file__, "/tmp").split(os.sep)[0])
if ptcourse.__file__.startswith("/tmp/"):
    for _attempt in (lambda: open(os.path.join(_top, "PTGLEAK-e.txt"), "w").close(),
                     lambda: os.rename(_top, _top + "-PTGLEAK")):
        try:
            _attempt()
        except OSError:
            pass
time.sleep(0.5)
'''

FIND = '''
import builtins, json, os, sys, threading
import ptcourse
_found = []
_top = os.path.join("/tmp", os.path.relpath(ptcourse.__file__, "/tmp").split(os.sep)[0])
_tmp_dirs = (("/tmp", "file /tmp"), (_top, "file /tmp")) if ptcourse.__file__.startswith("/tmp/") else (("/tmp", "file /tmp"),)
for _d, _label in ((".", "file ."), *_tmp_dirs, (os.path.expanduser("~"), "file ~"), ("/dev/shm", "file /dev/shm")):
    try:
        if any("PTGLEAK" in _n for _n in os.listdir(_d)):
            _found.append(_label)
    except OSError:
        pass
for _name, _mod in (("torch", torch), ("ptcourse", ptcourse), ("json", json)):
    if hasattr(_mod, "PTGLEAK"):
        _found.append(_name + ".PTGLEAK")
if "ptgleak_module" in sys.modules:
    _found.append("sys.modules")
if hasattr(builtins, "PTGLEAK"):
    _found.append("builtins")
if not isinstance(torch.sigmoid(torch.zeros(1)), torch.Tensor):
    _found.append("torch.sigmoid")
_found += ["env " + _k for _k in sorted(os.environ) if "PTGLEAK" in _k]
if any("PTGLEAK" in _t.name for _t in threading.enumerate()):
    _found.append("thread")
for _pid in [p for p in os.listdir("/proc") if p.isdigit() and int(p) != os.getpid()]:
    try:
        with open(f"/proc/{_pid}/cmdline", "rb") as _f:
            if b"PTGLEAK" in _f.read():
                _found.append("process")
                break
    except OSError:
        pass
try:
    with open("/proc/sysvipc/shm") as _f:
        if any(_row.split()[:1] == [str(0x5054474C)] for _row in _f.read().splitlines()[1:]):
            _found.append("sysv shm")
except OSError:
    pass
print("LEFTOVERS:", "|".join(_found) if _found else "none")
print("CAPS:", next(_l.split()[1] for _l in open("/proc/self/status") if _l.startswith("CapEff")))
if _found:
    del pick_device
'''


def _printed(out, student, key: str) -> str:
    import nbformat

    nb = nbformat.read(str(out / "autograded" / student / DAY / f"{NB}.ipynb"), as_version=4)
    text = "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []))
    return next(x for x in text.splitlines() if x.startswith(key)).split(":", 1)[1].strip()


def _leftovers(out, student) -> list[str]:
    rest = _printed(out, student, "LEFTOVERS:")
    return [] if rest == "none" else rest.split("|")


@pytest.mark.slow
@pytest.mark.skipif(not ISO.bwrap, reason="bubblewrap is not installed (apt-get install bubblewrap)")
def test_nothing_reaches_the_next_student(tmp_path):
    """The finder graded after the planter finds nothing and keeps full marks; the same search in the
    planter's own kernel finds every kind of leftover."""
    students = {
        "a_plant": with_code(solved(DAY, NB), FUNC, PLANT),
        "b_find": with_code(solved(DAY, NB), FUNC, FIND),
        "c_self": with_code(solved(DAY, NB), FUNC, PLANT + FIND),
    }
    write_class(tmp_path / "submitted", DAY, {s: {NB: nb} for s, nb in students.items()})
    opts = engine.Options(day=DAY, submissions=tmp_path / "submitted", out=tmp_path / "out",
                          db_url=f"sqlite:///{tmp_path / 'gb.db'}", workers=1, progress=False,
                          limits=jobs.Limits(cell_timeout=30, notebook_timeout=120, threads=1))
    starts, failures = zygote.STARTS, zygote.FAILURES
    summary = engine.grade_class(opts)
    records = {r.student: r for r in summary.records}
    assert all(r.status == "graded" for r in records.values()), records
    if zygote.enabled(ISO, opts.limits):  # the three kernels were forked by one warm zygote
        assert zygote.STARTS == starts + 1 and zygote.FAILURES == failures
        assert int(_printed(tmp_path / "out", "b_find", "CAPS:"), 16) == 0  # a forked kernel has no capabilities
    assert sorted(_leftovers(tmp_path / "out", "c_self")) == sorted(KINDS)  # the search works
    assert _leftovers(tmp_path / "out", "b_find") == []
    assert records["b_find"].score == 8, records["b_find"].cells
    assert os.path.exists(tmp_path / "out" / "autograded" / "a_plant" / DAY / f"{NB}.ipynb")
